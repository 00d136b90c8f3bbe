package metric

import (
	"context"
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Defaults of XingSettings.
const (
	// DefaultXingMaxIter is the default limit on projected-gradient steps.
	DefaultXingMaxIter = 2000
	// DefaultXingTol is the default stationarity tolerance: the
	// projected-gradient step ||N - P(N + ∇g)|| relative to ||∇g||.
	DefaultXingTol = 1e-6
)

// XingSettings configures Xing. The zero value (or nil) selects every
// default.
type XingSettings struct {
	// Ridge adds Ridge (tr S / p) I to S = Σ_{similar} d dᵀ, finite and at
	// least 0; zero adds nothing. Without it a singular S (fewer similar
	// pairs than dimensions) is an error: the problem is then unbounded.
	Ridge float64
	// RankTol is the relative eigenvalue cut-off below which S counts as
	// singular, in [0, 1); zero means DefaultRankTol.
	RankTol float64
	// MaxIter limits the steps, at least 0; zero means DefaultXingMaxIter.
	MaxIter int
	// Tol is the stationarity tolerance, finite and at least 0; zero
	// means DefaultXingTol.
	Tol float64
}

// XingResult is the metric Xing's method learned and how the solve ended.
type XingResult struct {
	// Metric holds A with M = A Aᵀ (p x rank M); Ratios is nil.
	Metric *Metric
	// Objective is Σ_{dissimilar} ||x_i - x_j||_M at the solution, where
	// Σ_{similar} ||x_i - x_j||²_M = 1.
	Objective float64
	// Iterations counts the projected-gradient steps.
	Iterations int
	// Status is linalg.Converged when the stationarity test passed,
	// linalg.IterationLimit or linalg.Stalled (no step length increased
	// the objective) otherwise, with the best metric found; and
	// linalg.Canceled with the context's error.
	Status linalg.Status
}

// Xing learns the metric of Xing, Ng, Jordan and Russell (NIPS 2002), the
// thesis's other baseline: the M ⪰ 0 that maximises Σ_{dissimilar} ||x_i -
// x_j||_M subject to Σ_{similar} ||x_i - x_j||²_M <= 1, a concave objective
// over a convex set. With S = Σ_{similar} d dᵀ and M = S^(-1/2) N
// S^(-1/2) the set becomes {N ⪰ 0, tr N <= 1}, onto which the Euclidean
// projection is exact and cheap (eigendecompose N, project its eigenvalues
// onto {λ >= 0, Σ λ <= 1}), so the method is plain projected gradient ascent
// on N, with Barzilai-Borwein trial steps halved until the Armijo condition
// holds (every step increases the objective); it converges to the global
// maximum. (Xing et al. alternate approximate projections onto the two sets
// instead.)
//
// Errors wrap linalg.ErrInvalid as for DCA; linalg.ErrDegenerate reports no
// similar or no dissimilar pairs, and a singular S without Ridge (the
// problem is then unbounded along its null space). Cost per step: O(u p² +
// p³) for u dissimilar pairs, plus O((s + u) p² + p³) once for s similar
// pairs.
func Xing(ctx context.Context, x *mat.Dense, c Constraints, s *XingSettings) (*XingResult, error) {
	const op = "metric.Xing"
	var st XingSettings
	if s != nil {
		st = *s
	}
	if err := linalg.CheckTol(op, "Ridge", st.Ridge); err != nil {
		return nil, err
	}
	if err := linalg.CheckTol(op, "Tol", st.Tol); err != nil {
		return nil, err
	}
	if err := linalg.CheckCount(op, "MaxIter", st.MaxIter); err != nil {
		return nil, err
	}
	base, ch, err := prepare(op, ctx, x, c, &Settings{RankTol: st.RankTol})
	if err != nil {
		return nil, err
	}
	_ = ch
	if st.MaxIter == 0 {
		st.MaxIter = DefaultXingMaxIter
	}
	if st.Tol == 0 {
		st.Tol = DefaultXingTol
	}
	if len(c.Similar) == 0 || len(c.Dissimilar) == 0 {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "Xing's problem needs similar and dissimilar pairs (%d and %d given)", len(c.Similar), len(c.Dissimilar))
	}
	_, p := x.Dims()
	diffs := func(pairs []Pair) *mat.Dense {
		d := mat.NewDense(len(pairs), p, nil)
		for k, pr := range pairs {
			a, b, dst := x.RawRowView(pr.I), x.RawRowView(pr.J), d.RawRowView(k)
			for l := range dst {
				dst[l] = a[l] - b[l]
			}
		}
		return d
	}
	sm := mat.NewSymDense(p, nil)
	sm.SymOuterK(1, diffs(c.Similar).T())
	if !finiteSym(sm) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "similarity scatter beyond the float64 range: scale the data")
	}
	addRidge(sm, st.Ridge)
	var es linalg.EigenSym
	if !es.Factorize(sm, true) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op, "eigendecomposition of S failed")
	}
	ls := es.Values(nil)
	if !(ls[0] > base.RankTol*ls[p-1]) {
		return nil, linalg.Errorf(linalg.ErrDegenerate, op,
			"S = Σ d dᵀ over the similar pairs is singular, so the problem is unbounded: give more similar pairs or set XingSettings.Ridge")
	}
	var us mat.Dense
	es.VectorsTo(&us)
	// W = S^(-1/2); the dissimilar differences in whitened coordinates.
	w := mat.NewDense(p, p, nil)
	for j, l := range ls {
		f := 1 / math.Sqrt(l)
		for i := 0; i < p; i++ {
			w.Set(i, j, us.At(i, j)*f)
		}
	}
	var wsym mat.Dense
	wsym.Mul(w, us.T())
	var dt mat.Dense
	dt.Mul(diffs(c.Dissimilar), &wsym)
	res, n, err := xingAscent(ctx, &dt, p, st)
	if err != nil {
		res.Status = linalg.Canceled
		return res, ctxErr(op, err)
	}
	// M = W N W = A Aᵀ with A = W U diag(sqrt λ) over N's positive λ.
	var en linalg.EigenSym
	en.Factorize(n, true)
	ln := en.Values(nil)
	var un mat.Dense
	en.VectorsTo(&un)
	var cols []int
	for j := p - 1; j >= 0; j-- {
		if ln[j] > 1e-14*ln[p-1] {
			cols = append(cols, j)
		}
	}
	f := mat.NewDense(p, len(cols), nil)
	for k, j := range cols {
		s := math.Sqrt(ln[j])
		for i := 0; i < p; i++ {
			f.Set(i, k, un.At(i, j)*s)
		}
	}
	var a mat.Dense
	a.Mul(&wsym, f)
	res.Metric = &Metric{A: &a}
	return res, nil
}

