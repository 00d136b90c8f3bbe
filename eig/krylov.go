package eig

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// krylov is the workspace of one solve by block Lanczos with full
// reorthogonalization, optionally with thick restarts (a block Krylov-Schur
// method for symmetric operators). With block size 1 and no restarts it is
// the classical Lanczos method.
//
// The basis vectors are the rows of v, so each is contiguous. After c
// vectors are "complete" the relation
//
//	A V[0:c]ᵀ = V[0:c+p]ᵀ T[0:c+p, 0:c]
//
// holds, where V[c:c+p] is the current block (the residual block) and t is
// the symmetric projected matrix in full (m+p) x (m+p) storage.
type krylov struct {
	a       Operator
	cfg     *checked
	n, p, m int
	restart bool
	sign    float64 // +1 for Largest, -1 for Smallest

	v   *mat.Dense // (m+p) x n basis, rows
	w   *mat.Dense // p x n operator images
	t   []float64  // (m+p) x (m+p) projected matrix
	ldt int
	h   []float64 // (m+p) x p coefficients

	// Ritz workspace.
	tc    []float64 // c x c copy of T, eigenvectors after factorize
	theta []float64
	se    *symEig
	order []int
	res   []float64

	rng   *rand.Rand
	normA float64 // largest |Ritz value| or ||A v|| seen

	team team
	oj   orthJob
	rot  [][]float64 // per-worker buffers of the in-place basis rotation (lazy)
	g    []float64   // kk x c rotation (selected Ritz vectors, transposed)
	gk   int

	matvecs, products, iters, restarts int
	// fullPasses counts the Gram-Schmidt passes of orthonormalize
	// against the whole basis (tests check that the recurrence leaves one
	// per step).
	fullPasses int
	// ritzC and ritzNW record the last call of ritz (basis size and number
	// of residual estimates); ritzC is -1 once T or the basis has changed.
	// ritzVecs is false if that call formed only the values and the last
	// components of the vectors (tc is then not valid).
	ritzC, ritzNW int
	ritzVecs      bool
	last          []float64 // c x p last components of the Ritz vectors
	exhausted     bool

	// Preallocated scratch, so that steps do not allocate.
	coefBuf []float64  // (m+p) x p
	one     *mat.Dense // 1 x n
	rowView mat.Dense  // a view of one row, set without allocating
	c1      []float64  // m+2p
	coup    []float64  // p x (m+p)
	yout    *mat.Dense // destination of partRitzVectors
	denseOp bool       // the operator is a Dense matrix (known product cost)
}

// team runs a job split over column ranges of length n on GOMAXPROCS
// goroutines (the caller and the crew's helpers). The part function is
// bound once, so a run allocates nothing.
type team struct {
	n    int
	np   int // column ranges: GOMAXPROCS at init, at most n
	fj   forkJob
	part func(part int)
	job  func(part, lo, hi int)
	jobs []func(part, lo, hi int)
}

func (t *team) init(n int) {
	t.n = n
	t.np = max(1, min(runtime.GOMAXPROCS(0), n))
	t.part = func(p int) { t.job(p, p*t.n/t.np, (p+1)*t.n/t.np) }
}

// run executes job; in parallel when work (flops) is large enough.
func (t *team) run(job func(part, lo, hi int), work int) {
	if work < 2*parallelMin || t.np == 1 {
		job(0, 0, t.n)
		return
	}
	t.job = job
	t.fj.run(t.np, t.part)
	t.job = nil
}

func newKrylov(a Operator, cfg *checked, p, m int, restart bool) *krylov {
	n := cfg.n
	k := &krylov{a: a, cfg: cfg, n: n, p: p, m: m, restart: restart, sign: 1, ritzC: -1}
	if cfg.which == Smallest {
		k.sign = -1
	}
	k.v = mat.NewDense(m+p, n, nil)
	k.w = mat.NewDense(p, n, nil)
	k.ldt = m + p
	k.t = make([]float64, k.ldt*k.ldt)
	k.team.init(n)
	w := k.team.np
	k.h = make([]float64, w*(m+p)*p)
	mp := m + p
	k.tc = make([]float64, mp*mp)
	k.theta = make([]float64, mp)
	k.order = make([]int, mp)
	k.res = make([]float64, mp)
	k.se = newSymEig(mp)
	k.last = make([]float64, mp*p)
	k.rng = rand.New(rand.NewPCG(cfg.seed, 0x9e3779b97f4a7c15))
	k.team.jobs = []func(part, lo, hi int){k.partCoef, k.partUpdate, k.partRotate, k.partRitzVectors}
	k.rot = make([][]float64, w) // allocated at the first restart
	k.g = make([]float64, mp*mp)
	k.coefBuf = make([]float64, mp*p)
	k.one = mat.NewDense(1, n, nil)
	k.c1 = make([]float64, mp+p)
	k.coup = make([]float64, p*mp)
	_, k.denseOp = a.(*Dense)
	return k
}

