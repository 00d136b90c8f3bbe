package qp

import (
	"context"
	"math"

	"ukm/linalg"
)

var _ Solver = (*ActiveSet)(nil)

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
// constraint proves the problem Unbounded.
//
// A feasible start is found by a phase 1 that minimizes a single violation
// variable s >= 0 (started at the largest violation) with the same method,
// inside an artificial box on the variables without bounds and stopping as
// soon as s reaches 0; its end point is checked against the rows and phase 1
// restarted from there if rounding left them violated. s > 0 at its optimum
// proves infeasibility only together with a certificate: the phase-1
// multipliers, refined, must make a Farkas certificate that verifies (see
// Farkas and Result.Farkas); if they do not, the box is widened and dropped,
// and without a verified certificate the outcome is NumericalFailure, never
// Infeasible.
//
// Degeneracy. Problems whose rows and columns differ in scale by orders of
// magnitude are solved in equilibrated variables (Ruiz scaling by powers of
// two; answers, multipliers and certificates are mapped back and measured on
// the problem given), and problems whose data are all of one size far from 1
// with their rows and objective scaled to entries near 1. Where many constraints are active at once (redundant,
// duplicated and ranged rows, zero multipliers), repeated zero steps first
// switch on a perturbation that relaxes the inequalities and bounds by
// distinct amounts of relative size 1e-11, removed at the end with a
// refinement onto the working set; Bland's smallest-index rule is the last
// resort against cycling. A blocking row found dependent on the working set
// is skipped until a constraint leaves it. At a candidate optimum the rows and
// bounds outside the working set are checked at the refined point: one that a
// long step left violated beyond the feasibility tolerance (its decrease along
// the step was within the ratio test's rounding) joins the working set, and
// the method goes on from there.
//
// A cold start of a strictly convex problem with dense rows is first handed to
// GoldfarbIdnani (a dual crash; see Solve), which needs far fewer iterations.
//
// Each iteration costs O(n²) (O(n·(n + rows)) for the ratio test); the
// number of iterations is typically a small multiple of the number of active
// constraints; equilibration costs O(n² + rows·n) per Ruiz pass (at most 20).
// An ActiveSet holds its workspace, grows it as needed and re-solves problems
// of the same size without allocating (except for the eigendecomposition of a
// slightly indefinite H, see Settings.PSDTol). It is not safe for concurrent
// use.
type ActiveSet struct {
	Settings Settings
	// NoDualCrash disables the dual method's two roles (see Solve): the
	// crash of a cold start and the fallback after a NumericalFailure.
	NoDualCrash bool

	p        *Problem
	set      Settings
	n        int // original variables
	meq, min int
	nrow     int // meq + min

	// engine state, dimension dim (= n, or n+1 in phase 1)
	dim      int
	phase1   bool
	sEq      []float64 // phase-1 s-coefficients of equality rows
	sIn      []float64 // phase-1 s-coefficients of inequality rows
	q        []float64 // N×N, Qᵀ row-major: row k holds column k of Q
	r        []float64 // N×N, column k is working constraint k
	rz       []float64 // N×N, reduced Hessian factor (upper triangular)
	m        int       // working-set size
	work     []int     // working-set ids
	inWS     []bool    // by id
	skip     []bool    // by id: found dependent on the working set when blocking (see run)
	nskip    int       // number of true entries of skip
	tempX    []float64 // temporary bound values
	singular bool
	atMin    bool

	x, g, p_, w, v, lam, hz []float64
	hnorm                   float64
	bland                   bool
	perturbed               bool    // the rhs of inequalities and bounds are relaxed (see perturbation)
	box                     float64 // phase 1's box |x_j| <= box on variables without bounds (0: none)
	refined                 bool    // x was refined on the current working set
	feasTol                 float64 // phase 2: the violation a row outside the working set may keep at the optimum
	restored                int     // phase 2: rows added because the optimum violated them (see run)
	zeroSteps               int
	iter                    int
	maxIter                 int
	ids                     []int
	rn                      []float64
	hf                      []float64 // H with both triangles, n×n

	scale    scaling         // equilibration of badly scaled problems
	reg      regularizer     // H₊ of a slightly indefinite H
	bak      Result          // first answer while Solve retries (see retryKKT)
	crash    *GoldfarbIdnani // dual method for the cold-start crash
	crashRes Result
	crashSt  Start
}

// NewActiveSet returns an ActiveSet solver with the given settings (nil =
// defaults). The zero ActiveSet is ready to use as well.
func NewActiveSet(s *Settings) *ActiveSet {
	a := &ActiveSet{}
	if s != nil {
		a.Settings = *s
	}
	return a
}

func (a *ActiveSet) nid() int { return a.nrow + 3*a.dim } // ids: rows, lower, upper, temp

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
	if cap(a.skip) < nid {
		a.skip = make([]bool, nid)
	}
	a.skip = a.skip[:nid]
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

