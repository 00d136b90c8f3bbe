package kerneltest

import (
	"errors"
	"strings"
	"testing"

	"ukm/internal/robust"
	"ukm/linalg"
)

// Case is one bad input of a table: Call must fail with an error wrapping
// Want. It is an alias of an unnamed struct type so that tables can use
// short {name, call, want} literals.
type Case = struct {
	Name string
	Call func() error
	Want error
}

// CheckErrors runs every case as a subtest and requires an error that wraps
// c.Want (a panic fails the case). When Want is one of linalg's input kinds
// (it wraps linalg.ErrInvalid) the error must wrap linalg.ErrInvalid too;
// otherwise (a cancelled context, say) it must not, since it is not the
// input's fault. Every message must start with prefix, the package's name
// and a dot ("klr.").
func CheckErrors(t *testing.T, prefix string, cases []Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			err := robust.Call(t, c.Name, c.Call)
			switch {
			case errors.Is(err, robust.ErrPanicked):
			case err == nil:
				t.Errorf("no error, want %v", c.Want)
			case !errors.Is(err, c.Want):
				t.Errorf("error %q does not wrap %v", err, c.Want)
			case errors.Is(c.Want, linalg.ErrInvalid) != errors.Is(err, linalg.ErrInvalid):
				t.Errorf("error %q: wraps linalg.ErrInvalid = %v, want %v", err, !errors.Is(c.Want, linalg.ErrInvalid), errors.Is(c.Want, linalg.ErrInvalid))
			case !strings.HasPrefix(err.Error(), prefix):
				t.Errorf("message %q does not start with %q", err, prefix)
			}
		})
	}
}
