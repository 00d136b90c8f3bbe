package eig

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Which selects the end of the spectrum a solver computes.
type Which int

const (
	// Largest selects the algebraically largest eigenvalues (the default).
	Largest Which = iota
	// Smallest selects the algebraically smallest eigenvalues.
	Smallest
)

// String returns "largest" or "smallest".
func (w Which) String() string {
	switch w {
	case Largest:
		return "largest"
	case Smallest:
		return "smallest"
	}
	return fmt.Sprintf("Which(%d)", int(w))
}

// Status describes how a solve ended.
type Status int

const (
	// NotStarted means the input was rejected before any work was done.
	NotStarted Status = iota
	// Success means every requested pair met the tolerance.
	Success
	// IterationLimit means MaxIter (or the basis size of a method without
	// restarts) was reached before every pair converged.
	IterationLimit
	// Canceled means the context was cancelled or its deadline passed.
	Canceled
	// Failure means the operator produced non-finite values or was found not
	// to be symmetric.
	Failure
)

// String returns a lower-case name of the status.
func (s Status) String() string {
	switch s {
	case NotStarted:
		return "not started"
	case Success:
		return "success"
	case IterationLimit:
		return "iteration limit"
	case Canceled:
		return "canceled"
	case Failure:
		return "failure"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

var (
	// ErrNotConverged is wrapped by the error returned when a solver stops
	// at its iteration limit. The Result then holds the best pairs found.
	ErrNotConverged = errors.New("eig: not converged")
	// ErrInvalid is wrapped by errors about bad arguments or settings.
	ErrInvalid = errors.New("eig: invalid input")
	// ErrNotFinite is wrapped when the operator returns NaN or Inf.
	ErrNotFinite = errors.New("eig: operator produced non-finite values")
	// ErrNotSymmetric is wrapped when an operator is found not to be
	// symmetric (by the dense reference, or when the Krylov recurrence
	// detects inconsistent coefficients).
	ErrNotSymmetric = errors.New("eig: operator is not symmetric")
)

// DefaultTol is the relative residual tolerance used when Settings.Tol is
// zero: a pair (theta, v) is accepted when ||A v - theta v|| <= Tol * ||A||,
// with ||A|| estimated by the largest |Ritz value| seen.
//
// 5e-15 is about 23 units of round-off. It is far below what spectral kernel
// learning needs (the eigenvectors feed a QP whose data carry errors of 1e-8
// or more, and an eigenvector error is bounded by residual / gap); it aims at
// the residuals of ARPACK run at machine precision (SciPy eigsh with tol=0),
// which end near the rounding floor of the product. The iteration itself
// stops at 4 to 20 eps·||A|| (eps = 2^-52); the final refinement (see
// Settings.NoRefine), which runs at this tolerance, then takes the pairs to
// about 1 eps·||A|| (ARPACK: 3.1 eps·||A|| on the n = 4000 benchmark
// kernel). Compared with 1e-14 the tolerance costs at most one more block
// step. Asking for less than the floor only adds steps: the explicit
// acceptance test never asks for less than 8·sqrt(n)·eps·||A||.
const DefaultTol = 5e-15

// DefaultMaxIter is the default limit on expansion steps (each step applies
// the operator to one vector, or to one block of vectors).
const DefaultMaxIter = 10000

// Settings configures a solve. The zero value (or a nil *Settings) selects
// every default.
type Settings struct {
	// Tol is the relative residual tolerance; zero means DefaultTol.
	Tol float64
	// MaxIter limits the number of expansion steps; zero means
	// DefaultMaxIter.
	MaxIter int
	// BasisSize is the largest number of basis vectors kept. Zero means
	// the method's default: max(3d, 2d+20) for ThickRestart, max(3d, 2d+40,
	// d+12 BlockSize) for Block (room for a dozen blocks per cycle: fewer
	// restarts, and orthogonalization stays cheap next to dense products),
	// max(10d, 300) for Lanczos; always capped at n minus one block and raised to at
	// least max(2d, d + 2 BlockSize, d + 3), the room the check for missed
	// copies of repeated eigenvalues needs. A smaller nonzero value is an
	// error for the restarted methods.
	BasisSize int
	// BlockSize is the number of vectors of a block method (ignored by the
	// single-vector methods). Zero means, when n^2 >= 2^19 (a dense matrix
	// of 4 MiB or more), 8 for d >= 12, 4 for d >= 4 and 2 for smaller d;
	// when n^2 < 2^19, 4 for d >= 40 and 2 otherwise. With the AVX2 kernel
	// a dense block product of 8 vectors costs about 1.1 single products
	// at n = 4000 (the matrix is read once and the arithmetic keeps pace
	// with memory), but larger blocks need more products in total; a
	// matrix that stays in cache gains little from blocks and smaller ones
	// converge in fewer products (until the basis for a large d makes the
	// projected problems dominate).
	BlockSize int
	// Seed selects the pseudo-random start vectors.
	Seed uint64
	// Start, if not nil, is the first start vector (length n, not zero).
	Start []float64
	// Which selects the end of the spectrum.
	Which Which
	// NoMultiplicityCheck skips the final check for missed copies of
	// repeated eigenvalues (see the package documentation). It saves one
	// restart cycle and is safe when the wanted eigenvalues are known to be
	// simple, or of multiplicity at most BlockSize for the block method.
	NoMultiplicityCheck bool
	// NoRefine skips the final refinement of the Krylov methods: one
	// Rayleigh-Ritz step on the span of the converged vectors and those of
	// their residuals above 2 eps·||A||, which costs one operator
	// application per such residual (5 of 20 at n = 4000, d = 20; rarely a
	// few more for a second step) and brings the residuals to about one
	// unit of round-off: 0.7 to 1.5 eps·||A|| (eps = 2^-52) on the
	// benchmark kernels, from 3.7 to 20 eps·||A|| without it, and below
	// ARPACK's (2.1 to 3.3 eps·||A|| at n = 500 to 4000). The refined
	// pairs replace the others only if their largest residual is smaller. With a tolerance far above round-off the step
	// buys nothing a caller can use, so it runs only when Tol is at most
	// RefineTol.
	NoRefine bool
}

// RefineTol is the largest tolerance at which the Krylov methods refine
// their converged pairs (see Settings.NoRefine).
const RefineTol = 1e-13

// Result holds the pairs a solver found and statistics of the solve. A
// Result is returned even when the solve fails after it started.
type Result struct {
	// Values holds the eigenvalues: descending for Largest, ascending for
	// Smallest.
	Values []float64
	// Vectors is n x len(Values) with orthonormal columns.
	Vectors *mat.Dense
	// Residuals holds ||A v - theta v|| for each pair, computed explicitly
	// with the operator after the iteration (after a cancellation, when no
	// further products are made, the estimates from the iteration).
	Residuals []float64
	// NormEstimate is the estimate of ||A|| that scales the tolerance.
	NormEstimate float64
	// Converged is the number of pairs that met the tolerance.
	Converged int
	// MatVecs counts the vectors the operator was applied to, including the
	// final residual check.
	MatVecs int
	// Products counts the operator calls: a block product (MulVecsTo) counts
	// once whatever its number of vectors, as does a MulVecTo. For a Dense
	// operator it is the number of passes over the matrix, the measure of
	// the memory traffic.
	Products int
	// Restarts counts restart cycles (including multiplicity checks).
	Restarts int
	// Iterations counts expansion steps.
	Iterations int
	// Status says how the solve ended.
	Status Status
}

// Solver computes d eigenpairs at one end of the spectrum of a symmetric
// operator. Solver values hold no state and may be used concurrently.
type Solver interface {
	Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error)
	// Name is a short lower-case identifier such as "lanczos".
	Name() string
}

// TopD computes d eigenpairs of a with the default solver: the block method
// for Dense operators (also when wrapped by Shift, Negate or Counter), where
// a block product reads the matrix once for several vectors, and
// thick-restart Lanczos otherwise (sparse operators, where a block product
// saves nothing).
func TopD(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	if denseBacked(a) {
		return Block{}.Solve(ctx, a, d, s)
	}
	return ThickRestart{}.Solve(ctx, a, d, s)
}

// denseBacked reports whether a is a Dense operator, possibly wrapped by
// the adapters of this package: only then is a block product cheaper per
// vector than single products.
func denseBacked(a Operator) bool {
	for {
		switch o := a.(type) {
		case *Dense:
			return true
		case *Shifted:
			a = o.Op
		case *Negated:
			a = o.Op
		case *Counter:
			a = o.Op
		default:
			return false
		}
	}
}

// checked holds validated settings with defaults filled in.
type checked struct {
	n, d    int
	tol     float64
	maxIter int
	basis   int
	block   int
	seed    uint64
	start   []float64
	which   Which
	verify  bool
	refine  bool
}

func validate(ctx context.Context, a Operator, d int, s *Settings) (*checked, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalid)
	}
	if isNilOrEmpty(a) {
		return nil, fmt.Errorf("%w: nil or empty operator", ErrInvalid)
	}
	n := a.Dim()
	if n <= 0 {
		return nil, fmt.Errorf("%w: operator dimension %d is not positive", ErrInvalid, n)
	}
	if d <= 0 || d > n {
		return nil, fmt.Errorf("%w: d = %d must be in [1, n] = [1, %d]", ErrInvalid, d, n)
	}
	if s == nil {
		s = &Settings{}
	}
	c := &checked{n: n, d: d, seed: s.Seed, which: s.Which, verify: !s.NoMultiplicityCheck}
	switch {
	case math.IsNaN(s.Tol) || math.IsInf(s.Tol, 0) || s.Tol < 0:
		return nil, fmt.Errorf("%w: Tol = %v must be finite and non-negative", ErrInvalid, s.Tol)
	case s.Tol == 0:
		c.tol = DefaultTol
	default:
		c.tol = s.Tol
	}
	c.refine = !s.NoRefine && c.tol <= RefineTol
	if s.MaxIter < 0 {
		return nil, fmt.Errorf("%w: MaxIter = %d is negative", ErrInvalid, s.MaxIter)
	}
	c.maxIter = s.MaxIter
	if c.maxIter == 0 {
		c.maxIter = DefaultMaxIter
	}
	if s.BasisSize < 0 {
		return nil, fmt.Errorf("%w: BasisSize = %d is negative", ErrInvalid, s.BasisSize)
	}
	c.basis = s.BasisSize
	if s.BlockSize < 0 {
		return nil, fmt.Errorf("%w: BlockSize = %d is negative", ErrInvalid, s.BlockSize)
	}
	c.block = s.BlockSize
	if s.Which != Largest && s.Which != Smallest {
		return nil, fmt.Errorf("%w: unknown Which = %d", ErrInvalid, int(s.Which))
	}
	if s.Start != nil {
		if len(s.Start) != n {
			return nil, fmt.Errorf("%w: start vector has length %d, want n = %d", ErrInvalid, len(s.Start), n)
		}
		var nrm float64
		for i, v := range s.Start {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: start vector entry %d = %v is not finite", ErrInvalid, i, v)
			}
			nrm = math.Max(nrm, math.Abs(v))
		}
		if nrm == 0 {
			return nil, fmt.Errorf("%w: start vector is zero", ErrInvalid)
		}
		c.start = s.Start
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("eig: %w", err)
	}
	return c, nil
}

