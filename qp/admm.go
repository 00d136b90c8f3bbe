package qp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"

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
	if !set.SkipPSDCheck {
		if err := checkPSD(opADMM, p.H, set.PSDTol, s.kmat); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return canceled(ctx, opADMM, res)
	}
	rho0, sigma, alpha, eps := s.Rho, s.Sigma, s.Alpha, s.Eps
	if !(rho0 > 0) {
		rho0 = DefaultADMMRho
	}
	if !(sigma > 0) {
		sigma = DefaultADMMSigma
	}
	if !(alpha > 0 && alpha < 2) {
		alpha = DefaultADMMAlpha
	}
	if !(eps > 0) {
		eps = DefaultADMMEps
	}
	// stack rows
	r := 0
	for i := 0; i < meq; i++ {
		copy(s.a[r*n:r*n+n], p.Aeq.RawRowView(i))
		s.lo[r], s.up[r], s.kind[r], s.ref[r] = p.Beq[i], p.Beq[i], 0, i
		r++
	}
	for i := 0; i < min; i++ {
		copy(s.a[r*n:r*n+n], p.Ain.RawRowView(i))
		s.lo[r], s.up[r], s.kind[r], s.ref[r] = p.Bin[i], math.Inf(1), 1, i
		r++
	}
	for j := 0; j < n; j++ {
		if !math.IsInf(p.lo(j), -1) || !math.IsInf(p.up(j), 1) {
			row := s.a[r*n : r*n+n]
			fill(row, 0)
			row[j] = 1
			s.lo[r], s.up[r], s.kind[r], s.ref[r] = p.lo(j), p.up(j), 2, j
			r++
		}
	}
	setRho := func(rh float64) {
		for i := 0; i < m; i++ {
			s.rho[i] = rh
			if s.lo[i] == s.up[i] {
				s.rho[i] = 1e3 * rh
			}
		}
	}
	rho := rho0
	setRho(rho)
	if !s.factor(p, sigma) {
		res.Status = linalg.NumericalFailure
		res.X = grow(res.X, n)
		fill(res.X, math.NaN())
		res.Ray = res.Ray[:0]
		res.Iterations, res.Phase1Iterations, res.PolishIterations = 0, 0, 0
		return nil
	}
	fill(s.x, 0)
	if start != nil && start.X != nil {
		copy(s.x, start.X)
	}
	s.mulA(s.x, s.z)
	for i := range s.z {
		s.z[i] = math.Min(math.Max(s.z[i], s.lo[i]), s.up[i])
	}
	fill(s.y, 0)
	res.Status = linalg.NotRun
	res.Iterations, res.Phase1Iterations, res.PolishIterations = 0, 0, 0
	st := linalg.IterationLimit
	pinf, dinf := 0, 0
	prevDy, prevDx := 0.0, 0.0
	hv := blas64.Vector{N: n, Data: s.tmp, Inc: 1}
	for it := 1; it <= set.MaxIter; it++ {
		res.Iterations = it
		if it&63 == 0 {
			if ctx.Err() != nil {
				return canceled(ctx, opADMM, res)
			}
		}
		// rhs = σx − c + Aᵀ(ρz − y)
		for i := 0; i < m; i++ {
			s.zt[i] = s.rho[i]*s.z[i] - s.y[i]
		}
		s.mulAT(s.zt, s.rhs)
		for j := 0; j < n; j++ {
			s.rhs[j] += sigma*s.x[j] - p.G[j]
		}
		(gonum.Implementation{}).Dpotrs(blas.Upper, n, 1, s.kmat, n, s.rhs, 1)
		copy(s.xt, s.rhs)
		s.mulA(s.xt, s.zt)
		for j := 0; j < n; j++ {
			xn := alpha*s.xt[j] + (1-alpha)*s.x[j]
			s.dx[j] = xn - s.x[j]
			s.x[j] = xn
		}
		for i := 0; i < m; i++ {
			zr := alpha*s.zt[i] + (1-alpha)*s.z[i]
			zn := math.Min(math.Max(zr+s.y[i]/s.rho[i], s.lo[i]), s.up[i])
			yn := s.y[i] + s.rho[i]*(zr-zn)
			s.dy[i] = yn - s.y[i]
			s.y[i], s.z[i] = yn, zn
		}
		if it%10 != 0 && it != set.MaxIter {
			continue
		}
		// residuals
		s.mulA(s.x, s.zt)
		rp, axn, zn := 0.0, 0.0, 0.0
		for i := 0; i < m; i++ {
			rp = math.Max(rp, math.Abs(s.zt[i]-s.z[i]))
			axn = math.Max(axn, math.Abs(s.zt[i]))
			zn = math.Max(zn, math.Abs(s.z[i]))
		}
		if p.H != nil {
			blas64.Symv(1, p.H.RawSymmetric(), blas64.Vector{N: n, Data: s.x, Inc: 1}, 0, hv)
		} else {
			fill(s.tmp[:n], 0)
		}
		s.mulAT(s.y, s.atyb)
		rd, hxn, atyn, cn := 0.0, 0.0, 0.0, 0.0
		for j := 0; j < n; j++ {
			rd = math.Max(rd, math.Abs(s.tmp[j]+p.G[j]+s.atyb[j]))
			hxn = math.Max(hxn, math.Abs(s.tmp[j]))
			atyn = math.Max(atyn, math.Abs(s.atyb[j]))
			cn = math.Max(cn, math.Abs(p.G[j]))
		}
		epsP := eps * (1 + math.Max(axn, zn))
		epsD := eps * (1 + math.Max(hxn, math.Max(atyn, cn)))
		if rp <= epsP && rd <= epsD {
			st = linalg.Optimal
			break
		}
		// Certificates: on infeasible (unbounded) problems δy (δx) converges to
		// a nonzero vector, on solvable ones to zero. Require the certificate at
		// three consecutive checks with a non-shrinking difference.
		dyn, dxn := 0.0, 0.0
		for _, v := range s.dy {
			dyn = fmax(dyn, math.Abs(v))
		}
		for _, v := range s.dx {
			dxn = fmax(dxn, math.Abs(v))
		}
		if s.primalInfeasible(eps) && dyn >= 0.9*prevDy {
			pinf++
		} else {
			pinf = 0
		}
		if s.dualInfeasible(p, eps) && dxn >= 0.9*prevDx {
			dinf++
		} else {
			dinf = 0
		}
		prevDy, prevDx = dyn, dxn
		if pinf >= 3 {
			st = linalg.Infeasible
			break
		}
		if dinf >= 3 {
			st = linalg.Unbounded
			break
		}
		// adapt ρ
		if it%50 == 0 {
			ratio := math.Sqrt((rp / (1e-30 + math.Max(axn, zn))) / (rd/(1e-30+math.Max(hxn, math.Max(atyn, cn))) + 1e-30))
			nr := math.Min(math.Max(rho*ratio, 1e-6), 1e6)
			if nr > 5*rho || nr < rho/5 {
				rho = nr
				setRho(rho)
				if !s.factor(p, sigma) {
					st = linalg.NumericalFailure
					break
				}
			}
		}
	}
	res.Status = st
	res.X = grow(res.X, n)
	res.Eq, res.Ineq = grow(res.Eq, meq), grow(res.Ineq, min)
	res.Lower, res.Upper = grow(res.Lower, n), grow(res.Upper, n)
	res.Ray = res.Ray[:0]
	res.Working = res.Working[:0]
	if st == linalg.Infeasible || st == linalg.Unbounded {
		// First-order certificates cannot tell a far-away solution from a
		// ray (or a nearly infeasible set from an infeasible one) with
		// certainty; confirm with ActiveSet and report its outcome.
		fr, err := s.runFinish(ctx, p, set, nil)
		if err != nil {
			return s.finishErr(ctx, err, res)
		}
		res.PolishIterations = fr.Iterations
		res.Status = fr.Status
		copy(res.X, fr.X)
		copy(res.Eq, fr.Eq)
		copy(res.Ineq, fr.Ineq)
		copy(res.Lower, fr.Lower)
		copy(res.Upper, fr.Upper)
		res.Ray = append(res.Ray[:0], fr.Ray...)
		res.Working = append(res.Working[:0], fr.Working...)
		res.KKT, res.Obj = fr.KKT, fr.Obj
		return nil
	}
	copy(res.X, s.x)
	s.multipliers(s.y, res.Eq, res.Ineq, res.Lower, res.Upper)
	res.KKT, _ = residuals(p, n, meq, min, res.X, res.Eq, res.Ineq, res.Lower, res.Upper, s.atyb, s.tmp[:n])
	if st == linalg.Optimal && !s.NoPolish {
		s.polish(p, n, meq, min, res)
	}
	if st == linalg.Optimal && !s.NoPolish && res.KKT.Max() > set.Tol {
		// the KKT-system polish did not reach the tolerance (wrong active-set guess
		// or a rank-deficient active set): finish with ActiveSet from this point.
		copy(s.px, res.X)
		fr, err := s.runFinish(ctx, p, set, s.px)
		if err != nil {
			return s.finishErr(ctx, err, res)
		}
		if fr.Status == linalg.Infeasible || fr.Status == linalg.Unbounded {
			// the first-order "solution" was an artefact (e.g. a huge x whose
			// residuals look small relative to its size)
			res.Status = fr.Status
			res.PolishIterations = fr.Iterations
			copy(res.X, fr.X)
			res.Ray = append(res.Ray[:0], fr.Ray...)
			fill(res.Eq, 0)
			fill(res.Ineq, 0)
			fill(res.Lower, 0)
			fill(res.Upper, 0)
			res.KKT, res.Obj = fr.KKT, fr.Obj
			return nil
		}
		if fr.Status == linalg.Optimal {
			copy(res.X, fr.X)
			copy(res.Eq, fr.Eq)
			copy(res.Ineq, fr.Ineq)
			copy(res.Lower, fr.Lower)
			copy(res.Upper, fr.Upper)
			res.KKT = fr.KKT
			res.PolishIterations = fr.Iterations
		}
	}
	for i := 0; i < m; i++ {
		if s.y[i] != 0 || s.lo[i] == s.up[i] {
			id := -1
			switch s.kind[i] {
			case 0:
				id = s.ref[i]
			case 1:
				if s.y[i] < 0 {
					id = meq + s.ref[i]
				}
			case 2:
				if s.y[i] < 0 {
					id = meq + min + s.ref[i]
				} else if s.y[i] > 0 {
					id = meq + min + n + s.ref[i]
				}
			}
			if id >= 0 {
				res.Working = append(res.Working, id)
			}
		}
	}
	res.Obj = objective(p, res.X, s.tmp)
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