// xingAscent maximises g(N) = Σ_k sqrt(d_kᵀ N d_k) over {N ⪰ 0, tr N <= 1}
// from N = I/p by projected gradient ascent: Barzilai-Borwein trial steps,
// halved until the Armijo condition holds.
func xingAscent(ctx context.Context, d *mat.Dense, p int, st XingSettings) (*XingResult, *mat.SymDense, error) {
	u, _ := d.Dims()
	eval := func(n *mat.SymDense, grad *mat.SymDense) float64 {
		var dn mat.Dense
		dn.Mul(d, n)
		var g float64
		scale := make([]float64, u)
		for k := 0; k < u; k++ {
			q := floats.Dot(dn.RawRowView(k), d.RawRowView(k))
			if q > 0 {
				r := math.Sqrt(q)
				g += r
				scale[k] = 1 / (2 * r)
			}
		}
		if grad != nil {
			// ∇g = Dᵀ diag(scale) D.
			ds := mat.DenseCopyOf(d)
			for k := 0; k < u; k++ {
				s := math.Sqrt(scale[k])
				row := ds.RawRowView(k)
				for l := range row {
					row[l] *= s
				}
			}
			grad.SymOuterK(1, ds.T())
		}
		return g
	}
	n := mat.NewSymDense(p, nil)
	for i := 0; i < p; i++ {
		n.SetSym(i, i, 1/float64(p))
	}
	grad := mat.NewSymDense(p, nil)
	res := &XingResult{Status: linalg.IterationLimit}
	g := eval(n, grad)
	step := 1 / math.Max(mat.Norm(grad, 2), 1e-300)
	trial := mat.NewSymDense(p, nil)
	prev, dy := mat.NewSymDense(p, nil), mat.NewSymDense(p, nil)
	for it := 1; it <= st.MaxIter; it++ {
		if err := ctx.Err(); err != nil {
			res.Objective = g
			return res, n, err
		}
		res.Iterations = it
		gn := mat.Norm(grad, 2)
		// Stationarity: the unit projected-gradient step.
		trial.AddSym(n, grad)
		projectTrace(trial)
		gap := mat.NewSymDense(p, nil)
		subSym(gap, trial, n)
		if mat.Norm(gap, 2) <= st.Tol*gn {
			res.Status = linalg.Converged
			break
		}
		accepted := false
		for try := 0; try < 60; try++ {
			trial.ScaleSym(step, grad)
			trial.AddSym(trial, n)
			projectTrace(trial)
			subSym(gap, trial, n)
			// Armijo: g(trial) >= g + 1e-4 <∇g, trial - N>.
			want := g + 1e-4*frob(grad, gap)
			if gt := eval(trial, nil); gt >= want && gt > g {
				accepted = true
				break
			}
			step /= 2
		}
		if !accepted {
			res.Status = linalg.Stalled
			break
		}
		// Barzilai-Borwein: the next trial step is <s, s> / -<s, y> for
		// s = N' - N and y = ∇g(N') - ∇g(N) (<s, y> < 0 for a concave g),
		// or twice the accepted step when that is not defined.
		prev.CopySym(grad)
		n.CopySym(trial)
		g = eval(n, grad)
		subSym(dy, grad, prev)
		ss, sy := frob(gap, gap), frob(gap, dy)
		if sy < 0 && ss > 0 {
			step = ss / -sy
		} else {
			step *= 2
		}
	}
	res.Objective = g
	return res, n, nil
}