// apply sets the rows of dst to A times the rows of x and counts the
// vectors and the operator calls.
func (k *krylov) apply(dst, x *mat.Dense) {
	mulVecs(k.a, dst, x)
	r, _ := x.Dims()
	k.matvecs += r
	k.products += calls(k.a, r)
}

// randomRow fills x with standard normal entries.
func (k *krylov) randomRow(x []float64) {
	for i := range x {
		x[i] = k.rng.NormFloat64()
	}
}

// orthJob describes the projection run by partCoef and partUpdate: the q
// rows of ox against the basis rows V[olo:olo+olen].
type orthJob struct {
	olo, olen int
	ox        *mat.Dense
	q         int
}

// partCoef computes the partial coefficients V[0:olen][:,lo:hi] * X[:,lo:hi]ᵀ
// into h[part].
func (k *krylov) partCoef(part, lo, hi int) {
	j := &k.oj
	sz := j.olen * j.q
	vr, xr := k.v.RawMatrix(), j.ox.RawMatrix()
	dotsNT(true, k.h[part*sz:(part+1)*sz], j.q, 1, vr.Data[j.olo*vr.Stride+lo:], vr.Stride, j.olen,
		xr.Data[lo:], xr.Stride, j.q, hi-lo)
}

// partUpdate subtracts h[0]ᵀ V[olo:olo+olen] from X on columns lo:hi.
func (k *krylov) partUpdate(_ int, lo, hi int) {
	j := &k.oj
	vr, xr := k.v.RawMatrix(), j.ox.RawMatrix()
	subTN(true, xr.Data[lo:], xr.Stride, j.q, k.h, j.q, vr.Data[j.olo*vr.Stride+lo:], vr.Stride, j.olen, hi-lo)
}

// project orthogonalizes the rows of x against V[olo:olo+olen] once
// (classical Gram-Schmidt) and adds the coefficients to coef (olen x q,
// row-major).
func (k *krylov) project(x *mat.Dense, olo, olen int, coef []float64) {
	if olen == 0 {
		return
	}
	q, _ := x.Dims()
	k.oj = orthJob{olo: olo, olen: olen, ox: x, q: q}
	work := 2 * olen * q * k.n
	k.team.run(k.team.jobs[0], work)
	sz, np := olen*q, k.team.parts(k.n, work)
	for pt := 1; pt < np; pt++ {
		hp := k.h[pt*sz : (pt+1)*sz]
		for i := range sz {
			k.h[i] += hp[i]
		}
	}
	k.team.run(k.team.jobs[1], work)
	for i := range sz {
		coef[i] += k.h[i]
	}
}

// partRotate sets V[0:gk][:, lo:hi] = G V[0:c][:, lo:hi] in place, with G
// the gk x c rotation, stored negated and transposed in k.g (entry (a, i)
// at k.g[i*gk+a]) so that subTN computes the product.
func (k *krylov) partRotate(part, lo, hi int) {
	c := k.oj.olen
	gk := k.gk
	buf := k.rot[part]
	if buf == nil {
		// Once per solve, and only if it restarts.
		buf = make([]float64, (k.m+k.p)*min(rotChunk, k.n))
		k.rot[part] = buf
	}
	vr := k.v.RawMatrix()
	combineRows(vr.Data, vr.Stride, k.g, gk, c, lo, hi, buf)
}

// partRitzVectors sets yout[:, lo:hi] = G V[0:c][:, lo:hi], with G the gk x
// c matrix stored negated and transposed in k.g (c = k.oj.olen).
func (k *krylov) partRitzVectors(_ int, lo, hi int) {
	vr, yr := k.v.RawMatrix(), k.yout.RawMatrix()
	subTN(true, yr.Data[lo:], yr.Stride, k.gk, k.g, k.gk, vr.Data[lo:], vr.Stride, k.oj.olen, hi-lo)
}

// rowNorm returns the Euclidean norm of x (gonum's Dnrm2, which scales to
// avoid overflow and underflow).
func rowNorm(x []float64) float64 {
	return blas64.Implementation().Dnrm2(len(x), x, 1)
}

// normEst returns the Euclidean norm of x: the square root of a plain sum
// of squares (gonum's vectorized dot product, five times faster than Dnrm2
// at n = 4000), when that sum is safely inside the floating-point range,
// else rowNorm. Its relative error is that of a dot product, a few units
// of round-off, so the steps use it for the DGKS test, the finiteness
// check, the norm estimate and the normalization of the new basis rows.
func normEst(x []float64) float64 {
	ss := blas64.Implementation().Ddot(len(x), x, 1, x, 1)
	// Squares above 2^900 may have overflowed and a sum below 2^-900 may
	// have lost its small terms to underflow; in between neither happened
	// to any term that matters.
	if ss < 0x1p-900 || ss > 0x1p900 || math.IsNaN(ss) {
		return rowNorm(x)
	}
	return math.Sqrt(ss)
}

