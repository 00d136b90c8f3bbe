package qptest_test

import (
	"context"
	"strings"
	"testing"

	"ukm/linalg"
	"ukm/qp"
	"ukm/qp/qptest"
)

// displaced is a correct solver whose answer is moved off the optimum by
// 1e-4 in its first coordinate.
type displaced struct{ qp.Solver }

func (s displaced) Solve(ctx context.Context, p *qp.Problem, start *qp.Start, res *qp.Result) error {
	err := s.Solver.Solve(ctx, p, start, res)
	if err == nil && res.Status == linalg.Optimal {
		res.X[0] += 1e-4
	}
	return err
}

// liar says Optimal, with x = 0, for an infeasible problem.
type liar struct{ qp.Solver }

func (s liar) Solve(ctx context.Context, p *qp.Problem, start *qp.Start, res *qp.Result) error {
	err := s.Solver.Solve(ctx, p, start, res)
	if err == nil && res.Status == linalg.Infeasible {
		res.Status = linalg.Optimal
		for j := range res.X {
			res.X[j] = 0
		}
	}
	return err
}

// forger reports Infeasible correctly but with a certificate whose row
// weights are zeroed (so its gap is 0).
type forger struct{ qp.Solver }

func (s forger) Solve(ctx context.Context, p *qp.Problem, start *qp.Start, res *qp.Result) error {
	err := s.Solver.Solve(ctx, p, start, res)
	if err == nil && res.Status == linalg.Infeasible {
		for i := range res.Farkas.Eq {
			res.Farkas.Eq[i] = 0
		}
		for i := range res.Farkas.Ineq {
			res.Farkas.Ineq[i] = 0
		}
	}
	return err
}

// deaf ignores the context it is given.
type deaf struct{ qp.Solver }

func (s deaf) Solve(ctx context.Context, p *qp.Problem, start *qp.Start, res *qp.Result) error {
	if ctx != nil {
		ctx = context.Background()
	}
	return s.Solver.Solve(ctx, p, start, res)
}

// panicky panics on problems with equality rows.
type panicky struct{ qp.Solver }

func (s panicky) Solve(ctx context.Context, p *qp.Problem, start *qp.Start, res *qp.Result) error {
	if p != nil && p.Aeq != nil {
		panic("equalities")
	}
	return s.Solver.Solve(ctx, p, start, res)
}

// count returns how many failures have a family name starting with prefix.
func count(fails []string, prefix string) int {
	k := 0
	for _, f := range fails {
		if strings.HasPrefix(f, prefix) {
			k++
		}
	}
	return k
}

// TestCheckPasses: a correct general solver passes the suite.
func TestCheckPasses(t *testing.T) {
	if fails := qptest.Check(qp.NewActiveSet(nil), qptest.Capabilities{}); len(fails) != 0 {
		t.Errorf("ActiveSet fails the suite:\n%s", strings.Join(fails, "\n"))
	}
}

// TestCheckFailsWrongSolvers: the suite catches solvers that break the
// contract, each in the families the fault concerns.
func TestCheckFailsWrongSolvers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      qp.Solver
		c      qptest.Capabilities
		prefix string // a family that must fail
		min    int    // at least this many failures there
	}{
		// every Optimal family with a known optimum
		{"displaced by 1e-4", displaced{qp.NewActiveSet(nil)}, qptest.Capabilities{}, "Optimal/", 17},
		// every Infeasible family
		{"Optimal when infeasible", liar{qp.NewActiveSet(nil)}, qptest.Capabilities{}, "Infeasible/", 7},
		// a certificate that does not prove anything, in every Infeasible family
		{"forged certificate", forger{qp.NewActiveSet(nil)}, qptest.Capabilities{}, "Infeasible/", 7},
		{"ignores cancellation", deaf{qp.NewActiveSet(nil)}, qptest.Capabilities{}, "Canceled/", 17},
		{"panics", panicky{qp.NewActiveSet(nil)}, qptest.Capabilities{}, "Optimal/equality", 1},
		// Bounded refuses inequalities: without the capability that is a failure
		{"capabilities overstated", qp.NewBounded(nil), qptest.Capabilities{}, "Optimal/inequalities", 1},
		// and a solver that solves what it claims not to support fails too
		{"capabilities understated", qp.NewActiveSet(nil), qptest.Capabilities{NoBounds: true}, "Optimal/box", 1},
	} {
		fails := qptest.Check(tc.s, tc.c)
		if k := count(fails, tc.prefix); k < tc.min {
			t.Errorf("%s: %d failures in %s..., want at least %d; all failures:\n%s", tc.name, k, tc.prefix, tc.min, strings.Join(fails, "\n"))
		}
	}
}

// TestCheckNoCertificate: a solver that does not promise certificates is not
// asked for one.
func TestCheckNoCertificate(t *testing.T) {
	fails := qptest.Check(forger{qp.NewActiveSet(nil)}, qptest.Capabilities{NoCertificate: true})
	if len(fails) != 0 {
		t.Errorf("forger with NoCertificate fails:\n%s", strings.Join(fails, "\n"))
	}
}

// TestCheckTolerance: the displacement is caught by the KKT residuals
// measured independently and by the comparison with the known optimum.
func TestCheckTolerance(t *testing.T) {
	fails := qptest.Check(displaced{qp.NewActiveSet(nil)}, qptest.Capabilities{})
	for _, want := range []string{"Optimal/box: KKT residuals", "Optimal/box: X =", "Optimal/box: Obj ="} {
		if count(fails, want) == 0 {
			t.Errorf("no failure %q for a displaced optimum:\n%s", want, strings.Join(fails, "\n"))
		}
	}
}
