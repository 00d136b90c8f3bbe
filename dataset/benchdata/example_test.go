package benchdata_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset/benchdata"
)

// ZScore centres each column and divides it by its population standard
// deviation; a constant column becomes zero.
func ExampleZScore() {
	x := mat.NewDense(4, 2, []float64{
		1, 5,
		2, 5,
		3, 5,
		4, 5,
	})
	z := benchdata.ZScore(x)
	fmt.Printf("%.4f\n", mat.Formatted(z))
	// Output:
	// ⎡-1.3416   0.0000⎤
	// ⎢-0.4472   0.0000⎥
	// ⎢ 0.4472   0.0000⎥
	// ⎣ 1.3416   0.0000⎦
}
