// Package qp solves small and medium dense convex quadratic programs
//
//	minimize 1/2 xᵀHx + gᵀx  subject to  Aeq x = Beq,  Ain x >= Bin,  Lower <= x <= Upper,
//
// with H symmetric positive semidefinite (possibly singular), to KKT precision,
// and the spectral kernel learning (SKL) QP of Hoi, Lyu and Chang (KDD 2006).
//
// # Solvers
//
// All solvers implement Solver and write a Result (solution, multipliers for
// every constraint, status, iteration counts, relative KKT residuals and the
// final working set for warm starts). An Infeasible result never carries a
// point (X is NaN) and always carries a Farkas certificate, verified before
// the status was set: weights for the constraints whose combination cancels
// (to a relative Residual at most Settings.Tol) while their right-hand sides
// add up to a positive Gap above it. A solver that cannot produce one does
// not report Infeasible. An Unbounded result carries a feasible point and a
// ray along which the objective decreases without bound.
//
//   - ActiveSet: primal active-set method for the general problem, with updated
//     QR and reduced-Hessian factorizations, inertia control for singular H, a
//     phase 1 that proves infeasibility with a certificate, equilibration of
//     badly scaled problems, a perturbation and Bland's rule against
//     degeneracy, and warm starts from a previous point and working set. A
//     cold start of a problem with positive definite H and dense rows is
//     crashed with GoldfarbIdnani (see ActiveSet.Solve; NoDualCrash turns that
//     off).
//   - GoldfarbIdnani: dual active-set method for strictly convex problems (H
//     positive definite, else an error wrapping linalg.ErrNotPSD). It starts at
//     the unconstrained minimiser and adds violated constraints; no phase 1 and
//     no warm start.
//   - Bounded: primal active-set method specialised to bounds plus a few
//     equality rows (no general inequalities). This is the SKL workhorse.
//   - ADMM: an OSQP-style operator-splitting method with solution polishing,
//     for comparison; it finishes with ActiveSet when polishing falls short.
//
// Which to use. For SKL use SKL.Solve with a nil solver (the reparametrised
// Bounded fast path). For a strictly convex problem solved once,
// GoldfarbIdnani (or ActiveSet, which crashes with it); for a sequence of
// related problems, ActiveSet with warm starts. For semidefinite H and linear
// programs, ActiveSet. ADMM is a reference, not a recommendation. BENCHMARKS.md
// (section "QP solvers") has the measured times behind this advice.
//
// Every solver keeps its workspace: re-solving a problem of the same size does
// not allocate, and a solver (and a Result) may be reused for problems of any
// other size with the answers of a fresh one. Solvers are not safe for
// concurrent use; use one per goroutine. A warm start may alias the result it
// is written to (Start{X: res.X, Working: res.Working} with the same res).
// Residuals measures the KKT residuals of any point and multipliers and is the
// oracle used by the tests; package qptest is the conformance suite every
// Solver, in this package or outside it, can run.
//
// # Defaults
//
// The zero Settings selects MaxIter = DefaultMaxIter(n, rows) (ten per
// variable, bound and row, plus 100; DefaultADMMMaxIter for ADMM), Tol =
// DefaultTol and PSDTol = DefaultPSDTol; ADMM's Rho, Sigma, Alpha and Eps and
// SKL's decay factor have their DefaultXxx constants too.
//
// # Convexity
//
// H must be semidefinite up to the rounding of its own data: H is accepted
// when no eigenvalue is below −PSDTol·‖H‖_F, a test relative to ‖H‖ whose
// default 1e-5 is twice the eigenvalue error of data given to 6 significant
// digits (see Settings.PSDTol). A slightly indefinite H accepted that way is
// replaced by its nearest semidefinite matrix, and Result.HShift says by how
// much.
//
// # Errors and statuses
//
// The package uses the module's vocabulary of package linalg. Errors are
// returned only for input the caller controls, each wrapping linalg.ErrInvalid
// through one of its kinds: a nil problem, result or context, shapes that do
// not match (linalg.ErrShape), NaN/Inf data (linalg.ErrNonFinite), crossing
// bounds (Lower[j] > Upper[j]), a negative, NaN or infinite setting
// (linalg.ErrSettings), an H that is not positive semidefinite
// (linalg.ErrNotPSD), a start point of the wrong length or with NaN/Inf, and
// an SKL not made by NewSKL; start ids outside the problem are ignored.
// ErrDecayRange, the package's one sentinel, is a linalg.ErrSettings. A
// context that has ended stops a solve with an error wrapping ctx.Err() and
// status linalg.Canceled. Every other way a solve ends is an outcome reported
// in Result.Status with a nil error: linalg.Optimal, Infeasible, Unbounded,
// IterationLimit or NumericalFailure (Status.Err turns it into an error);
// Farkas.Measure re-measures an infeasibility certificate for any problem. A
// failed SKL.SetDecay or SKL.SetData leaves the instance as it was. Solve
// never panics on user input; what may panic are programmer errors outside
// the package's control: changing a Problem's matrices while a solve runs, or
// mat.Matrix methods called by the caller on out-of-range indices.
//
// # SKL
//
// SKL builds the SKL instance from the labeled rows of the top-d eigenvectors
// and a target factor in O(l·d²) without forming the l²×d matrix D, and solves
// it through the reparametrisation ν_i = μ_i − δ·μ_{i+1} (δ the decay factor),
// which turns the decay constraints into bounds (Bounded); past the decay
// horizon δ^(i−1) > 2^60 the coefficients are below rounding of μ_1 and only
// the leading coordinates are solved for (see SKL). It reports the answer,
// multipliers and KKT residuals in the original μ variables. SetDecay and
// SetData change the instance without reallocating, and a previous μ can be
// passed as a warm start.
//
// Multiplier sign convention: at an optimum
//
//	Hx + g = Aeqᵀ·Eq + Ainᵀ·Ineq + Lower − Upper,  Ineq, Lower, Upper >= 0.
package qp
