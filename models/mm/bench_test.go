package mm

import (
	"context"
	"fmt"
	"testing"
)

var sinkResult Result

// BenchmarkMM times one Learn on the ionosphere basis (RBF kernel, top d
// eigenpairs from package eig) with l labeled points, reusing a Learner as a
// caller re-learning in a loop would.
func BenchmarkMM(b *testing.B) {
	for _, tc := range []struct {
		l, d int
		w    float64 // 0: the default, and no w key in the name
	}{{20, 20, 0}, {60, 20, 0}, {60, 20, 1.1}} {
		name := fmt.Sprintf("dataset=ionosphere/l=%d/d=%d", tc.l, tc.d)
		if tc.w != 0 {
			// A hard case: the optimum lies on a face where the labeled
			// block is rank deficient; tens of outer iterations.
			name += fmt.Sprintf("/w=%v", tc.w)
		}
		b.Run(name, func(b *testing.B) {
			basis, yAll := ionosphereBasis(b, tc.d)
			idx, y := pickLabeled(yAll, tc.l, 1)
			lr := Learner{Settings: Settings{Decay: tc.w}}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := lr.Learn(ctx, &sinkResult, basis, idx, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(sinkResult.Iterations), "iters")
			b.ReportMetric(float64(sinkResult.Evaluations), "svm-solves")
		})
	}
}
