package eig

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
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

// DefaultTol is the relative residual tolerance used when Settings.Tol is
// zero: a pair (theta, v) is accepted when ||A v - theta v|| <= Tol ||A||,
// with ||A|| estimated by the largest |Ritz value| seen.
//
// 5e-15 is about 23 units of round-off (eps = 2^-52): the pairs end near the
// rounding floor of a product with the operator, far below what spectral
// kernel learning needs (an eigenvector's error is bounded by its residual
// over the gap to the rest of the spectrum), and about where ARPACK run at
// machine precision (SciPy's eigsh with tol=0) ends. At this tolerance the
// Krylov methods end with the refinement described at Settings.NoRefine,
// which takes any pair whose explicit residual is still above the tolerance
// to round-off; a Tol of 2 eps (4.4e-16) or less has it take every pair
// there. The explicit acceptance test never asks for less than 8 sqrt(n)
// eps ||A||.
const DefaultTol = 5e-15

// DefaultMaxIter is the default limit on expansion steps (each step applies
// the operator to one vector, or to one block of vectors).
const DefaultMaxIter = 10000

// Settings configures a solve. The zero value (or a nil *Settings) selects
// every default.
type Settings struct {
	// Tol is the relative residual tolerance, finite and >= 0; zero means
	// DefaultTol.
	Tol float64
	// MaxIter limits the number of expansion steps, >= 0; zero means
	// DefaultMaxIter.
	MaxIter int
	// BasisSize is the largest number of basis vectors kept. Zero means
	// the method's default: max(3d, 2d+20) for ThickRestart, max(3d, 2d+40,
	// d+12 BlockSize) for Block (room for a dozen blocks per cycle: fewer
	// restarts, and orthogonalization, O(n BasisSize) per vector, stays
	// cheap next to dense products, O(n^2)) or, when n^2 < 2^19 (a dense
	// matrix that stays in cache, whose products are cheap next to the
	// O(BasisSize^3) projected eigenproblem of each restart), max(5d/2,
	// 2d+20, d+12 BlockSize), max(10d, 300) for Lanczos;
	// always capped at n minus one block and raised to at least max(2d, d
	// + 2 BlockSize, d + 3), the room the check for missed copies of
	// repeated eigenvalues needs. A smaller nonzero value is an error
	// (linalg.ErrSettings) for the restarted methods.
	BasisSize int
	// BlockSize is the number of vectors of a block method, at most 64
	// (ignored by the single-vector methods). Zero means, when n^2 >= 2^19
	// (a dense matrix of 4 MiB or more, which every product streams from
	// memory), 8 for d >= 12, 4 for d >= 4 and 2 for smaller d; when
	// n^2 < 2^19 (a matrix that stays in cache), 4 for d >= 40 and 2
	// otherwise. A block product of a streamed dense matrix reads the
	// matrix once for all its vectors, so it costs little more than a
	// single product, but larger blocks need more products in total; a
	// matrix that stays in cache gains little from blocks.
	BlockSize int
	// Seed selects the pseudo-random start vectors.
	Seed uint64
	// Start, if not nil, is the first start vector (length n, finite, not
	// zero).
	Start []float64
	// Which selects the end of the spectrum: Largest (the zero value) or
	// Smallest.
	Which Which
	// NoMultiplicityCheck skips the final check for missed copies of
	// repeated eigenvalues (see the package documentation). It saves one
	// restart cycle and is safe when the wanted eigenvalues are known to be
	// simple, or of multiplicity at most BlockSize for the block method.
	NoMultiplicityCheck bool
	// NoRefine skips the final refinement of the Krylov methods: a
	// Rayleigh-Ritz step on the span of the converged vectors and those of
	// their residuals above the floor max(Tol, 2 eps) ||A|| (eps = 2^-52),
	// repeated (at most three steps in all) while it lowers the largest
	// residual by a third and some residual is above the floor. A step
	// costs one operator application per residual it takes (at most d)
	// and O(n d^2) further work, and brings the residuals it takes to
	// about one unit of round-off times ||A||; when every explicit residual
	// already meets the floor it costs nothing. The refined pairs replace
	// the others only if their largest residual is smaller. The refinement
	// runs only when Tol is at most RefineTol: with a tolerance far above
	// round-off it buys nothing a caller can use.
	NoRefine bool
}

// RefineTol is the largest tolerance at which the Krylov methods refine
// their converged pairs (see Settings.NoRefine).
const RefineTol = 1e-13

