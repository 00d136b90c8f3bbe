// Package linalg holds the dense and sparse building blocks of the kernel
// learning library: kernel functions, kernel (Gram) matrices, kernel
// alignment, feature scaling, exact k-nearest-neighbour graphs and graph
// Laplacians.
//
// # Kernels and Gram matrices
//
// Linear, Polynomial (Quadratic is degree 2, offset 1) and RBF implement
// Kernel. Gram and Cross build K(X, X) and K(X, Z) in parallel tiles with
// BLAS matrix products; the To variants write into a caller-supplied
// matrix and then allocate only O(workers x tile) scratch. RBF matrices are
// computed from ||x||^2 + ||z||^2 - 2 x.z on column-centred data with
// negative rounding clamped to zero. MedianGamma and MeanGamma give the
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
// identical graphs. Laplacian, Degrees and Components complete the graph
// tools.
//
// # Errors
//
// Bad input (NaN or Inf, wrong shapes, empty data, invalid parameters) is
// reported as an *Error wrapping one of ErrEmpty, ErrNonFinite, ErrShape,
// ErrParam or ErrDegenerate; long computations take a context and return
// its error, wrapped, when cancelled. No function keeps package-level
// mutable state, so all are safe for concurrent use.
package linalg
