package svm

import (
	"context"
	"fmt"
	"testing"

	"ukm/models/internal/kerneltest"
)

var sinkModel Model

// BenchmarkSVM measures one cold solve through a reused Solver (C = 100,
// default Tol) on an RBF kernel of overlapping 2-D classes, and a warm
// re-solve after the kernel width changes by 1%.
func BenchmarkSVM(b *testing.B) {
	ctx := context.Background()
	for _, l := range []int{20, 60, 200} {
		x, y := points(l, 1, uint64(l))
		k := kerneltest.RBF(x, x, 1)
		k2 := kerneltest.RBF(x, x, 1.01)
		b.Run(fmt.Sprintf("l=%d", l), func(b *testing.B) {
			sv := Solver{Settings: Settings{C: 100}}
			var m Model
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := sv.Train(ctx, &m, k, y, false); err != nil {
					b.Fatal(err)
				}
			}
			sinkModel = m
		})
		b.Run(fmt.Sprintf("l=%d/start=warm", l), func(b *testing.B) {
			sv := Solver{Settings: Settings{C: 100}}
			var base, m Model
			if err := sv.Train(ctx, &base, k, y, false); err != nil {
				b.Fatal(err)
			}
			m.Alpha = make([]float64, l)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				copy(m.Alpha, base.Alpha)
				if err := sv.Train(ctx, &m, k2, y, true); err != nil {
					b.Fatal(err)
				}
			}
			sinkModel = m
		})
	}
}
