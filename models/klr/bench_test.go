package klr

import (
	"context"
	"fmt"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var (
	sinkModel Model
	sinkCV    *CVResult
)

// BenchmarkKLR measures one refit through a reused Fitter (the
// active-learning pattern), cold start, default tolerance, lambda 0.01.
func BenchmarkKLR(b *testing.B) {
	ctx := context.Background()
	for _, form := range []Form{KernelForm, FeatureForm} {
		for _, l := range []int{20, 60, 200} {
			const d = 20
			b.Run(fmt.Sprintf("form=%v/l=%d/d=%d", form, l, d), func(b *testing.B) {
				phi, y := randProblem(l, d, uint64(l))
				k := mat.NewSymDense(l, nil)
				k.SymOuterK(1, phi)
				ft := Fitter{Settings: Settings{Lambda: 0.01, Bias: true}}
				var m Model
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					var err error
					if form == KernelForm {
						err = ft.FitKernel(ctx, &m, k, y, false)
					} else {
						err = ft.FitFeatures(ctx, &m, phi, y, false)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				sinkModel = m
			})
		}
	}
}

// BenchmarkCV measures 5-fold cross-validation over the default grid on 20
// labels in feature form with d = 20.
func BenchmarkCV(b *testing.B) {
	const l, d = 20, 20
	phi, y := randProblem(l, d, 1)
	lab := make([]int, l)
	for i, v := range y {
		if v > 0 {
			lab[i] = 1
		}
	}
	b.Run(fmt.Sprintf("l=%d", l), func(b *testing.B) {
		b.ReportAllocs()
		var r *CVResult
		for b.Loop() {
			var err error
			r, err = CrossValidateFeatures(context.Background(), phi, lab, 2, &Settings{Bias: true}, &CVSettings{Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
		}
		sinkCV = r
	})
}

// BenchmarkRefit measures the active-learning refit: the model fitted on the
// first l-1 points gives the warm start of the fit on all l points (one newly labeled
// point), through a reused Fitter.
func BenchmarkRefit(b *testing.B) {
	ctx := context.Background()
	for _, form := range []Form{KernelForm, FeatureForm} {
		for _, l := range []int{20, 60} {
			const d = 20
			b.Run(fmt.Sprintf("form=%v/l=%d/d=%d", form, l, d), func(b *testing.B) {
				phi, y := randProblem(l, d, uint64(l))
				k := mat.NewSymDense(l, nil)
				k.SymOuterK(1, phi)
				kPrev := mat.NewSymDense(l-1, nil)
				kPrev.SymOuterK(1, phi.Slice(0, l-1, 0, d))
				ft := Fitter{Settings: Settings{Lambda: 0.01, Bias: true}}
				var base, m Model
				var err error
				if form == KernelForm {
					err = ft.FitKernel(ctx, &base, kPrev, y[:l-1], false)
				} else {
					err = ft.FitFeatures(ctx, &base, phi.Slice(0, l-1, 0, d), y[:l-1], false)
				}
				if err != nil {
					b.Fatal(err)
				}
				m = base
				m.Coef = make([]float64, len(base.Coef), l)
				iters := 0
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					m.Coef = m.Coef[:len(base.Coef)]
					copy(m.Coef, base.Coef)
					m.Bias, m.Form = base.Bias, base.Form
					if form == KernelForm {
						err = ft.FitKernel(ctx, &m, k, y, true)
					} else {
						err = ft.FitFeatures(ctx, &m, phi, y, true)
					}
					if err != nil {
						b.Fatal(err)
					}
					iters = m.Stats.Iterations
				}
				b.ReportMetric(float64(iters), "newton-iters")
				sinkModel = m
			})
		}
	}
}

// BenchmarkFeatureDirection: one Newton direction of the feature form with
// the intercept, through the d x d Newton matrix (primal) and through the
// l x l matrix (dual, what the solver uses when l < d).
func BenchmarkFeatureDirection(b *testing.B) {
	for _, c := range []struct{ l, d int }{{9, 20}, {18, 20}, {18, 50}, {45, 50}} {
		phi, _ := randProblem(c.l, c.d, 7)
		raw := phi.RawMatrix()
		p := &problem{form: FeatureForm, l: c.l, n: c.d, phi: raw}
		w := &newton{lambda: 0.01, bias: true}
		w.resize(p)
		for i := range w.s[:c.l] {
			w.s[i] = 0.4
		}
		for j := range w.g[:c.d] {
			w.g[j] = 0.1 * float64(j%5-2)
		}
		for _, dual := range []bool{false, true} {
			b.Run(fmt.Sprintf("l=%d/d=%d/system=%s", c.l, c.d, map[bool]string{false: "primal", true: "dual"}[dual]), func(b *testing.B) {
				for b.Loop() {
					var ok bool
					if dual {
						_, ok = w.featureDirectionDual(p)
					} else {
						_, ok = w.featureDirection(p)
					}
					if !ok {
						b.Fatal("factorisation failed")
					}
				}
			})
		}
	}
}
