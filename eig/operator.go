package eig

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Operator is a symmetric linear operator A of dimension Dim() x Dim().
// MulVecTo sets dst = A x, overwriting dst (it never accumulates); dst and x
// have length Dim() and do not overlap. Implementations must be safe for
// concurrent use if the operator is shared between concurrent solves.
type Operator interface {
	Dim() int
	MulVecTo(dst, x []float64)
}

// BlockOperator is an Operator that can apply A to several vectors in one
// call, which lets a dense matrix be streamed from memory once per block
// instead of once per vector.
//
// MulVecsTo sets row k of dst to A times row k of x, for every row k. Both x
// and dst are b x Dim() matrices: vectors are stored as rows so that each is
// contiguous in memory. dst is overwritten.
type BlockOperator interface {
	Operator
	MulVecsTo(dst, x *mat.Dense)
}

// calls returns the number of operator calls mulVecs makes for r vectors:
// one block product, or one call per vector.
func calls(a Operator, r int) int {
	if _, ok := a.(BlockOperator); ok {
		return 1
	}
	return r
}

// mulVecs applies a to the rows of x, using the block product when a has one.
func mulVecs(a Operator, dst, x *mat.Dense) {
	if b, ok := a.(BlockOperator); ok {
		b.MulVecsTo(dst, x)
		return
	}
	r, _ := x.Dims()
	for k := 0; k < r; k++ {
		a.MulVecTo(dst.RawRowView(k), x.RawRowView(k))
	}
}

// Dense is a dense symmetric matrix operator. The full n x n matrix is held
// in row-major order and its products are split by rows across GOMAXPROCS
// goroutines, so a product reads each entry exactly once and runs close to
// memory bandwidth for large n. Dense is safe for concurrent use.
type Dense struct {
	n    int
	a    []float64 // n*n, row-major, full storage
	pool sync.Pool // *denseTask, reused to keep products allocation-free
}

// parallelMin is the number of multiply-adds below which products run on
// the calling goroutine. A crew helper (crew.go) joins a job within a
// microsecond if it is awake, but after up to 100 microseconds if it has
// to be started, while 2^20 multiply-adds take about 25 microseconds on
// one core with the AVX2 kernel: on the 351 x 351 ionosphere kernel (blocks
// of 2 and of 4) the serial products made the whole solve faster.
const parallelMin = 1 << 20

// NewDense returns an operator for the symmetric matrix a. The matrix is
// copied into full row-major storage (8 n^2 bytes) and checked once, in
// O(n^2) time, to be finite. A *mat.SymDense is symmetric by construction.
func NewDense(a *mat.SymDense) (*Dense, error) {
	if a == nil || a.IsEmpty() {
		return nil, fmt.Errorf("%w: NewDense: nil or empty matrix", ErrInvalid)
	}
	n := a.SymmetricDim()
	d := &Dense{n: n, a: make([]float64, n*n)}
	raw := a.RawSymmetric() // the upper triangle is the matrix
	for i := 0; i < n; i++ {
		row := d.a[i*n+i : i*n+n]
		copy(row, raw.Data[i*raw.Stride+i:i*raw.Stride+n])
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: NewDense: entry (%d,%d) = %v", ErrNotFinite, i, i+k, v)
			}
		}
	}
	// Mirror in tiles so that both the rows read and the columns written
	// stay in cache.
	const tb = 64
	for i0 := 0; i0 < n; i0 += tb {
		for j0 := i0; j0 < n; j0 += tb {
			for i := i0; i < min(i0+tb, n); i++ {
				for j := max(j0, i+1); j < min(j0+tb, n); j++ {
					d.a[j*n+i] = d.a[i*n+j]
				}
			}
		}
	}
	return d, nil
}

