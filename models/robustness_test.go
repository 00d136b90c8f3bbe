package models

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/robust"
	"ukm/models/active"
)

// noPanic runs f and reports a recovered panic as a test failure.
// badSelector returns out-of-range rows.
type badSelector struct{ rows []int }

func (b badSelector) Select(dst []int, _ mat.Matrix, _ int) ([]int, error) {
	return append(dst[:0], b.rows...), nil
}

// fixedOracle answers with the given labels whatever is asked.
type fixedOracle struct{ ys []int }

func (b fixedOracle) Label(_ context.Context, _ []int) ([]int, error) { return b.ys, nil }

// TestNoPanicOnBadInput calls the exported functions and methods of the
// package with invalid input: each must return an error, never panic.
func TestNoPanicOnBadInput(t *testing.T) {
	s := circles(t, 10, 0.1, 1)
	x := s.X
	lab := []int{0, 1, 10, 11}
	ys := []int{0, 0, 1, 1}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	ctx := context.Background()
	fitCases := []struct {
		name string
		ctx  context.Context
		x    *mat.Dense
		lab  []int
		ys   []int
		opt  *Options
	}{
		{"huge label", ctx, x, lab, []int{0, 0, 1, math.MaxInt}, nil},
		{"large label", ctx, x, lab, []int{0, 0, 1, 1 << 40}, nil},
		{"nil ctx", nil, x, lab, ys, nil},
		{"cancelled", cancelled, x, lab, ys, nil},
		{"d = n", ctx, x, lab, ys, &Options{D: 20}},
		{"d = n cluster", ctx, x, lab, ys, &Options{D: 20, Design: Cluster}},
		{"d = n order", ctx, x, lab, ys, &Options{D: 20, Design: Order, GraphK: 3}},
		{"d = n impOrder", ctx, x, lab, ys, &Options{D: 20, Design: ImpOrder, GraphK: 3}},
		{"d = n diffusion", ctx, x, lab, ys, &Options{D: 20, Design: Diffusion, GraphK: 3}},
		{"d = n svm", ctx, x, lab, ys, &Options{D: 20, Classifier: SVM}},
		{"one column x", ctx, mat.NewDense(20, 1, nil), lab, ys, nil},
		{"one row x", ctx, mat.NewDense(1, 3, nil), []int{0}, []int{0}, nil},
		{"huge C", ctx, x, lab, ys, &Options{Decay: 1e300}},
		{"Inf gamma", ctx, x, lab, ys, &Options{Kernel: KernelSpec{Gamma: math.Inf(1)}}},
		{"huge gamma", ctx, x, lab, ys, &Options{Kernel: KernelSpec{Gamma: 1e300}}},
		{"huge folds", ctx, x, lab, ys, &Options{Folds: 1000}},
		{"huge graph k", ctx, x, lab, ys, &Options{Design: Order, GraphK: math.MaxInt}},
		{"energy NaN", ctx, x, lab, ys, &Options{EnergyFraction: math.NaN()}},
	}
	for _, tc := range fitCases {
		tc := tc
		robust.Call(t, "Fit/"+tc.name, func() error {
			_, err := Fit(tc.ctx, tc.x, tc.lab, tc.ys, tc.opt)
			return err
		})
		robust.Call(t, "Loop/"+tc.name, func() error {
			_, _, err := Loop(tc.ctx, tc.x, tc.lab, tc.ys, active.GroundTruth(s.Y), &LoopOptions{Options: derefOpt(tc.opt), Budget: 2})
			return err
		})
	}
	loopCases := []struct {
		name   string
		oracle active.Oracle
		opt    *LoopOptions
	}{
		{"bad selector", active.GroundTruth(s.Y), &LoopOptions{Budget: 2, Selector: badSelector{[]int{-1}}}},
		{"empty selector", active.GroundTruth(s.Y), &LoopOptions{Budget: 2, Selector: badSelector{nil}}},
		{"dup selector", active.GroundTruth(s.Y), &LoopOptions{Budget: 2, Batch: 2, Selector: badSelector{[]int{0, 0}}}},
		{"bad oracle", fixedOracle{[]int{7}}, &LoopOptions{Budget: 2}},
		{"short oracle", fixedOracle{nil}, &LoopOptions{Budget: 2}},
		{"negative oracle", fixedOracle{[]int{-1}}, &LoopOptions{Budget: 2}},
		{"nil oracle", nil, &LoopOptions{Budget: 2}},
		{"short truth", active.GroundTruth(s.Y), &LoopOptions{Budget: 2, Truth: []int{0}}},
		{"bad truth", active.GroundTruth(s.Y), &LoopOptions{Budget: 2, Truth: make([]int, 20)}},
		{"short oracle truth", active.GroundTruth(s.Y[:3]), &LoopOptions{Budget: 2}},
		{"negative batch", active.GroundTruth(s.Y), &LoopOptions{Budget: 2, Batch: -1}},
		{"negative budget", active.GroundTruth(s.Y), &LoopOptions{Budget: -1}},
		{"svm loop", active.GroundTruth(s.Y), &LoopOptions{Budget: 2, Options: Options{Classifier: SVM}}},
		{"NaN stop", active.GroundTruth(s.Y), &LoopOptions{Budget: 2, EntropyStop: math.NaN()}},
	}
	for _, tc := range loopCases {
		tc := tc
		robust.Call(t, "Loop/"+tc.name, func() error {
			_, _, err := Loop(ctx, x, lab, ys, tc.oracle, tc.opt)
			return err
		})
	}

	// methods of an unfitted (zero or nil) model
	for _, m := range []*Model{nil, {}} {
		m := m
		name := fmt.Sprintf("%T(%v)", m, m == nil)
		for mname, f := range map[string]func() error{
			"PredictRows": func() error { _, err := m.PredictRows(nil, []int{0}); return err },
			"ProbaRows":   func() error { _, err := m.ProbaRows(nil, []int{0}); return err },
			"Score":       func() error { _, err := m.Score(x, []int{0}); return err },
			"Predict":     func() error { _, err := m.Predict(nil, x); return err },
			"Proba":       func() error { _, err := m.Proba(nil, x); return err },
			"Features":    func() error { _, err := m.Features(x); return err },
		} {
			if err := robust.Call(t, name+"."+mname, f); !errors.Is(err, ErrNotFitted) {
				t.Errorf("%s.%s: error %v, want ErrNotFitted", name, mname, err)
			}
		}
		robust.Call(t, name+".accessors", func() error {
			m.Kernel()
			m.EigenValues()
			m.Design()
			m.Gamma()
			m.Classes()
			m.Labeled()
			m.Lambda()
			m.CV()
			m.Alignment()
			m.Timings()
			return nil
		})
	}

	// methods of a fitted model with bad arguments
	for _, opt := range []Options{{}, {Design: Standard}, {Classifier: SVM}, {Design: Order, GraphK: 3}} {
		m, err := Fit(ctx, x, lab, ys, &opt)
		if err != nil {
			t.Fatal(err)
		}
		name := opt.Design.String()
		for mname, f := range map[string]func() error{
			"PredictRows nil":      func() error { _, err := m.PredictRows(nil, nil); return err },
			"PredictRows range":    func() error { _, err := m.PredictRows(nil, []int{20}); return err },
			"PredictRows negative": func() error { _, err := m.PredictRows(nil, []int{-1}); return err },
			"ProbaRows range":      func() error { _, err := m.ProbaRows(nil, []int{20}); return err },
			"ProbaRows dst shape":  func() error { _, err := m.ProbaRows(mat.NewDense(3, 3, nil), []int{0}); return err },
			"Predict nil":          func() error { _, err := m.Predict(nil, nil); return err },
			"Predict empty":        func() error { _, err := m.Predict(nil, &mat.Dense{}); return err },
			"Predict cols":         func() error { _, err := m.Predict(nil, mat.NewDense(2, 5, nil)); return err },
			"Predict NaN":          func() error { _, err := m.Predict(nil, mat.NewDense(1, 2, []float64{math.NaN(), 0})); return err },
			"Proba Inf":            func() error { _, err := m.Proba(nil, mat.NewDense(1, 2, []float64{math.Inf(1), 0})); return err },
			"Features nil":         func() error { _, err := m.Features(nil); return err },
			"Features cols":        func() error { _, err := m.Features(mat.NewDense(1, 1, nil)); return err },
			"Proba dst shape":      func() error { _, err := m.Proba(mat.NewDense(3, 3, nil), mat.NewDense(1, 2, nil)); return err },
			"Score length":         func() error { _, err := m.ScoreRows([]int{0, 1}, []int{0}); return err },
		} {
			if err := robust.Call(t, name+"."+mname, f); err == nil {
				t.Errorf("%s %s: no error", name, mname)
			}
		}
	}
	_ = errors.Is
}

