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

func TestBytes(t *testing.T) {
	c := NewBytes([]byte{1, 2, 3})
	var got []byte
	for range 5 {
		got = append(got, c.Next())
	}
	if fmt.Sprint(got) != "[1 2 3 1 2]" {
		t.Errorf("Next gave %v, want the bytes in turn, starting over", got)
	}
	x := NewBytes([]byte{0, 8, 16, 250}).Grid(2, 2)
	if fmt.Sprint(x.RawMatrix().Data) != "[-2 0 2 1]" {
		t.Errorf("Grid gave %v", x.RawMatrix().Data)
	}
	p := NewBytes([]byte{7, 3, 200}).Perm(6)
	seen := make([]bool, 6)
	for _, i := range p {
		if i < 0 || i >= 6 || seen[i] {
			t.Fatalf("Perm gave %v, not a permutation", p)
		}
		seen[i] = true
	}
}