// Solve implements Solver.
//
// Dual crash: a cold start (no start point) of a problem whose H is positive
// definite and whose general inequality rows are dense (at least a quarter of
// the entries of Ain nonzero, or no Ain) first runs GoldfarbIdnani. If it
// reports Optimal with KKT residuals below 1e-10 its answer is returned as it
// is (Result.Working is its final active set, a valid warm start); if it
// reports Optimal less accurately, the primal method starts from its point and
// working set. The dual method needs about as many iterations as there are
// active constraints, while the primal one, started from a phase-1 vertex far
// from the optimum, adds and drops several times as many. Problems with sparse
// rows, such as the decay chains of SKL, are left to the primal method: there
// the start point 0 already has most chain rows active and the dual method is
// slower. Infeasibility and unboundedness are decided by the primal method,
// except in the fallback: when the primal method ends in NumericalFailure on a
// problem with positive definite H, GoldfarbIdnani is run on it and its
// outcome is reported if it is Optimal or a certified Infeasible (Iterations
// then counts both). Set NoDualCrash to turn the crash and the fallback off.
//
// A warm start (start.X) of the wrong length or with NaN/Inf entries is an
// error wrapping linalg.ErrInvalid; ids in start.Working outside the problem
// are ignored.
func (a *ActiveSet) Solve(ctx context.Context, p *Problem, start *Start, res *Result) error {
	if a == nil {
		return linalg.Errorf(linalg.ErrSettings, opActiveSet, "nil solver")
	}
	n, meq, min, err := checkSolve(ctx, opActiveSet, p, res)
	if err != nil {
		return err
	}
	if err := a.Settings.check(opActiveSet); err != nil {
		return err
	}
	if err := checkStart(opActiveSet, start, n); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return canceled(ctx, opActiveSet, res)
	}
	set := a.Settings.resolve(n, meq+min)
	a.set = set
	a.alloc(n, meq, min)
	res.Status = linalg.NotRun
	res.X = grow(res.X, n)
	res.Ray = res.Ray[:0]
	res.Eq, res.Ineq = grow(res.Eq, meq), grow(res.Ineq, min)
	res.Lower, res.Upper = grow(res.Lower, n), grow(res.Upper, n)
	res.Iterations, res.Phase1Iterations, res.PolishIterations = 0, 0, 0
	res.Working = res.Working[:0]
	res.HShift = 0
	resetFarkas(res)
	q := p // the problem solved: p, or p with H regularised
	ps, st := q, start
	scaled := a.scale.prepare(q, n, meq, min)
	if scaled {
		ps, st = &a.scale.p, a.scale.scaleStart(start)
	}
	crashed := false
	if start == nil || start.X == nil {
		var err error
		if crashed, err = a.tryCrash(ctx, ps, set, res); err != nil {
			if ctx.Err() != nil {
				return canceled(ctx, opActiveSet, res)
			}
			return err
		}
		if crashed && res.Status == linalg.Optimal {
			a.finish(q, scaled, set, res)
			return nil
		}
		if crashed {
			// not accurate enough: confirm from its point and working set
			a.crashSt = Start{X: a.crashRes.X, Working: a.crashRes.Working}
			st = &a.crashSt
		}
	}
	if !set.SkipPSDCheck && !crashed {
		// (a successful crash has shown H positive definite)
		reg, err := checkPSD(opActiveSet, p.H, set.PSDTol, a.rz)
		if err != nil {
			return err
		}
		if reg {
			q = a.reg.apply(p, set.PSDTol)
			res.HShift = a.reg.shift
			ps, st = q, start
			if scaled = a.scale.prepare(q, n, meq, min); scaled {
				ps, st = &a.scale.p, a.scale.scaleStart(start)
			}
		}
	}
	if err := a.solve(ctx, ps, st, set, res, crashed); err != nil {
		return err
	}
	a.finish(q, scaled, set, res)
	if res.Status == linalg.NumericalFailure {
		return a.fallback(ctx, q, set, res)
	}
	return nil
}

// solve runs phase 1 and phase 2 on the engine's problem p (the problem
// solved or its scaled copy) from start; crashed says that start is the dual
// crash's point.
func (a *ActiveSet) solve(ctx context.Context, p *Problem, start *Start, set Settings, res *Result, crashed bool) error {
	n, meq, min := a.n, a.meq, a.min
	a.p = p
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
		a.iter = a.crashRes.Iterations
	}
	a.bland, a.zeroSteps, a.refined, a.perturbed = false, 0, false, false

	x := a.x[:n+1]
	bmax := 0.0
	for i := 0; i < meq; i++ {
		bmax = math.Max(bmax, math.Abs(p.Beq[i]))
	}
	for i := 0; i < min; i++ {
		bmax = math.Max(bmax, math.Abs(p.Bin[i]))
	}
	feasTol := set.Tol * (1 + bmax)
	a.feasTol, a.restored = feasTol, 0
	var cands []int
	if start != nil {
		cands = start.Working
	}
	found, keepWorking, err := a.findFeasible(ctx, start, feasTol, res)
	if err != nil {
		return canceled(ctx, opActiveSet, res)
	}
	if !found {
		return nil
	}
	if !keepWorking {
		cands = nil
	}
	// phase 2
	a.setNorms()
	if cands == nil {
		cands = a.activeAll(x, feasTol)
	}
	a.startWorking(cands, set.Tol, false)
	for retry := false; ; retry = true {
		st, err := a.run(ctx)
		res.Iterations = a.iter
		if err != nil {
			return canceled(ctx, opActiveSet, res)
		}
		a.report(st, res)
		if st != linalg.Optimal || res.KKT.Max() <= retryKKT || a.iter >= a.maxIter {
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
	return nil
}
