package klr

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/kerneltest"
)

// TestBadInput spoils one argument of every exported fit, prediction and
// cross-validation at a time; kerneltest.CheckErrors checks the kind.
func TestBadInput(t *testing.T) {
	fx := kerneltest.Small()
	ctx, cancelled := fx.Ctx, fx.Cancelled
	k, phi, y, labels := fx.K, fx.Phi, fx.Y, fx.Labels
	var nilDense *mat.Dense
	var nilSym *mat.SymDense
	var nilCtx context.Context
	infPhi := mat.DenseCopyOf(phi)
	infPhi.Set(0, 1, math.Inf(-1))
	nanUp := mat.DenseCopyOf(k)
	nanUp.Set(1, 2, math.NaN())
	nanLow := mat.DenseCopyOf(k)
	nanLow.Set(3, 0, math.NaN())
	asym := mat.DenseCopyOf(k)
	asym.Set(0, 1, 3)
	indef := mat.NewSymDense(4, nil)
	for i := range 4 {
		indef.SetSym(i, i, -1)
	}
	swap := mat.NewDense(4, 4, []float64{0, 5, 0, 0, 5, 0, 0, 0, 0, 0, 0, 5, 0, 0, 5, 0})
	fitted := &Model{Form: FeatureForm, Coef: []float64{1, 1}}
	multi := func(classes int) *Multi { return &Multi{Classes: classes, Models: []Model{*fitted}} }
	mfit := func(f func() (*Model, error)) func() error {
		return func() error { _, err := f(); return err }
	}
	kernel := func(k mat.Matrix, y []float64, s *Settings) func() error {
		return mfit(func() (*Model, error) { return FitKernel(ctx, k, y, s) })
	}
	features := func(phi mat.Matrix, y []float64, s *Settings) func() error {
		return mfit(func() (*Model, error) { return FitFeatures(ctx, phi, y, s) })
	}
	multiK := func(k mat.Matrix, labels []int, classes int) func() error {
		return func() error { _, err := FitMultiKernel(ctx, k, labels, classes, nil); return err }
	}
	multiF := func(phi mat.Matrix, labels []int, classes int) func() error {
		return func() error { _, err := FitMultiFeatures(ctx, phi, labels, classes, nil); return err }
	}
	cvF := func(ctx context.Context, phi mat.Matrix, labels []int, cv *CVSettings) func() error {
		return func() error { _, err := CrossValidateFeatures(ctx, phi, labels, 2, nil, cv); return err }
	}
	kerneltest.CheckErrors(t, "klr.", []kerneltest.Case{
		{"FitKernel/nil k", kernel(nil, y, nil), linalg.ErrEmpty},
		{"FitKernel/typed nil", kernel(nilDense, y, nil), linalg.ErrEmpty},
		{"FitKernel/typed nil sym", kernel(nilSym, y, nil), linalg.ErrEmpty},
		{"FitKernel/empty", kernel(&mat.Dense{}, y, nil), linalg.ErrEmpty},
		{"FitKernel/not square", kernel(phi, y, nil), linalg.ErrShape},
		{"FitKernel/short y", kernel(k, y[:2], nil), linalg.ErrShape},
		{"FitKernel/no labels", kernel(k, nil, nil), linalg.ErrShape},
		{"FitKernel/NaN upper", kernel(nanUp, y, nil), linalg.ErrNonFinite},
		{"FitKernel/NaN lower", kernel(nanLow, y, nil), linalg.ErrNonFinite},
		{"FitKernel/asymmetric", kernel(asym, y, nil), linalg.ErrShape},
		{"FitKernel/indefinite", kernel(indef, y, nil), linalg.ErrNotPSD},
		{"FitKernel/indefinite swap", kernel(swap, y, nil), linalg.ErrNotPSD},
		{"FitKernel/label 0", kernel(k, []float64{1, 0, -1, -1}, nil), linalg.ErrLabels},
		{"FitKernel/label NaN", kernel(k, []float64{1, 1, math.NaN(), -1}, nil), linalg.ErrLabels},
		{"FitKernel/one class", kernel(k, []float64{1, 1, 1, 1}, nil), linalg.ErrLabels},
		{"FitKernel/Lambda<0", kernel(k, y, &Settings{Lambda: -1}), linalg.ErrSettings},
		{"FitKernel/Lambda NaN", kernel(k, y, &Settings{Lambda: math.NaN()}), linalg.ErrSettings},
		{"FitKernel/Lambda Inf", kernel(k, y, &Settings{Lambda: math.Inf(1)}), linalg.ErrSettings},
		{"FitKernel/MaxIter<0", kernel(k, y, &Settings{MaxIter: -3}), linalg.ErrSettings},
		{"FitKernel/Tol<0", kernel(k, y, &Settings{Tol: -1}), linalg.ErrSettings},
		{"FitKernel/Tol NaN", kernel(k, y, &Settings{Tol: math.NaN()}), linalg.ErrSettings},
		{"FitKernel/nil ctx", mfit(func() (*Model, error) { return FitKernel(nilCtx, k, y, nil) }), linalg.ErrSettings},
		{"FitKernel/cancelled", mfit(func() (*Model, error) { return FitKernel(cancelled, k, y, nil) }), context.Canceled},
		{"FitFeatures/nil", features(nil, y, nil), linalg.ErrEmpty},
		{"FitFeatures/typed nil", features(nilDense, y, nil), linalg.ErrEmpty},
		{"FitFeatures/empty", features(&mat.Dense{}, y, nil), linalg.ErrEmpty},
		{"FitFeatures/short y", features(phi, y[:3], nil), linalg.ErrShape},
		{"FitFeatures/Inf", features(infPhi, y, nil), linalg.ErrNonFinite},
		{"FitFeatures/one class", features(phi, []float64{-1, -1, -1, -1}, nil), linalg.ErrLabels},
		{"FitFeatures/Lambda<0", features(phi, y, &Settings{Lambda: -1e-3}), linalg.ErrSettings},
		{"FitFeatures/nil ctx", mfit(func() (*Model, error) { return FitFeatures(nilCtx, phi, y, nil) }), linalg.ErrSettings},
		{"FitFeatures/cancelled", mfit(func() (*Model, error) { return FitFeatures(cancelled, phi, y, nil) }), context.Canceled},
		{"FitMultiKernel/typed nil", multiK(nilDense, labels, 2), linalg.ErrEmpty},
		{"FitMultiKernel/short labels", multiK(k, labels[:2], 2), linalg.ErrShape},
		{"FitMultiKernel/huge classes", multiK(k, labels, 1<<50), linalg.ErrLabels},
		{"FitMultiKernel/classes=1", multiK(k, []int{0, 0, 0, 0}, 1), linalg.ErrLabels},
		{"FitMultiKernel/negative label", multiK(k, []int{0, 1, -1, 0}, 2), linalg.ErrLabels},
		{"FitMultiKernel/missing class", multiK(k, []int{0, 1, 0, 1}, 3), linalg.ErrLabels},
		{"FitMultiKernel/indefinite", multiK(indef, labels, 2), linalg.ErrNotPSD},
		{"FitMultiKernel/nil ctx", func() error { _, err := FitMultiKernel(nilCtx, k, labels, 2, nil); return err }, linalg.ErrSettings},
		{"FitMultiKernel/cancelled", func() error { _, err := FitMultiKernel(cancelled, k, labels, 2, nil); return err }, context.Canceled},
		{"FitMultiFeatures/huge classes", multiF(phi, labels, 1<<50), linalg.ErrLabels},
		{"FitMultiFeatures/negative classes", multiF(phi, labels, -2), linalg.ErrLabels},
		{"FitMultiFeatures/label out of range", multiF(phi, []int{0, 3, 1, 1}, 2), linalg.ErrLabels},
		{"FitMultiFeatures/Inf", multiF(infPhi, labels, 2), linalg.ErrNonFinite},
		{"FitMultiFeatures/nil", multiF(nil, labels, 2), linalg.ErrEmpty},
		{"CrossValidateKernel/nil", func() error { _, err := CrossValidateKernel(ctx, nil, labels, 2, nil, nil); return err }, linalg.ErrEmpty},
		{"CrossValidateKernel/typed nil", func() error { _, err := CrossValidateKernel(ctx, nilDense, labels, 2, nil, nil); return err }, linalg.ErrEmpty},
		{"CrossValidateKernel/folds=1", func() error {
			_, err := CrossValidateKernel(ctx, k, labels, 2, nil, &CVSettings{Folds: 1})
			return err
		}, linalg.ErrSettings},
		{"CrossValidateKernel/Tol NaN", func() error {
			_, err := CrossValidateKernel(ctx, k, labels, 2, &Settings{Tol: math.NaN()}, nil)
			return err
		}, linalg.ErrSettings},
		{"CrossValidateFeatures/typed nil", cvF(ctx, nilDense, labels, nil), linalg.ErrEmpty},
		{"CrossValidateFeatures/short labels", cvF(ctx, phi, labels[:3], nil), linalg.ErrShape},
		{"CrossValidateFeatures/singleton class", cvF(ctx, phi, []int{0, 1, 1, 1}, nil), linalg.ErrLabels},
		{"CrossValidateFeatures/Folds<0", cvF(ctx, phi, labels, &CVSettings{Folds: -1}), linalg.ErrSettings},
		{"CrossValidateFeatures/grid NaN", cvF(ctx, phi, labels, &CVSettings{Grid: []float64{math.NaN()}}), linalg.ErrSettings},
		{"CrossValidateFeatures/grid<0", cvF(ctx, phi, labels, &CVSettings{Grid: []float64{-1}}), linalg.ErrSettings},
		{"CrossValidateFeatures/grid 0", cvF(ctx, phi, labels, &CVSettings{Grid: []float64{1, 0}}), linalg.ErrSettings},
		{"CrossValidateFeatures/nil ctx", cvF(nilCtx, phi, labels, nil), linalg.ErrSettings},
		{"CrossValidateFeatures/cancelled", cvF(cancelled, phi, labels, nil), context.Canceled},
		{"Fitter.FitKernel/nil Fitter", func() error { var f *Fitter; return f.FitKernel(ctx, &Model{}, k, y, false) }, linalg.ErrSettings},
		{"Fitter.FitKernel/nil model", func() error { var f Fitter; return f.FitKernel(ctx, nil, k, y, false) }, linalg.ErrEmpty},
		{"Fitter.FitKernel/bad settings", func() error {
			f := Fitter{Settings: Settings{Lambda: math.Inf(-1)}}
			return f.FitKernel(ctx, &Model{}, k, y, false)
		}, linalg.ErrSettings},
		{"Fitter.FitFeatures/nil Fitter", func() error { var f *Fitter; return f.FitFeatures(ctx, &Model{}, phi, y, false) }, linalg.ErrSettings},
		{"Fitter.FitFeatures/nil model", func() error { var f Fitter; return f.FitFeatures(ctx, nil, phi, y, false) }, linalg.ErrEmpty},
		{"Fitter.FitFeatures/nil ctx", func() error { var f Fitter; return f.FitFeatures(nilCtx, &Model{}, phi, y, false) }, linalg.ErrSettings},
		{"Fitter.FitMultiKernel/nil Fitter", func() error { var f *Fitter; return f.FitMultiKernel(ctx, &Multi{}, k, labels, 2, false) }, linalg.ErrSettings},
		{"Fitter.FitMultiKernel/nil model", func() error { var f Fitter; return f.FitMultiKernel(ctx, nil, k, labels, 2, false) }, linalg.ErrEmpty},
		{"Fitter.FitMultiFeatures/nil Fitter", func() error {
			var f *Fitter
			return f.FitMultiFeatures(ctx, &Multi{}, phi, labels, 2, false)
		}, linalg.ErrSettings},
		{"Fitter.FitMultiFeatures/nil model", func() error { var f Fitter; return f.FitMultiFeatures(ctx, nil, phi, labels, 2, false) }, linalg.ErrEmpty},
		{"Model.Decision/nil model", func() error { var m *Model; _, err := m.Decision(nil, phi); return err }, linalg.ErrEmpty},
		{"Model.Decision/zero model", func() error { _, err := (&Model{}).Decision(nil, phi); return err }, linalg.ErrEmpty},
		{"Model.Decision/typed nil", func() error { _, err := fitted.Decision(nil, nilDense); return err }, linalg.ErrEmpty},
		{"Model.Decision/columns", func() error { _, err := fitted.Decision(nil, k); return err }, linalg.ErrShape},
		{"Model.Decision/Inf row", func() error { _, err := fitted.Decision(nil, infPhi); return err }, linalg.ErrNonFinite},
		{"Model.Prob/nil model", func() error { var m *Model; _, err := m.Prob(nil, phi); return err }, linalg.ErrEmpty},
		{"Model.Prob/columns", func() error { _, err := fitted.Prob(nil, k); return err }, linalg.ErrShape},
		{"Multi.Decision/nil", func() error { var mm *Multi; _, err := mm.Decision(nil, phi); return err }, linalg.ErrEmpty},
		{"Multi.Decision/no models", func() error { _, err := (&Multi{Classes: 2}).Decision(nil, phi); return err }, linalg.ErrEmpty},
		{"Multi.Decision/bad dst", func() error { _, err := multi(2).Decision(mat.NewDense(3, 3, nil), phi); return err }, linalg.ErrShape},
		{"Multi.Decision/no rows", func() error { _, err := multi(2).Decision(nil, phi.Slice(0, 0, 0, 2)); return err }, linalg.ErrEmpty},
		{"Multi.PredictProba/nil", func() error { var mm *Multi; _, err := mm.PredictProba(nil, phi); return err }, linalg.ErrEmpty},
		{"Multi.PredictProba/classes≠models", func() error { _, err := multi(5).PredictProba(nil, phi); return err }, linalg.ErrShape},
		{"Multi.PredictProba/classes 0", func() error { _, err := multi(0).PredictProba(nil, phi); return err }, linalg.ErrShape},
		{"Multi.PredictProba/bad dst", func() error { _, err := multi(2).PredictProba(mat.NewDense(1, 1, nil), phi); return err }, linalg.ErrShape},
		{"Multi.PredictProba/columns", func() error { _, err := multi(2).PredictProba(nil, k); return err }, linalg.ErrShape},
		{"Multi.PredictProbaNormalized/nil", func() error { var mm *Multi; _, err := mm.PredictProbaNormalized(nil, phi); return err }, linalg.ErrEmpty},
		{"Multi.Predict/nil", func() error { var mm *Multi; _, err := mm.Predict(nil, phi); return err }, linalg.ErrEmpty},
		{"Multi.Predict/typed nil", func() error { _, err := multi(2).Predict(nil, nilDense); return err }, linalg.ErrEmpty},
	})
}

