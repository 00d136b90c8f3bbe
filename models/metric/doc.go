// Package metric learns distance metrics from pairwise constraints and
// clusters with them: chapter 5 of Hoi's thesis ("Distance Metric
// Learning"), the third part of its unified learning framework.
//
// # Constraints and chunklets
//
// Side information is a set of Constraints: Similar pairs (must-link,
// positive constraints) and Dissimilar pairs (cannot-link, negative
// constraints) of row indices. NewChunklets joins the points of the similar
// pairs into chunklets (connected components, by union-find) and gives every
// chunklet its discriminative set: the chunklets a dissimilar pair links it
// to. A point named only by dissimilar pairs is a chunklet of one point; a
// dissimilar pair inside a chunklet is a contradiction (ErrContradictory).
// SampleConstraints draws constraints from class labels, as the thesis's
// experiments do.
//
// # Linear metrics: RCA, DCA and Xing
//
// A Metric maps x to y = Aᵀx; its Mahalanobis matrix is M = A Aᵀ.
//
//   - RCA (Bar-Hillel et al.) whitens the within-chunklet covariance Ĉ_w of
//     eq. 5.3: A = Ĉ_w^(-1/2). It uses the similar pairs only.
//   - DCA (Discriminative Component Analysis, Algorithm 1 of Fig. 5.2) also
//     uses the between-chunklet covariance Ĉ_b of the dissimilar pairs: it
//     drops the zero eigenvalues of Ĉ_b, whitens Ĉ_b on the rest, diagonalises
//     Ĉ_w there and keeps the r directions of largest between-to-within
//     ratio, so that Aᵀ Ĉ_w A = I and Aᵀ Ĉ_b A is diagonal. When Ĉ_b has full
//     rank and every direction is kept, A is square and M = Ĉ_w^(-1), RCA's
//     metric: the dissimilar pairs shape the metric through the range of Ĉ_b
//     and through the reduction to r < p (Settings.Dims).
//   - Xing et al.'s convex metric learning maximises the sum of the
//     distances of the dissimilar pairs while the squared distances of the
//     similar pairs sum to at most one. It is solved to optimality by
//     projected gradient ascent in coordinates where the projection onto the
//     feasible set is exact (see Xing).
//
// # Kernel DCA
//
// KernelDCA and KernelDCAMatrix run DCA in a kernel's feature space (section
// 5.4, Fig. 5.4). The learned directions are combinations of the chunklet
// means in feature space, where the range of Ĉ_b lies, so the computation
// needs the kernel among the constrained points only (O(N²) for N of them,
// whatever n) and gives a map for new points through their kernel values
// against those points (KernelMetric.Transform, TransformKernel). With the
// linear kernel it gives DCA's distances. A low-rank kernel, such as the top
// eigenpairs of eig.TopD or the Nyström approximation of eig.Nystrom held as
// a *linalg.LowRank, is read through its factor without forming n x n.
//
// # Degenerate inputs
//
//   - A chunklet of one point has no spread: it adds nothing to Ĉ_w and
//     enters Ĉ_b through its dissimilar pairs.
//   - No dissimilar pairs: Ĉ_b = 0 and DCA and Kernel DCA fail with
//     linalg.ErrDegenerate; RCA is the method for that case.
//   - No similar pairs: Ĉ_w = 0, and every method fails with
//     linalg.ErrDegenerate.
//   - A singular Ĉ_w (fewer constrained points than dimensions, or a
//     direction without spread) makes RCA fail, and DCA and Kernel DCA when
//     it is singular on the retained subspace (a direction that separates
//     chunklets none of which spreads along it would get infinite weight).
//     Settings.Ridge resolves it; the errors say so. Eigenvalues at most
//     Settings.RankTol times the largest count as zero.
//
// # Constrained k-means
//
// KMeans (Euclidean), MahalanobisKMeans (a matrix M) and KernelKMeans (a
// kernel matrix) are COP-KMeans (Wagstaff et al.) with k-means++ starts:
// every round assigns each chunklet, as a whole, to the cluster whose centre
// is nearest to its points (the sum of their squared distances), and every
// other point to its nearest centre, then moves each centre to the mean of
// its points. Must-links therefore always hold. Chunklets with cannot-links
// are assigned in DSatur order (most distinct clusters already used by their
// assigned neighbours first), each to the nearest cluster that none of its
// assigned neighbours uses; with two clusters and consistent constraints
// this order never fails. When no such cluster exists (the constraints may
// need more than k clusters, or the greedy order painted itself into a
// corner) the chunklet goes to its nearest cluster: the result lists the
// broken dissimilar pairs in Clustering.Violated and its Status is
// linalg.Infeasible, and every pair not listed holds. Of the Restarts starts
// the one with fewest broken pairs, then the smallest objective, is kept.
// PairwiseAccuracy scores a clustering by eq. 5.12 (the Rand index).
//
// # Errors and statuses
//
// The package speaks linalg's vocabulary. Every error caused by the input
// wraps linalg.ErrInvalid through one of its kinds: linalg.ErrEmpty (no
// data), linalg.ErrNonFinite (NaN or Inf), linalg.ErrShape (sizes that do
// not fit), linalg.ErrSettings (a nil context, k or a setting out of range,
// a nil kernel), linalg.ErrLabels (a pair index outside [0, n), a similar
// pair of a point with itself, a negative label), linalg.ErrNotPSD,
// linalg.ErrDegenerate (the cases above), or this package's ErrContradictory
// (a kind of linalg.ErrLabels). A cancelled context gives an error wrapping
// the context's. Results with a Status (Clustering, XingResult) use
// linalg.Status: stopping at an iteration limit, stalling, or breaking
// cannot-links is an outcome with a nil error.
//
// Long computations take a context; every random choice comes from an
// explicit seed, so equal inputs give equal results. Nothing keeps
// package-level state: the functions are safe for concurrent use, and the
// learned metrics may be shared by goroutines.
package metric
