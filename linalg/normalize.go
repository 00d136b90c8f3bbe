package linalg

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// symView gives fast access to the upper triangle of a symmetric matrix.
type symView struct {
	n      int
	data   []float64
	stride int
	sym    mat.Symmetric // fallback when there is no raw upper storage
	max    float64       // largest magnitude of an entry (set by checkSym)
}

func viewOf(a mat.Symmetric) symView {
	if s, ok := a.(*mat.SymDense); ok {
		r := s.RawSymmetric()
		if r.Uplo == blas.Upper {
			return symView{n: r.N, data: r.Data, stride: r.Stride}
		}
	}
	return symView{n: a.SymmetricDim(), sym: a}
}

// at returns a_ij for i <= j.
func (v symView) at(i, j int) float64 {
	if v.sym != nil {
		return v.sym.At(i, j)
	}
	return v.data[i*v.stride+j]
}

// checkSym validates a symmetric matrix argument.
func checkSym(op, name string, a mat.Symmetric) (symView, error) {
	if IsNil(a) {
		return symView{}, newErr(ErrEmpty, op, "%s is nil", name)
	}
	if l, ok := a.(*LowRank); ok {
		// Its At would panic on (or silently truncate) inconsistent
		// fields.
		if err := l.validate(op); err != nil {
			return symView{}, err
		}
	}
	if e, ok := a.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return symView{}, newErr(ErrEmpty, op, "%s is empty", name)
	}
	v := viewOf(a)
	if v.n == 0 {
		return symView{}, newErr(ErrEmpty, op, "%s is empty", name)
	}
	var mag uint64
	for i := 0; i < v.n; i++ {
		for j := i; j < v.n; j++ {
			mag = max(mag, math.Float64bits(v.at(i, j))&^(1<<63))
		}
	}
	if mag >= infBits {
		for i := 0; i < v.n; i++ {
			for j := i; j < v.n; j++ {
				if x := v.at(i, j); !isFinite(x) {
					return symView{}, newErr(ErrNonFinite, op, "%s(%d,%d) = %v is not finite", name, i, j, x)
				}
			}
		}
	}
	v.max = math.Float64frombits(mag)
	return v, nil
}

// centreSafe reports whether the row sums of centring an n-column matrix
// with largest magnitude m, and the centred entries (at most 4m), neither
// overflow nor lose precision to underflow.
func centreSafe(n int, m float64) bool {
	return m == 0 || (m >= 0x1p-900 && float64(n)*m <= 0x1p1020)
}

// prepareDst sizes dst for an n x n result and returns raw upper access.
func prepareDst(op string, dst *mat.SymDense, n int) ([]float64, int, error) {
	if dst == nil {
		return nil, 0, newErr(ErrShape, op, "destination is nil")
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	} else if dst.SymmetricDim() != n {
		return nil, 0, newErr(ErrShape, op, "destination is %dx%d, want %dx%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n)
	}
	r := dst.RawSymmetric()
	return r.Data, r.Stride, nil
}

// mirrorLower copies the upper triangle of the raw storage into the lower
// one so that both triangles hold the matrix.
// It works in 32 x 32 tiles so that the strided column writes stay in
// cache (a row-by-row loop misses on every write for large n).
func mirrorLower(data []float64, stride, n int) {
	for i0 := 0; i0 < n; i0 += mirrorTile {
		mirrorTileRow(data, stride, n, i0)
	}
}

const mirrorTile = 32

// mirrorTileRow mirrors the tiles of rows i0 .. i0+mirrorTile-1 right of
// the diagonal; it writes only columns i0 .. i0+mirrorTile-1, so different
// tile rows can be mirrored concurrently.
func mirrorTileRow(data []float64, stride, n, i0 int) {
	i1 := min(i0+mirrorTile, n)
	for j0 := i0; j0 < n; j0 += mirrorTile {
		j1 := min(j0+mirrorTile, n)
		for i := i0; i < i1; i++ {
			row := data[i*stride : i*stride+j1]
			for j := max(j0, i+1); j < j1; j++ {
				data[j*stride+i] = row[j]
			}
		}
	}
}

// mirrorLowerParallel is mirrorLower with the tile rows spread over
// goroutines.
func mirrorLowerParallel(data []float64, stride, n int) {
	nt := (n + mirrorTile - 1) / mirrorTile
	_ = parallelFor(context.Background(), nt, 1, noState, func(_ struct{}, lo, hi int) {
		for t := lo; t < hi; t++ {
			mirrorTileRow(data, stride, n, t*mirrorTile)
		}
	})
}

// CosineNormalize stores K_ij / sqrt(K_ii K_jj) in dst, which may be k
// itself, an empty matrix or an n x n matrix; the diagonal of the result is
// exactly 1. It fails with ErrDegenerate if some K_ii <= 0, or if a value
// exceeds the float64 range (possible only when K is not positive
// semidefinite); dst is then unchanged.
func CosineNormalize(dst *mat.SymDense, k mat.Symmetric) error {
	const op = "CosineNormalize"
	v, err := checkSym(op, "kernel matrix", k)
	if err != nil {
		return err
	}
	n := v.n
	s := make([]float64, n)
	for i := range s {
		d := v.at(i, i)
		if d <= 0 {
			return newErr(ErrDegenerate, op, "diagonal entry K(%d,%d) = %v is not positive", i, i, d)
		}
		s[i] = 1 / math.Sqrt(d)
	}
	// For a positive semidefinite K every result lies in [-1, 1]; other
	// matrices may give values beyond float64, checked before any write
	// when the bound max|K_ij| max(s)^2 allows it.
	if sm := slices.Max(s); !(v.max*sm*sm <= 0x1p1020) {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				if x := v.at(i, j) * s[i] * s[j]; !isFinite(x) {
					return normalizeOverflow(op, i, j)
				}
			}
		}
	}
	data, stride, err := prepareDst(op, dst, n)
	if err != nil {
		return err
	}
	// Row i only reads entries (i, j >= i) before writing them, so dst may
	// alias k.
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			data[i*stride+j] = v.at(i, j) * s[i] * s[j]
		}
		data[i*stride+i] = 1
	}
	mirrorLower(data, stride, n)
	return nil
}

