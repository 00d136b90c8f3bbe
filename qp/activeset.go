package qp

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// ActiveSet is a primal active-set solver (null-space method, Nocedal & Wright ch. 16)
// for general convex QPs, including singular H.
//
// The working-set matrix is kept as Aᵀ_W = Q·[R; 0] with Q orthogonal, updated by
// Givens rotations when a constraint enters or leaves, and the reduced Hessian ZᵀHZ
// as a Cholesky factor updated in O(n²) per change. Singular H is handled by inertia
// control: the method starts from a point where the reduced Hessian is positive
// definite (adding temporary bounds x_j = const if needed) and follows a
// zero-curvature direction to the next blocking constraint when deleting a
// constraint makes it singular; a zero-curvature direction with no blocking
// constraint proves the problem Unbounded. A feasible start is found by a phase 1
// that minimizes a single violation variable s >= 0 (started at the largest violation) with the same method;
// s > 0 at its optimum proves infeasibility. Degenerate cycling is prevented by
// switching to Bland's smallest-index rule after repeated zero steps.
//
// A cold start of a strictly convex problem with dense rows is first handed to
// GoldfarbIdnani (a dual crash; see Solve), which needs far fewer iterations.
//
// An ActiveSet holds its workspace, grows it as needed and re-solves problems of
// the same size without allocating. It is not safe for concurrent use.
type ActiveSet struct {
	Settings Settings
	// NoDualCrash disables the dual crash of a cold start (see Solve).
	NoDualCrash bool

	p        *Problem
	set      Settings
	n        int // original variables
	meq, min int
	nrow     int // meq + min

	// engine state, dimension N (= n or n+1 in phase 1)
	N        int
	phase1   bool
	sEq      []float64 // phase-1 s-coefficients of equality rows
	sIn      []float64 // phase-1 s-coefficients of inequality rows
	q        []float64 // N×N, Qᵀ row-major: row k holds column k of Q
	r        []float64 // N×N, column k is working constraint k
	rz       []float64 // N×N, reduced Hessian factor (upper triangular)
	m        int       // working-set size
	work     []int     // working-set ids
	inWS     []bool    // by id
	tempX    []float64 // temporary bound values
	singular bool
	atMin    bool

	x, g, p_, w, v, lam, hz []float64
	hnorm                   float64
	bland                   bool
	refined                 bool // x was refined on the current working set
	zeroSteps               int
	iter                    int
	maxIter                 int
	ids                     []int
	rn                      []float64
	hf                      []float64 // H with both triangles, n×n

	bak      Result          // first answer while Solve retries (see retryKKT)
	crash    *GoldfarbIdnani // dual method for the cold-start crash
	crashRes Result
	crashSt  Start
}

// NewActiveSet returns an ActiveSet solver with the given settings (nil = defaults).
func NewActiveSet(s *Settings) *ActiveSet {
	a := &ActiveSet{}
	if s != nil {
		a.Settings = *s
	}
	return a
}

func (a *ActiveSet) nid() int { return a.nrow + 3*a.N } // ids: rows, lower, upper, temp

func (a *ActiveSet) alloc(n, meq, min int) {
	a.n, a.meq, a.min, a.nrow = n, meq, min, meq+min
	N := n + 1
	a.sEq = grow(a.sEq, meq)
	a.sIn = grow(a.sIn, min)
	a.q = grow(a.q, N*N)
	a.r = grow(a.r, N*N)
	a.rz = grow(a.rz, N*N)
	a.work = growInt(a.work, N)
	nid := a.nrow + 3*N
	if cap(a.inWS) < nid {
		a.inWS = make([]bool, nid)
	}
	a.inWS = a.inWS[:nid]
	a.tempX = grow(a.tempX, N)
	a.x = grow(a.x, N)
	a.g = grow(a.g, N)
	a.p_ = grow(a.p_, N)
	a.w = grow(a.w, N)
	a.v = grow(a.v, N)
	a.lam = grow(a.lam, N)
	a.hz = grow(a.hz, N)
	a.ids = growInt(a.ids, nid)
	a.rn = grow(a.rn, meq+min)
	a.hf = grow(a.hf, n*n)
}

func (a *ActiveSet) tmpIDs() []int { return a.ids[:0] }

// Constraint geometry. Ids: [0,meq) equalities, [meq,nrow) inequalities,
// nrow+j lower bound, nrow+N+j upper bound, nrow+2N+j temporary x_j = const.

func (a *ActiveSet) kind(id int) (k int, j int) {
	switch {
	case id < a.meq:
		return 0, id
	case id < a.nrow:
		return 1, id - a.meq
	case id < a.nrow+a.N:
		return 2, id - a.nrow
	case id < a.nrow+2*a.N:
		return 3, id - a.nrow - a.N
	default:
		return 4, id - a.nrow - 2*a.N
	}
}

// generalRow returns row j of the general constraints of kind k (0:
// equality, 1: inequality, as from kind) and its phase-1 column entry.
func (a *ActiveSet) generalRow(k, j int) (row []float64, sc float64) {
	if k == 0 {
		return a.p.Aeq.RawRowView(j), a.sEq[j]
	}
	return a.p.Ain.RawRowView(j), a.sIn[j]
}

