package active

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"ukm/linalg"
)

// The bound optimisation of eq. 4.16-4.17, run on a working set and sped
// up by exact line searches (see the Fisher doc). Its steps: the update of
// eq. 4.17 with its extrapolation (inner, extrapolate), a Frank–Wolfe step
// toward the best candidate of the set (toward), an away step from its
// low-gain candidates (away), and, after each pass over the pool, a step
// toward the candidates outside the set that should join it (bringIn).

// wsMin is the smallest working set: a few times the usual support.
const wsMin = 64

// fisherState is the optimisation on the working set.
type fisherState struct {
	pb      *fisherProblem
	in      []bool    // n: candidate is in W
	w       []int     // W
	gw      []float64 // |W| x s rows of g
	q, next []float64 // |W|
	a       []float64 // |W| gains
	sum     []float64 // S = gᵀq
	sumNext []float64
	coef    []float64 // λ_k / S_k²
	u       []float64 // s, scratch
	obj     float64   // L(q)
	updates int
	told    int  // updates already reported to progress, plus one
	failed  bool // an update would have made L non-finite
}

// optimise returns the distribution of eq. 4.15 to the tolerance, or the
// last iterate when the update budget runs out.
func (pb *fisherProblem) optimise() *FisherResult {
	n, s := pb.n, pb.s
	st := &fisherState{pb: pb, in: make([]bool, n), sum: make([]float64, s), sumNext: make([]float64, s), coef: make([]float64, s), u: make([]float64, s)}
	gain := make([]float64, n)
	// The gains at the uniform distribution, where S = λ: a_i =
	// π_i(1 − π_i) Σ_k (x_iᵀv_k)²/λ_k. W starts with the largest, plus the
	// candidate of largest weight in every direction, so that every S_k > 0.
	for k, l := range pb.lam {
		st.coef[k] = 1 / l
	}
	pb.gains(gain, st.coef)
	m := max(wsMin, 2*s)
	for _, i := range topOrder(n, min(m, n), func(i, j int) bool { return gain[i] > gain[j] || gain[i] == gain[j] && i < j }) {
		st.add(i)
	}
	for k := range s {
		best := 0
		for i := 1; i < n; i++ {
			if pb.g[i*s+k] > pb.g[best*s+k] {
				best = i
			}
		}
		st.add(best)
	}
	for a := range st.q {
		st.q[a] = 1 / float64(len(st.w))
	}
	st.accumulate()
	res := &FisherResult{Rank: s, Models: pb.models, Status: linalg.IterationLimit}
	for {
		before := st.updates
		st.inner(pb.tol / 4)
		// A pass over the pool at the current q.
		st.setCoef()
		pb.gains(gain, st.coef)
		maxA := 0.0
		for _, v := range gain {
			maxA = math.Max(maxA, v)
		}
		res.Objective, res.Gap = st.obj, math.Max(maxA-st.obj, 0)
		res.Passes++
		if res.Gap <= pb.tol*st.obj {
			res.Status = linalg.Converged
			break
		}
		if st.failed {
			res.Status = linalg.NumericalFailure
			break
		}
		if st.updates >= pb.maxIter {
			break
		}
		st.bringIn(gain, m)
		if st.updates == before {
			// Neither the updates nor the line search could move: the
			// iterate is as good as rounding allows.
			res.Status = linalg.Stalled
			break
		}
	}
	res.Iterations = st.updates
	res.Q = make([]float64, n)
	for a, i := range st.w {
		res.Q[i] = st.q[a]
	}
	res.Gain = gain
	return res
}

// add puts candidate i into W with zero mass (no-op if it is there).
func (st *fisherState) add(i int) {
	if st.in[i] {
		return
	}
	s := st.pb.s
	st.in[i] = true
	st.w = append(st.w, i)
	st.gw = append(st.gw, st.pb.g[i*s:(i+1)*s]...)
	st.q = append(st.q, 0)
	st.next = append(st.next, 0)
	st.a = append(st.a, 0)
}

// accumulate normalises q to a distribution and sets S = gᵀq over W and
// L(q).
func (st *fisherState) accumulate() {
	s := st.pb.s
	var mass float64
	for _, qa := range st.q {
		mass += qa
	}
	clear(st.sum)
	for a := range st.q {
		st.q[a] /= mass
		qa := st.q[a]
		for k, v := range st.gw[a*s : (a+1)*s] {
			st.sum[k] += qa * v
		}
	}
	st.obj = objectiveOf(st.pb.lam, st.sum)
}

func objectiveOf(lam, sum []float64) float64 {
	var obj float64
	for k, l := range lam {
		obj += l / sum[k]
	}
	return obj
}