// Center stores the centred kernel matrix H K H, H = I - 11^T/n, in dst
// (which may be k itself, empty, or n x n):
// (HKH)_ij = K_ij - r_i - r_j + t with r the row means and t the overall
// mean of K. It takes O(n^2) time. Entries so large that a row sum would
// overflow, or so small that they are subnormal, are centred after scaling
// by an exact power of two (HKH is linear in K); if a centred entry then
// exceeds the float64 range (it can reach 4 max|K_ij|), Center fails with
// ErrDegenerate and dst is left unspecified.
func Center(dst *mat.SymDense, k mat.Symmetric) error {
	const op = "Center"
	v, err := checkSym(op, "kernel matrix", k)
	if err != nil {
		return err
	}
	n := v.n
	e := 0
	if !centreSafe(n, v.max) {
		v, e = v.unitScaled()
	}
	c := centre(v) // row means r and overall mean t of K
	r, t := c.r, c.t
	data, stride, err := prepareDst(op, dst, n)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			data[i*stride+j] = v.at(i, j) - r[i] - r[j] + t
		}
	}
	if e != 0 {
		if err := unscaleCentred(op, data, stride, n, n, true, e); err != nil {
			return err
		}
	}
	mirrorLower(data, stride, n)
	return nil
}

// unscaleCentred multiplies the rows x cols matrix data (only its upper
// triangle if upper) by 2^e, or fails with ErrDegenerate if an entry then
// overflows.
func unscaleCentred(op string, data []float64, stride, rows, cols int, upper bool, e int) error {
	for i := 0; i < rows; i++ {
		j0 := 0
		if upper {
			j0 = i
		}
		for j := j0; j < cols; j++ {
			x := &data[i*stride+j]
			if *x = math.Ldexp(*x, e); math.IsInf(*x, 0) {
				return newErr(ErrDegenerate, op, "centred entry (%d,%d) (about %s) overflows float64; scale the kernel down",
					i, j, fmtPow2(math.Ldexp(*x, -e), e))
			}
		}
	}
	return nil
}

// Diag returns the diagonal of a symmetric matrix, for example k(x_i, x_i)
// for the cross-kernel normalisation below. It returns nil for a nil or
// empty matrix.
func Diag(k mat.Symmetric) []float64 {
	if IsNil(k) {
		return nil
	}
	if e, ok := k.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return nil
	}
	v := viewOf(k)
	d := make([]float64, v.n)
	for i := range d {
		d[i] = v.at(i, i)
	}
	return d
}

// CosineNormalizeCross applies cosine normalisation to a cross kernel
// matrix: dst_ij = K_ij / sqrt(dx_i dz_j), where dx_i = k(x_i, x_i) and
// dz_j = k(z_j, z_j) (for example from Diag, or 1 for an RBF kernel). dst
// may be k itself, empty, or of k's shape (any other overlap with k is
// handled through a temporary). It fails with ErrNonFinite if k has a NaN
// or Inf entry and with ErrDegenerate if a diagonal value is not positive
// or a result exceeds the float64 range (then dst is unchanged).
func CosineNormalizeCross(dst, k *mat.Dense, dx, dz []float64) error {
	const op = "CosineNormalizeCross"
	if k == nil || k.IsEmpty() {
		return newErr(ErrEmpty, op, "kernel matrix is empty")
	}
	mk, err := checkFiniteDense(op, "kernel matrix", k)
	if err != nil {
		return err
	}
	r, c := k.Dims()
	if len(dx) != r || len(dz) != c {
		return newErr(ErrShape, op, "kernel is %dx%d but diagonals have lengths %d and %d", r, c, len(dx), len(dz))
	}
	sx, sz := make([]float64, r), make([]float64, c)
	for _, p := range []struct{ d, s []float64 }{{dx, sx}, {dz, sz}} {
		for i, v := range p.d {
			if !(v > 0) || !isFinite(v) {
				return newErr(ErrDegenerate, op, "diagonal value %v is not positive and finite", v)
			}
			p.s[i] = 1 / math.Sqrt(v)
		}
	}
	if !(mk*slices.Max(sx)*slices.Max(sz) <= 0x1p1020) {
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if x := k.At(i, j) * sx[i] * sz[j]; !isFinite(x) {
					return normalizeOverflow(op, i, j)
				}
			}
		}
	}
	if partialAlias(dst, k) {
		return viaTemp(op, dst, func(tmp *mat.Dense) error { return CosineNormalizeCross(tmp, k, dx, dz) })
	}
	if err := prepareDense(op, dst, r, c); err != nil {
		return err
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			dst.Set(i, j, k.At(i, j)*sx[i]*sz[j])
		}
	}
	return nil
}

