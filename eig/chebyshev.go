package eig

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Chebyshev computes the d eigenpairs at one end of the spectrum by
// thick-restart Lanczos on a Chebyshev polynomial of the operator,
// p(A) = T_k(L(A)), where L maps [Lower, Cut] onto [-1, 1] (for the
// largest end; the smallest end is the largest of -A). On [Lower, Cut]
// |p| <= 1, and above Cut p grows fast and monotonically, so wanted
// eigenvalues that crowd together in A (the top of a graph's normalised
// affinity, whose leading hundred values may lie within a few percent of
// 1) are far apart in p(A). Each Lanczos step then costs Degree products
// with A, but the solve needs far fewer steps and so far less
// orthogonalization against the basis, which is what a large sparse
// problem with many wanted pairs spends its time on. It is not the
// default (TopD): where products are as costly as orthogonalization
// (dense kernels, small n, few pairs) it makes more of them for nothing.
//
// The answer is handed back in A's terms: a Rayleigh-Ritz step with A on
// the span of the vectors (d products, O(n d^2)) gives the values and the
// explicit residuals; pairs above the tolerance get up to two steps of
// refinement (a Rayleigh-Ritz step on the vectors and their residuals) or
// of subspace iteration with p(A), and pairs still above it make the
// Status linalg.IterationLimit. At tolerances of RefineTol and below the
// converged pairs get the final refinement of the other Krylov methods.
//
// The wanted eigenvalues must lie above Cut. When Cut is zero it is
// chosen from a short Lanczos run from the seeded start (the Ritz values
// and their weights estimate how many eigenvalues lie above each point,
// and Cut is put where about 2d + 10 do). Whatever the choice, the result
// is checked: the polynomial keeps the order of eigenvalues only above
// Cut, so if any returned value lies at or below it, fewer than d
// eigenvalues lie above it; Cut is then lowered and the solve repeated
// (at most three times), and after that the pairs come from ThickRestart
// on A itself. Lower must bound the spectrum from below (an eigenvalue
// under it would be amplified too; the same check catches it); with Lower
// and Upper both zero the bounds come from the same short run, widened by
// its residual estimates. Upper only scales p so that p(Upper) = 1.
//
// Settings apply as for ThickRestart, with Tol the relative tolerance of
// the pairs of A (the iteration on p(A) runs at the same tolerance);
// MatVecs and Products count the products with A, Iterations and
// Restarts the Lanczos steps and restarts on p(A). A Chebyshev value
// holds no state and may be used concurrently.
type Chebyshev struct {
	// Lower and Upper bound the spectrum of A (both zero: estimated).
	Lower, Upper float64
	// Cut is the point above which the wanted eigenvalues lie (for
	// Smallest, below which); zero means chosen automatically.
	Cut float64
	// Degree is the polynomial degree k; zero means
	// DefaultChebyshevDegree.
	Degree int
}

// DefaultChebyshevDegree is the polynomial degree of Chebyshev when
// Degree is zero: high enough to separate clustered wanted eigenvalues,
// low enough that the products do not outweigh the orthogonalization they
// save.
const DefaultChebyshevDegree = 10

var _ Solver = Chebyshev{}

// Name returns "chebyshev".
func (Chebyshev) Name() string { return "chebyshev" }

// maxCutRetries bounds the solves repeated with a lower Cut.
const maxCutRetries = 3

// Solve computes the d eigenpairs of a at the end s.Which selects (the
// largest by default). See Solver.
func (c Chebyshev) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	return c.solveAs(ctx, "eig.Chebyshev.Solve", a, d, s)
}

// solveAs is Solve with errors naming op.
func (c Chebyshev) solveAs(ctx context.Context, op string, a Operator, d int, s *Settings) (*Result, error) {
	cfg, st, err := validate(ctx, op, a, d, s)
	if err != nil {
		return &Result{Status: st}, err
	}
	for _, v := range []float64{c.Lower, c.Upper, c.Cut} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &Result{}, linalg.Errorf(linalg.ErrNonFinite, op, "bounds Lower = %v, Upper = %v, Cut = %v must be finite", c.Lower, c.Upper, c.Cut)
		}
	}
	if c.Degree < 0 || c.Degree > 1000 {
		return &Result{}, linalg.Errorf(linalg.ErrSettings, op, "Degree = %d, want 0 (default) to 1000", c.Degree)
	}
	if (c.Lower != 0 || c.Upper != 0) && !(c.Lower < c.Upper) {
		return &Result{}, linalg.Errorf(linalg.ErrSettings, op, "Lower = %v must be below Upper = %v", c.Lower, c.Upper)
	}
	if small(cfg, 1, defaultBasis(cfg)) {
		return solveDense(ctx, a, cfg)
	}
	if sp := sparseOf(a); sp != nil && cfg.n >= reorderMinN && cfg.start == nil {
		// Solve on P A Pᵀ in a bandwidth-reducing order, where a product
		// reads the vectors from nearby memory, and map the vectors back.
		perm := linalg.BandwidthOrder(sp)
		res, err := c.solve(ctx, op, linalg.PermuteSym(sp, perm), cfg, s)
		if res != nil && res.Vectors != nil {
			v := mat.NewDense(cfg.n, res.Vectors.RawMatrix().Cols, nil)
			for i, p := range perm {
				copy(v.RawRowView(p), res.Vectors.RawRowView(i))
			}
			res.Vectors = v
		}
		return res, err
	}
	return c.solve(ctx, op, a, cfg, s)
}

