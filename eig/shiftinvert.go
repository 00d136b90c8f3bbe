package eig

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// ShiftInvert is the shift-and-invert mode: it finds the eigenvalues of A
// nearest the shift Sigma by running thick-restart Lanczos on the operator
// (A - Sigma I)^-1, whose largest eigenvalues 1/(lambda - Sigma) belong to
// them and are far apart even where those of A crowd together (the bottom
// of a stiffness matrix or of a graph Laplacian, where the solvers on A
// itself stop at their iteration limit). The results are handed back in
// the terms of A: Values are eigenvalues of A, not of the inverse, and
// Residuals are ||A v - theta v||.
//
// The shifted matrix is factorized once: a sparse Cholesky factorization
// with a fill-reducing ordering (NewSparseCholesky) for a *linalg.CSR or a
// CSR, a dense one (gonum's mat.Cholesky, O(n^3)) for a Dense; a Counter
// around one of them is seen through (its counts then include the
// products below). Other operators are rejected with linalg.ErrSettings.
//
// The eigenvalues nearest Sigma are found on the side of the spectrum
// Sigma lies beyond, which follows from the factorization (Settings.Which
// is ignored):
//
//   - Sigma below the smallest eigenvalue of A (A - Sigma I positive
//     definite): the d smallest eigenvalues, ascending. Sigma = 0, the
//     zero value, suits a positive definite A.
//   - Sigma above the largest eigenvalue (Sigma I - A positive definite,
//     found after a first attempt with A - Sigma I fails at a negative
//     pivot): the d largest, descending.
//
// A Sigma inside the spectrum, where the shifted matrix is indefinite and
// an indefinite factorization would be needed, is an error wrapping
// linalg.ErrNotPSD, and a Sigma equal to an eigenvalue of A to working
// precision one wrapping linalg.ErrDegenerate: a zero pivot (the error
// names it), or a shifted matrix whose condition exceeds 1/(n eps), as the
// dense factorization measures it and as the first pass finds it for the
// sparse one (a largest value of the inverse above 1/(n eps (||A|| +
// |Sigma|))), where the other values of the inverse would be lost in the
// rounding of that one. The Result's Status is then linalg.NotRun.
//
// Each expansion step applies the inverse once (two triangular solves,
// O(nnz(L)), after a factorization whose cost NewSparseCholesky states);
// Result.Solves counts those applications. The first pass keeps a basis
// of max(4d, 2d+20) vectors (or Settings.BasisSize), more than
// ThickRestart's max(3d, 2d+20), so that it seldom restarts: the
// inverse's values fall off fast, and the pairs usually converge within
// one basis, whose span serves the Rayleigh-Ritz step below. The tolerance of the
// iteration is relative to each value theta of the inverse, as in
// ARPACK's shift-and-invert mode, and set so that it implies the bound of
// acceptance with A: a pair of the inverse with residual r has
// ||A v - v/theta|| = ||A r||/theta, at most ||A|| r/theta. It is floored
// at a few units of round-off times the largest value.
//
// The values and explicit residuals ||A v - theta v|| come from a
// Rayleigh-Ritz step with A on the span of the Ritz vectors (d products
// with A, counted in MatVecs and Products, and O(n d^2) work), and a pair
// counts as converged as in the other solvers, with NormEstimate the
// Gershgorin bound max_i sum_j |a_ij| of A (an upper bound on ||A||). The
// Ritz vectors of the inverse carry the rounding of the solves along the
// eigenvectors far from Sigma, which A magnifies: when some pair misses
// the bound, the Rayleigh-Ritz step is taken on the whole basis of the
// pass (one product with A per basis vector and O(n m^2) work), which
// cancels it, and the pairs it still leaves above the bound get up to two
// steps of subspace inverse iteration (one solve each) if a step can
// bring them under it. The pairs still above it after that are the
// inverse's small values, those farthest from Sigma, which it resolves
// only to round-off times its largest: the iteration is run again (at
// most four more times) on the inverse with the leading converged pairs
// projected out, starting from the sum of the others.
//
// The multiplicity check (skipped with Settings.NoMultiplicityCheck) is
// Lanczos from a random vector on the inverse with the returned vectors
// projected out, and the Ritz vectors after them that are accurate enough
// not to hide an eigenvector: a missed copy of a repeated eigenvalue
// would be its largest value. It ends when the Lanczos polynomial bounds
// the component of the start along any eigenvector of a value beyond the
// wanted set so tightly that a random start has one that small with
// probability below 1e-4. A value it finds is computed by a pass on the
// inverse with the d pairs projected out, and the check runs again;
// should that not settle it, the passes run again with the engine's
// multiplicity check. Its solves count in Solves and Iterations. Pairs
// above the bound at the end make the Status linalg.IterationLimit.
// Other Settings apply as for ThickRestart (BlockSize is ignored,
// NoRefine has no effect). A ShiftInvert value holds no state;
// concurrent solves each factorize their own matrix.
type ShiftInvert struct {
	// Sigma is the shift, finite (see the type's documentation for the
	// side of the spectrum it must lie on). The zero value is 0.
	Sigma float64
}

