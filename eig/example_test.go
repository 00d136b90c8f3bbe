package eig_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
)

// The three largest eigenvalues of a 200 x 200 tridiagonal matrix (the
// second-difference matrix, whose eigenvalues are 2 - 2 cos(k pi / 201)).
func ExampleTopD() {
	n := 200
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		a.SetSym(i, i, 2)
		if i+1 < n {
			a.SetSym(i, i+1, -1)
		}
	}
	op, err := eig.NewDense(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := eig.TopD(context.Background(), op, 3, &eig.Settings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, v := range res.Values {
		fmt.Printf("lambda_%d = %.6f (residual below 1e-12: %v)\n", i+1, v, res.Residuals[i] < 1e-12)
	}
	fmt.Println(res.Status)
	// Output:
	// lambda_1 = 3.999756 (residual below 1e-12: true)
	// lambda_2 = 3.999023 (residual below 1e-12: true)
	// lambda_3 = 3.997802 (residual below 1e-12: true)
	// success
}

// Choosing d by cumulative eigen-energy: the smallest d whose eigenvalues
// carry 90% of trace(K).
func ExampleDForEnergy() {
	values := []float64{5, 2, 1, 0.5, 0.3, 0.2}
	d, _ := eig.DForEnergy(values, 9, 0.9)
	fmt.Println(d)
	// Output: 4
}