// dot returns a_idᵀ v.
func (a *ActiveSet) dot(id int, v []float64) float64 {
	k, j := a.kind(id)
	switch k {
	case 0, 1:
		row, sc := a.generalRow(k, j)
		s := 0.0
		for i, r := range row {
			s += r * v[i]
		}
		if a.phase1 {
			s += sc * v[a.n]
		}
		return s
	case 3:
		return -v[j]
	default:
		return v[j]
	}
}

// rhs returns b_id.
func (a *ActiveSet) rhs(id int) float64 {
	k, j := a.kind(id)
	switch k {
	case 0:
		return a.p.Beq[j]
	case 1:
		return a.p.Bin[j]
	case 2:
		if j == a.n {
			return 0
		}
		return a.p.lo(j)
	case 3:
		if j == a.n {
			return math.Inf(-1)
		}
		return -a.p.up(j)
	default:
		return a.tempX[j]
	}
}

// rownorm returns ‖a_id‖ (cached by setNorms).
func (a *ActiveSet) rownorm(id int) float64 {
	if id >= a.nrow {
		return 1
	}
	return a.rn[id]
}

// setNorms caches the norms of the general rows for the current phase.
func (a *ActiveSet) setNorms() {
	for id := 0; id < a.nrow; id++ {
		a.rn[id] = a.computeNorm(id)
	}
}

func (a *ActiveSet) computeNorm(id int) float64 {
	k, j := a.kind(id)
	row, sc := a.generalRow(k, j)
	s := 0.0
	for _, r := range row {
		s += r * r
	}
	if a.phase1 {
		s += sc * sc
	}
	return math.Sqrt(s)
}

// qta sets w = Qᵀ a_id.
func (a *ActiveSet) qta(id int, w []float64) {
	N := a.N
	k, j := a.kind(id)
	if k >= 2 {
		sg := 1.0
		if k == 3 {
			sg = -1
		}
		for i := range w[:N] {
			w[i] = sg * a.q[i*N+j]
		}
		return
	}
	row, sc := a.generalRow(k, j)
	nnz := 0
	for _, v := range row {
		if v != 0 {
			nnz++
		}
	}
	wv := blas64.Vector{N: N, Data: w, Inc: 1}
	if 4*nnz < len(row) {
		// sparse rows (the SKL decay rows have two entries): O(nnz·N)
		for i := range w[:N] {
			w[i] = 0
		}
		for c, v := range row {
			if v != 0 {
				blas64.Axpy(v, blas64.Vector{N: N, Data: a.q[c:], Inc: N}, wv)
			}
		}
	} else {
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: N, Cols: a.n, Stride: N, Data: a.q}, blas64.Vector{N: a.n, Data: row, Inc: 1}, 0, wv)
	}
	if a.phase1 && sc != 0 {
		blas64.Axpy(sc, blas64.Vector{N: N, Data: a.q[a.n:], Inc: N}, wv)
	}
}

// nullMul sets p = sign·Σ_t Z_t·w_t, where Z_t = Q[:, N−1−t] (factor order).
func (a *ActiveSet) nullMul(w, p []float64, sign float64) {
	N := a.N
	p = p[:N]
	for i := range p {
		p[i] = 0
	}
	pv := blas64.Vector{N: N, Data: p, Inc: 1}
	for t, v := range w {
		if v != 0 {
			blas64.Axpy(sign*v, blas64.Vector{N: N, Data: a.q[(N-1-t)*N : (N-t)*N], Inc: 1}, pv)
		}
	}
}

// rotRows applies the plane rotation [c s; −s c] to the pair (x, y).
func rotRows(x, y []float64, c, s float64) {
	y = y[:len(x)]
	for i, xa := range x {
		yb := y[i]
		x[i] = c*xa + s*yb
		y[i] = -s*xa + c*yb
	}
}

// hmul sets dst = H v (0 in phase 1, whose objective is linear).
func (a *ActiveSet) hmul(v, dst []float64) {
	N := a.N
	if a.phase1 || a.p.H == nil {
		for i := range dst[:N] {
			dst[i] = 0
		}
		return
	}
	// full copy of H: the asm-backed Gemv is several times faster than Symv
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: a.n, Cols: a.n, Stride: a.n, Data: a.hf}, blas64.Vector{N: a.n, Data: v, Inc: 1}, 0, blas64.Vector{N: a.n, Data: dst, Inc: 1})
}

func (a *ActiveSet) grad() {
	if a.phase1 {
		// ∇s
		for i := 0; i < a.N; i++ {
			a.g[i] = 0
		}
		a.g[a.n] = 1
		return
	}
	a.hmul(a.x, a.g)
	for i := 0; i < a.n; i++ {
		a.g[i] += a.p.C[i]
	}
}

func (a *ActiveSet) reset() {
	N := a.N
	for i := range a.q[:N*N] {
		a.q[i] = 0
	}
	for i := 0; i < N; i++ {
		a.q[i*N+i] = 1
	}
	a.m = 0
	for i := range a.inWS {
		a.inWS[i] = false
	}
	a.singular, a.atMin = false, false
}

