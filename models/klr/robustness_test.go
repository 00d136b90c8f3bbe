package klr

import (
	"context"
	"fmt"
	"math"
	"testing"
	"ukm/internal/robust"

	"gonum.org/v1/gonum/mat"
)

// TestNoPanicOnBadInput: invalid input to every exported function and
// method is an error, never a panic.
func TestNoPanicOnBadInput(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	k := mat.NewDense(4, 4, []float64{2, 1, 0, 0, 1, 2, 0, 0, 0, 0, 2, 1, 0, 0, 1, 2})
	phi := mat.NewDense(4, 2, []float64{1, 0, 1, 0.1, 0, 1, 0.1, 1})
	y := []float64{1, 1, -1, -1}
	labels := []int{0, 0, 1, 1}
	var nilDense *mat.Dense
	var nilSym *mat.SymDense
	nanPhi := mat.DenseCopyOf(phi)
	nanPhi.Set(0, 1, math.Inf(-1))
	cases := map[string]func() error{
		"FitKernel nil k":         func() error { _, err := FitKernel(ctx, nil, y, nil); return err },
		"FitKernel typed nil":     func() error { _, err := FitKernel(ctx, nilDense, y, nil); return err },
		"FitKernel typed nil sym": func() error { _, err := FitKernel(ctx, nilSym, y, nil); return err },
		"FitKernel empty":         func() error { _, err := FitKernel(ctx, &mat.Dense{}, y, nil); return err },
		"FitKernel short y":       func() error { _, err := FitKernel(ctx, k, y[:2], nil); return err },
		"FitKernel NaN y":         func() error { _, err := FitKernel(ctx, k, []float64{1, 1, math.NaN(), -1}, nil); return err },
		"FitKernel neg lambda":    func() error { _, err := FitKernel(ctx, k, y, &Settings{Lambda: -1}); return err },
		"FitKernel NaN tol":       func() error { _, err := FitKernel(ctx, k, y, &Settings{Tol: math.NaN()}); return err },
		"FitKernel neg iter":      func() error { _, err := FitKernel(ctx, k, y, &Settings{MaxIter: -3}); return err },
		"FitKernel cancelled":     func() error { _, err := FitKernel(cancelled, k, y, nil); return err },
		"FitKernel non-square":    func() error { _, err := FitKernel(ctx, mat.NewDense(4, 3, nil), y, nil); return err },
		"FitKernel indefinite": func() error {
			_, err := FitKernel(ctx, mat.NewDense(4, 4, []float64{0, 5, 0, 0, 5, 0, 0, 0, 0, 0, 0, 5, 0, 0, 5, 0}), y, nil)
			return err
		},
		"FitFeatures nil":         func() error { _, err := FitFeatures(ctx, nil, y, nil); return err },
		"FitFeatures typed nil":   func() error { _, err := FitFeatures(ctx, nilDense, y, nil); return err },
		"FitFeatures Inf":         func() error { _, err := FitFeatures(ctx, nanPhi, y, nil); return err },
		"FitFeatures short y":     func() error { _, err := FitFeatures(ctx, phi, y[:3], nil); return err },
		"FitFeatures cancelled":   func() error { _, err := FitFeatures(cancelled, phi, y, nil); return err },
		"Multi huge classes":      func() error { _, err := FitMultiKernel(ctx, k, labels, 1<<50, nil); return err },
		"Multi feat huge classes": func() error { _, err := FitMultiFeatures(ctx, phi, labels, 1<<50, nil); return err },
		"Multi neg classes":       func() error { _, err := FitMultiFeatures(ctx, phi, labels, -2, nil); return err },
		"Multi bad label":         func() error { _, err := FitMultiFeatures(ctx, phi, []int{0, 3, 1, 1}, 2, nil); return err },
		"Multi typed nil":         func() error { _, err := FitMultiKernel(ctx, nilDense, labels, 2, nil); return err },
		"CV kernel nil":           func() error { _, err := CrossValidateKernel(ctx, nil, labels, 2, nil, nil); return err },
		"CV kernel typed nil":     func() error { _, err := CrossValidateKernel(ctx, nilDense, labels, 2, nil, nil); return err },
		"CV feat typed nil":       func() error { _, err := CrossValidateFeatures(ctx, nilDense, labels, 2, nil, nil); return err },
		"CV huge classes":         func() error { _, err := CrossValidateFeatures(ctx, phi, labels, 1<<50, nil, nil); return err },
		"CV neg folds": func() error {
			_, err := CrossValidateFeatures(ctx, phi, labels, 2, nil, &CVSettings{Folds: -1})
			return err
		},
		"CV NaN grid": func() error {
			_, err := CrossValidateFeatures(ctx, phi, labels, 2, nil, &CVSettings{Grid: []float64{math.NaN()}})
			return err
		},
		"CV neg grid": func() error {
			_, err := CrossValidateFeatures(ctx, phi, labels, 2, nil, &CVSettings{Grid: []float64{-1}})
			return err
		},
		"CV cancelled":          func() error { _, err := CrossValidateFeatures(cancelled, phi, labels, 2, nil, nil); return err },
		"CV singleton class":    func() error { _, err := CrossValidateFeatures(ctx, phi, []int{0, 1, 1, 1}, 2, nil, nil); return err },
		"CV short labels":       func() error { _, err := CrossValidateFeatures(ctx, phi, labels[:3], 2, nil, nil); return err },
		"Fitter nil model":      func() error { var f Fitter; return f.FitKernel(ctx, nil, k, y, false) },
		"nil Fitter kernel":     func() error { var f *Fitter; return f.FitKernel(ctx, &Model{}, k, y, false) },
		"nil Fitter features":   func() error { var f *Fitter; return f.FitFeatures(ctx, &Model{}, phi, y, false) },
		"nil Fitter multi":      func() error { var f *Fitter; return f.FitMultiKernel(ctx, &Multi{}, k, labels, 2, false) },
		"nil Fitter multi feat": func() error { var f *Fitter; return f.FitMultiFeatures(ctx, &Multi{}, phi, labels, 2, false) },
		"nil ctx kernel":        func() error { _, err := FitKernel(nil, k, y, nil); return err },                            //nolint:staticcheck
		"nil ctx features":      func() error { _, err := FitFeatures(nil, phi, y, nil); return err },                        //nolint:staticcheck
		"nil ctx multi":         func() error { _, err := FitMultiKernel(nil, k, labels, 2, nil); return err },               //nolint:staticcheck
		"nil ctx CV":            func() error { _, err := CrossValidateFeatures(nil, phi, labels, 2, nil, nil); return err }, //nolint:staticcheck
		"Fitter nil model feat": func() error { var f Fitter; return f.FitFeatures(ctx, nil, phi, y, false) },
		"Fitter nil multi":      func() error { var f Fitter; return f.FitMultiKernel(ctx, nil, k, labels, 2, false) },
		"Fitter nil multi feat": func() error { var f Fitter; return f.FitMultiFeatures(ctx, nil, phi, labels, 2, false) },
		"Decision nil model":    func() error { var m *Model; _, err := m.Decision(nil, phi); return err },
		"Decision zero model":   func() error { _, err := (&Model{}).Decision(nil, phi); return err },
		"Decision typed nil": func() error {
			_, err := (&Model{Form: FeatureForm, Coef: []float64{1, 1}}).Decision(nil, nilDense)
			return err
		},
		"Decision cols": func() error {
			_, err := (&Model{Form: FeatureForm, Coef: []float64{1, 1}}).Decision(nil, k)
			return err
		},
		"Prob nil model":      func() error { var m *Model; _, err := m.Prob(nil, phi); return err },
		"Multi Decision nil":  func() error { var mm *Multi; _, err := mm.Decision(nil, phi); return err },
		"Multi Proba nil":     func() error { var mm *Multi; _, err := mm.PredictProba(nil, phi); return err },
		"Multi ProbaNorm nil": func() error { var mm *Multi; _, err := mm.PredictProbaNormalized(nil, phi); return err },
		"Multi Predict nil":   func() error { var mm *Multi; _, err := mm.Predict(nil, phi); return err },
		"Multi Predict typed nil": func() error {
			mm := &Multi{Classes: 2, Models: []Model{{Form: FeatureForm, Coef: []float64{1, 1}}}}
			_, err := mm.Predict(nil, nilDense)
			return err
		},
		"Multi Proba classes≠": func() error {
			mm := &Multi{Classes: 5, Models: []Model{{Form: FeatureForm, Coef: []float64{1, 1}}}}
			_, err := mm.PredictProba(nil, phi)
			return err
		},
		"Multi Proba classes 0": func() error {
			mm := &Multi{Classes: 0, Models: []Model{{Form: FeatureForm, Coef: []float64{1, 1}}}}
			_, err := mm.PredictProba(nil, phi)
			return err
		},
		"Multi Proba bad dst": func() error {
			mm := &Multi{Classes: 2, Models: []Model{{Form: FeatureForm, Coef: []float64{1, 1}}}}
			_, err := mm.PredictProba(mat.NewDense(1, 1, nil), phi)
			return err
		},
		"warm NaN": func() error {
			var f Fitter
			m := &Model{Form: FeatureForm, Coef: []float64{math.NaN(), 0}}
			err := f.FitFeatures(ctx, m, phi, y, true)
			if err == nil && (math.IsNaN(m.Coef[0]) || math.IsNaN(m.Coef[1])) {
				return nil // NaN answer without error
			}
			return fmt.Errorf("ok: %v", err)
		},
		"warm NaN kernel": func() error {
			var f Fitter
			m := &Model{Form: KernelForm, Coef: []float64{math.Inf(1), 0}}
			err := f.FitKernel(ctx, m, k, y, true)
			if err == nil {
				for _, c := range m.Coef {
					if math.IsNaN(c) || math.IsInf(c, 0) {
						return nil
					}
				}
			}
			return fmt.Errorf("ok: %v", err)
		},
	}
	for name, f := range cases {
		if err := robust.Call(t, name, f); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestMultiInconsistent: a Multi whose Classes does not match its models is
// an error, not a panic or a silently wrong prediction.
func TestMultiInconsistent(t *testing.T) {
	phi := mat.NewDense(4, 2, []float64{1, 0, 1, 0.1, 0, 1, 0.1, 1})
	mm, err := FitMultiFeatures(context.Background(), phi, []int{0, 0, 1, 1}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{0, 1, 3, 5} {
		bad := &Multi{Classes: c, Models: mm.Models}
		if p, err := bad.Predict(nil, phi); err == nil {
			t.Errorf("Classes = %d with %d model: Predict = %v, want an error", c, len(mm.Models), p)
		}
		if _, err := bad.PredictProbaNormalized(nil, phi); err == nil {
			t.Errorf("Classes = %d with %d model: PredictProbaNormalized gave no error", c, len(mm.Models))
		}
	}
}

// TestFitterReuseAcrossSizes: a Fitter used on l = 50, then 10, then 50 (and
// on a different d) gives the models of fresh Fitters.
func TestFitterReuseAcrossSizes(t *testing.T) {
	ctx := context.Background()
	var ft Fitter
	var m, mk Model
	for k, sz := range [][2]int{{50, 4}, {10, 4}, {50, 4}, {20, 7}, {50, 4}} {
		phi, y := randProblem(sz[0], sz[1], uint64(k%3+1))
		for _, bias := range []bool{false, true} {
			s := &Settings{Lambda: 0.1, Bias: bias}
			ft.Settings = *s
			if err := ft.FitFeatures(ctx, &m, phi, y, false); err != nil {
				t.Fatal(err)
			}
			want, err := FitFeatures(ctx, phi, y, s)
			if err != nil {
				t.Fatal(err)
			}
			kk := mat.NewDense(sz[0], sz[0], nil)
			kk.Mul(phi, phi.T())
			if err := ft.FitKernel(ctx, &mk, kk, y, false); err != nil {
				t.Fatal(err)
			}
			wantK, err := FitKernel(ctx, kk, y, s)
			if err != nil {
				t.Fatal(err)
			}
			for i := range want.Coef {
				if math.Abs(m.Coef[i]-want.Coef[i]) > 1e-10*(1+math.Abs(want.Coef[i])) {
					t.Fatalf("step %d features: reused %v, fresh %v", k, m.Coef, want.Coef)
				}
			}
			for i := range wantK.Coef {
				if math.Abs(mk.Coef[i]-wantK.Coef[i]) > 1e-10*(1+math.Abs(wantK.Coef[i])) {
					t.Fatalf("step %d kernel: reused %v, fresh %v", k, mk.Coef, wantK.Coef)
				}
			}
			if len(m.Coef) != sz[1] || len(mk.Coef) != sz[0] || m.Bias != want.Bias || mk.Bias != wantK.Bias {
				t.Fatalf("step %d: lengths %d %d, biases %v/%v %v/%v", k, len(m.Coef), len(mk.Coef), m.Bias, want.Bias, mk.Bias, wantK.Bias)
			}
		}
	}
}
