package eig

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The pieces of the Chebyshev solver (chebyshev.go): the filter operator,
// the spectrum estimate that places its cut, and the Rayleigh-Ritz steps
// that hand the pairs back in the terms of A.

// chebOp is the operator T_k(L(B)) / T_k(L(hi)) for B = sign A, with L
// mapping [lo, cut] onto [-1, 1], applied by the three-term recurrence (k
// products with A, the sign folded into it). When A is a sparse matrix it
// is also a BlockOperator: the recurrence then runs on a block of vectors
// stored interleaved, each product reading the matrix once for the whole
// block.
type chebOp struct {
	a                Operator
	csr              blockProduct // A, when the fast block path applies
	sign             float64
	k                int
	center, halfWide float64
	scale            float64
	vectors, calls   atomic.Int64 // products with A on the block path
	mu               sync.Mutex
	vec, blk         []float64 // workspaces of the vector and block paths
}

func newChebOp(a Operator, csr blockProduct, sign float64, k int, lo, cut, hi float64) *chebOp {
	f := &chebOp{a: a, csr: csr, sign: sign, k: k, center: (cut + lo) / 2, halfWide: (cut - lo) / 2}
	// The degree is capped so that p(hi) / p(cut) stays within
	// maxAmplification: wanted pairs near cut must stay resolvable in
	// p(B), whose pairs Lanczos resolves relative to p(hi).
	g := math.Acosh(math.Max(1, (hi-f.center)/f.halfWide))
	if g > 0 {
		f.k = min(k, int(math.Acosh(maxAmplification)/g))
	}
	// T_k(x) = cosh(k acosh x) for x >= 1.
	f.scale = 1 / math.Cosh(float64(f.k)*g)
	return f
}

// maxAmplification bounds p(hi) / p(cut) = T_k(L(hi)) (see newChebOp).
const maxAmplification = 1e3

// Dims implements Operator.
func (f *chebOp) Dims() (int, int) { return f.a.Dims() }

// MulVecTo implements Operator.
func (f *chebOp) MulVecTo(dst, x []float64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(x)
	if len(f.vec) < 3*n {
		f.vec = make([]float64, 3*n)
	}
	f.recurrence(dst, x, f.vec[:n], f.vec[n:2*n], f.vec[2*n:3*n], func(dst, x []float64) { f.a.MulVecTo(dst, x) })
}