// scaledNorm returns the Euclidean norm of the few entries of x. The plain
// sum of squares is used when no square can overflow or underflow; outside
// that range the entries are scaled by the largest first. (Unscaled, the
// residual estimates of an operator with ||A|| below about 1e-154
// underflowed to 0 and unconverged pairs were taken as converged; above
// about 1e154 they overflowed and nothing ever converged.)
func scaledNorm(x []float64) float64 {
	var big float64
	for _, v := range x {
		big = math.Max(big, math.Abs(v))
	}
	if big == 0 || math.IsNaN(big) || math.IsInf(big, 0) {
		return big
	}
	var ss float64
	if big > 0x1p-450 && big < 0x1p450 {
		for _, v := range x {
			ss += v * v
		}
		return math.Sqrt(ss)
	}
	for _, v := range x {
		u := v / big
		ss += u * u
	}
	return big * math.Sqrt(ss)
}

// eta is the DGKS constant: another Gram-Schmidt pass is made when a pass
// shrinks a vector's norm by more than this factor.
const eta = 0.7071067811865476

// orthonormalize orthogonalizes the q rows of x against V[0:base] and
// against each other, writing the resulting orthonormal rows to
// V[base:base+q]. Coefficients are added to coef (base x q, row-major, may be
// nil) and to l (q x q, lower triangular: x_r = ... + sum_i l[r][i] V[base+i]).
// A row that lies numerically in the span is replaced by a random unit vector
// orthogonal to everything, with a zero coefficient (deflation).
//
// raw, if not nil, holds the norms of the rows before the caller removed
// their known components (recurrence): a row is numerically in the span
// when it is small against those.
func (k *krylov) orthonormalize(x *mat.Dense, base int, coef, l, raw []float64) {
	q, _ := x.Dims()
	if coef == nil {
		coef = make([]float64, base*q)
	}
	var n0, n1 [64]float64 // q <= 64 is enforced by the callers
	for r := 0; r < q; r++ {
		n0[r] = normEst(x.RawRowView(r))
	}
	// Classical Gram-Schmidt against the basis; a second pass only if some
	// row lost more than a factor eta of its norm (the DGKS criterion, as
	// in ARPACK), since only then can round-off leave it non-orthogonal.
	k.project(x, 0, base, coef)
	k.fullPasses++
	again := false
	for r := 0; r < q; r++ {
		n1[r] = normEst(x.RawRowView(r))
		if n1[r] < eta*n0[r] {
			again = true
		}
	}
	if again {
		k.project(x, 0, base, coef)
		k.fullPasses++
		for r := 0; r < q; r++ {
			n1[r] = normEst(x.RawRowView(r))
		}
	}
	for r := 0; r < q && raw != nil; r++ {
		n0[r] = math.Max(n0[r], raw[r])
	}
	for i := range l[:q*q] {
		l[i] = 0
	}
	c1 := k.c1[:base+q]
	for r := 0; r < q; r++ {
		xr := x.RawRowView(r)
		// Within the block: one pass against the new rows (modified
		// Gram-Schmidt).
		for i := 0; i < r; i++ {
			vi := k.v.RawRowView(base + i)
			cf := blas64.Implementation().Ddot(k.n, vi, 1, xr, 1)
			blas64.Implementation().Daxpy(k.n, -cf, vi, 1, xr, 1)
			l[r*q+i] += cf
		}
		nr := normEst(xr)
		// If the norm collapsed (the DGKS test), the vector may have lost
		// orthogonality to the older basis too: full passes against
		// everything before it, the new rows included, until one keeps the
		// norm.
		for pass := 0; pass < 2 && nr < eta*n1[r] && nr > 0; pass++ {
			clear(c1)
			prev := nr
			k.rowView.SetRawMatrix(blas64.General{Rows: 1, Cols: k.n, Stride: k.n, Data: xr})
			k.project(&k.rowView, 0, base+r, c1)
			for i := 0; i < base; i++ {
				coef[i*q+r] += c1[i]
			}
			for i := 0; i < r; i++ {
				l[r*q+i] += c1[base+i]
			}
			nr = normEst(xr)
			if nr >= eta*prev {
				break
			}
		}
		dst := k.v.RawRowView(base + r)
		if nr <= 4*float64(base+q)*dlamchE*n0[r] || nr == 0 {
			// Numerically in the span: deflate and restart this direction
			// with a random vector.
			l[r*q+r] = 0
			k.randomUnit(dst, base+r)
			continue
		}
		l[r*q+r] = nr
		blas64.Implementation().Dscal(k.n, 1/nr, xr, 1)
		copy(dst, xr)
	}
}

// dlamchE is the unit round-off of float64.
const dlamchE = 1.0 / (1 << 53)

