package qp

import (
	"context"
	"math"

	"ukm/linalg"
)

// findFeasible is phase 1 of Solve: it puts a feasible point into a.x[:n],
// starting from start.X (clipped into the bounds) or 0. If the start point
// violates the rows by more than feasTol it minimises a single violation
// variable s >= 0 over (x, s), rows a·x + s·σ ⋛ b with σ the start's
// violations normalised to at most 1, starting at s = the largest violation;
// s > feasTol at the optimum proves the problem infeasible.
//
// There are at most two attempts: from the start point and, for a warm start
// whose phase 1 fails, from 0; only the last may declare the problem
// infeasible. found = false means the outcome (Infeasible, or what stopped
// phase 1) has been written to res; keepWorking = false means phase 1 ran, so
// the start's working set no longer applies. A non-nil error is ctx.Err().
func (a *ActiveSet) findFeasible(ctx context.Context, start *Start, feasTol float64, res *Result) (found, keepWorking bool, err error) {
	p, n, meq, min := a.p, a.n, a.meq, a.min
	x := a.x[:n+1]
	hasStart := start != nil && start.X != nil
	hnorm := a.hnorm
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
			}
			x[j] = math.Min(math.Max(v, p.lo(j)), p.up(j))
		}
		a.phase1 = false
		a.dim = n
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
			return true, true, nil
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
		a.dim = n + 1
		x[n] = viol
		a.hnorm = 0
		a.setNorms()
		a.startWorking(a.activeBounds(x), 0, false)
		st, err := a.run(ctx)
		a.hnorm = hnorm
		res.Phase1Iterations = a.iter
		if err != nil {
			return false, false, err
		}
		if st == linalg.Optimal && x[n] <= feasTol {
			a.phase1 = false
			a.dim = n
			return true, false, nil
		}
		if attempt < lastAttempt {
			// A nearly feasible start can also make the single-s phase 1
			// degenerate (violations of dependent rows that are not exactly
			// proportional); confirm any failure from the cold start.
			continue
		}
		fill(res.X, math.NaN())
		res.Iterations = a.iter
		switch {
		case st == linalg.Optimal:
			res.Status = linalg.Infeasible
		case st == linalg.Unbounded:
			res.Status = linalg.NumericalFailure
		default:
			res.Status = st
		}
		return false, false, nil
	}
}
