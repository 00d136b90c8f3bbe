package linalg_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

func Example() {
	ctx := context.Background()
	// Two small groups of points on a line.
	x := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	y := []float64{1, 1, 1, -1, -1, -1}

	gamma, _ := linalg.MedianGamma(ctx, x, nil)
	k, _ := linalg.Gram(ctx, linalg.RBF{Gamma: gamma}, x)
	a, _ := linalg.TargetAlignment(k, y)
	c, _ := linalg.CenteredTargetAlignment(k, y)
	fmt.Printf("gamma %.4f, alignment %.3f, centred %.3f\n", gamma, a, c)

	w, _ := linalg.KNNGraph(ctx, x, 2, nil)
	count, label := linalg.Components(w)
	fmt.Println("components:", count, label)
	l, _ := linalg.Laplacian(w, linalg.Combinatorial)
	fmt.Println("degrees:", linalg.Degrees(w), "L(0,0):", l.At(0, 0))
	// Output:
	// gamma 0.0416, alignment 0.431, centred 1.000
	// components: 2 [0 0 0 1 1 1]
	// degrees: [2 2 2 2 2 2] L(0,0): 2
}

func ExampleLowRank() {
	// K = V diag(mu) V^T with two orthonormal columns.
	v := mat.NewDense(4, 2, []float64{
		0.5, 0.5,
		0.5, 0.5,
		0.5, -0.5,
		0.5, -0.5,
	})
	k, _ := linalg.NewLowRank(v, []float64{1, 3})
	y := []float64{1, 1, -1, -1}
	a, _ := k.TargetAlignment(y)
	fmt.Printf("||K||_F = %.4f, A(K, yy^T) = %.4f, K(0,2) = %.2f\n", k.FrobeniusNorm(), a, k.At(0, 2))
	// Output:
	// ||K||_F = 3.1623, A(K, yy^T) = 0.9487, K(0,2) = -0.50
}

func ExampleTiedNeighbors() {
	// Three copies of the origin and two other points on a line. The
	// nearest neighbour of a copy is another copy, and both others are
	// tied for it, so a copy lists both; NearestNeighbors lists the lower
	// index only.
	x := mat.NewDense(5, 1, []float64{0, 3, 0, 1, 0})
	ptr, idx, _, _ := linalg.TiedNeighbors(context.Background(), x, 1, linalg.KNNAuto)
	near, _, _ := linalg.NearestNeighbors(context.Background(), x, 1, linalg.KNNAuto)
	for i := 0; i < 5; i++ {
		fmt.Println(i, idx[ptr[i]:ptr[i+1]], near[i:i+1])
	}
	// Output:
	// 0 [2 4] [2]
	// 1 [3] [3]
	// 2 [0 4] [0]
	// 3 [0 2 4] [0]
	// 4 [0 2] [0]
}
