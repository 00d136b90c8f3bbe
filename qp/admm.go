package qp

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"
)

// ADMM is a first-order operator-splitting solver in the style of OSQP
// (Stellato et al. 2020): with all constraints stacked as l <= Ax <= u it iterates
//
//	(H + σI + AᵀRA) x̃ = σx − c + Aᵀ(Rz − y),  z̃ = Ax̃,
//	x ← αx̃ + (1−α)x,  z ← Π[l,u](αz̃ + (1−α)z + R⁻¹y),  y ← y + R(αz̃ + (1−α)z_old − z),
//
// with a dense Cholesky factorisation of the first matrix, recomputed only when
// the step size ρ is adapted. It stops when the primal and dual residuals are
// below Eps (relative), detects infeasibility and unboundedness from the
// successive differences of y and x (confirmed by ActiveSet, whose outcome is
// reported), and then polishes: it guesses the active
// constraints from the signs of y, solves the resulting equality-constrained KKT
// system (regularised by 1e-9 and refined iteratively) and keeps the polished
// point if its KKT residuals are smaller. If the polished point still misses
// Settings.Tol (a wrong guess, or a rank-deficient active set as in the SKL
// problem), ActiveSet is run from it to finish (Result.Polish counts its
// iterations). H need only be semidefinite.
//
// Its accuracy without polishing is that of a first-order method (about Eps);
// it is included for comparison with the active-set methods.
//
// Slow convergence on ill-conditioned problems is inherent to the method,
// not a defect of the step-size rule. On the SKL QP of the scaling study (top
// d eigenvectors of an RBF kernel of 1000 points, 20 labeled rows, C = 2; the
// instance in testdata/skl_rbf1000.txt) ADMM needs about 16300 iterations at
// d = 20, 19500 at d = 100 and 20400 at d = 50, just past the default limit
// of 20000, so d = 50 ends IterationLimit (KKT 6e-8) unless MaxIter is raised.
// After iteration 3000 or so the primal and dual residuals stay balanced to
// within the factor 5 at which ρ is adapted (as in OSQP), while the primal
// residual falls from 7e-5 to 9e-6 over 13000 iterations: the decay rows
// μ_i >= C·μ_{i+1} and the tiny trailing entries of H make the scaled
// problem badly conditioned, and ADMM converges linearly at a rate set by
// that conditioning. Use Bounded (the SKL fast path) or ActiveSet there.
//
// An ADMM re-solves problems of the same size without allocating. It is not
// safe for concurrent use.
type ADMM struct {
	Settings Settings
	// Rho, Sigma, Alpha and Eps select their defaults when zero; a negative,
	// NaN or infinite value (or Alpha >= 2) makes Solve return an error
	// wrapping ErrInvalid.
	//
	// Rho is the initial step size (default 0.1; equality rows use 1e3·Rho).
	Rho float64
	// Sigma is the proximal regularisation of x (default 1e-6).
	Sigma float64
	// Alpha is the relaxation parameter in (0, 2) (default 1.6).
	Alpha float64
	// Eps is the relative stopping tolerance of the residuals (default 1e-7).
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
		return invalidf("nil solver")
	}
	n, meq, min, err := checkSolve(ctx, p, res)
	if err != nil {
		return err
	}
	if err := s.Settings.check(); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Rho", s.Rho}, {"Sigma", s.Sigma}, {"Alpha", s.Alpha}, {"Eps", s.Eps}} {
		if !(f.v >= 0) || math.IsInf(f.v, 1) {
			return invalidf("ADMM.%s = %v, want a finite value >= 0 (0 = default)", f.name, f.v)
		}
	}
	if s.Alpha >= 2 {
		return invalidf("ADMM.Alpha = %v, want a value in (0, 2) (0 = default)", s.Alpha)
	}
	set := s.Settings
	if set.MaxIter <= 0 {
		set.MaxIter = 20000
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
		if err := checkPSD(p.H, set.PSDTol, s.kmat); err != nil {
			return err
		}
	}
	if start != nil && start.X != nil {
		if len(start.X) != n {
			return invalidf("len(start.X) = %d, want %d", len(start.X), n)
		}
		for j, v := range start.X {
			if !finite(v) {
				return invalidf("start.X[%d] = %v is not finite", j, v)
			}
		}
	}
	rho0, sigma, alpha, eps := s.Rho, s.Sigma, s.Alpha, s.Eps
	if !(rho0 > 0) {
		rho0 = 0.1
	}
	if !(sigma > 0) {
		sigma = 1e-6
	}
	if !(alpha > 0 && alpha < 2) {
		alpha = 1.6
	}
	if !(eps > 0) {
		eps = 1e-7
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
		res.Status = NumericalFailure
		res.X = grow(res.X, n)
		fill(res.X, math.NaN())
		res.Ray = res.Ray[:0]
		res.Iter, res.Phase1Iter, res.Polish = 0, 0, 0
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
	res.Status = NotSolved
	res.Iter, res.Phase1Iter, res.Polish = 0, 0, 0
	st := IterationLimit
	pinf, dinf := 0, 0
	prevDy, prevDx := 0.0, 0.0
	hv := blas64.Vector{N: n, Data: s.tmp, Inc: 1}
	for it := 1; it <= set.MaxIter; it++ {
		res.Iter = it
		if it&63 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("qp: ADMM cancelled: %w", err)
			}
		}
		// rhs = σx − c + Aᵀ(ρz − y)
		for i := 0; i < m; i++ {
			s.zt[i] = s.rho[i]*s.z[i] - s.y[i]
		}
		s.mulAT(s.zt, s.rhs)
		for j := 0; j < n; j++ {
			s.rhs[j] += sigma*s.x[j] - p.C[j]
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
			rd = math.Max(rd, math.Abs(s.tmp[j]+p.C[j]+s.atyb[j]))
			hxn = math.Max(hxn, math.Abs(s.tmp[j]))
			atyn = math.Max(atyn, math.Abs(s.atyb[j]))
			cn = math.Max(cn, math.Abs(p.C[j]))
		}
		epsP := eps * (1 + math.Max(axn, zn))
		epsD := eps * (1 + math.Max(hxn, math.Max(atyn, cn)))
		if rp <= epsP && rd <= epsD {
			st = Optimal
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
			st = Infeasible
			break
		}
		if dinf >= 3 {
			st = Unbounded
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
					st = NumericalFailure
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
	if st == Infeasible || st == Unbounded {
		// First-order certificates cannot tell a far-away solution from a
		// ray (or a nearly infeasible set from an infeasible one) with
		// certainty; confirm with ActiveSet and report its outcome.
		fr, err := s.runFinish(ctx, p, set, nil)
		if err != nil {
			return err
		}
		res.Polish = fr.Iter
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
	if st == Optimal && !s.NoPolish {
		s.polish(p, n, meq, min, res)
	}
	if st == Optimal && !s.NoPolish && res.KKT.Max() > set.Tol {
		// the KKT-system polish did not reach the tolerance (wrong active-set guess
		// or a rank-deficient active set): finish with ActiveSet from this point.
		copy(s.px, res.X)
		fr, err := s.runFinish(ctx, p, set, s.px)
		if err != nil {
			return err
		}
		if fr.Status == Infeasible || fr.Status == Unbounded {
			// the first-order "solution" was an artefact (e.g. a huge x whose
			// residuals look small relative to its size)
			res.Status = fr.Status
			res.Polish = fr.Iter
			copy(res.X, fr.X)
			res.Ray = append(res.Ray[:0], fr.Ray...)
			fill(res.Eq, 0)
			fill(res.Ineq, 0)
			fill(res.Lower, 0)
			fill(res.Upper, 0)
			res.KKT, res.Obj = fr.KKT, fr.Obj
			return nil
		}
		if fr.Status == Optimal {
			copy(res.X, fr.X)
			copy(res.Eq, fr.Eq)
			copy(res.Ineq, fr.Ineq)
			copy(res.Lower, fr.Lower)
			copy(res.Upper, fr.Upper)
			res.KKT = fr.KKT
			res.Polish = fr.Iter
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
	if res.Status == Optimal && res.KKT.Max() > optimalGuard {
		res.Status = NumericalFailure
	}
	return nil
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

// multipliers maps OSQP-signed y (Hx + c + Aᵀy = 0) to the package convention.
func (s *ADMM) multipliers(y, eq, in, lo, up []float64) {
	fill(eq, 0)
	fill(in, 0)
	fill(lo, 0)
	fill(up, 0)
	for i := 0; i < s.m; i++ {
		switch s.kind[i] {
		case 0:
			eq[s.ref[i]] = -y[i]
		case 1:
			in[s.ref[i]] = -y[i]
		case 2:
			if y[i] < 0 {
				lo[s.ref[i]] = -y[i]
			} else {
				up[s.ref[i]] = y[i]
			}
		}
	}
}

func (s *ADMM) mulA(x, dst []float64) {
	if s.m == 0 {
		return
	}
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: s.m, Cols: s.n, Stride: s.n, Data: s.a}, blas64.Vector{N: s.n, Data: x, Inc: 1}, 0, blas64.Vector{N: s.m, Data: dst, Inc: 1})
}

func (s *ADMM) mulAT(y, dst []float64) {
	if s.m == 0 {
		fill(dst[:s.n], 0)
		return
	}
	blas64.Gemv(blas.Trans, 1, blas64.General{Rows: s.m, Cols: s.n, Stride: s.n, Data: s.a}, blas64.Vector{N: s.m, Data: y, Inc: 1}, 0, blas64.Vector{N: s.n, Data: dst, Inc: 1})
}

// factor forms H + σI + AᵀRA and its Cholesky factor.
func (s *ADMM) factor(p *Problem, sigma float64) bool {
	n, m := s.n, s.m
	k := s.kmat
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := 0.0
			if p.H != nil {
				v = p.H.At(i, j)
			}
			if i == j {
				v += sigma
			}
			k[i*n+j] = v
		}
	}
	for r := 0; r < m; r++ {
		row := s.a[r*n : r*n+n]
		rh := s.rho[r]
		for i, ai := range row {
			if ai == 0 {
				continue
			}
			for j := i; j < n; j++ {
				k[i*n+j] += rh * ai * row[j]
			}
		}
	}
	return cholUpper(k, n)
}

