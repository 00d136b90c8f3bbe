package metric

import (
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// checkKernel rejects a nil kernel and one whose parameters are invalid.
func checkKernel(op string, k linalg.Kernel) error {
	if k == nil || linalg.IsNil(k) {
		return linalg.Errorf(linalg.ErrSettings, op, "kernel is nil")
	}
	if v, ok := k.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			if errors.Is(err, linalg.ErrInvalid) {
				return relabel(op, err)
			}
			return linalg.Errorf(linalg.ErrSettings, op, "invalid kernel: %w", err)
		}
	}
	return nil
}

// relabel names op in an error from another package, keeping its kind and
// cause reachable; context errors pass through wrapped.
func relabel(op string, err error) error {
	var e *linalg.Error
	if errors.As(err, &e) {
		return linalg.Errorf(e.Kind, op, "%w", err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

func isNilSym(a mat.Symmetric) bool { return linalg.IsNil(a) }
func isNilMat(a mat.Matrix) bool    { return linalg.IsNil(a) }