var _ Solver = ShiftInvert{}

// Name returns "shift-invert".
func (ShiftInvert) Name() string { return "shift-invert" }

// Solve computes the d eigenpairs of a nearest si.Sigma. See ShiftInvert
// and Solver.
func (si ShiftInvert) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	const op = "eig.ShiftInvert.Solve"
	cfg, st, err := validate(ctx, op, a, d, s)
	if err != nil {
		return &Result{Status: st}, err
	}
	if math.IsNaN(si.Sigma) || math.IsInf(si.Sigma, 0) {
		return &Result{}, linalg.Errorf(linalg.ErrNonFinite, op, "Sigma = %v is not finite", si.Sigma)
	}
	// Below the spectrum A - Sigma I is positive definite; above it,
	// Sigma I - A.
	cfg.which = Smallest
	inv, norm, err := factorShifted(ctx, op, a, si.Sigma, false)
	if errors.Is(err, linalg.ErrNotPSD) {
		var err2 error
		inv, norm, err2 = factorShifted(ctx, op, a, si.Sigma, true)
		switch {
		case err2 == nil:
			cfg.which, err = Largest, nil
		case errors.Is(err2, linalg.ErrNotPSD):
			err = linalg.Errorf(linalg.ErrNotPSD, op,
				"A - Sigma I (Sigma = %g) is indefinite: Sigma lies inside the spectrum of A, which needs an indefinite factorization (not provided): %w", si.Sigma, err)
		default:
			err = err2
		}
	}
	if err != nil {
		st := linalg.NotRun
		if ctx.Err() != nil {
			st = linalg.Canceled
		}
		return &Result{Status: st}, err
	}
	// The inverse (A - Sigma I)^-1, or (Sigma I - A)^-1, is positive
	// definite: its largest values are the wanted ones.
	r := &siRun{ctx: ctx, a: a, inv: inv, cfg: cfg, sigma: si.Sigma, norm: norm}
	r.icfg = *cfg
	r.icfg.which = Largest
	r.icfg.refine = false
	r.icfg.relTol = true
	r.icfg.verify = false
	r.lim = acceptTol(cfg.tol, cfg.n) * norm
	res, missed, err := r.solve(false)
	if err == nil && missed {
		// Copies the check found but the pass on the deflated inverse did
		// not settle: the passes with the engine's multiplicity check.
		first := *res
		res, _, err = r.solve(true)
		res.Iterations += first.Iterations
		res.Restarts += first.Restarts
		res.MatVecs += first.MatVecs
		res.Products += first.Products
	}
	res.Solves = inv.solves
	if err != nil {
		return res, err
	}
	res.Repeated = repeated(res.Values, math.Sqrt(cfg.tol)*norm)
	if res.Status == linalg.Converged && res.Converged < len(res.Values) {
		res.Status = linalg.IterationLimit
	}
	return res, nil
}

// siRun holds one shift-and-invert solve.
type siRun struct {
	ctx   context.Context
	a     Operator
	inv   *inverse
	cfg   *checked // the settings for A
	icfg  checked  // the settings for the inverse
	sigma float64
	norm  float64 // Gershgorin bound of A
	lim   float64 // residual bound of a converged pair
}

// maxDeflations bounds the passes of the iteration on the deflated
// inverse (see deflated).
const maxDeflations = 4

