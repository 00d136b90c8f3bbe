// Package eigtest checks implementations of eig.Solver against matrices
// whose spectra are known, in the manner of testing/fstest: one line in a
// test runs the whole suite on a solver, in-tree or not.
//
//	func TestMySolver(t *testing.T) {
//		eigtest.TestSolver(t, mySolver{})
//	}
//
// # Cases
//
// The matrices are Q diag(λ) Qᵀ with a seeded random orthogonal Q and a
// prescribed spectrum λ: geometric decay (as a kernel matrix's), uniform, a
// tight cluster at each end, an eigenvalue of multiplicity five at each end
// (asked for seven pairs), an eigenvalue of multiplicity six at each end
// asked for exactly six pairs (a missed copy would bring in the next
// value), all negative values, the identity, the zero matrix, a 2 x 2 and a 1 x 1
// matrix, and d = n - 1 and d = n pairs. Each is solved for its largest and
// for its smallest eigenvalues, through four operators: eig.Dense, a
// *linalg.CSR (an eig.Operator as it is), a wrapper with MulVecTo only (no
// block products) and a shifted operator (eig.Shift), whose spectrum is λ
// shifted. Default settings are used, with Seed 1 and the Which of the
// case.
//
// A case passes when Solve returns no error, Status linalg.Converged, d
// pairs all counted in Result.Converged, and, with the thresholds of
// LAPACK's tests (ε = 2^-53 the unit round-off, ‖A‖ the largest |λ| of the
// operator, or 1 for the zero matrix; norms are spectral):
//
//   - eigenvalues equal to the known ones: |θ_j − λ_j| / (‖A‖ n ε) ≤ Threshold;
//   - residuals: ‖A V − V Θ‖ / (‖A‖ n ε) ≤ Threshold;
//   - orthonormal vectors: ‖I − VᵀV‖ / (n ε) ≤ Threshold;
//   - Result.Residuals equal to the true residual norms within
//     Threshold n ε ‖A‖.
//
// The suite also checks the error contract of eig.Solver on bad input (d
// outside [1, n], a nil or non-square operator, a cancelled context): an
// error of the documented kind and a non-nil Result with the documented
// status.
//
// The matrices are small (n <= 120), so the suite is quick.
//
// # Generated problems
//
// Beside the suite, the package exports generators of larger sparse test
// matrices, each a Problem, for tests and benchmarks of the failure
// classes of Krylov eigensolvers (the same seed gives the same matrix):
// RepeatedDiagonal and RepeatedBlocks (an eigenvalue of exact
// multiplicity at the bottom), GridStiffness and ClusteredLaplacian
// (positive definite, of a prescribed condition number, with crowded
// bottom eigenvalues: the case for eig.ShiftInvert), and for timings the
// dense KernelRBF and the sparse KNNLaplacian. In -short mode
// (TestSolver) or with Options.Short, the three largest are solved through
// the dense operator only.
package eigtest
