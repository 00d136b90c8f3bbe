package spectral

import (
	"context"
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// TestSpreadingIsZhou checks the transform against label spreading itself:
// on the full eigenbasis of a normalised affinity S, the kernel
// V diag(mu) Vᵀ is proportional to (I - alpha S)^-1, so its columns at the
// labeled points times Y give Zhou's F up to a positive factor.
func TestSpreadingIsZhou(t *testing.T) {
	const n, alpha = 40, 0.9
	// A ring graph with a chord: connected, so theta_1 = 1.
	w := mat.NewSymDense(n, nil)
	for i := range n {
		w.SetSym(i, (i+1)%n, 1)
	}
	w.SetSym(0, n/2, 1)
	deg := make([]float64, n)
	for i := range n {
		for j := range n {
			deg[i] += w.At(i, j)
		}
	}
	s := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			s.SetSym(i, j, w.At(i, j)/math.Sqrt(deg[i]*deg[j]))
		}
	}
	b := topBasis(t, s, n, false)
	if math.Abs(b.Values[0]-1) > 1e-12 {
		t.Fatalf("largest eigenvalue %v, want 1", b.Values[0])
	}
	// Zero the eigenvalues at or below zero as the design does: compare
	// with the same projection of (I - alpha S)^-1.
	mu, err := Spreading{Alpha: alpha}.Coefficients(context.Background(), nil, b, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, v := range mu {
		sum += v
	}
	if math.Abs(sum-n) > 1e-9 {
		t.Fatalf("coefficients sum to %v", sum)
	}
	for i, v := range b.Values {
		if v <= 0 {
			if mu[i] != 0 {
				t.Fatalf("eigenvalue %v got weight %v", v, mu[i])
			}
			continue
		}
		// mu_i (1 - alpha theta_i) is the same positive constant for all i.
		r0 := mu[0] * (1 - alpha*b.Values[0])
		if ri := mu[i] * (1 - alpha*v); math.Abs(ri-r0) > 1e-12*r0 {
			t.Fatalf("pair %d: mu (1 - alpha theta) = %v, want %v", i, ri, r0)
		}
	}
}

func TestSpreadingBadInput(t *testing.T) {
	b, _ := rbfBasis(t, 30, 4, 3)
	ctx := context.Background()
	for _, a := range []float64{-0.1, 1, 1.5, math.NaN()} {
		if _, err := (Spreading{Alpha: a}).Coefficients(ctx, nil, b, nil, nil); !errors.Is(err, linalg.ErrSettings) {
			t.Errorf("alpha %v: error %v, want linalg.ErrSettings", a, err)
		}
	}
	neg := &Basis{Values: []float64{-1, -2}, V: mat.NewDense(3, 2, []float64{1, 0, 0, 1, 0, 0})}
	if _, err := (Spreading{}).Coefficients(ctx, nil, neg, nil, nil); !errors.Is(err, linalg.ErrDegenerate) {
		t.Errorf("no positive eigenvalue: %v", err)
	}
	if _, err := (Spreading{}).Coefficients(ctx, nil, nil, nil, nil); !errors.Is(err, linalg.ErrEmpty) {
		t.Errorf("nil basis: %v", err)
	}
}