// primalInfeasible tests the certificate Aᵀδy ≈ 0, uᵀδy⁺ + lᵀδy⁻ < 0.
func (s *ADMM) primalInfeasible(eps float64) bool {
	dn := 0.0
	for _, v := range s.dy {
		dn = math.Max(dn, math.Abs(v))
	}
	if dn == 0 {
		return false
	}
	s.mulAT(s.dy, s.atyb)
	for _, v := range s.atyb[:s.n] {
		if math.Abs(v) > eps*dn {
			return false
		}
	}
	sum := 0.0
	for i, v := range s.dy {
		if v > 0 {
			if math.IsInf(s.up[i], 1) {
				return false
			}
			sum += s.up[i] * v
		} else if v < 0 {
			if math.IsInf(s.lo[i], -1) {
				return false
			}
			sum += s.lo[i] * v
		}
	}
	return sum < -eps*dn
}

// dualInfeasible tests the certificate Hδx ≈ 0, cᵀδx < 0, Aδx in the recession cone.
func (s *ADMM) dualInfeasible(p *Problem, eps float64) bool {
	n := s.n
	dn := 0.0
	for _, v := range s.dx {
		dn = math.Max(dn, math.Abs(v))
	}
	if dn == 0 {
		return false
	}
	if dot(p.C, s.dx) >= -eps*dn {
		return false
	}
	if p.H != nil {
		blas64.Symv(1, p.H.RawSymmetric(), blas64.Vector{N: n, Data: s.dx, Inc: 1}, 0, blas64.Vector{N: n, Data: s.tmp, Inc: 1})
		for _, v := range s.tmp[:n] {
			if math.Abs(v) > eps*dn {
				return false
			}
		}
	}
	s.mulA(s.dx, s.zt)
	for i := 0; i < s.m; i++ {
		v := s.zt[i]
		if !math.IsInf(s.up[i], 1) && v > eps*dn {
			return false
		}
		if !math.IsInf(s.lo[i], -1) && v < -eps*dn {
			return false
		}
	}
	return true
}

