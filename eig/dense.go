package eig

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Dense is a dense symmetric matrix operator. The full n x n matrix is held
// in row-major order and its products are split by rows across GOMAXPROCS
// goroutines, so a product reads each entry exactly once and runs close to
// memory bandwidth for large n. It is a BlockOperator: a block product reads
// the matrix once for all its vectors. Dense is safe for concurrent use.
type Dense struct {
	n    int
	a    []float64 // n*n, row-major, full storage
	pool sync.Pool // *denseTask, reused to keep products allocation-free
}

var _ BlockOperator = (*Dense)(nil)

// parallelMin is the number of multiply-adds below which products run on
// the calling goroutine: a crew helper (crew.go) joins a job at once if it
// is awake, but only after a wake-up delay comparable to such a product if
// it has to be started.
const parallelMin = 1 << 20

// NewDense returns an operator for the symmetric matrix a. The matrix is
// copied into full row-major storage (8 n^2 bytes) and checked once, in
// O(n^2) time, to be finite. A *mat.SymDense is symmetric by construction.
//
// Errors: linalg.ErrEmpty for a nil or empty matrix, linalg.ErrNonFinite
// for a NaN or infinite entry.
func NewDense(a *mat.SymDense) (*Dense, error) {
	const op = "eig.NewDense"
	if a == nil || a.IsEmpty() {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "matrix is nil or empty")
	}
	n := a.SymmetricDim()
	d := &Dense{n: n, a: make([]float64, n*n)}
	raw := a.RawSymmetric() // the upper triangle is the matrix
	for i := 0; i < n; i++ {
		row := d.a[i*n+i : i*n+n]
		copy(row, raw.Data[i*raw.Stride+i:i*raw.Stride+n])
		for k, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, linalg.Errorf(linalg.ErrNonFinite, op, "entry (%d,%d) = %v is not finite", i, i+k, v)
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
// copying it, halving the memory of a kernel eigenproblem (the copy of
// NewDense takes 8 n^2 bytes). It requires full storage: a's raw data must
// hold both triangles with stride n, as linalg.Gram and
// linalg.RBFFromDistances write them; that is checked in O(n^2) time, with
// exact symmetry and finiteness, and a matrix that fails is an error (use
// NewDense, which reads the upper triangle only). The caller must not
// modify a while the operator is in use.
//
// Errors: linalg.ErrEmpty for a nil or empty matrix, linalg.ErrShape for a
// view of a larger matrix (stride not n), linalg.ErrNonFinite for a NaN or
// infinite entry, ErrNotSymmetric for an entry that differs from its mirror
// image.
func NewDenseShared(a *mat.SymDense) (*Dense, error) {
	const op = "eig.NewDenseShared"
	if a == nil || a.IsEmpty() {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "matrix is nil or empty")
	}
	n := a.SymmetricDim()
	raw := a.RawSymmetric()
	if raw.Stride != n {
		return nil, linalg.Errorf(linalg.ErrShape, op, "stride %d, want %d (a view of a larger matrix; use NewDense)", raw.Stride, n)
	}
	data := raw.Data[:n*n]
	if err := checkFull(op, data, n, " (the lower triangle is not stored; use NewDense)"); err != nil {
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
func checkFull(op string, data []float64, n int, hint string) error {
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
						return linalg.Errorf(linalg.ErrNonFinite, op, "entry (%d,%d) = %v is not finite", i, j, v)
					}
					if math.IsNaN(w) || math.IsInf(w, 0) {
						return linalg.Errorf(linalg.ErrNonFinite, op, "entry (%d,%d) = %v is not finite", j, i, w)
					}
					if w != v {
						return linalg.Errorf(ErrNotSymmetric, op, "entries (%d,%d) = %v and (%d,%d) = %v differ%s",
							i, j, v, j, i, w, hint)
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
//
// Errors: linalg.ErrEmpty for a nil or empty matrix, linalg.ErrShape for a
// matrix that is not square, linalg.ErrNonFinite for a NaN or infinite
// entry, ErrNotSymmetric for an entry that differs from its mirror image.
func NewDenseFull(a mat.Matrix) (*Dense, error) {
	const op = "eig.NewDenseFull"
	if isNilOrEmpty(a) {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "matrix is nil or empty")
	}
	r, c := a.Dims()
	if r != c {
		return nil, linalg.Errorf(linalg.ErrShape, op, "matrix is %dx%d, not square", r, c)
	}
	if r == 0 {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "matrix is empty")
	}
	n := r
	d := &Dense{n: n, a: make([]float64, n*n)}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			d.a[i*n+j] = a.At(i, j)
		}
	}
	if err := checkFull(op, d.a, n, ""); err != nil {
		return nil, err
	}
	return d, nil
}

// Dims returns (n, n); (0, 0) for a nil or zero Dense, which the solvers
// reject.
func (d *Dense) Dims() (r, c int) {
	if d == nil {
		return 0, 0
	}
	return d.n, d.n
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

// MulVecTo sets dst = A x. It panics if the lengths are not n (a
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
// both b x n (a programmer error); they must not overlap.
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