// reorderMinN is the order from which Chebyshev solves a sparse matrix in
// a bandwidth-reducing order (below it the vectors stay in cache anyway).
const reorderMinN = 20000

// solve is Solve after validation.
func (c Chebyshev) solve(ctx context.Context, op string, a Operator, cfg *checked, s *Settings) (*Result, error) {
	d := cfg.d
	var err error
	k := c.Degree
	if k == 0 {
		k = DefaultChebyshevDegree
	}
	// Work on B = sign A, whose largest eigenvalues are the wanted ones.
	sign := 1.0
	if cfg.which == Smallest {
		sign = -1
	}
	cnt := &Counter{Op: a}
	var b Operator = cnt
	if sign < 0 {
		b = Negate(cnt)
	}
	lo, hi := sign*c.Lower, sign*c.Upper
	if lo > hi {
		lo, hi = hi, lo
	}
	cut := sign * c.Cut
	var est *spectrumEstimate
	if (c.Lower == 0 && c.Upper == 0) || c.Cut == 0 {
		est, err = estimateSpectrum(ctx, b, cfg)
		if err != nil {
			return &Result{Status: linalg.Canceled, MatVecs: int(cnt.Vectors()), Products: int(cnt.Calls())}, canceled(op, err)
		}
		if c.Lower == 0 && c.Upper == 0 {
			lo, hi = est.lo, est.hi
		}
		if c.Cut == 0 {
			cut = est.cut(2*d+10, cfg.n)
		}
	}
	res := &Result{}
	w, _ := chebPool.Get().(*chebWork)
	if w == nil {
		w = new(chebWork)
	}
	if cfg.n*d <= chebPoolMax {
		defer chebPool.Put(w)
	}
	for try := 0; try <= maxCutRetries && cut > lo && cut < hi; try++ {
		f := newChebOp(cnt, blockOf(a), sign, k, lo, cut, hi)
		if f.k < 2 {
			break // the filter would separate nothing
		}
		// A pair of p(B) resolved to tau ||p|| is one of A resolved to
		// about tau / p(lambda) <= tau / scale times ||A||.
		fcfg := *cfg
		fcfg.which = Largest
		fcfg.refine = false
		fcfg.tol = math.Max(cfg.tol*f.scale, DefaultTol)
		v, status, iters, restarts, err := runFiltered(ctx, f, &fcfg)
		res.MatVecs += int(f.vectors.Load())
		res.Products += int(f.calls.Load())
		res.Iterations += iters
		res.Restarts += restarts
		res.Status = status
		if err != nil || v == nil {
			res.MatVecs += int(cnt.Vectors())
			res.Products += int(cnt.Calls())
			return res, err
		}
		lim := acceptTol(cfg.tol, cfg.n)
		rayleighRitz(res, a, v, cfg, w)
		res.NormEstimate = math.Max(math.Abs(lo), math.Abs(hi))
		for round := 0; ; round++ {
			res.Converged = 0
			for _, r := range res.Residuals {
				if r <= lim*res.NormEstimate {
					res.Converged++
				}
			}
			if res.Converged == d || round == 2 || ctx.Err() != nil {
				break
			}
			if !polish(a, cfg, res, w) {
				rayleighRitz(res, a, filterStep(f, res.Vectors), cfg, w)
			}
		}
		if res.Converged == d && cfg.refine && ctx.Err() == nil {
			// At tolerances near round-off, the final refinement of the
			// other Krylov methods (Settings.NoRefine).
			polish(a, cfg, res, w)
		}
		// The order is kept only above cut: a value at or below it means
		// fewer than d eigenvalues lie above (or one lies below lo).
		low := math.Inf(1)
		above := 0
		for _, t := range res.Values {
			low = math.Min(low, sign*t)
			if sign*t > cut {
				above++
			}
		}
		if low > cut && res.Converged < d && status == linalg.IterationLimit {
			break // a cut too close to the wanted values: solve on A
		}
		if low > cut {
			res.MatVecs += int(cnt.Vectors())
			res.Products += int(cnt.Calls())
			res.Repeated = repeated(res.Values, math.Sqrt(cfg.tol)*res.NormEstimate)
			if res.Status == linalg.Converged && res.Converged < d {
				res.Status = linalg.IterationLimit
			}
			return res, nil
		}
		lo = math.Min(lo, low-1e-3*(hi-low))
		top := sign * res.Values[0]
		if above == 0 {
			cut = (cut + lo) / 2
		} else {
			// Assume the eigenvalues as dense below cut as above it.
			cut = math.Max(top-(top-cut)*2*float64(d+10)/float64(above), (cut+lo)/2)
		}
	}
	// No useful cut: the pairs from A itself.
	r, err := solveThickRestart(ctx, op, a, d, s)
	r.MatVecs += res.MatVecs + int(cnt.Vectors())
	r.Products += res.Products + int(cnt.Calls())
	return r, err
}

