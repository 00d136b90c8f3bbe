package linalg

import (
	"context"
	"math"
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// kernelKind classifies a kernel for the Gram builders.
type kernelKind int

const (
	kindGeneric kernelKind = iota
	kindLinear
	kindPoly
	kindRBF
)

type kernelPlan struct {
	kind   kernelKind
	k      Kernel
	degree int
	scale  float64
	offset float64
	gamma  float64
	// f is 1, or for RBF the power of two 2^-e by which the data are
	// multiplied (see rangeScale); gamma is then gamma 4^e. If that is not
	// a normal number, slowExp is set and gamma 4^e = gm 2^ge.
	f       float64
	gm      float64
	ge      int
	slowExp bool
	// check asks for the tiles to be scanned for values that are not
	// finite: the kernel may overflow (or is the caller's).
	check bool
	// cosine divides the Linear or Polynomial products by the square roots
	// of the rows' own values (the Cosine kernel): ix and iz hold
	// 1/sqrt(k(x, x)) for the rows of x and of z (invSqrtSelf).
	cosine bool
	ix, iz []float64
}

func planFor(k Kernel) kernelPlan {
	switch kk := k.(type) {
	case Linear, *Linear:
		return kernelPlan{kind: kindLinear, k: k}
	case Polynomial:
		return kernelPlan{kind: kindPoly, k: k, degree: kk.Degree, scale: kk.scale(), offset: kk.Offset}
	case *Polynomial:
		return kernelPlan{kind: kindPoly, k: k, degree: kk.Degree, scale: kk.scale(), offset: kk.Offset}
	case RBF:
		return kernelPlan{kind: kindRBF, k: k, gamma: kk.Gamma}
	case *RBF:
		return kernelPlan{kind: kindRBF, k: k, gamma: kk.Gamma}
	case Cosine:
		return cosinePlan(kk.Kernel, k)
	case *Cosine:
		return cosinePlan(kk.Kernel, k)
	}
	return kernelPlan{kind: kindGeneric, k: k}
}

// cosinePlan is the plan of k, the Cosine kernel of inner.
func cosinePlan(inner, k Kernel) kernelPlan {
	pl := planFor(inner)
	switch pl.kind {
	case kindRBF:
		return pl // k(x, x) = 1: the normalisation is the identity
	case kindLinear, kindPoly:
		pl.cosine, pl.k = true, k
		return pl
	}
	return kernelPlan{kind: kindGeneric, k: k}
}

// tileSize returns the Gram tile edge: 64 rows (gonum's Dgemm stays serial
// and allocation-free for a single 64x64 block, and the parallelism comes
// from the tiles), reduced for very wide data so that a worker's two
// centred row blocks stay within about 4 MiB.
func tileSize(p int) int {
	b := 64
	for b > 16 && b*p > 1<<18 {
		b /= 2
	}
	return b
}

// gramWork is the per-worker scratch space of the Gram builders.
type gramWork struct {
	a, b   []float64 // centred row blocks (RBF only)
	na, nb []float64 // their squared norms
}

// rowBlock describes rows [lo, hi) of a data matrix.
type rowBlock struct {
	raw    blas64.General
	lo, hi int
}

func (r rowBlock) general() blas64.General {
	p := r.raw.Cols
	m := r.hi - r.lo
	return blas64.General{Rows: m, Cols: p, Stride: r.raw.Stride,
		Data: r.raw.Data[r.lo*r.raw.Stride : (r.hi-1)*r.raw.Stride+p]}
}

// centred copies the block times f minus shift into buf and stores squared
// norms.
func (r rowBlock) centred(f float64, shift, buf, nrm []float64) blas64.General {
	p := r.raw.Cols
	m := r.hi - r.lo
	for a := 0; a < m; a++ {
		src := r.raw.Data[(r.lo+a)*r.raw.Stride : (r.lo+a)*r.raw.Stride+p]
		dst := buf[a*p : (a+1)*p]
		var s float64
		if f == 1 {
			for d, v := range src {
				c := v - shift[d]
				dst[d] = c
				s += c * c
			}
		} else {
			for d, v := range src {
				c := v*f - shift[d]
				dst[d] = c
				s += c * c
			}
		}
		nrm[a] = s
	}
	return blas64.General{Rows: m, Cols: p, Stride: p, Data: buf[:m*p]}
}

// fitRange adapts the plan to p-dimensional data whose largest magnitudes
// are mx (rows of x) and mz (rows of z).
func (pl *kernelPlan) fitRange(p int, mx, mz float64) {
	pl.f = 1
	switch pl.kind {
	case kindRBF:
		e := rangeScale(max(mx, mz), 4*p)
		pl.f = math.Ldexp(1, -e)
		if g := math.Ldexp(pl.gamma, 2*e); g >= 0x1p-1022 && g <= math.MaxFloat64 {
			pl.gamma = g
		} else {
			pl.slowExp = true
			pl.gm, pl.ge = math.Frexp(pl.gamma)
			pl.ge += 2 * e
		}
	case kindLinear:
		// |x.z| <= p mx mz bounds every product sum (NaN if it overflows).
		pl.check = !(float64(p)*mx*mz <= 0x1p1020)
	case kindPoly:
		pl.check = !(ipow(pl.scale*float64(p)*mx*mz+pl.offset, pl.degree) <= 0x1p1020)
	default:
		pl.check = true
	}
	if pl.cosine {
		// A point with k(x, x) <= 0 gives Inf or NaN.
		pl.check = true
	}
}

// rangeFault records the first (smallest row, then column) kernel value
// that is not finite, found by concurrent tile scans.
type rangeFault struct {
	mu    sync.Mutex
	found bool
	i, j  int
	v     float64
}

// scan looks at the tile c whose entry (a, b) is K(i0+a, j0+b).
func (f *rangeFault) scan(c blas64.General, i0, j0 int) {
	for a := 0; a < c.Rows; a++ {
		for b, v := range c.Data[a*c.Stride : a*c.Stride+c.Cols] {
			if !isFinite(v) {
				f.mu.Lock()
				if !f.found || i0+a < f.i || (i0+a == f.i && j0+b < f.j) {
					f.found, f.i, f.j, f.v = true, i0+a, j0+b, v
				}
				f.mu.Unlock()
				return
			}
		}
	}
}

// err returns the error for a recorded fault, nil if there is none (or f
// is nil): the built-in kernels overflow (ErrDegenerate), others returned
// a value that is not finite (ErrNonFinite).
func (f *rangeFault) err(op string, pl *kernelPlan, mx, mz float64) error {
	if f == nil || !f.found {
		return nil
	}
	if pl.kind == kindGeneric {
		return newErr(ErrNonFinite, op, "kernel %v returned %v for rows %d and %d", pl.k, f.v, f.i, f.j)
	}
	if pl.cosine {
		return newErr(ErrDegenerate, op, "the %v kernel is %v at rows %d and %d: a point with k(x, x) <= 0 cannot be "+
			"cosine-normalised (or the products overflow float64: entries up to %.3g and %.3g)", pl.k, f.v, f.i, f.j, mx, mz)
	}
	return newErr(ErrDegenerate, op,
		"the %v kernel overflows float64 at rows %d and %d (entries up to %.3g and %.3g): "+
			"its matrix is not representable; scale the data down", pl.k, f.i, f.j, mx, mz)
}

// computeTile writes K(rows of bx, rows of bz) into c (an mx x mz view).
func (pl *kernelPlan) computeTile(c blas64.General, bx, bz rowBlock, shift []float64, w *gramWork) {
	mx, mz := bx.hi-bx.lo, bz.hi-bz.lo
	switch pl.kind {
	case kindGeneric:
		p := bx.raw.Cols
		for a := 0; a < mx; a++ {
			xa := bx.raw.Data[(bx.lo+a)*bx.raw.Stride : (bx.lo+a)*bx.raw.Stride+p]
			row := c.Data[a*c.Stride : a*c.Stride+mz]
			for b := range row {
				row[b] = pl.k.Eval(xa, bz.raw.Data[(bz.lo+b)*bz.raw.Stride:(bz.lo+b)*bz.raw.Stride+p])
			}
		}
	case kindLinear, kindPoly:
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, bx.general(), bz.general(), 0, c)
		if pl.kind == kindPoly {
			for a := 0; a < mx; a++ {
				row := c.Data[a*c.Stride : a*c.Stride+mz]
				for b, g := range row {
					row[b] = ipow(pl.scale*g+pl.offset, pl.degree)
				}
			}
		}
		if pl.cosine {
			sa, sb := pl.ix[bx.lo:bx.hi], pl.iz[bz.lo:bz.hi]
			for a := 0; a < mx; a++ {
				row := c.Data[a*c.Stride : a*c.Stride+mz]
				for b := range row {
					row[b] *= sa[a] * sb[b]
				}
			}
		}
	case kindRBF:
		ga := bx.centred(pl.f, shift, w.a, w.na)
		gb := bz.centred(pl.f, shift, w.b, w.nb)
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, ga, gb, 0, c)
		for a := 0; a < mx; a++ {
			row := c.Data[a*c.Stride : a*c.Stride+mz]
			na := w.na[a]
			for b, g := range row {
				// Rounding can make the expansion slightly negative for
				// (nearly) coincident points; the distance is >= 0.
				row[b] = max(na+w.nb[b]-2*g, 0)
			}
			if !pl.slowExp {
				expScaled(row, row, -pl.gamma, hasExpAVX2)
				continue
			}
			for b, d := range row {
				row[b] = math.Exp(-math.Ldexp(d*pl.gm, pl.ge))
			}
		}
	}
}