// NewDenseShared returns an operator that uses the storage of a without
// copying it, halving the memory of a kernel eigenproblem (at n = 16000 the
// copy of NewDense is 2 GB). It requires full storage: a's raw data must
// hold both triangles with stride n, as linalg.Gram and
// linalg.RBFFromDistances write them; that is checked in O(n^2) time, with
// exact symmetry and finiteness, and a matrix that fails is an error (use
// NewDense, which reads the upper triangle only). The caller must not
// modify a while the operator is in use.
func NewDenseShared(a *mat.SymDense) (*Dense, error) {
	if a == nil || a.IsEmpty() {
		return nil, fmt.Errorf("%w: NewDenseShared: nil or empty matrix", ErrInvalid)
	}
	n := a.SymmetricDim()
	raw := a.RawSymmetric()
	if raw.Stride != n {
		return nil, fmt.Errorf("%w: NewDenseShared: stride %d, want %d (a view of a larger matrix; use NewDense)", ErrInvalid, raw.Stride, n)
	}
	data := raw.Data[:n*n]
	if err := checkFull("NewDenseShared", data, n, " (the lower triangle is not stored; use NewDense)"); err != nil {
		return nil, err
	}
	return &Dense{n: n, a: data}, nil
}

// checkFull returns an error naming the first entry of the n x n row-major
// data that is not finite or differs from its mirror image (hint is
// appended to the latter message), and nil if there is none. The common
// case costs one branch-free pass (symmetricFinite); the entries are
// examined one by one only if that pass finds something, or finds zeros of
// opposite signs, which are equal.
func checkFull(name string, data []float64, n int, hint string) error {
	if symmetricFinite(data, n) {
		return nil
	}
	const tb = 64 // tiles keep the column reads in cache
	for i0 := 0; i0 < n; i0 += tb {
		for j0 := i0; j0 < n; j0 += tb {
			for i := i0; i < min(i0+tb, n); i++ {
				for j := max(j0, i); j < min(j0+tb, n); j++ {
					v, w := data[i*n+j], data[j*n+i]
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return fmt.Errorf("%w: %s: entry (%d,%d) = %v", ErrNotFinite, name, i, j, v)
					}
					if math.IsNaN(w) || math.IsInf(w, 0) {
						return fmt.Errorf("%w: %s: entry (%d,%d) = %v", ErrNotFinite, name, j, i, w)
					}
					if w != v {
						return fmt.Errorf("%w: %s: entries (%d,%d) = %v and (%d,%d) = %v differ%s",
							ErrNotSymmetric, name, i, j, v, j, i, w, hint)
					}
				}
			}
		}
	}
	return nil
}

// symmetricFinite reports whether the n x n row-major data is finite and
// bitwise symmetric, without a branch per entry: it ORs the bit differences
// of each entry and its mirror image and keeps the largest magnitude bit
// pattern, which is below that of +Inf exactly when every entry is finite.
// Four rows are walked together, so that each mirror image read below the
// diagonal brings four of the entries needed (one cache line serves two
// groups) while the four row streams run ahead in order.
func symmetricFinite(data []float64, n int) bool {
	const signBit = 1 << 63
	var diff, mag uint64
	i := 0
	for ; i+4 <= n; i += 4 {
		for a := 0; a < 4; a++ { // the diagonal 4 x 4 block
			for b := a; b < 4; b++ {
				v := math.Float64bits(data[(i+a)*n+i+b])
				diff |= v ^ math.Float64bits(data[(i+b)*n+i+a])
				mag = max(mag, v&^signBit)
			}
		}
		r0, r1, r2, r3 := data[i*n:(i+1)*n], data[(i+1)*n:(i+2)*n], data[(i+2)*n:(i+3)*n], data[(i+3)*n:(i+4)*n]
		for j := i + 4; j < n; j++ {
			low := data[j*n+i : j*n+i+4]
			v0, v1, v2, v3 := math.Float64bits(r0[j]), math.Float64bits(r1[j]), math.Float64bits(r2[j]), math.Float64bits(r3[j])
			diff |= (v0 ^ math.Float64bits(low[0])) | (v1 ^ math.Float64bits(low[1])) |
				(v2 ^ math.Float64bits(low[2])) | (v3 ^ math.Float64bits(low[3]))
			mag = max(mag, v0&^signBit, v1&^signBit, v2&^signBit, v3&^signBit)
		}
	}
	for ; i < n; i++ { // the last n mod 4 rows
		for j := i; j < n; j++ {
			v := math.Float64bits(data[i*n+j])
			diff |= v ^ math.Float64bits(data[j*n+i])
			mag = max(mag, v&^signBit)
		}
	}
	return diff == 0 && mag < 0x7ff0000000000000
}