// TestWarmStartNotFinite: a warm start from non-finite coefficients is
// ignored (the fit starts from zero) rather than giving a NaN model.
func TestWarmStartNotFinite(t *testing.T) {
	fx := kerneltest.Small()
	for _, c := range []struct {
		name string
		m    Model
		fit  func(*Fitter, *Model) error
	}{
		{"features", Model{Form: FeatureForm, Coef: []float64{math.NaN(), 0}}, func(f *Fitter, m *Model) error {
			return f.FitFeatures(fx.Ctx, m, fx.Phi, fx.Y, true)
		}},
		{"kernel", Model{Form: KernelForm, Coef: []float64{math.Inf(1), 0}}, func(f *Fitter, m *Model) error {
			return f.FitKernel(fx.Ctx, m, fx.K, fx.Y, true)
		}},
		{"kernel bias", Model{Form: KernelForm, Coef: []float64{0, 0}, Bias: math.NaN()}, func(f *Fitter, m *Model) error {
			return f.FitKernel(fx.Ctx, m, fx.K, fx.Y, true)
		}},
	} {
		f := Fitter{Settings: Settings{Bias: true}}
		m := c.m
		if err := c.fit(&f, &m); err != nil || m.Stats.Status != linalg.Converged {
			t.Errorf("%s: error %v, status %v", c.name, err, m.Stats.Status)
		}
		for _, v := range append(m.Coef, m.Bias) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Errorf("%s: model %v, %v", c.name, m.Coef, m.Bias)
			}
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