func (pl *kernelPlan) newWork(tb, p int) func() *gramWork {
	return func() *gramWork {
		if pl.kind != kindRBF {
			return nil
		}
		return &gramWork{a: make([]float64, tb*p), b: make([]float64, tb*p), na: make([]float64, tb), nb: make([]float64, tb)}
	}
}

// invSqrtSelf returns 1/sqrt(k(x, x)) for the rows x of the data (Linear or
// Polynomial k): Inf or NaN where k(x, x) <= 0, which the tile scan reports.
func (pl *kernelPlan) invSqrtSelf(x blas64.General) []float64 {
	out := make([]float64, x.Rows)
	for i := range out {
		row := x.Data[i*x.Stride : i*x.Stride+x.Cols]
		s := dot(row, row)
		if pl.kind == kindPoly {
			s = ipow(pl.scale*s+pl.offset, pl.degree)
		}
		out[i] = 1 / math.Sqrt(s)
	}
	return out
}

// columnMean returns the column means of x times f.
func columnMean(x blas64.General, f float64) []float64 {
	m := make([]float64, x.Cols)
	for i := 0; i < x.Rows; i++ {
		for d, v := range x.Data[i*x.Stride : i*x.Stride+x.Cols] {
			if f != 1 {
				v *= f
			}
			m[d] += v
		}
	}
	for d := range m {
		m[d] /= float64(x.Rows)
	}
	return m
}

