package qp

import "ukm/linalg"

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
	copyFarkas(&dst.Farkas, &src.Farkas)
	dst.Status, dst.Obj, dst.KKT, dst.HShift = src.Status, src.Obj, src.KKT, src.HShift
}

// report writes the phase-2 outcome st at the current point and working set
// into res: x, the multipliers, the working set, the objective and the KKT
// residuals. It uses a.g and a.v as scratch.
func (a *ActiveSet) report(st linalg.Status, res *Result) {
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
	case linalg.Unbounded:
		res.Ray = grow(res.Ray, n)
		copy(res.Ray, a.w[:n])
	case linalg.Optimal:
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

// farkasDrop is the relative size below which a weight of a certificate is
// taken for rounding noise and dropped (see Farkas.absorbBounds): the
// multipliers of constraints in the working set at a zero multiplier come out
// of the triangular solves at about ε·κ relative to the largest. Weights are
// dropped once, in the variables the engine worked in (equilibrated or not);
// mapping them back multiplies them by powers of two, which changes neither
// measure, so the check on the problem given drops nothing more.
const farkasDrop = 1e-12

// finish completes a solve of p whose engine ran on the scaled copy if scaled:
// it maps the answer back, measures the objective and the KKT residuals on p,
// verifies an infeasibility certificate (an Infeasible result without a
// verified one becomes NumericalFailure), and demotes an Optimal answer that
// fails the KKT guard.
func (a *ActiveSet) finish(p *Problem, scaled bool, set Settings, res *Result) {
	n, meq, min := a.n, a.meq, a.min
	if scaled {
		a.scale.unscale(res, meq)
		if res.Status != linalg.Infeasible && res.Status != linalg.Canceled {
			res.Obj = objective(p, res.X, a.hz)
			res.KKT, _ = residuals(p, n, meq, min, res.X, res.Eq, res.Ineq, res.Lower, res.Upper, a.g, a.v)
		}
	}
	if res.Status == linalg.Infeasible {
		f := &res.Farkas
		f.absorbBounds(p, n, meq, min, a.v, 0) // cleaned in the engine's variables
		f.Residual, f.Gap = f.measure(p, n, meq, min, a.g, a.hz)
		if !f.verified(set.Tol) {
			res.Status = linalg.NumericalFailure
			resetFarkas(res)
		}
	}
	if res.Status == linalg.Optimal && res.KKT.Max() > optimalGuard {
		res.Status = linalg.NumericalFailure
	}
}
