package qp

import (
	"context"
	"math"

	"ukm/linalg"
)

var _ Solver = (*Bounded)(nil)

// Bounded is a primal active-set solver specialised to problems with bounds and a
// few equality rows and no general inequalities (Problem.Ain must be nil):
//
//	minimize 1/2 xᵀHx + gᵀx  subject to  Aeq x = Beq,  Lower <= x <= Upper.
//
// The working set consists of bounds only, so the null space of the working set is
// a set of free coordinates F; the equality rows restricted to F are eliminated by
// variable reduction (a basis B ⊂ F chosen by Gauss–Jordan elimination in the
// order variables became free). The reduced Hessian on F has size |F| − rank(Aeq)
// and is rebuilt and factorised in each iteration: with few free variables at the
// optimum (the SKL case) this costs far less than updating an n×n factorisation.
// Singular H is handled by inertia control as in ActiveSet (interior start
// variables are held by temporary bounds and released one at a time).
//
// An iteration costs O(|F|²·(rank(Aeq) + |F|) + n·|F|). A start point that
// violates the equality rows is made feasible by the phase 1 of ActiveSet,
// whose certificate an Infeasible result carries.
// A Bounded holds its workspace and re-solves problems of the same size
// without allocating. It is not safe for concurrent use.
type Bounded struct {
	Settings Settings

	p      *Problem
	n, k   int
	state  []int8 // free, atLower, atUpper, temp
	free   []int  // F, in the order variables became free
	basic  []int  // basic columns (variable ids), pivot order
	pivRow []int  // row of E for each pivot
	nonb   []int  // nonbasic free variables, F order
	ew     []float64
	cm     []float64 // C = E_B⁻¹ E_N, rank × nz (stride n)
	mz     []float64 // reduced Hessian / factor, nz × nz (stride n)
	u      []float64 // n × n scratch (HZ columns)
	x, g   []float64
	p_, y  []float64
	gz, sv []float64
	eb     []float64 // rank × rank scratch
	rank   int
	hnorm  float64

	noKKT   bool // skip the residuals (the caller measures them in its own space)
	trusted bool // skip the value checks of p (an internal caller built it from checked data)

	reg   regularizer
	lp    *ActiveSet
	lpP   Problem
	lpRes Result
}

const (
	stFree int8 = iota
	stLower
	stUpper
	stTemp
)

// NewBounded returns a Bounded solver with the given settings (nil = defaults).
func NewBounded(s *Settings) *Bounded {
	b := &Bounded{}
	if s != nil {
		b.Settings = *s
	}
	return b
}

func (b *Bounded) alloc(n, k int) {
	b.n, b.k = n, k
	if cap(b.state) < n {
		b.state = make([]int8, n)
	}
	b.state = b.state[:n]
	b.free = growInt(b.free, n)[:0]
	b.basic = growInt(b.basic, k)
	b.pivRow = growInt(b.pivRow, k)
	b.nonb = growInt(b.nonb, n)
	b.ew = grow(b.ew, k*n)
	b.cm = grow(b.cm, k*n)
	b.mz = grow(b.mz, n*n)
	b.u = grow(b.u, n*n)
	b.x = grow(b.x, n)
	b.g = grow(b.g, n)
	b.p_ = grow(b.p_, n)
	b.y = grow(b.y, k)
	b.gz = grow(b.gz, n)
	b.sv = grow(b.sv, n)
	b.eb = grow(b.eb, k*k+k)
}

func (b *Bounded) h(i, j int) float64 {
	raw := b.p.H.RawSymmetric()
	if i > j {
		i, j = j, i
	}
	return raw.Data[i*raw.Stride+j]
}

