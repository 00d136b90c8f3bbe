package eig

import (
	"context"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// affinity returns the normalised affinity D^-1/2 W D^-1/2 of the 10-NN
// graph of n random points in the unit cube: spectrum in [-1, 1], its top
// crowded near 1, the operator Chebyshev is for.
func affinity(t *testing.T, n int, seed uint64) *linalg.CSR {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	x := mat.NewDense(n, 3, nil)
	for i := range x.RawMatrix().Data {
		x.RawMatrix().Data[i] = rng.Float64()
	}
	w, err := linalg.KNNGraph(context.Background(), x, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := linalg.NormalizedAffinity(w)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestLooseTolerance solves with tolerances far above round-off. The
// multiplicity check locks the converged pairs, dropping their couplings
// to the new vectors, which are as large as their residuals (up to Tol
// ||A||); the symmetry check of later steps must allow for that (it once
// reported such a solve as an asymmetric operator).
func TestLooseTolerance(t *testing.T) {
	op, err := NewCSR(affinity(t, 3000, 5))
	if err != nil {
		t.Fatal(err)
	}
	for _, tol := range []float64{1e-3, 1e-5, 1e-8} {
		for _, s := range []Solver{ThickRestart{}, Block{}, Lanczos{}, Chebyshev{}} {
			res, err := s.Solve(context.Background(), op, 40, &Settings{Tol: tol, Seed: 1})
			if err != nil {
				t.Errorf("%s, Tol %g: %v", s.Name(), tol, err)
				continue
			}
			for i, r := range res.Residuals {
				if r > tol*res.NormEstimate*1.01 && res.Status == linalg.Converged {
					t.Errorf("%s, Tol %g: residual %d = %g above the tolerance", s.Name(), tol, i, r)
				}
			}
		}
	}
}
