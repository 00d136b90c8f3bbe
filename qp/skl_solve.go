package qp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"ukm/linalg"
)

// Solve solves the SKL problem and writes the μ-space result to res: X = μ,
// Eq[0] the multiplier of aᵀμ = 1, Ineq the d−1 decay multipliers, Lower the
// multipliers of μ >= 0, KKT measured on Problem(). With solver nil or a
// *Bounded the reparametrised ν-space problem is solved (the fast path; nil uses
// a Bounded owned by s); any other solver is applied to Problem(). start.X, if
// given, is a μ-space warm start (for example the previous solution).
//
// If a = 0 (the target is orthogonal to every eigenvector on the labeled
// rows) the problem has no feasible point: the status is Infeasible, X is NaN,
// the certificate is the weight 1 on aᵀμ = 1 (a zero row with right-hand side
// 1) and the error is nil. With a ≠ 0 the problem is feasible, and a fast
// path that fails to find a feasible point reports NumericalFailure. A nil context or result, an SKL not built by NewSKL,
// or a start.X of the wrong length or with NaN/Inf entries is an error wrapping
// linalg.ErrInvalid, and so is an input error of the solver given (such as
// linalg.ErrNotPSD from GoldfarbIdnani, whose H = 2DᵀD may be singular). A
// context that has ended gives an error wrapping ctx.Err() and status
// Canceled.
func (s *SKL) Solve(ctx context.Context, solver Solver, start *Start, res *Result) error {
	if err := linalg.CheckContext(opSKLSolve, ctx); err != nil {
		return err
	}
	if err := s.ready(opSKLSolve); err != nil {
		return err
	}
	if res == nil {
		return linalg.Errorf(linalg.ErrSettings, opSKLSolve, "nil result")
	}
	d := s.d
	if err := checkStart(opSKLSolve, start, d); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return canceled(ctx, opSKLSolve, res)
	}
	amax := 0.0
	for _, v := range s.a {
		amax = math.Max(amax, v)
	}
	if amax == 0 {
		// no μ can satisfy aᵀμ = 1: an outcome, not an input error
		res.Status = linalg.Infeasible
		res.X = grow(res.X, d)
		fill(res.X, math.NaN())
		res.Ray = res.Ray[:0]
		res.Iterations, res.Phase1Iterations, res.PolishIterations = 0, 0, 0
		res.Working = res.Working[:0]
		res.HShift = 0
		// the certificate: weight 1 on aᵀμ = 1, whose row is zero
		f := growFarkas(res, d, 1, d-1)
		f.Eq[0] = 1
		f.Residual, f.Gap = f.measure(&s.muP, d, 1, d-1, s.muAlt, s.r)
		return nil
	}
	bnd, isB := solver.(*Bounded)
	if solver == nil || (isB && bnd == nil) {
		bnd, isB = s.bnd, true // a nil *Bounded is the default fast path too
	}
	if !isB {
		return s.solveErr(ctx, solver.Solve(ctx, &s.muP, start, res), res)
	}
	k := s.truncation()
	nuP := &s.nuP
	if k < d {
		nuP = s.truncated(k)
	}
	st, err := s.solveNu(ctx, bnd, nuP, k, start)
	if err != nil {
		return s.solveErr(ctx, err, res)
	}
	if k < d && st != linalg.Optimal {
		// the leading block alone is not solvable (e.g. a_1..a_K = 0): full problem
		k = d
		if st, err = s.solveNu(ctx, bnd, &s.nuP, d, start); err != nil {
			return s.solveErr(ctx, err, res)
		}
	}
	nr := &s.nuRes
	res.Status = nr.Status
	if res.Status == linalg.Infeasible {
		// a ≠ 0 makes the problem feasible (see SKL): whatever stopped the
		// ν-space phase 1 was numerical
		res.Status = linalg.NumericalFailure
	}
	resetFarkas(res)
	res.HShift = 0
	res.Iterations, res.Phase1Iterations = nr.Iterations, nr.Phase1Iterations
	res.X = grow(res.X, d)
	res.Eq = grow(res.Eq, 1)
	res.Ineq = grow(res.Ineq, d-1)
	res.Lower, res.Upper = grow(res.Lower, d), grow(res.Upper, d)
	res.Ray = res.Ray[:0]
	fill(res.Lower, 0)
	fill(res.Upper, 0)
	fill(res.Ineq, 0)
	res.Eq[0] = nr.Eq[0]
	// μ = M S⁻¹ t (backward recurrence); μ_i = 0 past the truncation
	prev := 0.0
	for i := d - 1; i >= 0; i-- {
		if i < k {
			prev = nr.X[i]/s.scale[i] + s.decay*prev
		}
		res.X[i] = prev
	}
	free := s.free
	for i := 0; i < d; i++ {
		free[i] = i < k && nr.X[i] > 0
	}
	s.certify(res, free)
	if res.Status == linalg.Optimal && res.KKT.Max() > sklKKTTol {
		// The ν-space solve cannot tell apart the trailing ν_j whose columns
		// agree to rounding once δ^(j-1) exceeds 1/ε; it may stop the geometric
		// decay early (μ = 0 after the last positive ν). Continue the decay to
		// μ_d instead, rescale to aᵀμ = 1, and certify again.
		last := -1
		for i := range free {
			if free[i] {
				last = i
			}
		}
		if last >= 0 && last < d-1 {
			copy(s.muAlt, res.X)
			yOld := res.Eq[0]
			for i := last + 1; i < d; i++ {
				res.X[i] = res.X[i-1] / s.decay
			}
			sa := 0.0
			for i, v := range res.X {
				sa += s.a[i] * v
			}
			for i := range res.X {
				res.X[i] /= sa
			}
			res.Eq[0] /= sa
			free[last], free[d-1] = false, true
			s.certify(res, free)
			if res.KKT.Max() > sklKKTTol {
				copy(res.X, s.muAlt)
				res.Eq[0] = yOld
				free[last], free[d-1] = true, false
			}
		}
	}
	res.Working = res.Working[:0]
	for i := 0; i < d; i++ {
		if !free[i] {
			if i < d-1 {
				res.Working = append(res.Working, 1+i)
			} else {
				res.Working = append(res.Working, 1+(d-1)+i)
			}
		}
	}
	if res.Status == linalg.Optimal && res.KKT.Max() > sklKKTTol {
		return s.solveErr(ctx, s.finish(ctx, res), res)
	}
	return nil
}

