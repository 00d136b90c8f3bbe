package eigtest

import (
	"testing"

	"ukm/eig"
)

// Threshold is the largest scaled error a case accepts (see the package
// documentation): LAPACK's test threshold.
const Threshold = 60

// Failure is one failed check of the suite.
type Failure struct {
	// Case names the case, for example
	// "repeated/n=80/d=7/smallest/op=csr"; the error contract's cases start
	// with "input/".
	Case string
	// Msg says what failed, with the measured value and the bound.
	Msg string
}

// String returns "Case: Msg".
func (f Failure) String() string { return f.Case + ": " + f.Msg }

// Options configures Check. The zero value (or nil) runs every case.
type Options struct {
	// Short runs the reduced set of -short mode: the largest matrices with
	// the dense operator only.
	Short bool
}

// Check runs the suite on s and returns its failures, nil if s passes.
// It never calls a testing function, so that it can be run anywhere (and
// the suite itself tested on solvers that must fail it). A panic of s is
// not recovered.
func Check(s eig.Solver, opt *Options) []Failure {
	short := opt != nil && opt.Short
	var out []Failure
	for _, c := range cases(short) {
		for _, msg := range c.run(s) {
			out = append(out, Failure{Case: c.name, Msg: msg})
		}
	}
	return out
}

// TestSolver runs the suite on s, each case as a subtest of t, and reports
// every failed check with t.Error. In -short mode it runs the reduced set
// (see Options.Short).
func TestSolver(t *testing.T, s eig.Solver) {
	t.Helper()
	for _, c := range cases(testing.Short()) {
		t.Run(c.name, func(t *testing.T) {
			t.Helper()
			for _, msg := range c.run(s) {
				t.Error(msg)
			}
		})
	}
}
