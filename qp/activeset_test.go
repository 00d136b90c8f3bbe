package qp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// kktTol is the relative KKT threshold every optimal solve must meet.
const kktTol = 1e-9

// testSolver is an entry of the conformance table. strict solvers need a
// positive definite H and must reject any other with ErrNotConvex.
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
// definite: it must refuse with ErrNotConvex or, when H is definite only to
// rounding, not claim Optimal with bad residuals. It reports whether the
// caller should skip its usual checks.
func skipStrict(t *testing.T, sv testSolver, p *Problem, label string) bool {
	t.Helper()
	if !sv.strict || positiveDefinite(p) {
		return false
	}
	var res Result
	err := sv.s.Solve(context.Background(), p, nil, &res)
	if err == nil && res.Status == Optimal && res.KKT.Max() > kktTol {
		t.Errorf("%s %s: semidefinite H, Optimal with KKT %+v", label, sv.name, res.KKT)
	}
	if err != nil && !errors.Is(err, ErrNotConvex) {
		t.Errorf("%s %s: semidefinite H, err %v, want ErrNotConvex", label, sv.name, err)
	}
	return true
}

func TestNocedalWright16_4(t *testing.T) {
	// N&W example 16.4: min (x1-1)² + (x2-2.5)², optimum (1.4, 1.7).
	p := &Problem{
		H:     mat.NewSymDense(2, []float64{2, 0, 0, 2}),
		C:     []float64{-2, -5},
		Ain:   mat.NewDense(3, 2, []float64{1, -2, -1, -2, -1, 2}),
		Bin:   []float64{-2, -6, -2},
		Lower: []float64{0, 0},
	}
	for _, sv := range solvers() {
		var res Result
		if err := sv.s.Solve(context.Background(), p, nil, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status != Optimal || math.Abs(res.X[0]-1.4) > 1e-12 || math.Abs(res.X[1]-1.7) > 1e-12 {
			t.Errorf("%s: status %v x %v, want Optimal (1.4, 1.7)", sv.name, res.Status, res.X)
		}
		if res.KKT.Max() > kktTol {
			t.Errorf("%s: KKT %+v", sv.name, res.KKT)
		}
	}
}

func TestRandomBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 60; trial++ {
		n := 2 + trial%5
		meq := trial % 2
		min := 1 + trial%4
		p := randProblem(rng, n, meq, min, n)
		want, wobj, ok := bruteForce(p)
		if !ok {
			t.Fatalf("trial %d: brute force found nothing", trial)
		}
		for _, sv := range solvers() {
			var res Result
			if err := sv.s.Solve(context.Background(), p, nil, &res); err != nil {
				t.Fatal(err)
			}
			if res.Status != Optimal {
				t.Errorf("trial %d %s: status %v", trial, sv.name, res.Status)
				continue
			}
			// objectives agree to 1e-9 relative (both are KKT-accurate optima)
			if math.Abs(res.Obj-wobj) > 1e-9*(1+math.Abs(wobj)) {
				t.Errorf("trial %d %s: obj %v, brute force %v (x %v vs %v)", trial, sv.name, res.Obj, wobj, res.X, want)
			}
			if res.KKT.Max() > kktTol {
				t.Errorf("trial %d %s: KKT %+v", trial, sv.name, res.KKT)
			}
		}
	}
}

func TestRandomSemidefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 60; trial++ {
		n := 3 + trial%12
		rank := trial % n // rank 0 is a linear program
		p := randProblem(rng, n, trial%3, 2+trial%5, rank)
		// make sure the problem is bounded: box every variable
		for j := range p.Lower {
			if math.IsInf(p.Lower[j], 0) {
				p.Lower[j], p.Upper[j] = -5, 5
			}
		}
		for _, sv := range solvers() {
			if rank == 0 && sv.name == "admm" {
				continue // linear programs: ADMM converges too slowly to be useful
			}
			if skipStrict(t, sv, p, fmt.Sprintf("trial %d", trial)) {
				continue
			}
			var res Result
			if err := sv.s.Solve(context.Background(), p, nil, &res); err != nil {
				t.Fatal(err)
			}
			if res.Status != Optimal || res.KKT.Max() > kktTol {
				t.Errorf("trial %d %s (n=%d rank=%d): status %v KKT %+v", trial, sv.name, n, rank, res.Status, res.KKT)
			}
		}
	}
}

