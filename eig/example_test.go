package eig_test

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
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
	// Converged
}

// Choosing d by cumulative eigen-energy: the smallest d whose eigenvalues
// carry 90% of trace(K).
func ExampleDForEnergy() {
	values := []float64{5, 2, 1, 0.5, 0.3, 0.2}
	d, _ := eig.DForEnergy(values, 9, 0.9)
	fmt.Println(d)
	// Output: 4
}

// The two smallest eigenvalues of the Laplacian L = D - W of a path graph
// on 50 vertices: 0 (one connected component) and 2 - 2 cos(pi/50).
func ExampleThickRestart_laplacian() {
	n := 50
	var ts []linalg.Triplet
	for i := 0; i+1 < n; i++ {
		ts = append(ts, linalg.Triplet{I: i, J: i + 1, V: -1}, linalg.Triplet{I: i + 1, J: i, V: -1})
		ts = append(ts, linalg.Triplet{I: i, J: i, V: 1}, linalg.Triplet{I: i + 1, J: i + 1, V: 1})
	}
	l, err := linalg.CSRFromTriplets(n, n, ts)
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := eig.NewCSR(l)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := eig.ThickRestart{}.Solve(context.Background(), op, 2, &eig.Settings{Which: eig.Smallest})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range res.Values {
		fmt.Printf("%.6f\n", math.Round(v*1e6)/1e6+0) // +0 turns -0 into 0
	}
	fmt.Printf("%.6f\n", 2-2*math.Cos(math.Pi/float64(n)))
	// Output:
	// 0.000000
	// 0.003947
	// 0.003947
}
