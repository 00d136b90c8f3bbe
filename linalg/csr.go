package linalg

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// CSR is a sparse matrix in compressed sparse row form: the entries of row i
// are Val[RowPtr[i]:RowPtr[i+1]] in the columns ColIdx[RowPtr[i]:RowPtr[i+1]],
// with column indices strictly increasing within a row.
//
// The fields are exported so that callers can build and read matrices without
// copies; NewCSR checks that they are consistent. CSR implements mat.Matrix.
type CSR struct {
	Rows, Cols int
	RowPtr     []int
	ColIdx     []int
	Val        []float64
}

var _ mat.Matrix = (*CSR)(nil)

// NewCSR wraps the given arrays as a rows x cols matrix after checking that
// they form a valid CSR structure with finite values (see Validate for the
// errors). The slices are not copied.
func NewCSR(rows, cols int, rowPtr, colIdx []int, val []float64) (*CSR, error) {
	a := &CSR{Rows: rows, Cols: cols, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
	if err := a.Validate(); err != nil {
		return nil, err
	}
	return a, nil
}

// Validate reports whether the fields of a describe a valid CSR matrix:
// nil if they do, otherwise an *Error wrapping ErrEmpty (nil matrix),
// ErrShape (inconsistent structure) or ErrNonFinite. The other methods of
// CSR assume a valid matrix and may panic on inconsistent fields.
func (a *CSR) Validate() error {
	const op = "CSR.Validate"
	if a == nil {
		return newErr(ErrEmpty, op, "matrix is nil")
	}
	if a.Rows < 0 || a.Cols < 0 {
		return newErr(ErrShape, op, "dimensions %dx%d are negative", a.Rows, a.Cols)
	}
	if a.Rows == math.MaxInt || len(a.RowPtr) != a.Rows+1 {
		return newErr(ErrShape, op, "RowPtr has length %d, want rows+1 = %d+1", len(a.RowPtr), a.Rows)
	}
	if a.RowPtr[0] != 0 {
		return newErr(ErrShape, op, "RowPtr[0] = %d, must be 0", a.RowPtr[0])
	}
	nnz := a.RowPtr[a.Rows]
	if len(a.ColIdx) != nnz || len(a.Val) != nnz {
		return newErr(ErrShape, op, "RowPtr[rows] = %d but there are %d column indices and %d values", nnz, len(a.ColIdx), len(a.Val))
	}
	// Check monotonicity first: with RowPtr[0] = 0 and RowPtr[rows] = nnz it
	// bounds every RowPtr entry, so the index checks below stay in range.
	for i := 0; i < a.Rows; i++ {
		if a.RowPtr[i+1] < a.RowPtr[i] {
			return newErr(ErrShape, op, "RowPtr decreases at row %d", i)
		}
	}
	for i := 0; i < a.Rows; i++ {
		lo, hi := a.RowPtr[i], a.RowPtr[i+1]
		for k := lo; k < hi; k++ {
			j := a.ColIdx[k]
			if j < 0 || j >= a.Cols {
				return newErr(ErrShape, op, "row %d has column index %d outside [0,%d)", i, j, a.Cols)
			}
			if k > lo && j <= a.ColIdx[k-1] {
				return newErr(ErrShape, op, "row %d: column indices are not strictly increasing", i)
			}
			if v := a.Val[k]; math.IsNaN(v) || math.IsInf(v, 0) {
				return newErr(ErrNonFinite, op, "entry (%d,%d) = %v is not finite", i, j, v)
			}
		}
	}
	return nil
}

// Triplet is one entry (I, J, V) of a matrix in coordinate form.
type Triplet struct {
	I, J int
	V    float64
}

// CSRFromTriplets builds a rows x cols CSR matrix from coordinate entries,
// summing duplicates. Entries that sum to exactly zero are kept, so the
// sparsity pattern is the union of the given positions. Errors wrap
// ErrShape (negative or unallocatable dimensions, an entry out of range) or
// ErrNonFinite.
func CSRFromTriplets(rows, cols int, ts []Triplet) (*CSR, error) {
	const op = "CSRFromTriplets"
	if rows < 0 || cols < 0 {
		return nil, newErr(ErrShape, op, "dimensions %dx%d are negative", rows, cols)
	}
	if rows >= math.MaxInt/8 {
		// RowPtr (rows+1 ints) could not be allocated.
		return nil, newErr(ErrShape, op, "%d rows are too many", rows)
	}
	count := make([]int, rows+1)
	for _, t := range ts {
		if t.I < 0 || t.I >= rows || t.J < 0 || t.J >= cols {
			return nil, newErr(ErrShape, op, "triplet (%d,%d) outside %dx%d", t.I, t.J, rows, cols)
		}
		if math.IsNaN(t.V) || math.IsInf(t.V, 0) {
			return nil, newErr(ErrNonFinite, op, "triplet (%d,%d) = %v is not finite", t.I, t.J, t.V)
		}
		count[t.I+1]++
	}
	for i := 0; i < rows; i++ {
		count[i+1] += count[i]
	}
	col := make([]int, len(ts))
	val := make([]float64, len(ts))
	next := append([]int(nil), count[:rows]...)
	for _, t := range ts {
		k := next[t.I]
		col[k], val[k] = t.J, t.V
		next[t.I]++
	}
	// Sort each row by column and merge duplicates in place.
	ptr := make([]int, rows+1)
	w := 0
	for i := 0; i < rows; i++ {
		lo, hi := count[i], count[i+1]
		sort.Sort(rowSorter{col[lo:hi], val[lo:hi]})
		ptr[i] = w
		for k := lo; k < hi; k++ {
			if w > ptr[i] && col[w-1] == col[k] {
				val[w-1] += val[k]
				continue
			}
			col[w], val[w] = col[k], val[k]
			w++
		}
	}
	ptr[rows] = w
	return &CSR{Rows: rows, Cols: cols, RowPtr: ptr, ColIdx: col[:w:w], Val: val[:w:w]}, nil
}

type rowSorter struct {
	c []int
	v []float64
}

func (s rowSorter) Len() int           { return len(s.c) }
func (s rowSorter) Less(i, j int) bool { return s.c[i] < s.c[j] }
func (s rowSorter) Swap(i, j int) {
	s.c[i], s.c[j] = s.c[j], s.c[i]
	s.v[i], s.v[j] = s.v[j], s.v[i]
}

// Dims returns the number of rows and columns.
func (a *CSR) Dims() (r, c int) { return a.Rows, a.Cols }

// At returns the entry (i, j). It panics if (i, j) is out of range, as
// mat.Matrix implementations do.
func (a *CSR) At(i, j int) float64 {
	if i < 0 || i >= a.Rows || j < 0 || j >= a.Cols {
		panic(mat.ErrIndexOutOfRange)
	}
	cols := a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]]
	k := sort.SearchInts(cols, j)
	if k < len(cols) && cols[k] == j {
		return a.Val[a.RowPtr[i]+k]
	}
	return 0
}

