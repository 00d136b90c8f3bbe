// Package kerneltest holds what the tests of models/klr, models/svm,
// models/mm and models/active share: reference kernels written straight from
// the definitions, entry by entry (independently of package linalg, whose
// tiled kernels the library itself uses), a small fixture, and a driver for
// tables of bad inputs that checks the module's error vocabulary.
package kerneltest

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
)

// RBF returns the n×m matrix exp(−‖x_i − z_j‖² / (2σ²)) for the rows x_i of
// x and z_j of z.
func RBF(x, z *mat.Dense, sigma float64) *mat.Dense {
	n, d := x.Dims()
	m, _ := z.Dims()
	k := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			var s float64
			for t := 0; t < d; t++ {
				v := x.At(i, t) - z.At(j, t)
				s += v * v
			}
			k.Set(i, j, math.Exp(-s/(2*sigma*sigma)))
		}
	}
	return k
}

// Linear returns the matrix of inner products A Bᵀ of the rows of a and b.
func Linear(a, b mat.Matrix) *mat.Dense {
	var k mat.Dense
	k.Mul(a, b.T())
	return &k
}

// Fixture is a small valid binary problem of four points in two classes,
// for tables of bad inputs that spoil one argument at a time.
type Fixture struct {
	// K is a 4×4 positive definite kernel block: two 2×2 blocks [2 1; 1 2],
	// one per class.
	K *mat.Dense
	// Phi is a 4×2 feature matrix, one cluster per class.
	Phi *mat.Dense
	// Y holds the ±1 labels (+1, +1, −1, −1) and Labels the class indices
	// (0, 0, 1, 1) of the same points.
	Y      []float64
	Labels []int
	// Ctx is context.Background(); Cancelled is a context already
	// cancelled.
	Ctx, Cancelled context.Context
}

// Small returns a fresh Fixture (the caller may modify it).
func Small() Fixture {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	return Fixture{
		K:         mat.NewDense(4, 4, []float64{2, 1, 0, 0, 1, 2, 0, 0, 0, 0, 2, 1, 0, 0, 1, 2}),
		Phi:       mat.NewDense(4, 2, []float64{1, 0, 1, 0.1, 0, 1, 0.1, 1}),
		Y:         []float64{1, 1, -1, -1},
		Labels:    []int{0, 0, 1, 1},
		Ctx:       context.Background(),
		Cancelled: cancelled,
	}
}
