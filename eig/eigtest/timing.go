package eigtest

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The matrices of the timing comparisons with other eigensolvers: what
// spectral kernel learning hands the package, dense and sparse.

// GaussPoints returns n points in dim dimensions with standard normal
// coordinates drawn row by row from rand.NewPCG(seed, 11).
func GaussPoints(n, dim int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 11))
	x := mat.NewDense(n, dim, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < dim; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x
}

// KernelRBF returns the RBF kernel exp(-γ ||x_i - x_j||²) of n
// GaussPoints in 10 dimensions, γ the reciprocal of the median squared
// distance (linalg.MedianGamma with its defaults): a dense positive
// semidefinite matrix whose spectrum decays like a kernel's. Its largest
// eigenvalues are the ones wanted.
func KernelRBF(n int, seed uint64) (*mat.SymDense, error) {
	x := GaussPoints(n, 10, seed)
	g, err := linalg.MedianGamma(context.Background(), x, nil)
	if err != nil {
		return nil, err
	}
	return linalg.Gram(context.Background(), linalg.RBF{Gamma: g}, x)
}

// KNNLaplacian returns the combinatorial Laplacian D - W of the symmetric
// k-nearest-neighbour graph (linalg.KNNGraph, default weights) of n
// GaussPoints in 10 dimensions: a sparse matrix with about 2k entries per
// row.
func KNNLaplacian(n, k int, seed uint64) (Problem, error) {
	x := GaussPoints(n, 10, seed)
	w, err := linalg.KNNGraph(context.Background(), x, k, nil)
	if err != nil {
		return Problem{}, err
	}
	l, err := linalg.Laplacian(w, linalg.Combinatorial)
	if err != nil {
		return Problem{}, err
	}
	return Problem{Name: fmt.Sprintf("knn-laplacian/n=%d/k=%d/seed=%d", n, k, seed), A: l}, nil
}
