package metric_test

import (
	"context"
	"fmt"

	"ukm/dataset"
	"ukm/linalg"
	"ukm/models/metric"
)

// Learn a metric from 50 similar and 50 dissimilar pairs on the thesis's
// "Norm" set, where one coordinate in eleven separates the classes and
// the others are noise, and cluster with it.
func Example() {
	ctx := context.Background()
	s, err := dataset.Norm(50, 10, 1)
	if err != nil {
		panic(err)
	}
	c, err := metric.SampleConstraints(s.Y, 50, 50, 1)
	if err != nil {
		panic(err)
	}
	plain, err := metric.KMeans(ctx, s.X, 2, metric.Constraints{}, &metric.KMeansSettings{Seed: 1})
	if err != nil {
		panic(err)
	}
	m, err := metric.DCA(ctx, s.X, c, nil)
	if err != nil {
		panic(err)
	}
	y, err := m.Transform(s.X)
	if err != nil {
		panic(err)
	}
	learned, err := metric.KMeans(ctx, y, 2, c, &metric.KMeansSettings{Seed: 1})
	if err != nil {
		panic(err)
	}
	a0, _ := metric.PairwiseAccuracy(s.Y, plain.Labels)
	a1, _ := metric.PairwiseAccuracy(s.Y, learned.Labels)
	fmt.Printf("k-means, Euclidean: %.2f\n", a0)
	fmt.Printf("constrained k-means, DCA metric: %.2f (%s, %d broken pairs)\n", a1, learned.Status, len(learned.Violated))
	// Output:
	// k-means, Euclidean: 0.49
	// constrained k-means, DCA metric: 1.00 (Converged, 0 broken pairs)
}

// Kernel DCA with an RBF kernel, and the map it gives for new points.
func ExampleKernelDCA() {
	ctx := context.Background()
	s, err := dataset.DoubleSpiral(50, 0.05, 1)
	if err != nil {
		panic(err)
	}
	c, err := metric.SampleConstraints(s.Y, 100, 100, 2)
	if err != nil {
		panic(err)
	}
	m, err := metric.KernelDCA(ctx, linalg.RBF{Gamma: 2}, s.X, c, &metric.Settings{Ridge: 1e-3})
	if err != nil {
		panic(err)
	}
	y, err := m.Transform(ctx, s.X)
	if err != nil {
		panic(err)
	}
	res, err := metric.KMeans(ctx, y, 2, c, &metric.KMeansSettings{Seed: 1})
	if err != nil {
		panic(err)
	}
	acc, _ := metric.PairwiseAccuracy(s.Y, res.Labels)
	n, r := m.Dims()
	fmt.Printf("%d training points, %d learned coordinates, accuracy %.2f\n", n, r, acc)
	// Output:
	// 100 training points, 14 learned coordinates, accuracy 1.00
}
