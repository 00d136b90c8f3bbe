package eig

import (
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// projectRows applies a to the rows of y (k x n, orthonormal rows; the
// products counted in res) and decomposes the projected matrix y A yᵀ,
// symmetrized (A is symmetric; the images carry its rounding). It returns
// the images (in ay, k x n, or a new matrix if ay is nil), the eigenvalues
// ascending and the eigenvectors as the columns of z, with sorted true; if
// the k x k eigenproblem does not converge, the diagonal of the
// projection, the identity and sorted false (the rows kept as they are).
// The products and projections are matrix products, O(k^2 n).
func projectRows(res *Result, a Operator, y, ay *mat.Dense) (_ *mat.Dense, vals []float64, z *mat.Dense, sorted bool) {
	k, n := y.Dims()
	if ay == nil {
		ay = mat.NewDense(k, n, nil)
	}
	mulVecs(a, ay, y)
	res.MatVecs += k
	res.Products += calls(a, k)
	var g mat.Dense
	g.Mul(y, ay.T())
	h := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			h.SetSym(i, j, (g.At(i, j)+g.At(j, i))/2)
		}
	}
	var es linalg.EigenSym
	vals = make([]float64, k)
	z = mat.NewDense(k, k, nil)
	if es.Factorize(h, true) {
		es.Values(vals)
		es.VectorsTo(z)
		return ay, vals, z, true
	}
	for i := 0; i < k; i++ {
		vals[i] = h.At(i, i)
		z.Set(i, i, 1)
	}
	return ay, vals, z, false
}

// rowsAndImages returns the columns of v (n x d) as rows, y, and their
// images A y (rows), the products counted in res.
func rowsAndImages(res *Result, a Operator, v *mat.Dense) (y, ay *mat.Dense) {
	n, d := v.Dims()
	y, ay = mat.NewDense(d, n, nil), mat.NewDense(d, n, nil)
	rowsAndImagesTo(res, a, v, y, ay)
	return y, ay
}

// rowsAndImagesTo is rowsAndImages into y and ay (d x n).
func rowsAndImagesTo(res *Result, a Operator, v, y, ay *mat.Dense) {
	_, d := v.Dims()
	y.Copy(v.T())
	mulVecs(a, ay, y)
	res.MatVecs += d
	res.Products += calls(a, d)
}