// T returns the implicit transpose of a.
func (a *CSR) T() mat.Matrix { return mat.Transpose{Matrix: a} }

// Scaled returns alpha A: a new matrix with its own values that shares
// the index arrays (RowPtr, ColIdx) of a.
func (a *CSR) Scaled(alpha float64) *CSR {
	b := *a
	b.Val = make([]float64, len(a.Val))
	for i, v := range a.Val {
		b.Val[i] = alpha * v
	}
	return &b
}

// NNZ returns the number of stored entries.
func (a *CSR) NNZ() int { return a.RowPtr[a.Rows] }

// MulVecTo sets dst = A x, overwriting dst. It panics if len(x) != Cols or
// len(dst) != Rows (a programmer error); dst and x must not overlap. Large
// matrices are multiplied by up to GOMAXPROCS goroutines, each owning a
// contiguous range of rows; results do not depend on the number of
// goroutines. It is safe to call concurrently on the same matrix.
func (a *CSR) MulVecTo(dst, x []float64) {
	if len(x) != a.Cols || len(dst) != a.Rows {
		panic(fmt.Sprintf("linalg: CSR.MulVecTo: %dx%d matrix with len(x)=%d, len(dst)=%d", a.Rows, a.Cols, len(x), len(dst)))
	}
	a.ForRows(func(lo, hi int) { a.mulRows(dst, x, lo, hi) })
}

// ForRows calls f on contiguous ranges [lo, hi) of a's rows that together
// cover them once, as a's own products split their work: among up to
// GOMAXPROCS goroutines, with about equal numbers of stored entries each
// (the caller's goroutine takes the last range), or one call for a small
// matrix. It returns when every call has. f runs concurrently on disjoint
// ranges, so it must write only what its rows own. It lets a row kernel
// written elsewhere (on a copy of a's structure, say) split its work as
// a's own products do.
func (a *CSR) ForRows(f func(lo, hi int)) {
	nnz := a.NNZ()
	workers := min(runtime.GOMAXPROCS(0), nnz/parMulMinNNZ)
	if workers <= 1 {
		f(0, a.Rows)
		return
	}
	var wg sync.WaitGroup
	lo := 0
	for w := 1; w <= workers; w++ {
		hi := a.Rows
		if w < workers {
			target := nnz / workers * w
			hi = sort.SearchInts(a.RowPtr, target)
			hi = max(lo, min(hi, a.Rows))
		}
		if w == workers {
			f(lo, hi)
			break
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, hi)
		lo = hi
	}
	wg.Wait()
}

// parMulMinNNZ is the number of stored entries per goroutine below which
// the products stay serial (a goroutine costs about a microsecond, a stored
// entry about a nanosecond).
const parMulMinNNZ = 1 << 16

func (a *CSR) mulRows(dst, x []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		var s float64
		cols := a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]]
		vals := a.Val[a.RowPtr[i]:a.RowPtr[i+1]]
		for k, j := range cols {
			s += vals[k] * x[j]
		}
		dst[i] = s
	}
}

// ToDense returns a dense copy of a.
func (a *CSR) ToDense() *mat.Dense {
	if a.Rows == 0 || a.Cols == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(a.Rows, a.Cols, nil)
	for i := 0; i < a.Rows; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			d.Set(i, a.ColIdx[k], a.Val[k])
		}
	}
	return d
}

// IsSymmetric reports whether a is square with a_ij == a_ji exactly for every
// stored entry. Rows are visited in order, and the entries (j, i) of a row
// j come in increasing i, so one cursor per row finds each mirror entry in
// O(1) (every entry is checked from its own row, so an entry without a
// mirror is found there): O(nnz) time, O(n) memory.
func (a *CSR) IsSymmetric() bool {
	if a.Rows != a.Cols {
		return false
	}
	next := slices.Clone(a.RowPtr[:a.Rows])
	for i := 0; i < a.Rows; i++ {
		for k := a.RowPtr[i]; k < a.RowPtr[i+1]; k++ {
			j := a.ColIdx[k]
			m := next[j]
			if m >= a.RowPtr[j+1] || a.ColIdx[m] != i || a.Val[m] != a.Val[k] {
				return false
			}
			next[j]++
		}
	}
	return true
}
