package svm_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/models/svm"
)

// A hard-margin-like SVM (C = 100) on four 1-D points with the linear kernel
// K_ij = x_i x_j: the margin is set by the points -1 and +1, so the
// decision function is f(x) = x.
func ExampleTrain() {
	x := []float64{-2, -1, 1, 3}
	y := []float64{-1, -1, 1, 1}
	k := mat.NewSymDense(4, nil)
	for i := range x {
		for j := i; j < 4; j++ {
			k.SetSym(i, j, x[i]*x[j])
		}
	}
	m, err := svm.Train(context.Background(), k, y, &svm.Settings{C: 100, Tol: 1e-9})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("alpha = %.3f, b = %.3f, dual = %.3f\n", m.Alpha, m.Bias, m.Dual)
	// Cross-kernel rows for the new points 0.5 and -3.
	cross := mat.NewDense(2, 4, nil)
	for i, xn := range []float64{0.5, -3} {
		for j := range x {
			cross.Set(i, j, xn*x[j])
		}
	}
	f, _ := m.Decision(nil, cross)
	fmt.Printf("f = %.3f\n", f)
	// Output:
	// alpha = [0.000 0.500 0.500 0.000], b = 0.000, dual = 0.500
	// f = [0.500 -3.000]
}
