package eig_test

import (
	"context"
	"fmt"
	"math"

	"ukm/eig"
	"ukm/linalg"
)

// The top of a normalised affinity crowds near 1: for the cycle of n nodes
// its eigenvalues are cos(2 pi k / n). Chebyshev separates them with a
// polynomial filter and finds both copies of each repeated value; the
// bounds [-1, 1] of every normalised affinity are passed, the cut is found
// by the solver.
func ExampleChebyshev() {
	const n = 400
	var ts []linalg.Triplet
	for i := 0; i < n; i++ {
		j := (i + 1) % n
		ts = append(ts, linalg.Triplet{I: i, J: j, V: 0.5}, linalg.Triplet{I: j, J: i, V: 0.5})
	}
	s, err := linalg.CSRFromTriplets(n, n, ts)
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := eig.NewCSR(s)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := eig.Chebyshev{Lower: -1, Upper: 1}.Solve(context.Background(), op, 5, &eig.Settings{Tol: 1e-10})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status)
	for k, v := range res.Values {
		fmt.Printf("%.9f (cos(2 pi %d / n) = %.9f)\n", v, (k+1)/2, math.Cos(2*math.Pi*float64((k+1)/2)/n))
	}
	// Output:
	// Converged
	// 1.000000000 (cos(2 pi 0 / n) = 1.000000000)
	// 0.999876632 (cos(2 pi 1 / n) = 0.999876632)
	// 0.999876632 (cos(2 pi 1 / n) = 0.999876632)
	// 0.999506560 (cos(2 pi 2 / n) = 0.999506560)
	// 0.999506560 (cos(2 pi 2 / n) = 0.999506560)
}
