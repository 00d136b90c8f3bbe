package qp

import (
	"context"
	"math"

	"ukm/linalg"
)

var _ Solver = (*ADMM)(nil)

// ADMM is a first-order operator-splitting solver in the style of OSQP
// (Stellato et al. 2020): with all constraints stacked as l <= Ax <= u it
// iterates
//
//	(H + σI + AᵀRA) x̃ = σx − g + Aᵀ(Rz − y),  z̃ = Ax̃,
//	x ← αx̃ + (1−α)x,  z ← Π[l,u](αz̃ + (1−α)z + R⁻¹y),  y ← y + R(αz̃ + (1−α)z_old − z),
//
// with a dense Cholesky factorisation of the first matrix, recomputed only
// when the step size ρ is adapted. It stops when the primal and dual residuals
// are below Eps (relative), detects infeasibility and unboundedness from the
// successive differences of y and x (confirmed by ActiveSet, whose outcome is
// reported), and then polishes: it guesses the active constraints from the
// signs of y, solves the resulting equality-constrained KKT system
// (regularised by 1e-9 and refined iteratively) and keeps the polished point
// if its KKT residuals are smaller. If the polished point still misses
// Settings.Tol (a wrong guess, or a rank-deficient active set as in the SKL
// problem), ActiveSet is run from it to finish (Result.PolishIterations counts
// its iterations). H need only be semidefinite. A start point, if given, is
// the first iterate; start.Working is not used.
//
// Like OSQP it works on the equilibrated problem when rows and columns differ
// in scale by orders of magnitude (see ActiveSet); Eps then applies there, and
// the answer is mapped back and measured on the problem given.
//
// At the iteration limit (IterationLimit) X is the last iterate x. It is not
// feasible in general: the constraints hold only to the accuracy reached, and
// Result.KKT.PrimalFeas reports its relative violation (measured like every
// other KKT residual by Residuals' code at X). Infeasible and Unbounded are
// reported only as confirmed by ActiveSet, with its certificate or ray.
//
// Its accuracy without polishing is that of a first-order method (about
// Eps); it is included for comparison with the active-set methods. Each
// iteration costs O(n² + m·n) for m stacked rows, after an O(n³ + m·n²)
// factorisation that is repeated whenever ρ changes.
//
// Slow convergence on ill-conditioned problems is inherent to the method, not
// a defect of the step-size rule: on the SKL QP the decay rows
// μ_i >= δ·μ_{i+1} and the tiny trailing entries of H make the scaled problem
// badly conditioned, ADMM converges linearly at a rate set by that
// conditioning, and it may reach DefaultADMMMaxIter first (IterationLimit);
// BENCHMARKS.md has the iteration counts. Use Bounded (the SKL fast path) or
// ActiveSet there.
//
// An ADMM re-solves problems of the same size without allocating. It is not
// safe for concurrent use.
type ADMM struct {
	Settings Settings
	// Rho, Sigma, Alpha and Eps select their defaults when zero; a negative,
	// NaN or infinite value (or Alpha >= 2) makes Solve return an error
	// wrapping linalg.ErrSettings.
	//
	// Rho is the initial step size (DefaultADMMRho; equality rows use
	// 1e3·Rho).
	Rho float64
	// Sigma is the proximal regularisation of x (DefaultADMMSigma).
	Sigma float64
	// Alpha is the relaxation parameter in (0, 2) (DefaultADMMAlpha).
	Alpha float64
	// Eps is the relative stopping tolerance of the residuals
	// (DefaultADMMEps).
	Eps float64
	// NoPolish disables polishing.
	NoPolish bool

	n, m                 int
	a                    []float64 // m×n stacked rows
	lo, up               []float64
	kind                 []int8 // 0 eq, 1 ineq, 2 bound
	ref                  []int  // row / variable index within its block
	rho                  []float64
	kmat                 []float64 // n×n factor
	x, z, y, xt, zt, rhs []float64
	dx, dy, tmp, atyb    []float64
	kkt                  []float64 // polish system
	ipiv                 []int
	psol, prhs, pres, px []float64
	act                  []int
	eqv, inv, lov, upv   []float64
	reg                  regularizer
	scale                scaling
	finish               *ActiveSet
	finishStart          Start
	finishRes            Result
}

// NewADMM returns an ADMM solver with the given settings (nil = defaults).
func NewADMM(s *Settings) *ADMM {
	a := &ADMM{}
	if s != nil {
		a.Settings = *s
	}
	return a
}

