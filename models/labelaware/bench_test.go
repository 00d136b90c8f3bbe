package labelaware

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
)

var kernelSink *Kernel

// BenchmarkLabelAware times Build on ssl_digit1 (1500 x 241; a synthetic set
// of the same shape if the data are missing) and on a synthetic 100000 x 10
// set (skipped with -short; run it with -benchtime=1x).
func BenchmarkLabelAware(b *testing.B) {
	cases := []struct {
		n, l, m, k int
		large      bool
	}{
		{1500, 100, 0, 50, false},
		{1500, 100, 150, 50, false},
		{1500, 100, 300, 50, false},
		{100000, 100, 500, 50, true},
	}
	for _, tc := range cases {
		b.Run(fmt.Sprintf("n=%d/l=%d/m=%d/k=%d", tc.n, tc.l, tc.m, tc.k), func(b *testing.B) {
			if tc.large && testing.Short() {
				b.Skip("n = 100000 in -short mode")
			}
			var x *mat.Dense
			var y []int
			if s, err := dataset.Load("ssl_digit1"); err == nil && !tc.large {
				x, y = s.X, s.Y
			} else if tc.large {
				x, y = blobs(tc.n, 10, 4, 3, 1)
			} else {
				x, y = blobs(tc.n, 241, 4, 3, 1)
			}
			lab, ly, _ := pickLabeled(y, 2, tc.l/2, 1)
			set := &Settings{K: tc.k, Landmarks: tc.m}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k, err := Build(context.Background(), x, lab, ly, 2, set)
				if err != nil {
					b.Fatal(err)
				}
				kernelSink = k
			}
		})
	}
}
