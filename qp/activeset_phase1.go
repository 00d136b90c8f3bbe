package qp

import (
	"context"
	"math"

	"ukm/linalg"
)

// Where phase 1 starts (see findFeasible).
const (
	fromStart   = iota // the warm start point
	fromZero           // the origin
	fromCurrent        // the point reached by the previous phase 1
)

// maxRestarts bounds the restarts of phase 1 from its own end point (see
// findFeasible).
const maxRestarts = 3

// Phase 1's box. A linear phase 1 can lower the violation s along a direction
// in which the variables without bounds move by far more than s drops, and
// reach s = 0 only at a point so far away that rounding of the step (ε times
// its length) violates the rows again. Phase 1 therefore first runs with the
// artificial bounds |x_j| <= R on the variables that have none, R = boxFirst·
// (1 + max(‖x₀‖∞, max|b|)); a feasible point found inside the box is feasible.
// If phase 1 ends with s > 0 and the box takes part in the certificate (which
// then does not verify: the box is not a constraint of the problem), it is
// run again with R·boxGrow, and finally without the box.
const (
	boxFirst = 1e4
	boxGrow  = 1e4
	boxTries = 2
)

// findFeasible is phase 1 of Solve: it puts a feasible point into a.x[:n],
// starting from start.X (clipped into the bounds) or 0. If the start point
// violates the rows by more than feasTol it minimises a single violation
// variable s >= 0 over (x, s), rows a·x + s·σ ⋛ b with σ the start's
// violations normalised to at most 1, starting at s = the largest violation,
// inside phase 1's box (see boxFirst). Phase 1 stops as soon as s reaches 0.
// s > feasTol at its optimum proves the problem infeasible if the multipliers
// there make a certificate that verifies (see phase1Certificate).
//
// The point phase 1 ends at is checked against the rows themselves: a long
// step can leave rows that were taken for dependent violated beyond rounding.
// Phase 1 is then restarted from that point (at most maxRestarts times), with
// the violations measured there.
//
// A warm start whose phase 1 fails is retried from 0; only attempts from 0
// may declare the problem infeasible. found = false means the outcome
// (Infeasible with its certificate in the engine's problem, or what stopped
// phase 1) has been written to res; keepWorking = false means phase 1 ran, so
// the start's working set no longer applies. A non-nil error is ctx.Err().
func (a *ActiveSet) findFeasible(ctx context.Context, start *Start, feasTol float64, res *Result) (found, keepWorking bool, err error) {
	p, n := a.p, a.n
	x := a.x[:n+1]
	hnorm := a.hnorm
	from := fromZero
	if start != nil && start.X != nil {
		from = fromStart
	}
	ran, restarts, box, tries := false, 0, 0.0, 0
	for {
		for j := 0; j < n; j++ {
			v := x[j]
			switch from {
			case fromStart:
				v = start.X[j]
			case fromZero:
				v = 0
			}
			x[j] = math.Min(math.Max(v, p.lo(j)), p.up(j))
		}
		a.phase1 = false
		a.dim = n
		viol := a.violations(x)
		if viol <= 0.1*feasTol || (ran && viol <= feasTol) {
			return true, !ran, nil
		}
		if box == 0 && tries == 0 {
			box = a.boxSize(x)
		}
		// phase 1 in (x, s): rows a x + s·(viol/vmax) ⋛ b, minimize s >= 0,
		// starting from s = vmax (the coefficients are normalised so that the
		// s column is as well scaled as the rows, however small the violation)
		for i := range a.sEq {
			a.sEq[i] /= viol
		}
		for i := range a.sIn {
			a.sIn[i] /= viol
		}
		a.phase1 = true
		a.dim = n + 1
		x[n] = viol
		a.hnorm = 0
		a.box = box
		a.setNorms()
		a.startWorking(a.activeBounds(x), 0, false)
		st, err := a.run(ctx)
		a.hnorm = hnorm
		ran = true
		res.Phase1Iterations = a.iter
		if err != nil {
			a.box = 0
			return false, false, err
		}
		if st == linalg.Optimal && x[n] <= feasTol {
			a.box = 0
			if restarts < maxRestarts {
				// checked (and restarted if need be) at the top
				restarts++
				from = fromCurrent
				continue
			}
			st = linalg.NumericalFailure
		}
		if from == fromStart {
			// A nearly feasible start can also make the single-s phase 1
			// degenerate (violations of dependent rows that are not exactly
			// proportional); confirm any failure from the cold start.
			a.box = 0
			from = fromZero
			continue
		}
		if st == linalg.Optimal {
			// s > 0 at the optimum: infeasible, if the certificate verifies
			if a.phase1Certificate(res) {
				a.box = 0
				a.phase1, a.dim = false, n
				fill(res.X, math.NaN())
				res.Iterations = a.iter
				res.Status = linalg.Infeasible
				return false, false, nil
			}
			resetFarkas(res)
			st = linalg.NumericalFailure
		}
		a.box = 0
		if box > 0 && st != linalg.IterationLimit {
			// the box may be what stopped phase 1: widen it, then drop it
			tries++
			box *= boxGrow
			if tries >= boxTries {
				box = 0
			}
			from, restarts = fromZero, 0
			continue
		}
		a.phase1, a.dim = false, n
		fill(res.X, math.NaN())
		res.Iterations = a.iter
		res.Status = st
		if st == linalg.Unbounded {
			res.Status = linalg.NumericalFailure
		}
		return false, false, nil
	}
}