// projectTrace replaces a (symmetric) by its Euclidean projection onto
// {N ⪰ 0, tr N <= 1}: the eigenvalues are projected onto {λ >= 0, Σ λ <=
// 1} and the eigenvectors kept.
func projectTrace(a *mat.SymDense) {
	p := a.SymmetricDim()
	var e linalg.EigenSym
	if !e.Factorize(a, true) {
		return
	}
	l := e.Values(nil)
	var pos float64
	for i := range l {
		l[i] = math.Max(l[i], 0)
		pos += l[i]
	}
	if pos > 1 {
		// Onto the simplex Σ λ = 1: subtract the threshold θ that makes
		// the clipped sum 1 (sort-based).
		s := append([]float64(nil), l...)
		sort.Sort(sort.Reverse(sort.Float64Slice(s)))
		var cum, theta float64
		for k, v := range s {
			cum += v
			t := (cum - 1) / float64(k+1)
			if v-t > 0 {
				theta = t
			}
		}
		for i := range l {
			l[i] = math.Max(l[i]-theta, 0)
		}
	}
	var v mat.Dense
	e.VectorsTo(&v)
	vs := mat.DenseCopyOf(&v)
	for j, x := range l {
		f := math.Sqrt(x)
		for i := 0; i < p; i++ {
			vs.Set(i, j, vs.At(i, j)*f)
		}
	}
	a.SymOuterK(1, vs)
}

// frob returns the Frobenius inner product of two symmetric matrices.
func frob(a, b *mat.SymDense) float64 {
	p := a.SymmetricDim()
	var s float64
	for i := 0; i < p; i++ {
		s += a.At(i, i) * b.At(i, i)
		for j := i + 1; j < p; j++ {
			s += 2 * a.At(i, j) * b.At(i, j)
		}
	}
	return s
}

// subSym stores a - b in dst.
func subSym(dst, a, b *mat.SymDense) {
	p := a.SymmetricDim()
	for i := 0; i < p; i++ {
		for j := i; j < p; j++ {
			dst.SetSym(i, j, a.At(i, j)-b.At(i, j))
		}
	}
}