// solveErr is the error of Solve when an inner solve returned err: nil for
// nil, the context's end reported as SKL's, or err itself.
func (s *SKL) solveErr(ctx context.Context, err error, res *Result) error {
	if err != nil && ctx.Err() != nil {
		return canceled(ctx, opSKLSolve, res)
	}
	return err
}

// truncation returns the number K <= d of leading ν coordinates the fast path
// solves for. The decay rows give μ_i <= μ_1/δ^(i−1), so once δ^(i−1) exceeds
// 2^52·2^8 (the 52 bits of μ_1's mantissa plus a margin of 8 halvings) μ_i is
// below 2^-8 ulp of μ_1 and cannot change any computed quantity at the level of
// rounding: K = 1 + ⌈60·ln2/ln δ⌉. For δ = 2 that is 61; for δ <= 1.2 it is
// about 230 and no truncation happens in the benchmark range.
func (s *SKL) truncation() int {
	if s.decay <= 1 {
		return s.d
	}
	k := 1 + math.Ceil(60*math.Ln2/math.Log(s.decay))
	if k >= float64(s.d) {
		return s.d
	}
	return int(k)
}

// truncated returns the ν-problem restricted to the leading k coordinates. As M
// is upper triangular, ν_i = 0 for i >= k gives μ_i = 0 for i >= k, and the
// restricted problem is the leading k×k block of the (scaled) full one: views
// into hnu and anu, no copies.
func (s *SKL) truncated(k int) *Problem {
	hr := s.hnu.RawSymmetric()
	s.hnuT.SetRawSymmetric(blas64.Symmetric{N: k, Stride: hr.Stride, Data: hr.Data, Uplo: blas.Upper})
	ar := s.anu.RawMatrix()
	s.anuT.SetRawMatrix(blas64.General{Rows: 1, Cols: k, Stride: ar.Stride, Data: ar.Data[:k]})
	s.nuPT = Problem{H: &s.hnuT, G: s.zero[:k], Aeq: &s.anuT, Beq: s.one, Lower: s.zero[:k]}
	return &s.nuPT
}

