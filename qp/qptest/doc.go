// Package qptest is a conformance suite for implementations of qp.Solver, in
// the manner of testing/fstest: one call runs a solver, of package qp or of
// anyone else, through the contract every Solver promises.
//
//	func TestMySolver(t *testing.T) {
//		qptest.TestSolver(t, mysolver.New(), qptest.Capabilities{NoInequalities: true})
//	}
//
// The problems are small, with known answers, in families named by the
// status they must produce (some made by Generate, below):
//
//   - Optimal: a known optimum (unconstrained, bounds, a box, equalities,
//     redundant equalities, inequalities, degenerate vertices, non-unique
//     multipliers, linear programs with H nil, semidefinite H, problems
//     planted around a chosen KKT point, and generated degenerate LP-like
//     problems). The point must match the known one (where it is unique),
//     and its KKT residuals, measured independently with qp.Residuals, must
//     meet the tolerance; the reported objective must be that of the point.
//   - Infeasible: X must hold NaN, and Result.Farkas must be a certificate,
//     measured here from its weights and the problem: the right signs, a
//     residual of Aeqᵀ·Eq + Ainᵀ·Ineq + Lower − Upper within the tolerance
//     relative to the size of its terms, a normalised gap above it, and the
//     Residual and Gap the solver reported in agreement (unless
//     Capabilities.NoCertificate).
//   - Unbounded: X must be feasible and Ray a certificate: a direction of
//     zero curvature and negative slope that every constraint admits.
//   - Canceled: a context cancelled before or during the solve gives an error
//     wrapping context.Canceled and status Canceled.
//   - Invalid: malformed problems, a nil result or context, an indefinite H
//     and a malformed start give errors wrapping linalg.ErrInvalid
//     (linalg.ErrNotPSD for H).
//
// Across all of them: no panic, the problem is not modified, a warm start
// from the result itself (aliasing it) returns the same optimum, and a solver
// reused across sizes gives the answers of a fresh one.
//
// Generated problems. Generate builds LP-like problems of the kinds that
// defeat naive active-set phase 1s (redundant, duplicated, empty and ranged
// rows, coefficients over many orders of magnitude, fixed and free
// variables, H zero on most variables; infeasible versions with a planted
// certificate; rows nearly dependent on equalities) around a planted KKT
// point, so that their optimal value is known exactly; DegenerateFamilies
// names one Spec per class. Package qp's tests and benchmarks, and the peer
// comparison, use them.
//
// The zero Capabilities describes a general convex QP solver; its fields
// switch off what a solver does not support, and the suite then expects such
// problems to be refused with an error wrapping linalg.ErrInvalid (never a
// wrong answer). Check returns the failures instead of reporting them, for
// callers without a *testing.T (the suite's own tests use it to show that it
// fails wrong solvers).
package qptest
