package qp

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// TestFarkasMeasure checks the two measures of a certificate on a problem
// small enough to compute them by hand: x1 + x2 >= 3 with x <= 1, proved
// infeasible by the weights 1 on the row and 1 on each upper bound (r = 0,
// gap = 3 − 2 = 1, W = (1 + 3) + 2·(1 + 1) = 8).
func TestFarkasMeasure(t *testing.T) {
	p := &Problem{G: []float64{0, 0}, Ain: mat.NewDense(1, 2, []float64{1, 1}), Bin: []float64{3}, Upper: []float64{1, 1}}
	inf := math.Inf(1)
	for _, tc := range []struct {
		name          string
		f             Farkas
		residual, gap float64
	}{
		{"exact", Farkas{Ineq: []float64{1}, Upper: []float64{1, 1}}, 0, 1.0 / 8},
		{"scaled weights", Farkas{Ineq: []float64{4}, Upper: []float64{4, 4}}, 0, 1.0 / 8},
		// r = (0.5, 0): |r_1| against the terms 1 + 0.5
		{"residual", Farkas{Ineq: []float64{1}, Upper: []float64{0.5, 1}}, 0.5 / 1.5, 1.5 / 7},
		{"negative inequality weight", Farkas{Ineq: []float64{-1}}, inf, 0},
		{"weight on an infinite bound", Farkas{Ineq: []float64{1}, Lower: []float64{1, 0}}, inf, 0},
		{"NaN weight", Farkas{Ineq: []float64{math.NaN()}}, inf, 0},
		{"no weights", Farkas{}, 0, 0},
	} {
		f := tc.f
		if err := f.Measure(p); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// 1e-15: rounding of the few products involved
		if math.Abs(f.Residual-tc.residual) > 1e-15 && !(math.IsInf(tc.residual, 1) && math.IsInf(f.Residual, 1)) {
			t.Errorf("%s: Residual %v, want %v", tc.name, f.Residual, tc.residual)
		}
		if math.Abs(f.Gap-tc.gap) > 1e-15 {
			t.Errorf("%s: Gap %v, want %v", tc.name, f.Gap, tc.gap)
		}
		if f.verified(1e-9) != (tc.residual == 0 && tc.gap > 0) {
			t.Errorf("%s: verified = %v", tc.name, f.verified(1e-9))
		}
	}
}

// TestFarkasAbsorbBounds checks that the bound weights are rebuilt from the
// row weights, that rounding noise among the row weights is dropped, and that
// the result verifies.
func TestFarkasAbsorbBounds(t *testing.T) {
	// x1 + x2 >= 3 (proved with x <= 1), and x1 − x2 >= -10, which carries
	// a noise weight
	p := &Problem{G: []float64{0, 0}, Ain: mat.NewDense(2, 2, []float64{1, 1, 1, -1}), Bin: []float64{3, -10}, Upper: []float64{1, 1}}
	f := Farkas{Ineq: []float64{1, -1e-17}, Lower: []float64{5, 5}, Upper: make([]float64, 2)}
	f.absorbBounds(p, 2, 0, 2, make([]float64, 2), farkasDrop)
	if f.Ineq[1] != 0 || f.Lower[0] != 0 || f.Lower[1] != 0 || f.Upper[0] != 1 || f.Upper[1] != 1 {
		t.Fatalf("absorbed certificate %+v, want Ineq (1, 0), Lower 0, Upper (1, 1)", f)
	}
	if err := f.Measure(p); err != nil || !f.verified(1e-9) {
		t.Errorf("certificate %+v does not verify (%v)", f, err)
	}
}

// TestActiveSetFallback checks the dual fallback after a NumericalFailure of
// the primal method: with H positive definite the outcome of GoldfarbIdnani
// replaces it (iterations added, the failed phase 1's count kept); with a
// semidefinite H, or NoDualCrash, the primal outcome stands.
func TestActiveSetFallback(t *testing.T) {
	pd := &Problem{H: mat.NewSymDense(2, []float64{2, 0, 0, 2}), G: []float64{-2, -4}, Lower: []float64{0, 0}, Upper: []float64{0.5, 3}}
	semi := &Problem{H: mat.NewSymDense(2, []float64{1, 0, 0, 0}), G: []float64{-2, -4}, Lower: []float64{0, 0}, Upper: []float64{0.5, 3}}
	for _, tc := range []struct {
		name string
		a    *ActiveSet
		p    *Problem
		want linalg.Status
	}{
		{"positive definite", NewActiveSet(nil), pd, linalg.Optimal},
		{"semidefinite", NewActiveSet(nil), semi, linalg.NumericalFailure},
		{"NoDualCrash", &ActiveSet{NoDualCrash: true}, pd, linalg.NumericalFailure},
	} {
		res := Result{Status: linalg.NumericalFailure, Iterations: 7, Phase1Iterations: 5}
		if err := tc.a.fallback(context.Background(), tc.p, Settings{Tol: DefaultTol}, &res); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Status != tc.want {
			t.Errorf("%s: status %v, want %v", tc.name, res.Status, tc.want)
		}
		if tc.want == linalg.Optimal && (res.X[0] != 0.5 || math.Abs(res.X[1]-2) > 1e-12 || res.Iterations <= 7 || res.Phase1Iterations != 5) {
			t.Errorf("%s: X %v, iterations %d, phase 1 %d", tc.name, res.X, res.Iterations, res.Phase1Iterations)
		}
	}
}
