package qp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Problem is a dense convex quadratic program
//
//	minimize   1/2 xᵀHx + gᵀx
//	subject to Aeq x = Beq,  Ain x >= Bin,  Lower <= x <= Upper.
//
// H may be nil (a linear program). Any constraint block may be absent (nil).
// Lower and Upper may be nil (unbounded) and may hold ±Inf entries; a Lower[j]
// above Upper[j] is invalid input (an error), not an Infeasible status.
// H must be symmetric positive semidefinite; it may be singular.
type Problem struct {
	H *mat.SymDense
	// G is the linear term g; its length is the number of variables n.
	G            []float64
	Aeq          *mat.Dense
	Beq          []float64
	Ain          *mat.Dense
	Bin          []float64
	Lower, Upper []float64
}

// Start is an optional warm start.
type Start struct {
	// X is a start point; if it is feasible phase 1 is skipped.
	X []float64
	// Working lists constraint ids (see Result.Working) to try first as the
	// working set; only those active at the start point are used.
	Working []int
}

// Result is the outcome of a solve. Its slices are reused across solves.
//
// Multiplier signs: at an optimum
//
//	Hx + g = Aeqᵀ·Eq + Ainᵀ·Ineq + Lower − Upper,  Ineq, Lower, Upper >= 0,
//
// so Lower[j] (Upper[j]) is the multiplier of x_j >= Lower[j] (x_j <= Upper[j]).
//
// When the status is Infeasible X holds NaN and Farkas a verified certificate;
// when Unbounded, X is the feasible point from which the unbounded ray starts
// and Ray the direction. When IterationLimit, X depends on the solver:
// ActiveSet and Bounded return their last iterate, which is feasible (NaN if
// phase 1 did not finish); GoldfarbIdnani returns NaN (its iterates are not
// primal feasible); ADMM returns its last iterate, which satisfies the
// constraints only to the accuracy reached, its relative violation being
// KKT.PrimalFeas. KKT is measured at X in every case. When Canceled, the
// fields other than Status are unspecified.
type Result struct {
	X                      []float64
	Ray                    []float64
	Obj                    float64
	Eq, Ineq, Lower, Upper []float64
	Status                 linalg.Status
	// Iterations counts every iteration of the solve (phase 1 and phase 2;
	// for SKL.Solve including PolishIterations).
	Iterations int
	// Phase1Iterations counts the iterations spent finding a feasible point.
	Phase1Iterations int
	// PolishIterations counts the iterations of the ActiveSet finish that
	// ADMM and SKL.Solve run when their own answer misses the tolerance (0
	// if not needed; for ADMM not included in Iterations).
	PolishIterations int
	KKT              KKT
	// Working lists the ids of the final working set, usable as
	// Start.Working: equality i has id i, inequality i has id meq+i, the
	// lower bound of x_j has id meq+min+j and its upper bound id meq+min+n+j.
	Working []int
	// HShift is ‖H₊ − H‖₂ = −λ_min(H) when H was indefinite within
	// Settings.PSDTol and the solver solved the problem with its nearest
	// semidefinite matrix H₊ instead (Obj and KKT are then those of that
	// problem; see Settings.PSDTol); 0 otherwise.
	HShift float64
	// Farkas is the infeasibility certificate of an Infeasible result,
	// verified before the status was set (Residual <= Tol < Gap); its
	// slices are empty for every other status.
	Farkas Farkas
}

// Solver is implemented by every QP solver of the package. Solve validates p,
// solves it and writes the outcome to res. The returned error is non-nil only
// for invalid input (wrapping linalg.ErrInvalid; linalg.ErrNotPSD for an H that
// is not positive semidefinite) or a context that has ended (wrapping
// ctx.Err(), with res.Status = Canceled); every other outcome, infeasibility
// included, is reported in res.Status with a nil error.
type Solver interface {
	Solve(ctx context.Context, p *Problem, start *Start, res *Result) error
}

