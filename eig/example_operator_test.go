package eig_test

import (
	"context"
	"fmt"
	"math"

	"ukm/eig"
)

// pathLaplacian is the Laplacian L = D - W of the path graph on n vertices
// (vertex i joined to i+1), applied without storing it:
// (L x)_i = (x_i - x_{i-1}) + (x_i - x_{i+1}), the terms of missing
// neighbours left out. An eig.Operator needs nothing more than Dims and
// MulVecTo.
type pathLaplacian struct{ n int }

func (p pathLaplacian) Dims() (r, c int) { return p.n, p.n }

func (p pathLaplacian) MulVecTo(dst, x []float64) {
	for i := range p.n {
		var s float64
		if i > 0 {
			s += x[i] - x[i-1]
		}
		if i+1 < p.n {
			s += x[i] - x[i+1]
		}
		dst[i] = s
	}
}

// The four smallest eigenvalues of the Laplacian of a path graph on 100
// vertices, computed from a user-written matrix-free operator and compared
// with their formula 2 - 2 cos(k pi / n), k = 0, 1, 2, 3.
func ExampleOperator() {
	n := 100
	res, err := eig.TopD(context.Background(), pathLaplacian{n}, 4, &eig.Settings{Which: eig.Smallest, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status)
	for k, v := range res.Values {
		want := 2 - 2*math.Cos(float64(k)*math.Pi/float64(n))
		fmt.Printf("lambda_%d = %.9f, formula %.9f, agree to 1e-12: %v\n",
			k, math.Round(v*1e9)/1e9+0, want, math.Abs(v-want) < 1e-12) // +0 turns -0 into 0
	}
	// Output:
	// Converged
	// lambda_0 = 0.000000000, formula 0.000000000, agree to 1e-12: true
	// lambda_1 = 0.000986879, formula 0.000986879, agree to 1e-12: true
	// lambda_2 = 0.003946543, formula 0.003946543, agree to 1e-12: true
	// lambda_3 = 0.008876071, formula 0.008876071, agree to 1e-12: true
}
