package linalg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"

	"gonum.org/v1/gonum/mat"
)

// Sentinel errors that callers can test with errors.Is. Every error returned
// for bad input by this package wraps exactly one of them.
var (
	// ErrEmpty reports an empty or nil input.
	ErrEmpty = errors.New("linalg: empty input")
	// ErrNonFinite reports a NaN or infinite value in the input.
	ErrNonFinite = errors.New("linalg: input contains NaN or Inf")
	// ErrShape reports inputs whose dimensions do not fit together.
	ErrShape = errors.New("linalg: dimension mismatch")
	// ErrParam reports an invalid parameter (k, gamma, degree, ...).
	ErrParam = errors.New("linalg: invalid parameter")
	// ErrDegenerate reports an input for which the requested quantity is
	// undefined, such as a zero kernel matrix in an alignment or a
	// non-positive diagonal entry in cosine normalisation.
	ErrDegenerate = errors.New("linalg: degenerate input")
)

// Error is the error type returned for bad input. Op names the function that
// failed, Msg says what is wrong, and Kind is one of the sentinel errors.
type Error struct {
	Op   string
	Msg  string
	Kind error
}

// Error implements the error interface.
func (e *Error) Error() string { return "linalg: " + e.Op + ": " + e.Msg }

// Unwrap returns the sentinel kind so that errors.Is works.
func (e *Error) Unwrap() error { return e.Kind }

func newErr(kind error, op, format string, args ...any) error {
	return &Error{Op: op, Msg: fmt.Sprintf(format, args...), Kind: kind}
}

func ctxErr(op string, err error) error {
	return fmt.Errorf("linalg: %s: %w", op, err)
}

// checkCtx rejects a nil context (which would otherwise make ctx.Err
// panic) with ErrParam.
func checkCtx(op string, ctx context.Context) error {
	if ctx == nil {
		return newErr(ErrParam, op, "context is nil (use context.Background())")
	}
	return nil
}

// isNil reports whether v is nil or an interface holding a nil pointer
// (such as a (*mat.SymDense)(nil) passed as a mat.Symmetric), whose methods
// would panic.
func isNil(v any) bool {
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
