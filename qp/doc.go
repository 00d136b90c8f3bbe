// Package qp solves small and medium dense convex quadratic programs
//
//	minimize 1/2 xᵀHx + cᵀx  subject to  Aeq x = Beq,  Ain x >= Bin,  Lower <= x <= Upper,
//
// with H symmetric positive semidefinite (possibly singular), to KKT precision,
// and the spectral kernel learning (SKL) QP of Hoi, Lyu and Chang (KDD 2006).
//
// # Solvers
//
// All solvers implement Solver and write a Result (solution, multipliers for every
// constraint, status, iteration counts, relative KKT residuals and the final
// working set for hot starts). Input errors (shapes, NaN/Inf, an H that is not
// positive semidefinite) are returned as errors wrapping ErrInvalid or
// ErrNotConvex; solver outcomes (Optimal, Infeasible, Unbounded, IterationLimit,
// NumericalFailure) are reported in Result.Status. An Infeasible result never
// carries a point (X is NaN); an Unbounded one carries a feasible point and a
// ray along which the objective decreases without bound.
//
//   - ActiveSet: primal active-set method for the general problem, with updated
//     QR and reduced-Hessian factorizations, inertia control for singular H, a
//     phase 1 that proves infeasibility, Bland's rule against cycling, and hot
//     starts from a previous point and working set. A cold start of a problem
//     with positive definite H and dense rows is crashed with GoldfarbIdnani
//     (see ActiveSet.Solve; NoDualCrash turns that off).
//   - GoldfarbIdnani: dual active-set method for strictly convex problems (H
//     positive definite, else ErrNotConvex). It starts at the unconstrained
//     minimiser and adds violated constraints; no phase 1 and no hot start.
//   - Bounded: primal active-set method specialised to bounds plus a few
//     equality rows (no general inequalities). This is the SKL workhorse.
//   - ADMM: an OSQP-style operator-splitting method with solution polishing,
//     for comparison; it finishes with ActiveSet when polishing falls short.
//
// Which to use. Times from one run of BenchmarkQP and BenchmarkSKL on a shared
// two-core machine (ratios are more reliable than the absolute figures):
//
//	problem                             fastest                     others (time / fastest)
//	random strictly convex, n = 500     GoldfarbIdnani 130-170 ms   ActiveSet (crashed by it) 1.0, ActiveSet without crash 4.3, ADMM 24
//	random strictly convex, n = 100     GoldfarbIdnani 1.6-2 ms     ActiveSet (crashed) 1.0, ActiveSet without crash 1.7, ADMM 70
//	SKL (ionosphere, 20 labels, C = 2)  SKL+Bounded 0.13-0.18 ms    ActiveSet 29, GoldfarbIdnani 170, ADMM 2000 (d = 200)
//	SKL, d = 20                         SKL+Bounded 4-8 µs          GoldfarbIdnani ~6, ActiveSet ~10, ADMM ~200
//
// For SKL use SKL.Solve with a nil solver (the reparametrised Bounded fast
// path). For a strictly convex problem solved once, GoldfarbIdnani (or
// ActiveSet, which crashes with it); for a sequence of related problems,
// ActiveSet with hot starts. For semidefinite H and linear programs, ActiveSet.
// ADMM is a reference, not a recommendation.
//
// Every solver keeps its workspace: re-solving a problem of the same size does
// not allocate, and a solver (and a Result) may be reused for problems of any
// other size with the answers of a fresh one. Solvers are not safe for
// concurrent use; use one per goroutine. A hot start may alias the result it is
// written to (Start{X: res.X, Working: res.Working} with the same res).
// Residuals measures the KKT residuals of any point and multipliers and is the
// oracle used by the tests.
//
// # Defaults and failures
//
// The zero Settings selects MaxIter = 10·(n + constraints) + 100 (20000 for
// ADMM), Tol = 1e-9 and PSDTol = 1e-10; a negative, NaN or infinite setting is
// invalid input. Solve never panics on user input: a nil problem, result or
// context, shapes that do not match, NaN/Inf data, crossing bounds
// (Lower[j] > Upper[j]), a start point of the wrong length or with NaN/Inf, and
// an SKL not made by NewSKL are errors wrapping ErrInvalid; start ids outside
// the problem are ignored. A cancelled context stops a solve with an error
// wrapping ctx.Err(). A failed SKL.SetC or SKL.SetData leaves the instance as
// it was. What may panic are programmer errors outside the package's control:
// changing a Problem's matrices while a solve runs, or mat.Matrix methods
// called by the caller on out-of-range indices.
//
// # SKL
//
// SKL builds the SKL instance from the labeled rows of the top-d eigenvectors and
// a target factor in O(l·d²) without forming the l²×d matrix D, and solves it
// through the reparametrisation ν_i = μ_i − C·μ_{i+1}, which turns the decay
// constraints into bounds (Bounded); past the decay horizon C^(i−1) > 2^60 the
// coefficients are below rounding of μ_1 and only the leading coordinates are
// solved for (see SKL). It reports the answer, multipliers and KKT
// residuals in the original μ variables. SetC and SetData change the instance
// without reallocating, and a previous μ can be passed as a hot start.
//
// Multiplier sign convention: at an optimum
//
//	Hx + c = Aeqᵀ·Eq + Ainᵀ·Ineq + Lower − Upper,  Ineq, Lower, Upper >= 0.
package qp