// randomUnit sets dst to a random unit vector orthogonal to V[0:olen].
func (k *krylov) randomUnit(dst []float64, olen int) {
	one := k.one
	xr := one.RawRowView(0)
	c := k.c1[:olen]
	for try := 0; try < 5; try++ {
		k.randomRow(xr)
		n0 := rowNorm(xr)
		k.project(one, 0, olen, c)
		k.project(one, 0, olen, c)
		if nr := rowNorm(xr); nr > 1e-3*n0 {
			blas64.Implementation().Dscal(k.n, 1/nr, xr, 1)
			copy(dst, xr)
			return
		}
	}
	// The basis spans the whole space (olen = n); callers prevent this.
	panic("eig: internal error: no direction orthogonal to the basis")
}

// recurrence removes from the images W = A V[c:c+p] their components along
// the blocks they are coupled to: the older vectors, whose couplings T
// already holds (T is symmetric, so V_iᵀ A V_c is the stored coupling of
// V_c to V_i: the previous block after a step, every kept vector after a
// restart), and the block itself, whose couplings are computed. It adds
// the coefficients to coef. This is the block three-term recurrence; the
// full Gram-Schmidt pass of orthonormalize that follows removes what it
// leaves (rounding), so that a second full pass is needed only when that
// pass shrinks a row by more than the DGKS factor. A full pass first would
// shrink every row (the images lie mostly in the basis) and always take
// two, reading the whole basis twice more per step.
func (k *krylov) recurrence(c int, coef []float64) {
	p, ld := k.p, k.ldt
	lo := c
	for r := 0; r < p; r++ {
		row := k.t[(c+r)*ld : (c+r)*ld+c]
		for i, tv := range row[:lo] {
			if tv != 0 {
				lo = i
				break
			}
		}
	}
	if lo < c {
		h := k.h[:(c-lo)*p]
		for i := lo; i < c; i++ {
			for r := 0; r < p; r++ {
				h[(i-lo)*p+r] = k.t[(c+r)*ld+i]
			}
		}
		copy(coef[lo*p:c*p], h)
		k.oj = orthJob{olo: lo, olen: c - lo, ox: k.w, q: p}
		k.team.run(k.team.jobs[1], 2*(c-lo)*p*k.n)
	}
	k.project(k.w, c, p, coef[c*p:(c+p)*p])
}

// step applies the operator to the block V[c:c+p], orthogonalizes the images
// and appends the new block at V[c+p:c+2p], updating T.
func (k *krylov) step(c int) error {
	return k.stepLast(c, false)
}

// stepLast is step; if last is true the basis V[0:c+p] already spans the
// whole space, so the images are only projected (completing T) and no new
// block is formed.
func (k *krylov) stepLast(c int, last bool) error {
	k.ritzC = -1
	p := k.p
	x := k.v.Slice(c, c+p, 0, k.n).(*mat.Dense)
	k.apply(k.w, x)
	k.iters++
	var raw [maxBlock]float64 // norms of the images
	for r := 0; r < p; r++ {
		row := k.w.RawRowView(r)
		nr := normEst(row)
		if math.IsNaN(nr) || math.IsInf(nr, 0) {
			return fmt.Errorf("%w (after %d operator applications)", ErrNotFinite, k.matvecs)
		}
		k.normA = math.Max(k.normA, nr)
		raw[r] = nr
	}
	base := c + p
	coef := k.coefBuf[:base*p]
	for i := range coef {
		coef[i] = 0
	}
	var lbuf [64 * 64]float64
	l := lbuf[:p*p]
	if last {
		k.project(k.w, 0, base, coef)
		k.project(k.w, 0, base, coef)
		k.exhausted = true
	} else {
		k.recurrence(c, coef)
		k.orthonormalize(k.w, base, coef, l, raw[:p])
	}
	ld := k.ldt
	// Symmetry: the coefficients against older vectors must reproduce the
	// couplings stored when those vectors were created.
	tolSym := 1e-6 * math.Max(k.normA, math.SmallestNonzeroFloat64)
	for r := 0; r < p; r++ {
		for i := 0; i < c; i++ {
			if math.Abs(coef[i*p+r]-k.t[(c+r)*ld+i]) > tolSym {
				return fmt.Errorf("%w: Krylov coefficient (%d,%d) is %.3g but its transpose is %.3g",
					ErrNotSymmetric, i, c+r, coef[i*p+r], k.t[(c+r)*ld+i])
			}
		}
	}
	for r := 0; r < p; r++ {
		for i := 0; i < c; i++ {
			k.t[i*ld+c+r] = coef[i*p+r]
			k.t[(c+r)*ld+i] = coef[i*p+r]
		}
	}
	for r := 0; r < p; r++ {
		for i := 0; i <= r; i++ {
			a, b := coef[(c+i)*p+r], coef[(c+r)*p+i]
			if math.Abs(a-b) > tolSym {
				return fmt.Errorf("%w: block coefficients (%d,%d) = %.3g and (%d,%d) = %.3g differ",
					ErrNotSymmetric, c+i, c+r, a, c+r, c+i, b)
			}
			s := (a + b) / 2
			k.t[(c+i)*ld+c+r] = s
			k.t[(c+r)*ld+c+i] = s
		}
	}
	for r := 0; r < p && !last; r++ {
		for i := 0; i < p; i++ {
			v := l[r*p+i] // zero above the diagonal
			k.t[(base+i)*ld+c+r] = v
			k.t[(c+r)*ld+base+i] = v
		}
	}
	return nil
}