// NewDenseFull returns an operator for the n x n matrix a given in full
// storage, checking in O(n^2) time that it is square, finite and exactly
// symmetric. The matrix is copied.
func NewDenseFull(a mat.Matrix) (*Dense, error) {
	if isNilOrEmpty(a) {
		return nil, fmt.Errorf("%w: NewDenseFull: nil or empty matrix", ErrInvalid)
	}
	r, c := a.Dims()
	if r != c {
		return nil, fmt.Errorf("%w: NewDenseFull: matrix is %dx%d, not square", ErrInvalid, r, c)
	}
	if r == 0 {
		return nil, fmt.Errorf("%w: NewDenseFull: empty matrix", ErrInvalid)
	}
	n := r
	d := &Dense{n: n, a: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d.a[i*n+j] = a.At(i, j)
		}
	}
	if err := checkFull("NewDenseFull", d.a, n, ""); err != nil {
		return nil, err
	}
	return d, nil
}

// Dim returns n (0 for a nil or zero Dense, which the solvers reject).
func (d *Dense) Dim() int {
	if d == nil {
		return 0
	}
	return d.n
}

// At returns entry (i, j). It panics if i or j is outside [0, n).
func (d *Dense) At(i, j int) float64 { return d.a[i*d.n+j] }

// denseTask carries one product to the crew (crew.go). The part function
// is bound once when the task is created, so a product allocates nothing.
type denseTask struct {
	d      *Dense
	dst, x []float64 // vector product
	dm, xm *mat.Dense
	fj     forkJob
	parts  int // row ranges: GOMAXPROCS, at most n
	part   func(part int)
	block  bool
	// xi holds, for each row range, the vectors of a block of eight
	// interleaved (dots8Bcast); each range allocates its own on its first
	// such product.
	xi [][]float64
}

func (d *Dense) task() *denseTask {
	if t, ok := d.pool.Get().(*denseTask); ok {
		return t
	}
	w := runtime.GOMAXPROCS(0)
	if w > d.n {
		w = d.n
	}
	t := &denseTask{d: d, parts: w, xi: make([][]float64, w)}
	t.part = func(k int) { t.rows(k, k*d.n/w, (k+1)*d.n/w) }
	return t
}

// rows computes rows [lo, hi) of the product; part (< parts) names the
// range, and with it the workspace the range may use.
func (t *denseTask) rows(part, lo, hi int) {
	n := t.d.n
	impl := blas64.Implementation()
	if hi <= lo {
		return
	}
	if !t.block {
		// gonum's Dgemv kernel works on four rows at a time and shares the
		// loads of x among them: faster than row-by-row dot products.
		impl.Dgemv(blas.NoTrans, hi-lo, n, 1, t.d.a[lo*n:], n, t.x, 1, 0, t.dst[lo:hi], 1)
		return
	}
	b, _ := t.xm.Dims()
	if hasAVX512 && b == 8 && (hi-lo)*n >= cacheEntries {
		// Eight vectors and a streamed matrix: every entry of the matrix
		// is a broadcast operand of one fused multiply-add with the eight
		// vectors' entries (see dots8Bcast).
		if len(t.xi[part]) < 8*n {
			t.xi[part] = make([]float64, 8*n)
		}
		xr, dr := t.xm.RawMatrix(), t.dm.RawMatrix()
		dots8Bcast(dr.Data[lo:], 1, dr.Stride, t.d.a[lo*n:], n, hi-lo, xr.Data, xr.Stride, n, t.xi[part])
		return
	}
	if hasAVX2FMA {
		// Register-tiled dot products (3 matrix rows by 4 vectors): the
		// matrix is read from memory once per block and the arithmetic
		// keeps pace with the memory for blocks of a dozen vectors.
		xr, dr := t.xm.RawMatrix(), t.dm.RawMatrix()
		dotsNT(true, dr.Data[lo:], 1, dr.Stride, t.d.a[lo*n:], n, hi-lo, xr.Data, xr.Stride, b, n)
		return
	}
	// Block product: a panel of rows (panelRows*8n bytes, a few hundred
	// KiB) stays in cache while it is applied to every vector of the block,
	// so the matrix is read from memory once per block.
	for i0 := lo; i0 < hi; i0 += panelRows {
		r := min(panelRows, hi-i0)
		for k := 0; k < b; k++ {
			impl.Dgemv(blas.NoTrans, r, n, 1, t.d.a[i0*n:], n, t.xm.RawRowView(k), 1, 0, t.dm.RawRowView(k)[i0:i0+r], 1)
		}
	}
}

