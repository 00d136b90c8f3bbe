package qp

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
)

// Bounded is a primal active-set solver specialised to problems with bounds and a
// few equality rows and no general inequalities (Problem.Ain must be nil):
//
//	minimize 1/2 xᵀHx + cᵀx  subject to  Aeq x = Beq,  Lower <= x <= Upper.
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
// A Bounded holds its workspace and re-solves problems of the same size without
// allocating. It is not safe for concurrent use.
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

// reduce chooses the basis within F and computes C = E_B⁻¹ E_N by Gauss–Jordan
// elimination on a copy of E_F.
func (b *Bounded) reduce() {
	f, k, n := len(b.free), b.k, b.n
	ew := b.ew
	for r := 0; r < k; r++ {
		row := b.p.Aeq.RawRowView(r)
		for c, j := range b.free {
			ew[r*n+c] = row[j]
		}
	}
	b.rank = 0
	b.nonb = b.nonb[:0]
	used := 0 // rows [0,used) are pivot rows (after swaps)
	for c := 0; c < f; c++ {
		best, br := 0.0, -1
		cn := 0.0
		for r := 0; r < k; r++ {
			cn = math.Max(cn, math.Abs(b.p.Aeq.At(r, b.free[c])))
		}
		for r := used; r < k; r++ {
			if v := math.Abs(ew[r*n+c]); v > best {
				best, br = v, r
			}
		}
		if br < 0 || best <= 1e-12*cn || used == k {
			b.nonb = append(b.nonb, c)
			continue
		}
		if br != used {
			for cc := 0; cc < f; cc++ {
				ew[br*n+cc], ew[used*n+cc] = ew[used*n+cc], ew[br*n+cc]
			}
		}
		pv := ew[used*n+c]
		for cc := 0; cc < f; cc++ {
			ew[used*n+cc] /= pv
		}
		for r := 0; r < k; r++ {
			if r == used {
				continue
			}
			if m := ew[r*n+c]; m != 0 {
				for cc := 0; cc < f; cc++ {
					ew[r*n+cc] -= m * ew[used*n+cc]
				}
			}
		}
		b.basic[used] = c // position in F
		used++
	}
	b.rank = used
	for q := 0; q < used; q++ {
		for t, c := range b.nonb {
			b.cm[q*n+t] = ew[q*n+c]
		}
	}
}

// factor builds the reduced Hessian on the nonbasic free variables and factorises
// it in place. It returns the index of the first non-positive pivot, or -1.
func (b *Bounded) factor() int {
	n := b.n
	nz := len(b.nonb)
	if nz == 0 {
		return -1
	}
	if b.p.H == nil || b.hnorm == 0 {
		return 0
	}
	f := len(b.free)
	// u_t[i] = (H z_t)[F_i]
	for t, ct := range b.nonb {
		jt := b.free[ct]
		for i, fi := range b.free {
			s := b.h(fi, jt)
			for q := 0; q < b.rank; q++ {
				s -= b.cm[q*n+t] * b.h(fi, b.free[b.basic[q]])
			}
			b.u[t*n+i] = s
		}
		_ = f
	}
	for s, cs := range b.nonb {
		for t := s; t < nz; t++ {
			v := b.u[t*n+cs]
			for q := 0; q < b.rank; q++ {
				v -= b.cm[q*n+s] * b.u[t*n+b.basic[q]]
			}
			b.mz[s*n+t] = v
		}
	}
	tol := 1e-13 * b.hnorm
	mz := b.mz
	for kk := 0; kk < nz; kk++ {
		d := mz[kk*n+kk]
		for t := 0; t < kk; t++ {
			d -= mz[t*n+kk] * mz[t*n+kk]
		}
		if d <= tol {
			mz[kk*n+kk] = 0
			return kk
		}
		d = math.Sqrt(d)
		mz[kk*n+kk] = d
		for l := kk + 1; l < nz; l++ {
			s := mz[kk*n+l]
			for t := 0; t < kk; t++ {
				s -= mz[t*n+kk] * mz[t*n+l]
			}
			mz[kk*n+l] = s / d
		}
	}
	return -1
}

// expand sets p (full length) from the nonbasic step s.
func (b *Bounded) expand(s, p []float64) {
	n := b.n
	for i := range p {
		p[i] = 0
	}
	for t, ct := range b.nonb {
		p[b.free[ct]] = s[t]
	}
	for q := 0; q < b.rank; q++ {
		v := 0.0
		for t := range b.nonb {
			v -= b.cm[q*n+t] * s[t]
		}
		p[b.free[b.basic[q]]] = v
	}
}

