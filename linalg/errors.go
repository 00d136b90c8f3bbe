package linalg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// The module's error vocabulary. Every package of ukm returns these values
// (or errors wrapping them), so one errors.Is question works everywhere:
//
//	errors.Is(err, linalg.ErrInvalid) // was it my input's fault?
//
// ErrInvalid is the umbrella: every error caused by the caller's input or
// settings wraps it, through one of the kinds below or directly. The kinds
// name the condition; a package adds a sentinel of its own only for a
// condition these do not name, and that sentinel wraps ErrInvalid too when
// the input is at fault.
//
// Errors that are not the caller's fault are few: a cancelled context (the
// error wraps ctx.Err()), and, from Status.Err, the outcome of a solver that
// stopped early. Solvers report those outcomes in their Status with a nil
// error; see Status.
var (
	// ErrInvalid is wrapped by every error caused by invalid input or
	// settings.
	ErrInvalid = errors.New("invalid input")
	// ErrEmpty reports an empty or nil input.
	ErrEmpty = kind("empty input")
	// ErrNonFinite reports a NaN or infinite value in the input (or produced
	// by a user-supplied operator or kernel).
	ErrNonFinite = kind("NaN or Inf in the input")
	// ErrShape reports inputs whose dimensions do not fit together.
	ErrShape = kind("dimension mismatch")
	// ErrSettings reports a parameter or setting out of its documented range
	// (k, gamma, a tolerance, an unknown enum value, a nil context).
	ErrSettings = kind("invalid settings")
	// ErrLabels reports invalid labels: out of range, one class, a labeled
	// index repeated or out of range.
	ErrLabels = kind("invalid labels")
	// ErrNotPSD reports a matrix that must be positive semidefinite and is
	// not, beyond the tolerance of its own rounding.
	ErrNotPSD = kind("matrix is not positive semidefinite")
	// ErrDegenerate reports an input for which the requested quantity is
	// undefined, such as a zero kernel matrix in an alignment, a
	// non-positive diagonal entry in cosine normalisation, or a kernel of
	// lower rank than the number of eigenpairs asked for.
	ErrDegenerate = kind("degenerate input")
)

// Outcomes of a solver that stopped before it met its tolerance. They are not
// input errors: a solver reports them in its Status with a nil error, and
// Status.Err turns a status into one of them for callers that want an error.
var (
	// ErrIterationLimit: the iteration limit was reached first.
	ErrIterationLimit = errors.New("iteration limit reached")
	// ErrStalled: no further progress was possible (a line search found no
	// decrease, or the step fell below rounding).
	ErrStalled = errors.New("no further progress")
	// ErrNumerical: a factorisation or recurrence broke down in floating
	// point.
	ErrNumerical = errors.New("numerical failure")
	// ErrInfeasible: the constraints admit no point.
	ErrInfeasible = errors.New("infeasible")
	// ErrUnbounded: the objective decreases without bound.
	ErrUnbounded = errors.New("unbounded")
)

// kindError is an error kind: it wraps its parent, ErrInvalid or one of
// ErrInvalid's kinds.
type kindError struct {
	msg    string
	parent error
}

func kind(msg string) error        { return &kindError{msg, ErrInvalid} }
func (e *kindError) Error() string { return e.msg }
func (e *kindError) Unwrap() error { return e.parent }

// NewKind returns a new error kind for a package's own input condition, one
// the shared kinds do not name (eig's ErrNotSymmetric, for example). It
// wraps parent, which refines (a kind of ErrInvalid such as ErrDegenerate
// or ErrSettings); a nil parent means ErrInvalid itself.
func NewKind(msg string, parent error) error {
	if parent == nil {
		parent = ErrInvalid
	}
	return &kindError{msg, parent}
}

// Error is the error type returned for bad input throughout the module. Op
// names the function that failed (for example "linalg.Gram" or
// "qp.ActiveSet.Solve"), Msg says what is wrong, and Kind is ErrInvalid or
// one of its kinds, so that errors.Is(err, Kind) and
// errors.Is(err, ErrInvalid) both hold.
type Error struct {
	Op   string
	Msg  string
	Kind error
}

// Error implements the error interface: "Op: Msg".
func (e *Error) Error() string { return e.Op + ": " + e.Msg }

// Unwrap returns the kind so that errors.Is works.
func (e *Error) Unwrap() error { return e.Kind }

// Errorf returns an *Error of the given kind for the operation op, with a
// message formatted as fmt.Sprintf does. A verb %w in format keeps the
// wrapped error reachable by errors.Is and errors.As as well as the kind.
// A nil kind means ErrInvalid.
func Errorf(kind error, op, format string, args ...any) error {
	if kind == nil {
		kind = ErrInvalid
	}
	err := fmt.Errorf(format, args...)
	e := &Error{Op: op, Msg: err.Error(), Kind: kind}
	switch err.(type) {
	case interface{ Unwrap() error }, interface{ Unwrap() []error }:
		return &wrapError{e: e, cause: err}
	}
	return e
}

// wrapError is an *Error that also wraps the cause it was formatted from.
type wrapError struct {
	e     *Error
	cause error
}

func (w *wrapError) Error() string   { return w.e.Error() }
func (w *wrapError) Unwrap() []error { return []error{w.e.Kind, w.cause} }

// As lets errors.As find the *Error inside.
func (w *wrapError) As(target any) bool {
	if p, ok := target.(**Error); ok {
		*p = w.e
		return true
	}
	return false
}

func newErr(kind error, op, format string, args ...any) error {
	return Errorf(kind, "linalg."+op, format, args...)
}

func ctxErr(op string, err error) error {
	return fmt.Errorf("linalg: %s: %w", op, err)
}

// checkCtx rejects a nil context (which would otherwise make ctx.Err
// panic) with ErrSettings.
func checkCtx(op string, ctx context.Context) error {
	if ctx == nil {
		return newErr(ErrSettings, op, "context is nil (use context.Background())")
	}
	return nil
}

// IsNil reports whether v is nil or an interface holding a nil pointer, map,
// slice, function or channel (such as a (*mat.SymDense)(nil) passed as a
// mat.Symmetric), whose methods would panic: the check every function of the
// module makes on an interface argument before it calls a method.
func IsNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan:
		return r.IsNil()
	}
	return false
}

// checkData validates a data matrix (one point per row) and returns its
// dimensions.
func checkData(op string, x *mat.Dense) (n, p int, err error) {
	if x == nil || x.IsEmpty() {
		return 0, 0, newErr(ErrEmpty, op, "data matrix is empty")
	}
	n, p = x.Dims()
	raw := x.RawMatrix()
	// Branch-free: the largest bit pattern of the magnitudes is below that
	// of +Inf exactly when every entry is finite; only then is the entry
	// looked for.
	var mag uint64
	for i := 0; i < n; i++ {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			mag = max(mag, math.Float64bits(v)&^(1<<63))
		}
	}
	if mag < infBits {
		return n, p, nil
	}
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return 0, 0, newErr(ErrNonFinite, op, "data entry (%d,%d) = %v is not finite", i, j, v)
			}
		}
	}
	return n, p, nil
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
