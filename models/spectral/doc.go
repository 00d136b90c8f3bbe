// Package spectral designs kernels from the eigenpairs of an initial kernel
// or of a graph Laplacian: Kbar = V diag(mu) Vᵀ, where V holds d eigenvectors
// over all n points (labeled and unlabeled) and a design chooses the spectral
// coefficients mu.
//
// The designs are those of the Unified Kernel Machines paper (Hoi, Lyu and
// Chang, KDD 2006) and of the papers it is compared with:
//
//   - SKL, spectral kernel learning: mu maximises the kernel-target alignment
//     on the labeled block under mu_i >= Decay·mu_{i+1} (section 4.2), a QP
//     solved by package qp;
//   - Cluster (eq. 15): mu_i = 1; Truncated (eq. 16): mu_i = lambda_i;
//   - Order and Imp-Order (Zhu et al. 2004): alignment-maximising coefficients
//     on the smallest Laplacian eigenpairs under the order constraint mu_i >=
//     mu_{i+1}; Imp-Order leaves the coefficients of constant (zero-eigenvalue)
//     eigenvectors free;
//   - the parametric transforms of the max-margin paper's Table I: diffusion
//     exp(-sigma²lambda/2) and Gaussian field 1/(lambda + eps);
//   - Spreading, the kernel of label spreading (Zhou et al. 2004).
//
// Every design returns non-negative coefficients normalised so that
// trace(Kbar) = sum(mu) = n, i.e. a mean diagonal of 1 like a
// cosine-normalised or RBF kernel. The alignment is invariant to this scale;
// the classifier's regularisation grid is then comparable across designs.
// Package designtest checks a Design (of this package or any other) against
// that contract.
//
// SKL keeps a QP workspace and warm-starts each solve from the previous
// answer; one SKL may be used for bases and labeled sets of any size (the
// answers are those of a fresh SKL) but not by two goroutines at once. The
// other designs are values without state and are safe for concurrent use.
//
// Targets: for two classes T = yyᵀ with y in {-1,+1}. For c > 2 classes Target
// builds the factor of T_ij = 1 for the same class and -1/(c-1) otherwise, the
// multi-class generalisation used by kernel-target alignment (T is positive
// semidefinite of rank c-1 and reduces to yyᵀ for c = 2).
//
// # Errors and statuses
//
// The package uses the module's vocabulary of package linalg. Invalid input
// is an error wrapping linalg.ErrInvalid through one of its kinds: a nil or
// empty basis or target (linalg.ErrEmpty), values and vectors of different
// counts or a target whose rows do not match the labeled points
// (linalg.ErrShape), NaN/Inf eigenvalues or data (linalg.ErrNonFinite),
// labeled indices out of range or repeated and bad class labels
// (linalg.ErrLabels), a decay factor below 1, a non-positive Sigma2 or Eps, an
// Alpha outside (0, 1), a negative ZeroTol or a nil context
// (linalg.ErrSettings), and a spectrum that leaves every coefficient zero
// (linalg.ErrDegenerate). A context that has ended is an error wrapping
// ctx.Err(). The designs have no status to report in: a QP of SKL or Order
// that does not end Optimal is an error wrapping the error of its
// linalg.Status (Status.Err), for example linalg.ErrInfeasible for a target
// orthogonal to every eigenvector on the labeled rows, never a silently
// wrong mu; SKL.Result holds the QP's outcome. Nothing panics on user input.
package spectral
