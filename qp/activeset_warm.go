package qp

import (
	"context"
	"errors"

	"ukm/linalg"
)

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
		if errors.Is(err, linalg.ErrNotPSD) {
			return false, nil // semidefinite: the primal method decides
		}
		return false, err
	}
	c := &a.crashRes
	if c.Status != linalg.Optimal {
		return false, nil // only the primal phase 1 declares infeasibility
	}
	if c.KKT.Max() <= crashKKT {
		res.Status, res.Obj, res.KKT = linalg.Optimal, c.Obj, c.KKT
		res.Iterations, res.Phase1Iterations, res.PolishIterations = c.Iterations, 0, 0
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

// fallback runs GoldfarbIdnani on p (the problem solved) after the primal
// method ended in NumericalFailure, and reports its outcome in res if it is
// Optimal or Infeasible (its certificate verified by GoldfarbIdnani itself);
// otherwise res is left as it is. An H that is not positive definite, or
// NoDualCrash, leaves res as it is too.
func (a *ActiveSet) fallback(ctx context.Context, p *Problem, set Settings, res *Result) error {
	if a.NoDualCrash || p.H == nil {
		return nil
	}
	if a.crash == nil {
		a.crash = NewGoldfarbIdnani(nil)
	}
	a.crash.Settings = Settings{MaxIter: set.MaxIter, Tol: set.Tol}
	c := &a.crashRes
	if err := a.crash.Solve(ctx, p, nil, c); err != nil {
		if ctx.Err() != nil {
			return canceled(ctx, opActiveSet, res)
		}
		return nil // not positive definite: the primal outcome stands
	}
	if c.Status != linalg.Optimal && c.Status != linalg.Infeasible {
		return nil
	}
	iter, p1, shift := res.Iterations+c.Iterations, res.Phase1Iterations, res.HShift
	copyResult(res, c)
	res.Iterations, res.Phase1Iterations, res.PolishIterations = iter, p1, 0
	res.HShift = shift
	return nil
}