// add puts constraint id into the working set; it returns false if its row is
// (numerically) dependent on the working set.
func (a *ActiveSet) add(id int, updFactor bool) bool {
	N, m := a.N, a.m
	w := a.w[:N]
	a.qta(id, w)
	nrm := 0.0
	for i := m; i < N; i++ {
		nrm = math.Hypot(nrm, w[i])
	}
	if nrm <= a.depTol()*a.rownorm(id) {
		return false
	}
	nz := N - m
	for i := N - 1; i > m; i-- {
		if w[i] == 0 {
			continue
		}
		c, s, rr, _ := blas64.Rotg(w[i-1], w[i])
		w[i-1], w[i] = rr, 0
		rotRows(a.q[(i-1)*N:i*N], a.q[i*N:(i+1)*N], c, s)
		if updFactor {
			k := N - 1 - i // factor index of column i; column i-1 is k+1
			rz := a.rz
			rz[(k+1)*N+k] = 0 // below the diagonal: not stored
			for row := 0; row <= k+1; row++ {
				fa, fb := rz[row*N+k+1], rz[row*N+k]
				rz[row*N+k+1] = c*fa + s*fb
				rz[row*N+k] = -s*fa + c*fb
			}
			// restore triangularity: zero rz[k+1][k]
			c2, s2, r2, _ := blas64.Rotg(rz[k*N+k], rz[(k+1)*N+k])
			rz[k*N+k], rz[(k+1)*N+k] = r2, 0
			for col := k + 1; col < nz; col++ {
				ta, tb := rz[k*N+col], rz[(k+1)*N+col]
				rz[k*N+col] = c2*ta + s2*tb
				rz[(k+1)*N+col] = -s2*ta + c2*tb
			}
		}
	}
	for i := 0; i <= m; i++ {
		a.r[i*N+m] = w[i]
	}
	a.work[m] = id
	a.inWS[id] = true
	a.m++
	a.refined = false
	return true
}

// remove deletes the working-set entry at position pos and borders the reduced
// Hessian factor with the new null-space direction.
func (a *ActiveSet) remove(pos int) {
	N, m := a.N, a.m
	r := a.r
	a.inWS[a.work[pos]] = false
	for t := pos; t < m-1; t++ {
		a.work[t] = a.work[t+1]
		for i := 0; i <= t+1; i++ {
			r[i*N+t] = r[i*N+t+1]
		}
	}
	for t := pos; t < m-1; t++ {
		c, s, rr, _ := blas64.Rotg(r[t*N+t], r[(t+1)*N+t])
		r[t*N+t], r[(t+1)*N+t] = rr, 0
		for k := t + 1; k < m-1; k++ {
			ta, tb := r[t*N+k], r[(t+1)*N+k]
			r[t*N+k] = c*ta + s*tb
			r[(t+1)*N+k] = -s*ta + c*tb
		}
		rotRows(a.q[t*N:(t+1)*N], a.q[(t+1)*N:(t+2)*N], c, s)
	}
	a.m--
	a.refined = false
	a.border()
}

// border extends the reduced Hessian factor by the null-space column Q[:, m].
func (a *ActiveSet) border() {
	N, m := a.N, a.m
	nzOld := N - m - 1
	z, u := a.v[:N], a.hz[:N]
	copy(z, a.q[m*N:(m+1)*N])
	a.hmul(z, u)
	rz := a.rz
	col := nzOld
	for k := 0; k < nzOld; k++ {
		// (Z column N-1-k)ᵀ u
		s := dot(a.q[(N-1-k)*N:(N-k)*N], u)
		// forward substitution with Rzᵀ
		for t := 0; t < k; t++ {
			s -= rz[t*N+k] * rz[t*N+col]
		}
		rz[k*N+col] = s / rz[k*N+k]
	}
	d := 0.0
	for i := 0; i < N; i++ {
		d += z[i] * u[i]
	}
	for k := 0; k < nzOld; k++ {
		d -= rz[k*N+col] * rz[k*N+col]
	}
	if d > a.curvTol() {
		rz[col*N+col] = math.Sqrt(d)
		a.singular = false
	} else {
		rz[col*N+col] = 0
		a.singular = true
	}
}

// depTol returns the relative size of the null-space component below which a
// row is treated as linearly dependent on the working set; the ratio test
// ignores rows with |aᵀp| below twice that, so every blocking row can be added.
// Phase 2 uses 1e-13, small enough for rows that are independent only through
// tiny components (the SKL decay chain with C^(i-1) ≈ 1e12); phase 1 uses 1e-9,
// because its s column can make nearly dependent rows look independent.
func (a *ActiveSet) depTol() float64 {
	if a.phase1 {
		return 1e-9
	}
	return 1e-13
}

func (a *ActiveSet) curvTol() float64 { return 1e-11 * a.hnorm }

// buildFactor forms ZᵀHZ and its Cholesky factor; it returns false if it is not
// numerically positive definite.
func (a *ActiveSet) buildFactor() bool {
	N, m := a.N, a.m
	nz := N - m
	if nz == 0 {
		return true
	}
	if a.hnorm == 0 || (!a.phase1 && a.p.H == nil) {
		return false
	}
	rz := a.rz
	for k := 0; k < nz; k++ {
		z, u := a.v[:N], a.hz[:N]
		copy(z, a.q[(N-1-k)*N:(N-k)*N])
		a.hmul(z, u)
		for l := k; l < nz; l++ {
			s := dot(a.q[(N-1-l)*N:(N-l)*N], u)
			rz[k*N+l] = s
		}
	}
	// in-place upper Cholesky
	for k := 0; k < nz; k++ {
		d := rz[k*N+k]
		for t := 0; t < k; t++ {
			d -= rz[t*N+k] * rz[t*N+k]
		}
		if d <= a.curvTol() {
			return false
		}
		d = math.Sqrt(d)
		rz[k*N+k] = d
		for l := k + 1; l < nz; l++ {
			s := rz[k*N+l]
			for t := 0; t < k; t++ {
				s -= rz[t*N+k] * rz[t*N+l]
			}
			rz[k*N+l] = s / d
		}
	}
	return true
}