func TestStatusCases(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name  string
		p     *Problem
		want  Status
		wantX []float64 // checked when non-nil
	}{
		{"lp-unbounded", &Problem{C: []float64{-1, 0}, Lower: []float64{0, 0}, Upper: []float64{inf, 1}}, Unbounded, nil},
		{"psd-unbounded", &Problem{H: mat.NewSymDense(2, []float64{1, 0, 0, 0}), C: []float64{0, -1}}, Unbounded, nil},
		{"psd-bounded-by-ineq", &Problem{H: mat.NewSymDense(2, []float64{1, 0, 0, 0}), C: []float64{1, -1},
			Ain: mat.NewDense(1, 2, []float64{-1, -1}), Bin: []float64{-3}}, Optimal, []float64{-2, 5}},
		{"box-infeasible", &Problem{H: mat.NewSymDense(2, []float64{1, 0, 0, 1}), C: []float64{0, 0},
			Ain: mat.NewDense(1, 2, []float64{1, 1}), Bin: []float64{3}, Lower: []float64{-1, -1}, Upper: []float64{1, 1}}, Infeasible, nil},
		{"eq-inconsistent", &Problem{H: mat.NewSymDense(2, []float64{1, 0, 0, 1}), C: []float64{0, 0},
			Aeq: mat.NewDense(2, 2, []float64{1, 1, 1, 1}), Beq: []float64{1, 2}}, Infeasible, nil},
		{"eq-redundant", &Problem{H: mat.NewSymDense(2, []float64{1, 0, 0, 1}), C: []float64{0, 0},
			Aeq: mat.NewDense(3, 2, []float64{1, 1, 2, 2, 1, -1}), Beq: []float64{1, 2, 0}}, Optimal, []float64{0.5, 0.5}},
		// five constraints through the optimum (0,0): a degenerate vertex
		{"degenerate-vertex", &Problem{H: mat.NewSymDense(2, []float64{2, 0, 0, 2}), C: []float64{2, 2},
			Ain: mat.NewDense(3, 2, []float64{1, 1, 1, 2, 2, 1}), Bin: []float64{0, 0, 0}, Lower: []float64{0, 0}}, Optimal, []float64{0, 0}},
		// LP with a degenerate optimal vertex
		{"lp-degenerate", &Problem{C: []float64{-1, -1},
			Ain: mat.NewDense(3, 2, []float64{-1, 0, 0, -1, -1, -1}), Bin: []float64{-1, -1, -2}}, Optimal, []float64{1, 1}},
		{"n1-bound", &Problem{H: mat.NewSymDense(1, []float64{1}), C: []float64{-5}, Upper: []float64{2}}, Optimal, []float64{2}},
	}
	for _, tc := range cases {
		for _, sv := range solvers() {
			if skipStrict(t, sv, tc.p, tc.name) {
				continue
			}
			var res Result
			err := sv.s.Solve(context.Background(), tc.p, nil, &res)
			if err != nil {
				t.Errorf("%s/%s: %v", tc.name, sv.name, err)
				continue
			}
			if res.Status != tc.want {
				t.Errorf("%s/%s: status %v, want %v (x=%v)", tc.name, sv.name, res.Status, tc.want, res.X)
				continue
			}
			switch res.Status {
			case Optimal:
				if res.KKT.Max() > kktTol {
					t.Errorf("%s/%s: KKT %+v", tc.name, sv.name, res.KKT)
				}
				for i, w := range tc.wantX {
					if math.Abs(res.X[i]-w) > 1e-9 {
						t.Errorf("%s/%s: x = %v, want %v", tc.name, sv.name, res.X, tc.wantX)
						break
					}
				}
			case Infeasible:
				for _, v := range res.X {
					if !math.IsNaN(v) {
						t.Errorf("%s/%s: infeasible but X = %v", tc.name, sv.name, res.X)
						break
					}
				}
			case Unbounded:
				// the ray must be a feasible descent direction of zero curvature
				if len(res.Ray) != len(res.X) || dot(res.Ray, tc.p.C) >= 0 {
					t.Errorf("%s/%s: bad ray %v", tc.name, sv.name, res.Ray)
				}
			}
		}
	}
}