// solveNu solves the ν-problem nuP (the leading k coordinates) with bnd into
// s.nuRes, warm-started from the μ-space start if given.
func (s *SKL) solveNu(ctx context.Context, bnd *Bounded, nuP *Problem, k int, start *Start) (linalg.Status, error) {
	var st *Start
	if start != nil && start.X != nil {
		// ν = Gμ, scaled; tiny values (rounding of an active decay row) become 0
		mu := start.X
		for i := 0; i < k; i++ {
			v := mu[i]
			if i+1 < k {
				v -= s.decay * mu[i+1]
			}
			if v <= 1e-13*math.Abs(mu[i]) {
				v = 0
			}
			s.nuX[i] = v * s.scale[i]
		}
		s.nuSt.X = s.nuX[:k]
		st = &s.nuSt
	}
	if err := bnd.Solve(ctx, nuP, st, &s.nuRes); err != nil {
		return linalg.NotRun, err
	}
	return s.nuRes.Status, nil
}

// sklKKTTol is the relative μ-space KKT residual above which the ν-space answer
// is refined by ActiveSet.
const sklKKTTol = 1e-10

// finish refines a ν-space answer whose μ-space certificate is inaccurate (this
// happens when coefficients fall below rounding relative to μ_1, e.g. d = 100,
// δ = 2): ActiveSet on Problem(), warm-started from μ with the decay rows of zero
// ν and the zero μ_i as working set, and from its own start if that does not
// end Optimal.
func (s *SKL) finish(ctx context.Context, res *Result) error {
	d := s.d
	if s.as == nil {
		s.as = NewActiveSet(&Settings{SkipPSDCheck: true})
		s.asRes.X = make([]float64, 0, d)
		s.asSt.Working = make([]int, 0, 2*d)
	}
	w := s.asSt.Working[:0]
	for i := 0; i < d; i++ {
		if i >= len(s.nuRes.X) || s.nuRes.X[i] == 0 {
			if i < d-1 {
				w = append(w, 1+i)
			} else {
				w = append(w, d+i)
			}
		}
	}
	for i := 0; i < d-1; i++ {
		if res.X[i] == 0 {
			w = append(w, d+i)
		}
	}
	s.asSt.Working = w
	s.asSt.X = res.X
	a := &s.asRes
	warm := 0
	cold := false
	for _, v := range res.X {
		// A μ that overflowed (a of the order of rounding and a large
		// decay factor: the least feasible μ exceeds MaxFloat64) is no
		// start; ActiveSet would reject it as bad input.
		cold = cold || !finite(v)
	}
	if !cold {
		if err := s.as.Solve(ctx, &s.muP, &s.asSt, &s.asRes); err != nil {
			return err
		}
		warm = a.Iterations
	}
	s.asSt.X = nil
	if cold || (a.Status != linalg.Optimal && ctx.Err() == nil) {
		// The warm start can be far out: a column of Vl that is zero to
		// rounding has a_i and H_ii of the order of ε², and the ν-space
		// optimum may put μ_i at 1/a_i. ActiveSet from its own feasible
		// point does not start there.
		if err := s.as.Solve(ctx, &s.muP, nil, &s.asRes); err != nil {
			return err
		}
	}
	res.Status, res.Obj, res.KKT = a.Status, a.Obj, a.KKT
	res.PolishIterations = warm + a.Iterations
	res.Iterations += warm + a.Iterations
	copy(res.X, a.X)
	copy(res.Eq, a.Eq)
	copy(res.Ineq, a.Ineq)
	copy(res.Lower, a.Lower)
	copy(res.Upper, a.Upper)
	res.Working = append(res.Working[:0], a.Working...)
	return nil
}
