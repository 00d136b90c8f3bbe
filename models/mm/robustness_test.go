package mm

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/kerneltest"
	"ukm/models/spectral"
)

// TestBadInput gives Learn, LearnSum, Objective, the Learner, the Result
// and the Design one bad argument at a time (kerneltest.CheckErrors checks
// the kind); Learn must return no result on an input error.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	b := randomBasis(20, 4, 1)
	idx := []int{0, 1, 2, 3}
	y := []float64{1, -1, 1, -1}
	good, err := Learn(ctx, b, idx, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	nanB := randomBasis(20, 4, 1)
	nanB.V.Set(3, 2, math.NaN())
	zeroCol := randomBasis(20, 4, 1)
	for r := 0; r < 20; r++ {
		zeroCol.V.Set(r, 1, 0)
	}
	badVals := &spectral.Basis{Values: []float64{1}, V: b.V}
	nanVals := &spectral.Basis{Values: []float64{1, math.NaN(), 1, 1}, V: b.V}
	tgt := mat.NewDense(4, 1, []float64{1, -1, 1, -1})
	nanTgt := mat.NewDense(4, 1, []float64{1, math.NaN(), 1, -1})
	infTgt := mat.NewDense(4, 1, []float64{1, math.Inf(-1), 1, -1})
	zeroTgt := mat.NewDense(4, 1, []float64{1, 0, 1, -1})
	var nilLearner *Learner
	var nilDesign *Design
	var nilCtx context.Context
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	mu := []float64{1, 1, 1, 1}
	learn := func(b *spectral.Basis, idx []int, y []float64, s *Settings) func() error {
		return func() error {
			res, err := Learn(ctx, b, idx, y, s)
			if res != nil && err != nil && errors.Is(err, linalg.ErrInvalid) {
				t.Errorf("result %+v on input error %v", res, err)
			}
			return err
		}
	}
	objective := func(b *spectral.Basis, y, mu []float64) func() error {
		return func() error { _, _, err := Objective(ctx, b, idx, y, mu, nil, nil); return err }
	}
	design := func(s Settings, b *spectral.Basis, tgt *mat.Dense) func() error {
		return func() error { _, err := NewDesign(s).Coefficients(ctx, nil, b, idx, tgt); return err }
	}
	kerneltest.CheckErrors(t, "mm.", []kerneltest.Case{
		{"Learn/Decay<1", learn(b, idx, y, &Settings{Decay: 0.5}), linalg.ErrSettings},
		{"Learn/Decay NaN", learn(b, idx, y, &Settings{Decay: math.NaN()}), linalg.ErrSettings},
		{"Learn/Trace<0", learn(b, idx, y, &Settings{Trace: -1}), linalg.ErrSettings},
		{"Learn/Trace Inf", learn(b, idx, y, &Settings{Trace: math.Inf(1)}), linalg.ErrSettings},
		{"Learn/C<0", learn(b, idx, y, &Settings{C: -1}), linalg.ErrSettings},
		{"Learn/C NaN", learn(b, idx, y, &Settings{C: math.NaN()}), linalg.ErrSettings},
		{"Learn/Tol<0", learn(b, idx, y, &Settings{Tol: -1}), linalg.ErrSettings},
		{"Learn/MaxIter<0", learn(b, idx, y, &Settings{MaxIter: -1}), linalg.ErrSettings},
		{"Learn/InnerTol NaN", learn(b, idx, y, &Settings{InnerTol: math.NaN()}), linalg.ErrSettings},
		{"Learn/InnerMaxIter<0", learn(b, idx, y, &Settings{InnerMaxIter: -1}), linalg.ErrSettings},
		{"Learn/label 0", learn(b, idx, []float64{1, 0, 1, -1}, nil), linalg.ErrLabels},
		{"Learn/label NaN", learn(b, idx, []float64{1, math.NaN(), 1, -1}, nil), linalg.ErrLabels},
		{"Learn/one class", learn(b, idx, []float64{1, 1, 1, 1}, nil), linalg.ErrLabels},
		{"Learn/label count", learn(b, idx, []float64{1, -1}, nil), linalg.ErrShape},
		{"Learn/nil labels", learn(b, idx, nil, nil), linalg.ErrShape},
		{"Learn/index range", learn(b, []int{0, 1, 20, 3}, y, nil), linalg.ErrLabels},
		{"Learn/index negative", learn(b, []int{0, -1, 2, 3}, y, nil), linalg.ErrLabels},
		{"Learn/index repeated", learn(b, []int{0, 1, 1, 3}, y, nil), linalg.ErrLabels},
		{"Learn/no labeled", learn(b, nil, nil, nil), linalg.ErrLabels},
		{"Learn/nil basis", learn(nil, idx, y, nil), linalg.ErrEmpty},
		{"Learn/empty basis", learn(&spectral.Basis{}, idx, y, nil), linalg.ErrEmpty},
		{"Learn/empty V", learn(&spectral.Basis{V: &mat.Dense{}}, idx, y, nil), linalg.ErrEmpty},
		{"Learn/NaN basis", learn(nanB, idx, y, nil), linalg.ErrNonFinite},
		{"Learn/NaN value", learn(nanVals, idx, y, nil), linalg.ErrNonFinite},
		{"Learn/zero column", learn(zeroCol, idx, y, nil), linalg.ErrDegenerate},
		{"Learn/values count", learn(badVals, idx, y, nil), linalg.ErrShape},
		{"Learn/nil ctx", func() error { _, err := Learn(nilCtx, b, idx, y, nil); return err }, linalg.ErrSettings},
		{"Learn/cancelled", func() error { _, err := Learn(cancelled, b, idx, y, nil); return err }, context.Canceled},
		{"LearnSum/no problems", func() error { _, err := LearnSum(ctx, b, idx, nil, nil); return err }, linalg.ErrEmpty},
		{"LearnSum/nil problem", func() error { _, err := LearnSum(ctx, b, idx, [][]float64{y, nil}, nil); return err }, linalg.ErrShape},
		{"LearnSum/Inf label", func() error {
			_, err := LearnSum(ctx, b, idx, [][]float64{y, {1, math.Inf(1), 1, -1}}, nil)
			return err
		}, linalg.ErrLabels},
		{"Learner.Learn/nil Learner", func() error { return nilLearner.Learn(ctx, &Result{}, b, idx, y) }, linalg.ErrSettings},
		{"Learner.Learn/nil Result", func() error { var lr Learner; return lr.Learn(ctx, nil, b, idx, y) }, linalg.ErrEmpty},
		{"Learner.Learn/nil ctx", func() error { var lr Learner; return lr.Learn(nilCtx, &Result{}, b, idx, y) }, linalg.ErrSettings},
		{"Learner.LearnSum/bad settings", func() error {
			lr := Learner{Settings: Settings{Tol: math.Inf(1)}}
			return lr.LearnSum(ctx, &Result{}, b, idx, [][]float64{y})
		}, linalg.ErrSettings},
		{"Objective/nil ctx", func() error { _, _, err := Objective(nilCtx, b, idx, y, mu, nil, nil); return err }, linalg.ErrSettings},
		{"Objective/negative mu", objective(b, y, []float64{1, -1, 1, 1}), linalg.ErrSettings},
		{"Objective/NaN mu", objective(b, y, []float64{1, math.NaN(), 1, 1}), linalg.ErrNonFinite},
		{"Objective/Inf mu", objective(b, y, []float64{1, math.Inf(1), 1, 1}), linalg.ErrNonFinite},
		{"Objective/short mu", objective(b, y, []float64{1, 1}), linalg.ErrShape},
		{"Objective/nil basis", objective(nil, y, mu), linalg.ErrEmpty},
		{"Objective/one class", objective(b, []float64{1, 1, 1, 1}, mu), linalg.ErrLabels},
		{"Result.Decision/nil result", func() error { var r *Result; _, err := r.Decision(nil, b); return err }, linalg.ErrEmpty},
		{"Result.Decision/empty result", func() error { _, err := (&Result{}).Decision(nil, b); return err }, linalg.ErrEmpty},
		{"Result.Decision/nil basis", func() error { _, err := good.Decision(nil, nil); return err }, linalg.ErrEmpty},
		{"Result.Decision/wrong basis", func() error { _, err := good.Decision(nil, randomBasis(20, 3, 1)); return err }, linalg.ErrShape},
		{"Result.Decision/NaN basis", func() error { _, err := good.Decision(nil, nanB); return err }, linalg.ErrNonFinite},
		{"Result.Decision/inconsistent result", func() error {
			r := *good
			r.Problems = 2
			_, err := r.Decision(nil, b)
			return err
		}, linalg.ErrEmpty},
		{"Design.Coefficients/nil", func() error { _, err := nilDesign.Coefficients(ctx, nil, b, idx, tgt); return err }, linalg.ErrSettings},
		{"Design.Coefficients/nil target", design(Settings{}, b, nil), linalg.ErrEmpty},
		{"Design.Coefficients/empty target", design(Settings{}, b, &mat.Dense{}), linalg.ErrEmpty},
		{"Design.Coefficients/NaN target", design(Settings{}, b, nanTgt), linalg.ErrLabels},
		{"Design.Coefficients/Inf target", design(Settings{}, b, infTgt), linalg.ErrLabels},
		{"Design.Coefficients/zero target", design(Settings{}, b, zeroTgt), linalg.ErrLabels},
		{"Design.Coefficients/nil basis", design(Settings{}, nil, tgt), linalg.ErrEmpty},
		{"Design.Coefficients/bad Decay", design(Settings{Decay: 0.9}, b, tgt), linalg.ErrSettings},
		{"Design.Coefficients/cancelled", func() error {
			_, err := NewDesign(Settings{}).Coefficients(cancelled, nil, b, idx, tgt)
			return err
		}, context.Canceled},
		{"OneVsAll/1 class", func() error { _, err := OneVsAll([]int{0, 0}, 1); return err }, linalg.ErrLabels},
		{"OneVsAll/missing class", func() error { _, err := OneVsAll([]int{0, 0, 2}, 3); return err }, linalg.ErrLabels},
		{"OneVsAll/label range", func() error { _, err := OneVsAll([]int{0, 1, 3}, 3); return err }, linalg.ErrLabels},
		{"OneVsAll/too many classes", func() error { _, err := OneVsAll([]int{0, 1}, 1<<40); return err }, linalg.ErrLabels},
	})
}

// TestConcurrent: separate Learners on separate goroutines give identical
// results (no shared mutable state); run with -race to check.
func TestConcurrent(t *testing.T) {
	b := randomBasis(40, 8, 9)
	idx, y := problem(b, 14, 10)
	want, err := Learn(context.Background(), b, idx, y, &Settings{Decay: 1.1})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]*Result, 4)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g], _ = Learn(context.Background(), b, idx, y, &Settings{Decay: 1.1})
		}()
	}
	wg.Wait()
	for g, r := range got {
		if r == nil || r.Objective != want.Objective || r.Iterations != want.Iterations {
			t.Errorf("goroutine %d: %+v, want objective %v after %d iterations", g, r, want.Objective, want.Iterations)
		}
	}
}