// solve runs the passes of the iteration on the inverse and the
// multiplicity check, and reports whether the check found values it could
// not settle (see missedCopy). With careful, the passes run the engine's
// multiplicity check instead, with the engine's tolerance and basis size,
// and there is no final check.
func (r *siRun) solve(careful bool) (res *Result, missed bool, err error) {
	cfg := r.cfg
	n, d := cfg.n, cfg.d
	res = &Result{NormEstimate: r.norm}
	var known []ritzSet // accurate Ritz vectors after the wanted ones
	locked := 0
	exact := false
	for pass := 0; ; pass++ {
		// Pass 0 runs on the inverse; later passes on the inverse with
		// the converged leading pairs projected out, whose largest value
		// is then the first unconverged one (see deflated), starting from
		// the sum of the unconverged vectors.
		var op Operator = r.inv
		if locked > 0 {
			op = &deflated{inv: r.inv, v: res.Vectors.Slice(0, n, 0, locked).(*mat.Dense)}
		}
		pcfg := r.icfg
		pcfg.d = d - locked
		m := defaultBasis(&pcfg)
		if careful {
			pcfg.verify = cfg.verify
		} else {
			pcfg.tol = acceptTol(cfg.tol, n)
			if pass == 0 {
				m = firstBasis(&pcfg)
			}
		}
		if pass > 0 {
			pcfg.start = restartVector(res.Vectors, locked)
		}
		p, err := runPass(r.ctx, op, &pcfg, m, 0)
		res.Iterations += p.iters
		res.Restarts += p.restarts
		res.Status = p.status
		res.Solves = r.inv.solves
		if err != nil || p.ritz == nil {
			return res, false, err
		}
		if pass == 0 && p.top*float64(n)*dlamchE*(r.norm+math.Abs(r.sigma)) >= 1 {
			// 1/top bounds the smallest eigenvalue of the shifted matrix
			// from above: within n eps of its norm, Sigma is an eigenvalue
			// of A to working precision, as the dense factorization's
			// condition test says, and the inverse's other values are
			// lost in the rounding of its largest.
			res.Status = linalg.NotRun
			return res, false, linalg.Errorf(linalg.ErrDegenerate, "eig.ShiftInvert.Solve",
				"the shifted matrix (Sigma = %g) is singular to working precision: its smallest eigenvalue is at most %.3g, within n eps of its norm; Sigma is an eigenvalue of A (move it away from the spectrum)", r.sigma, 1/p.top)
		}
		exact = p.exact
		// The pairs of A on the span of the locked vectors and the Ritz
		// vectors of the pass, or of its whole basis.
		cand, sub := p.ritz, p.basis
		if locked > 0 {
			lockedRows := mat.DenseCopyOf(res.Vectors.Slice(0, n, 0, locked).T())
			cand = stackRows(lockedRows, p.ritz)
			if sub != nil {
				sub = appendOrthonormal(lockedRows, sub)
			}
		}
		r.settle(res, cand, sub)
		if p.beyond.v != nil {
			known = append(known, p.beyond)
		}
		prefix := 0
		for prefix < d && res.Residuals[prefix] <= r.lim {
			prefix++
		}
		if prefix == d || prefix <= locked || pass == maxDeflations || r.ctx.Err() != nil {
			break
		}
		locked = prefix
	}
	if careful || exact || !cfg.verify || res.Converged < d || r.ctx.Err() != nil {
		return res, false, nil
	}
	// The multiplicity check. The values it finds above the wanted set
	// are the largest of the inverse with the d pairs projected out: a
	// pass on that operator, from the vectors the check found, computes
	// them, the pairs become the d best of both, and the check runs again
	// from a new random vector.
	for round := 0; ; round++ {
		c, err := r.missedCopy(res, known, round)
		res.Iterations += c.steps
		res.Solves = r.inv.solves
		if err != nil || c.status != linalg.Converged {
			res.Status = c.status
			return res, false, err
		}
		if !c.found {
			return res, false, nil
		}
		if round == d {
			return res, true, nil
		}
		e, _ := c.extra.Dims()
		pcfg := r.icfg
		pcfg.d = e
		pcfg.tol = acceptTol(cfg.tol, n)
		pcfg.start = make([]float64, n)
		for i := 0; i < e; i++ {
			axpy(1, c.extra.RawRowView(i), pcfg.start)
		}
		cut := c.thetaD - c.winB
		p, err := runPass(r.ctx, &deflated{inv: r.inv, v: res.Vectors}, &pcfg, defaultBasis(&pcfg), cut)
		res.Iterations += p.iters
		res.Restarts += p.restarts
		res.Solves = r.inv.solves
		if err != nil || p.ritz == nil {
			res.Status = p.status
			return res, false, err
		}
		yrows := mat.DenseCopyOf(res.Vectors.T())
		cand := stackRows(yrows, p.ritz)
		sub := p.basis
		if sub != nil {
			sub = appendOrthonormal(yrows, sub)
		}
		if p.beyond.v != nil {
			known = append(known, p.beyond)
			// Accurate vectors of more values above the wanted set than
			// the check saw.
			for i, v := range p.beyond.vals {
				if v > cut {
					cand = appendOrthonormal(cand, p.beyond.v.Slice(i, i+1, 0, n).(*mat.Dense))
				}
			}
		}
		r.settle(res, cand, sub)
		if res.Converged < d {
			return res, true, nil
		}
	}
}

// settle sets res's pairs to the d best pairs of A on the span of the
// orthonormal rows of cand (a Rayleigh-Ritz step) and, if some miss the
// bound, on the span of those of sub (which contains cand's), then
// improves those a step of inverse iteration can bring under it (see
// stepWorthy).
func (r *siRun) settle(res *Result, cand, sub *mat.Dense) {
	d := r.cfg.d
	r.backTransform(res, cand)
	if res.Converged < d && sub != nil && sub.RawMatrix().Rows > cand.RawMatrix().Rows {
		if z := r.ritzA(res, sub); z != nil {
			r.backTransform(res, z)
		}
	}
	for round := 0; round < maxSubspaceSteps && res.Converged < d && r.ctx.Err() == nil; round++ {
		step := r.stepWorthy(res, maxSubspaceSteps-round)
		if step == nil {
			break
		}
		r.backTransform(res, inverseStep(r.inv, res.Vectors, step))
		res.Solves = r.inv.solves
	}
}