// boxSize returns the half-width of phase 1's box for the start x.
func (a *ActiveSet) boxSize(x []float64) float64 {
	m := 1.0
	for _, v := range x[:a.n] {
		m = fmax(m, math.Abs(v))
	}
	for i := 0; i < a.meq; i++ {
		m = fmax(m, math.Abs(a.p.Beq[i]))
	}
	for i := 0; i < a.min; i++ {
		m = fmax(m, math.Abs(a.p.Bin[i]))
	}
	return boxFirst * (1 + m)
}

// violations sets a.sEq and a.sIn to the violations of the rows at x (the
// equality residuals b − aᵀx, and max(0, b − aᵀx) for the inequalities, with
// the right-hand sides as the perturbation has them) and returns the largest.
func (a *ActiveSet) violations(x []float64) float64 {
	viol := 0.0
	for i := 0; i < a.meq; i++ {
		a.sEq[i] = a.rhs(i) - a.dot(i, x)
		viol = math.Max(viol, math.Abs(a.sEq[i]))
	}
	for i := 0; i < a.min; i++ {
		a.sIn[i] = math.Max(0, a.rhs(a.meq+i)-a.dot(a.meq+i, x))
		viol = math.Max(viol, a.sIn[i])
	}
	return viol
}

// phase1Certificate writes an infeasibility certificate for the engine's
// problem into res.Farkas from the multipliers of the phase-1 optimum, and
// reports whether it verifies at the tolerance. There e_s = Σ_k λ_k·a_k over
// the working set in (x, s), so the x-parts of the weighted rows and bounds
// cancel and the weighted right-hand sides add up to s > 0 (see Farkas). The
// multipliers are refined first; the bound weights are recomputed from the
// row weights (Farkas.absorbBounds), which leaves a residual in the columns
// where phase 1's box, not a bound of the problem, was needed.
func (a *ActiveSet) phase1Certificate(res *Result) bool {
	for k := 0; k < certRefine; k++ {
		a.refineMultipliers()
	}
	f := growFarkas(res, a.n, a.meq, a.min)
	for k := 0; k < a.m; k++ {
		kk, j := a.kind(a.work[k])
		switch kk {
		case 0:
			f.Eq[j] = a.lam[k]
		case 1:
			f.Ineq[j] = a.lam[k]
		}
	}
	f.absorbBounds(a.p, a.n, a.meq, a.min, a.v, farkasDrop)
	f.Residual, f.Gap = f.measure(a.p, a.n, a.meq, a.min, a.w, a.hz)
	return f.verified(a.set.Tol)
}

// certRefine is the number of refinement steps of the phase-1 multipliers
// before they become a certificate: the triangular solves leave errors of
// about κ·ε relative to the largest multiplier in them, and steps of
// refinement against the residual, computed term by term, bring the
// certificate's residual down towards the rounding of its own terms, which
// matters in columns whose terms are small (a free variable in rows of small
// weight).
const certRefine = 5

// refineMultipliers is one step of iterative refinement of the multipliers
// a.lam of the working set: with ρ = g − Σ_k λ_k·a_k computed from the rows
// themselves, λ += R⁻¹Q₁ᵀρ. It uses a.w and a.hz as scratch.
func (a *ActiveSet) refineMultipliers() {
	N, m := a.dim, a.m
	rho := a.w[:N]
	copy(rho, a.g[:N])
	for k := 0; k < m; k++ {
		l := a.lam[k]
		if l == 0 {
			continue
		}
		kk, j := a.kind(a.work[k])
		switch kk {
		case 0, 1:
			row, sc := a.generalRow(kk, j)
			for i, v := range row {
				rho[i] -= l * v
			}
			if a.phase1 {
				rho[a.n] -= l * sc
			}
		case 3:
			rho[j] += l
		default:
			rho[j] -= l
		}
	}
	d := a.hz[:m]
	a.solveMult(rho, d)
	for k := range d {
		a.lam[k] += d[k]
	}
}
