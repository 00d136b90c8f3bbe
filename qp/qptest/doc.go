// Package qptest is a conformance suite for implementations of qp.Solver, in
// the manner of testing/fstest: one call runs a solver, of package qp or of
// anyone else, through the contract every Solver promises.
//
//	func TestMySolver(t *testing.T) {
//		qptest.TestSolver(t, mysolver.New(), qptest.Capabilities{NoInequalities: true})
//	}
//
// The problems are small, with known answers, in families named by the
// status they must produce:
//
//   - Optimal: a known optimum (unconstrained, bounds, a box, equalities,
//     redundant equalities, inequalities, degenerate vertices, non-unique
//     multipliers, linear programs with H nil, semidefinite H, and problems
//     planted around a chosen KKT point). The point must match the known one,
//     and its KKT residuals, measured independently with qp.Residuals, must
//     meet the tolerance; the reported objective must be that of the point.
//   - Infeasible: X must hold NaN (qp.Result has no infeasibility
//     certificate to check).
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
// The zero Capabilities describes a general convex QP solver; its fields
// switch off what a solver does not support, and the suite then expects such
// problems to be refused with an error wrapping linalg.ErrInvalid (never a
// wrong answer). Check returns the failures instead of reporting them, for
// callers without a *testing.T (the suite's own tests use it to show that it
// fails wrong solvers).
package qptest