// panelRows is the number of matrix rows a block product keeps in cache
// while it applies them to each vector (8 rows of n = 4000 are 256 KiB).
const panelRows = 8

func (t *denseTask) exec(work int) {
	if work < parallelMin || t.parts == 1 {
		t.rows(0, 0, t.d.n)
		return
	}
	t.fj.run(t.parts, t.part)
}

// MulVecTo sets dst = A x. It panics if the lengths are not Dim() (a
// programmer error); dst and x must not overlap.
func (d *Dense) MulVecTo(dst, x []float64) {
	if len(dst) != d.n || len(x) != d.n {
		panic(fmt.Sprintf("eig: Dense.MulVecTo: dimension %d with len(dst)=%d, len(x)=%d", d.n, len(dst), len(x)))
	}
	t := d.task()
	t.block, t.dst, t.x = false, dst, x
	t.exec(d.n * d.n)
	t.dst, t.x = nil, nil
	d.pool.Put(t)
}

// MulVecsTo sets the rows of dst to A times the rows of x. Each row of A is
// read once from memory for the whole block. It panics if x and dst are not
// both b x Dim() (a programmer error); they must not overlap.
func (d *Dense) MulVecsTo(dst, x *mat.Dense) {
	br, bc := x.Dims()
	dr, dc := dst.Dims()
	if bc != d.n || dc != d.n || br != dr {
		panic(fmt.Sprintf("eig: Dense.MulVecsTo: dimension %d with x %dx%d, dst %dx%d", d.n, br, bc, dr, dc))
	}
	t := d.task()
	t.block, t.dm, t.xm = true, dst, x
	t.exec(d.n * d.n * br)
	t.dm, t.xm = nil, nil
	d.pool.Put(t)
}

// CSR is a sparse symmetric matrix operator backed by a linalg.CSR.
type CSR struct {
	a *linalg.CSR
}

// NewCSR returns an operator for the sparse matrix a, checking that it is a
// valid, finite, square and exactly symmetric CSR matrix (O(nnz log) time).
// The matrix is not copied and must not be modified while in use.
func NewCSR(a *linalg.CSR) (*CSR, error) {
	if a == nil {
		return nil, fmt.Errorf("%w: NewCSR: nil matrix", ErrInvalid)
	}
	if err := a.Validate(); err != nil {
		if errors.Is(err, linalg.ErrNonFinite) {
			return nil, fmt.Errorf("%w: NewCSR: %w", ErrNotFinite, err)
		}
		return nil, fmt.Errorf("%w: NewCSR: %w", ErrInvalid, err)
	}
	if a.Rows != a.Cols {
		return nil, fmt.Errorf("%w: NewCSR: matrix is %dx%d, not square", ErrInvalid, a.Rows, a.Cols)
	}
	if a.Rows == 0 {
		return nil, fmt.Errorf("%w: NewCSR: empty matrix", ErrInvalid)
	}
	if !a.IsSymmetric() {
		return nil, fmt.Errorf("%w: NewCSR: matrix is not exactly symmetric", ErrNotSymmetric)
	}
	return &CSR{a: a}, nil
}

// Dim returns the order of the matrix (0 for a nil or zero CSR, which the
// solvers reject).
func (c *CSR) Dim() int {
	if c == nil || c.a == nil {
		return 0
	}
	return c.a.Rows
}

// MulVecTo sets dst = A x. It panics if the lengths are not Dim() (a
// programmer error); dst and x must not overlap.
func (c *CSR) MulVecTo(dst, x []float64) { c.a.MulVecTo(dst, x) }

