package linalg

import (
	"context"
	"math"
)

// The checks below validate settings the same way in every package of the
// module, each returning nil or an *Error of kind ErrSettings whose message
// names the setting, its value and the range wanted. op names the caller, as
// in Errorf.

// CheckContext rejects a nil context, on which ctx.Err would panic.
func CheckContext(op string, ctx context.Context) error {
	if ctx == nil {
		return Errorf(ErrSettings, op, "context is nil (use context.Background())")
	}
	return nil
}

// CheckTol accepts a finite v >= 0 (zero conventionally selects the
// default): tolerances, widths and other non-negative real settings.
func CheckTol(op, name string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 1) {
		return Errorf(ErrSettings, op, "%s = %v, want a finite value >= 0 (0 = default)", name, v)
	}
	return nil
}

// CheckCount accepts v >= 0 (zero conventionally selects the default):
// iteration limits, sizes and other counts.
func CheckCount(op, name string, v int) error {
	if v < 0 {
		return Errorf(ErrSettings, op, "%s = %d is negative, want >= 0 (0 = default)", name, v)
	}
	return nil
}

// CheckIn accepts a finite v with lo <= v <= hi.
func CheckIn(op, name string, v, lo, hi float64) error {
	if !(v >= lo && v <= hi) || math.IsInf(v, 0) {
		return Errorf(ErrSettings, op, "%s = %v, want a finite value in [%v, %v]", name, v, lo, hi)
	}
	return nil
}
