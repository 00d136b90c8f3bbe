package linalg

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestAliasedDestinations passes destinations that share storage with an
// input and requires the same answer as with a fresh destination.
func TestAliasedDestinations(t *testing.T) {
	ctx := context.Background()
	const n = 70 // more than one 64-row tile
	for _, k := range []Kernel{Linear{}, RBF{Gamma: 0.3}, Quadratic()} {
		// CrossTo with dst == x (x and z are n x n).
		x := randNormal(3, n, n)
		z := randNormal(4, n, n)
		want, err := Cross(ctx, k, x, z)
		if err != nil {
			t.Fatal(err)
		}
		xa := mat.DenseCopyOf(x)
		if err := CrossTo(ctx, xa, k, xa, z); err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(xa, want); d > 1e-12 {
			t.Errorf("%v: CrossTo(dst=x) differs from a fresh dst by %g", k, d)
		}
		za := mat.DenseCopyOf(z)
		if err := CrossTo(ctx, za, k, x, za); err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(za, want); d > 1e-12 {
			t.Errorf("%v: CrossTo(dst=z) differs from a fresh dst by %g", k, d)
		}

		// GramTo with dst sharing the backing array of x.
		wantG, err := Gram(ctx, k, x)
		if err != nil {
			t.Fatal(err)
		}
		data := append([]float64(nil), x.RawMatrix().Data...)
		xs := mat.NewDense(n, n, data)
		dst := mat.NewSymDense(n, data)
		if err := GramTo(ctx, dst, k, xs); err != nil {
			t.Fatal(err)
		}
		if d := maxAbsDiff(dst, wantG); d > 1e-12 {
			t.Errorf("%v: GramTo(dst sharing x) differs from a fresh dst by %g", k, d)
		}
	}

	// Shifted views of one matrix: dst is x moved down by one row.
	big := randNormal(5, 11, 3)
	x := mat.DenseCopyOf(big.Slice(0, 10, 0, 3))
	sc, err := FitScaler(x, ZScore)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := sc.Transform(x)
	in := big.Slice(0, 10, 0, 3).(*mat.Dense)
	out := big.Slice(1, 11, 0, 3).(*mat.Dense)
	if err := sc.TransformTo(out, in); err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(out, want); d > 1e-12 {
		t.Errorf("TransformTo with overlapping views differs by %g", d)
	}

	kb := randNormal(6, 5, 4)
	for i := 0; i < 5; i++ {
		for j := 0; j < 4; j++ {
			kb.Set(i, j, kb.At(i, j)*kb.At(i, j)+1)
		}
	}
	dx, dz := []float64{1, 2, 3, 4}, []float64{1, 2, 3, 4}
	var wantC mat.Dense
	if err := CosineNormalizeCross(&wantC, kb.Slice(0, 4, 0, 4).(*mat.Dense), dx, dz); err != nil {
		t.Fatal(err)
	}
	out = kb.Slice(1, 5, 0, 4).(*mat.Dense)
	if err := CosineNormalizeCross(out, kb.Slice(0, 4, 0, 4).(*mat.Dense), dx, dz); err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(out, &wantC); d > 1e-12 {
		t.Errorf("CosineNormalizeCross with overlapping views differs by %g", d)
	}

	ktrain := mat.NewSymDense(4, nil)
	for i := 0; i < 4; i++ {
		for j := i; j < 4; j++ {
			ktrain.SetSym(i, j, float64(i+j+1))
		}
	}
	kz := randNormal(7, 5, 4)
	var wantCC mat.Dense
	if err := CenterCross(&wantCC, kz.Slice(0, 4, 0, 4).(*mat.Dense), ktrain); err != nil {
		t.Fatal(err)
	}
	out = kz.Slice(1, 5, 0, 4).(*mat.Dense)
	if err := CenterCross(out, kz.Slice(0, 4, 0, 4).(*mat.Dense), ktrain); err != nil {
		t.Fatal(err)
	}
	if d := maxAbsDiff(out, &wantCC); d > 1e-12 {
		t.Errorf("CenterCross with overlapping views differs by %g", d)
	}

	// LowRank.MulVecTo documents that dst may be x.
	lr, err := NewLowRank(randNormal(8, 6, 2), []float64{2, -1})
	if err != nil {
		t.Fatal(err)
	}
	v := []float64{1, 2, 3, 4, 5, 6}
	wantV := make([]float64, 6)
	lr.MulVecTo(wantV, v)
	lr.MulVecTo(v, v)
	for i := range v {
		if v[i] != wantV[i] {
			t.Fatalf("LowRank.MulVecTo(x, x) = %v, want %v", v, wantV)
		}
	}
}
