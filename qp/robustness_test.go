package qp

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/robust"
	"ukm/linalg"
)

// TestNoPanicOnBadInput: every solver returns an error (never panics) on
// invalid problems, starts, results, contexts and settings.
func TestNoPanicOnBadInput(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	nan, inf := math.NaN(), math.Inf(1)
	good := &Problem{H: mat.NewSymDense(2, []float64{2, 0, 0, 2}), G: []float64{-1, -1}, Lower: []float64{0, 0}}
	var nilDense *mat.Dense
	probs := map[string]*Problem{
		"nil":           nil,
		"empty":         {},
		"H empty":       {H: &mat.SymDense{}, G: []float64{1}},
		"Aeq typed nil": {G: []float64{1}, Aeq: nilDense, Beq: []float64{1}},
		"Aeq empty":     {G: []float64{1}, Aeq: &mat.Dense{}, Beq: []float64{1}},
		"Ain empty":     {G: []float64{1}, Ain: &mat.Dense{}},
		"Ain nil Bin":   {G: []float64{1}, Ain: mat.NewDense(1, 1, []float64{1})},
		"Beq no Aeq":    {G: []float64{1}, Beq: []float64{1}},
		"Beq NaN":       {G: []float64{1}, Aeq: mat.NewDense(1, 1, []float64{1}), Beq: []float64{nan}},
		"Ain Inf":       {G: []float64{1}, Ain: mat.NewDense(1, 1, []float64{inf}), Bin: []float64{0}},
		"g Inf":         {G: []float64{inf}},
		"short Lower":   {G: []float64{1, 1}, Lower: []float64{0}},
		"long Upper":    {G: []float64{1}, Upper: []float64{0, 1}},
		"Lower NaN":     {G: []float64{1}, Lower: []float64{nan}},
		"Upper -Inf":    {G: []float64{1}, Upper: []float64{-inf}},
		// crossing bounds were NumericalFailure with an infeasible X (ActiveSet,
		// Bounded, ADMM) but Infeasible with X = NaN (GoldfarbIdnani)
		"crossing bounds": {H: mat.NewSymDense(2, []float64{2, 0, 0, 2}), G: []float64{1, 1}, Lower: []float64{1, 0}, Upper: []float64{0, 1}},
		"H not convex":    {H: mat.NewSymDense(1, []float64{-1}), G: []float64{1}},
	}
	starts := map[string]*Start{
		"short X":    {X: []float64{1}},
		"NaN X":      {X: []float64{nan, 0}},
		"Inf X":      {X: []float64{0, inf}},
		"bad ids":    {X: []float64{0, 0}, Working: []int{-1, 99, 1 << 40}},
		"dup ids":    {X: []float64{0, 0}, Working: []int{0, 0, 0}},
		"ids only":   {Working: []int{-5, 1000}},
		"ids only 2": {Working: []int{2, 2, 3}},
	}
	settings := map[string]*Settings{
		"neg MaxIter": {MaxIter: -1},
		"NaN Tol":     {Tol: nan},
		"neg PSDTol":  {PSDTol: -1},
	}
	for _, sv := range append(solvers(), testSolver{"bounded", NewBounded(nil), false}) {
		sv := sv
		for name, p := range probs {
			if err := robust.Call(t, sv.name+"/"+name, func() error { var r Result; return sv.s.Solve(ctx, p, nil, &r) }); err == nil {
				t.Errorf("%s/%s: no error", sv.name, name)
			}
		}
		for name, st := range starts {
			err := robust.Call(t, sv.name+"/"+name, func() error { var r Result; return sv.s.Solve(ctx, good, st, &r) })
			if err == nil && (name == "short X" || name == "NaN X" || name == "Inf X") && sv.name != "goldfarb-idnani" {
				t.Errorf("%s/%s: no error", sv.name, name)
			}
		}
		for name, f := range map[string]func() error{
			"nil result": func() error { return sv.s.Solve(ctx, good, nil, nil) },
			"nil ctx":    func() error { var r Result; return sv.s.Solve(nil, good, nil, &r) }, //nolint:staticcheck
		} {
			if err := robust.Call(t, sv.name+"/"+name, f); err == nil {
				t.Errorf("%s/%s: no error", sv.name, name)
			}
		}
		robust.Call(t, sv.name+"/cancelled", func() error { var r Result; return sv.s.Solve(cancelled, good, nil, &r) })
	}
	settings["Inf Tol"] = &Settings{Tol: inf}
	settings["Inf PSDTol"] = &Settings{PSDTol: inf}
	for name, set := range settings {
		for _, s := range []Solver{NewActiveSet(set), NewBounded(set), NewGoldfarbIdnani(set), NewADMM(set)} {
			if err := robust.Call(t, fmt.Sprintf("%T/%s", s, name), func() error { var r Result; return s.Solve(ctx, good, nil, &r) }); err == nil {
				t.Errorf("%T/%s: no error", s, name)
			}
		}
	}
	for name, a := range map[string]*ADMM{"Rho": {Rho: -1}, "Sigma": {Sigma: nan}, "Alpha": {Alpha: 2}, "Eps": {Eps: inf}} {
		if err := robust.Call(t, "ADMM/"+name, func() error { var r Result; return a.Solve(ctx, good, nil, &r) }); err == nil {
			t.Errorf("ADMM/%s: no error", name)
		}
	}
	for name, s := range map[string]Solver{"zero ActiveSet": &ActiveSet{}, "zero Bounded": &Bounded{}, "zero GI": &GoldfarbIdnani{}, "zero ADMM": &ADMM{}} {
		if err := robust.Call(t, name, func() error {
			var r Result
			if err := s.Solve(ctx, good, nil, &r); err != nil {
				return err
			}
			if r.Status != linalg.Optimal {
				return fmt.Errorf("status %v", r.Status)
			}
			return nil
		}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// typed nil solvers
	for name, s := range map[string]Solver{"ActiveSet": (*ActiveSet)(nil), "Bounded": (*Bounded)(nil), "GI": (*GoldfarbIdnani)(nil), "ADMM": (*ADMM)(nil)} {
		if err := robust.Call(t, "nil "+name, func() error { var r Result; return s.Solve(ctx, good, nil, &r) }); err == nil {
			t.Errorf("nil %s: no error", name)
		}
	}
	if err := robust.Call(t, "SKL with nil *Bounded", func() error {
		vl, y, _ := synthSKL(1, 20, 8, 4)
		s, err := NewSKL(vl, y, 2)
		if err != nil {
			return err
		}
		var r Result
		if err := s.Solve(ctx, (*Bounded)(nil), nil, &r); err != nil {
			return err
		}
		if r.Status != linalg.Optimal {
			return fmt.Errorf("status %v", r.Status)
		}
		return nil
	}); err != nil {
		t.Errorf("SKL with nil *Bounded: %v", err)
	}
	// Bounded with general inequalities
	if err := robust.Call(t, "Bounded/Ain", func() error {
		var r Result
		return NewBounded(nil).Solve(ctx, &Problem{G: []float64{1}, Ain: mat.NewDense(1, 1, []float64{1}), Bin: []float64{0}}, nil, &r)
	}); err == nil {
		t.Errorf("Bounded with Ain: no error")
	}
	// Residuals
	for name, f := range map[string]func() error{
		"nil p":       func() error { _, err := Residuals(nil, []float64{0}, nil, nil, nil, nil); return err },
		"short x":     func() error { _, err := Residuals(good, []float64{0}, nil, nil, nil, nil); return err },
		"short lower": func() error { _, err := Residuals(good, []float64{0, 0}, nil, nil, []float64{1}, nil); return err },
		"long eq":     func() error { _, err := Residuals(good, []float64{0, 0}, []float64{1}, nil, nil, nil); return err },
	} {
		if err := robust.Call(t, "Residuals/"+name, f); err == nil {
			t.Errorf("Residuals/%s: no error", name)
		}
	}
	// SKL
	vl, y, _ := synthSKL(1, 20, 8, 4)
	for name, f := range map[string]func() error{
		"nil vl":       func() error { _, err := NewSKL(nil, y, 2); return err },
		"typed nil vl": func() error { _, err := NewSKL(nilDense, y, 2); return err },
		"empty vl":     func() error { _, err := NewSKL(&mat.Dense{}, y, 2); return err },
		"empty y":      func() error { _, err := NewSKL(vl, &mat.Dense{}, 2); return err },
		"typed nil y":  func() error { _, err := NewSKL(vl, nilDense, 2); return err },
		"short y":      func() error { _, err := NewSKL(vl, mat.NewDense(3, 1, nil), 2); return err },
		"decay < 1":    func() error { _, err := NewSKL(vl, y, 0.5); return err },
		"decay NaN":    func() error { _, err := NewSKL(vl, y, nan); return err },
		"decay huge":   func() error { _, err := NewSKL(vl, y, 1e200); return err },
		"NaN vl": func() error {
			v := mat.DenseCopyOf(vl)
			v.Set(0, 0, nan)
			_, err := NewSKL(v, y, 2)
			return err
		},
		"zero SKL Solve":         func() error { var s SKL; var r Result; return s.Solve(ctx, nil, nil, &r) },
		"zero SKL SetData":       func() error { var s SKL; return s.SetData(vl, y) },
		"zero SKL SetDecay only": func() error { var s SKL; return s.SetDecay(2) },
		"zero SKL SetDecay": func() error {
			var s SKL
			if err := s.SetDecay(2); err != nil {
				return err
			}
			var r Result
			return s.Solve(ctx, nil, nil, &r)
		},
		"nil SKL": func() error { var s *SKL; var r Result; return s.Solve(ctx, nil, nil, &r) },
		"SKL nil res": func() error {
			s, err := NewSKL(vl, y, 2)
			if err != nil {
				return nil
			}
			return s.Solve(ctx, nil, nil, nil)
		},
		"SKL nil ctx": func() error {
			s, err := NewSKL(vl, y, 2)
			if err != nil {
				return nil
			}
			var r Result
			return s.Solve(nil, nil, nil, &r) //nolint:staticcheck
		},
		"SKL bad start": func() error {
			s, err := NewSKL(vl, y, 2)
			if err != nil {
				return nil
			}
			var r Result
			return s.Solve(ctx, nil, &Start{X: []float64{nan, 0, 0, 0}}, &r)
		},
		"SKL bad start AS": func() error {
			s, err := NewSKL(vl, y, 2)
			if err != nil {
				return nil
			}
			var r Result
			return s.Solve(ctx, NewActiveSet(nil), &Start{X: []float64{1}}, &r)
		},
		"SKL SetData d": func() error {
			s, err := NewSKL(vl, y, 2)
			if err != nil {
				return nil
			}
			return s.SetData(vl.Slice(0, 8, 0, 3).(*mat.Dense), y)
		},
		"SKL SetData typed nil": func() error {
			s, err := NewSKL(vl, y, 2)
			if err != nil {
				return nil
			}
			return s.SetData(nilDense, y)
		},
	} {
		if err := robust.Call(t, "SKL/"+name, f); err == nil {
			t.Errorf("SKL/%s: no error", name)
		}
	}
	robust.Call(t, "SKL/zero accessors", func() error {
		var s SKL
		s.Alignment(nil)
		s.A()
		s.H()
		s.D()
		s.Decay()
		s.Problem()
		return nil
	})
	_ = rand.New
}

// TestSKLFailedSetDecayKeepsInstance: a SetDecay (or SetData) that fails leaves the
// instance as it was, so the next Solve gives the answer of a fresh instance.
func TestSKLFailedSetDecayKeepsInstance(t *testing.T) {
	ctx := context.Background()
	vl, y, _ := synthSKL(3, 40, 12, 8)
	s, err := NewSKL(vl, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	var want Result
	if err := s.Solve(ctx, nil, nil, &want); err != nil || want.Status != linalg.Optimal {
		t.Fatal(err, want.Status)
	}
	if err := s.SetDecay(1e200); err == nil {
		t.Fatal("SetDecay(1e200): no error")
	}
	if got := s.Decay(); got != 2 {
		t.Errorf("Decay() = %v after a failed SetDecay, want 2", got)
	}
	big := mat.DenseCopyOf(vl)
	big.Scale(1e160, big) // H entries overflow
	if err := s.SetData(big, y); err == nil {
		t.Fatal("SetData with overflowing entries: no error")
	}
	for _, sv := range []Solver{nil, NewActiveSet(nil)} {
		var got Result
		if err := s.Solve(ctx, sv, nil, &got); err != nil || got.Status != linalg.Optimal {
			t.Fatalf("%T: %v %v", sv, err, got.Status)
		}
		for i := range want.X {
			if math.Abs(got.X[i]-want.X[i]) > 1e-8*(1+math.Abs(want.X[i])) {
				t.Fatalf("%T: after failed SetDecay/SetData mu = %v, want %v", sv, got.X, want.X)
			}
		}
	}
}

// TestSolverReuseAcrossSizes: a solver used on n = 50, then 10, then 50 gives
// the answers of fresh solvers (workspaces resized, nothing stale).
func TestSolverReuseAcrossSizes(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(11, 12))
	mk := func(n int) *Problem { return randProblem(rng, n, 2, n/3, n) }
	ps := []*Problem{mk(50), mk(10), mk(50), mk(3), mk(30)}
	mkBounded := func(n int) *Problem {
		p := mk(n)
		p.Ain, p.Bin = nil, nil
		return p
	}
	bs := []*Problem{mkBounded(50), mkBounded(10), mkBounded(50)}
	type fresh func() Solver
	for name, f := range map[string]fresh{
		"activeset": func() Solver { return NewActiveSet(nil) },
		"primal":    func() Solver { return &ActiveSet{NoDualCrash: true} },
		"goldfarb":  func() Solver { return NewGoldfarbIdnani(nil) },
		"admm":      func() Solver { return NewADMM(nil) },
		"bounded":   func() Solver { return NewBounded(nil) },
	} {
		list := ps
		if name == "bounded" {
			list = bs
		}
		reused := f()
		var res Result // reused too
		for k, p := range list {
			var want Result
			if err := f().Solve(ctx, p, nil, &want); err != nil {
				t.Fatalf("%s/%d fresh: %v", name, k, err)
			}
			if err := reused.Solve(ctx, p, nil, &res); err != nil {
				t.Fatalf("%s/%d reused: %v", name, k, err)
			}
			if res.Status != want.Status || len(res.X) != len(p.G) || len(res.Lower) != len(p.G) || len(res.Eq) != len(p.Beq) {
				t.Fatalf("%s/%d: reused status %v len %d, fresh %v len %d", name, k, res.Status, len(res.X), want.Status, len(want.X))
			}
			if want.Status != linalg.Optimal {
				continue
			}
			if math.Abs(res.Obj-want.Obj) > 1e-6*(1+math.Abs(want.Obj)) {
				t.Errorf("%s/%d: reused obj %v, fresh %v", name, k, res.Obj, want.Obj)
			}
			if kkt, err := Residuals(p, res.X, res.Eq, res.Ineq, res.Lower, res.Upper); err != nil || kkt.Max() > 1e-6 {
				t.Errorf("%s/%d: reused KKT %+v %v", name, k, kkt, err)
			}
		}
	}
	// SKL: SetData with a different number of labeled rows, then back.
	vlA, yA, _ := synthSKL(5, 60, 30, 10)
	vlB, yB, _ := synthSKL(6, 60, 7, 10)
	s, err := NewSKL(vlA, yA, 2)
	if err != nil {
		t.Fatal(err)
	}
	var res Result
	for k, d := range []struct{ vl, y *mat.Dense }{{vlA, yA}, {vlB, yB}, {vlA, yA}} {
		if err := s.SetData(d.vl, d.y); err != nil {
			t.Fatal(err)
		}
		if err := s.Solve(ctx, nil, &Start{X: res.X}, &res); err != nil || res.Status != linalg.Optimal {
			t.Fatal(err, res.Status)
		}
		f, _ := NewSKL(d.vl, d.y, 2)
		var want Result
		if err := f.Solve(ctx, nil, nil, &want); err != nil {
			t.Fatal(err)
		}
		for i := range want.X {
			if math.Abs(res.X[i]-want.X[i]) > 1e-7*(1+math.Abs(want.X[i])) {
				t.Fatalf("SKL step %d: reused mu = %v, fresh %v", k, res.X, want.X)
			}
		}
	}
}

// TestWarmStartAliasesResult: the usual warm start Start{X: res.X, Working:
// res.Working} with the same res as output gives the answer of a start
// copied out of res.
func TestWarmStartAliasesResult(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(21, 22))
	for _, name := range []string{"activeset", "admm", "bounded"} {
		mkSolver := func() Solver {
			switch name {
			case "admm":
				return NewADMM(nil)
			case "bounded":
				return NewBounded(nil)
			}
			return NewActiveSet(nil)
		}
		for trial := 0; trial < 5; trial++ {
			p := randProblem(rng, 12, 2, 4, 12)
			if name == "bounded" {
				p.Ain, p.Bin = nil, nil
			}
			q := *p
			q.G = append([]float64(nil), p.G...)
			for i := range q.G {
				q.G[i] += 0.3 * rng.NormFloat64()
			}
			s1, s2 := mkSolver(), mkSolver()
			var r1, r2 Result
			if err := s1.Solve(ctx, p, nil, &r1); err != nil || r1.Status != linalg.Optimal {
				t.Fatal(name, err, r1.Status)
			}
			if err := s2.Solve(ctx, p, nil, &r2); err != nil {
				t.Fatal(err)
			}
			copied := &Start{X: append([]float64(nil), r1.X...), Working: append([]int(nil), r1.Working...)}
			if err := s1.Solve(ctx, &q, copied, &r1); err != nil {
				t.Fatal(err)
			}
			if err := s2.Solve(ctx, &q, &Start{X: r2.X, Working: r2.Working}, &r2); err != nil {
				t.Fatal(err)
			}
			if r1.Status != r2.Status || math.Abs(r1.Obj-r2.Obj) > 1e-8*(1+math.Abs(r1.Obj)) {
				t.Errorf("%s/%d: aliased start: %v obj %v, copied start: %v obj %v", name, trial, r2.Status, r2.Obj, r1.Status, r1.Obj)
			}
		}
	}
	// SKL with the previous μ as start, aliased with the result
	vl, y, _ := synthSKL(8, 50, 20, 12)
	for _, sv := range []Solver{nil, NewActiveSet(nil)} {
		s, _ := NewSKL(vl, y, 1.5)
		var r1, r2 Result
		if err := s.Solve(ctx, sv, nil, &r1); err != nil {
			t.Fatal(err)
		}
		r2.X = append(r2.X, r1.X...)
		if err := s.SetDecay(2.5); err != nil {
			t.Fatal(err)
		}
		if err := s.Solve(ctx, sv, &Start{X: append([]float64(nil), r1.X...)}, &r1); err != nil {
			t.Fatal(err)
		}
		if err := s.Solve(ctx, sv, &Start{X: r2.X}, &r2); err != nil {
			t.Fatal(err)
		}
		for i := range r1.X {
			if math.Abs(r1.X[i]-r2.X[i]) > 1e-9*(1+math.Abs(r1.X[i])) {
				t.Fatalf("SKL %T: aliased start mu = %v, copied %v", sv, r2.X, r1.X)
			}
		}
	}
}
