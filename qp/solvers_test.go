package qp

import (
	"context"
	"errors"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// kktTol is the relative KKT threshold every optimal solve must meet.
const kktTol = 1e-9

// testSolver is an entry of the conformance table. strict solvers need a
// positive definite H and must reject any other with ErrNotPSD.
type testSolver struct {
	name   string
	s      Solver
	strict bool
}

func solvers() []testSolver {
	return []testSolver{
		{"activeset", NewActiveSet(nil), false},
		{"activeset-primal", &ActiveSet{NoDualCrash: true}, false},
		{"admm", NewADMM(nil), false},
		{"goldfarb-idnani", NewGoldfarbIdnani(nil), true},
	}
}

// positiveDefinite reports whether p.H is numerically positive definite
// (a Cholesky factorisation with condition estimate below 1e12 exists).
func positiveDefinite(p *Problem) bool {
	if p.H == nil {
		return false
	}
	var ch mat.Cholesky
	return ch.Factorize(p.H) && ch.Cond() < 1e12
}

// skipStrict runs a strict solver on a problem whose H is not positive
// definite: it must refuse with ErrNotPSD or, when H is definite only to
// rounding, not claim Optimal with bad residuals. It reports whether the
// caller should skip its usual checks.
func skipStrict(t *testing.T, sv testSolver, p *Problem, label string) bool {
	t.Helper()
	if !sv.strict || positiveDefinite(p) {
		return false
	}
	var res Result
	err := sv.s.Solve(context.Background(), p, nil, &res)
	if err == nil && res.Status == linalg.Optimal && res.KKT.Max() > kktTol {
		t.Errorf("%s %s: semidefinite H, Optimal with KKT %+v", label, sv.name, res.KKT)
	}
	if err != nil && !errors.Is(err, linalg.ErrNotPSD) {
		t.Errorf("%s %s: semidefinite H, err %v, want ErrNotPSD", label, sv.name, err)
	}
	return true
}
