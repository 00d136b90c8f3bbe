package eig

import (
	"context"
	"errors"
	"fmt"
	"math"

	"ukm/linalg"
)

// SparseCholesky is the Cholesky factorization
//
//	P (A - sigma I) Pᵀ = L Lᵀ
//
// of a sparse symmetric matrix A shifted by sigma, with P a fill-reducing
// permutation (approximate minimum degree) and L lower triangular,
// stored by columns. It applies (A - sigma I)^-1 to vectors, the operator
// of the shift-and-invert mode (ShiftInvert).
//
// Build it with NewSparseCholesky. A SparseCholesky is immutable and safe
// for concurrent use.
type SparseCholesky struct {
	n      int
	sigma  float64
	perm   []int // perm[k] is the row of A eliminated k-th
	colptr []int // column j of L: val[colptr[j]:colptr[j+1]], diagonal first
	rowidx []int32
	val    []float64
}

// NewSparseCholesky factorizes A - sigma I for the sparse symmetric matrix
// a, which must be valid, square and exactly symmetric (as NewCSR checks).
// Entries missing from a's diagonal count as zero.
//
// The ordering takes about O(nnz(L)) time in practice, the numeric
// factorization O(sum over columns of their squared lengths), and the
// factor O(nnz(L)) memory (NNZ reports it); for matrices from
// two-dimensional meshes and graphs of bounded degree nnz(L) grows like
// n log n.
//
// Errors: linalg.ErrEmpty for a nil or empty matrix, the kind of a's
// Validate error for an inconsistent one, linalg.ErrShape for a matrix that
// is not square, ErrNotSymmetric for one that is not exactly symmetric,
// linalg.ErrNonFinite for a non-finite sigma, and, when A - sigma I is not
// positive definite, linalg.ErrNotPSD if it is indefinite (a negative
// pivot: sigma lies above the smallest eigenvalue of A) and
// linalg.ErrDegenerate if it is singular to working precision (a pivot
// zero to rounding, and A - (sigma - delta) I positive definite for delta =
// 64 n eps max(||A||_inf, |sigma|): sigma is the smallest eigenvalue, and
// the factorization is tried a second time to tell). The error names the
// pivot.
func NewSparseCholesky(a *linalg.CSR, sigma float64) (*SparseCholesky, error) {
	const op = "eig.NewSparseCholesky"
	if _, err := NewCSR(a); err != nil {
		return nil, linalg.Errorf(kindOf(err), op, "%w", err)
	}
	if math.IsNaN(sigma) || math.IsInf(sigma, 0) {
		return nil, linalg.Errorf(linalg.ErrNonFinite, op, "shift sigma = %v is not finite", sigma)
	}
	return factorCSR(context.Background(), op, a, sigma)
}

