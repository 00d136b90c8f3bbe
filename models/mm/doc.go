// Package mm learns the fast-decay spectral kernel with maximum margin ("MM")
// of Xu, Zhu, Lyu and King, "Maximum Margin based Semi-supervised Spectral
// Kernel Learning" (section III.C, eq. 12-15).
//
// # Problem
//
// Given q eigenvectors phi_1..phi_q of an initial kernel over all n points
// (columns of a spectral.Basis, sorted by decreasing eigenvalue), l labeled
// rows with labels y in {-1,+1}, a decay factor w >= 1 (Settings.Decay) and
// a trace delta,
// MM chooses the spectral coefficients mu of Kbar = sum_i mu_i phi_i phi_iᵀ
// that minimise the SVM dual optimum on the labeled block,
//
//	J(mu) = max_{0 <= alpha <= C, alphaᵀy = 0} 2 alphaᵀe - alphaᵀ D(y) Kbar_ll(mu) D(y) alpha,
//
// over the fast-decay cone {mu >= 0, mu_i >= w mu_{i+1}, sum_i mu_i ||phi_i||² = delta}.
// J is a maximum of affine functions of mu, hence convex, with gradient
// dJ/dmu_i = -(sum_j alpha*_j y_j phi_i(x_j))² at the optimal alpha*. (The
// paper writes the problem as a QCQP for an interior-point solver; this
// package solves the same problem without one.)
//
// # Method
//
// Writing mu_q = nu_q, mu_i = w mu_{i+1} + nu_i with nu >= 0 shows that the
// cone with fixed trace is the convex hull of q extreme rays: ray k has
// mu_i = delta w^{k-i} / s_k for i <= k (zero after), s_k = sum_{m<=k}
// w^{k-m} ||phi_m||², and every feasible mu is sum_k theta_k ray_k with theta
// on the unit simplex. In theta the problem is multiple kernel learning over
// a simplex of q kernels of equal trace delta, with gradient -a_k, a_k =
// alphaᵀ D(y) Kray_k D(y) alpha.
//
// Learn minimises J(theta) by the spectral projected gradient method
// (Birgin, Martínez and Raydan 2000) with a monotone Armijo line search:
// Barzilai-Borwein step lengths, Euclidean projection onto the simplex (a
// sort, O(q log q)) and safeguarded quadratic backtracking. Every function
// value is an SVM solve by package svm (SMO), with a warm start from the
// previous alpha, which makes the solves along the path cheap. The method was chosen
// because the simplex is cheap to project onto, the q-dimensional problem is
// small, the BB steps adapt to the very different curvatures of the ray
// directions, and the monotone line search makes every accepted step decrease
// J (History is strictly decreasing) and guarantees convergence to a
// stationary point, which for a convex J is a minimum. Problems whose optimum
// sits on a face where the labeled kernel block loses rank (more labeled
// points than eigenvectors, w close to 1) need more iterations than the
// others. One iteration costs O(q log q) for the projection plus, for every
// line-search trial, an SVM solve on l points and O(l^2 q + l q^2) to form
// the kernel block and the ray terms.
//
// # Stopping: a duality gap
//
// For any feasible alpha, 2 alphaᵀe - max_k a_k(alpha) is a lower bound on
// min J (the minimum over the simplex of an affine function is at a vertex),
// and the SVM primal value ||w||² + 2C sum_j xi_j at the current mu, with the
// inner solution's w and bias, is an upper bound on J(mu). Learn keeps the
// best lower bound over all evaluations and stops when the relative gap
// (Upper - Lower) / Upper is at most Settings.Tol, which certifies that the
// returned J is within Tol of the optimum. The certificate includes the
// inner solver's own duality gap, so the inner SMO tolerance (InnerTol,
// default 1e-9) must be tight enough for Tol. If the line search cannot
// decrease J while the gap is above Tol the method stops with status
// Stalled.
//
// # Use
//
// Learn (or a Learner, which reuses its workspace and then allocates nothing)
// returns a Result with Mu, Alpha, Bias, the objective, its bounds and
// history. Result.Decision gives the decision values of eq. 15,
// f(x_r) = sum_j y_j alpha_j Kbar(x_j, x_r) + b, for every basis row; the
// paper sets b = 0, this package keeps the SVM bias, which matches the
// constraint alphaᵀy = 0 of the dual. Objective evaluates J and its gradient
// at any mu >= 0.
//
// LearnSum learns one mu for several binary problems on the same labeled
// points by minimising the sum of their dual optima (a sum of convex
// functions; the rays, the gradient and the duality gap simply add up).
// With OneVsAll labels this is the multi-class MM used by Design, which plugs
// MM into package spectral next to SKL: a one-column target (two classes) is
// the paper's binary MM, a c-column target from spectral.Target gives the c
// one-versus-all problems.
//
// Settings: Decay defaults to DefaultDecay = 2 (the SKL default decay),
// Trace to n (so sum mu = n for an orthonormal basis, like the spectral
// designs), C to svm.DefaultC = 100 (the paper's SVM setting), Tol to
// DefaultTol = 1e-4, MaxIter to DefaultMaxIter = 1000, InnerTol to
// DefaultInnerTol = 1e-9.
//
// # Errors and statuses
//
// The package uses the vocabulary of package linalg and has no sentinels of
// its own. Invalid input is an error wrapping linalg.ErrInvalid and one of
// its kinds: ErrSettings (Decay < 1, a negative trace, C or tolerance, a nil
// Learner, Design or context), ErrEmpty (an empty basis or target, no label
// vectors), ErrShape (sizes that do not fit), ErrNonFinite (NaN or Inf in
// the basis), ErrDegenerate (a zero basis column), ErrLabels (labels other
// than -1/+1, a single class, labeled indices missing, out of range or
// repeated); nothing panics on user input. A cancelled context is an error
// wrapping ctx.Err() (status Canceled). Stopping early is not an error: the
// Result holds the best point found and its Status (a linalg.Status) says
// how the run ended — Converged, IterationLimit, Stalled, or
// NumericalFailure when an inner SVM solve stopped at its own iteration
// limit.
//
// The package has no mutable package-level state; a Learner or Design must
// not be shared between goroutines.
package mm