// MulVecsTo implements BlockOperator (one pass over the matrix per
// product for the whole block when B is sparse).
func (f *chebOp) MulVecsTo(dst, x *mat.Dense) {
	r, n := x.Dims()
	if f.csr == nil || r == 1 {
		for i := 0; i < r; i++ {
			f.MulVecTo(dst.RawRowView(i), x.RawRowView(i))
		}
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	m := n * r
	if len(f.blk) < 4*m {
		f.blk = make([]float64, 4*m)
	}
	xi, t0, t1, t2 := f.blk[:m], f.blk[m:2*m], f.blk[2*m:3*m], f.blk[3*m:4*m]
	interleave(xi, x, 0, r)
	f.recurrence(xi, xi, t0, t1, t2, func(dst, x []float64) { f.csr.MulBlockTo(dst, x, r) })
	deinterleave(dst, xi, 0, r)
	f.vectors.Add(int64(f.k * r))
	f.calls.Add(int64(f.k))
}

// recurrence sets dst = T_k(L(B)) x / T_k(L(hi)) with the products mul
// by A, using t0, t1, t2 (each as long as x) as workspace. dst may be x,
// which is read only before the first product's result is formed.
func (f *chebOp) recurrence(dst, x, t0, t1, t2 []float64, mul func(dst, x []float64)) {
	// L(B) x = (sign A x - c x) / e.
	s, c := f.sign/f.halfWide, f.center/f.halfWide
	copy(t0, x)
	mul(t1, x)
	for i, v := range t1 {
		t1[i] = s*v - c*x[i]
	}
	for j := 2; j <= f.k; j++ {
		mul(t2, t1)
		for i, v := range t2 {
			t2[i] = 2*(s*v-c*t1[i]) - t0[i]
		}
		t0, t1, t2 = t1, t2, t0
	}
	for i, v := range t1 {
		dst[i] = f.scale * v
	}
}

// spectrumEstimate is what a short Lanczos run says about the spectrum of
// B: bounds and the Ritz values (descending) with their weights (the
// squared first components of the projected eigenvectors, which sum to
// one: the share of a random start vector in each part of the spectrum).
type spectrumEstimate struct {
	lo, hi  float64
	values  []float64
	weights []float64
}

// estimateSteps is the length of the Lanczos run of estimateSpectrum.
const estimateSteps = 40

// estimateSpectrum runs min(estimateSteps, n) Lanczos steps on b from a
// seeded random start (O(n) memory per step beyond the products).
func estimateSpectrum(ctx context.Context, b Operator, cfg *checked) (*spectrumEstimate, error) {
	n := cfg.n
	m := min(estimateSteps, n)
	rng := rand.New(rand.NewPCG(cfg.seed, 0x9e3779b97f4a7c15))
	prev, cur, w := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range cur {
		cur[i] = rng.NormFloat64()
	}
	scaleTo(cur, 1/rowNorm(cur))
	alpha := make([]float64, m)
	beta := make([]float64, m)
	bl := blas64.Implementation()
	steps := m
	for j := 0; j < m; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The three-term recurrence without reorthogonalization: the
		// extreme Ritz values and the weights (a Gauss quadrature of the
		// spectral distribution) stay accurate in floating point, and
		// full reorthogonalization would cost O(n m^2).
		b.MulVecTo(w, cur)
		alpha[j] = dot2(w, cur)
		bl.Daxpy(n, -alpha[j], cur, 1, w, 1)
		if j > 0 {
			bl.Daxpy(n, -beta[j-1], prev, 1, w, 1)
		}
		beta[j] = rowNorm(w)
		if j == m-1 || !(beta[j] > 1e-12*math.Abs(alpha[j])+math.SmallestNonzeroFloat64) {
			steps = j + 1
			break
		}
		prev, cur, w = cur, w, prev
		scaleTo(cur, 1/beta[j])
	}
	vals, first, lastc, err := tridiagEnds(alpha[:steps], beta[:steps])
	if err != nil {
		return nil, linalg.Errorf(linalg.ErrNumerical, cfg.op, "the projected problem of the spectrum estimate did not converge")
	}
	e := &spectrumEstimate{}
	last := beta[steps-1]
	idx := make([]int, steps)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return vals[idx[a]] > vals[idx[b]] })
	for _, i := range idx {
		e.values = append(e.values, vals[i])
		e.weights = append(e.weights, first[i]*first[i])
	}
	// Widen the extreme Ritz values by their residual estimates and a
	// margin of the width.
	rTop := last * math.Abs(lastc[idx[0]])
	rBot := last * math.Abs(lastc[idx[steps-1]])
	width := e.values[0] - e.values[steps-1]
	e.hi = e.values[0] + rTop + 0.01*width
	e.lo = e.values[steps-1] - rBot - 0.01*width
	return e, nil
}

// tridiagEnds returns the eigenvalues of the symmetric tridiagonal matrix
// with diagonal alpha and off-diagonal beta[:len(alpha)-1], and the first
// and last components of their unit eigenvectors: all the spectrum
// estimate needs. The implicit QL iteration runs on those two components
// only (O(m^2) instead of the O(m^3) of a full decomposition); if it does
// not converge, the full decomposition (linalg.EigenSym, checked, with its
// fallback) gives them.
func tridiagEnds(alpha, beta []float64) (vals, first, last []float64, err error) {
	m := len(alpha)
	d, e := slices.Clone(alpha), make([]float64, m)
	copy(e, beta[:m-1])
	zt := make([]float64, 2*m) // row i: components 0 and m-1 of the i-th vector
	zt[0], zt[2*m-1] = 1, 1
	first, last = make([]float64, m), make([]float64, m)
	if tridiagQLCols(m, 2, d, e, zt) {
		for i := range m {
			first[i], last[i] = zt[2*i], zt[2*i+1]
		}
		return d, first, last, nil
	}
	t := mat.NewSymDense(m, nil)
	for j := range m {
		t.SetSym(j, j, alpha[j])
		if j+1 < m {
			t.SetSym(j, j+1, beta[j])
		}
	}
	var es linalg.EigenSym
	if !es.Factorize(t, true) {
		return nil, nil, nil, linalg.ErrNumerical
	}
	var z mat.Dense
	es.VectorsTo(&z)
	for i := range m {
		first[i], last[i] = z.At(0, i), z.At(m-1, i)
	}
	return es.Values(nil), first, last, nil
}

// cut returns the Ritz value above which about want of the n eigenvalues
// lie by the weights (a point of the estimate's range), or the lower
// bound when the weights put fewer than want above every Ritz value but
// the last.
func (e *spectrumEstimate) cut(want, n int) float64 {
	var mass float64
	for i, w := range e.weights {
		mass += w
		if mass*float64(n) >= float64(want) && i+1 < len(e.values) {
			// Between this Ritz value and the next: the eigenvalues of this
			// node's share lie around it.
			return (e.values[i] + e.values[i+1]) / 2
		}
	}
	return e.lo
}

