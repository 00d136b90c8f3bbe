package qp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/gonum"

	"ukm/linalg"
)

// iterate runs ADMM (and its ActiveSet finish) on p, the problem solved or
// its equilibrated copy, from start, writing the outcome in p's variables.
func (s *ADMM) iterate(ctx context.Context, p *Problem, start *Start, set Settings, res *Result) error {
	n, meq, min, m := s.n, len(p.Beq), len(p.Bin), s.m
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
	resetFarkas(res)
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
		copyFarkas(&res.Farkas, &fr.Farkas)
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
			copyFarkas(&res.Farkas, &fr.Farkas)
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
