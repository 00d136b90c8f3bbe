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
// precision (a singular shifted matrix, a zero pivot) one wrapping
// linalg.ErrDegenerate; the error names the failing pivot, and the
// Result's Status is linalg.NotRun.
//
// Each expansion step applies the inverse once (two triangular solves,
// O(nnz(L)), after a factorization whose cost NewSparseCholesky states);
// Result.Solves counts those applications. The tolerance of the iteration
// is relative to each value of the inverse (ARPACK's rule in its
// shift-and-invert mode), floored at a few units of round-off times the
// largest. After it, a Rayleigh-Ritz step with A on the span of the
// vectors (d products with A, counted in MatVecs and Products, and O(n
// d^2) work) gives the values and the explicit residuals ||A v - theta
// v||, and a pair counts as converged as in the other solvers, with
// NormEstimate the Gershgorin bound max_i sum_j |a_ij| of A (an upper
// bound on ||A||). Pairs that miss that bound get up to two steps of
// subspace inverse iteration (one solve each), and, if some are still
// above it, the iteration is run again (at most four more times) on the
// inverse with the leading converged pairs projected out: the inverse
// resolves its small values, those of the pairs farthest from Sigma, only
// to round-off times its largest. Pairs above the bound at the end make
// the Status linalg.IterationLimit. Settings apply as for ThickRestart
// (BlockSize is ignored, NoRefine has no effect); the multiplicity check
// runs on the inverse. A ShiftInvert value holds no state; concurrent
// solves each factorize their own matrix.
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
	icfg := *cfg
	icfg.which = Largest
	icfg.refine = false
	icfg.relTol = true
	res := &Result{NormEstimate: norm}
	lim := acceptTol(cfg.tol, cfg.n) * norm
	locked := 0
	for pass := 0; ; pass++ {
		// Pass 0 runs on the inverse; later passes on the inverse with
		// the converged leading pairs projected out, whose largest value
		// is then the first unconverged one (see deflated).
		var op Operator = inv
		if locked > 0 {
			op = &deflated{inv: inv, v: res.Vectors.Slice(0, cfg.n, 0, locked).(*mat.Dense)}
		}
		pcfg := icfg
		pcfg.d = d - locked
		w, status, iters, restarts, err := runInverse(ctx, op, &pcfg)
		res.Iterations += iters
		res.Restarts += restarts
		res.Status = status
		res.Solves = inv.solves
		if err != nil || w == nil {
			return res, err
		}
		v := w
		if locked > 0 {
			v = mat.NewDense(cfg.n, d, nil)
			v.Slice(0, cfg.n, 0, locked).(*mat.Dense).Copy(res.Vectors.Slice(0, cfg.n, 0, locked))
			v.Slice(0, cfg.n, locked, d).(*mat.Dense).Copy(w)
		}
		for round := 0; ; round++ {
			backTransform(res, a, v, cfg)
			res.Converged = 0
			for _, r := range res.Residuals {
				if r <= lim {
					res.Converged++
				}
			}
			if res.Converged == d || round == maxSubspaceSteps || ctx.Err() != nil {
				break
			}
			v = inverseStep(inv, res.Vectors, res.Residuals, lim)
			res.Solves = inv.solves
		}
		prefix := 0
		for prefix < d && res.Residuals[prefix] <= lim {
			prefix++
		}
		if prefix == d || prefix <= locked || pass == maxDeflations || ctx.Err() != nil {
			break
		}
		locked = prefix
	}
	res.Repeated = repeated(res.Values, math.Sqrt(cfg.tol)*norm)
	if res.Status == linalg.Converged && res.Converged < len(res.Values) {
		res.Status = linalg.IterationLimit
	}
	return res, nil
}

// maxDeflations bounds the passes of the iteration on the deflated
// inverse (see deflated).
const maxDeflations = 4

// runInverse runs thick-restart Lanczos (the dense method when the
// problem is small) for the cfg.d largest pairs of the positive definite
// operator op and returns the Ritz vectors (n x d) with the engine's
// status and counts.
func runInverse(ctx context.Context, op Operator, cfg *checked) (v *mat.Dense, status linalg.Status, iters, restarts int, err error) {
	if small(cfg, 1, defaultBasis(cfg)) {
		r, err := solveDense(ctx, op, cfg)
		return r.Vectors, r.Status, 0, 0, err
	}
	k, err := newKrylovFor(op, cfg, 1, defaultBasis(cfg), true)
	if err != nil {
		return nil, linalg.NotRun, 0, 0, err
	}
	c, status, err := k.run(ctx)
	r := k.result(c, status, false)
	return r.Vectors, r.Status, k.iters, k.restarts, err
}

