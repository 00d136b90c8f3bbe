// Package models is the entry point of ukm: it learns Unified Kernel
// Machines (Hoi, Lyu and Chang, KDD 2006) from labeled and unlabeled points
// and runs their active-learning loop.
//
// # Fit
//
// FitLabels takes all n points (labeled and unlabeled) and one label per
// point, the user's class name or Unlabeled (""); Fit takes the indices of
// the labeled points and their classes 0..c-1 instead. Both return a Model:
//
//  1. The features are scaled (z-score by default), fitted on all n points:
//     the setting is transductive, the unlabeled points are known.
//  2. The initial kernel K0 (RBF of median width by default, or linear or
//     quadratic) is built and cosine-normalised ("initial normalized
//     kernel", KDD'06 Fig. 6). The KNN kind replaces it by the normalised
//     affinity D^-1/2 W D^-1/2 of the symmetric k-NN graph, whose smooth top
//     eigenvectors separate image manifolds that one RBF width does not.
//     A point's neighbours are its k nearest and every point tied with the
//     k-th (linalg.TiedNeighbors): the graph of data with copies of a row
//     does not depend on the order of the rows.
//  3. Its top d eigenpairs (d = 20 by default) are computed once with
//     package eig. The graph designs use instead the bottom d eigenpairs of
//     the combinatorial Laplacian of the unweighted 10-NN graph (KDD'06
//     section 6.2).
//  4. A design (package spectral) chooses the spectral coefficients mu: SKL
//     maximises the alignment of the labeled block with the target under the
//     decay constraints mu_i >= C mu_{i+1} (a QP); Cluster and Truncated are
//     the unsupervised kernels of eq. 15-16; Order, ImpOrder, Diffusion and
//     GaussianField are graph kernels; LabelSpreading is the transform of
//     label spreading, 1/(1 - alpha theta); Standard skips steps 3-4 and
//     uses K0. Eigenpairs at round-off (below DropRelTol times the largest)
//     are dropped first, so no design weighs an arbitrary null-space
//     vector; the copies of a repeated eigenvalue (the eigenvalue 1 of a
//     kNN graph's affinity, once per connected component) are put in the
//     basis the labeled points single out, so no design weighs a basis the
//     eigensolver chose at random (the learned kernel does not depend on
//     Options.Seed through the eigensolver).
//  5. The learned kernel Kbar = V diag(mu) Vᵀ is kept as (V, mu), never as an
//     n x n matrix. KLR (one-versus-all, eq. 17) is trained on the feature
//     map Phi = V diag(sqrt(mu)) of the labeled rows, which costs O(l d²) per
//     Newton step; lambda is chosen by cross-validation on the labeled set
//     unless given. The SVM alternative is trained on Phi_L Phi_Lᵀ. The
//     Spread classifier is label spreading itself: the scores
//     (I - alpha S)^-1 Y on the whole kNN graph, no training.
//
// # Predict, as in scikit-learn
//
// Model.Predict, Model.Proba and Model.Score take new points (raw features,
// one per row) and place them through the Nyström extension v(x) = K0(x, X)
// V diag(1/lambda) of the eigenvectors, with the fitted scaling and
// normalisation applied; for a training point it reproduces its row of V to
// rounding. PredictLabels returns the class names (Model.ClassNames). The
// transductive predictions of the training rows, the ones a semi-supervised
// user usually wants, come from PredictRows, ProbaRows and ScoreRows, which
// take row indices and read the rows of Phi directly (a point in a
// component of the kNN graph without labeled points gets, from KLR without
// an intercept, the labels' prior rather than a class rounding decides, and
// a point whose decision values tie to within klr.TieTol gets the tied
// class with the most labels).
// The graph designs have
// no kernel function for new points: their Predict returns ErrNoOutOfSample,
// and PredictRows serves.
//
// # Designs of one's own
//
// Design Custom with Options.Custom plugs any spectral.Design (a
// labelaware.Design, or a user's type) into the pipeline in place of the
// built-in designs. A knob of Options that the chosen design or classifier
// does not use (Decay without SKL or MM, Alpha without label spreading, C
// without an SVM, ...) is an error rather than silently ignored.
//
// # Model selection
//
// Select (and Fit with Design Auto, the default of the ukm command) chooses
// the basis, design, d and lambda by cross-validation on the labeled points
// only: leave-one-out up to LeaveOneOutMax points, stratified folds above,
// the eigenpairs computed once per basis and shared by its candidates and
// folds. DefaultCandidates documents the candidate set; the best
// cross-validated accuracy wins, then the one-standard-error rule picks the
// smallest d and largest lambda of that family, and with the default
// candidates that winner must beat the first of them, label spreading, by
// one paired standard error or label spreading is kept (SelectRule: with
// 10 or 20 labels the best of many noisy scores is often a lucky one).
// With the default candidates the model is then a committee (VoteSoft): the
// chosen candidate and up to eight best scored others that it does not beat
// by one paired standard error, predicting by their mean class
// probabilities.
// Model.Selection reports every candidate's score, the rule used and the
// committee. A BasisCache keeps the bases between selections on the same
// data, and between active-learning loops (LoopOptions.Cache).
//
// # Large n
//
// Above DefaultLargeN points (or with Options.Large) no n x n matrix is
// formed: kernel bases come from Nyström landmarks (Options.Landmarks),
// graphs from an approximate kNN search (linalg.ApproxNearestNeighbors) in
// the space of the leading principal components of the data when they
// have more features than that (Options.GraphDims), and the eigenpairs of
// the graph's normalised affinity from the Chebyshev-filtered solver
// (eig.Chebyshev), whose cost does not grow with the crowding of its top
// eigenvalues near 1 as plain Lanczos does. Before anything large
// is allocated the memory a request needs is estimated; above
// Options.MaxMemory the request is refused with an error naming the option
// that lowers it. Options.Progress reports the long stages.
//
// # Images
//
// On grey-level images a kNN graph among the pixels joins images that
// share bright and dark areas; Options.GraphFeatures searches it instead
// among the images' histograms of oriented gradients (linalg.HOG), which
// join images whose edges run alike. Only the graph changes: the designs,
// the classifier and new points work as before (new images are described
// the same way). BENCHMARKS.md compares both on Fashion-MNIST.
//
// # Active learning
//
// Loop implements KDD'06 Fig. 6: fit, test convergence, query the most
// informative unlabeled points, repeat. The eigenpairs are computed once;
// each round re-solves the SKL QP warm-started from the previous round (UKLR,
// LearnKernel set) or keeps the kernel fixed, re-fits KLR warm-started, and
// scores the unlabeled points by entropy (eq. 19). UKLR, KLRActive and
// KLRRand return ready-made LoopOptions for the comparison of section 6.3.
// The loop stops when the budget is spent, when the largest entropy drops
// below a threshold, or when a round changes no prediction.
//
// # Errors and statuses
//
// The package speaks the module's vocabulary (see package linalg): invalid
// input (shapes, indices, labels, NaN, settings) returns an error wrapping
// linalg.ErrInvalid through its kind (linalg.ErrShape, ErrNonFinite,
// ErrLabels, ErrSettings, ...); nothing panics on user input. The methods of
// a nil or zero Model (one not returned by Fit, FitLabels, Select or Loop)
// return ErrNotFitted, and its accessors zero values. A classifier that stops
// at its iteration limit is not an error: the model is usable and its
// classifier's status says so. A fitted Model is safe for concurrent use by
// its methods (they only read it). A cancelled context stops Fit and Loop
// between and inside stages, with an error wrapping ctx.Err(). Every random
// choice (cross-validation folds, eigensolver start, bandwidth sampling,
// random queries) is drawn from Options.Seed, so results are reproducible.
package models
