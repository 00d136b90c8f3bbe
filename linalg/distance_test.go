package linalg

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestSquaredDistancesRBF(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ n, p int }{{1, 3}, {2, 1}, {5, 2}, {37, 7}, {130, 34}} {
		full := randNormal(uint64(10+tc.n), tc.n, tc.p+2)
		x := full.Slice(0, tc.n, 1, tc.p+1).(*mat.Dense) // stride > width
		var d mat.SymDense
		if err := SquaredDistances(ctx, &d, x); err != nil {
			t.Fatal(err)
		}
		raw := d.RawSymmetric()
		for i := 0; i < tc.n; i++ {
			for j := 0; j < tc.n; j++ {
				want := sqDist(x.RawRowView(i)[:tc.p], x.RawRowView(j)[:tc.p])
				if i > j {
					want = sqDist(x.RawRowView(j)[:tc.p], x.RawRowView(i)[:tc.p])
				}
				// Both triangles are stored, bitwise equal to the direct sum.
				if got := raw.Data[i*raw.Stride+j]; got != want {
					t.Fatalf("n=%d: d(%d,%d) = %v, want %v", tc.n, i, j, got, want)
				}
			}
		}
		if tc.n < 2 {
			if _, err := MedianGammaOf(&d); !errors.Is(err, ErrEmpty) {
				t.Fatalf("one point: %v, want ErrEmpty", err)
			}
			continue
		}
		g, err := MedianGammaOf(&d)
		g0, err0 := MedianGamma(ctx, x, nil)
		if err != nil || err0 != nil || g != g0 {
			t.Fatalf("n=%d: MedianGammaOf %v (%v), MedianGamma %v (%v): want the same bits", tc.n, g, err, g0, err0)
		}
		// The kernel from distances agrees with the Gram matrix, which uses
		// the norm identity: its cancellation error in the distance is about
		// eps (||x||^2 + ||z||^2), so |dK| <= gamma * 8 eps max ||x||^2.
		kg, err := Gram(ctx, RBF{Gamma: g}, x)
		if err != nil {
			t.Fatal(err)
		}
		var maxNorm float64
		for i := 0; i < tc.n; i++ {
			maxNorm = math.Max(maxNorm, mat.Dot(x.RowView(i), x.RowView(i)))
		}
		tol := g * 8 * 0x1p-52 * maxNorm
		if err := RBFFromDistances(&d, &d, g); err != nil { // in place
			t.Fatal(err)
		}
		for i := 0; i < tc.n; i++ {
			if raw.Data[i*raw.Stride+i] != 1 {
				t.Fatalf("diagonal %v, want 1", raw.Data[i*raw.Stride+i])
			}
			for j := 0; j < tc.n; j++ {
				if diff := math.Abs(raw.Data[i*raw.Stride+j] - kg.At(i, j)); diff > tol {
					t.Fatalf("n=%d: K(%d,%d) differs from Gram by %.3g > %.3g", tc.n, i, j, diff, tol)
				}
				if raw.Data[i*raw.Stride+j] != raw.Data[j*raw.Stride+i] {
					t.Fatalf("not symmetric at (%d,%d)", i, j)
				}
			}
		}
	}
}