// ritz computes the Ritz pairs of T[0:c,0:c], orders them from most to least
// wanted and estimates the residual norms of the first nw of them. It
// returns how many of the first nw meet the tolerance. With vectors false
// (a convergence test) it forms only the Ritz values and the last p
// components of the vectors, all the estimates need, when T has the
// structure that allows it (the residual block coupled only to the last
// block); tc is then not valid, and ensureVectors forms it if a restart or
// the result needs it.
func (k *krylov) ritz(c, nw int, vectors bool) int {
	k.ritzC, k.ritzNW = c, nw
	ld, p := k.ldt, k.p
	if !vectors && c > p+2 && !k.exhausted {
		// The couplings of the residual block to all but the last block
		// must be zero (they are, after a step; a restart without a step
		// since leaves them elsewhere).
		for r := 0; r < p && !vectors; r++ {
			for _, tv := range k.t[(c+r)*ld : (c+r)*ld+c-p] {
				if tv != 0 {
					vectors = true
					break
				}
			}
		}
	} else {
		vectors = true
	}
	for i := 0; i < c; i++ {
		copy(k.tc[i*c:(i+1)*c], k.t[i*ld:i*ld+c])
	}
	if !vectors && !k.se.valuesLast(c, p, k.tc[:c*c], k.theta[:c], k.last[:c*p]) {
		// Not converged: the full factorization has a fallback.
		vectors = true
		for i := 0; i < c; i++ {
			copy(k.tc[i*c:(i+1)*c], k.t[i*ld:i*ld+c])
		}
	}
	k.ritzVecs = vectors
	if vectors && !k.se.factorize(c, k.tc[:c*c], k.theta[:c]) {
		// The QR iteration failed; treat as no progress.
		for i := range k.res[:c] {
			k.res[i] = math.Inf(1)
		}
		return 0
	}
	for i := 0; i < c; i++ {
		if k.sign > 0 {
			k.order[i] = c - 1 - i
		} else {
			k.order[i] = i
		}
	}
	k.normA = math.Max(k.normA, math.Max(math.Abs(k.theta[0]), math.Abs(k.theta[c-1])))
	nconv := 0
	lim := k.cfg.tol * k.normA
	for a := 0; a < nw && a < c; a++ {
		j := k.order[a]
		if k.exhausted {
			// The basis spans the space: Ritz pairs are exact.
			k.res[a] = 0
			nconv++
			continue
		}
		var sv [maxBlock]float64
		for r := 0; r < p; r++ {
			var s float64
			if vectors {
				row := k.t[(c+r)*ld : (c+r)*ld+c]
				for i, tv := range row {
					s += tv * k.tc[i*c+j]
				}
			} else {
				row := k.t[(c+r)*ld+c-p : (c+r)*ld+c]
				for i, tv := range row {
					s += tv * k.last[j*p+i]
				}
			}
			sv[r] = s
		}
		k.res[a] = scaledNorm(sv[:p])
		if k.res[a] <= lim {
			nconv++
		}
	}
	return nconv
}

// ensureVectors repeats the last call of ritz with the vectors if it
// formed only the values (which come out the same, bit for bit, so the
// decisions taken on them stand).
func (k *krylov) ensureVectors(c int) {
	if !k.ritzVecs || k.ritzC != c {
		k.ritz(c, k.ritzNW, true)
	}
}

// rotate replaces V[0:kk] by the Ritz vectors order[0:kk] of T[0:c,0:c]
// (ritz must have been called with the same c).
func (k *krylov) rotate(c, kk int) {
	for a := 0; a < kk; a++ {
		j := k.order[a]
		for i := 0; i < c; i++ {
			k.g[i*kk+a] = -k.tc[i*c+j]
		}
	}
	k.gk = kk
	k.oj.olen = c
	k.team.run(k.team.jobs[2], 2*kk*c*k.n)
}