// Shifted is the operator A - Sigma I.
type Shifted struct {
	Op    Operator
	Sigma float64
}

// Shift returns the operator a - sigma I.
func Shift(a Operator, sigma float64) *Shifted { return &Shifted{Op: a, Sigma: sigma} }

// Dim returns the dimension of the underlying operator (0 if there is
// none).
func (s *Shifted) Dim() int {
	if s == nil {
		return 0
	}
	return opDim(s.Op)
}

// MulVecTo sets dst = (A - Sigma I) x.
func (s *Shifted) MulVecTo(dst, x []float64) {
	s.Op.MulVecTo(dst, x)
	if s.Sigma != 0 {
		blas64.Implementation().Daxpy(len(x), -s.Sigma, x, 1, dst, 1)
	}
}

// MulVecsTo applies A - Sigma I to the rows of x.
func (s *Shifted) MulVecsTo(dst, x *mat.Dense) {
	mulVecs(s.Op, dst, x)
	if s.Sigma != 0 {
		r, _ := x.Dims()
		for k := 0; k < r; k++ {
			blas64.Implementation().Daxpy(s.Op.Dim(), -s.Sigma, x.RawRowView(k), 1, dst.RawRowView(k), 1)
		}
	}
}

// Negated is the operator -A.
type Negated struct{ Op Operator }

// Negate returns the operator -a, whose largest eigenvalues are the
// negatives of the smallest eigenvalues of a.
func Negate(a Operator) *Negated { return &Negated{Op: a} }

// Dim returns the dimension of the underlying operator (0 if there is
// none).
func (g *Negated) Dim() int {
	if g == nil {
		return 0
	}
	return opDim(g.Op)
}

// MulVecTo sets dst = -A x.
func (g *Negated) MulVecTo(dst, x []float64) {
	g.Op.MulVecTo(dst, x)
	for i := range dst {
		dst[i] = -dst[i]
	}
}

// MulVecsTo applies -A to the rows of x.
func (g *Negated) MulVecsTo(dst, x *mat.Dense) {
	mulVecs(g.Op, dst, x)
	r, _ := dst.Dims()
	for k := 0; k < r; k++ {
		row := dst.RawRowView(k)
		for i := range row {
			row[i] = -row[i]
		}
	}
}

// Counter wraps an operator and counts the vectors it is applied to and the
// calls made (a block product of b vectors counts b vectors and one call).
// The counts are updated atomically, so a Counter may be shared.
type Counter struct {
	Op      Operator
	vectors atomic.Int64
	calls   atomic.Int64
}

// Dim returns the dimension of the underlying operator (0 if there is
// none).
func (c *Counter) Dim() int {
	if c == nil {
		return 0
	}
	return opDim(c.Op)
}

// MulVecTo applies the operator and counts one vector and one call.
func (c *Counter) MulVecTo(dst, x []float64) {
	c.vectors.Add(1)
	c.calls.Add(1)
	c.Op.MulVecTo(dst, x)
}

// MulVecsTo applies the operator to the rows of x and counts them.
func (c *Counter) MulVecsTo(dst, x *mat.Dense) {
	r, _ := x.Dims()
	c.vectors.Add(int64(r))
	c.calls.Add(1)
	mulVecs(c.Op, dst, x)
}

// Vectors returns the number of vectors the operator has been applied to.
func (c *Counter) Vectors() int64 { return c.vectors.Load() }

// Calls returns the number of MulVecTo and MulVecsTo calls.
func (c *Counter) Calls() int64 { return c.calls.Load() }

// opDim returns a.Dim(), or 0 if a is nil or an interface holding a nil
// pointer (whose Dim would panic).
func opDim(a Operator) int {
	if isNilOrEmpty(a) {
		return 0
	}
	return a.Dim()
}

// isNilOrEmpty reports whether v is nil, an interface holding a nil pointer,
// or a gonum matrix that reports itself empty.
func isNilOrEmpty(v any) bool {
	if v == nil {
		return true
	}
	if r := reflect.ValueOf(v); r.Kind() == reflect.Pointer && r.IsNil() {
		return true
	}
	if e, ok := v.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return true
	}
	return false
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