func (st *fisherState) setCoef() {
	for k, l := range st.pb.lam {
		st.coef[k] = l / (st.sum[k] * st.sum[k])
	}
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}

// inner runs the updates on W until its gap is within tol·L or the budget
// is spent. Each pass computes the gains at q and, in the same pass, the
// next iterate and its S; the update is applied only when q is not yet
// within the tolerance.
func (st *fisherState) inner(tol float64) {
	pb := st.pb
	s := pb.s
	for {
		st.report()
		if st.updates >= pb.maxIter || st.failed {
			return
		}
		st.setCoef()
		clear(st.sumNext)
		var maxA, z float64
		for a := range st.q {
			ga := st.gw[a*s : (a+1)*s]
			var ai float64
			for k, v := range ga {
				ai += v * st.coef[k]
			}
			st.a[a] = ai
			maxA = math.Max(maxA, ai)
			qa := st.q[a] * math.Sqrt(ai)
			st.next[a] = qa
			if qa != 0 {
				z += qa
				for k, v := range ga {
					st.sumNext[k] += qa * v
				}
			}
		}
		if maxA-st.obj <= tol*st.obj || !(z > 0) {
			return
		}
		for k := range st.sumNext {
			st.sumNext[k] /= z
		}
		for a := range st.next {
			st.next[a] /= z
		}
		if !pb.plain {
			st.extrapolate()
		}
		obj := objectiveOf(pb.lam, st.sumNext)
		if !finite(obj) {
			// A direction lost all its mass to underflow: keep the last
			// finite iterate.
			st.failed = true
			return
		}
		st.q, st.next = st.next, st.q
		st.sum, st.sumNext = st.sumNext, st.sum
		st.obj = obj
		st.updates++
		if !pb.plain && st.updates%awayEvery == 0 {
			st.toward()
			st.away()
		}
	}
}

// extrapolate replaces the update q → next by the best point of the ray
// q + θ (next − q), θ in [1, θmax], θmax the largest step that keeps q
// non-negative: an exact line search that starts from the update itself,
// so it never does worse, and that sets to zero the mass the update was
// draining most steeply.
func (st *fisherState) extrapolate() {
	tmax := math.Inf(1)
	hit := -1
	for a, qa := range st.q {
		if d := qa - st.next[a]; d > 0 {
			if t := qa / d; t < tmax {
				tmax, hit = t, a
			}
		}
	}
	if hit < 0 || !(tmax > 1) {
		return
	}
	if tmax > maxExtrapolation {
		tmax, hit = maxExtrapolation, -1
	}
	// On [1, tmax] the sums move from S(next) to U = S + tmax (S(next) − S).
	u := st.u[:len(st.sum)]
	for k := range u {
		u[k] = st.sum[k] + tmax*(st.sumNext[k]-st.sum[k])
	}
	t := lineSearch(st.pb.lam, st.sumNext, u)
	if !(t > 0) {
		return
	}
	theta := 1 + t*(tmax-1)
	var mass float64
	for a, qa := range st.q {
		v := qa + theta*(st.next[a]-qa)
		if v < 0 || a == hit && t == 1 {
			v = 0
		}
		st.next[a] = v
		mass += v
	}
	// A step of θ multiplies the rounding error of the total mass by
	// θ − 1; L is homogeneous of degree −1, so renormalise.
	for a := range st.next {
		st.next[a] /= mass
	}
	for k := range st.sumNext {
		st.sumNext[k] = ((1-t)*st.sumNext[k] + t*u[k]) / mass
	}
}

// maxExtrapolation caps the extrapolated step.
const maxExtrapolation = 1e3

// toward moves mass to the working-set candidate of largest gain, by the
// exact line search min_θ L((1 − θ) q + θ e_j): the Frank–Wolfe step, which
// grows in one step a candidate the updates would grow only by the factor
// √(a_j / L) per step.
func (st *fisherState) toward() {
	pb := st.pb
	s := pb.s
	st.setCoef()
	best, maxA := -1, st.obj
	for a := range st.q {
		var ai float64
		for k, v := range st.gw[a*s : (a+1)*s] {
			ai += v * st.coef[k]
		}
		if ai > maxA {
			best, maxA = a, ai
		}
	}
	if best < 0 {
		return
	}
	theta := lineSearch(pb.lam, st.sum, st.gw[best*s:(best+1)*s])
	if !(theta > 0) {
		return
	}
	for a := range st.q {
		st.q[a] *= 1 - theta
	}
	st.q[best] += theta
	st.accumulate()
	st.updates++
}

// awayEvery is the number of updates between two away steps.
const awayEvery = 8