// toVertex adds temporary bounds until the null space is empty.
func (a *ActiveSet) toVertex() {
	for j := 0; j < a.N && a.m < a.N; j++ {
		id := a.nrow + 2*a.N + j
		a.tempX[j] = a.x[j]
		a.add(id, false)
	}
}

// startWorking builds the working set from candidate ids (equalities first) and
// the reduced Hessian factor.
func (a *ActiveSet) startWorking(cands []int, tol float64, boundsFirst bool) {
	a.reset()
	for i := 0; i < a.meq; i++ {
		a.add(i, false)
	}
	// With boundsFirst, bounds are added before general rows: where both are
	// active (degenerate points such as the tail μ_i = 0 of an SKL decay
	// chain) the unit rows give a well-conditioned working set and the
	// dependent general rows are rejected; the other order can close long
	// chains μ_i = C·μ_{i+1} with a single bound, whose multipliers grow like
	// C^length. It is not the default because at a start point far from the
	// optimum the general rows are the ones that stay active (the SKL chain
	// rows), and starting from bounds costs several times more iterations.
	for pass := 0; pass < 2; pass++ {
		for _, id := range cands {
			if id < a.meq || id >= a.nrow+2*a.N || a.inWS[id] || (boundsFirst && (id >= a.nrow) != (pass == 0)) || (!boundsFirst && pass == 1) {
				continue
			}
			if math.Abs(a.dot(id, a.x)-a.rhs(id)) <= tol*(1+math.Abs(a.rhs(id))) {
				a.add(id, false)
			}
		}
	}
	if !a.buildFactor() {
		a.toVertex()
	}
	a.atMin = a.m == a.N
}

// multipliers computes λ with g = Σ λ_k a_{work[k]} (valid at a subspace minimizer).
func (a *ActiveSet) multipliers() {
	N, m := a.N, a.m
	lam := a.lam[:m]
	if m > 0 {
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: m, Cols: N, Stride: N, Data: a.q}, blas64.Vector{N: N, Data: a.g, Inc: 1}, 0, blas64.Vector{N: m, Data: lam, Inc: 1})
	}
	for k := m - 1; k >= 0; k-- {
		s := lam[k]
		for t := k + 1; t < m; t++ {
			s -= a.r[k*N+t] * lam[t]
		}
		lam[k] = s / a.r[k*N+k]
	}
}

// factorOK reports whether the reduced Hessian factor has nonzero diagonal.
func (a *ActiveSet) factorOK() bool {
	N := a.N
	for k := 0; k < N-a.m; k++ {
		if a.rz[k*N+k] == 0 {
			return false
		}
	}
	return true
}

// gradScale returns max(1, ‖c‖∞, ‖H‖max·‖x‖₁), a bound on the size of the
// terms of the gradient before cancellation (rounding in Hx is relative to it),
// used for the multiplier and slope tolerances.
func (a *ActiveSet) gradScale() float64 {
	gs, xs := 1.0, 0.0
	for i := 0; i < a.N; i++ {
		xs += math.Abs(a.x[i])
		if !a.phase1 {
			gs = fmax(gs, math.Abs(a.p.C[i]))
		}
	}
	if !a.phase1 {
		gs = fmax(gs, a.hnorm*xs)
	}
	return gs
}

// newtonDir sets p = −Z(ZᵀHZ)⁻¹Zᵀg, the step to the minimizer of the model on
// the current working set (the reduced Hessian factor must be positive
// definite). It uses a.hz and a.v as scratch.
func (a *ActiveSet) newtonDir(p []float64) {
	N, m := a.N, a.m
	nz := N - m
	// Qᵀg for the null-space columns, then reversed into factor order
	qtg := a.hz[:nz]
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: nz, Cols: N, Stride: N, Data: a.q[m*N:]}, blas64.Vector{N: N, Data: a.g, Inc: 1}, 0, blas64.Vector{N: nz, Data: qtg, Inc: 1})
	gz := a.v[:nz]
	for k := 0; k < nz; k++ {
		gz[k] = qtg[nz-1-k]
	}
	// Rzᵀ t = gz, Rz y = t
	for k := 0; k < nz; k++ {
		s := gz[k]
		for t := 0; t < k; t++ {
			s -= a.rz[t*N+k] * gz[t]
		}
		gz[k] = s / a.rz[k*N+k]
	}
	for k := nz - 1; k >= 0; k-- {
		s := gz[k]
		for t := k + 1; t < nz; t++ {
			s -= a.rz[k*N+t] * gz[t]
		}
		gz[k] = s / a.rz[k*N+k]
	}
	a.nullMul(gz, p, -1)
}

