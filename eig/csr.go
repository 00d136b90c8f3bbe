package eig

import (
	"math"

	"ukm/linalg"
)

// CSR is a sparse symmetric matrix operator backed by a linalg.CSR, checked
// once by NewCSR. (A *linalg.CSR is itself an Operator; CSR adds the up-front
// checks of symmetry and finiteness.)
type CSR struct {
	a *linalg.CSR
}

var _ Operator = (*CSR)(nil)

// NewCSR returns an operator for the sparse matrix a, checking that it is a
// valid, finite, square and exactly symmetric CSR matrix (O(nnz log) time).
// The matrix is not copied and must not be modified while in use.
//
// Errors: linalg.ErrEmpty for a nil or empty matrix, the kind
// linalg.CSR.Validate reports for an inconsistent one (linalg.ErrNonFinite
// for a NaN or infinite value), linalg.ErrShape for a matrix that is not
// square, ErrNotSymmetric for one that is not exactly symmetric.
func NewCSR(a *linalg.CSR) (*CSR, error) {
	const op = "eig.NewCSR"
	if a == nil {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "matrix is nil")
	}
	if err := a.Validate(); err != nil {
		return nil, linalg.Errorf(kindOf(err), op, "%w", err)
	}
	if a.Rows != a.Cols {
		return nil, linalg.Errorf(linalg.ErrShape, op, "matrix is %dx%d, not square", a.Rows, a.Cols)
	}
	if a.Rows == 0 {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "matrix is empty")
	}
	if !a.IsSymmetric() {
		return nil, linalg.Errorf(ErrNotSymmetric, op, "matrix is not exactly symmetric")
	}
	return &CSR{a: a}, nil
}

// Dims returns (n, n), the order of the matrix; (0, 0) for a nil or zero
// CSR, which the solvers reject.
func (c *CSR) Dims() (r, cols int) {
	if c == nil || c.a == nil {
		return 0, 0
	}
	return c.a.Rows, c.a.Rows
}

// MulVecTo sets dst = A x. It panics if the lengths are not n (a programmer
// error); dst and x must not overlap.
func (c *CSR) MulVecTo(dst, x []float64) { c.a.MulVecTo(dst, x) }

// GershgorinBound returns max_i sum_j |a_ij|, an upper bound on |lambda| for
// every eigenvalue of a (for a Laplacian D - W it is 2 max degree; for the
// normalized Laplacian at most 2). With it, the smallest eigenvalues of a
// become the largest of Shift(Negate(op), -c) = c I - A if an explicit shift
// is wanted; the solvers' Which = Smallest gives the same Krylov spaces
// without one. A nil a gives 0; a must otherwise be valid (see
// linalg.CSR.Validate), or GershgorinBound may panic.
func GershgorinBound(a *linalg.CSR) float64 {
	if a == nil {
		return 0
	}
	var m float64
	for i := 0; i < a.Rows; i++ {
		var s float64
		for _, v := range a.Val[a.RowPtr[i]:a.RowPtr[i+1]] {
			s += math.Abs(v)
		}
		m = math.Max(m, s)
	}
	return m
}