// duals computes y (E_Bᵀ y = g_B over pivot rows) and returns it in b.y; the
// reduced cost of variable j is then g_j − E_jᵀ y.
func (b *Bounded) duals() {
	k, r := b.k, b.rank
	for i := range b.y {
		b.y[i] = 0
	}
	if r == 0 {
		return
	}
	// Solve Eᵀ_B y = g_B in the least-squares-free way: rows of E are those with
	// pivots; use the original E restricted to basic columns and all k rows via
	// normal equations only when r < k. With r == k solve directly.
	m := b.eb[:r*r]
	rhs := b.eb[r*r : r*r+r]
	_ = k
	// choose r independent rows: Gaussian elimination on E_Bᵀ (r × k) with row pivoting.
	// For the few equality rows of interest we simply use the first r rows that are
	// independent by solving the (k × r) system with QR-free elimination.
	rows := b.pivRow[:0]
	for row := 0; row < b.k && len(rows) < r; row++ {
		rows = append(rows, row)
		if !b.independent(rows) {
			rows = rows[:len(rows)-1]
		}
	}
	for a, row := range rows {
		for c := 0; c < r; c++ {
			m[c*r+a] = b.p.Aeq.At(row, b.free[b.basic[c]]) // transpose: (E_B)ᵀ
		}
	}
	for c := 0; c < r; c++ {
		rhs[c] = b.g[b.free[b.basic[c]]]
	}
	solveSmall(m, rhs, r)
	for a, row := range rows {
		b.y[row] = rhs[a]
	}
}

// independent reports whether the rows of E (restricted to basic columns) are
// linearly independent, by elimination on a scratch copy.
func (b *Bounded) independent(rows []int) bool {
	r := b.rank
	nr := len(rows)
	m := b.eb[:nr*r]
	for a, row := range rows {
		for c := 0; c < r; c++ {
			m[a*r+c] = b.p.Aeq.At(row, b.free[b.basic[c]])
		}
	}
	rk := 0
	for c := 0; c < r && rk < nr; c++ {
		best, br := 0.0, -1
		for a := rk; a < nr; a++ {
			if v := math.Abs(m[a*r+c]); v > best {
				best, br = v, a
			}
		}
		if best <= 1e-12 {
			continue
		}
		for cc := 0; cc < r; cc++ {
			m[br*r+cc], m[rk*r+cc] = m[rk*r+cc], m[br*r+cc]
		}
		for a := rk + 1; a < nr; a++ {
			f := m[a*r+c] / m[rk*r+c]
			for cc := c; cc < r; cc++ {
				m[a*r+cc] -= f * m[rk*r+cc]
			}
		}
		rk++
	}
	return rk == nr
}

// solveSmall solves the r×r system m x = rhs in place (partial pivoting).
func solveSmall(m, rhs []float64, r int) {
	for c := 0; c < r; c++ {
		br, best := c, math.Abs(m[c*r+c])
		for a := c + 1; a < r; a++ {
			if v := math.Abs(m[a*r+c]); v > best {
				br, best = a, v
			}
		}
		if br != c {
			for cc := 0; cc < r; cc++ {
				m[br*r+cc], m[c*r+cc] = m[c*r+cc], m[br*r+cc]
			}
			rhs[br], rhs[c] = rhs[c], rhs[br]
		}
		for a := c + 1; a < r; a++ {
			f := m[a*r+c] / m[c*r+c]
			for cc := c; cc < r; cc++ {
				m[a*r+cc] -= f * m[c*r+cc]
			}
			rhs[a] -= f * rhs[c]
		}
	}
	for c := r - 1; c >= 0; c-- {
		s := rhs[c]
		for cc := c + 1; cc < r; cc++ {
			s -= m[c*r+cc] * rhs[cc]
		}
		rhs[c] = s / m[c*r+c]
	}
}