// polish solves the KKT system of the guessed active set and keeps the result if
// it has smaller KKT residuals.
func (s *ADMM) polish(p *Problem, n, meq, min int, res *Result) {
	act := s.act[:0]
	for i := 0; i < s.m; i++ {
		if s.lo[i] == s.up[i] || (s.z[i]-s.lo[i] < -s.y[i]) || (s.up[i]-s.z[i] < s.y[i]) {
			act = append(act, i)
		}
	}
	na := len(act)
	N := n + na
	const delta = 1e-9 // regularisation of the polish system
	k := s.kkt[:N*N]
	build := func(reg float64) {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := 0.0
				if p.H != nil {
					v = p.H.At(i, j)
				}
				k[i*N+j] = v
			}
			k[i*N+i] += reg
		}
		for t, r := range act {
			row := s.a[r*n : r*n+n]
			for j := 0; j < n; j++ {
				k[(n+t)*N+j] = row[j]
				k[j*N+n+t] = row[j]
			}
			for u := 0; u < na; u++ {
				k[(n+t)*N+n+u] = 0
			}
			k[(n+t)*N+n+t] = -reg
		}
	}
	rhs := s.prhs[:N]
	for j := 0; j < n; j++ {
		rhs[j] = -p.C[j]
	}
	for t, r := range act {
		if s.y[r] > 0 || (s.lo[r] == s.up[r]) {
			rhs[n+t] = s.up[r]
			if s.y[r] <= 0 {
				rhs[n+t] = s.lo[r]
			}
		} else {
			rhs[n+t] = s.lo[r]
		}
	}
	build(delta)
	ipiv := s.ipiv[:N]
	if !luFactor(k, N, ipiv) {
		return
	}
	sol := s.psol[:N]
	copy(sol, rhs)
	luSolve(k, N, ipiv, sol)
	// iterative refinement against the unregularised system
	rs := s.pres[:N]
	for ref := 0; ref < 5; ref++ {
		for i := 0; i < N; i++ {
			v := rhs[i]
			if i < n {
				for j := 0; j < n; j++ {
					h := 0.0
					if p.H != nil {
						h = p.H.At(i, j)
					}
					v -= h * sol[j]
				}
				for t, r := range act {
					v -= s.a[r*n+i] * sol[n+t]
				}
			} else {
				r := act[i-n]
				for j := 0; j < n; j++ {
					v -= s.a[r*n+j] * sol[j]
				}
			}
			rs[i] = v
		}
		luSolve(k, N, ipiv, rs)
		for i := range sol {
			sol[i] += rs[i]
		}
	}
	// candidate x and y (OSQP sign: Hx + c + Aᵀy = 0, the system above uses +Aᵀλ = −c)
	yc := s.dy
	fill(yc, 0)
	for t, r := range act {
		yc[r] = sol[n+t]
	}
	for i := 0; i < s.m; i++ {
		// inactive or wrongly signed multipliers make the guess invalid
		if s.lo[i] != s.up[i] && ((yc[i] > 0 && math.IsInf(s.up[i], 1)) || (yc[i] < 0 && math.IsInf(s.lo[i], -1))) {
			return
		}
	}
	if s.eqv == nil || len(s.eqv) != meq || len(s.inv) != min || len(s.lov) != n {
		s.eqv, s.inv, s.lov, s.upv = make([]float64, meq), make([]float64, min), make([]float64, n), make([]float64, n)
	}
	s.multipliers(yc, s.eqv, s.inv, s.lov, s.upv)
	xp := s.px
	copy(xp, sol[:n])
	kk, err := residuals(p, n, meq, min, xp, s.eqv, s.inv, s.lov, s.upv, s.atyb, s.tmp[:n])
	if err != nil || kk.Max() >= res.KKT.Max() {
		return
	}
	res.KKT = kk
	copy(res.X, xp)
	copy(res.Eq, s.eqv)
	copy(res.Ineq, s.inv)
	copy(res.Lower, s.lov)
	copy(res.Upper, s.upv)
	copy(s.y, yc)
}