// CumulativeEnergy returns the running sums of values divided by total:
// out[i] = (values[0] + ... + values[i]) / total. For a kernel matrix K,
// total = trace(K) makes out[i] the fraction of the kernel's energy carried
// by the first i+1 eigenpairs. It returns nil if total is zero or not finite.
func CumulativeEnergy(values []float64, total float64) []float64 {
	if total == 0 || math.IsNaN(total) || math.IsInf(total, 0) {
		return nil
	}
	out := make([]float64, len(values))
	var s float64
	for i, v := range values {
		s += v
		out[i] = s / total
	}
	return out
}

// DForEnergy returns the smallest d such that the first d values carry at
// least the fraction frac of total (the rule of thumb for choosing the number
// of eigenvectors in spectral kernel learning). If the values never reach
// frac it returns len(values). It returns an error wrapping ErrInvalid if
// frac is outside (0, 1] or total is not positive and finite.
func DForEnergy(values []float64, total, frac float64) (int, error) {
	if !(frac > 0 && frac <= 1) {
		return 0, fmt.Errorf("%w: energy fraction %v must be in (0, 1]", ErrInvalid, frac)
	}
	if !(total > 0) || math.IsInf(total, 0) {
		return 0, fmt.Errorf("%w: total energy %v must be positive and finite", ErrInvalid, total)
	}
	ce := CumulativeEnergy(values, total)
	for i, e := range ce {
		if e >= frac {
			return i + 1, nil
		}
	}
	return len(values), nil
}