// Solve implements Solver. It returns an error wrapping ErrInvalid if p has
// general inequalities.
func (b *Bounded) Solve(ctx context.Context, p *Problem, start *Start, res *Result) error {
	if b == nil {
		return invalidf("nil solver")
	}
	if ctx == nil {
		return invalidf("nil context")
	}
	var n, meq, min int
	var err error
	if b.trusted {
		n, meq = len(p.C), len(p.Beq)
	} else if n, meq, min, err = p.dims(); err != nil {
		return err
	}
	if min != 0 {
		return invalidf("Bounded solves problems without general inequalities (Ain has %d rows); use ActiveSet", min)
	}
	if res == nil {
		return invalidf("nil result")
	}
	if err := b.Settings.check(); err != nil {
		return err
	}
	set := b.Settings.resolve(n, meq+2*n)
	b.alloc(n, meq)
	b.p = p
	if !set.SkipPSDCheck {
		if err := checkPSD(p.H, set.PSDTol, b.u); err != nil {
			return err
		}
	}
	if start != nil && start.X != nil && len(start.X) != n {
		return invalidf("len(start.X) = %d, want %d", len(start.X), n)
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
	res.Status = NotSolved
	res.X = grow(res.X, n)
	res.Ray = res.Ray[:0]
	res.Eq, res.Ineq = grow(res.Eq, meq), res.Ineq[:0]
	res.Lower, res.Upper = grow(res.Lower, n), grow(res.Upper, n)
	res.Iter, res.Phase1Iter = 0, 0
	res.Working = res.Working[:0]

	st, err := b.start(ctx, start, set, res)
	if err != nil {
		return err
	}
	if st == NotSolved {
		st, err = b.run(ctx, set.MaxIter, res)
		if err != nil {
			return err
		}
	}
	res.Status = st
	fill(res.Eq, 0)
	fill(res.Lower, 0)
	fill(res.Upper, 0)
	if st == Infeasible || (st == IterationLimit && res.Iter == 0) {
		fill(res.X, math.NaN())
		return nil
	}
	copy(res.X, b.x)
	if st == Optimal {
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
	if st == Unbounded {
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
		if res.Status == Optimal && res.KKT.Max() > optimalGuard {
			res.Status = NumericalFailure
		}
	}
	return nil
}

// start finds a feasible point and the initial free set. It returns NotSolved
// when the main iteration should run.
func (b *Bounded) start(ctx context.Context, start *Start, set Settings, res *Result) (Status, error) {
	p, n, k := b.p, b.n, b.k
	x := b.x
	for j := 0; j < n; j++ {
		v := 0.0
		if start != nil && start.X != nil {
			v = start.X[j]
			if !finite(v) {
				return NotSolved, invalidf("start.X[%d] = %v is not finite", j, v)
			}
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
		b.lpP = Problem{C: b.gz[:n], Aeq: p.Aeq, Beq: p.Beq, Lower: p.Lower, Upper: p.Upper}
		fill(b.gz[:n], 0)
		b.lp.Settings = Settings{MaxIter: set.MaxIter, Tol: set.Tol, SkipPSDCheck: true}
		if err := b.lp.Solve(ctx, &b.lpP, &Start{X: x}, &b.lpRes); err != nil {
			return NotSolved, err
		}
		res.Phase1Iter = b.lpRes.Iter
		res.Iter = b.lpRes.Iter
		if b.lpRes.Status != Optimal {
			if b.lpRes.Status == Infeasible {
				return Infeasible, nil
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
	return NotSolved, nil
}

// unfree removes variable j from the free set, keeping the order of the
// others.
func (b *Bounded) unfree(j int) {
	for pos, fj := range b.free {
		if fj == j {
			copy(b.free[pos:], b.free[pos+1:])
			b.free = b.free[:len(b.free)-1]
			return
		}
	}
}

func (b *Bounded) run(ctx context.Context, maxIter int, res *Result) (Status, error) {
	p, n, k := b.p, b.n, b.k
	x, g, pv := b.x, b.g, b.p_
	// g = Hx + c
	if p.H != nil {
		blas64.Symv(1, p.H.RawSymmetric(), blas64.Vector{N: n, Data: x, Inc: 1}, 0, blas64.Vector{N: n, Data: g, Inc: 1})
	} else {
		fill(g, 0)
	}
	for j := range g {
		g[j] += p.C[j]
	}
	atMin := false
	zeroSteps := 0
	gmax := 1.0
	for {
		if res.Iter&15 == 0 {
			if err := ctx.Err(); err != nil {
				return NotSolved, fmt.Errorf("qp: bounded solver cancelled: %w", err)
			}
		}
		if res.Iter >= maxIter {
			return IterationLimit, nil
		}
		res.Iter++
		b.reduce()
		if atMin {
			b.duals()
			// scale of the gradient terms before cancellation: max(1, ‖c‖∞, ‖H‖max·‖x‖₁)
			gmax = 1
			xs := 0.0
			for j := range g {
				gmax = fmax(gmax, math.Abs(p.C[j]))
				xs += math.Abs(x[j])
			}
			gmax = fmax(gmax, b.hnorm*xs)
			tolL := 1e-12 * gmax
			best, bj := 0.0, -1
			bland := zeroSteps > 5
			for j := 0; j < n; j++ {
				st := b.state[j]
				if st == stFree {
					continue
				}
				zj := g[j]
				for r := 0; r < k; r++ {
					zj -= p.Aeq.At(r, j) * b.y[r]
				}
				var v float64
				switch st {
				case stTemp:
					if math.Abs(zj) > 10*tolL {
						v = -math.Inf(1) // temporaries first
						if bj >= 0 && b.state[bj] == stTemp && math.Abs(zj) <= best {
							continue
						}
						best = math.Abs(zj)
						bj = j
						continue
					}
					continue
				case stLower:
					v = zj
				case stUpper:
					v = -zj
				}
				if bj >= 0 && b.state[bj] == stTemp {
					continue
				}
				if v < -tolL && (bj < 0 || (!bland && v < best)) {
					best, bj = v, j
				}
			}
			if bj < 0 {
				return Optimal, nil
			}
			b.state[bj] = stFree
			b.free = append(b.free, bj)
			atMin = false
			continue
		}
		nz := len(b.nonb)
		if nz == 0 {
			atMin = true
			continue
		}
		piv := b.factor()
		gz := b.gz[:nz]
		for t, ct := range b.nonb {
			s := g[b.free[ct]]
			for q := 0; q < b.rank; q++ {
				s -= b.cm[q*n+t] * g[b.free[b.basic[q]]]
			}
			gz[t] = s
		}
		sv := b.sv[:nz]
		newton := piv < 0
		if piv >= 0 {
			if piv != nz-1 {
				return NumericalFailure, nil
			}
			// zero-curvature direction: w = [-R11⁻¹ r; 1]
			kk := nz - 1
			sv[kk] = 1
			for i := kk - 1; i >= 0; i-- {
				s := -b.mz[i*n+kk]
				for t := i + 1; t < kk; t++ {
					s -= b.mz[i*n+t] * sv[t]
				}
				sv[i] = s / b.mz[i*n+i]
			}
			gp, smax := 0.0, 0.0
			for t := range sv {
				gp += gz[t] * sv[t]
				smax = fmax(smax, math.Abs(sv[t]))
			}
			if gp > 0 {
				for t := range sv {
					sv[t] = -sv[t]
				}
			}
			if math.Abs(gp) <= 1e-12*gmax*smax {
				// flat direction: hold the newest free variable by a temporary bound
				j := b.free[b.nonb[nz-1]]
				b.state[j] = stTemp
				b.unfree(j)
				atMin = false
				continue
			}
		} else {
			for t := 0; t < nz; t++ {
				s := -gz[t]
				for q := 0; q < t; q++ {
					s -= b.mz[q*n+t] * sv[q]
				}
				sv[t] = s / b.mz[t*n+t]
			}
			for t := nz - 1; t >= 0; t-- {
				s := sv[t]
				for q := t + 1; q < nz; q++ {
					s -= b.mz[t*n+q] * sv[q]
				}
				sv[t] = s / b.mz[t*n+t]
			}
		}
		b.expand(sv, pv)
		alpha := math.Inf(1)
		if newton {
			alpha = 1
		} else if p.H != nil {
			curv, gp, pp := 0.0, 0.0, 0.0
			for _, i := range b.free {
				gp += g[i] * pv[i]
				pp += pv[i] * pv[i]
				for _, j := range b.free {
					curv += pv[i] * b.h(i, j) * pv[j]
				}
			}
			// only rounding-level curvature counts as zero
			if curv > 1e-14*b.hnorm*pp {
				alpha = -gp / curv
			}
		}
		block := -1
		var bst int8
		for _, j := range b.free {
			pj := pv[j]
			if pj < 0 {
				if l := p.lo(j); !math.IsInf(l, -1) {
					if t := math.Max(0, x[j]-l) / -pj; t < alpha {
						alpha, block, bst = t, j, stLower
					}
				}
			} else if pj > 0 {
				if u := p.up(j); !math.IsInf(u, 1) {
					if t := math.Max(0, u-x[j]) / pj; t < alpha {
						alpha, block, bst = t, j, stUpper
					}
				}
			}
		}
		if math.IsInf(alpha, 1) {
			return Unbounded, nil
		}
		if alpha == 0 {
			zeroSteps++
		} else {
			zeroSteps = 0
		}
		for _, j := range b.free {
			if pj := pv[j]; pj != 0 {
				x[j] += alpha * pj
				if p.H != nil {
					raw := p.H.RawSymmetric()
					for i := 0; i < n; i++ {
						hij := raw.Data[i*raw.Stride+j]
						if i > j {
							hij = raw.Data[j*raw.Stride+i]
						}
						g[i] += alpha * pj * hij
					}
				}
			}
		}
		if block >= 0 {
			if bst == stLower {
				x[block] = p.lo(block)
			} else {
				x[block] = p.up(block)
			}
			b.state[block] = bst
			b.unfree(block)
			atMin = false
		} else {
			atMin = newton
		}
	}
}