func derefOpt(o *Options) Options {
	if o == nil {
		return Options{}
	}
	return *o
}

// TestModelConcurrentReads backs the documented claim that a Model is safe
// for concurrent use by its read-only methods (run it with -race).
func TestModelConcurrentReads(t *testing.T) {
	s := circles(t, 15, 0.1, 2)
	lab := []int{0, 1, 15, 16}
	ys := []int{0, 0, 1, 1}
	for _, opt := range []Options{{}, {Design: Standard}, {Classifier: SVM}} {
		m, err := Fit(context.Background(), s.X, lab, ys, &opt)
		if err != nil {
			t.Fatal(err)
		}
		idx := []int{2, 3, 20, 21}
		want, err := m.PredictRows(nil, idx)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 4)
		for g := 0; g < 4; g++ {
			go func() {
				var err error
				for it := 0; it < 5 && err == nil; it++ {
					var got []int
					if got, err = m.PredictRows(nil, idx); err == nil && fmt.Sprint(got) != fmt.Sprint(want) {
						err = fmt.Errorf("Predict = %v, want %v", got, want)
					}
					if err == nil {
						got, err = m.Predict(nil, s.X)
					}
					if err == nil && opt.Classifier == KLR {
						_, err = m.ProbaRows(nil, idx)
						if err == nil {
							_, err = m.Proba(nil, s.X)
						}
					}
					if err == nil && opt.Design != Standard {
						_, err = m.Features(s.X)
						m.Kernel()
					}
				}
				done <- err
			}()
		}
		for g := 0; g < 4; g++ {
			if err := <-done; err != nil {
				t.Errorf("%v/%v: %v", opt.Design, opt.Classifier, err)
			}
		}
	}
}