// runFiltered runs thick-restart Lanczos (the dense method when the
// problem is small) for the cfg.d largest pairs of f and returns the Ritz
// vectors (n x d) with the engine's status and counts. On a sparse matrix
// it runs the block method, whose block products read the matrix once per
// block (see chebOp).
func runFiltered(ctx context.Context, f *chebOp, cfg *checked) (v *mat.Dense, status linalg.Status, iters, restarts int, err error) {
	var op Operator = f
	p, m := 1, defaultBasis(cfg)
	if f.csr != nil {
		p = filterBlock
		m = max(3*cfg.d, 2*cfg.d+40, cfg.d+12*p)
	} else {
		op = vectorOnly{f} // one vector per product: no block dispatch
	}
	if small(cfg, p, m) {
		r, err := solveDense(ctx, op, cfg)
		return r.Vectors, r.Status, 0, 0, err
	}
	// With a good cut the wanted values are far apart in p(B) and a few
	// multiples of d applications suffice; with a cut above them they
	// crowd within [-1, 1] scale and would take the whole budget. The cap
	// ends such a run early (Solve then lowers the cut).
	cfg.maxIter = min(cfg.maxIter, max(filterApplications*(cfg.d+10)/p, 50))
	k, err := newKrylovFor(op, cfg, p, m, true)
	if err != nil {
		return nil, linalg.NotRun, 0, 0, err
	}
	c, status, err := k.run(ctx)
	r := k.result(c, status, false)
	iters, restarts = k.iters, k.restarts
	k.release()
	return r.Vectors, r.Status, iters, restarts, err
}

// filterApplications bounds the applications of p(B) per wanted pair
// (plus ten) in one filtered run.
const filterApplications = 30

// filterBlock is the block size of the filtered iteration on a sparse
// matrix.
const filterBlock = 4

// vectorOnly hides the block product of an operator.
type vectorOnly struct{ f *chebOp }

func (v vectorOnly) Dims() (int, int)          { return v.f.Dims() }
func (v vectorOnly) MulVecTo(dst, x []float64) { v.f.MulVecTo(dst, x) }

// blockProduct is a sparse matrix's product with a block of b vectors
// stored interleaved (the layout of linalg.CSR.MulBlockTo).
type blockProduct interface {
	MulBlockTo(dst, x []float64, b int)
}

// compactBlock is the block product of a CSR, on its compact indices.
type compactBlock struct{ c *CSR }

func (p compactBlock) MulBlockTo(dst, x []float64, b int) { p.c.mulBlock(dst, x, b) }

// blockOf returns the block product of the sparse matrix a, or nil if a is
// not one. (A *linalg.CSR keeps its own kernels: the reordered matrix of
// a large solve is one, and a compact copy of its indices would add a
// third to its memory for a few percent of the time.)
func blockOf(a Operator) blockProduct {
	switch c := a.(type) {
	case *CSR:
		return compactBlock{c}
	case *linalg.CSR:
		return c
	}
	return nil
}

// sparseOf returns the sparse matrix behind a, or nil.
func sparseOf(a Operator) *linalg.CSR {
	switch c := a.(type) {
	case *CSR:
		return c.a
	case *linalg.CSR:
		return c
	}
	return nil
}

// filterStep returns an orthonormal basis of p(A) V (one step of
// subspace iteration with the filter).
func filterStep(f *chebOp, v *mat.Dense) *mat.Dense {
	n, d := v.Dims()
	out := mat.NewDense(n, d, nil)
	x := make([]float64, n)
	y := make([]float64, n)
	for j := 0; j < d; j++ {
		mat.Col(x, j, v)
		f.MulVecTo(y, x)
		out.SetCol(j, y)
	}
	var qr mat.QR
	qr.Factorize(out)
	var q mat.Dense
	qr.QTo(&q)
	return mat.DenseCopyOf(q.Slice(0, n, 0, d))
}
