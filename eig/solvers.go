package eig

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// maxBlock bounds the block size (workspaces are sized for it).
const maxBlock = 64

// Lanczos is the Lanczos method with full reorthogonalization (the
// three-term recurrence, then classical Gram-Schmidt against the whole
// basis, repeated by the DGKS criterion) and no restarts: the basis
// grows until the d wanted Ritz pairs converge, up to BasisSize vectors
// (default max(10d, 300), capped at n); reaching it is an iteration limit.
// Memory is 8 n BasisSize bytes, allocated up front. Ritz values come from the
// projected matrix, which is tridiagonal up to round-off.
type Lanczos struct{}

// Name returns "lanczos".
func (Lanczos) Name() string { return "lanczos" }

// Solve computes d eigenpairs of a. See Solver.
func (Lanczos) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	cfg, err := validate(ctx, a, d, s)
	if err != nil {
		return &Result{Status: NotStarted}, err
	}
	if small(cfg, 1, 0) {
		return solveDense(ctx, a, cfg)
	}
	m := cfg.basis
	if m == 0 {
		m = max(10*cfg.d, 300)
	}
	return runKrylov(ctx, a, cfg, 1, m, false, "lanczos")
}

// ThickRestart is the thick-restart Lanczos method of Wu and Simon with
// full reorthogonalization: when the basis is full, the most wanted Ritz
// vectors are kept (d plus half of the others) together with the residual
// vector, so memory stays at BasisSize vectors.
//
// The default BasisSize max(3d, 2d+20) keeps at least d+10 unconverged
// directions after a restart, which is what ARPACK's rule ncv >= 2 nev + 1
// aims at, and more for small d where a restart is cheap anyway; on dense
// kernels a larger basis costs little (orthogonalization is O(n m) per step
// against O(n^2) for the product).
type ThickRestart struct{}

// Name returns "thick-restart".
func (ThickRestart) Name() string { return "thick-restart" }

// Solve computes d eigenpairs of a. See Solver.
func (ThickRestart) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	cfg, err := validate(ctx, a, d, s)
	if err != nil {
		return &Result{Status: NotStarted}, err
	}
	if small(cfg, 1, defaultBasis(cfg, 1)) {
		return solveDense(ctx, a, cfg)
	}
	return runKrylov(ctx, a, cfg, 1, defaultBasis(cfg, 1), true, "thick-restart")
}

// Block is the block Lanczos method with thick restart (a symmetric block
// Krylov-Schur method). Each step applies the operator to BlockSize vectors
// at once; for a Dense operator that reads the matrix once per block
// instead of once per vector, which is what makes it the fastest method on
// dense kernels. It also finds eigenvalues of multiplicity up to BlockSize
// directly.
type Block struct{}

// Name returns "block".
func (Block) Name() string { return "block" }

// Solve computes d eigenpairs of a. See Solver.
func (Block) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	cfg, err := validate(ctx, a, d, s)
	if err != nil {
		return &Result{Status: NotStarted}, err
	}
	p := cfg.block
	if p == 0 {
		cached := cfg.n*cfg.n < cacheEntries
		switch {
		case d >= 12 && !cached:
			p = 8
		case d >= 4 && (!cached || d >= 40):
			p = 4
		default:
			p = 2
		}
	}
	if p > maxBlock {
		return &Result{Status: NotStarted}, fmt.Errorf("%w: BlockSize = %d exceeds %d", ErrInvalid, p, maxBlock)
	}
	m := cfg.basis
	if m == 0 {
		m = max(3*d, 2*d+40, d+12*p)
	}
	if small(cfg, p, m) {
		return solveDense(ctx, a, cfg)
	}
	return runKrylov(ctx, a, cfg, p, m, true, "block")
}

// cacheEntries is the matrix size (in entries, 4 MiB) below which a dense
// matrix stays in the caches between products. A block product then saves
// little memory traffic, while a smaller block needs fewer products in total
// and keeps the projected problems small. On the 351 x 351 kernel of the
// ionosphere data, d = 20, tolerance 1e-10: 100 products with blocks of 2
// against 128 with blocks of 4 (1.7 against 2.6 ms), and 176 with blocks of
// 8. At d = 50 blocks of 2 need a basis of 150 vectors, whose projected
// problems cost more than the products saved, so blocks of 4 are used from
// d = 40 on.
const cacheEntries = 1 << 19

// small reports whether the problem is too small for a Krylov method with
// block size p (the basis plus one block would not fit in n dimensions); the
// dense reference is exact and cheap there.
//
// It also reports true when the default basis would not fit in n - p
// dimensions: the Krylov basis would then be nearly the whole space and the
// dense method is both cheaper and exact.
func small(cfg *checked, p, m0 int) bool {
	if cfg.n < cfg.d+3*p || cfg.n <= 16 {
		return true
	}
	return cfg.basis == 0 && m0 > cfg.n-p
}

func defaultBasis(cfg *checked, p int) int {
	m := cfg.basis
	if m == 0 {
		m = max(3*cfg.d, 2*cfg.d+20)
	}
	return m
}

