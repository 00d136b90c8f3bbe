package eig

import (
	"fmt"
	"math"
	"unsafe"

	"ukm/linalg"
)

// CSR is a sparse symmetric matrix operator backed by a linalg.CSR, checked
// once by NewCSR. (A *linalg.CSR is itself an Operator; CSR adds the up-front
// checks of symmetry and finiteness, and a faster product.) The solvers
// apply it to several vectors at once (a block, the vectors of a
// Rayleigh-Ritz step) four at a time, in one pass over the matrix, with the
// same result as one vector at a time.
type CSR struct {
	a *linalg.CSR
	// The product's own copy of the structure, checked once: the row
	// pointers and column indices in 32 bits (a third less memory traffic
	// per stored entry than int) and the values' slice header, so that no
	// later change to a's slices can take the kernel out of bounds. ptr is
	// nil when the matrix is too large for 32-bit indices.
	ptr, col []int32
	val      []float64
	n        int
}

var _ Operator = (*CSR)(nil)

// NewCSR returns an operator for the sparse matrix a, checking that it is a
// valid, finite, square and exactly symmetric CSR matrix (O(nnz log) time).
// The values are not copied and must not be modified while in use; the
// index arrays are, in 32 bits (4 bytes per stored entry and per row), for
// the product (see MulVecTo).
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
	c := &CSR{a: a, n: a.Rows}
	c.compact()
	return c, nil
}

// compact makes the product's copy of a's structure, or leaves ptr nil
// (the product then calls linalg's) when the matrix is too large for
// 32-bit indices. The copy is checked again as it is made, so that the
// kernel's bounds rest on the arrays it reads, not on a's.
func (c *CSR) compact() {
	a, n := c.a, c.n
	if n < 0 || len(a.RowPtr) != n+1 {
		return
	}
	nnz := a.RowPtr[n]
	if n >= math.MaxInt32 || nnz < 0 || nnz >= math.MaxInt32 || len(a.ColIdx) < nnz || len(a.Val) < nnz {
		return
	}
	ptr := make([]int32, n+1)
	col := make([]int32, nnz)
	for i := 0; i < n; i++ {
		lo, hi := a.RowPtr[i], a.RowPtr[i+1]
		if lo < 0 || hi < lo || hi > nnz {
			return
		}
		ptr[i+1] = int32(hi)
		for k := lo; k < hi; k++ {
			j := a.ColIdx[k]
			if j < 0 || j >= n {
				return
			}
			col[k] = int32(j)
		}
	}
	c.ptr, c.col, c.val = ptr, col, a.Val[:nnz:nnz]
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
// error); dst and x must not overlap. The result is bit for bit that of
// linalg.CSR.MulVecTo (the same sums in the same order), parallel in the
// same way, and faster: the kernel reads NewCSR's 32-bit copy of the index
// arrays without bounds checks, which NewCSR's validation makes safe.
func (c *CSR) MulVecTo(dst, x []float64) {
	n := c.n
	if len(x) != n || len(dst) != n {
		panic(fmt.Sprintf("eig: CSR.MulVecTo: order %d with len(x)=%d, len(dst)=%d", n, len(x), len(dst)))
	}
	if c.ptr == nil {
		c.a.MulVecTo(dst, x)
		return
	}
	c.a.ForRows(func(lo, hi int) { c.mulRows(dst, x, lo, hi) })
}

// mulRows sets dst[lo:hi] to rows lo:hi of A x. Every index it follows was
// checked by NewCSR (row pointers nondecreasing from 0 to len(val), column
// indices below n = len(x)) and lives in c's own arrays, and MulVecTo
// checked len(x) and len(dst), so the unchecked loads stay in bounds.
func (c *CSR) mulRows(dst, x []float64, lo, hi int) {
	xp := unsafe.Pointer(unsafe.SliceData(x))
	vp := unsafe.Pointer(unsafe.SliceData(c.val))
	cp := unsafe.Pointer(unsafe.SliceData(c.col))
	ptr := c.ptr[lo : hi+1]
	out := dst[lo:hi]
	start := uintptr(ptr[0])
	for i := range out {
		end := uintptr(ptr[i+1])
		var s float64
		for k := start; k < end; k++ {
			j := uintptr(*(*int32)(unsafe.Add(cp, k*4)))
			s += *(*float64)(unsafe.Add(vp, k*8)) * *(*float64)(unsafe.Add(xp, j*8))
		}
		out[i] = s
		start = end
	}
}

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

// mulBlock sets dst = A X for b vectors stored interleaved, the layout and
// the result, bit for bit, of linalg.CSR.MulBlockTo; with the compact
// kernel for blocks of four (the Chebyshev filter's), linalg's otherwise.
func (c *CSR) mulBlock(dst, x []float64, b int) {
	if c.ptr == nil || b != 4 {
		c.a.MulBlockTo(dst, x, b)
		return
	}
	if len(x) != 4*c.n || len(dst) != 4*c.n {
		panic(fmt.Sprintf("eig: CSR.mulBlock: order %d, b=4, len(x)=%d, len(dst)=%d", c.n, len(x), len(dst)))
	}
	c.a.ForRows(func(lo, hi int) { c.mulRows4(dst, x, lo, hi) })
}

// mulRows4 sets rows lo:hi of dst = A X for four interleaved vectors
// (x[4j+v] is entry j of vector v), with mulRows's unchecked loads (the
// same bounds argument, len(x) = 4n checked by mulBlock).
func (c *CSR) mulRows4(dst, x []float64, lo, hi int) {
	xp := unsafe.Pointer(unsafe.SliceData(x))
	vp := unsafe.Pointer(unsafe.SliceData(c.val))
	cp := unsafe.Pointer(unsafe.SliceData(c.col))
	ptr := c.ptr[lo : hi+1]
	out := dst[4*lo : 4*hi]
	start := uintptr(ptr[0])
	for i := 0; i < hi-lo; i++ {
		end := uintptr(ptr[i+1])
		var s0, s1, s2, s3 float64
		for k := start; k < end; k++ {
			j := uintptr(*(*int32)(unsafe.Add(cp, k*4)))
			v := *(*float64)(unsafe.Add(vp, k*8))
			xr := (*[4]float64)(unsafe.Add(xp, j*32))
			s0 += v * xr[0]
			s1 += v * xr[1]
			s2 += v * xr[2]
			s3 += v * xr[3]
		}
		o := (*[4]float64)(out[4*i : 4*i+4])
		o[0], o[1], o[2], o[3] = s0, s1, s2, s3
		start = end
	}
}
