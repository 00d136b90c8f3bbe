package qp_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"ukm/linalg"
	"ukm/qp"
	"ukm/qp/qptest"
)

// objTol is the relative objective accuracy required against a planted
// optimum: |f − f*| <= objTol·max(1, |f*|).
const objTol = 1e-8

// checkOutcome checks res against what Generate knows about p: an Optimal
// answer within objTol of the planted optimal value with KKT residuals below
// 1e-9 (measured with qp.Residuals), or a certified Infeasible (the
// certificate re-measured with Farkas.Measure: residual <= 1e-9 < gap). strict
// solvers must reach exactly that outcome; others may also stop at an
// honest IterationLimit, never at a wrong status.
func checkOutcome(gen qptest.Generated, res *qp.Result, strict bool) error {
	p := gen.Problem
	switch {
	case res.Status == linalg.Optimal:
		if gen.Want != linalg.Optimal {
			return fmt.Errorf("Optimal on an infeasible problem")
		}
		kkt, err := qp.Residuals(p, res.X, res.Eq, res.Ineq, res.Lower, res.Upper)
		if err != nil || kkt.Max() > 1e-9 {
			return fmt.Errorf("Optimal with KKT %+v (%v)", kkt, err)
		}
		if d := math.Abs(res.Obj-gen.Obj) / math.Max(1, math.Abs(gen.Obj)); d > objTol {
			return fmt.Errorf("Optimal with objective %v, planted %v (relative %.1e)", res.Obj, gen.Obj, d)
		}
	case res.Status == linalg.Infeasible:
		if gen.Want != linalg.Infeasible {
			return fmt.Errorf("Infeasible on a feasible problem")
		}
		f := res.Farkas
		if err := f.Measure(p); err != nil || !(f.Residual <= 1e-9 && f.Gap > 1e-9) {
			return fmt.Errorf("Infeasible with certificate residual %.1e gap %.1e (%v)", f.Residual, f.Gap, err)
		}
	case strict || res.Status != linalg.IterationLimit:
		return fmt.Errorf("status %v (phase 1: %d of %d iterations), want %v", res.Status, res.Phase1Iterations, res.Iterations, gen.Want)
	}
	return nil
}

// TestDegenerateFamilies solves the LP-like degenerate families of qptest
// (redundant, duplicated, empty and ranged rows, scales over 8 decades, fixed
// and free variables, H zero on most variables, infeasible versions) at
// several sizes: ActiveSet must reach the planted optimum or a certified
// Infeasible on every one, with or without the dual crash; GoldfarbIdnani on
// the strictly convex ones; ADMM (on the smallest size: it is slow there) may
// stop at its iteration limit.
func TestDegenerateFamilies(t *testing.T) {
	sizes := [][2]int{{20, 40}, {60, 120}}
	if !testing.Short() {
		sizes = append(sizes, [2]int{150, 300})
	}
	for _, sz := range sizes {
		for seed := uint64(1); seed <= 3; seed++ {
			for _, fam := range qptest.DegenerateFamilies(sz[0], sz[1], seed) {
				gen := qptest.Generate(fam.Spec)
				for _, tc := range []struct {
					name   string
					s      qp.Solver
					strict bool
					skip   bool
				}{
					{"ActiveSet", qp.NewActiveSet(nil), true, false},
					{"ActiveSet/NoDualCrash", &qp.ActiveSet{NoDualCrash: true}, true, fam.Spec.Curved < fam.Spec.N},
					{"GoldfarbIdnani", qp.NewGoldfarbIdnani(nil), true, fam.Spec.Curved < fam.Spec.N},
					{"ADMM", qp.NewADMM(nil), false, sz[0] > 20},
				} {
					if tc.skip {
						continue
					}
					var res qp.Result
					if err := tc.s.Solve(context.Background(), gen.Problem, nil, &res); err != nil {
						t.Errorf("n=%d rows=%d %s seed %d %s: %v", sz[0], sz[1], fam.Name, seed, tc.name, err)
						continue
					}
					if err := checkOutcome(gen, &res, tc.strict); err != nil {
						t.Errorf("n=%d rows=%d %s seed %d %s: %v", sz[0], sz[1], fam.Name, seed, tc.name, err)
					}
				}
			}
		}
	}
}