// refineSteps is the number of refinement steps of a candidate optimum (see
// refine): one step removes the drift of x out of the working set; a second
// one is taken only if the first still moved x by more than rounding.
const refineSteps = 2

// machEps is the float64 machine epsilon 2⁻⁵².
const machEps = 0x1p-52

// refine is one step of iterative refinement of x on the working set W at a
// subspace minimizer: the Newton step of the equality-constrained problem
//
//	minimize ½xᵀHx + cᵀx  subject to  a_kᵀx = b_k (k ∈ W),
//
// computed with the factorisations at hand, δ = Yu − Z(ZᵀHZ)⁻¹Zᵀ(g + HYu) with
// Y = Q[:, :m] and Rᵀu = b_W − A_W x. The steps of the method keep x in the
// working set only up to rounding relative to ‖x‖; when the working-set
// matrix is ill-conditioned, as for a long chain of active SKL decay rows
// μ_i = C·μ_{i+1} closed by a bound (condition number about C^length), that
// drift is amplified into errors of x along the chain (at d = 50, C = 2:
// μ_i ≈ 1e-7 where the optimum has 0, a relative stationarity residual of
// 1e-9). The correction u solves the triangular system with the residuals
// themselves, so it restores the working constraints to rounding of their own
// terms. It expects a.g = Hx + c, and recomputes it. It reports the largest
// |δ_j| relative to max(1, ‖x‖∞).
func (a *ActiveSet) refine() float64 {
	N, m := a.N, a.m
	u := a.lam[:m]
	for k := 0; k < m; k++ {
		id := a.work[k]
		u[k] = a.rhs(id) - a.dot(id, a.x)
	}
	// Rᵀu = r (R upper triangular, column k = working constraint k)
	for k := 0; k < m; k++ {
		s := u[k]
		for t := 0; t < k; t++ {
			s -= a.r[t*N+k] * u[t]
		}
		u[k] = s / a.r[k*N+k]
	}
	dy := a.w[:N]
	fill(dy, 0)
	dyv := blas64.Vector{N: N, Data: dy, Inc: 1}
	for k, v := range u {
		if v != 0 {
			blas64.Axpy(v, blas64.Vector{N: N, Data: a.q[k*N : (k+1)*N], Inc: 1}, dyv)
		}
	}
	p := a.p_[:N]
	if m < N {
		a.hmul(dy, a.hz)
		for i := 0; i < N; i++ {
			a.g[i] += a.hz[i]
		}
		a.newtonDir(p)
	} else {
		fill(p, 0)
	}
	dmax, xmax := 0.0, 1.0
	for i := 0; i < N; i++ {
		d := dy[i] + p[i]
		a.x[i] += d
		dmax = fmax(dmax, math.Abs(d))
		xmax = fmax(xmax, math.Abs(a.x[i]))
	}
	a.grad()
	return dmax / xmax
}

