// Package linalg holds the dense and sparse building blocks of the kernel
// learning library: kernel functions, kernel (Gram) matrices, kernel
// alignment, feature scaling, exact k-nearest-neighbour graphs and graph
// Laplacians.
//
// # Kernels and Gram matrices
//
// Linear, Polynomial (Quadratic is degree 2, offset 1), RBF and Cosine (the
// cosine normalisation of another kernel) implement Kernel. Gram and Cross
// build K(X, X) and K(X, Z) in parallel tiles with BLAS matrix products; the To variants write into a caller-supplied
// matrix and then allocate only O(workers x tile) scratch. RBF matrices are
// computed from ||x||^2 + ||z||^2 - 2 x.z on column-centred data with
// negative rounding clamped to zero (on exactly rescaled data for extreme
// magnitudes, see below). MedianGamma and MeanGamma give the
// usual RBF width heuristics. CosineNormalize and Center normalise and
// centre kernel matrices in O(n^2).
//
// # Alignment
//
// Alignment, TargetAlignment (A(K, y y^T), eq. 7 of Hoi, Lyu and Chang,
// KDD 2006), TargetAlignmentFactor (targets Y Y^T such as the one-hot class
// kernel) and the centred variants of Cortes, Mohri and Rostamizadeh all
// accept any mat.Symmetric. A LowRank kernel V diag(mu) V^T is recognised
// and handled in O(n d^2) without forming the n x n matrix.
//
// # Graphs
//
// KNNGraph builds the symmetric kNN graph (union or mutual, binary or heat
// weights) as a CSR matrix. The neighbour search is exact, ties are broken
// by index, and duplicates are neighbours at distance 0: a k-d tree with an
// incremental cell bound is used in low dimension and a blocked brute force
// whose matrix-product distances only filter candidates otherwise; both
// rank candidates by the same exactly computed distance, so they return
// identical graphs. Among equidistant points the k nearest are not
// defined, and index order decides; TiedNeighbors keeps every point tied
// with the k-th (the copies of a row, points at equal distances), so its
// lists, and the graph GraphFromNeighborLists builds from them, do not
// depend on the order of the rows. Laplacian, Degrees and Components
// complete the graph tools.
//
// # Features
//
// Scaler (z-scores, min-max), FitPCA (the leading principal components)
// and HOG (histograms of oriented gradients of grey-level images) map the
// rows of a data matrix to the features a kernel or a graph is built on.
//
// # Extreme magnitudes
//
// Squares of float64 values overflow beyond about 1e154 and lose precision
// below about 1e-154. The functions that square or multiply data take the
// largest magnitude of their input in the scan that already looks for NaN
// and Inf; outside a safe window (for distances, beyond about 1e150 or
// below about 1e-30) they work on the data multiplied by an exact power of
// two, which keeps the order and the ties of the distances, and convert
// the answer back with one rounding. Inputs inside the window are used as
// they are, at no extra cost. The neighbours of NearestNeighbors,
// ApproxNearestNeighbors and KNNGraph, the graph weights, RBF kernels,
// MedianGamma and MeanGamma, the alignments, Center and the normalised
// graph matrices are therefore correct for any finite input. Where the
// answer itself lies beyond the float64 range, the function fails with
// ErrDegenerate saying so (scale the data) instead of returning Inf or
// NaN: the squared distances of NearestNeighbors and SquaredDistances, a
// gamma of 0 or +Inf, linear and polynomial kernel values, a Frobenius
// inner product, a centred entry, a degree, a value of Scaler.Transform.
// Returned values below the normal range are rounded once to a subnormal
// number or 0. Kernel.Eval of Linear and Polynomial, Degrees, and the
// products of CSR and LowRank return what float64 arithmetic gives.
//
// # The module's vocabulary: errors and statuses
//
// linalg is the ground floor of the module, and it owns the vocabulary every
// other package speaks (as gonum's mat owns ErrShape):
//
//   - ErrInvalid is wrapped by every error, in any package of ukm, that the
//     caller's input or settings caused. Its kinds ErrEmpty, ErrNonFinite,
//     ErrShape, ErrSettings, ErrLabels, ErrNotPSD and ErrDegenerate name
//     the condition; each wraps ErrInvalid. Error is the type of these
//     errors (Op names the function), built with Errorf; NewKind makes a
//     package's own kind. CheckContext, CheckTol, CheckCount and CheckIn
//     validate settings the same way everywhere.
//   - Status says how a solver ended, with the same names in every package
//     (NotRun, Converged, Optimal, Infeasible, Unbounded, IterationLimit,
//     Stalled, Canceled, NumericalFailure). Stopping early is an outcome,
//     reported in the status with a nil error; Status.Err gives the
//     matching error (ErrIterationLimit, ErrStalled, ...) on request.
//
// # Errors of this package
//
// Bad input (NaN or Inf, wrong shapes, nil or empty data, invalid
// parameters, a nil context, an inconsistent CSR or LowRank) is reported as
// an *Error wrapping one of ErrEmpty, ErrNonFinite, ErrShape, ErrSettings or
// ErrDegenerate; long computations take a context and return its error,
// wrapped, when cancelled. A result beyond the float64 range is an
// ErrDegenerate error (see below).
//
// Functions that write into a destination (GramTo, CrossTo,
// Scaler.TransformTo, CosineNormalize, Center, CosineNormalizeCross,
// CenterCross) accept a destination that shares storage with an input:
// either the operation is element-wise and the views are identical, or the
// result goes through a temporary.
//
// Panics are reserved for programmer errors in calls without an error
// result, as in gonum: At of CSR and LowRank with an index out of range,
// Kernel.Eval on vectors of different lengths, CSR.MulVecTo and
// LowRank.MulVecTo with slices of the wrong length, Components on a
// non-square matrix, and the methods of a CSR or LowRank whose exported
// fields are inconsistent (check them with Validate). Nil arguments of
// Diag, Degrees and Components give empty results.
//
// No function keeps package-level mutable state, so all are safe for
// concurrent use; a CSR or LowRank may be read (multiplied, aligned) by
// several goroutines at once, but must not be modified while in use.
package linalg
