package qp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// allSolvers returns one of each solver of the package (two ActiveSet
// configurations) with the operation name its errors carry.
func allSolvers() []struct {
	op string
	s  Solver
} {
	return []struct {
		op string
		s  Solver
	}{
		{opActiveSet, NewActiveSet(nil)},
		{opActiveSet, &ActiveSet{NoDualCrash: true}},
		{opGoldfarb, NewGoldfarbIdnani(nil)},
		{opADMM, NewADMM(nil)},
		{opBounded, NewBounded(nil)},
	}
}

// checkKind reports an err that is not an *linalg.Error of the given kind,
// named after op and wrapping linalg.ErrInvalid.
func checkKind(err error, kind error, op string) error {
	var le *linalg.Error
	switch {
	case err == nil:
		return errors.New("no error")
	case !errors.Is(err, linalg.ErrInvalid):
		return fmt.Errorf("%v does not wrap linalg.ErrInvalid", err)
	case !errors.Is(err, kind):
		return fmt.Errorf("%v does not wrap %v", err, kind)
	case !errors.As(err, &le):
		return fmt.Errorf("%v is not a *linalg.Error", err)
	case le.Op != op:
		return fmt.Errorf("Op %q, want %q", le.Op, op)
	}
	return nil
}

// TestInputErrors walks the bad-input cases of every exported function and
// checks the error kind and the operation named.
func TestInputErrors(t *testing.T) {
	ctx := context.Background()
	nan, inf := math.NaN(), math.Inf(1)
	good := &Problem{H: mat.NewSymDense(2, []float64{2, 0, 0, 2}), G: []float64{-1, -1}, Lower: []float64{0, 0}}
	problems := []struct {
		name string
		p    *Problem
		kind error
	}{
		{"nil", nil, linalg.ErrEmpty},
		{"empty", &Problem{}, linalg.ErrEmpty},
		{"NaN g", &Problem{G: []float64{nan}}, linalg.ErrNonFinite},
		{"H shape", &Problem{H: mat.NewSymDense(2, nil), G: []float64{1}}, linalg.ErrShape},
		{"Aeq columns", &Problem{G: []float64{1, 2}, Aeq: mat.NewDense(1, 3, nil), Beq: []float64{0}}, linalg.ErrShape},
		{"Bin length", &Problem{G: []float64{1, 2}, Ain: mat.NewDense(1, 2, nil), Bin: []float64{0, 1}}, linalg.ErrShape},
		{"Beq without Aeq", &Problem{G: []float64{1}, Beq: []float64{1}}, linalg.ErrShape},
		{"short Lower", &Problem{G: []float64{1, 1}, Lower: []float64{0}}, linalg.ErrShape},
		{"Lower +Inf", &Problem{G: []float64{1}, Lower: []float64{inf}}, linalg.ErrNonFinite},
		{"H NaN", &Problem{H: mat.NewSymDense(1, []float64{nan}), G: []float64{1}}, linalg.ErrNonFinite},
		{"Aeq Inf", &Problem{G: []float64{1}, Aeq: mat.NewDense(1, 1, []float64{inf}), Beq: []float64{0}}, linalg.ErrNonFinite},
		{"crossing bounds", &Problem{G: []float64{1}, Lower: []float64{1}, Upper: []float64{0}}, linalg.ErrInvalid},
		{"indefinite H", &Problem{H: mat.NewSymDense(2, []float64{1, 0, 0, -1e-3}), G: []float64{1, 1}}, linalg.ErrNotPSD},
	}
	for _, sv := range allSolvers() {
		for _, tc := range problems {
			var res Result
			if err := checkKind(sv.s.Solve(ctx, tc.p, nil, &res), tc.kind, sv.op); err != nil {
				t.Errorf("%T/%s: %v", sv.s, tc.name, err)
			}
		}
		calls := []struct {
			name string
			err  error
			kind error
		}{
			{"nil context", sv.s.Solve(nil, good, nil, &Result{}), linalg.ErrSettings}, //nolint:staticcheck
			{"nil result", sv.s.Solve(ctx, good, nil, nil), linalg.ErrSettings},
		}
		if sv.op != opGoldfarb { // GoldfarbIdnani ignores the start
			calls = append(calls,
				struct {
					name string
					err  error
					kind error
				}{"short start", sv.s.Solve(ctx, good, &Start{X: []float64{1}}, &Result{}), linalg.ErrShape},
				struct {
					name string
					err  error
					kind error
				}{"NaN start", sv.s.Solve(ctx, good, &Start{X: []float64{nan, 0}}, &Result{}), linalg.ErrNonFinite})
		}
		for _, c := range calls {
			if err := checkKind(c.err, c.kind, sv.op); err != nil {
				t.Errorf("%T/%s: %v", sv.s, c.name, err)
			}
		}
	}
	// settings, one solver type at a time
	for name, set := range map[string]Settings{
		"MaxIter -1": {MaxIter: -1}, "Tol NaN": {Tol: nan}, "Tol Inf": {Tol: inf}, "PSDTol -1": {PSDTol: -1},
	} {
		for _, s := range []struct {
			op string
			s  Solver
		}{{opActiveSet, NewActiveSet(&set)}, {opGoldfarb, NewGoldfarbIdnani(&set)}, {opADMM, NewADMM(&set)}, {opBounded, NewBounded(&set)}} {
			if err := checkKind(s.s.Solve(ctx, good, nil, &Result{}), linalg.ErrSettings, s.op); err != nil {
				t.Errorf("%T/%s: %v", s.s, name, err)
			}
		}
	}
	for name, a := range map[string]*ADMM{"Rho": {Rho: -1}, "Sigma": {Sigma: nan}, "Alpha": {Alpha: 2}, "Eps": {Eps: inf}} {
		if err := checkKind(a.Solve(ctx, good, nil, &Result{}), linalg.ErrSettings, opADMM); err != nil {
			t.Errorf("ADMM %s: %v", name, err)
		}
	}
	for name, s := range map[string]Solver{"ActiveSet": (*ActiveSet)(nil), "GoldfarbIdnani": (*GoldfarbIdnani)(nil), "ADMM": (*ADMM)(nil), "Bounded": (*Bounded)(nil)} {
		if err := s.Solve(ctx, good, nil, &Result{}); !errors.Is(err, linalg.ErrSettings) {
			t.Errorf("nil %s: err = %v, want ErrSettings", name, err)
		}
	}
	if err := checkKind(NewBounded(nil).Solve(ctx, &Problem{G: []float64{1}, Ain: mat.NewDense(1, 1, []float64{1}), Bin: []float64{0}}, nil, &Result{}), linalg.ErrShape, opBounded); err != nil {
		t.Errorf("Bounded with Ain: %v", err)
	}
	if err := checkKind(NewGoldfarbIdnani(nil).Solve(ctx, &Problem{G: []float64{1}}, nil, &Result{}), linalg.ErrNotPSD, opGoldfarb); err != nil {
		t.Errorf("GoldfarbIdnani with nil H: %v", err)
	}
	// Residuals
	for _, c := range []struct {
		name string
		err  error
		kind error
	}{
		{"nil problem", errOf(Residuals(nil, []float64{0}, nil, nil, nil, nil)), linalg.ErrEmpty},
		{"short x", errOf(Residuals(good, []float64{0}, nil, nil, nil, nil)), linalg.ErrShape},
		{"long eq", errOf(Residuals(good, []float64{0, 0}, []float64{1}, nil, nil, nil)), linalg.ErrShape},
	} {
		if err := checkKind(c.err, c.kind, opResiduals); err != nil {
			t.Errorf("Residuals %s: %v", c.name, err)
		}
	}
	// Farkas.Measure
	for _, c := range []struct {
		name string
		f    *Farkas
		p    *Problem
		kind error
	}{
		{"nil problem", &Farkas{}, nil, linalg.ErrEmpty},
		{"nil certificate", nil, good, linalg.ErrEmpty},
		{"long Lower", &Farkas{Lower: []float64{1, 1, 1}}, good, linalg.ErrShape},
		{"Eq without equalities", &Farkas{Eq: []float64{1}}, good, linalg.ErrShape},
	} {
		if err := checkKind(c.f.Measure(c.p), c.kind, "qp.Farkas.Measure"); err != nil {
			t.Errorf("Farkas.Measure %s: %v", c.name, err)
		}
	}
	// SKL
	vl, y, _ := synthSKL(1, 20, 8, 4)
	s, err := NewSKL(vl, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	nanVl := mat.DenseCopyOf(vl)
	nanVl.Set(1, 1, nan)
	for _, c := range []struct {
		name, op string
		err      error
		kind     error
	}{
		{"NewSKL nil Vl", opNewSKL, errOf(NewSKL(nil, y, 2)), linalg.ErrEmpty},
		{"NewSKL empty Vl", opNewSKL, errOf(NewSKL(&mat.Dense{}, y, 2)), linalg.ErrEmpty},
		{"NewSKL short target", opNewSKL, errOf(NewSKL(vl, mat.NewDense(3, 1, nil), 2)), linalg.ErrShape},
		{"NewSKL NaN Vl", opNewSKL, errOf(NewSKL(nanVl, y, 2)), linalg.ErrNonFinite},
		{"NewSKL decay 0.5", opNewSKL, errOf(NewSKL(vl, y, 0.5)), linalg.ErrSettings},
		{"NewSKL decay NaN", opNewSKL, errOf(NewSKL(vl, y, nan)), linalg.ErrSettings},
		{"NewSKL decay Inf", opNewSKL, errOf(NewSKL(vl, y, inf)), linalg.ErrSettings},
		{"NewSKL decay huge", opNewSKL, errOf(NewSKL(vl, y, 1e200)), ErrDecayRange},
		{"SetDecay 0.9", "qp.SKL.SetDecay", s.SetDecay(0.9), linalg.ErrSettings},
		{"SetDecay huge", "qp.SKL.SetDecay", s.SetDecay(1e200), ErrDecayRange},
		{"SetData columns", "qp.SKL.SetData", s.SetData(mat.DenseCopyOf(vl.Slice(0, 8, 0, 3)), y), linalg.ErrShape},
		{"SetData NaN", "qp.SKL.SetData", s.SetData(nanVl, y), linalg.ErrNonFinite},
		{"SetData overflow", "qp.SKL.SetData", s.SetData(scaled(vl, 1e160), y), linalg.ErrNonFinite},
		{"zero SKL SetData", "qp.SKL.SetData", new(SKL).SetData(vl, y), linalg.ErrSettings},
		{"zero SKL Solve", opSKLSolve, new(SKL).Solve(ctx, nil, nil, &Result{}), linalg.ErrSettings},
		{"Solve nil context", opSKLSolve, s.Solve(nil, nil, nil, &Result{}), linalg.ErrSettings}, //nolint:staticcheck
		{"Solve nil result", opSKLSolve, s.Solve(ctx, nil, nil, nil), linalg.ErrSettings},
		{"Solve short start", opSKLSolve, s.Solve(ctx, nil, &Start{X: []float64{1}}, &Result{}), linalg.ErrShape},
		{"Solve NaN start", opSKLSolve, s.Solve(ctx, nil, &Start{X: []float64{nan, 0, 0, 0}}, &Result{}), linalg.ErrNonFinite},
	} {
		if err := checkKind(c.err, c.kind, c.op); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if d := s.Decay(); d != 2 {
		t.Errorf("Decay() = %v after failed SetDecay calls, want 2", d)
	}
}

func errOf[T any](_ T, err error) error { return err }

func scaled(a *mat.Dense, f float64) *mat.Dense {
	b := mat.DenseCopyOf(a)
	b.Scale(f, b)
	return b
}

// TestErrDecayRange: a decay factor out of the representable range is bad
// settings, so ErrDecayRange wraps linalg.ErrSettings and linalg.ErrInvalid.
func TestErrDecayRange(t *testing.T) {
	if !errors.Is(ErrDecayRange, linalg.ErrInvalid) || !errors.Is(ErrDecayRange, linalg.ErrSettings) {
		t.Errorf("ErrDecayRange does not wrap linalg.ErrSettings and ErrInvalid")
	}
	big, _, _ := synthSKL(4, 80, 20, 60)
	yb := mat.NewDense(20, 1, nil)
	for i := 0; i < 20; i++ {
		yb.Set(i, 0, float64(2*(i%2)-1))
	}
	_, err := NewSKL(big, yb, 1e6)
	if !errors.Is(err, ErrDecayRange) || !errors.Is(err, linalg.ErrSettings) {
		t.Errorf("decay 1e6, d = 60: err = %v, want ErrDecayRange and ErrSettings", err)
	}
}

// TestSKLTargetOrthogonal: a target orthogonal to every eigenvector makes the
// SKL problem infeasible; that is an outcome (status Infeasible, X NaN) with
// a nil error, whichever solver is asked.
func TestSKLTargetOrthogonal(t *testing.T) {
	// v = (1,1)/√2 and y = (1,-1): a = ‖yᵀv‖² = 0
	s, err := NewSKL(mat.NewDense(2, 1, []float64{math.Sqrt2 / 2, math.Sqrt2 / 2}), mat.NewDense(2, 1, []float64{1, -1}), 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range []Solver{nil, NewActiveSet(nil), NewADMM(nil)} {
		var res Result
		err := s.Solve(context.Background(), sv, nil, &res)
		if err != nil || res.Status != linalg.Infeasible {
			t.Errorf("%T: err %v status %v, want nil and Infeasible", sv, err, res.Status)
		}
		if len(res.X) != 1 || !math.IsNaN(res.X[0]) {
			t.Errorf("%T: X = %v, want [NaN]", sv, res.X)
		}
		// the certificate, re-measured on the μ-space problem
		f := res.Farkas
		if err := f.Measure(s.Problem()); err != nil || !f.verified(DefaultTol) || len(f.Eq) != 1 {
			t.Errorf("%T: certificate %+v does not verify (%v)", sv, f, err)
		}
	}
}

// TestCanceledTrivial: a context cancelled before Solve is reported by every
// solver, even on a problem it would solve without iterating: an error
// wrapping context.Canceled that names the solver, and status Canceled.
func TestCanceledTrivial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	trivial := &Problem{H: mat.NewSymDense(1, []float64{1}), G: []float64{-1}}
	for _, sv := range allSolvers() {
		res := Result{Status: linalg.Optimal}
		err := sv.s.Solve(ctx, trivial, nil, &res)
		if !errors.Is(err, context.Canceled) || res.Status != linalg.Canceled || !strings.HasPrefix(fmt.Sprint(err), sv.op+":") {
			t.Errorf("%T: err %v status %v, want an error of %s wrapping context.Canceled and Canceled", sv.s, err, res.Status, sv.op)
		}
	}
	vl, y, _ := synthSKL(1, 20, 8, 4)
	s, err := NewSKL(vl, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	if err := s.Solve(ctx, nil, nil, &res); !errors.Is(err, context.Canceled) || res.Status != linalg.Canceled {
		t.Errorf("SKL: err %v status %v", err, res.Status)
	}
}

// countdown is a context whose Err reports Canceled from its n-th call on, to
// cancel a solve at a chosen point inside it.
type countdown struct {
	context.Context
	left int
}

func (c *countdown) Err() error {
	if c.left <= 0 {
		return context.Canceled
	}
	c.left--
	return nil
}

// TestCanceledMidSolve cancels every solver at each of its context checks in
// turn, nested solves included (the dual crash of ActiveSet, the phase 1 of
// Bounded, the ActiveSet finish of ADMM, the ν-space solve of SKL): the error
// must name the solver that was called, never the one inside it.
func TestCanceledMidSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	general := randProblem(rng, 30, 3, 30, 30)
	bounds := randProblem(rng, 30, 3, 0, 30)
	vl, y, _ := synthSKL(6, 80, 20, 30)
	s, err := NewSKL(vl, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, sv := range allSolvers() {
		p := general
		if sv.op == opBounded {
			p = bounds
		}
		for k := 0; k < 200; k++ {
			var res Result
			err := sv.s.Solve(&countdown{context.Background(), k}, p, nil, &res)
			if err == nil {
				break // finished before the k-th check
			}
			if !errors.Is(err, context.Canceled) || res.Status != linalg.Canceled || !strings.HasPrefix(err.Error(), sv.op+": ") {
				t.Errorf("%T after %d checks: err %v status %v, want %s: context canceled", sv.s, k, err, res.Status, sv.op)
			}
		}
	}
	for _, sv := range []Solver{nil, NewActiveSet(nil)} {
		for k := 0; k < 50; k++ {
			var res Result
			err := s.Solve(&countdown{context.Background(), k}, sv, nil, &res)
			if err == nil {
				break
			}
			if !errors.Is(err, context.Canceled) || res.Status != linalg.Canceled || !strings.HasPrefix(err.Error(), opSKLSolve+": ") {
				t.Errorf("SKL with %T after %d checks: err %v status %v", sv, k, err, res.Status)
			}
		}
	}
}
