package eig

import (
	"context"

	"ukm/linalg"
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

var _ Solver = Lanczos{}

// Name returns "lanczos".
func (Lanczos) Name() string { return "lanczos" }

// Solve computes the d eigenpairs of a at the end s.Which selects (the
// largest by default). See Solver.
func (Lanczos) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	cfg, st, err := validate(ctx, "eig.Lanczos.Solve", a, d, s)
	if err != nil {
		return &Result{Status: st}, err
	}
	if small(cfg, 1, 0) {
		return solveDense(ctx, a, cfg)
	}
	m := cfg.basis
	if m == 0 {
		m = max(10*cfg.d, 300)
	}
	return runKrylov(ctx, a, cfg, 1, m, false)
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

var _ Solver = ThickRestart{}

// Name returns "thick-restart".
func (ThickRestart) Name() string { return "thick-restart" }

// Solve computes the d eigenpairs of a at the end s.Which selects (the
// largest by default). See Solver.
func (ThickRestart) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	return solveThickRestart(ctx, "eig.ThickRestart.Solve", a, d, s)
}

func solveThickRestart(ctx context.Context, op string, a Operator, d int, s *Settings) (*Result, error) {
	cfg, st, err := validate(ctx, op, a, d, s)
	if err != nil {
		return &Result{Status: st}, err
	}
	if small(cfg, 1, defaultBasis(cfg)) {
		return solveDense(ctx, a, cfg)
	}
	return runKrylov(ctx, a, cfg, 1, defaultBasis(cfg), true)
}

// Block is the block Lanczos method with thick restart (a symmetric block
// Krylov-Schur method). Each step applies the operator to BlockSize vectors
// at once, through MulVecsTo when the operator is a BlockOperator: for a
// dense matrix that reads the matrix once per block instead of once per
// vector, which is what makes it the fastest method on dense kernels. It
// also finds eigenvalues of multiplicity up to BlockSize directly.
type Block struct{}

var _ Solver = Block{}

// Name returns "block".
func (Block) Name() string { return "block" }

// Solve computes the d eigenpairs of a at the end s.Which selects (the
// largest by default). See Solver.
func (Block) Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	return solveBlock(ctx, "eig.Block.Solve", a, d, s)
}

func solveBlock(ctx context.Context, op string, a Operator, d int, s *Settings) (*Result, error) {
	cfg, st, err := validate(ctx, op, a, d, s)
	if err != nil {
		return &Result{Status: st}, err
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
		return &Result{}, linalg.Errorf(linalg.ErrSettings, op, "BlockSize = %d, want at most %d", p, maxBlock)
	}
	m := cfg.basis
	if m == 0 {
		m = max(3*d, 2*d+40, d+12*p)
		if cfg.n*cfg.n < cacheEntries {
			// A product with a matrix in cache is cheap next to the
			// projected eigenproblem of a restart, O(m^3): a smaller
			// basis, restarted more often, costs less.
			m = max(5*d/2, 2*d+20, d+12*p)
		}
	}
	if small(cfg, p, m) {
		return solveDense(ctx, a, cfg)
	}
	return runKrylov(ctx, a, cfg, p, m, true)
}

// cacheEntries is the matrix size (in entries, 4 MiB) below which a dense
// matrix stays in the caches between products. A block product then saves
// little memory traffic, while a smaller block needs fewer products in total
// and keeps the projected problems small; at d = 50, though, blocks of 2
// need a basis whose projected problems cost more than the products saved,
// so blocks of 4 are used from d = 40 on.
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

// defaultBasis returns the basis size of ThickRestart: the setting, or
// max(3d, 2d+20).
func defaultBasis(cfg *checked) int {
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
// without an error (as fuzzed low-rank matrices with a many-fold zero
// eigenvalue showed for bases of d + 2 to d + 4 vectors).
func minBasis(d, p int) int {
	m := max(2*d, d+2*p)
	if p == 1 {
		m = max(m, d+3)
	}
	return m
}

// runKrylov runs the Krylov engine with block size p and basis size m
// (adjusted to the limits below), restarted or not.
func runKrylov(ctx context.Context, a Operator, cfg *checked, p, m int, restart bool) (*Result, error) {
	k, err := newKrylovFor(a, cfg, p, m, restart)
	if err != nil {
		return &Result{}, err
	}
	c, status, err := k.run(ctx)
	res, err := finish(k, c, status, err)
	k.release()
	return res, err
}

// newKrylovFor returns the engine with block size p and basis size m
// adjusted to the limits below, or an error if a BasisSize setting is below
// the minimum of a restarted method.
func newKrylovFor(a Operator, cfg *checked, p, m int, restart bool) (*krylov, error) {
	// The basis must hold the d wanted vectors and two blocks, and the
	// basis plus the residual block must fit in n dimensions (a basis of
	// n - p vectors is completed to the whole space, never restarted).
	m = max(m, minBasis(cfg.d, p))
	m = min(m, cfg.n-p)
	// Whole blocks only.
	m = cfg.d + (m-cfg.d)/p*p
	if cfg.basis != 0 && cfg.basis < minBasis(cfg.d, p) && restart {
		return nil, linalg.Errorf(linalg.ErrSettings, cfg.op, "BasisSize = %d, want at least max(2d, d + 2 BlockSize, d + 3) = %d",
			cfg.basis, minBasis(cfg.d, p))
	}
	return newKrylov(a, cfg, p, m, restart), nil
}