// restartKeep performs a thick restart: keeps the kk most wanted Ritz
// vectors, moves the residual block after them, and sets T to the Ritz
// values bordered by the transformed couplings. If fresh is true the
// residual block is replaced by random vectors and the couplings dropped
// (locking the kept vectors, which must have converged).
func (k *krylov) restartKeep(c, kk int, fresh bool) {
	p, ld := k.p, k.ldt
	coup := k.coup[:p*kk]
	k.ensureVectors(c)
	defer func() { k.ritzC = -1 }()
	if !fresh {
		for r := 0; r < p; r++ {
			row := k.t[(c+r)*ld : (c+r)*ld+c]
			for a := 0; a < kk; a++ {
				j := k.order[a]
				var s float64
				for i, tv := range row {
					s += tv * k.tc[i*c+j]
				}
				coup[r*kk+a] = s
			}
		}
	}
	k.rotate(c, kk)
	for i := range k.t {
		k.t[i] = 0
	}
	for a := 0; a < kk; a++ {
		k.t[a*ld+a] = k.theta[k.order[a]]
	}
	if fresh {
		for r := 0; r < p; r++ {
			k.randomUnit(k.v.RawRowView(kk+r), kk+r)
		}
	} else {
		for r := 0; r < p; r++ {
			copy(k.v.RawRowView(kk+r), k.v.RawRowView(c+r))
			for a := 0; a < kk; a++ {
				k.t[(kk+r)*ld+a] = coup[r*kk+a]
				k.t[a*ld+kk+r] = coup[r*kk+a]
			}
		}
	}
	k.restarts++
	if k.restarts%10 == 0 {
		// The rotations lose orthogonality slowly (about eps per restart);
		// re-orthonormalize the kept vectors now and then. The change is at
		// round-off level, so T stays valid to that level.
		gramSchmidtRows(k.v, kk)
	}
}

// gramSchmidtRows orthonormalizes rows 0:q of x in place by modified
// Gram-Schmidt, twice. Used only on nearly orthonormal rows.
func gramSchmidtRows(x *mat.Dense, q int) {
	impl := blas64.Implementation()
	for pass := 0; pass < 2; pass++ {
		for a := 0; a < q; a++ {
			ya := x.RawRowView(a)
			for b := 0; b < a; b++ {
				yb := x.RawRowView(b)
				impl.Daxpy(len(ya), -impl.Ddot(len(ya), yb, 1, ya, 1), yb, 1, ya, 1)
			}
			if nr := rowNorm(ya); nr > 0 {
				impl.Dscal(len(ya), 1/nr, ya, 1)
			}
		}
	}
}

// run is the main loop. It returns the number of complete basis vectors,
// the final status and an error.
func (k *krylov) run(ctx context.Context) (int, Status, error) {
	cfg := k.cfg
	d, p, m := cfg.d, k.p, k.m
	// Start block: the user's vector (or a random one) and random others.
	init := mat.NewDense(p, k.n, nil)
	for r := 0; r < p; r++ {
		if r == 0 && cfg.start != nil {
			copy(init.RawRowView(0), cfg.start)
			continue
		}
		k.randomRow(init.RawRowView(r))
	}
	var lbuf [64 * 64]float64
	k.orthonormalize(init, 0, nil, lbuf[:p*p], nil)

	c := 0
	verifying := false
	verified := false // a check found nothing: the next convergence ends
	verifyEnd := 0    // iteration count at which the check ends
	ref := make([]float64, d)
	// Length of the multiplicity check in steps: a cycle of the restarted
	// methods, but at least d+20 vectors (restarting inside the check if the
	// basis is small).
	cycle := (max(m-d, d+20) + p - 1) / p
	if !k.restart {
		cycle = (max(d, 20) + p - 1) / p
	}
	work := 0
	// Convergence forecast: the worst residual estimate (over the
	// tolerance) at the last two checks, and the step before which no
	// check is made.
	var fc forecast
	for {
		if err := ctx.Err(); err != nil {
			return c, Canceled, fmt.Errorf("eig: %w", err)
		}
		if k.iters >= cfg.maxIter {
			return c, IterationLimit, nil
		}
		if err := k.stepLast(c, c+2*p > k.n); err != nil {
			return c, Failure, err
		}
		c += p
		work += 8 * k.n * c * p
		if k.denseOp {
			// A product streams the matrix from memory once, which costs
			// as much time as about 12 n^2 flops of the block kernels,
			// whatever the block size (up to about 6 vectors); a matrix
			// that stays in cache costs its flops.
			if k.n*k.n >= cacheEntries {
				work += 2 * k.n * k.n * max(p, 6)
			} else {
				work += 2 * k.n * k.n * p
			}
		}
		// A basis of n-p vectors is completed to the whole space (exact
		// pairs) rather than restarted.
		full := c+p == k.n
		end := k.exhausted || (c+p > m && !full) || (verifying && k.iters >= verifyEnd && !full)
		if c < d || (!end && (work < ritzWork*c*c*c || k.iters < fc.next)) {
			continue
		}
		work = 0
		nw := d
		if verifying && c > d {
			nw = d + 1
		}
		// Values only unless a restart (or the end of the check) follows,
		// which needs the vectors.
		k.ritz(c, nw, end)
		nconv := 0
		worst := 0.0
		for a := 0; a < d; a++ {
			if k.res[a] <= cfg.tol*k.normA {
				nconv++
			}
			worst = math.Max(worst, k.res[a]/(cfg.tol*k.normA))
		}
		if verifying || nconv == d {
			fc = forecast{}
		} else {
			fc.observe(k.iters, worst)
		}
		if verifying {
			improved := false
			for a := 0; a < d; a++ {
				if k.sign*(k.theta[k.order[a]]-ref[a]) > cfg.tol*k.normA {
					improved = true
				}
			}
			if improved {
				// A missed copy of a repeated eigenvalue: iterate on (and
				// check again once everything has converged).
				verifying = false
			} else {
				// The check may stop early once the most wanted Ritz value
				// outside the wanted set is resolved (residual below a
				// hundredth of its distance to the wanted set, or converged):
				// Lanczos resolves the extreme eigenvalue of the deflated
				// operator first, and a missed copy would be that extreme.
				resolved := k.exhausted
				if nw > d && !resolved {
					gap := k.sign * (k.theta[k.order[d-1]] - k.theta[k.order[d]])
					resolved = k.res[d] <= cfg.tol*k.normA || (gap > 0 && k.res[d] <= 1e-2*gap)
				}
				if !resolved && k.iters < verifyEnd {
					if c+p > m && !full {
						// Basis full inside the check: restart and go on.
						kk := max(d, min(d+(c-d)/2, c-p))
						k.restartKeep(c, kk, false)
						c = kk
					}
					continue
				}
				verifying = false
				verified = true
			}
		}
		if nconv == d {
			if verified || !cfg.verify || d+p > m || !k.mayMissCopies(d) {
				return c, Success, nil
			}
			// Lock the d converged pairs and look for missed copies of
			// repeated eigenvalues from fresh random vectors.
			for a := 0; a < d; a++ {
				ref[a] = k.theta[k.order[a]]
			}
			k.restartKeep(c, d, true)
			c = d
			verifying = true
			verifyEnd = k.iters + cycle
			continue
		}
		if k.exhausted {
			return c, IterationLimit, nil // cannot happen: exact pairs converge
		}
		if c+p > m && !full {
			if !k.restart {
				return c, IterationLimit, nil
			}
			kk := d + (c-d)/2
			kk = max(d, min(kk, c-p))
			k.restartKeep(c, kk, false)
			c = kk
		}
	}
}

