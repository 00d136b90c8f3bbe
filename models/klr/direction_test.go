package klr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"
)

// TestFeatureDirectionDual: with fewer labeled points than features the
// Newton direction through the l x l matrix equals the one through the
// d x d Newton matrix, with and without the intercept, including weights
// near zero (saturated points) and a large lambda.
func TestFeatureDirectionDual(t *testing.T) {
	for _, tc := range []struct {
		l, d    int
		lambda  float64
		bias    bool
		tinyWts bool
	}{
		{5, 20, 0.01, false, false},
		{5, 20, 0.01, true, false},
		{18, 50, 1e-3, true, false},
		{18, 50, 1, true, false},
		{18, 19, 0.1, true, true},
		{1, 3, 0.1, true, false},
	} {
		t.Run(fmt.Sprintf("l=%d/d=%d/lambda=%g/bias=%t/tiny=%t", tc.l, tc.d, tc.lambda, tc.bias, tc.tinyWts), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.l), uint64(tc.d)))
			phi := make([]float64, tc.l*tc.d)
			for i := range phi {
				phi[i] = rng.NormFloat64()
			}
			p := &problem{form: FeatureForm, l: tc.l, n: tc.d, phi: blas64.General{Rows: tc.l, Cols: tc.d, Stride: tc.d, Data: phi}}
			newW := func() *newton {
				w := &newton{lambda: tc.lambda, bias: tc.bias}
				w.resize(p)
				r := rand.New(rand.NewPCG(3, 4))
				for i := range w.s[:tc.l] {
					w.s[i] = 0.5 * r.Float64()
					if tc.tinyWts && i%2 == 0 {
						w.s[i] = 1e-9
					}
				}
				for j := range w.g[:tc.d] {
					w.g[j] = r.NormFloat64()
				}
				w.gb = r.NormFloat64()
				return w
			}
			primal, dual := newW(), newW()
			db1, ok1 := primal.featureDirection(p)
			db2, ok2 := dual.featureDirectionDual(p)
			if !ok1 || !ok2 {
				t.Fatalf("factorisation failed: primal %v, dual %v", ok1, ok2)
			}
			var scale float64
			for _, v := range primal.dir[:tc.d] {
				scale = math.Max(scale, math.Abs(v))
			}
			scale = math.Max(scale, math.Abs(db1))
			for j := 0; j < tc.d; j++ {
				if math.Abs(primal.dir[j]-dual.dir[j]) > 1e-9*scale {
					t.Fatalf("dw[%d] = %v dual, %v primal", j, dual.dir[j], primal.dir[j])
				}
			}
			if math.Abs(db1-db2) > 1e-9*scale {
				t.Fatalf("db = %v dual, %v primal", db2, db1)
			}
		})
	}
}