// luFactor computes an LU factorisation with partial pivoting of the row-major
// n×n matrix a in place (unblocked, allocation-free); it reports false on an
// exactly zero pivot.
func luFactor(a []float64, n int, piv []int) bool {
	for k := 0; k < n; k++ {
		p, best := k, math.Abs(a[k*n+k])
		for i := k + 1; i < n; i++ {
			if v := math.Abs(a[i*n+k]); v > best {
				p, best = i, v
			}
		}
		piv[k] = p
		if best == 0 {
			return false
		}
		if p != k {
			rk, rp := a[k*n:k*n+n], a[p*n:p*n+n]
			for j := range rk {
				rk[j], rp[j] = rp[j], rk[j]
			}
		}
		d := a[k*n+k]
		rk := a[k*n+k+1 : k*n+n]
		for i := k + 1; i < n; i++ {
			f := a[i*n+k] / d
			a[i*n+k] = f
			if f == 0 {
				continue
			}
			ri := a[i*n+k+1 : i*n+n]
			for j := range ri {
				ri[j] -= f * rk[j]
			}
		}
	}
	return true
}

// luSolve solves a x = b in place with the factorisation of luFactor.
func luSolve(a []float64, n int, piv []int, b []float64) {
	for k := 0; k < n; k++ {
		if p := piv[k]; p != k {
			b[k], b[p] = b[p], b[k]
		}
	}
	for i := 1; i < n; i++ {
		s := b[i]
		for j := 0; j < i; j++ {
			s -= a[i*n+j] * b[j]
		}
		b[i] = s
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= a[i*n+j] * b[j]
		}
		b[i] = s / a[i*n+i]
	}
}