// dims validates shapes and values of p and returns n, meq, min.
func (p *Problem) dims(op string) (n, meq, min int, err error) {
	if p == nil {
		return 0, 0, 0, linalg.Errorf(linalg.ErrEmpty, op, "nil problem")
	}
	n = len(p.G)
	if n == 0 {
		return 0, 0, 0, linalg.Errorf(linalg.ErrEmpty, op, "empty problem (len(G) = 0)")
	}
	for i, v := range p.G {
		if !finite(v) {
			return 0, 0, 0, linalg.Errorf(linalg.ErrNonFinite, op, "G[%d] = %v is not finite", i, v)
		}
	}
	if p.H != nil {
		if p.H.SymmetricDim() != n {
			return 0, 0, 0, linalg.Errorf(linalg.ErrShape, op, "H is %d×%d, want %d×%d", p.H.SymmetricDim(), p.H.SymmetricDim(), n, n)
		}
		raw := p.H.RawSymmetric()
		for i := 0; i < n; i++ {
			for j, v := range raw.Data[i*raw.Stride+i : i*raw.Stride+n] {
				if !finite(v) {
					return 0, 0, 0, linalg.Errorf(linalg.ErrNonFinite, op, "H[%d,%d] is not finite", i, i+j)
				}
			}
		}
	}
	check := func(name string, a *mat.Dense, b []float64) (int, error) {
		if a == nil {
			if len(b) != 0 {
				return 0, linalg.Errorf(linalg.ErrShape, op, "%s is nil but its right-hand side has %d entries", name, len(b))
			}
			return 0, nil
		}
		r, c := a.Dims()
		if c != n {
			return 0, linalg.Errorf(linalg.ErrShape, op, "%s has %d columns, want %d", name, c, n)
		}
		if len(b) != r {
			return 0, linalg.Errorf(linalg.ErrShape, op, "%s has %d rows but its right-hand side has %d entries", name, r, len(b))
		}
		for i := 0; i < r; i++ {
			if !finite(b[i]) {
				return 0, linalg.Errorf(linalg.ErrNonFinite, op, "%s right-hand side [%d] is not finite", name, i)
			}
			for j, v := range a.RawRowView(i) {
				if !finite(v) {
					return 0, linalg.Errorf(linalg.ErrNonFinite, op, "%s[%d,%d] is not finite", name, i, j)
				}
			}
		}
		return r, nil
	}
	if meq, err = check("Aeq", p.Aeq, p.Beq); err != nil {
		return
	}
	if min, err = check("Ain", p.Ain, p.Bin); err != nil {
		return
	}
	if p.Lower != nil && len(p.Lower) != n {
		return 0, 0, 0, linalg.Errorf(linalg.ErrShape, op, "len(Lower) = %d, want %d", len(p.Lower), n)
	}
	if p.Upper != nil && len(p.Upper) != n {
		return 0, 0, 0, linalg.Errorf(linalg.ErrShape, op, "len(Upper) = %d, want %d", len(p.Upper), n)
	}
	for j := 0; j < n; j++ {
		l, u := p.lo(j), p.up(j)
		if math.IsNaN(l) || math.IsNaN(u) || math.IsInf(l, 1) || math.IsInf(u, -1) {
			return 0, 0, 0, linalg.Errorf(linalg.ErrNonFinite, op, "bounds of x[%d] are [%v, %v]", j, l, u)
		}
		if l > u {
			// crossing bounds are input, not an Infeasible outcome: every
			// solver used to report its own status for them
			return 0, 0, 0, linalg.Errorf(linalg.ErrInvalid, op, "bounds of x[%d] cross: lower %v > upper %v", j, l, u)
		}
	}
	return n, meq, min, nil
}

func (p *Problem) lo(j int) float64 {
	if p.Lower == nil {
		return math.Inf(-1)
	}
	return p.Lower[j]
}

func (p *Problem) up(j int) float64 {
	if p.Upper == nil {
		return math.Inf(1)
	}
	return p.Upper[j]
}

// checkSolve validates the arguments every general solver's Solve needs, in
// this order: a context, a well-formed problem and a result to write; it
// returns the problem's sizes.
func checkSolve(ctx context.Context, op string, p *Problem, res *Result) (n, meq, min int, err error) {
	if err := linalg.CheckContext(op, ctx); err != nil {
		return 0, 0, 0, err
	}
	if n, meq, min, err = p.dims(op); err != nil {
		return 0, 0, 0, err
	}
	if res == nil {
		return 0, 0, 0, linalg.Errorf(linalg.ErrSettings, op, "nil result")
	}
	return n, meq, min, nil
}

// checkStart validates a start point of a problem with n variables: its
// length and its values (a start without X is always valid).
func checkStart(op string, start *Start, n int) error {
	if start == nil || start.X == nil {
		return nil
	}
	if len(start.X) != n {
		return linalg.Errorf(linalg.ErrShape, op, "len(start.X) = %d, want %d", len(start.X), n)
	}
	for j, v := range start.X {
		if !finite(v) {
			return linalg.Errorf(linalg.ErrNonFinite, op, "start.X[%d] = %v is not finite", j, v)
		}
	}
	return nil
}
