package qp_test

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
)

// Nocedal & Wright, example 16.4: minimize (x1−1)² + (x2−2.5)² over a polygon.
func ExampleActiveSet() {
	p := &qp.Problem{
		H:     mat.NewSymDense(2, []float64{2, 0, 0, 2}),
		G:     []float64{-2, -5},
		Ain:   mat.NewDense(3, 2, []float64{1, -2, -1, -2, -1, 2}),
		Bin:   []float64{-2, -6, -2},
		Lower: []float64{0, 0},
	}
	var res qp.Result
	if err := qp.NewActiveSet(nil).Solve(context.Background(), p, nil, &res); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v x = (%.4f, %.4f), multipliers %.4f, KKT below 1e-12: %v\n",
		res.Status, res.X[0], res.X[1], res.Ineq, res.KKT.Max() < 1e-12)
	// Output:
	// Optimal x = (1.4000, 1.7000), multipliers [0.8000 0.0000 0.0000], KKT below 1e-12: true
}

// The same problem with the dual method, which needs H positive definite.
func ExampleGoldfarbIdnani() {
	p := &qp.Problem{
		H:     mat.NewSymDense(2, []float64{2, 0, 0, 2}),
		G:     []float64{-2, -5},
		Ain:   mat.NewDense(3, 2, []float64{1, -2, -1, -2, -1, 2}),
		Bin:   []float64{-2, -6, -2},
		Lower: []float64{0, 0},
	}
	var res qp.Result
	if err := qp.NewGoldfarbIdnani(nil).Solve(context.Background(), p, nil, &res); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v x = (%.4f, %.4f), multipliers %.4f, active %v\n", res.Status, res.X[0], res.X[1], res.Ineq, res.Working)
	// A semidefinite H is refused.
	p.H = mat.NewSymDense(2, []float64{2, 0, 0, 0})
	err := qp.NewGoldfarbIdnani(nil).Solve(context.Background(), p, nil, &res)
	fmt.Println(errors.Is(err, linalg.ErrNotPSD))
	// Output:
	// Optimal x = (1.4000, 1.7000), multipliers [0.8000 0.0000 0.0000], active [0]
	// true
}

// Spectral kernel learning on a tiny instance: three labeled points, two eigenvectors; the decay constraint μ1 >= 2μ2 is active at the optimum.
func ExampleSKL() {
	vl := mat.NewDense(3, 2, []float64{
		0.6, 0.5,
		0.6, -0.5,
		0.5, 0.7,
	})
	y := mat.NewDense(3, 1, []float64{1, -1, 1})
	s, err := qp.NewSKL(vl, y, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	var res qp.Result
	if err := s.Solve(context.Background(), nil, nil, &res); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v mu = %.4f alignment %.4f\n", res.Status, res.X, s.Alignment(res.X))
	// Output:
	// Optimal mu = [0.5900 0.2950] alignment 0.4939
}