// minBasis is the smallest basis a restarted method accepts: twice the
// number of wanted pairs (ARPACK's rule of thumb, ncv >= 2 nev), and at
// least the d wanted vectors and two blocks, for a single vector one more.
// With less room the multiplicity check, which looks for missed copies of
// a repeated eigenvalue in the few vectors left beside the d locked ones,
// could end without finding one and the solve return pairs one copy short
// without an error: on fuzzed low-rank matrices with a many-fold zero
// eigenvalue, up to half the seeds with d + 3 or d + 4 vectors for a
// single vector (14 of 200 on a 26 x 26 matrix with d + 2, which was
// accepted), 23 of 200 with blocks of 2 and d + 4; none from d + 6 on.
func minBasis(d, p int) int {
	m := max(2*d, d+2*p)
	if p == 1 {
		m = max(m, d+3)
	}
	return m
}

func runKrylov(ctx context.Context, a Operator, cfg *checked, p, m int, restart bool, name string) (*Result, error) {
	// The basis must hold the d wanted vectors and two blocks, and the
	// basis plus the residual block must fit in n dimensions (a basis of
	// n - p vectors is completed to the whole space, never restarted).
	m = max(m, minBasis(cfg.d, p))
	m = min(m, cfg.n-p)
	// Whole blocks only.
	m = cfg.d + (m-cfg.d)/p*p
	if cfg.basis != 0 && cfg.basis < minBasis(cfg.d, p) && restart {
		return &Result{Status: NotStarted}, fmt.Errorf("%w: BasisSize = %d must be at least max(2d, d + 2*BlockSize, d + 3) = %d",
			ErrInvalid, cfg.basis, minBasis(cfg.d, p))
	}
	k := newKrylov(a, cfg, p, m, restart)
	c, status, err := k.run(ctx)
	return finish(k, c, status, err, name)
}

// Reference is the dense reference solver: it forms the n x n matrix (by
// applying the operator to the n unit vectors, or by copying a Dense
// operator) and computes all eigenpairs with gonum's mat.EigenSym, O(n^3)
// time and 8 n^2 bytes. Use it for small problems and as a check.
type Reference struct{}

// Name returns "dense".
func (Reference) Name() string { return "dense" }

// Solve computes d eigenpairs of a. See Solver.
func (Reference) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	cfg, err := validate(ctx, a, d, s)
	if err != nil {
		return &Result{Status: NotStarted}, err
	}
	return solveDense(ctx, a, cfg)
}

func solveDense(ctx context.Context, a Operator, cfg *checked) (*Result, error) {
	n, d := cfg.n, cfg.d
	res := &Result{}
	sym := mat.NewSymDense(n, nil)
	var maxAbs float64
	if dn, ok := a.(*Dense); ok {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				sym.SetSym(i, j, dn.a[i*n+j])
			}
		}
	} else {
		full := make([]float64, n*n) // column j = A e_j, stored as row j
		e := make([]float64, n)
		for j := 0; j < n; j++ {
			if j%64 == 0 {
				if err := ctx.Err(); err != nil {
					res.Status = Canceled
					return res, fmt.Errorf("eig: %w", err)
				}
			}
			e[j] = 1
			a.MulVecTo(full[j*n:(j+1)*n], e)
			e[j] = 0
			res.MatVecs++
			res.Products++
		}
		for i := 0; i < n*n; i++ {
			v := full[i]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				res.Status = Failure
				return res, fmt.Errorf("%w: entry (%d,%d) = %v", ErrNotFinite, i%n, i/n, v)
			}
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
		// Products by a symmetric operator may differ from exact symmetry
		// by round-off (n eps relative); anything larger is asymmetry.
		symTol := 16 * float64(n) * 2 * dlamchE * maxAbs
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				aij, aji := full[j*n+i], full[i*n+j]
				if math.Abs(aij-aji) > symTol {
					res.Status = Failure
					return res, fmt.Errorf("%w: A(%d,%d) = %v but A(%d,%d) = %v", ErrNotSymmetric, i, j, aij, j, i, aji)
				}
				sym.SetSym(i, j, (aij+aji)/2)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		res.Status = Canceled
		return res, fmt.Errorf("eig: %w", err)
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		res.Status = Failure
		return res, fmt.Errorf("eig: dense reference: symmetric eigendecomposition did not converge")
	}
	vals := es.Values(nil)
	var vecs mat.Dense
	es.VectorsTo(&vecs)
	res.Values = make([]float64, d)
	res.Vectors = mat.NewDense(n, d, nil)
	for a := 0; a < d; a++ {
		j := a
		if cfg.which == Largest {
			j = n - 1 - a
		}
		res.Values[a] = vals[j]
		for i := 0; i < n; i++ {
			res.Vectors.Set(i, a, vecs.At(i, j))
		}
	}
	for _, v := range vals {
		res.NormEstimate = math.Max(res.NormEstimate, math.Abs(v))
	}
	// Explicit residuals with the operator.
	y := mat.NewDense(d, n, nil)
	y.Copy(res.Vectors.T())
	ay := mat.NewDense(d, n, nil)
	mulVecs(a, ay, y)
	res.MatVecs += d
	res.Products += calls(a, d)
	res.Residuals = make([]float64, d)
	lim := acceptTol(cfg.tol, n) * res.NormEstimate
	for a := 0; a < d; a++ {
		r := ay.RawRowView(a)
		yr := y.RawRowView(a)
		for i := range r {
			r[i] -= res.Values[a] * yr[i]
		}
		res.Residuals[a] = rowNorm(r)
		if res.Residuals[a] <= lim {
			res.Converged++
		}
	}
	// A direct method has converged by construction; the count above is
	// reported for comparison with the iterative methods.
	res.Status = Success
	return res, nil
}