// normalizeOverflow reports a normalised entry beyond the float64 range.
func normalizeOverflow(op string, i, j int) error {
	return newErr(ErrDegenerate, op,
		"normalised entry (%d,%d) overflows float64: the kernel is far from positive semidefinite (|K_ij| >> sqrt(K_ii K_jj))", i, j)
}

// checkFiniteDense reports the first non-finite entry of a as ErrNonFinite;
// otherwise it returns the largest magnitude of an entry.
func checkFiniteDense(op, name string, a *mat.Dense) (float64, error) {
	r, c := a.Dims()
	var mag uint64
	for i := 0; i < r; i++ {
		for _, v := range a.RawRowView(i)[:c] {
			mag = max(mag, math.Float64bits(v)&^(1<<63))
		}
	}
	if mag < infBits {
		return math.Float64frombits(mag), nil
	}
	for i := 0; i < r; i++ {
		for j, v := range a.RawRowView(i)[:c] {
			if !isFinite(v) {
				return 0, newErr(ErrNonFinite, op, "%s entry (%d,%d) = %v is not finite", name, i, j, v)
			}
		}
	}
	return 0, nil
}

func prepareDense(op string, dst *mat.Dense, r, c int) error {
	if dst == nil {
		return newErr(ErrShape, op, "destination is nil")
	}
	if dst.IsEmpty() {
		dst.ReuseAs(r, c)
		return nil
	}
	if dr, dc := dst.Dims(); dr != r || dc != c {
		return newErr(ErrShape, op, "destination is %dx%d, want %dx%d", dr, dc, r, c)
	}
	return nil
}

// CenterCross centres the kernel values between new points z and the
// training points x consistently with Center applied to the training
// kernel ktrain = K(x, x): for kzx = K(z, x) (m x n),
// dst_ij = kzx_ij - mean_l kzx_il - r_j + t, with r the row means and t the
// overall mean of ktrain. This is the feature-space centring by the
// training mean. dst may be kzx itself, empty, or m x n (any other overlap
// with kzx is handled through a temporary). It fails with ErrNonFinite if
// kzx or ktrain has a NaN or Inf entry. Entries of extreme magnitude are
// centred as by Center (both matrices scaled alike), with the same
// ErrDegenerate when a centred value exceeds the float64 range.
func CenterCross(dst, kzx *mat.Dense, ktrain mat.Symmetric) error {
	const op = "CenterCross"
	v, err := checkSym(op, "training kernel", ktrain)
	if err != nil {
		return err
	}
	if kzx == nil || kzx.IsEmpty() {
		return newErr(ErrEmpty, op, "cross kernel is empty")
	}
	mz, err := checkFiniteDense(op, "cross kernel", kzx)
	if err != nil {
		return err
	}
	m, n := kzx.Dims()
	if n != v.n {
		return newErr(ErrShape, op, "cross kernel has %d columns but the training kernel is %dx%d", n, v.n, v.n)
	}
	if partialAlias(dst, kzx) {
		return viaTemp(op, dst, func(tmp *mat.Dense) error { return CenterCross(tmp, kzx, ktrain) })
	}
	if err := prepareDense(op, dst, m, n); err != nil {
		return err
	}
	e := 0
	if big := max(v.max, mz); !centreSafe(n, big) {
		// Both scaled alike (the centring is linear in the pair).
		e = unitExp(big)
		v = v.scaledBy(e)
		kzx = scaledCopy(kzx, e)
	}
	c := centre(v)
	for i := 0; i < m; i++ {
		var s float64
		for j := 0; j < n; j++ {
			s += kzx.At(i, j)
		}
		s /= float64(n)
		for j := 0; j < n; j++ {
			dst.Set(i, j, kzx.At(i, j)-s-c.r[j]+c.t)
		}
	}
	if e != 0 {
		raw := dst.RawMatrix()
		return unscaleCentred(op, raw.Data, raw.Stride, m, n, false, e)
	}
	return nil
}