// forecast spaces the convergence checks of a solve whose checks cost a
// noticeable part of a step (a large basis): from the fall of the worst
// residual estimate between the last two checks it predicts the steps left
// and skips a third of them (at most three steps), so that checks stay
// dense near convergence, where the residuals fall fastest, and at most
// a fraction of a step is spent after convergence.
type forecast struct {
	it   int     // step of the last check (0: none)
	w    float64 // worst residual estimate over the tolerance there
	next int     // no check before this step
}

// observe records a check at step it with worst ratio w (above 1).
func (f *forecast) observe(it int, w float64) {
	prevIt, prevW := f.it, f.w
	f.it, f.w, f.next = it, w, 0
	if prevIt == 0 || it <= prevIt || !(w < prevW) || !(w > 1) || math.IsInf(prevW, 0) {
		return
	}
	rate := math.Log(prevW/w) / float64(it-prevIt) // log fall per step
	if skip := int(math.Log(w) / rate / 3); skip > 1 {
		f.next = it + min(skip, 3)
	}
}

// result assembles the Result from the current basis: the nw most wanted
// Ritz pairs with explicit residuals (estimates if explicit is false).
func (k *krylov) result(c int, status Status, explicit bool) *Result {
	res := &Result{Status: status, Iterations: k.iters, Restarts: k.restarts}
	nw := min(k.cfg.d, c)
	if c == 0 || status == Failure {
		res.MatVecs, res.Products = k.matvecs, k.products
		res.NormEstimate = k.normA
		return res
	}
	if k.ritzC != c || k.ritzNW < nw || !k.ritzVecs {
		// Not already computed by the last convergence check.
		k.ritz(c, nw, true)
	}
	est := append([]float64(nil), k.res[:nw]...)
	// Ritz vectors y = G V, with G (nw x c) stored negated and transposed
	// as for a restart, computed by column ranges on the team.
	y := mat.NewDense(nw, k.n, nil)
	for a := 0; a < nw; a++ {
		j := k.order[a]
		for i := 0; i < c; i++ {
			k.g[i*nw+a] = -k.tc[i*c+j]
		}
	}
	k.gk, k.oj.olen, k.yout = nw, c, y
	k.team.run(k.team.jobs[3], 2*nw*c*k.n)
	k.yout = nil
	res.Values = make([]float64, nw)
	for a := 0; a < nw; a++ {
		res.Values[a] = k.theta[k.order[a]]
	}
	// Restore orthonormality to working precision; the residuals below are
	// computed for these final vectors.
	orthonormalRows(&k.team, y, nw)
	res.Residuals = est
	if explicit {
		ay := mat.NewDense(nw, k.n, nil)
		k.apply(ay, y)
		refined := false
		if k.cfg.refine && status == Success {
			if vals, resid, yr, ok := k.refineAll(y, ay); ok {
				res.Values, res.Residuals, y, refined = vals, resid, yr, true
			}
		}
		bl := blas64.Implementation()
		for a := 0; a < nw && !refined; a++ {
			// The Rayleigh quotient of the final (re-orthonormalised) unit
			// vector minimises ||A y - theta y|| over theta; it replaces the
			// projected Ritz value unless that would break the wanted order
			// (possible only within a cluster narrower than the residuals).
			// A full Rayleigh-Ritz step on span(y) was tried instead and
			// measured worse (its own rotation adds rounding).
			q := dot2(y.RawRowView(a), ay.RawRowView(a))
			if k.inOrder(res.Values, a, q) {
				res.Values[a] = q
			}
			r := ay.RawRowView(a)
			bl.Daxpy(k.n, -res.Values[a], y.RawRowView(a), 1, r, 1)
			res.Residuals[a] = rowNorm(r)
		}
	}
	res.MatVecs, res.Products = k.matvecs, k.products
	res.NormEstimate = k.normA
	res.Vectors = mat.NewDense(k.n, nw, nil)
	res.Vectors.Copy(y.T())
	return res
}