// run iterates from a feasible x with a prepared working set.
func (a *ActiveSet) run(ctx context.Context) (Status, error) {
	N := a.N
	p, y := a.p_[:N], a.w[:N]
	for {
		if a.iter&15 == 0 {
			if err := ctx.Err(); err != nil {
				return NotSolved, fmt.Errorf("qp: active set cancelled: %w", err)
			}
		}
		if a.iter >= a.maxIter {
			return IterationLimit, nil
		}
		a.iter++
		a.grad()
		m := a.m
		nz := N - m
		if a.atMin {
			a.multipliers()
			gs := a.gradScale()
			tolL := 1e-12 * gs
			best, bestPos := 0.0, -1
			for k := 0; k < m; k++ {
				if kk, _ := a.kind(a.work[k]); kk == 4 {
					if l := math.Abs(a.lam[k]); l > 10*tolL && l > best {
						best, bestPos = l, k
					}
				}
			}
			if bestPos < 0 {
				for k := 0; k < m; k++ {
					id := a.work[k]
					if id < a.meq || id >= a.nrow+2*N {
						continue
					}
					if l := a.lam[k] / a.rownorm(id); l < -tolL {
						if bestPos < 0 || (!a.bland && l < best) || (a.bland && id < a.work[bestPos]) {
							best, bestPos = l, k
						}
					}
				}
			}
			if bestPos < 0 {
				if a.phase1 || a.refined {
					return Optimal, nil
				}
				// candidate optimum: refine x on the working set, then test
				// the multipliers again at the refined point
				a.refined = true
				for k := 0; k < refineSteps; k++ {
					if a.refine() <= 4*machEps {
						break
					}
				}
				continue
			}
			a.remove(bestPos)
			a.atMin = false
			continue
		}
		// step direction
		var newton bool
		if a.singular {
			k := nz - 1
			wv := a.v[:nz]
			wv[k] = 1
			for i := k - 1; i >= 0; i-- {
				s := -a.rz[i*N+k]
				for t := i + 1; t < k; t++ {
					s -= a.rz[i*N+t] * wv[t]
				}
				wv[i] = s / a.rz[i*N+i]
			}
			a.nullMul(wv, p, 1)
			gp, pmax := 0.0, 0.0
			for i := 0; i < N; i++ {
				gp += a.g[i] * p[i]
				pmax = fmax(pmax, math.Abs(p[i]))
			}
			if math.Abs(gp) <= 1e-12*a.gradScale()*pmax {
				// zero curvature and zero slope: the objective is flat along p.
				// Hold the largest component of p by a temporary bound, which
				// removes the direction and restores a positive definite factor.
				j := 0
				for i := 1; i < N; i++ {
					if math.Abs(p[i]) > math.Abs(p[j]) {
						j = i
					}
				}
				a.tempX[j] = a.x[j]
				if !a.add(a.nrow+2*N+j, true) {
					return NumericalFailure, nil
				}
				a.singular = false
				if !a.factorOK() && !a.buildFactor() {
					return NumericalFailure, nil
				}
				a.atMin = a.m == N
				continue
			}
			if gp > 0 {
				for i := range p {
					p[i] = -p[i]
				}
			}
		} else {
			newton = true
			a.newtonDir(p)
		}
		alpha := math.Inf(1)
		if newton {
			alpha = 1
		} else {
			// curvature guard: a tiny positive curvature declared zero
			a.hmul(p, y)
			curv, gp, pp := 0.0, 0.0, 0.0
			for i := 0; i < N; i++ {
				curv += p[i] * y[i]
				gp += a.g[i] * p[i]
				pp += p[i] * p[i]
			}
			// only rounding-level curvature counts as zero here (the looser
			// factorisation tolerance would declare ill-conditioned problems unbounded)
			if curv > 1e-14*a.hnorm*pp {
				alpha = -gp / curv
			}
		}
		pn := 0.0
		for _, pi := range p {
			pn = math.Max(pn, math.Abs(pi))
		}
		block, bap := -1, 0.0
		for id := a.meq; id < a.nrow+2*N; id++ {
			if a.inWS[id] {
				continue
			}
			b := a.rhs(id)
			if math.IsInf(b, -1) {
				continue
			}
			ap := a.dot(id, p)
			if ap >= -2*a.depTol()*pn*a.rownorm(id) {
				continue
			}
			slack := math.Max(0, a.dot(id, a.x)-b)
			t := slack / -ap
			if t < alpha || (t == alpha && block >= 0 && ((a.bland && id < block) || (!a.bland && -ap > bap))) {
				alpha, block, bap = t, id, -ap
			}
		}
		if math.IsInf(alpha, 1) {
			copy(y, p)
			return Unbounded, nil
		}
		for i := 0; i < N; i++ {
			a.x[i] += alpha * p[i]
		}
		if alpha == 0 {
			a.zeroSteps++
			if a.zeroSteps > 5 {
				a.bland = true
			}
		} else {
			a.zeroSteps = 0
			a.bland = false
		}
		if block >= 0 {
			if !a.add(block, true) {
				return NumericalFailure, nil
			}
			{
				if a.singular {
					a.singular = false
					if !a.factorOK() && !a.buildFactor() {
						return NumericalFailure, nil
					}
				}
			}
			a.atMin = a.m == N
		} else if a.singular {
			// stopped at a curvature minimum along p: refactor
			if !a.buildFactor() {
				return NumericalFailure, nil
			}
			a.singular = false
			a.atMin = false
		} else {
			a.atMin = true
		}
	}
}

// crashKKT is the relative KKT residual up to which the dual crash's answer is
// returned as it is (the primal method's own answers meet kktTol = 1e-9 in the
// tests; this is ten times stricter).
const crashKKT = 1e-10

// tryCrash runs the dual crash if it applies (see Solve). It reports whether
// the crash produced an Optimal answer; if that answer is accurate to
// crashKKT it is already in res with Status Optimal.
func (a *ActiveSet) tryCrash(ctx context.Context, p *Problem, set Settings, res *Result) (bool, error) {
	if a.NoDualCrash || p.H == nil {
		return false, nil
	}
	if p.Ain != nil {
		r, n := p.Ain.Dims()
		nnz := 0
		for i := 0; i < r; i++ {
			for _, v := range p.Ain.RawRowView(i) {
				if v != 0 {
					nnz++
				}
			}
		}
		if 4*nnz < r*n {
			return false, nil
		}
	}
	if a.crash == nil {
		a.crash = NewGoldfarbIdnani(nil)
	}
	a.crash.Settings = Settings{MaxIter: set.MaxIter, Tol: set.Tol}
	err := a.crash.Solve(ctx, p, nil, &a.crashRes)
	if err != nil {
		if errors.Is(err, ErrNotConvex) {
			return false, nil // semidefinite: the primal method decides
		}
		return false, err
	}
	c := &a.crashRes
	if c.Status != Optimal {
		return false, nil // only the primal phase 1 declares infeasibility
	}
	if c.KKT.Max() <= crashKKT {
		res.Status, res.Obj, res.KKT = Optimal, c.Obj, c.KKT
		res.Iter, res.Phase1Iter, res.Polish = c.Iter, 0, 0
		copy(res.X, c.X)
		copy(res.Eq, c.Eq)
		copy(res.Ineq, c.Ineq)
		copy(res.Lower, c.Lower)
		copy(res.Upper, c.Upper)
		res.Ray = res.Ray[:0]
		res.Working = append(res.Working[:0], c.Working...)
	}
	return true, nil
}

