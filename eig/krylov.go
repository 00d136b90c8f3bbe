package eig

import (
	"math/rand/v2"
	"runtime"
	"sync"

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
	blockOp bool       // block products pay (blockCapable): priced as a dense matrix's

	// Workspace of screenCopies (lazy): three vectors and the recurrence;
	// screened counts its steps (part of iters).
	scr              *mat.Dense
	scrA, scrB, scrD []float64
	screened         int

	// Workspace of result (lazy): the final Ritz vectors and their images
	// (rows) and the refinement's buffers.
	finY, finAY *mat.Dense
	fin         refineWork
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
	t.np = teamParts(n)
	t.part = func(p int) { t.job(p, p*t.n/t.np, (p+1)*t.n/t.np) }
}

// teamParts is the number of column ranges of a team over n columns.
func teamParts(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/teamMinCols))
}

// teamMinCols is the shortest column range a team splits off: below it
// the wake-up of a helper and the short rows of each part cost more than
// the second core saves (small bases at n = 200 and 500 solved faster on
// one core; BENCHMARKS.md, "eig at small n").
const teamMinCols = 256

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

// krylovPool keeps the workspaces of finished solves (runKrylov hands them
// back), so that repeated solves of one size, the common case of an
// experiment or a benchmark, do not allocate and collect the basis and the
// projected matrices every time (at n = 200 the collector took about a
// tenth of a solve). A workspace taken from it is cleared to the state of
// a new one, so results do not depend on what ran before.
var krylovPool sync.Pool

func newKrylov(a Operator, cfg *checked, p, m int, restart bool) *krylov {
	n := cfg.n
	if k, _ := krylovPool.Get().(*krylov); k != nil && k.n == n && k.p == p && k.m == m && k.team.np == teamParts(n) {
		k.reset(a, cfg, restart)
		return k
	}
	k := &krylov{n: n, p: p, m: m}
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
	k.team.jobs = []func(part, lo, hi int){k.partCoef, k.partUpdate, k.partRotate, k.partRitzVectors}
	k.rot = make([][]float64, w) // allocated at the first restart
	k.g = make([]float64, mp*mp)
	k.coefBuf = make([]float64, mp*p)
	k.one = mat.NewDense(1, n, nil)
	k.c1 = make([]float64, mp+p)
	k.coup = make([]float64, p*mp)
	k.start(a, cfg, restart)
	return k
}

// reset readies a pooled workspace of the same n, p, m and team for a new
// solve: every buffer zeroed, as newKrylov allocates them, then start.
func (k *krylov) reset(a Operator, cfg *checked, restart bool) {
	for _, buf := range [][]float64{k.v.RawMatrix().Data, k.w.RawMatrix().Data, k.t, k.h, k.tc, k.theta, k.res,
		k.last, k.g, k.coefBuf, k.one.RawMatrix().Data, k.c1, k.coup} {
		clear(buf)
	}
	clear(k.order)
	k.start(a, cfg, restart)
}

// start sets the state a solve begins from: its operator and settings,
// the direction, the start-vector generator, and every counter and cache
// mark cleared.
func (k *krylov) start(a Operator, cfg *checked, restart bool) {
	k.a, k.cfg, k.restart = a, cfg, restart
	k.sign = 1
	if cfg.which == Smallest {
		k.sign = -1
	}
	k.rng = rand.New(rand.NewPCG(cfg.seed, 0x9e3779b97f4a7c15))
	k.normA = 0
	k.oj = orthJob{}
	k.gk = 0
	k.matvecs, k.products, k.iters, k.restarts, k.fullPasses, k.screened = 0, 0, 0, 0, 0, 0
	k.ritzC, k.ritzNW, k.ritzVecs = -1, 0, false
	k.exhausted = false
	k.rowView = mat.Dense{}
	k.yout = nil
	k.blockOp = blockCapable(a)
}

// release hands the workspace back to krylovPool once nothing refers to
// its buffers (the Result holds copies).
func (k *krylov) release() {
	k.a, k.cfg = nil, nil
	krylovPool.Put(k)
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
