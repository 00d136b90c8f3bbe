// Package klr implements regularised kernel logistic regression (KLR), the
// classifier of the Unified Kernel Logistic Regression scheme (Hoi, Lyu and
// Chang, KDD 2006, eq. 17-18).
//
// For labels y_i in {-1, +1} the binary model minimises
//
//	J(f) = (1/l) sum_i ln(1 + exp(-y_i f(x_i))) + (lambda/2) ||f||_H^2
//
// over functions f(x) = g(x) + b, where the bias b is optional and never
// penalised. Two equivalent parametrisations are offered:
//
//   - kernel form (FitKernel): f = K alpha + b on the l x l labeled kernel
//     block K, with ||f||_H^2 = alpha^T K alpha. K may be singular; the
//     Newton system is solved through the symmetric positive definite matrix
//     lambda I + S K S / l with S = diag(sqrt(p_i (1 - p_i))), so K is never
//     inverted. One Newton step costs O(l^3).
//   - feature form (FitFeatures): f = Phi w + b with an explicit l x d feature
//     map Phi (for a learned low-rank kernel K = Phi Phi^T), ||f||_H^2 =
//     ||w||^2. One Newton step costs O(l d^2 + d^3), or O(l^2 d + l^3) through
//     the l x l matrix when there are fewer than half as many points as
//     features.
//
// On K = Phi Phi^T both forms have the same optimal decision function.
//
// Both are solved by Newton's method with a backtracking (Armijo) line search.
// Iteration stops when the infinity norm of the gradient falls below
// Settings.Tol times the infinity norm of the gradient at the zero model
// (alpha = 0 or w = 0, b = 0), which makes the test independent of the warm
// start and of the scale of the data term, or below the rounding level of
// the data term, 16 u max_j sum_i |x_ij| / l with u = 2^-53 (where the
// gradient at the zero model is itself rounding, the zero model is the
// optimum). A fit that reaches the iteration limit returns its best (last
// accepted, since the line search is monotone) iterate with status
// IterationLimit.
//
// Loss and sigmoid are evaluated in overflow-free forms, so huge margins give
// probabilities that round to 0 or 1 but never NaN.
//
// A Fitter keeps the workspaces between fits; the active-learning loop that
// refits the model every round should keep one Fitter and one Model and call
// Fitter.FitFeatures or Fitter.FitKernel with warm = true (a warm start).
//
// Multi-class problems (labels 0..c-1) use one-versus-all training with the
// same lambda for every binary problem and predict the class of maximal
// probability (KDD 2006, section 6.1); with c = 2 a single binary problem is
// solved with class 1 as the positive class. Decision values equal to within
// TieTol of their size are tied, so that rounding never decides a class:
// Predict gives the tie to the lower class index, PredictPrior to the class
// with the most labels. The regularisation parameter can be chosen by
// stratified k-fold cross-validation (CrossValidateKernel,
// CrossValidateFeatures), whose held-out points take ties by the training
// fold's labels.
//
// # Errors and statuses
//
// The package uses the vocabulary of package linalg and has no sentinels of
// its own. Every exported function validates its input and returns an error
// (never a panic) wrapping linalg.ErrInvalid and one of its kinds: ErrEmpty
// (nil or empty matrices, an unfitted model), ErrShape (dimensions that do
// not fit, an asymmetric kernel block), ErrNonFinite, ErrLabels, ErrSettings
// (out-of-range settings, a nil Fitter or context) and ErrNotPSD (a kernel
// block found indefinite). A cancelled context is an error wrapping
// ctx.Err(). Stopping early is not an error: the model holds the best
// iterate and Stats.Status (a linalg.Status) says how the fit ended —
// Converged, IterationLimit, Stalled, NumericalFailure or Canceled.
//
// Nothing in the package holds mutable package-level state; a Fitter must not
// be used by two goroutines at once, but distinct Fitters may.
package klr