// Result holds the pairs a solver found and statistics of the solve. A
// Result is returned by every call, also when the solve fails or stops
// early.
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
	// Converged is the number of pairs whose explicit residual meets the
	// tolerance (see the package documentation).
	Converged int
	// MatVecs counts the vectors the operator was applied to, including the
	// final residual check.
	MatVecs int
	// Products counts the operator calls: a block product (MulVecsTo) counts
	// once whatever its number of vectors, as does a MulVecTo. For a Dense
	// operator, and for a CSR (which the solvers apply to a block of
	// vectors four at a time), it is the number of passes over the matrix,
	// the measure of the memory traffic.
	Products int
	// Restarts counts restart cycles (including multiplicity checks).
	Restarts int
	// Iterations counts expansion steps.
	Iterations int
	// Solves counts the vectors the shifted inverse (A - sigma I)^-1 was
	// applied to, in the shift-and-invert mode (ShiftInvert); MatVecs and
	// Products then count the products with A itself. Zero for the other
	// solvers.
	Solves int
	// Repeated is the largest number of returned values that agree to
	// within sqrt(Tol) NormEstimate (1 when they are all distinct, 0
	// without values). A Krylov method cannot prove that a repeated
	// eigenvalue has no copies beyond those it returns: a value returned
	// BlockSize or more times (twice or more for the single-vector
	// methods and ShiftInvert) is one the multiplicity check had to
	// search for, and that search (see the package documentation) makes a
	// missed copy unlikely, not impossible. With NoMultiplicityCheck there
	// is no search at all.
	Repeated int
	// Status says how the solve ended: linalg.Converged, IterationLimit,
	// Canceled or NumericalFailure, or linalg.NotRun when the input was
	// rejected.
	Status linalg.Status
}

// Solver computes d eigenpairs at one end of the spectrum of a symmetric
// operator: the d algebraically largest eigenvalues (Settings.Which =
// Largest, the default) or the d smallest, with their eigenvectors.
//
// The contract every implementation keeps (package eigtest checks it):
// Solve returns a non-nil Result on every call. Its error is nil when the
// solve ran, whether the pairs converged (Status linalg.Converged) or it
// stopped at its iteration limit (Status linalg.IterationLimit, with the
// best pairs found); otherwise it wraps linalg.ErrInvalid for bad input,
// with Status linalg.NotRun when rejected before the solve (d outside
// [1, n], a nil or empty operator, a non-square one with linalg.ErrShape,
// invalid settings) and linalg.NumericalFailure when found during it (an
// operator that is not symmetric or not finite), or it wraps the context's
// error when the context ends (Status linalg.Canceled). Values are ordered
// from the most wanted (descending for Largest, ascending for Smallest) and
// the columns of Vectors are orthonormal.
//
// Solver values hold no state and may be used concurrently.
type Solver interface {
	Solve(ctx context.Context, a Operator, d int, s *Settings) (*Result, error)
	// Name is a short lower-case identifier such as "lanczos".
	Name() string
}

// TopD computes d eigenpairs at one end of the spectrum of the symmetric
// operator a with the default solver. Despite the name, the end is the one
// s.Which selects: the d algebraically largest eigenvalues (the top, the
// default, as for a kernel matrix) or, with Which = Smallest, the d
// smallest (the bottom of a graph Laplacian).
//
// The method follows from what a can do: the block method (Block) when a
// implements BlockOperator, whose block product costs about as much as a
// single product (as for a dense matrix streamed from memory); the
// Chebyshev-filtered method (Chebyshev, bounds estimated) for a sparse
// matrix (a CSR or *linalg.CSR, also wrapped) from 12 wanted pairs on, and
// from 8 when the order n is 1,000 or more, where the orthogonalization of
// plain Lanczos against a basis of 2d or more vectors costs more than the
// products the filter adds (and where a crowded or repeated top, as in the
// normalised affinity of a kNN graph, costs Lanczos many more steps than
// the filter); and thick-restart Lanczos (ThickRestart) otherwise (other
// vector-only operators, whose products may be dear). An operator that
// wraps another and says so with a method Unwrap() Operator (Shifted,
// Negated and Counter do) is judged by the operator it wraps as well.
// Results, errors and costs are those of the chosen method; errors name
// "eig.TopD".
func TopD(ctx context.Context, a Operator, d int, s *Settings) (*Result, error) {
	const op = "eig.TopD"
	if blockCapable(a) {
		return solveBlock(ctx, op, a, d, s)
	}
	if sparse(a) {
		n, _ := a.Dims()
		if d >= chebyshevMinD || (d >= chebyshevMidD && n >= chebyshevMidN) {
			return Chebyshev{}.solveAs(ctx, op, a, d, s)
		}
	}
	return solveThickRestart(ctx, op, a, d, s)
}

// chebyshevMinD is the number of wanted pairs from which TopD runs
// Chebyshev on a sparse matrix, and chebyshevMidD the number from which it
// does so on one of order at least chebyshevMidN. Below these ThickRestart
// is the faster: at d = 5 on kNN graph Laplacians, and at d < 12 on small
// graphs (BENCHMARKS.md, "TopD on sparse matrices").
const (
	chebyshevMinD = 12
	chebyshevMidD = 8
	chebyshevMidN = 1000
)

// sparse reports whether a is a sparse matrix, possibly wrapped (see
// blockCapable).
func sparse(a Operator) bool {
	return walkWrapped(a, func(op Operator, last bool) (bool, bool) {
		if sparseOf(op) != nil {
			return true, true
		}
		return false, last
	})
}