// deflated is the operator P B P with P = I - V Vᵀ, for the inverse B and
// the orthonormal columns V of the pairs already converged. The Lanczos
// iteration resolves the Ritz values of the inverse to about eps times
// its largest value: for the pairs of A farthest from sigma, whose values
// in the inverse are many orders of magnitude smaller, that is no relative
// accuracy at all. With the converged pairs projected out, the largest
// value is the first of the others, and they converge to working
// precision. Each application costs one solve and O(n k) for k locked
// vectors.
type deflated struct {
	inv *inverse
	v   *mat.Dense // n x k
	t   []float64
	c   []float64
}

func (f *deflated) Dims() (r, c int) { return f.inv.Dims() }

func (f *deflated) MulVecTo(dst, x []float64) {
	n, k := f.v.Dims()
	if f.t == nil {
		f.t, f.c = make([]float64, n), make([]float64, k)
	}
	copy(f.t, x)
	f.project(f.t)
	f.inv.MulVecTo(dst, f.t)
	f.project(dst)
}

// project sets x = (I - V Vᵀ) x, by classical Gram-Schmidt twice.
func (f *deflated) project(x []float64) {
	raw := f.v.RawMatrix()
	k := raw.Cols
	for pass := 0; pass < 2; pass++ {
		clear(f.c)
		for i, xi := range x {
			row := raw.Data[i*raw.Stride : i*raw.Stride+k]
			for j, vij := range row {
				f.c[j] += vij * xi
			}
		}
		for i := range x {
			row := raw.Data[i*raw.Stride : i*raw.Stride+k]
			var s float64
			for j, vij := range row {
				s += vij * f.c[j]
			}
			x[i] -= s
		}
	}
}

// maxSubspaceSteps bounds the steps of subspace inverse iteration after
// the Lanczos iteration (see inverseStep).
const maxSubspaceSteps = 2

// inverseStep returns an orthonormal basis of the span of the columns of
// V whose residual meets lim and of (A - sigma I)^-1 v for the others: one
// step of subspace inverse iteration on the unconverged vectors (one
// application of the inverse each). The Lanczos iteration resolves the
// pairs of the inverse to about eps times its largest value, which for a
// pair of A far from sigma leaves its vector off by components along
// distant eigenvectors, which A magnifies into its residual; the step
// damps each such component by the ratio of the distances to sigma, and
// the Rayleigh-Ritz step that follows sorts out the wanted directions.
func inverseStep(inv *inverse, v *mat.Dense, resid []float64, lim float64) *mat.Dense {
	n, d := v.Dims()
	y := mat.NewDense(d, n, nil)
	x := make([]float64, n)
	for j := 0; j < d; j++ {
		row := y.RawRowView(j)
		if resid[j] <= lim {
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
	out := mat.NewDense(n, d, nil)
	out.Copy(y.T())
	return out
}

// backTransform sets res's pairs by a Rayleigh-Ritz step with A on the
// span of the columns of v (orthonormal): values of A ordered as cfg.which
// wants, vectors, explicit residuals.
func backTransform(res *Result, a Operator, v *mat.Dense, cfg *checked) {
	n, d := v.Dims()
	y := mat.NewDense(d, n, nil)
	y.Copy(v.T())
	ay := mat.NewDense(d, n, nil)
	mulVecs(a, ay, y)
	res.MatVecs += d
	res.Products += calls(a, d)
	h := mat.NewSymDense(d, nil)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			// Symmetrized couplings: A is symmetric, the rows of ay carry
			// its rounding.
			h.SetSym(i, j, (dot2(y.RawRowView(i), ay.RawRowView(j))+dot2(y.RawRowView(j), ay.RawRowView(i)))/2)
		}
	}
	var es mat.EigenSym
	var z mat.Dense
	vals := make([]float64, d)
	if es.Factorize(h, true) {
		es.Values(vals)
		es.VectorsTo(&z)
	} else { // keep the vectors as they are
		z.ReuseAs(d, d)
		for i := 0; i < d; i++ {
			vals[i] = h.At(i, i)
			z.Set(i, i, 1)
		}
	}
	// Ascending from EigenSym; the wanted end first.
	order := make([]int, d)
	for j := range order {
		order[j] = j
		if cfg.which == Largest {
			order[j] = d - 1 - j
		}
	}
	res.Values = make([]float64, d)
	res.Residuals = make([]float64, d)
	res.Vectors = mat.NewDense(n, d, nil)
	yr := make([]float64, n)
	ar := make([]float64, n)
	for a, j := range order {
		clear(yr)
		clear(ar)
		for i := 0; i < d; i++ {
			zij := z.At(i, j)
			axpy(zij, y.RawRowView(i), yr)
			axpy(zij, ay.RawRowView(i), ar)
		}
		res.Values[a] = vals[j]
		axpy(-vals[j], yr, ar)
		res.Residuals[a] = rowNorm(ar)
		res.Vectors.SetCol(a, yr)
	}
}

