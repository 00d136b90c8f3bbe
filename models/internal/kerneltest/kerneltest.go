// Package kerneltest holds the reference kernels that the tests of the
// classifiers in models/klr and models/svm build their inputs with. They are
// written straight from the definitions, entry by entry, independently of
// package linalg, whose tiled kernels the library itself uses.
package kerneltest

import (
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
