package metric

import (
	"context"
	"fmt"
	"testing"

	"ukm/linalg"
)

// Sinks keep the results alive.
var (
	sinkMetric  *Metric
	sinkKernel  *KernelMetric
	sinkCluster *Clustering
	sinkXing    *XingResult
)

// BenchmarkDCA: the target case, n = 10,000 points in p = 50
// dimensions (10 classes) with 1,000 constraints, half similar and half
// dissimilar. The time includes the check of the whole data matrix.
func BenchmarkDCA(b *testing.B) {
	for _, tc := range []struct{ n, p, cons int }{{10000, 50, 1000}, {10000, 50, 10000}} {
		b.Run(fmt.Sprintf("n=%d/p=%d/constraints=%d", tc.n, tc.p, tc.cons), func(b *testing.B) {
			x, y := gaussians(tc.n/10, 10, tc.p, 1)
			c, err := SampleConstraints(y, tc.cons/2, tc.cons-tc.cons/2, 2)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if sinkMetric, err = DCA(ctx, x, c, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkKernelDCA: Kernel DCA with an RBF kernel on n = 2,000 points
// (p = 10, 2 classes), learning from the constraints and then mapping all n
// points (Transform), which is what clustering with it needs.
func BenchmarkKernelDCA(b *testing.B) {
	for _, tc := range []struct {
		n, p int
		cons int
		name string
	}{{2000, 10, 1000, "1000"}, {2000, 10, 2000 * 1999 / 2 / 20, "5%"}} {
		b.Run(fmt.Sprintf("n=%d/p=%d/constraints=%s", tc.n, tc.p, tc.name), func(b *testing.B) {
			x, y := gaussians(tc.n/2, 2, tc.p, 3)
			c, err := SampleConstraints(y, tc.cons/2, tc.cons-tc.cons/2, 4)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			g, err := linalg.MedianGamma(ctx, x, nil)
			if err != nil {
				b.Fatal(err)
			}
			kern := linalg.RBF{Gamma: g}
			s := &Settings{Ridge: 1e-3}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if sinkKernel, err = KernelDCA(ctx, kern, x, c, s); err != nil {
					b.Fatal(err)
				}
				if _, err = sinkKernel.Transform(ctx, x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkKMeans: constrained k-means (10 starts) on n = 2,000 points.
func BenchmarkKMeans(b *testing.B) {
	x, y := gaussians(500, 4, 10, 5)
	c, err := SampleConstraints(y, 500, 500, 6)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("n=2000/p=10/k=4/constraints=1000", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if sinkCluster, err = KMeans(ctx, x, 4, c, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkXing: Xing's projected gradient at the size of Sonar with 5 %
// of its pairs as constraints.
func BenchmarkXing(b *testing.B) {
	x, y := gaussians(104, 2, 60, 7)
	c, err := SampleConstraints(y, 538, 538, 8)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.Run("n=208/p=60/constraints=1076", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if sinkXing, err = Xing(ctx, x, c, &XingSettings{Ridge: 1e-3}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
