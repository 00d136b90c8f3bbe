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
// Targets: for two classes T = yyᵀ with y in {-1,+1}. For c > 2 classes Target
// builds the factor of T_ij = 1 for the same class and -1/(c-1) otherwise, the
// multi-class generalisation used by kernel-target alignment (T is positive
// semidefinite of rank c-1 and reduces to yyᵀ for c = 2).
package spectral
