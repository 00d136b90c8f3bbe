package linalg

import (
	"context"
	"errors"
	"fmt"
)

// Status says how an iterative solver or optimiser ended. Every solver of the
// module (eig, qp, klr, svm, mm, the label-aware designs) reports one of these
// values in its result, with the same meaning everywhere.
//
// The convention, as in gonum's optimize: a call returns a non-nil error only
// when it did not do what was asked for a reason the caller controls, that
// is invalid input (wrapping ErrInvalid) or a context that ended (wrapping
// ctx.Err(), with status Canceled). Every other way a solve can end,
// including the iteration limit, is an outcome: the status says which, the
// result holds the best answer found, and the error is nil. Status.Err turns
// an outcome into an error for callers that want one.
type Status int

// The statuses. The zero value is NotRun.
const (
	// NotRun: nothing was solved; the input was rejected or no solve was
	// made.
	NotRun Status = iota
	// Converged: an iterative solver met its tolerance (eig, klr, svm, mm).
	Converged
	// Optimal: a QP solver found a point whose KKT residuals meet its
	// tolerances (qp).
	Optimal
	// Infeasible: the constraints admit no point.
	Infeasible
	// Unbounded: the objective decreases without bound on the feasible set.
	Unbounded
	// IterationLimit: the iteration limit was reached first; the result
	// holds the last iterate.
	IterationLimit
	// Stalled: no further progress was possible before the tolerance was
	// met (a line search found no decrease, a step fell below rounding).
	Stalled
	// Canceled: the context was cancelled or its deadline passed (the
	// standard library's spelling).
	Canceled
	// NumericalFailure: a factorisation or recurrence broke down in
	// floating point, or an operator produced non-finite values.
	NumericalFailure
)

var statusNames = [...]string{
	NotRun:           "NotRun",
	Converged:        "Converged",
	Optimal:          "Optimal",
	Infeasible:       "Infeasible",
	Unbounded:        "Unbounded",
	IterationLimit:   "IterationLimit",
	Stalled:          "Stalled",
	Canceled:         "Canceled",
	NumericalFailure: "NumericalFailure",
}

// String returns the identifier of the status, for example "Converged".
func (s Status) String() string {
	if s < 0 || int(s) >= len(statusNames) {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// Success reports whether the solve met its tolerance: Converged or Optimal.
func (s Status) Success() bool { return s == Converged || s == Optimal }

// Err returns nil for NotRun, Converged and Optimal, and otherwise the error
// that names the outcome: ErrIterationLimit, ErrStalled, ErrNumerical,
// ErrInfeasible, ErrUnbounded, or context.Canceled.
func (s Status) Err() error {
	switch s {
	case IterationLimit:
		return ErrIterationLimit
	case Stalled:
		return ErrStalled
	case NumericalFailure:
		return ErrNumerical
	case Infeasible:
		return ErrInfeasible
	case Unbounded:
		return ErrUnbounded
	case Canceled:
		return context.Canceled
	case NotRun, Converged, Optimal:
		return nil
	}
	return fmt.Errorf("unknown status %d", int(s))
}

// IsOutcome reports whether err wraps one of the outcome errors
// (ErrIterationLimit, ErrStalled, ErrNumerical, ErrInfeasible, ErrUnbounded):
// a solver stopped before its tolerance, or the problem has no solution,
// rather than the caller's input being at fault (ErrInvalid). Every error
// the module returns for a valid call is one or the other, or a
// cancellation.
func IsOutcome(err error) bool {
	for _, e := range []error{ErrIterationLimit, ErrStalled, ErrNumerical, ErrInfeasible, ErrUnbounded} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
