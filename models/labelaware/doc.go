// Package labelaware builds the label-aware semi-supervised kernel of Wang,
// Zhang, Jiang and Marsic, "Improving Semi-Supervised Target Alignment via
// Label-Aware Base Kernels" (AAAI 2014), Algorithm 1.
//
// # Method
//
// The non-zero eigenvectors of the ideal kernel on the labeled points are
// the class indicators (the paper's Proposition 1). Extending them to all n
// points with the Nystrom formula gives the label-aware vectors of eq. 5,
// normalised by the degree as Algorithm 1 does:
//
//	[u_1 .. u_c] = D^-1 K_nl Y,   K_nl = K(X, X_l),  D = diag(K_nl 1),
//
// so u_k(i) is the kernel-weighted share of class k among the labeled
// neighbours of x_i (LabelVectors). Together with K eigenvectors v_j (the
// top of the kernel matrix, or with Settings.Eigen = LaplacianBottom the
// bottom of its normalised graph Laplacian) they span rank-one base
// kernels, combined as
//
//	K~ = sum_k alpha_k u_k u_kᵀ + sum_j beta_j v_j v_jᵀ    (eq. 6)
//
// with weights chosen on the labeled block by one of three schemes: alignf
// (Cortes, Mohri and Rostamizadeh 2010, the paper's choice: the non-negative
// combination of maximal centred alignment, one small QP), uniform, or
// independent (each base kernel weighted by its own centred alignment).
// Base vectors are scaled to unit norm first and the weights are normalised
// to sum to n. Build returns the kernel as (V, Weights), never as an n x n
// matrix; Kernel.Block gives the blocks an SVM needs, Kernel.Features the
// feature map, Kernel.LowRank a linalg.LowRank.
//
// # Eigenvectors and cost
//
// With Settings.Landmarks = 0 the eigenvectors are exact (eig.TopD on the
// formed kernel matrix) for n <= ExactMaxN and Nystrom approximations with
// min(n, max(DefaultLandmarks, 2K)) landmarks otherwise; a positive
// Landmarks always selects eig.Nystrom (uniform landmarks drawn with
// Settings.Seed, one-shot orthonormalisation). On the Nystrom path the whole
// method takes O(n l p + n m p + n m² + m³) time and O(n (l + m + K)) memory
// for p features.
//
// Alignf and BlockAlignment work on any base vectors restricted to a block
// and may be reused on their own; Design adapts a Weighting to
// spectral.Design, weighting the columns of any spectral.Basis.
//
// # Errors and concurrency
//
// Invalid input (nil or empty data, NaN or Inf, wrong lengths, duplicate or
// out-of-range labeled indices, labels outside 0..c-1, fewer than two
// classes, a class without a labeled point, negative K, Landmarks > n, K > m)
// returns an error wrapping linalg.ErrInvalid through one of the module's
// kinds, linalg.ErrEmpty, ErrShape, ErrNonFinite, ErrLabels (labels and
// labeled indices) or ErrSettings; data on which the method is undefined
// (every base vector constant on the labeled block, a kernel of rank below
// K) returns linalg.ErrDegenerate. A cancelled context stops Build between stages and
// inside the kernel, eigenvector and QP computations. The package has no
// mutable package-level state; a Kernel is read-only after Build.
package labelaware
