package metric

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// xingObjective returns Σ_D ||d||_M and Σ_S ||d||²_M.
func xingObjective(x *mat.Dense, c Constraints, m mat.Symmetric) (g, f float64) {
	_, p := x.Dims()
	q := func(pr Pair) float64 {
		d := mat.NewVecDense(p, nil)
		for l := 0; l < p; l++ {
			d.SetVec(l, x.At(pr.I, l)-x.At(pr.J, l))
		}
		return mat.Inner(d, m, d)
	}
	for _, pr := range c.Dissimilar {
		g += math.Sqrt(math.Max(q(pr), 0))
	}
	for _, pr := range c.Similar {
		f += q(pr)
	}
	return g, f
}

// Xing's solution satisfies the constraint with equality and beats every
// random feasible metric (the problem is concave, so its maximum is global).
func TestXingOptimal(t *testing.T) {
	for _, tc := range []struct {
		name        string
		p, sim, dis int
		ridge       float64
	}{
		{"p=3", 3, 30, 30, 0},
		{"p=6", 6, 40, 60, 0},
		{"p=8 with ridge", 8, 5, 40, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, y := gaussians(30, 3, tc.p, 21)
			c := mustConstraints(t, y, tc.sim, tc.dis, 22)
			res, err := Xing(context.Background(), x, c, &XingSettings{Ridge: tc.ridge})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != linalg.Converged {
				t.Fatalf("status %v after %d steps", res.Status, res.Iterations)
			}
			// With a ridge the constraint is on S + ridge: check with the
			// ridge's matrix by comparing against random metrics scaled
			// the same way.
			m := res.Metric.Mahalanobis()
			g, f := xingObjective(x, c, m)
			if math.Abs(g-res.Objective) > 1e-9*g {
				t.Errorf("objective %v, recomputed %v", res.Objective, g)
			}
			if tc.ridge == 0 && math.Abs(f-1) > 1e-9 {
				t.Errorf("Σ_S ||d||²_M = %v, want 1", f)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for k := 0; k < 200; k++ {
				a := mat.NewDense(tc.p, tc.p, nil)
				for i := 0; i < tc.p; i++ {
					for j := 0; j < tc.p; j++ {
						a.Set(i, j, rng.NormFloat64())
					}
				}
				r := mat.NewSymDense(tc.p, nil)
				r.SymOuterK(1, a)
				_, fr := xingObjective(x, c, r)
				if tc.ridge > 0 {
					// Scale so that tr(R (S + ridge tr(S)/p I)) = 1.
					var sm float64
					for _, pr := range c.Similar {
						for l := 0; l < tc.p; l++ {
							d := x.At(pr.I, l) - x.At(pr.J, l)
							sm += d * d
						}
					}
					fr += tc.ridge * sm / float64(tc.p) * mat.Trace(r)
				}
				r.ScaleSym(1/fr, r)
				gr, _ := xingObjective(x, c, r)
				if gr > g*(1+1e-6) {
					t.Fatalf("random feasible metric reaches %v > optimum %v", gr, g)
				}
				if tc.ridge > 0 {
					continue
				}
				// A small feasible step away from the optimum: M + εR,
				// rescaled onto the constraint, must not do better.
				for _, eps := range []float64{1e-2, 1e-4} {
					step := mat.NewSymDense(tc.p, nil)
					step.ScaleSym(eps, r)
					step.AddSym(step, m)
					_, fs := xingObjective(x, c, step)
					step.ScaleSym(1/fs, step)
					if gs, _ := xingObjective(x, c, step); gs > g*(1+1e-9) {
						t.Fatalf("step %g from the optimum reaches %v > %v", eps, gs, g)
					}
				}
			}
		})
	}
}

func TestProjectTrace(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []float64 // eigenvalues of a diagonal input
		want []float64
	}{
		{"inside", []float64{0.2, 0.3}, []float64{0.2, 0.3}},
		{"negative clipped", []float64{-1, 0.5}, []float64{0, 0.5}},
		{"onto the simplex", []float64{2, 1}, []float64{1, 0}},
		{"equal split", []float64{1, 1}, []float64{0.5, 0.5}},
	} {
		a := mat.NewSymDense(len(tc.in), nil)
		for i, v := range tc.in {
			a.SetSym(i, i, v)
		}
		projectTrace(a)
		for i, v := range tc.want {
			if math.Abs(a.At(i, i)-v) > 1e-12 {
				t.Errorf("%s: diagonal %d = %v, want %v", tc.name, i, a.At(i, i), v)
			}
		}
	}
}