// inOrder reports whether replacing values[a] by q keeps values[:a+1] and
// the not yet refreshed values[a+1] in the wanted order (descending for the
// largest end, ascending for the smallest).
func (k *krylov) inOrder(values []float64, a int, q float64) bool {
	before := func(u, v float64) bool { // u may precede v
		if k.cfg.which == Smallest {
			return u <= v
		}
		return u >= v
	}
	if a > 0 && !before(values[a-1], q) {
		return false
	}
	return a+1 >= len(values) || before(q, values[a+1])
}

// acceptTol returns the residual bound used to count converged pairs after
// the explicit check: the tolerance, but never below the round-off level
// 8 sqrt(n) eps of a product with the operator.
func acceptTol(tol float64, n int) float64 {
	return math.Max(tol, 8*math.Sqrt(float64(n))*2*dlamchE)
}

// finish turns the outcome of run into a Result and error.
func finish(k *krylov, c int, status Status, err error, name string) (*Result, error) {
	res := k.result(c, status, status != Canceled && status != Failure)
	lim := acceptTol(k.cfg.tol, k.n) * res.NormEstimate
	for _, r := range res.Residuals {
		if r <= lim {
			res.Converged++
		}
	}
	if err != nil {
		return res, err
	}
	if status == Success && res.Converged < len(res.Values) {
		res.Status = IterationLimit
		return res, fmt.Errorf("%w: %s: %d of %d pairs passed the explicit residual check (tolerance %.2g relative)",
			ErrNotConverged, name, res.Converged, k.cfg.d, k.cfg.tol)
	}
	if status == IterationLimit {
		return res, fmt.Errorf("%w: %s: %d of %d pairs converged after %d steps and %d operator applications",
			ErrNotConverged, name, res.Converged, k.cfg.d, k.iters, k.matvecs)
	}
	return res, nil
}

// mayMissCopies reports whether some of the d wanted Ritz values (ordered)
// could be an eigenvalue whose multiplicity exceeds what the Krylov space
// can hold. A block space of block size p holds up to p copies of an
// eigenvalue (exactly, in exact arithmetic), so copies can only be missing
// if some value appears p or more times among the converged values, within
// sqrt(Tol) ||A||. With p = 1 every value qualifies.
func (k *krylov) mayMissCopies(d int) bool {
	if k.p == 1 {
		return true
	}
	win := math.Sqrt(k.cfg.tol) * k.normA
	run := 1
	for a := 1; a < d; a++ {
		if math.Abs(k.theta[k.order[a]]-k.theta[k.order[a-1]]) <= win {
			run++
		} else {
			run = 1
		}
		if run >= k.p {
			return true
		}
	}
	return false
}

// ritzWork sets how often the iteration stops to solve the projected
// problem: only after work of ritzWork c^3 flop-equivalents of the product
// kernels since the last solve (counting a pass over a large dense matrix
// at its memory time), or at a restart. The projected eigensolver needs
// about 9 c^3 flops at roughly an eighth of the speed of the product
// kernels, so a check then costs about as much time as the work it
// follows, and at most one such interval is spent after convergence. On
// the dense n = 4000 kernel every block step qualifies; on the n = 351
// ionosphere kernel the checks fall to the restarts.
const ritzWork = 72
