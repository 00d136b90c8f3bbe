package labelaware

import (
	"errors"
	"fmt"
)

// Sentinel errors for errors.Is. Every error caused by the caller's input
// wraps ErrInput and exactly one of ErrShape, ErrNonFinite, ErrLabels,
// ErrIndex or ErrParam.
var (
	// ErrInput is wrapped by every error about invalid arguments.
	ErrInput = errors.New("labelaware: invalid input")
	// ErrShape reports nil or empty data or dimensions that do not fit.
	ErrShape = errors.New("labelaware: dimension mismatch")
	// ErrNonFinite reports a NaN or infinite value in the input.
	ErrNonFinite = errors.New("labelaware: non-finite value")
	// ErrLabels reports labels outside 0..classes-1, fewer than two
	// classes, or a class without a labeled point.
	ErrLabels = errors.New("labelaware: invalid labels")
	// ErrIndex reports a labeled index outside [0, n) or repeated.
	ErrIndex = errors.New("labelaware: invalid labeled index")
	// ErrParam reports an invalid setting (K, Landmarks, Weighting, kernel
	// parameter) or a nil context.
	ErrParam = errors.New("labelaware: invalid parameter")
	// ErrDegenerate reports data on which the method is undefined although
	// the arguments are well formed: every base kernel is constant on the
	// labeled block, or none is aligned with the target.
	ErrDegenerate = errors.New("labelaware: degenerate problem")
)

// inputError is an error about the caller's input: it wraps ErrInput and
// one specific kind.
type inputError struct {
	kind error
	msg  string
}

func (e *inputError) Error() string   { return "labelaware: " + e.msg }
func (e *inputError) Unwrap() []error { return []error{ErrInput, e.kind} }

func inputf(kind error, format string, args ...any) error {
	return &inputError{kind: kind, msg: fmt.Sprintf(format, args...)}
}