// axpy sets y += alpha x.
func axpy(alpha float64, x, y []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}

// inverse is the operator (A - sigma I)^-1 (or its negative's) of a
// factorization, counting its applications. It is used by one solve at a
// time.
type inverse struct {
	n      int
	solve  func(dst, x, work []float64)
	work   []float64
	solves int
}

func (v *inverse) Dims() (r, c int) { return v.n, v.n }

func (v *inverse) MulVecTo(dst, x []float64) {
	v.solves++
	v.solve(dst, x, v.work)
}

// factorShifted factorizes A - sigma I (or sigma I - A if negate) for the
// matrices ShiftInvert supports and returns the inverse operator and the
// Gershgorin bound of A.
func factorShifted(ctx context.Context, op string, a Operator, sigma float64, negate bool) (*inverse, float64, error) {
	m := a
	for range 64 {
		c, ok := m.(*Counter)
		if !ok {
			break
		}
		m = c.Op
	}
	n, _ := a.Dims()
	inv := &inverse{n: n, work: make([]float64, n)}
	var sp *linalg.CSR
	switch t := m.(type) {
	case *CSR:
		sp = t.a
	case *linalg.CSR:
		if _, err := NewCSR(t); err != nil {
			return nil, 0, linalg.Errorf(kindOf(err), op, "%w", err)
		}
		sp = t
	case *Dense:
		f, norm, err := denseCholesky(op, t, sigma, negate)
		if err != nil {
			return nil, 0, err
		}
		inv.solve = func(dst, x, _ []float64) {
			dv := mat.NewVecDense(n, dst)
			if err := f.SolveVecTo(dv, mat.NewVecDense(n, x)); err != nil {
				// Cannot happen: the factorization succeeded.
				panic("eig: internal error: " + err.Error())
			}
		}
		return inv, norm, nil
	default:
		return nil, 0, linalg.Errorf(linalg.ErrSettings, op,
			"shift-and-invert needs a matrix to factorize (*linalg.CSR, *eig.CSR or *eig.Dense), not %T", m)
	}
	norm := GershgorinBound(sp)
	if negate {
		sp = negateValues(sp)
		sigma = -sigma
	}
	f, err := factorCSR(ctx, op, sp, sigma)
	if err != nil {
		return nil, 0, err
	}
	inv.solve = func(dst, x, work []float64) { f.solvePermuted(dst, x, work) }
	return inv, norm, nil
}

// negateValues returns a copy of a with its values negated (sharing the
// pattern).
func negateValues(a *linalg.CSR) *linalg.CSR {
	b := *a
	b.Val = make([]float64, len(a.Val))
	for i, v := range a.Val {
		b.Val[i] = -v
	}
	return &b
}

// denseCholesky factorizes A - sigma I (sigma I - A if negate) of a dense
// operator and returns the factorization and the Gershgorin bound of A.
func denseCholesky(op string, a *Dense, sigma float64, negate bool) (*mat.Cholesky, float64, error) {
	n := a.n
	s := mat.NewSymDense(n, nil)
	var norm float64
	for i := 0; i < n; i++ {
		var row float64
		for j := 0; j < n; j++ {
			v := a.a[i*n+j]
			row += math.Abs(v)
			if j < i {
				continue
			}
			if j == i {
				v -= sigma
			}
			if negate {
				v = -v
			}
			s.SetSym(i, j, v)
		}
		norm = math.Max(norm, row)
	}
	var f mat.Cholesky
	if !f.Factorize(s) {
		return nil, 0, linalg.Errorf(linalg.ErrNotPSD, op,
			"the shifted matrix (sigma = %g) is not positive definite: sigma is an eigenvalue of A or on the wrong side of one", sigma)
	}
	if f.Cond() > 1/(float64(n)*dlamchE) {
		return nil, 0, linalg.Errorf(linalg.ErrDegenerate, op,
			"the shifted matrix (sigma = %g) is singular to working precision (condition %.3g): sigma is an eigenvalue of A", sigma, f.Cond())
	}
	return &f, norm, nil
}
