package mm_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/models/mm"
	"ukm/models/spectral"
)

// Four points on a line with a basis of two orthonormal vectors: phi_1 is
// constant and cannot separate the classes, phi_2 increases along the line
// and does. The learned kernel puts as much weight on phi_2 as the decay
// constraint mu_1 >= 2 mu_2 allows (trace 4: mu = (8/3, 4/3)); the two
// labeled points then have squared distance 2.4 in feature space and
// J = 4/2.4.
func ExampleLearn() {
	v := mat.NewDense(4, 2, []float64{
		0.5, -0.6708203932499369,
		0.5, -0.22360679774997896,
		0.5, 0.22360679774997896,
		0.5, 0.6708203932499369,
	})
	b := &spectral.Basis{Values: []float64{2, 1}, V: v}
	labeled := []int{0, 3}
	y := []float64{-1, 1}
	res, err := mm.Learn(context.Background(), b, labeled, y, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mu = %.3f, J = %.3f, status %v\n", res.Mu, res.Objective, res.Status)
	f, _ := res.Decision(nil, b)
	fmt.Printf("f = %.3f\n", f)
	// Output:
	// mu = [2.667 1.333], J = 1.667, status Converged
	// f = [-1.000 -0.333 0.333 1.000]
}