// Solve implements Solver.
//
// Dual crash: a cold start (no start point) of a problem whose H is positive
// definite and whose general inequality rows are dense (at least a quarter of
// the entries of Ain nonzero, or no Ain) first runs GoldfarbIdnani. If it
// reports Optimal with KKT residuals below 1e-10 its answer is returned as it
// is (Result.Working is its final active set, a valid hot start); if it reports
// Optimal less accurately, the primal method starts from its point and working
// set. The dual method needs about as many iterations as there are active
// constraints, while the primal one, started from a phase-1 vertex far from
// the optimum, adds and drops several times as many (BenchmarkQP at n = 500:
// 340 against about 1650 iterations). Problems with sparse rows, such as the
// decay chains of SKL, are left to the primal method: there the start point 0
// already has most chain rows active and the dual method is several times
// slower. Infeasibility and unboundedness are always decided by the primal
// method. Set NoDualCrash to turn the crash off.
func (a *ActiveSet) Solve(ctx context.Context, p *Problem, start *Start, res *Result) error {
	if a == nil {
		return invalidf("nil solver")
	}
	n, meq, min, err := checkSolve(ctx, p, res)
	if err != nil {
		return err
	}
	if err := a.Settings.check(); err != nil {
		return err
	}
	set := a.Settings.resolve(n, meq+min+2*n)
	a.set = set
	a.alloc(n, meq, min)
	a.p = p
	if start != nil && start.X != nil && len(start.X) != n {
		return invalidf("len(start.X) = %d, want %d", len(start.X), n)
	}
	res.Status = NotSolved
	res.X = grow(res.X, n)
	res.Ray = res.Ray[:0]
	res.Eq, res.Ineq = grow(res.Eq, meq), grow(res.Ineq, min)
	res.Lower, res.Upper = grow(res.Lower, n), grow(res.Upper, n)
	res.Iter, res.Phase1Iter = 0, 0
	res.Working = res.Working[:0]
	crashed := false
	if start == nil || start.X == nil {
		var err error
		if crashed, err = a.tryCrash(ctx, p, set, res); err != nil || crashed && res.Status == Optimal {
			return err
		}
		if crashed {
			// not accurate enough: confirm from its point and working set
			a.crashSt = Start{X: a.crashRes.X, Working: a.crashRes.Working}
			start = &a.crashSt
		}
	}
	if !set.SkipPSDCheck && !crashed {
		if err := checkPSD(p.H, set.PSDTol, a.rz); err != nil {
			return err
		}
	}
	a.hnorm = 0
	if p.H != nil {
		raw := p.H.RawSymmetric()
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := raw.Data[i*raw.Stride+j]
				a.hf[i*n+j], a.hf[j*n+i] = v, v
				a.hnorm = fmax(a.hnorm, math.Abs(v))
			}
		}
	}
	a.iter, a.maxIter = 0, set.MaxIter
	if crashed {
		a.iter = a.crashRes.Iter
	}
	a.bland, a.zeroSteps, a.refined = false, 0, false

	x := a.x[:n+1]
	bmax := 0.0
	for i := 0; i < meq; i++ {
		bmax = math.Max(bmax, math.Abs(p.Beq[i]))
	}
	for i := 0; i < min; i++ {
		bmax = math.Max(bmax, math.Abs(p.Bin[i]))
	}
	feasTol := set.Tol * (1 + bmax)
	var cands []int
	if start != nil {
		cands = start.Working
	}
	hasStart := start != nil && start.X != nil
	hnorm := a.hnorm
	// Phase-1 attempts: (1) from the start point and, for a hot start whose
	// phase 1 fails, (2) from 0. Only the last attempt can declare the problem
	// infeasible.
	lastAttempt := 1
	if hasStart {
		lastAttempt = 2
	}
	for attempt := 1; ; attempt++ {
		// start point, clipped into the bounds
		for j := 0; j < n; j++ {
			v := 0.0
			if hasStart && attempt < 2 {
				v = start.X[j]
				if !finite(v) {
					return invalidf("start.X[%d] = %v is not finite", j, v)
				}
			}
			x[j] = math.Min(math.Max(v, p.lo(j)), p.up(j))
		}
		a.phase1 = false
		a.N = n
		viol := 0.0
		for i := 0; i < meq; i++ {
			a.sEq[i] = p.Beq[i] - a.dot(i, x)
			viol = math.Max(viol, math.Abs(a.sEq[i]))
		}
		for i := 0; i < min; i++ {
			a.sIn[i] = math.Max(0, p.Bin[i]-a.dot(meq+i, x))
			viol = math.Max(viol, a.sIn[i])
		}
		if viol <= 0.1*feasTol {
			break
		}
		// phase 1 in (x, s): rows a x + s·(viol/vmax) ⋛ b, minimize s >= 0,
		// starting from s = vmax (the coefficients are normalised so that the
		// s column is as well scaled as the rows, however small the violation)
		for i := 0; i < meq; i++ {
			a.sEq[i] /= viol
		}
		for i := 0; i < min; i++ {
			a.sIn[i] /= viol
		}
		a.phase1 = true
		a.N = n + 1
		x[n] = viol
		a.hnorm = 0
		a.setNorms()
		a.startWorking(a.activeBounds(x), 0, false)
		st, err := a.run(ctx)
		a.hnorm = hnorm
		res.Phase1Iter = a.iter
		if err != nil {
			return err
		}
		if st == Optimal && x[n] <= feasTol {
			a.phase1 = false
			a.N = n
			cands = nil
			break
		}
		if attempt < lastAttempt {
			// A nearly feasible start can also make the single-s phase 1
			// degenerate (violations of dependent rows that are not exactly
			// proportional); confirm any failure from the cold start.
			continue
		}
		fill(res.X, math.NaN())
		res.Iter = a.iter
		switch {
		case st == Optimal:
			res.Status = Infeasible
		case st == Unbounded:
			res.Status = NumericalFailure
		default:
			res.Status = st
		}
		return nil
	}
	// phase 2
	a.setNorms()
	if cands == nil {
		cands = a.activeAll(x, feasTol)
	}
	a.startWorking(cands, set.Tol, false)
	for retry := false; ; retry = true {
		st, err := a.run(ctx)
		res.Iter = a.iter
		if err != nil {
			return err
		}
		a.report(st, res)
		if st != Optimal || res.KKT.Max() <= retryKKT || a.iter >= a.maxIter {
			break
		}
		if retry {
			// keep the better of the two answers
			if a.bak.KKT.Max() < res.KKT.Max() {
				copyResult(res, &a.bak)
			}
			break
		}
		// Optimal but with multipliers too large for the rounding of
		// Aᵀλ (a degenerate optimum whose working set is ill-conditioned):
		// restart at x from all constraints active there, bounds first.
		copyResult(&a.bak, res)
		a.startWorking(a.activeAll(x, set.Tol), set.Tol, true)
	}
	if res.Status == Optimal && res.KKT.Max() > optimalGuard {
		res.Status = NumericalFailure
	}
	return nil
}

