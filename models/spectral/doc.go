// Package spectral designs kernels from the eigenpairs of an initial kernel
// or of a graph Laplacian: Kbar = V diag(mu) Vᵀ, where V holds d eigenvectors
// over all n points (labeled and unlabeled) and a design chooses the spectral
// coefficients mu.
//
// The designs are those of the Unified Kernel Machines paper (Hoi, Lyu and
// Chang, KDD 2006) and of the papers it is compared with:
//
//   - SKL, spectral kernel learning: mu maximises the kernel-target alignment
//     on the labeled block under mu_i >= C mu_{i+1} (section 4.2), a QP solved
//     by package qp;
//   - Cluster (eq. 15): mu_i = 1; Truncated (eq. 16): mu_i = lambda_i;
//   - Order and Imp-Order (Zhu et al. 2004): alignment-maximising coefficients
//     on the smallest Laplacian eigenpairs under the order constraint mu_i >=
//     mu_{i+1}; Imp-Order leaves the coefficients of constant (zero-eigenvalue)
//     eigenvectors free;
//   - the parametric transforms of the max-margin paper's Table I: diffusion
//     exp(-sigma²lambda/2) and Gaussian field 1/(lambda + eps).
//
// Every design returns coefficients normalised so that trace(Kbar) = sum(mu)
// = n, i.e. a mean diagonal of 1 like a cosine-normalised or RBF kernel. The
// alignment is invariant to this scale; the classifier's regularisation grid
// is then comparable across designs.
//
// Errors. Invalid input — a nil or empty basis, values and vectors of different
// counts, NaN/Inf eigenvalues, labeled indices out of range or repeated, a
// target whose rows do not match the labeled points, a decay factor C < 1, a
// non-positive Sigma2 or Eps — returns an error wrapping ErrInput (or
// qp.ErrInvalid, for data or a nil context the QP of SKL and Order rejects);
// nothing panics on user input. A QP that does not end Optimal (for example a target orthogonal to
// every eigenvector) is an error, never a silently wrong mu. A cancelled
// context stops the QP designs with an error wrapping ctx.Err().
//
// SKL keeps a QP workspace and hot-starts each solve from the previous answer;
// one SKL may be used for bases and labeled sets of any size (the answers are
// those of a fresh SKL) but not by two goroutines at once. The other designs
// are values without state and are safe for concurrent use.
//
// Targets: for two classes T = yyᵀ with y in {-1,+1}. For c > 2 classes Target
// builds the factor of T_ij = 1 for the same class and -1/(c-1) otherwise, the
// multi-class generalisation used by kernel-target alignment (T is positive
// semidefinite of rank c-1 and reduces to yyᵀ for c = 2).
package spectral
