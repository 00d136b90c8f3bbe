package qp_test

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
	"ukm/qp/qptest"
)

// TestGoldfarbIdnaniNearlyDependent runs the dual method on strictly convex
// problems with rows that depend on equalities up to a tilt of 1e-12 or
// 1e-11 and are violated at the planted point by a shift (see qptest.Spec):
// the case in which a violated constraint judged dependent with nothing to
// release used to be declared Infeasible. The problems are feasible, so
// Infeasible is never acceptable; Optimal must meet the KKT tolerance
// measured independently; other outcomes must be honest failures.
func TestGoldfarbIdnaniNearlyDependent(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		tilt, shift, curvature float64
		wantOptimal            bool
	}{
		// violated within Tol, independent only through a tiny curvature
		{"tilt 1e-11, shift 3e-12", 1e-11, 3e-12, 1e-6, true},
		// violated within Tol, dependent to the test's 1e-10: accepted
		{"tilt 1e-12, shift 1e-10", 1e-12, 1e-10, 1, true},
		{"tilt 1e-12, shift 5e-10", 1e-12, 5e-10, 1, true},
		// violated beyond Tol: the optimum needs a multiplier near 1e13
		{"tilt 1e-12, shift 3e-9", 1e-12, 3e-9, 1, false},
	} {
		for seed := uint64(1); seed <= 8; seed++ {
			gen := qptest.Generate(qptest.Spec{N: 60, Rows: 55, EqFrac: 0.3, Curved: 60, Seed: seed,
				NearlyDependent: 10, Tilt: tc.tilt, Shift: tc.shift, ZCurvature: tc.curvature})
			var res qp.Result
			if err := qp.NewGoldfarbIdnani(nil).Solve(context.Background(), gen.Problem, nil, &res); err != nil {
				t.Fatalf("%s seed %d: %v", tc.name, seed, err)
			}
			switch res.Status {
			case linalg.Infeasible:
				t.Errorf("%s seed %d: Infeasible on a feasible problem (certificate %+v)", tc.name, seed, res.Farkas)
			case linalg.Optimal:
				kkt, _ := qp.Residuals(gen.Problem, res.X, res.Eq, res.Ineq, res.Lower, res.Upper)
				if kkt.Max() > 1e-9 {
					t.Errorf("%s seed %d: Optimal with KKT %+v", tc.name, seed, kkt)
				}
			default:
				if tc.wantOptimal {
					t.Errorf("%s seed %d: %v, want Optimal", tc.name, seed, res.Status)
				}
			}
		}
	}
}

// TestADMMIterationLimitPoint checks what ADMM documents about the point it
// returns at its iteration limit: its last iterate, finite, generally not
// feasible, with the violation reported in Result.KKT.PrimalFeas as
// qp.Residuals measures it.
func TestADMMIterationLimitPoint(t *testing.T) {
	limited, infeasible := 0, 0
	for _, fam := range qptest.DegenerateFamilies(20, 40, 1) {
		gen := qptest.Generate(fam.Spec)
		var res qp.Result
		if err := qp.NewADMM(&qp.Settings{MaxIter: 30}).Solve(context.Background(), gen.Problem, nil, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status != linalg.IterationLimit {
			continue // solved (or proved infeasible) within 30 iterations
		}
		limited++
		kkt, err := qp.Residuals(gen.Problem, res.X, res.Eq, res.Ineq, res.Lower, res.Upper)
		if err != nil || math.IsInf(kkt.PrimalFeas, 1) {
			t.Errorf("%s: X = %v not finite (%v)", fam.Name, res.X, err)
			continue
		}
		// the reported violation is the measured one (to rounding)
		if math.Abs(res.KKT.PrimalFeas-kkt.PrimalFeas) > 1e-12*(1+kkt.PrimalFeas) {
			t.Errorf("%s: reported PrimalFeas %.3e, measured %.3e", fam.Name, res.KKT.PrimalFeas, kkt.PrimalFeas)
		}
		if kkt.PrimalFeas > 1e-9 {
			infeasible++
		}
	}
	// 30 iterations are far too few for these families: most stop at the
	// limit, away from feasibility (which the doc must therefore not claim)
	if limited == 0 || infeasible == 0 {
		t.Errorf("%d families at the iteration limit, %d of them infeasible; want some of each", limited, infeasible)
	}
}

// TestResidualsCancellingMultipliers: multipliers that cancel each other on
// dependent rows do not make a point that is not optimal look stationary.
// On two copies of the row x1 + x2 = 1 (minimise ½‖x‖²), the feasible point
// (1, 0) is not optimal whatever the multipliers; with 1e16 and −1e16 the
// largest term of the multiplier sum is 1e16, which a scale by terms would
// have taken as the size of a residual of 1. (1e-6 is the guard above
// which the solvers report NumericalFailure instead of Optimal.) (The fuzz corpus holds the
// case that found it: the dual crash's answer on three copies of one row
// and a singular H, 48 above the optimum, passed as Optimal.)
func TestResidualsCancellingMultipliers(t *testing.T) {
	p := &qp.Problem{
		H:   mat.NewSymDense(2, []float64{1, 0, 0, 1}),
		G:   []float64{0, 0},
		Aeq: mat.NewDense(2, 2, []float64{1, 1, 1, 1}),
		Beq: []float64{1, 1},
	}
	for _, tc := range []struct {
		name    string
		x, eq   []float64
		optimal bool
	}{
		{"optimum", []float64{0.5, 0.5}, []float64{0.25, 0.25}, true},
		{"optimum, multipliers on one copy", []float64{0.5, 0.5}, []float64{0.5, 0}, true},
		{"cancelling multipliers", []float64{1, 0}, []float64{1e16, -1e16}, false},
		{"cancelling multipliers at the optimum", []float64{0.5, 0.5}, []float64{1e16, -1e16}, false},
	} {
		k, err := qp.Residuals(p, tc.x, tc.eq, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ok := k.Max() <= 1e-6; ok != tc.optimal {
			t.Errorf("%s: KKT %+v, passes %v, want %v", tc.name, k, ok, tc.optimal)
		}
	}
}