func (s *ADMM) alloc(n, m int) {
	s.n, s.m = n, m
	s.a = grow(s.a, m*n)
	s.lo, s.up = grow(s.lo, m), grow(s.up, m)
	if cap(s.kind) < m {
		s.kind = make([]int8, m)
	}
	s.kind = s.kind[:m]
	s.ref = growInt(s.ref, m)
	s.rho = grow(s.rho, m)
	s.kmat = grow(s.kmat, n*n)
	s.x, s.z, s.y = grow(s.x, n), grow(s.z, m), grow(s.y, m)
	s.xt, s.zt, s.rhs = grow(s.xt, n), grow(s.zt, m), grow(s.rhs, n)
	s.dx, s.dy, s.tmp, s.atyb = grow(s.dx, n), grow(s.dy, m), grow(s.tmp, max(n, m)), grow(s.atyb, n)
	N := n + m
	s.kkt = grow(s.kkt, N*N)
	s.ipiv = growInt(s.ipiv, N)
	s.psol, s.prhs, s.pres, s.px = grow(s.psol, N), grow(s.prhs, N), grow(s.pres, N), grow(s.px, n)
	s.act = growInt(s.act, m)
}

// Solve implements Solver.
func (s *ADMM) Solve(ctx context.Context, p *Problem, start *Start, res *Result) error {
	if s == nil {
		return linalg.Errorf(linalg.ErrSettings, opADMM, "nil solver")
	}
	n, meq, min, err := checkSolve(ctx, opADMM, p, res)
	if err != nil {
		return err
	}
	if err := s.Settings.check(opADMM); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"ADMM.Rho", s.Rho}, {"ADMM.Sigma", s.Sigma}, {"ADMM.Alpha", s.Alpha}, {"ADMM.Eps", s.Eps}} {
		if err := linalg.CheckTol(opADMM, f.name, f.v); err != nil {
			return err
		}
	}
	if s.Alpha >= 2 {
		return linalg.Errorf(linalg.ErrSettings, opADMM, "ADMM.Alpha = %v, want a value in (0, 2) (0 = default)", s.Alpha)
	}
	if err := checkStart(opADMM, start, n); err != nil {
		return err
	}
	set := s.Settings
	if set.MaxIter <= 0 {
		set.MaxIter = DefaultADMMMaxIter
	}
	set = set.resolve(n, 0)
	nb := 0
	for j := 0; j < n; j++ {
		if !math.IsInf(p.lo(j), -1) || !math.IsInf(p.up(j), 1) {
			nb++
		}
	}
	m := meq + min + nb
	s.alloc(n, m)
	res.HShift = 0
	if !set.SkipPSDCheck {
		reg, err := checkPSD(opADMM, p.H, set.PSDTol, s.kmat)
		if err != nil {
			return err
		}
		if reg {
			p = s.reg.apply(p, set.PSDTol)
			res.HShift = s.reg.shift
		}
	}
	if ctx.Err() != nil {
		return canceled(ctx, opADMM, res)
	}
	ps, st := p, start
	scaled := s.scale.prepare(p, n, meq, min)
	if scaled {
		ps, st = &s.scale.p, s.scale.scaleStart(start)
	}
	if err := s.iterate(ctx, ps, st, set, res); err != nil {
		return err
	}
	if !scaled {
		return nil
	}
	// back to the problem's variables: the answer, then its measures
	s.scale.unscale(res, meq)
	if res.Status == linalg.Infeasible {
		f := &res.Farkas
		f.absorbBounds(p, n, meq, min, s.tmp, 0) // cleaned in the engine's variables
		f.Residual, f.Gap = f.measure(p, n, meq, min, s.atyb, s.px)
		if !f.verified(set.Tol) {
			res.Status = linalg.NumericalFailure
			resetFarkas(res)
		}
		return nil
	}
	res.Obj = objective(p, res.X, s.tmp)
	res.KKT, _ = residuals(p, n, meq, min, res.X, res.Eq, res.Ineq, res.Lower, res.Upper, s.atyb, s.px)
	if res.Status == linalg.Optimal && res.KKT.Max() > optimalGuard {
		res.Status = linalg.NumericalFailure
	}
	return nil
}

// finishErr is the error of Solve when the ActiveSet finish failed with err:
// the context's end, reported as ADMM's, or err itself.
func (s *ADMM) finishErr(ctx context.Context, err error, res *Result) error {
	if ctx.Err() != nil {
		return canceled(ctx, opADMM, res)
	}
	return err
}

// runFinish runs the owned ActiveSet, from x0 if non-nil.
func (s *ADMM) runFinish(ctx context.Context, p *Problem, set Settings, x0 []float64) (*Result, error) {
	if s.finish == nil {
		s.finish = NewActiveSet(nil)
	}
	s.finish.Settings = Settings{Tol: set.Tol, SkipPSDCheck: true}
	st := &s.finishStart
	st.X = x0
	st.Working = st.Working[:0]
	if x0 == nil {
		st = nil
	}
	if err := s.finish.Solve(ctx, p, st, &s.finishRes); err != nil {
		return nil, err
	}
	return &s.finishRes, nil
}