// scaleTo multiplies x by s.
func scaleTo(x []float64, s float64) {
	for i := range x {
		x[i] *= s
	}
}

// chebWork holds the d x n buffers of Chebyshev's Rayleigh-Ritz and
// polish steps (rows: the vectors, their images, the rotated vectors and
// images) and the refinement's, reused by the rounds of a solve and,
// through chebPool, by later solves of the same size (up to chebPoolMax):
// at a few hundred kilobytes each, allocating them anew in every round
// made the collector run several times per solve.
type chebWork struct {
	y, ay, yr, ar *mat.Dense
	ref           refineWork
}

// chebPool keeps the chebWork of finished solves whose d x n buffers hold
// at most chebPoolMax entries (16 MiB each): a later solve of that size
// then allocates none, while the buffers of a very large solve (160 MB each
// at a million points) are released when it ends instead of waiting in
// the pool for the collector.
var chebPool sync.Pool

// chebPoolMax bounds n d for a chebWork kept in chebPool.
const chebPoolMax = 1 << 21

// vectorsInto returns res.Vectors if it is n x d (its contents are about
// to be replaced), or a new n x d matrix.
func vectorsInto(res *Result, n, d int) *mat.Dense {
	if v := res.Vectors; v != nil {
		if r, c := v.Dims(); r == n && c == d {
			return v
		}
	}
	return mat.NewDense(n, d, nil)
}

// rayleighRitz sets res's pairs by a Rayleigh-Ritz step with A on the span
// of the orthonormal columns of v (not res.Vectors, which it overwrites):
// values of A in the order cfg.which wants, vectors, explicit residuals.
// The projections and rotations are matrix products (O(n d^2)), the
// images d products with A; the buffers are w's.
func rayleighRitz(res *Result, a Operator, v *mat.Dense, cfg *checked, w *chebWork) {
	n, d := v.Dims()
	y := firstRows(&w.y, d, n)
	y.Copy(v.T())
	ay, vals, z, _ := projectRows(res, a, y, firstRows(&w.ay, d, n))
	// Ascending from EigenSym; the wanted end first.
	order := make([]int, d)
	for j := range order {
		order[j] = j
		if cfg.which == Largest {
			order[j] = d - 1 - j
		}
	}
	zo := mat.NewDense(d, d, nil)
	res.Values = make([]float64, d)
	for c, j := range order {
		for i := 0; i < d; i++ {
			zo.Set(i, c, z.At(i, j))
		}
		res.Values[c] = vals[j]
	}
	yr, ar := firstRows(&w.yr, d, n), firstRows(&w.ar, d, n)
	yr.Mul(zo.T(), y) // the new vectors as rows
	ar.Mul(zo.T(), ay)
	res.Vectors = vectorsInto(res, n, d)
	res.Vectors.Copy(yr.T())
	res.Residuals = make([]float64, d)
	for c := 0; c < d; c++ {
		r := ar.RawRowView(c)
		blas64.Implementation().Daxpy(n, -res.Values[c], yr.RawRowView(c), 1, r, 1)
		res.Residuals[c] = rowNorm(r)
	}
}

// polish refines the pairs of res with A (the final refinement of the
// Krylov methods: a Rayleigh-Ritz step on the vectors and their
// residuals) and reports whether it improved them. The refinement needs
// only the engine's operator, sign, norm estimate and team, not its basis;
// its buffers are w's.
func polish(a Operator, cfg *checked, res *Result, w *chebWork) bool {
	n, d := res.Vectors.Dims()
	if 2*d > n || d > maxRefine {
		return false
	}
	// The residuals of res are explicit: when they all meet the target
	// there is nothing to refine, and no product to spend on the images.
	target := refineTarget(cfg.tol, res.NormEstimate)
	if !slices.ContainsFunc(res.Residuals, func(r float64) bool { return !(r <= target) }) {
		return false
	}
	kr := &krylov{a: a, cfg: cfg, n: n, sign: 1, normA: res.NormEstimate}
	if cfg.which == Smallest {
		kr.sign = -1
	}
	kr.team.init(n)
	y, ay := firstRows(&w.y, d, n), firstRows(&w.ay, d, n)
	rowsAndImagesTo(res, a, res.Vectors, y, ay)
	vals, resid, yn, ok := kr.refineAll(y, ay, &w.ref)
	res.MatVecs += kr.matvecs
	res.Products += kr.products
	if !ok {
		return false
	}
	res.Values, res.Residuals = vals, resid
	res.Vectors.Copy(yn.T()) // y holds the old vectors
	return true
}