// firstBasis returns the basis size of the first pass: the setting, or
// max(4d, 2d+20).
func firstBasis(cfg *checked) int {
	if cfg.basis != 0 {
		return cfg.basis
	}
	return max(4*cfg.d, 2*cfg.d+20)
}

// restartVector returns the sum of the columns locked: of v, the start of
// a deflated pass: it lies in the span of the previous passes.
func restartVector(v *mat.Dense, locked int) []float64 {
	n, d := v.Dims()
	x := make([]float64, n)
	for i := 0; i < n; i++ {
		for _, e := range v.RawRowView(i)[locked:d] {
			x[i] += e
		}
	}
	return x
}

// maxSubspaceSteps bounds the steps of subspace inverse iteration after
// the Lanczos iteration (see inverseStep).
const maxSubspaceSteps = 2

// stepWorthy returns which pairs of res a step of inverse iteration could
// bring under the bound within rounds steps, nil if none. A step damps
// the component of a vector along an eigenvector by the ratio of the
// distances of its value and of the eigenvector's to Sigma, at best
// |theta - Sigma| / (||A|| + |Sigma|) (with the Gershgorin bound for
// ||A||): a residual that even that damping leaves above the bound is not
// the rounding along distant eigenvectors the steps remove but an
// unresolved pair, left to the deflated passes.
func (r *siRun) stepWorthy(res *Result, rounds int) []bool {
	var step []bool
	for j, rj := range res.Residuals {
		if rj <= r.lim {
			continue
		}
		damp := math.Abs(res.Values[j]-r.sigma) / (r.norm + math.Abs(r.sigma))
		if rj*math.Pow(damp, float64(rounds)) > r.lim {
			continue
		}
		if step == nil {
			step = make([]bool, len(res.Residuals))
		}
		step[j] = true
	}
	return step
}

// inverseStep returns (as rows) an orthonormal basis of the span of the
// columns of V not marked in step and of (A - sigma I)^-1 v for the
// others: one step of subspace inverse iteration on them (one application
// of the inverse each). The Lanczos iteration resolves the pairs of the
// inverse to about eps times its largest value, which for a pair of A far
// from sigma leaves its vector off by components along distant
// eigenvectors, which A magnifies into its residual; the step damps each
// such component by the ratio of the distances to sigma, and the
// Rayleigh-Ritz step that follows sorts out the wanted directions.
func inverseStep(inv *inverse, v *mat.Dense, step []bool) *mat.Dense {
	n, d := v.Dims()
	y := mat.NewDense(d, n, nil)
	x := make([]float64, n)
	for j := 0; j < d; j++ {
		row := y.RawRowView(j)
		if !step[j] {
			mat.Col(row, j, v)
			continue
		}
		mat.Col(x, j, v)
		inv.MulVecTo(row, x)
		// Scale first: the columns differ by orders of magnitude.
		if nr := rowNorm(row); nr > 0 {
			for i, yv := range row {
				row[i] = yv / nr
			}
		}
	}
	gramSchmidtRows(y, d)
	return y
}

// backTransform sets res's pairs to the cfg.d best of a Rayleigh-Ritz
// step with A on the span of the rows of y (orthonormal, at least cfg.d):
// values of A ordered as cfg.which wants, vectors, explicit residuals, and
// the count of converged pairs.
func (r *siRun) backTransform(res *Result, y *mat.Dense) {
	a, cfg := r.a, r.cfg
	k, n := y.Dims()
	d := cfg.d
	ay, vals, z, sorted := projectRows(res, a, y, nil)
	res.Values = make([]float64, d)
	res.Residuals = make([]float64, d)
	res.Vectors = mat.NewDense(n, d, nil)
	res.Converged = 0
	yr := make([]float64, n)
	ar := make([]float64, n)
	for a := 0; a < d; a++ {
		// Ascending from EigenSym; the wanted end first.
		j := a
		if sorted && cfg.which == Largest {
			j = k - 1 - a
		}
		clear(yr)
		clear(ar)
		for i := 0; i < k; i++ {
			zij := z.At(i, j)
			axpy(zij, y.RawRowView(i), yr)
			axpy(zij, ay.RawRowView(i), ar)
		}
		res.Values[a] = vals[j]
		axpy(-vals[j], yr, ar)
		res.Residuals[a] = rowNorm(ar)
		if res.Residuals[a] <= r.lim {
			res.Converged++
		}
		res.Vectors.SetCol(a, yr)
	}
}
