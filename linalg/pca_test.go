package linalg

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestPCA checks FitPCA against the definition on data with a known
// covariance: orthonormal components, variances that are those of the
// projected data, and a Transform equal to the explicit (x - mean) W.
func TestPCA(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n, p, q := 400, 12, 4
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			// Column j has standard deviation p - j (the first 4p), plus
			// an offset.
			sd := float64(p - j)
			if j == 0 {
				sd = 4 * float64(p)
			}
			x.Set(i, j, sd*rng.NormFloat64()+float64(j))
		}
	}
	for _, sample := range []int{-1, 0, 150} {
		pc, err := FitPCA(context.Background(), x, q, sample, 1)
		if err != nil {
			t.Fatal(err)
		}
		var g mat.Dense
		g.Mul(pc.Components.T(), pc.Components)
		for i := 0; i < q; i++ {
			for j := 0; j < q; j++ {
				want := 0.0
				if i == j {
					want = 1
				}
				if math.Abs(g.At(i, j)-want) > 1e-12 {
					t.Fatalf("sample %d: WᵀW(%d,%d) = %g", sample, i, j, g.At(i, j))
				}
			}
		}
		z, err := pc.Transform(x)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < q; k++ {
			var ss, mean float64
			for i := 0; i < n; i++ {
				mean += z.At(i, k) / float64(n)
			}
			for i := 0; i < n; i++ {
				ss += (z.At(i, k) - mean) * (z.At(i, k) - mean)
			}
			if math.Abs(mean) > 1e-9 {
				t.Errorf("sample %d: component %d has mean %g", sample, k, mean)
			}
			if sample < 0 && math.Abs(ss/float64(n)-pc.Variances[k]) > 1e-9*pc.Variances[k] {
				t.Errorf("component %d: projected variance %g, reported %g", k, ss/float64(n), pc.Variances[k])
			}
			if k > 0 && pc.Variances[k] > pc.Variances[k-1] {
				t.Errorf("variances not descending: %v", pc.Variances)
			}
		}
		// Explicit (x - mean) W at one row.
		for k := 0; k < q; k++ {
			var s float64
			for j := 0; j < p; j++ {
				s += (x.At(7, j) - pc.Mean[j]) * pc.Components.At(j, k)
			}
			if math.Abs(s-z.At(7, k)) > 1e-10*(1+math.Abs(s)) {
				t.Errorf("Transform(7,%d) = %g, want %g", k, z.At(7, k), s)
			}
		}
		// The leading direction is the first axis (standard deviation 4p).
		if math.Abs(math.Abs(pc.Components.At(0, 0))-1) > 0.1 {
			t.Errorf("sample %d: leading direction %v, want about e1", sample, mat.Col(nil, 0, pc.Components))
		}
	}
}

func TestPCAErrors(t *testing.T) {
	ctx := context.Background()
	x := mat.NewDense(5, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 0, 1, 2, 2, 2})
	bad := mat.DenseCopyOf(x)
	bad.Set(1, 1, math.NaN())
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		x    *mat.Dense
		q    int
		kind error
	}{
		{"q=0", ctx, x, 0, ErrSettings},
		{"q>p", ctx, x, 4, ErrSettings},
		{"nil", ctx, nil, 1, ErrEmpty},
		{"nan", ctx, bad, 1, ErrNonFinite},
		{"canceled", canceled, x, 1, context.Canceled},
	} {
		_, err := FitPCA(c.ctx, c.x, c.q, 0, 1)
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.kind)
		}
	}
	pc, err := FitPCA(ctx, x, 2, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pc.Transform(mat.NewDense(2, 4, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("Transform of 4 columns: %v, want ErrShape", err)
	}
	if _, err := (*PCA)(nil).Transform(x); !errors.Is(err, ErrEmpty) {
		t.Errorf("nil PCA: %v, want ErrEmpty", err)
	}
}
