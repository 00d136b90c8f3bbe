package qp_test

import (
	"context"
	"testing"

	"ukm/qp"
	"ukm/qp/qptest"
)

// TestConformance runs the conformance suite on every solver of the package.
func TestConformance(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    qp.Solver
		c    qptest.Capabilities
	}{
		{"ActiveSet", qp.NewActiveSet(nil), qptest.Capabilities{}},
		{"ActiveSet/NoDualCrash", &qp.ActiveSet{NoDualCrash: true}, qptest.Capabilities{}},
		{"GoldfarbIdnani", qp.NewGoldfarbIdnani(nil), qptest.Capabilities{PositiveDefinite: true, IgnoresStart: true}},
		{"ADMM", qp.NewADMM(nil), qptest.Capabilities{}},
		{"Bounded", qp.NewBounded(nil), qptest.Capabilities{NoInequalities: true}},
	} {
		t.Run(tc.name, func(t *testing.T) { qptest.TestSolver(t, tc.s, tc.c) })
	}
}

// recording is a Solver written outside package qp, as a user would: it
// counts its calls and hands the work to an ActiveSet.
type recording struct {
	inner qp.Solver
	calls int
}

func (r *recording) Solve(ctx context.Context, p *qp.Problem, start *qp.Start, res *qp.Result) error {
	r.calls++
	return r.inner.Solve(ctx, p, start, res)
}

// TestOutsiderSolver shows that a solver defined outside the package runs
// the suite in one line.
func TestOutsiderSolver(t *testing.T) {
	r := &recording{inner: qp.NewActiveSet(nil)}
	qptest.TestSolver(t, r, qptest.Capabilities{})
	if r.calls == 0 {
		t.Error("the suite did not call the solver")
	}
}
