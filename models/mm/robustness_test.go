package mm

import (
	"context"
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/robust"
	"ukm/models/spectral"
)

// TestNoPanicOnBadInput: every exported entry point returns an error
// wrapping one of the package's sentinels for bad input, never a panic.
func TestNoPanicOnBadInput(t *testing.T) {
	ctx := context.Background()
	b := randomBasis(12, 3, 1)
	idx := []int{0, 1, 2, 3}
	y := []float64{1, -1, 1, -1}
	good, err := Learn(ctx, b, idx, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	tgt := mat.NewDense(4, 1, []float64{1, -1, 1, -1})
	nanTgt := mat.NewDense(4, 1, []float64{1, math.NaN(), 1, -1})
	infTgt := mat.NewDense(4, 1, []float64{1, math.Inf(-1), 1, -1})
	zeroTgt := mat.NewDense(4, 1, []float64{1, 0, 1, -1})
	var nilLearner *Learner
	var nilDesign *Design
	var nilCtx context.Context
	emptyV := &spectral.Basis{V: &mat.Dense{}}
	cases := []robust.Case{
		{Name: "Learn nil ctx", F: func() error { _, err := Learn(nilCtx, b, idx, y, nil); return err }},
		{Name: "Learn nil basis", F: func() error { _, err := Learn(ctx, nil, idx, y, nil); return err }},
		{Name: "Learn empty V", F: func() error { _, err := Learn(ctx, emptyV, idx, y, nil); return err }},
		{Name: "Learn nil labels", F: func() error { _, err := Learn(ctx, b, idx, nil, nil); return err }},
		{Name: "LearnSum no problems", F: func() error { _, err := LearnSum(ctx, b, idx, nil, nil); return err }},
		{Name: "LearnSum nil problem", F: func() error { _, err := LearnSum(ctx, b, idx, [][]float64{y, nil}, nil); return err }},
		{Name: "LearnSum Inf label", F: func() error {
			_, err := LearnSum(ctx, b, idx, [][]float64{y, {1, math.Inf(1), 1, -1}}, nil)
			return err
		}},
		{Name: "nil Learner", F: func() error { return nilLearner.Learn(ctx, &Result{}, b, idx, y) }},
		{Name: "nil Result", F: func() error { var lr Learner; return lr.Learn(ctx, nil, b, idx, y) }},
		{Name: "Learner nil ctx", F: func() error { var lr Learner; return lr.Learn(nilCtx, &Result{}, b, idx, y) }},
		{Name: "InnerTol NaN", F: func() error { _, err := Learn(ctx, b, idx, y, &Settings{InnerTol: math.NaN()}); return err }},
		{Name: "InnerMaxIter<0", F: func() error { _, err := Learn(ctx, b, idx, y, &Settings{InnerMaxIter: -1}); return err }},
		{Name: "Objective nil ctx", F: func() error { _, _, err := Objective(nilCtx, b, idx, y, []float64{1, 1, 1}, nil, nil); return err }},
		{Name: "Objective NaN mu", F: func() error {
			_, _, err := Objective(ctx, b, idx, y, []float64{1, math.NaN(), 1}, nil, nil)
			return err
		}},
		{Name: "Objective Inf mu", F: func() error {
			_, _, err := Objective(ctx, b, idx, y, []float64{1, math.Inf(1), 1}, nil, nil)
			return err
		}},
		{Name: "Objective nil basis", F: func() error { _, _, err := Objective(ctx, nil, idx, y, []float64{1, 1, 1}, nil, nil); return err }},
		{Name: "Decision empty result", F: func() error { _, err := (&Result{}).Decision(nil, b); return err }},
		{Name: "Decision nil basis", F: func() error { _, err := good.Decision(nil, nil); return err }},
		{Name: "Decision inconsistent result", F: func() error {
			r := *good
			r.Problems = 2
			_, err := r.Decision(nil, b)
			return err
		}},
		{Name: "Design nil", F: func() error { _, err := nilDesign.Coefficients(ctx, nil, b, idx, tgt); return err }},
		{Name: "Design nil target", F: func() error { _, err := NewDesign(Settings{}).Coefficients(ctx, nil, b, idx, nil); return err }},
		{Name: "Design empty target", F: func() error {
			_, err := NewDesign(Settings{}).Coefficients(ctx, nil, b, idx, &mat.Dense{})
			return err
		}},
		{Name: "Design NaN target", F: func() error { _, err := NewDesign(Settings{}).Coefficients(ctx, nil, b, idx, nanTgt); return err }},
		{Name: "Design Inf target", F: func() error { _, err := NewDesign(Settings{}).Coefficients(ctx, nil, b, idx, infTgt); return err }},
		{Name: "Design zero target", F: func() error { _, err := NewDesign(Settings{}).Coefficients(ctx, nil, b, idx, zeroTgt); return err }},
		{Name: "Design nil basis", F: func() error { _, err := NewDesign(Settings{}).Coefficients(ctx, nil, nil, idx, tgt); return err }},
		{Name: "Design bad W", F: func() error { _, err := NewDesign(Settings{W: 0.9}).Coefficients(ctx, nil, b, idx, tgt); return err }},
		{Name: "OneVsAll 1 class", F: func() error { _, err := OneVsAll([]int{0, 0}, 1); return err }},
		{Name: "OneVsAll missing class", F: func() error { _, err := OneVsAll([]int{0, 0, 2}, 3); return err }},
		{Name: "OneVsAll label range", F: func() error { _, err := OneVsAll([]int{0, 1, 3}, 3); return err }},
		{Name: "OneVsAll too many classes", F: func() error { _, err := OneVsAll([]int{0, 1}, 1<<40); return err }},
	}
	robust.ExpectErrors(t, cases, ErrInput)
}

// TestConcurrent: separate Learners on separate goroutines give identical
// results (no shared mutable state); run with -race to check.
func TestConcurrent(t *testing.T) {
	b := randomBasis(40, 8, 9)
	idx, y := problem(b, 14, 10)
	want, err := Learn(context.Background(), b, idx, y, &Settings{W: 1.1})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]*Result, 4)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g], _ = Learn(context.Background(), b, idx, y, &Settings{W: 1.1})
		}()
	}
	wg.Wait()
	for g, r := range got {
		if r == nil || r.Objective != want.Objective || r.Iterations != want.Iterations {
			t.Errorf("goroutine %d: %+v, want objective %v after %d iterations", g, r, want.Objective, want.Iterations)
		}
	}
}
