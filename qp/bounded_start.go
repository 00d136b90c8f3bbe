package qp

import (
	"context"
	"math"

	"ukm/linalg"
)

// start finds a feasible point and the initial free set. It returns NotRun
// when the main iteration should run.
func (b *Bounded) start(ctx context.Context, start *Start, set Settings, res *Result) (linalg.Status, error) {
	p, n, k := b.p, b.n, b.k
	x := b.x
	for j := 0; j < n; j++ {
		v := 0.0
		if start != nil && start.X != nil {
			v = start.X[j] // finite: checked by Solve
		}
		x[j] = math.Min(math.Max(v, p.lo(j)), p.up(j))
	}
	bmax := 0.0
	for _, v := range p.Beq {
		bmax = math.Max(bmax, math.Abs(v))
	}
	feasTol := set.Tol * (1 + bmax)
	viol := func() (float64, int, float64) {
		worst, wr, wres := 0.0, -1, 0.0
		for r := 0; r < k; r++ {
			s := p.Beq[r]
			for j, a := range p.Aeq.RawRowView(r) {
				s -= a * x[j]
			}
			if math.Abs(s) > worst {
				worst, wr, wres = math.Abs(s), r, s
			}
		}
		return worst, wr, wres
	}
	if v, r, rs := viol(); v > feasTol && k == 1 {
		// one equality: move the single variable that restores it with the
		// largest coefficient, if its bounds allow
		best, bj := 0.0, -1
		for j, a := range p.Aeq.RawRowView(r) {
			if a == 0 {
				continue
			}
			nv := x[j] + rs/a
			if nv >= p.lo(j) && nv <= p.up(j) && math.Abs(a) > best {
				best, bj = math.Abs(a), j
			}
		}
		if bj >= 0 {
			x[bj] += rs / p.Aeq.At(r, bj)
		}
	}
	if v, _, _ := viol(); v > feasTol {
		// general case: phase 1 of ActiveSet on the feasibility problem
		if b.lp == nil {
			b.lp = NewActiveSet(nil)
		}
		b.lpP = Problem{G: b.gz[:n], Aeq: p.Aeq, Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
		fill(b.gz[:n], 0)
		b.lp.Settings = Settings{MaxIter: set.MaxIter, Tol: set.Tol, SkipPSDCheck: true}
		if err := b.lp.Solve(ctx, &b.lpP, &Start{X: x}, &b.lpRes); err != nil {
			return linalg.NotRun, err
		}
		res.Phase1Iterations = b.lpRes.Iterations
		res.Iterations = b.lpRes.Iterations
		if b.lpRes.Status != linalg.Optimal {
			if b.lpRes.Status == linalg.Infeasible {
				return linalg.Infeasible, nil
			}
			return b.lpRes.Status, nil
		}
		copy(x, b.lpRes.X)
	}
	// states
	b.free = b.free[:0]
	for j := 0; j < n; j++ {
		switch {
		case x[j] == p.lo(j):
			b.state[j] = stLower
		case x[j] == p.up(j):
			b.state[j] = stUpper
		default:
			b.state[j] = stFree
			b.free = append(b.free, j)
		}
	}
	// complete the basis of E with bound variables if the free ones do not span it
	b.reduce()
	if b.rank < k {
		for j := 0; j < n && b.rank < k; j++ {
			if b.state[j] == stFree {
				continue
			}
			b.state[j] = stFree
			b.free = append(b.free, j)
			old := b.rank
			b.reduce()
			if b.rank == old {
				b.free = b.free[:len(b.free)-1]
				b.state[j] = stLower
				if x[j] == p.up(j) {
					b.state[j] = stUpper
				}
			}
		}
		b.reduce()
	}
	if b.factor() >= 0 {
		// not positive definite: hold nonbasic free variables by temporary bounds
		keep := b.free[:0]
		isBasic := func(pos int) bool {
			for q := 0; q < b.rank; q++ {
				if b.basic[q] == pos {
					return true
				}
			}
			return false
		}
		for pos, j := range b.free {
			if isBasic(pos) {
				keep = append(keep, j)
			} else {
				b.state[j] = stTemp
			}
		}
		b.free = keep
	}
	return linalg.NotRun, nil
}
