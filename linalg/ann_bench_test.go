package linalg

import (
	"context"
	"fmt"
	"testing"
)

var sinkANNIdx []int

// BenchmarkApproxKNN times ApproxNearestNeighbors with default options on
// clustered data of low intrinsic dimension (annLowRankData: 10 clusters,
// each spread along 12 directions), the kind of data a kNN graph is built
// for. After the timed runs it reports the recall on 200 query rows,
// checked by brute force (outside the timer).
func BenchmarkApproxKNN(b *testing.B) {
	for _, c := range []struct{ n, p, k int }{
		{70000, 50, 10},
		{70000, 784, 10},
		{1000000, 20, 10},
	} {
		b.Run(fmt.Sprintf("n=%d/p=%d/k=%d", c.n, c.p, c.k), func(b *testing.B) {
			if testing.Short() && c.n > 100000 {
				b.Skip("n = 10^6 takes tens of seconds")
			}
			x := annLowRankData(1, c.n, c.p, 10)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				idx, _, err := ApproxNearestNeighbors(ctx, x, c.k, nil)
				if err != nil {
					b.Fatal(err)
				}
				sinkANNIdx = idx
			}
			b.StopTimer()
			b.ReportMetric(annSampledRecall(x, sinkANNIdx, c.k, 200), "recall")
		})
	}
}
