// Package svm trains C-support vector machines on a precomputed kernel block
// by sequential minimal optimisation (SMO).
//
// For labels y_i in {-1, +1} and an l x l kernel block K the solver maximises
// the dual
//
//	D(alpha) = sum_i alpha_i - 1/2 sum_ij alpha_i alpha_j y_i y_j K_ij
//	subject to 0 <= alpha_i <= C, sum_i y_i alpha_i = 0,
//
// and the decision function is f(x) = sum_i alpha_i y_i K(x, x_i) + b.
//
// Working pairs are chosen with the second-order rule of Fan, Chen and Lin
// (JMLR 2005): i maximises -y_t grad_t over the points that may move up, and
// j, among the points that may move down and violate the optimality
// condition with i, maximises the guaranteed decrease b^2 / a of the
// two-variable subproblem (a is the curvature K_ii + K_jj - 2 K_ij, replaced
// by 1e-12 when not positive, so indefinite kernels do not break the
// iteration). The solver stops when the maximal violation
// m(alpha) - M(alpha) = max_up(-y grad) - min_low(-y grad) is at most
// Settings.Tol (default 1e-3, LIBSVM's default); at that point every training
// point satisfies its KKT condition on y_i f(x_i) to within Tol.
//
// The bias b is the mean of -y_i grad_i over the free support vectors
// (0 < alpha_i < C), or the midpoint of the feasible interval when there are
// none. The optimal dual value D (Model.Dual) and alpha are exposed because
// max-margin kernel learning uses them as functions of the kernel; a Solver
// keeps its workspace between solves and can make a warm start from the
// previous alpha, which pays off when the kernel changes a little between
// solves.
//
// C defaults to DefaultC = 100 when Settings.C is zero, the setting of the
// max-margin spectral kernel paper (Xu et al.); package mm and the models use
// the same default.
//
// Multi-class problems (labels 0..c-1) use one-versus-all training and
// predict the class with the largest decision value; with two classes a
// single binary machine is trained with class 1 positive.
//
// # Errors and statuses
//
// The package uses the vocabulary of package linalg and has no sentinels of
// its own. Every exported function validates its input and returns an error
// (never a panic) wrapping linalg.ErrInvalid and one of its kinds: ErrEmpty
// (nil or empty matrices, an untrained model), ErrShape (dimensions that do
// not fit, an asymmetric kernel block), ErrNonFinite, ErrLabels and
// ErrSettings (out-of-range settings, a nil Solver or context). A cancelled
// context is an error wrapping ctx.Err(). Stopping at the iteration limit is
// not an error: the model holds the last feasible iterate and Stats.Status (a
// linalg.Status) is IterationLimit; otherwise it is Converged or Canceled.
//
// The package has no mutable package-level state; a Solver must not be
// shared between goroutines.
package svm
