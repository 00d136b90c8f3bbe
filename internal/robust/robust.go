// Package robust helps tests check the library's failure model: bad input
// gives an error value, never a panic.
package robust

import (
	"errors"
	"fmt"
	"testing"
)

// ErrPanicked is returned by Call when the function panicked (the test has
// then already been marked failed).
var ErrPanicked = errors.New("robust: panicked")

// Call runs f and returns its error. A panic is reported as a test failure
// naming the case, and Call returns an error wrapping ErrPanicked.
func Call(tb testing.TB, name string, f func() error) error {
	tb.Helper()
	r, err := run(f)
	if r != nil {
		tb.Errorf("%s: panicked: %v", name, r)
		return fmt.Errorf("%w: %v", ErrPanicked, r)
	}
	return err
}

// run calls f and returns its error or the value it panicked with.
func run(f func() error) (panicked any, err error) {
	defer func() { panicked = recover() }()
	return nil, f()
}

// Case is one bad input: F must return an error. It is an alias of an
// unnamed struct type so that test tables can use short {name, func}
// literals.
type Case = struct {
	Name string
	F    func() error
}

// ExpectErrors runs every case with Call and requires an error that wraps
// one of sentinels (any error when sentinels is empty).
func ExpectErrors(tb testing.TB, cases []Case, sentinels ...error) {
	tb.Helper()
	for _, c := range cases {
		err := Call(tb, c.Name, c.F)
		switch {
		case err == nil:
			tb.Errorf("%s: no error", c.Name)
		case errors.Is(err, ErrPanicked) || len(sentinels) == 0:
		case !wrapsAny(err, sentinels):
			tb.Errorf("%s: error %q wraps none of the package's sentinel errors", c.Name, err)
		}
	}
}

func wrapsAny(err error, sentinels []error) bool {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}