func TestDistanceErrors(t *testing.T) {
	ctx := context.Background()
	x := randNormal(1, 6, 2)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	var d mat.SymDense
	if err := SquaredDistances(ctx, &d, x); err != nil {
		t.Fatal(err)
	}
	bad := mat.NewSymDense(6, nil)
	bad.SetSym(1, 3, math.NaN())
	neg := mat.NewSymDense(6, nil)
	neg.SetSym(0, 2, -1)
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"nil dst", SquaredDistances(ctx, nil, x), ErrShape},
		{"wrong size", SquaredDistances(ctx, mat.NewSymDense(5, nil), x), ErrShape},
		{"empty data", SquaredDistances(ctx, &mat.SymDense{}, &mat.Dense{}), ErrEmpty},
		{"NaN data", SquaredDistances(ctx, &mat.SymDense{}, mat.NewDense(2, 1, []float64{0, math.NaN()})), ErrNonFinite},
		{"cancelled", SquaredDistances(cancelled, &mat.SymDense{}, x), context.Canceled},
		{"median of NaN", func() error { _, err := MedianGammaOf(bad); return err }(), ErrNonFinite},
		{"median of negative", func() error { _, err := MedianGammaOf(neg); return err }(), ErrNonFinite},
		{"median of zeros", func() error { _, err := MedianGammaOf(mat.NewSymDense(4, nil)); return err }(), ErrDegenerate},
		{"median of nil", func() error { _, err := MedianGammaOf(nil); return err }(), ErrEmpty},
		{"rbf gamma 0", RBFFromDistances(&mat.SymDense{}, &d, 0), ErrSettings},
		{"rbf gamma NaN", RBFFromDistances(&mat.SymDense{}, &d, math.NaN()), ErrSettings},
		{"rbf NaN distance", RBFFromDistances(&mat.SymDense{}, bad, 1), ErrNonFinite},
		{"rbf wrong size", RBFFromDistances(mat.NewSymDense(3, nil), &d, 1), ErrShape},
		{"rbf nil dst", RBFFromDistances(nil, &d, 1), ErrShape},
		{"rbf nil d", RBFFromDistances(&mat.SymDense{}, nil, 1), ErrEmpty},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.err, tc.want)
		}
	}
}

// TestMedianGammaOfLarge exercises the bracketed median (at least 16384
// pairs) against a full sort, bitwise, for odd and even pair counts, with
// points in clusters (many near-equal distances) and with exact ties from
// repeated points.
func TestMedianGammaOfLarge(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n       int
		repeats bool
	}{{183, false}, {200, false}, {260, true}, {351, false}} {
		x := randNormal(uint64(tc.n), tc.n, 4)
		if tc.repeats {
			src := mat.DenseCopyOf(x)
			for i := 0; i < tc.n; i++ { // each point three times
				copy(x.RawRowView(i), src.RawRowView(i/3))
			}
		}
		var d mat.SymDense
		if err := SquaredDistances(ctx, &d, x); err != nil {
			t.Fatal(err)
		}
		var all []float64
		for i := 0; i < tc.n; i++ {
			for j := i + 1; j < tc.n; j++ {
				all = append(all, d.At(i, j))
			}
		}
		slices.Sort(all)
		m := len(all)
		med := all[m/2]
		if m%2 == 0 {
			med = 0.5 * (all[m/2-1] + all[m/2])
		}
		g, err := MedianGammaOf(&d)
		if err != nil || g != 1/med {
			t.Errorf("n=%d (m=%d): gamma %v, want %v (%v)", tc.n, m, g, 1/med, err)
		}
		// MedianGamma's exact path brackets its own array the same way.
		if g, err := MedianGamma(ctx, x, nil); err != nil || g != 1/med {
			t.Errorf("n=%d (m=%d): MedianGamma %v, want %v (%v)", tc.n, m, g, 1/med, err)
		}
	}
}

// TestMedianGammaOfLargeInvalid: the bracketed pass validates as it goes.
func TestMedianGammaOfLargeInvalid(t *testing.T) {
	for _, bad := range []float64{math.NaN(), -1, math.Inf(1), math.Inf(-1)} {
		for _, at := range [][2]int{{0, 1}, {100, 150}, {198, 199}} {
			var d mat.SymDense
			if err := SquaredDistances(context.Background(), &d, randNormal(9, 200, 3)); err != nil {
				t.Fatal(err)
			}
			d.SetSym(at[0], at[1], bad)
			if _, err := MedianGammaOf(&d); !errors.Is(err, ErrNonFinite) {
				t.Errorf("%v at %v: %v, want ErrNonFinite", bad, at, err)
			}
		}
	}
}
