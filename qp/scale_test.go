package qp_test

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
)

// TestUniformScale solves one small QP with every datum multiplied by s:
// the optimum does not move. Before the rows and the objective of such a
// problem were rescaled, s = 1e-30 made the rows count as satisfied by any
// point (the residuals add 1 to their scales) and ActiveSet returned a point
// violating them, as Optimal.
func TestUniformScale(t *testing.T) {
	build := func(s float64) *qp.Problem {
		h := mat.NewSymDense(3, []float64{4, 1, 0, 1, 3, 1, 0, 1, 2})
		h.ScaleSym(s, h)
		ain := mat.NewDense(2, 3, []float64{1, 1, 1, 1, -1, 0})
		ain.Scale(s, ain)
		aeq := mat.NewDense(1, 3, []float64{1, 2, -1})
		aeq.Scale(s, aeq)
		return &qp.Problem{H: h, G: []float64{-s, -2 * s, 3 * s}, Aeq: aeq, Beq: []float64{0.5 * s}, Ain: ain, Bin: []float64{s, 0}}
	}
	want := []float64{3.0 / 7, 1.5 / 7, 2.5 / 7} // on Σx = 1 and x1 + 2x2 − x3 = 1/2
	for _, tc := range []struct {
		name string
		s    qp.Solver
		tol  float64
	}{
		{"ActiveSet", qp.NewActiveSet(nil), 1e-12},
		{"ActiveSet/NoDualCrash", &qp.ActiveSet{NoDualCrash: true}, 1e-12},
		{"GoldfarbIdnani", qp.NewGoldfarbIdnani(nil), 1e-12},
		{"ADMM", qp.NewADMM(nil), 1e-6},
	} {
		for _, s := range []float64{1e-30, 1e-10, 1, 1e10, 1e30} {
			var res qp.Result
			if err := tc.s.Solve(context.Background(), build(s), nil, &res); err != nil {
				t.Errorf("%s s=%g: %v", tc.name, s, err)
				continue
			}
			dx := 0.0
			for i, v := range want {
				dx = math.Max(dx, math.Abs(res.X[i]-v))
			}
			if res.Status != linalg.Optimal || dx > tc.tol {
				t.Errorf("%s s=%g: %v at %v, want Optimal at %v", tc.name, s, res.Status, res.X, want)
			}
		}
	}
}