// away moves the mass of the working-set candidates whose gain is below L
// (the optimality conditions say they are outside the support; the updates
// shrink their mass only geometrically) to the others, in proportion to
// their mass, by the exact line search min_θ L((1 − θ) q + θ q_R/|q_R|)
// where R keeps the rest. At θ = 1 the low-gain candidates leave W (a later
// pass over the pool brings them back if they are needed).
func (st *fisherState) away() {
	pb := st.pb
	s := pb.s
	// The gains at q: the last pass computed them at the previous iterate,
	// so recompute.
	st.setCoef()
	var massR float64
	u := st.sumNext // scratch: S of the rest
	clear(u)
	low := 0
	for a := range st.q {
		ga := st.gw[a*s : (a+1)*s]
		var ai float64
		for k, v := range ga {
			ai += v * st.coef[k]
		}
		st.a[a] = ai
		if ai < st.obj {
			low++
			continue
		}
		massR += st.q[a]
		for k, v := range ga {
			u[k] += st.q[a] * v
		}
	}
	if low == 0 || !(massR > 0) {
		return
	}
	for k := range u {
		u[k] /= massR
	}
	theta := lineSearch(pb.lam, st.sum, u)
	if !(theta > 0) {
		return
	}
	if theta < 1 {
		for a := range st.q {
			if st.a[a] >= st.obj {
				st.q[a] *= (1 - theta) + theta/massR
			} else {
				st.q[a] *= 1 - theta
			}
		}
		st.accumulate()
		st.updates++
		return
	}
	// θ = 1: the low-gain candidates leave W.
	keep := 0
	for a, i := range st.w {
		if st.a[a] < st.obj {
			st.in[i] = false
			continue
		}
		st.w[keep] = i
		st.q[keep] = st.q[a] / massR
		st.a[keep] = st.a[a]
		copy(st.gw[keep*s:(keep+1)*s], st.gw[a*s:(a+1)*s])
		keep++
	}
	st.w, st.q, st.a, st.next, st.gw = st.w[:keep], st.q[:keep], st.a[:keep], st.next[:keep], st.gw[:keep*s]
	st.accumulate()
	st.updates++
}

// report hands the current iterate's objective to the progress callback,
// once per iterate.
func (st *fisherState) report() {
	if st.pb.progress != nil && st.told <= st.updates {
		st.pb.progress(st.updates, st.obj)
		st.told = st.updates + 1
	}
}

// bringIn adds to W up to m candidates outside it whose gain exceeds L, the
// largest gains first, and moves mass to them, spread evenly, by the exact
// line search min_θ L((1 − θ) q + θ u).
func (st *fisherState) bringIn(gain []float64, m int) {
	pb := st.pb
	out := topOrder(pb.n, min(m+len(st.w), pb.n), func(i, j int) bool { return gain[i] > gain[j] || gain[i] == gain[j] && i < j })
	var add []int
	for _, i := range out {
		if len(add) == m || !(gain[i] > st.obj) {
			break
		}
		if !st.in[i] {
			add = append(add, i)
		}
	}
	if len(add) == 0 {
		return
	}
	s := pb.s
	u := make([]float64, s)
	for _, i := range add {
		for k, v := range pb.g[i*s : (i+1)*s] {
			u[k] += v / float64(len(add))
		}
	}
	theta := lineSearch(pb.lam, st.sum, u)
	if !(theta > 0) {
		return
	}
	first := len(st.w)
	for _, i := range add {
		st.add(i)
	}
	for a := range st.q {
		st.q[a] *= 1 - theta
		if a >= first {
			st.q[a] = theta / float64(len(add))
		}
	}
	st.accumulate()
	st.updates++
}

// lineSearch minimises φ(θ) = Σ_k λ_k / ((1 − θ) S_k + θ U_k) over [0, 1]
// by bisection on its derivative (φ is convex).
func lineSearch(lam, sum, u []float64) float64 {
	deriv := func(t float64) float64 {
		var d float64
		for k, l := range lam {
			den := (1-t)*sum[k] + t*u[k]
			d -= l * (u[k] - sum[k]) / (den * den)
		}
		return d
	}
	if !(deriv(0) < 0) {
		return 0
	}
	lo, hi := 0.0, 1.0
	if d1 := deriv(1); d1 <= 0 && finite(d1) {
		return 1
	}
	for range 60 {
		mid := (lo + hi) / 2
		if d := deriv(mid); d < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// gains sets a = g·coef over the whole pool, a_i = Σ_k g_ik coef_k.
func (pb *fisherProblem) gains(a, coef []float64) {
	g := blas64.General{Rows: pb.n, Cols: pb.s, Stride: pb.s, Data: pb.g}
	blas64.Gemv(blas.NoTrans, 1, g, blas64.Vector{N: pb.s, Data: coef, Inc: 1}, 0, blas64.Vector{N: pb.n, Data: a, Inc: 1})
}