// Solve implements Solver. A problem with general inequalities (Ain) is an
// error wrapping linalg.ErrShape.
func (b *Bounded) Solve(ctx context.Context, p *Problem, start *Start, res *Result) error {
	if b == nil {
		return linalg.Errorf(linalg.ErrSettings, opBounded, "nil solver")
	}
	if err := linalg.CheckContext(opBounded, ctx); err != nil {
		return err
	}
	var n, meq, min int
	var err error
	if b.trusted {
		n, meq = len(p.G), len(p.Beq)
	} else if n, meq, min, err = p.dims(opBounded); err != nil {
		return err
	}
	if min != 0 {
		return linalg.Errorf(linalg.ErrShape, opBounded, "Bounded solves problems without general inequalities (Ain has %d rows); use ActiveSet", min)
	}
	if res == nil {
		return linalg.Errorf(linalg.ErrSettings, opBounded, "nil result")
	}
	if err := b.Settings.check(opBounded); err != nil {
		return err
	}
	if err := checkStart(opBounded, start, n); err != nil {
		return err
	}
	set := b.Settings.resolve(n, meq)
	b.alloc(n, meq)
	b.p = p
	res.HShift = 0
	if !set.SkipPSDCheck {
		reg, err := checkPSD(opBounded, p.H, set.PSDTol, b.u)
		if err != nil {
			return err
		}
		if reg {
			p = b.reg.apply(p, set.PSDTol)
			b.p = p
			res.HShift = b.reg.shift
		}
	}
	if ctx.Err() != nil {
		return canceled(ctx, opBounded, res)
	}
	b.hnorm = 0
	if p.H != nil {
		raw := p.H.RawSymmetric()
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				b.hnorm = fmax(b.hnorm, math.Abs(raw.Data[i*raw.Stride+j]))
			}
		}
	}
	res.Status = linalg.NotRun
	res.X = grow(res.X, n)
	res.Ray = res.Ray[:0]
	res.Eq, res.Ineq = grow(res.Eq, meq), res.Ineq[:0]
	res.Lower, res.Upper = grow(res.Lower, n), grow(res.Upper, n)
	res.Iterations, res.Phase1Iterations, res.PolishIterations = 0, 0, 0
	res.Working = res.Working[:0]
	resetFarkas(res)

	st, err := b.start(ctx, start, set, res)
	if err == nil && st == linalg.NotRun {
		st, err = b.run(ctx, set.MaxIter, res)
	}
	if err != nil {
		if ctx.Err() != nil {
			return canceled(ctx, opBounded, res)
		}
		return err
	}
	res.Status = st
	fill(res.Eq, 0)
	fill(res.Lower, 0)
	fill(res.Upper, 0)
	if st == linalg.Infeasible {
		// phase 1 ran on the same constraints (see start): its certificate
		copyFarkas(&res.Farkas, &b.lpRes.Farkas)
		res.Farkas.Ineq = res.Farkas.Ineq[:0]
	}
	if st == linalg.Infeasible || (st == linalg.IterationLimit && res.Iterations == 0) {
		fill(res.X, math.NaN())
		return nil
	}
	copy(res.X, b.x)
	if st == linalg.Optimal {
		copy(res.Eq, b.y)
		for j := 0; j < n; j++ {
			zj := b.g[j]
			for r := 0; r < meq; r++ {
				zj -= p.Aeq.At(r, j) * b.y[r]
			}
			switch b.state[j] {
			case stLower:
				res.Lower[j] = zj
			case stUpper:
				res.Upper[j] = -zj
			}
		}
	}
	if st == linalg.Unbounded {
		res.Ray = grow(res.Ray, n)
		copy(res.Ray, b.p_)
	}
	for j := 0; j < n; j++ {
		switch b.state[j] {
		case stLower:
			res.Working = append(res.Working, meq+j)
		case stUpper:
			res.Working = append(res.Working, meq+n+j)
		}
	}
	if !b.noKKT {
		res.Obj = objective(p, res.X, b.gz)
		res.KKT, _ = residuals(p, n, meq, 0, res.X, res.Eq, nil, res.Lower, res.Upper, b.sv, b.gz)
		if res.Status == linalg.Optimal && res.KKT.Max() > optimalGuard {
			res.Status = linalg.NumericalFailure
		}
	}
	return nil
}