// Gram returns the kernel matrix K_ij = k(x_i, x_j) of the rows of x. See
// GramTo.
func Gram(ctx context.Context, k Kernel, x *mat.Dense) (*mat.SymDense, error) {
	var dst mat.SymDense
	if err := GramTo(ctx, &dst, k, x); err != nil {
		return nil, err
	}
	return &dst, nil
}

// GramTo stores the kernel matrix K_ij = k(x_i, x_j) of the rows of x in
// dst, which must be empty (it is then allocated) or n x n. Both triangles
// of dst's backing storage are filled, and the result is exactly symmetric.
//
// The work is split into square tiles computed in parallel by GOMAXPROCS
// goroutines; the context is checked before each tile. Linear and
// polynomial kernels use one matrix product per tile, and so does their
// Cosine normalisation (the products are then divided by the square roots
// of the rows' own values, and the diagonal set to exactly 1). The RBF kernel uses
// ||x||^2 + ||z||^2 - 2 x.z on column-centred data (the distance does not
// change, the cancellation does), clamps negative values to 0, and sets the
// diagonal to exactly 1. With AVX2 and FMA its exponentials are evaluated
// four at a time (Cody-Waite reduction and a degree-13 polynomial, eight
// times faster than math.Exp): within two units in the last place of the
// exact value, one in the worst case measured against a 256-bit
// evaluation, where math.Exp's worst was two; arguments whose exponential
// is not a normal number go to math.Exp.
//
// Data of any finite magnitude give RBF values in [0, 1]: when the largest
// entry is beyond about 1e150 or below about 1e-30, the kernel is computed
// as exp(-(gamma 4^e) ||x' - z'||^2) on the data x' = x 2^-e scaled by an
// exact power of two, so that no squared distance overflows or vanishes.
// The linear and polynomial kernels of data large enough for a value to
// overflow float64 have no representable matrix: GramTo then fails with
// ErrDegenerate naming the rows, rather than return Inf or NaN (Inf - Inf
// in the product sums). The tiles are scanned for such values only when a
// bound from the largest entries, p max|x|^2 for the linear kernel, allows
// an overflow. A Kernel of another type that returns NaN or Inf gives
// ErrNonFinite. On error the contents of dst are unspecified.
//
// With a correctly sized dst, GramTo allocates only O(GOMAXPROCS * tile * p)
// scratch memory, independent of n, unless dst shares storage with x (then
// the result goes through a temporary).
func GramTo(ctx context.Context, dst *mat.SymDense, k Kernel, x *mat.Dense) error {
	const op = "GramTo"
	if err := checkCtx(op, ctx); err != nil {
		return err
	}
	if dst == nil {
		return newErr(ErrShape, op, "destination is nil")
	}
	if err := validateKernel(op, k); err != nil {
		return err
	}
	n, p, mx, err := checkDataMax(op, x)
	if err != nil {
		return err
	}
	if !dst.IsEmpty() && overlaps(dst.RawSymmetric().Data, x.RawMatrix().Data) {
		// dst shares storage with x: tiles written early would corrupt
		// rows read later. Compute into a temporary.
		if dst.SymmetricDim() != n {
			return newErr(ErrShape, op, "destination is %dx%d, want %dx%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n)
		}
		var tmp mat.SymDense
		if err := GramTo(ctx, &tmp, k, x); err != nil {
			return err
		}
		dst.CopySym(&tmp)
		return nil
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	} else if dst.SymmetricDim() != n {
		return newErr(ErrShape, op, "destination is %dx%d, want %dx%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n)
	}
	pl := planFor(k)
	pl.fitRange(p, mx, mx)
	raw := x.RawMatrix()
	if pl.cosine {
		pl.ix = pl.invSqrtSelf(raw)
		pl.iz = pl.ix
	}
	var shift []float64
	if pl.kind == kindRBF {
		shift = columnMean(raw, pl.f)
	}
	var fault *rangeFault // allocated only when the tiles need a scan
	if pl.check {
		fault = new(rangeFault)
	}
	out := dst.RawSymmetric()
	tb := tileSize(p)
	nb := (n + tb - 1) / tb
	ntiles := nb * (nb + 1) / 2
	err = parallelFor(ctx, ntiles, 1, pl.newWork(tb, p), func(w *gramWork, t, _ int) {
		// Map t to the upper-triangular tile (I, J), I <= J, row by row.
		bi, rest := 0, t
		for rest >= nb-bi {
			rest -= nb - bi
			bi++
		}
		bj := bi + rest
		i0, i1 := bi*tb, min(bi*tb+tb, n)
		j0, j1 := bj*tb, min(bj*tb+tb, n)
		mi, mj := i1-i0, j1-j0
		c := blas64.General{Rows: mi, Cols: mj, Stride: out.Stride,
			Data: out.Data[i0*out.Stride+j0 : (i1-1)*out.Stride+j1]}
		pl.computeTile(c, rowBlock{raw, i0, i1}, rowBlock{raw, j0, j1}, shift, w)
		if pl.check {
			fault.scan(c, i0, j0)
		}
		if bi == bj {
			// Mirror the upper part of the diagonal tile so that the
			// result is exactly symmetric whatever the product kernel
			// does with summation order.
			for a := 0; a < mi; a++ {
				if pl.kind == kindRBF || (pl.cosine && isFinite(c.Data[a*c.Stride+a])) {
					c.Data[a*c.Stride+a] = 1
				}
				for b := a + 1; b < mj; b++ {
					c.Data[b*c.Stride+a] = c.Data[a*c.Stride+b]
				}
			}
			return
		}
		// Transposed copy into the lower-triangular tile (J, I).
		for a := 0; a < mi; a++ {
			for b := 0; b < mj; b++ {
				out.Data[(j0+b)*out.Stride+i0+a] = c.Data[a*c.Stride+b]
			}
		}
	})
	if err != nil {
		return ctxErr(op, err)
	}
	return fault.err(op, &pl, mx, mx)
}

// Cross returns the n x m cross kernel matrix K_ij = k(x_i, z_j) between the
// rows of x and of z. See CrossTo.
func Cross(ctx context.Context, k Kernel, x, z *mat.Dense) (*mat.Dense, error) {
	var dst mat.Dense
	if err := CrossTo(ctx, &dst, k, x, z); err != nil {
		return nil, err
	}
	return &dst, nil
}

// CrossTo stores the cross kernel matrix K_ij = k(x_i, z_j) in dst, which
// must be empty (it is then allocated) or n x m, where x is n x p and z is
// m x p. The computation is tiled and parallel as in GramTo; for the RBF
// kernel both sets are shifted by the column mean of x before the product.
// Extreme magnitudes are handled, and overflows reported, as in GramTo.
// dst may share storage with x or z (the result then goes through a
// temporary n x m matrix).
func CrossTo(ctx context.Context, dst *mat.Dense, k Kernel, x, z *mat.Dense) error {
	const op = "CrossTo"
	if err := checkCtx(op, ctx); err != nil {
		return err
	}
	if dst == nil {
		return newErr(ErrShape, op, "destination is nil")
	}
	if err := validateKernel(op, k); err != nil {
		return err
	}
	n, p, mx, err := checkDataMax(op, x)
	if err != nil {
		return err
	}
	m, pz, mz, err := checkDataMax(op, z)
	if err != nil {
		return err
	}
	if p != pz {
		return newErr(ErrShape, op, "x has %d features but z has %d", p, pz)
	}
	if overlaps(denseData(dst), denseData(x)) || overlaps(denseData(dst), denseData(z)) {
		// dst shares storage with an input (for example dst == x): compute
		// into a temporary.
		return viaTemp(op, dst, func(tmp *mat.Dense) error { return CrossTo(ctx, tmp, k, x, z) })
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, m)
	} else if r, c := dst.Dims(); r != n || c != m {
		return newErr(ErrShape, op, "destination is %dx%d, want %dx%d", r, c, n, m)
	}
	pl := planFor(k)
	pl.fitRange(p, mx, mz)
	rx, rz := x.RawMatrix(), z.RawMatrix()
	if pl.cosine {
		pl.ix, pl.iz = pl.invSqrtSelf(rx), pl.invSqrtSelf(rz)
	}
	var shift []float64
	if pl.kind == kindRBF {
		shift = columnMean(rx, pl.f)
	}
	var fault *rangeFault // allocated only when the tiles need a scan
	if pl.check {
		fault = new(rangeFault)
	}
	out := dst.RawMatrix()
	tb := tileSize(p)
	nbx, nbz := (n+tb-1)/tb, (m+tb-1)/tb
	err = parallelFor(ctx, nbx*nbz, 1, pl.newWork(tb, p), func(w *gramWork, t, _ int) {
		bi, bj := t/nbz, t%nbz
		i0, i1 := bi*tb, min(bi*tb+tb, n)
		j0, j1 := bj*tb, min(bj*tb+tb, m)
		c := blas64.General{Rows: i1 - i0, Cols: j1 - j0, Stride: out.Stride,
			Data: out.Data[i0*out.Stride+j0 : (i1-1)*out.Stride+j1]}
		pl.computeTile(c, rowBlock{rx, i0, i1}, rowBlock{rz, j0, j1}, shift, w)
		if pl.check {
			fault.scan(c, i0, j0)
		}
	})
	if err != nil {
		return ctxErr(op, err)
	}
	return fault.err(op, &pl, mx, mz)
}
