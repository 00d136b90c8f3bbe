package metric

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// gaussians returns perClass points of each of classes Gaussian clusters in
// p dimensions with anisotropic spread, and their labels.
func gaussians(perClass, classes, p int, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	n := perClass * classes
	x := mat.NewDense(n, p, nil)
	y := make([]int, n)
	centre := mat.NewDense(classes, p, nil)
	for c := 0; c < classes; c++ {
		for j := 0; j < p; j++ {
			centre.Set(c, j, 3*rng.NormFloat64())
		}
	}
	for i := 0; i < n; i++ {
		c := i % classes
		y[i] = c
		for j := 0; j < p; j++ {
			// Feature j has spread 1 + j: the Euclidean metric is not the
			// best one.
			x.Set(i, j, centre.At(c, j)+float64(1+j)*rng.NormFloat64())
		}
	}
	return x, y
}

// maxAbsDiff returns max |a_ij - b_ij|.
func maxAbsDiff(a, b mat.Matrix) float64 {
	r, c := a.Dims()
	var m float64
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m = math.Max(m, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return m
}

func mustConstraints(t *testing.T, y []int, sim, dis int, seed uint64) Constraints {
	t.Helper()
	c, err := SampleConstraints(y, sim, dis, seed)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
