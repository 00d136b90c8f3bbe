// Package eig computes a few eigenpairs at one end of the spectrum of a
// large symmetric operator: the top-d eigenvectors of a kernel matrix, or
// the bottom of a graph Laplacian, as spectral kernel learning needs.
// Settings.Which chooses the end, Largest (the default) or Smallest, for
// every solver and for TopD, the default one.
//
// # Operators
//
// Solvers see the matrix only through Operator, gonum's pair of methods
// Dims and MulVecTo (dst = A x), so *linalg.CSR, *linalg.LowRank and any
// matrix-free operator a user writes are Operators as they are (see the
// example of Operator). Adapters: Dense (full row-major storage; products
// split by rows over GOMAXPROCS goroutines, reading each entry once, so they
// run near memory bandwidth; it also implements BlockOperator, applying A to
// several vectors in one sweep over the matrix), CSR (a linalg.CSR checked
// for symmetry, with a faster product on its own 32-bit copy of the
// indices: prefer it to passing the *linalg.CSR itself), Shift (A - sigma I), Negate (-A) and Counter (counts
// products). The default solver goes by capability: any operator that
// implements BlockOperator gets the block method.
//
// # Kernels
//
// On amd64 processors with AVX2 and FMA (detected at run time with CPUID
// and XGETBV; the build tag purego disables the assembly) the dense block
// product, the Gram-Schmidt coefficients and updates, and the rotations of
// the projected eigensolver run in assembly kernels: dot products in 3 x 4
// register tiles (three matrix rows by four vectors, 12 accumulators), so
// that a block of vectors costs little more memory time than a single
// product, and in 6 x 2 tiles for two vectors (the default block size for
// matrices that stay in cache). Where the processor also has AVX-512 (F and
// VL), the dense operator's product of a streamed matrix with a block of
// eight vectors interleaves the vectors and makes every matrix entry the
// broadcast operand of one fused multiply-add (twelve rows at a time, no
// horizontal sums); larger blocks take eight vectors at a time in 3 x 8
// tiles, whose 24 accumulators need AVX-512's 32 vector registers.
// Elsewhere portable Go and gonum's kernels do the same work.
//
// # Solvers
//
// All variants implement Solver and pass one conformance suite (package
// eigtest), which any other implementation can run too:
//
//   - Reference: gonum's dense symmetric eigensolver on the formed matrix,
//     O(n^3); the check for everything else.
//   - Lanczos: full reorthogonalization, no restarts (memory grows with the
//     iterations).
//   - ThickRestart: Lanczos with Wu-Simon thick restarts, bounded memory;
//     the default (TopD) for operators without block products (for a
//     sparse matrix, when fewer than 12 pairs are wanted).
//   - Block: block Lanczos with thick restarts (block Krylov-Schur), whose
//     products are block products; the default (TopD) for block operators.
//   - Chebyshev: thick-restart (block, on sparse matrices) Lanczos on a
//     Chebyshev polynomial of A that separates the wanted eigenvalues
//     from the rest, for many wanted pairs crowded together at one end of
//     a large sparse matrix, where orthogonalization against the basis is
//     what plain Lanczos spends its time on; the answer is checked and
//     refined with A itself. The default (TopD) for sparse matrices from
//     12 wanted pairs on.
//   - ShiftInvert: the shift-and-invert mode, thick-restart Lanczos on
//     (A - sigma I)^-1 for the eigenvalues nearest a shift sigma outside
//     the spectrum (see below). It factorizes the matrix, so it takes a
//     sparse or dense matrix, not any operator, and it answers for the
//     side of the spectrum sigma lies beyond, whatever Settings.Which
//     says: it is not run by the conformance suite.
//
// The Krylov methods share one engine (block size 1 for the single-vector
// ones). Each step subtracts the couplings the projected matrix already
// holds and the block's own (the block three-term recurrence), then
// reorthogonalizes by classical Gram-Schmidt against the whole basis,
// repeated only when the DGKS criterion asks for it, done as matrix-matrix
// products split over goroutines: O(n m) work per vector for a basis of m
// vectors, besides the product. The projected matrix is diagonalized
// (tridiagonal reduction, then implicit QL with the rotations applied to
// contiguous rows, O(m^3)) only when the work done since the last time is
// comparable to its cost, or at a restart. Problems with n < d + 3
// BlockSize, n <= 16, or (with the default BasisSize) a default basis larger
// than n minus one block are passed to the dense reference, which is exact
// and cheap there.
//
// # Convergence and results
//
// A pair (theta, v) converges when ||A v - theta v|| <= Tol ||A||, with ||A||
// estimated by the largest |Ritz value| (and ||A x|| of the unit vectors
// seen), estimated during the iteration from the Krylov relation. At the end
// the residuals are recomputed with the operator and reported; a pair counts
// as converged if that explicit residual is at most max(Tol, 8 sqrt(n) eps)
// ||A|| (eps = 2^-52; the second term is the round-off of one product). The
// default Tol is DefaultTol.
//
// At tolerances of RefineTol and below, the Krylov methods end with a
// refinement: a Rayleigh-Ritz step on the span of the converged vectors and
// those of their residuals above max(Tol, 2 eps) ||A||, with the couplings
// taken from the residuals (not from Vᵀ(A V), where they cancel), Rayleigh
// quotients from compensated dot products, and the small projected problem
// diagonalised by Jacobi rotations, which resolve its tiny off-diagonal
// entries to high relative accuracy. It costs one operator application per
// residual it takes (at most d) and takes those residuals to about one unit
// of round-off times ||A||. So every returned pair meets the tolerance in
// its explicit residual, and a Tol of 2 eps (4.4e-16) or less takes every
// pair to round-off; Settings.NoRefine turns it off.
//
// # Errors and statuses
//
// The package speaks linalg's vocabulary. A Result is returned by every
// call; its Status is a linalg.Status:
//
//   - linalg.Converged: every pair passed the explicit residual check.
//   - linalg.IterationLimit: MaxIter steps were made (or the basis of
//     Lanczos, which does not restart, filled up), or, rarely, pairs the
//     iteration took as converged failed the explicit check. The Result
//     holds the best pairs found, their residuals and how many converged,
//     and the error is nil: stopping early is an outcome, not an error
//     (Status.Err gives linalg.ErrIterationLimit to callers who want one).
//   - linalg.Canceled: the context ended; the error wraps the context's.
//     The context is checked before the solve and at every step.
//   - linalg.NumericalFailure: the operator produced NaN or Inf, or was
//     found not to be symmetric, during the solve (the error wraps
//     linalg.ErrNonFinite or ErrNotSymmetric, both input errors), or the
//     dense eigensolver of Reference broke down (no error).
//   - linalg.NotRun: the input was rejected.
//
// Errors caused by the input wrap linalg.ErrInvalid through one of its
// kinds, built with linalg.Errorf so that they name the function:
// linalg.ErrEmpty (a nil or empty operator or matrix, also a typed nil such
// as (*Dense)(nil) or an adapter wrapping nil), linalg.ErrShape (an
// operator that is not square, a start vector of the wrong length, a view
// passed to NewDenseShared), linalg.ErrNonFinite (NaN or Inf),
// linalg.ErrSettings (a nil context, d outside [1, n], negative or non-finite
// settings, an unknown Which, a zero start vector, a basis below the
// minimum, a block above 64, an operator ShiftInvert cannot factorize),
// linalg.ErrNotPSD and linalg.ErrDegenerate (ShiftInvert and
// NewSparseCholesky: a shifted matrix that is indefinite, or singular), and
// this package's ErrNotSymmetric and ErrRank.
//
// Defaults (zero Settings or nil): Tol = DefaultTol, MaxIter =
// DefaultMaxIter, the method's BasisSize and BlockSize described at
// Settings, Seed 0, Which = Largest, multiplicity check and refinement on.
//
// Only the Operator methods panic, on programmer errors: MulVecTo and
// MulVecsTo with vectors of the wrong length, and Dense.At out of range
// (a panic labelled "internal error" is a bug of this package). The
// solvers never pass overlapping dst and x to an operator.
//
// The iteration is invariant under scaling of the operator: residual
// estimates are computed with scaling, so operators of any norm from about
// 1e-300 to 1e300 converge as their scaled-to-one versions do.
//
// # Repeated eigenvalues
//
// A single-vector Krylov space holds only one direction of each
// eigenspace, and a block space at most BlockSize. Unless
// Settings.NoMultiplicityCheck is set, once the d pairs converge the solver
// locks them and runs a further cycle from fresh random vectors orthogonal
// to them (the block method does this only if some converged value appears
// BlockSize or more times, within sqrt(Tol) ||A||: with fewer copies the
// block space already holds every copy); if a value better than the
// wanted ones by more than sqrt(Tol) ||A|| appears (a missed copy of a
// repeated eigenvalue, such as the zero eigenvalue of a Laplacian repeated
// once per connected component) the iteration continues. The check runs
// until the most wanted new Ritz value is resolved: its residual below a
// hundredth of its distance to the wanted set, or converged, or (a further
// copy of the last wanted value) within sqrt(Tol) ||A|| of it. A check
// that cannot resolve within MaxIter steps ends the solve with Status
// linalg.IterationLimit even if every returned pair has converged
// (Converged = d then says so): the set may lack copies. Values that
// agree within sqrt(Tol) ||A|| count as copies, and which copies of the
// last wanted value are returned is left open. Unless a wanted value
// already appears twice (a repeated eigenvalue, whose other copies are
// likely missing), the single-vector methods run the check first on the
// three-term Lanczos recurrence from the same fresh vector, the locked
// vectors projected out at every step, with the same rules: it needs no
// Gram-Schmidt pass against a basis and no restart, so a step costs
// little more than the product. Only if it cannot decide (a value better
// than the wanted ones, no resolution within max(200, 4 first looks)
// steps, a breakdown) does the cycle in the basis follow, from the same
// vector.
//
// Like every Krylov method this is a probabilistic guarantee, not a proof:
// a missed copy whose direction the fresh vectors hardly touch could stay
// hidden. Result.Repeated reports how many returned values are copies of
// one another; a value returned BlockSize or more times (twice for the
// single-vector methods) is one whose copies the check had to search for.
// The tests of this package ask for exactly the copies of an eigenvalue
// of multiplicity d, at both ends, with every solver, over many start
// vectors.
//
// # Shift and invert
//
// The bottom of a positive definite matrix of condition 1e6 to 1e12 (a
// stiffness matrix, a graph Laplacian plus a small multiple of I, with
// tiny gaps between its smallest eigenvalues) is out of reach of a Krylov
// method on A: the relative gaps there are of the order of the inverse
// condition number, and the solvers stop at their iteration limit, as
// ARPACK does. ShiftInvert runs on (A - sigma I)^-1 instead, whose
// largest eigenvalues 1/(lambda - sigma) are those nearest sigma and are
// well separated. It factorizes A - sigma I once (SparseCholesky, a
// sparse Cholesky factorization with an approximate minimum degree
// ordering, for a *linalg.CSR or a CSR; gonum's dense Cholesky for a
// Dense) and hands the results back for A: eigenvalues of A, residuals
// ||A v - theta v||. Its tolerance is relative to each value of the
// inverse, set so that it implies the bound on the residual with A. When
// the Ritz vectors of the inverse miss that bound (they carry rounding
// along the eigenvectors far from sigma, which A magnifies), a
// Rayleigh-Ritz step with A on the whole Krylov basis recovers them; the
// pairs converged first are projected out when the others need it (the
// iteration resolves the small values of the inverse only to eps times its
// largest), and a step of subspace inverse iteration follows where it can
// still help. The mode has a multiplicity check of its own: Lanczos from a
// random start on the inverse with the returned vectors projected out, run
// until a missed value above the wanted set would have shown, except with
// a small documented probability. A shifted matrix that
// is singular (sigma an eigenvalue) or indefinite (sigma inside the
// spectrum) is an error: linalg.ErrDegenerate or linalg.ErrNotPSD.
//
// # Smallest eigenvalues
//
// Which = Smallest selects the algebraically smallest Ritz values. Krylov
// spaces are invariant under shifts, so this is the same computation as the
// largest end of c I - L for a Gershgorin bound c (2 max degree for L = D -
// W, 2 for the normalized Laplacian), without forming the shift; values are
// reported for the operator itself.
//
// # Determinism and concurrency
//
// Start vectors come from Settings.Seed (or Settings.Start) through a PCG
// generator: equal inputs give bit-identical results for a fixed GOMAXPROCS.
// Solver values are stateless; each solve owns its workspace while it runs
// (a finished solve's Krylov workspace, and Chebyshev's up to a size, go
// to pools, and a later solve clears or overwrites what it reuses, so
// nothing of one call reaches the next), and Dense, CSR, Shifted, Negated and Counter operators
// may be shared by concurrent solves (a CSR only while its linalg.CSR is
// not modified).
//
// The parallel kernels run on the calling goroutine and on up to
// GOMAXPROCS-1 helper goroutines shared by all solves. A helper that has
// finished a part polls for the next job for a fraction of a millisecond,
// so the short parallel steps of a solve start
// at once instead of waiting for an idle processor to wake, and then exits:
// an idle program keeps none of them. The parts are fixed ranges, so which
// goroutine runs one does not change a result.
package eig