func TestInputErrors(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name string
		p    *Problem
		conv bool // wants ErrNotConvex rather than ErrInvalid
	}{
		{"nil", nil, false},
		{"empty", &Problem{}, false},
		{"nan-c", &Problem{C: []float64{nan}}, false},
		{"h-shape", &Problem{H: mat.NewSymDense(2, nil), C: []float64{1}}, false},
		{"aeq-cols", &Problem{C: []float64{1, 2}, Aeq: mat.NewDense(1, 3, nil), Beq: []float64{0}}, false},
		{"bin-len", &Problem{C: []float64{1, 2}, Ain: mat.NewDense(1, 2, nil), Bin: []float64{0, 1}}, false},
		{"lower-inf", &Problem{C: []float64{1}, Lower: []float64{math.Inf(1)}}, false},
		{"h-nan", &Problem{H: mat.NewSymDense(1, []float64{nan}), C: []float64{1}}, false},
		{"indefinite", &Problem{H: mat.NewSymDense(2, []float64{1, 0, 0, -1e-3}), C: []float64{1, 1}}, true},
	}
	for _, tc := range cases {
		for _, sv := range solvers() {
			var res Result
			err := sv.s.Solve(context.Background(), tc.p, nil, &res)
			want := ErrInvalid
			if tc.conv {
				want = ErrNotConvex
			}
			if !errors.Is(err, want) {
				t.Errorf("%s/%s: err = %v, want %v", tc.name, sv.name, err, want)
			}
		}
	}
}

func TestHotStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 10; trial++ {
		p := randProblem(rng, 30, 3, 40, 30)
		s := NewActiveSet(nil)
		var cold Result
		if err := s.Solve(context.Background(), p, nil, &cold); err != nil || cold.Status != Optimal {
			t.Fatal(err, cold.Status)
		}
		// perturb the linear term slightly and re-solve cold and hot
		for i := range p.C {
			p.C[i] += 1e-3 * rng.NormFloat64()
		}
		var ref, hot Result
		if err := s.Solve(context.Background(), p, nil, &ref); err != nil {
			t.Fatal(err)
		}
		st := &Start{X: cold.X, Working: cold.Working}
		if err := s.Solve(context.Background(), p, st, &hot); err != nil {
			t.Fatal(err)
		}
		if hot.Status != Optimal || hot.KKT.Max() > kktTol {
			t.Fatalf("hot: %v %+v", hot.Status, hot.KKT)
		}
		if hot.Iter >= ref.Iter {
			t.Errorf("trial %d: hot start took %d iterations, cold %d", trial, hot.Iter, ref.Iter)
		}
		if math.Abs(hot.Obj-ref.Obj) > 1e-10*(1+math.Abs(ref.Obj)) {
			t.Errorf("trial %d: hot obj %v, cold %v", trial, hot.Obj, ref.Obj)
		}
	}
}

func TestActiveSetNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	checkNoAllocs(t, NewActiveSet(nil), randProblem(rng, 20, 2, 15, 20), 10)
}

func TestCancel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	p := randProblem(rng, 10, 1, 10, 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, sv := range solvers() {
		var res Result
		if err := sv.s.Solve(ctx, p, nil, &res); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", sv.name, err)
		}
	}
}

// TestLargerRandom runs medium-size problems (n up to 60, more constraints than
// variables, singular H) through every solver against the KKT oracle and
// checks that the objectives agree.
func TestLargerRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := 0; trial < 12; trial++ {
		n := 20 + 10*(trial%5)
		rank := n
		if trial%2 == 1 {
			rank = n / 3
		}
		p := randProblem(rng, n, trial%4, n+n/2, rank)
		for j := range p.Lower {
			if math.IsInf(p.Lower[j], 0) {
				p.Lower[j], p.Upper[j] = -10, 10
			}
		}
		var ref Result
		for i, sv := range solvers() {
			if skipStrict(t, sv, p, fmt.Sprintf("trial %d", trial)) {
				continue
			}
			var res Result
			if err := sv.s.Solve(context.Background(), p, nil, &res); err != nil {
				t.Fatal(err)
			}
			if res.Status != Optimal || res.KKT.Max() > kktTol {
				t.Errorf("trial %d %s (n=%d rank=%d): %v KKT %+v", trial, sv.name, n, rank, res.Status, res.KKT)
				continue
			}
			if i == 0 {
				ref = res
			} else if math.Abs(res.Obj-ref.Obj) > 1e-8*(1+math.Abs(ref.Obj)) {
				t.Errorf("trial %d %s: obj %v, activeset %v", trial, sv.name, res.Obj, ref.Obj)
			}
		}
	}
}

func TestADMMNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	checkNoAllocs(t, NewADMM(nil), randProblem(rng, 15, 2, 10, 15), 5)
}