// factorCSR orders and factorizes a checked matrix a - sigma I.
func factorCSR(ctx context.Context, op string, a *linalg.CSR, sigma float64) (*SparseCholesky, error) {
	n := a.Rows
	perm := amdOrder(a)
	pinv := make([]int, n)
	for k, r := range perm {
		pinv[r] = k
	}
	parent, counts := cholSymbolic(a, perm, pinv)
	f := &SparseCholesky{n: n, sigma: sigma, perm: perm}
	f.colptr = make([]int, n+1)
	for j := 0; j < n; j++ {
		f.colptr[j+1] = f.colptr[j] + counts[j]
	}
	nnz := f.colptr[n]
	f.rowidx = make([]int32, nnz)
	f.val = make([]float64, nnz)
	err := f.numeric(ctx, op, a, pinv, parent)
	if errors.Is(err, errZeroPivot) {
		// A zero pivot: A - sigma I is singular if sigma is its smallest
		// eigenvalue (to rounding), then A - (sigma - delta) I is positive
		// definite; else it is indefinite.
		g := &SparseCholesky{n: n, sigma: sigma - zeroShift(a, sigma), perm: perm, colptr: f.colptr, rowidx: f.rowidx, val: f.val}
		clear(g.val)
		if g.numeric(ctx, op, a, pinv, parent) == nil {
			return nil, linalg.Errorf(linalg.ErrDegenerate, op,
				"A - sigma I (sigma = %g) is singular to working precision: %w; sigma is the smallest eigenvalue of A", sigma, err)
		}
		return nil, linalg.Errorf(linalg.ErrNotPSD, op,
			"A - sigma I (sigma = %g) is not positive definite: %w; sigma lies above the smallest eigenvalue of A", sigma, err)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// errZeroPivot reports a pivot that is zero to rounding (see numeric).
var errZeroPivot = errors.New("zero pivot")

// zeroShift is the distance below sigma at which a matrix with a zero
// pivot is factorized again to tell singular from indefinite: 64 n eps
// times max(Gershgorin bound of a, |sigma|).
func zeroShift(a *linalg.CSR, sigma float64) float64 {
	return 64 * float64(a.Rows) * dlamchE * math.Max(GershgorinBound(a), math.Abs(sigma))
}

// cholSymbolic returns the elimination tree of P A Pᵀ (parent[j] = -1 at a
// root) and the number of entries of each column of L, the diagonal
// included, in O(nnz(L)) time.
func cholSymbolic(a *linalg.CSR, perm, pinv []int) (parent, counts []int) {
	n := a.Rows
	parent = make([]int, n)
	anc := make([]int, n) // path-compressed ancestors
	for k := 0; k < n; k++ {
		parent[k], anc[k] = -1, -1
		r := perm[k]
		for _, c := range a.ColIdx[a.RowPtr[r]:a.RowPtr[r+1]] {
			for i := pinv[c]; i < k && i >= 0; {
				nx := anc[i]
				anc[i] = k
				if nx < 0 {
					parent[i] = k
					break
				}
				if nx == k {
					break
				}
				i = nx
			}
		}
	}
	counts = make([]int, n)
	flag := make([]int, n)
	for k := 0; k < n; k++ {
		counts[k]++ // the diagonal
		flag[k] = k + 1
		r := perm[k]
		for _, c := range a.ColIdx[a.RowPtr[r]:a.RowPtr[r+1]] {
			for i := pinv[c]; i < k && flag[i] != k+1; i = parent[i] {
				counts[i]++ // L(k, i) is an entry
				flag[i] = k + 1
			}
		}
	}
	return parent, counts
}

// numeric computes L row by row (the up-looking method): row k solves a
// triangular system with the rows before it, along the paths of the
// elimination tree from the entries of row k of P A Pᵀ.
func (f *SparseCholesky) numeric(ctx context.Context, op string, a *linalg.CSR, pinv, parent []int) error {
	n := f.n
	x := make([]float64, n)
	next := make([]int, n) // next free slot of each column
	flag := make([]int, n)
	stack := make([]int, n)
	path := make([]int, 0, 64)
	for k := 0; k < n; k++ {
		if k%1024 == 0 && ctx.Err() != nil {
			return canceled(op, ctx.Err())
		}
		r := f.perm[k]
		flag[k] = k + 1
		top := n
		x[k] = -f.sigma
		diag := math.Abs(f.sigma)
		for q := a.RowPtr[r]; q < a.RowPtr[r+1]; q++ {
			i := pinv[a.ColIdx[q]]
			if i > k {
				continue
			}
			x[i] += a.Val[q]
			if i == k {
				diag = math.Abs(a.Val[q]) + math.Abs(f.sigma)
				continue
			}
			// The path from i up the tree to the first node already met;
			// later paths go first (they end below earlier ones).
			path = path[:0]
			for ; flag[i] != k+1; i = parent[i] {
				path = append(path, i)
				flag[i] = k + 1
			}
			top -= len(path)
			copy(stack[top:], path)
		}
		d := x[k]
		x[k] = 0
		terms := 1.0
		for _, j := range stack[top:] {
			c0 := f.colptr[j]
			lkj := x[j] / f.val[c0]
			x[j] = 0
			rows, vals := f.rowidx[c0+1:next[j]], f.val[c0+1:next[j]]
			vals = vals[:len(rows)]
			for q, r := range rows {
				x[r] -= vals[q] * lkj
			}
			d -= lkj * lkj
			diag += lkj * lkj
			terms++
			f.rowidx[next[j]] = int32(k)
			f.val[next[j]] = lkj
			next[j]++
		}
		// The pivot carries a rounding error of a few units of round-off
		// per term times the terms' magnitude: within that, it is zero.
		if tiny := 4 * terms * dlamchE * diag; d <= tiny {
			if d < -tiny {
				return linalg.Errorf(linalg.ErrNotPSD, op,
					"A - sigma I (sigma = %g) is not positive definite: pivot %d (row %d) is %.3g; sigma lies above the smallest eigenvalue",
					f.sigma, k, r, d)
			}
			return fmt.Errorf("%w %d (row %d): %.3g against terms of %.3g", errZeroPivot, k, r, d, diag)
		}
		c0 := f.colptr[k]
		f.rowidx[c0] = int32(k)
		f.val[c0] = math.Sqrt(d)
		next[k] = c0 + 1
	}
	return nil
}

// Dims returns (n, n).
func (f *SparseCholesky) Dims() (r, c int) { return f.n, f.n }

// Sigma returns the shift of the factorized matrix A - sigma I.
func (f *SparseCholesky) Sigma() float64 { return f.sigma }

// NNZ returns the number of entries of the factor L, its diagonal
// included: the memory of the factor is 12 NNZ bytes, a solve costs 4 NNZ
// flops.
func (f *SparseCholesky) NNZ() int { return f.colptr[f.n] }

// SolveTo sets dst = (A - sigma I)^-1 b in O(NNZ) time. It panics if the
// lengths are not n (a programmer error); dst and b may be the same slice.
func (f *SparseCholesky) SolveTo(dst, b []float64) {
	n := f.n
	if len(dst) != n || len(b) != n {
		panic("eig: SparseCholesky.SolveTo: length mismatch")
	}
	y := make([]float64, n)
	f.solvePermuted(dst, b, y)
}

// solvePermuted is SolveTo with the work vector y (length n) given.
func (f *SparseCholesky) solvePermuted(dst, b, y []float64) {
	for k, r := range f.perm {
		y[k] = b[r]
	}
	y = y[:f.n]
	for j := 0; j < f.n; j++ { // L z = y
		c0, c1 := f.colptr[j], f.colptr[j+1]
		yj := y[j] / f.val[c0]
		y[j] = yj
		rows, vals := f.rowidx[c0+1:c1], f.val[c0+1:c1]
		vals = vals[:len(rows)]
		for q, r := range rows {
			y[r] -= vals[q] * yj
		}
	}
	for j := f.n - 1; j >= 0; j-- { // Lᵀ x = z
		c0, c1 := f.colptr[j], f.colptr[j+1]
		rows, vals := f.rowidx[c0+1:c1], f.val[c0+1:c1]
		vals = vals[:len(rows)]
		s := y[j]
		for q, r := range rows {
			s -= vals[q] * y[r]
		}
		y[j] = s / f.val[c0]
	}
	for k, r := range f.perm {
		dst[r] = y[k]
	}
}
