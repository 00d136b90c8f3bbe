package eig

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset/benchdata"
	"ukm/linalg"
)

// TestRecurrenceBasis checks the Krylov basis that the block recurrence
// and a single Gram-Schmidt pass build, at the end of a solve: V
// orthonormal, the relation A V[0:c]ᵀ = V[0:c+p]ᵀ T[0:c+p, 0:c] to
// rounding (the restarts let it grow slowly: 6 to 18 sqrt(n) eps after 100
// to 1000 steps, as before the recurrence), and one full pass per step
// (the DGKS test asks for a second one in fewer than a tenth of the steps),
// which is what the recurrence is for.
func TestRecurrenceBasis(t *testing.T) {
	ctx := context.Background()
	rbf := rbfKernel(gaussPoints(600, benchdata.RBFDim, benchdata.RBFSeed))
	spread := withSpectrum(linspace(300, -1, 1), 5)
	clustered := make([]float64, 300)
	for i := range clustered {
		clustered[i] = 1 + 1e-3*float64(i%7) // seven values, five or six copies each
		if i >= 40 {
			clustered[i] = float64(i) / 300
		}
	}
	cases := []struct {
		name    string
		a       *mat.SymDense
		p, d, m int
	}{
		{"rbf/block=8", rbf, 8, 20, 116},
		{"rbf/block=1", rbf, 1, 10, 40},
		{"spread/block=4", spread, 4, 12, 60},
		{"clustered/block=4", withSpectrum(clustered, 6), 4, 12, 60},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			op, err := NewDense(tc.a)
			if err != nil {
				t.Fatal(err)
			}
			cfg, _, err := validate(ctx, "test", op, tc.d, nil)
			if err != nil {
				t.Fatal(err)
			}
			k := newKrylov(op, cfg, tc.p, tc.m, true)
			c, status, err := k.run(ctx)
			if err != nil || status != linalg.Converged {
				t.Fatalf("run: status %v, err %v", status, err)
			}
			n := cfg.n
			cp := c + tc.p
			if k.exhausted {
				cp = c
			}
			v := k.v.Slice(0, cp, 0, n).(*mat.Dense)
			eps := 2 * dlamchE
			var g mat.Dense
			g.Mul(v, v.T())
			orth := 0.0
			for i := 0; i < cp; i++ {
				for j := 0; j < cp; j++ {
					want := 0.0
					if i == j {
						want = 1
					}
					orth = math.Max(orth, math.Abs(g.At(i, j)-want))
				}
			}
			if orth > 100*float64(n)*eps {
				t.Errorf("||I - V Vᵀ||max = %.3g = %.1f n eps", orth, orth/(float64(n)*eps))
			}
			// Relation: A V[0:c]ᵀ - V[0:cp]ᵀ T[0:cp, 0:c].
			vc := k.v.Slice(0, c, 0, n).(*mat.Dense)
			var av mat.Dense
			av.Mul(tc.a, vc.T())
			tm := mat.NewDense(cp, c, nil)
			for i := 0; i < cp; i++ {
				for j := 0; j < c; j++ {
					tm.Set(i, j, k.t[i*k.ldt+j])
				}
			}
			var vt mat.Dense
			vt.Mul(v.T(), tm)
			av.Sub(&av, &vt)
			rel := mat.Norm(&av, 2) / k.normA
			if rel > 100*math.Sqrt(float64(n))*eps {
				t.Errorf("||A V - V T|| / ||A|| = %.3g = %.1f sqrt(n) eps", rel, rel/(math.Sqrt(float64(n))*eps))
			}
			// The start block takes one pass, every step one (two only
			// where the DGKS test asks for it); the steps of the
			// multiplicity check's recurrence take none.
			steps := k.iters - k.screened
			extra := k.fullPasses - (steps + 1)
			t.Logf("c = %d, steps %d, full passes %d, orthogonality %.1f n eps, relation %.2f sqrt(n) eps",
				c, steps, k.fullPasses, orth/(float64(n)*eps), rel/(math.Sqrt(float64(n))*eps))
			if extra > steps/10 {
				t.Errorf("%d full passes in %d steps: the recurrence left more than rounding", k.fullPasses, steps)
			}
			if extra < 0 {
				t.Errorf("%d full passes in %d steps: fewer than one per step", k.fullPasses, steps)
			}
		})
	}
}
