package linalg_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Points on the line y = 2x, a little off it: the leading principal
// direction is (1, 2)/sqrt(5), and the projection onto it is the position
// along the line.
func ExampleFitPCA() {
	x := mat.NewDense(5, 2, []float64{
		0, 0.01,
		1, 1.99,
		2, 4.01,
		3, 5.99,
		4, 8.00,
	})
	pc, err := linalg.FitPCA(context.Background(), x, 1, 0, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	w := pc.Components
	sign := math.Copysign(1, w.At(0, 0)) // a direction's sign is arbitrary
	fmt.Printf("direction (%.3f, %.3f)\n", sign*w.At(0, 0), sign*w.At(1, 0))
	z, err := pc.Transform(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 5; i++ {
		fmt.Printf("%.2f ", sign*z.At(i, 0))
	}
	fmt.Println()
	// Output:
	// direction (0.448, 0.894)
	// -4.46 -2.25 0.01 2.23 4.47
}
