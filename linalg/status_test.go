package linalg

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

func TestStatusVocabulary(t *testing.T) {
	for _, tc := range []struct {
		s       Status
		name    string
		success bool
		err     error
	}{
		{NotRun, "NotRun", false, nil},
		{Converged, "Converged", true, nil},
		{Optimal, "Optimal", true, nil},
		{Infeasible, "Infeasible", false, ErrInfeasible},
		{Unbounded, "Unbounded", false, ErrUnbounded},
		{IterationLimit, "IterationLimit", false, ErrIterationLimit},
		{Stalled, "Stalled", false, ErrStalled},
		{Canceled, "Canceled", false, context.Canceled},
		{NumericalFailure, "NumericalFailure", false, ErrNumerical},
	} {
		if got := tc.s.String(); got != tc.name {
			t.Errorf("String(%d) = %q, want %q", int(tc.s), got, tc.name)
		}
		if got := tc.s.Success(); got != tc.success {
			t.Errorf("%v.Success() = %v", tc.s, got)
		}
		if got := tc.s.Err(); got != tc.err {
			t.Errorf("%v.Err() = %v, want %v", tc.s, got, tc.err)
		}
		outcome := tc.err != nil && tc.err != context.Canceled
		if got := IsOutcome(fmt.Errorf("wrapped: %w", tc.s.Err())); got != outcome {
			t.Errorf("IsOutcome(%v.Err(), wrapped) = %v, want %v", tc.s, got, outcome)
		}
	}
	if IsOutcome(Errorf(ErrShape, "op", "bad")) || IsOutcome(nil) {
		t.Error("IsOutcome holds an input error, or nil, for an outcome")
	}
	if got := Status(99).String(); got != "Status(99)" {
		t.Errorf("String(99) = %q", got)
	}
	if Status(99).Err() == nil {
		t.Error("unknown status has a nil Err")
	}
}

func TestErrorVocabulary(t *testing.T) {
	for _, k := range []error{ErrEmpty, ErrNonFinite, ErrShape, ErrSettings, ErrLabels, ErrNotPSD, ErrDegenerate} {
		if !errors.Is(k, ErrInvalid) {
			t.Errorf("%v does not wrap ErrInvalid", k)
		}
		err := Errorf(k, "pkg.Op", "value %d", 3)
		if !errors.Is(err, k) || !errors.Is(err, ErrInvalid) {
			t.Errorf("Errorf(%v) = %v: kind lost", k, err)
		}
		if got, want := err.Error(), "pkg.Op: value 3"; got != want {
			t.Errorf("message %q, want %q", got, want)
		}
		var e *Error
		if !errors.As(err, &e) || e.Op != "pkg.Op" {
			t.Errorf("errors.As(%v) failed", err)
		}
	}
	for _, o := range []error{ErrIterationLimit, ErrStalled, ErrNumerical, ErrInfeasible, ErrUnbounded} {
		if errors.Is(o, ErrInvalid) {
			t.Errorf("outcome %v wraps ErrInvalid", o)
		}
	}
	// A cause formatted with %w stays reachable beside the kind.
	cause := fmt.Errorf("inner: %w", context.DeadlineExceeded)
	err := Errorf(ErrShape, "pkg.Op", "stage: %w", cause)
	if !errors.Is(err, ErrShape) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Errorf with %%w = %v: lost kind or cause", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Kind != ErrShape {
		t.Errorf("errors.As through a wrapped cause failed")
	}
	if err := Errorf(nil, "op", "x"); !errors.Is(err, ErrInvalid) {
		t.Error("nil kind is not ErrInvalid")
	}
}

func TestChecks(t *testing.T) {
	nan := func() float64 { var z float64; return z / z }()
	for _, tc := range []struct {
		name string
		err  error
		bad  bool
	}{
		{"nil ctx", CheckContext("op", nil), true},
		{"ctx", CheckContext("op", context.Background()), false},
		{"tol 0", CheckTol("op", "Tol", 0), false},
		{"tol -1", CheckTol("op", "Tol", -1), true},
		{"tol NaN", CheckTol("op", "Tol", nan), true},
		{"count -1", CheckCount("op", "MaxIter", -1), true},
		{"count 3", CheckCount("op", "MaxIter", 3), false},
		{"in", CheckIn("op", "Alpha", 0.5, 0, 1), false},
		{"out", CheckIn("op", "Alpha", 1.5, 0, 1), true},
		{"in NaN", CheckIn("op", "Alpha", nan, 0, 1), true},
	} {
		if (tc.err != nil) != tc.bad {
			t.Errorf("%s: err = %v, want error %v", tc.name, tc.err, tc.bad)
		}
		if tc.err != nil && !errors.Is(tc.err, ErrSettings) {
			t.Errorf("%s: %v is not ErrSettings", tc.name, tc.err)
		}
	}
}

func TestNewKind(t *testing.T) {
	own := NewKind("pkg: own condition", nil)
	sub := NewKind("pkg: a degenerate case", ErrDegenerate)
	if !errors.Is(own, ErrInvalid) || errors.Is(own, ErrDegenerate) {
		t.Errorf("NewKind(nil parent) chain wrong")
	}
	if !errors.Is(sub, ErrDegenerate) || !errors.Is(sub, ErrInvalid) {
		t.Errorf("NewKind(ErrDegenerate) chain wrong")
	}
	err := Errorf(sub, "pkg.F", "x")
	if !errors.Is(err, sub) || !errors.Is(err, ErrDegenerate) || !errors.Is(err, ErrInvalid) {
		t.Errorf("Errorf with an own kind lost the chain: %v", err)
	}
}
