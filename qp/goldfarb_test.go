package qp

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// TestGoldfarbIdnaniVsActiveSet compares the dual method with the primal one on
// medium strictly convex problems with equalities, more inequalities than
// variables and boxes.
func TestGoldfarbIdnaniVsActiveSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	gi, as := NewGoldfarbIdnani(nil), NewActiveSet(nil)
	for trial := 0; trial < 12; trial++ {
		n := 10 + 10*(trial%6)
		p := randProblem(rng, n, trial%5, 2*n, n)
		var gr, ar Result
		if err := gi.Solve(context.Background(), p, nil, &gr); err != nil {
			t.Fatal(err)
		}
		if err := as.Solve(context.Background(), p, nil, &ar); err != nil {
			t.Fatal(err)
		}
		if gr.Status != linalg.Optimal || gr.KKT.Max() > kktTol {
			t.Errorf("trial %d (n=%d): %v KKT %+v", trial, n, gr.Status, gr.KKT)
			continue
		}
		// both KKT-accurate optima of one strictly convex problem: 1e-9 relative
		if math.Abs(gr.Obj-ar.Obj) > 1e-9*(1+math.Abs(ar.Obj)) {
			t.Errorf("trial %d (n=%d): obj %v, activeset %v", trial, n, gr.Obj, ar.Obj)
		}
		for i := range gr.X {
			// strict convexity makes x unique; 1e-6 allows for κ(H)·ε
			if math.Abs(gr.X[i]-ar.X[i]) > 1e-6*(1+math.Abs(ar.X[i])) {
				t.Errorf("trial %d: x[%d] = %v, activeset %v", trial, i, gr.X[i], ar.X[i])
				break
			}
		}
	}
}

func TestGoldfarbIdnaniInfeasible(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	// a random definite problem with the contradiction aᵀx >= 1, aᵀx <= 0 added
	contra := randProblem(rng, 10, 2, 8, 10)
	{
		r, _ := contra.Ain.Dims()
		ain := mat.NewDense(r+2, 10, nil)
		ain.Slice(0, r, 0, 10).(*mat.Dense).Copy(contra.Ain)
		for j := 0; j < 10; j++ {
			v := rng.NormFloat64()
			ain.Set(r, j, v)
			ain.Set(r+1, j, -v)
		}
		contra.Ain = ain
		contra.Bin = append(contra.Bin, 1, 0)
	}
	id2 := mat.NewSymDense(2, []float64{1, 0, 0, 1})
	cases := []struct {
		name string
		p    *Problem
	}{
		{"random-contradiction", contra},
		{"equality-vs-box", &Problem{H: id2, G: []float64{1, 1},
			Aeq: mat.NewDense(1, 2, []float64{1, 1}), Beq: []float64{5}, Lower: []float64{0, 0}, Upper: []float64{1, 1}}},
		// x1 >= 1, x2 >= 1, x1 + x2 <= 1.5: each pair is feasible, all three not
		{"triangle", &Problem{H: id2, G: []float64{0, 0},
			Ain: mat.NewDense(3, 2, []float64{1, 0, 0, 1, -1, -1}), Bin: []float64{1, 1, -1.5}}},
		{"inconsistent-equalities", &Problem{H: mat.NewSymDense(3, []float64{2, 1, 0, 1, 2, 1, 0, 1, 2}), G: []float64{1, 0, 0},
			Aeq: mat.NewDense(3, 3, []float64{1, 1, 0, 0, 1, 1, 1, 2, 1}), Beq: []float64{1, 1, 3}}},
	}
	for _, tc := range cases {
		var res Result
		if err := NewGoldfarbIdnani(nil).Solve(context.Background(), tc.p, nil, &res); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Status != linalg.Infeasible {
			t.Errorf("%s: status %v, want Infeasible", tc.name, res.Status)
		}
		for _, v := range res.X {
			if !math.IsNaN(v) {
				t.Errorf("%s: X = %v, want NaN", tc.name, res.X)
				break
			}
		}
	}
}

func TestGoldfarbIdnaniNotDefinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	semi := randProblem(rng, 8, 1, 4, 5) // rank 5 < 8
	cases := []struct {
		name string
		p    *Problem
	}{
		{"semidefinite", semi},
		{"nil-H", &Problem{G: []float64{1, 2}, Lower: []float64{0, 0}}},
		{"zero-H", &Problem{H: mat.NewSymDense(2, nil), G: []float64{1, 2}, Lower: []float64{0, 0}}},
		{"indefinite", &Problem{H: mat.NewSymDense(2, []float64{1, 2, 2, 1}), G: []float64{1, 2}}},
	}
	for _, tc := range cases {
		var res Result
		err := NewGoldfarbIdnani(nil).Solve(context.Background(), tc.p, nil, &res)
		if !errors.Is(err, linalg.ErrNotPSD) {
			t.Errorf("%s: err = %v, want ErrNotPSD", tc.name, err)
		}
	}
}

func TestGoldfarbIdnaniNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	checkNoAllocs(t, NewGoldfarbIdnani(nil), randProblem(rng, 20, 2, 15, 20), 10)
}