// retryKKT is the relative KKT residual of an Optimal phase-2 answer above
// which Solve restarts once from its point with a better-conditioned working
// set (see Solve). Well-conditioned answers are at 1e-15 or below.
const retryKKT = 1e-12

// copyResult copies the answer fields of src into dst (growing dst's slices).
func copyResult(dst, src *Result) {
	dst.X = append(dst.X[:0], src.X...)
	dst.Eq = append(dst.Eq[:0], src.Eq...)
	dst.Ineq = append(dst.Ineq[:0], src.Ineq...)
	dst.Lower = append(dst.Lower[:0], src.Lower...)
	dst.Upper = append(dst.Upper[:0], src.Upper...)
	dst.Working = append(dst.Working[:0], src.Working...)
	dst.Ray = append(dst.Ray[:0], src.Ray...)
	dst.Status, dst.Obj, dst.KKT = src.Status, src.Obj, src.KKT
}

// report writes the phase-2 outcome st at the current point and working set
// into res: x, the multipliers, the working set, the objective and the KKT
// residuals. It uses a.g and a.v as scratch.
func (a *ActiveSet) report(st Status, res *Result) {
	p, n, meq, min := a.p, a.n, a.meq, a.min
	x := a.x
	res.Status = st
	copy(res.X, x[:n])
	fill(res.Eq, 0)
	fill(res.Ineq, 0)
	fill(res.Lower, 0)
	fill(res.Upper, 0)
	res.Ray = res.Ray[:0]
	switch st {
	case Unbounded:
		res.Ray = grow(res.Ray, n)
		copy(res.Ray, a.w[:n])
	case Optimal:
		// the optimality test took multipliers above −1e-12·gradScale·‖a‖ as
		// nonnegative (rounding level relative to the gradient terms); report
		// those as 0 rather than with a wrong sign
		tolL := 1e-12 * a.gradScale()
		for k := 0; k < a.m; k++ {
			id := a.work[k]
			kk, j := a.kind(id)
			l := a.lam[k]
			if kk != 0 && l < 0 && l >= -tolL*a.rownorm(id) {
				l = 0
			}
			switch kk {
			case 0:
				res.Eq[j] = l
			case 1:
				res.Ineq[j] = l
			case 2:
				res.Lower[j] = l
			case 3:
				res.Upper[j] = l
			}
		}
	}
	res.Working = res.Working[:0]
	for k := 0; k < a.m; k++ {
		if id := a.work[k]; id < a.nrow+2*n {
			res.Working = append(res.Working, id)
		}
	}
	res.Obj = objective(p, res.X, a.hz)
	res.KKT, _ = residuals(p, n, meq, min, res.X, res.Eq, res.Ineq, res.Lower, res.Upper, a.g, a.v)
}

// activeBounds returns (in a.work scratch-free storage) the ids of bounds active at x
// in the current N.
func (a *ActiveSet) activeBounds(x []float64) []int {
	ids := a.tmpIDs()
	for j := 0; j < a.n; j++ {
		if x[j] == a.p.lo(j) {
			ids = append(ids, a.nrow+j)
		} else if x[j] == a.p.up(j) {
			ids = append(ids, a.nrow+a.N+j)
		}
	}
	return ids
}

func (a *ActiveSet) activeAll(x []float64, tol float64) []int {
	ids := a.tmpIDs()
	for id := a.meq; id < a.nrow+2*a.N; id++ {
		b := a.rhs(id)
		if math.IsInf(b, -1) {
			continue
		}
		if a.dot(id, x)-b <= tol {
			ids = append(ids, id)
		}
	}
	return ids
}
