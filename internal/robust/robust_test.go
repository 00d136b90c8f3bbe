package robust

import (
	"errors"
	"fmt"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	msgs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

func TestCallAndExpect(t *testing.T) {
	sentinel := errors.New("bad input")
	var r recorder
	if err := Call(&r, "panics", func() error { panic("boom") }); !errors.Is(err, ErrPanicked) || len(r.msgs) != 1 {
		t.Fatalf("panic: err %v, msgs %q", err, r.msgs)
	}
	r.msgs = nil
	ExpectErrors(&r, []Case{
		{"good", func() error { return fmt.Errorf("wrapped: %w", sentinel) }},
		{"no error", func() error { return nil }},
		{"other error", func() error { return errors.New("x") }},
		{"panic", func() error { panic("boom") }},
	}, sentinel)
	// One message each for the last three cases; the panic is reported once.
	if len(r.msgs) != 3 {
		t.Fatalf("messages %q", r.msgs)
	}
}
