package active

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/kerneltest"
)

// TestBadInput: the selectors, the scores and the oracle reject bad input
// with the kinds named in the table (checked by kerneltest.CheckErrors).
func TestBadInput(t *testing.T) {
	fx := kerneltest.Small()
	var nilDense *mat.Dense
	var nilCtx context.Context
	p := mat.NewDense(3, 2, []float64{0.5, 0.5, 0.9, 0.1, 0.2, 0.8})
	feat := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 1})
	var cases []kerneltest.Case
	for _, s := range []Selector{Entropy{}, Margin{}, Random{Seed: 1}, Fisher{Features: feat}, KCenter{Features: feat}} {
		name := fmt.Sprintf("%T.Select/", s)
		sel := func(probs mat.Matrix, k int) func() error {
			return func() error { _, err := s.Select(nil, probs, k); return err }
		}
		cases = append(cases, []kerneltest.Case{
			{name + "nil", sel(nil, 1), linalg.ErrEmpty},
			{name + "typed nil", sel(nilDense, 1), linalg.ErrEmpty},
			{name + "empty", sel(&mat.Dense{}, 1), linalg.ErrEmpty},
			{name + "no columns", sel(p.Slice(0, 3, 0, 0), 1), linalg.ErrEmpty},
			{name + "no rows", sel(p.Slice(0, 0, 0, 2), 1), linalg.ErrEmpty},
			{name + "k=0", sel(p, 0), linalg.ErrSettings},
			{name + "k<0", sel(p, -1), linalg.ErrSettings},
			{name + "NaN", sel(mat.NewDense(1, 2, []float64{math.NaN(), 0.5}), 1), linalg.ErrSettings},
			{name + "negative", sel(mat.NewDense(1, 2, []float64{-0.5, 0.5}), 1), linalg.ErrSettings},
			{name + "above 1", sel(mat.NewDense(2, 1, []float64{0.5, 1.5}), 1), linalg.ErrSettings},
			{name + "Inf", sel(mat.NewDense(1, 2, []float64{math.Inf(1), 0.5}), 1), linalg.ErrSettings},
		}...)
	}
	score := func(f func([]float64) (float64, error), p ...float64) func() error {
		return func() error { _, err := f(p); return err }
	}
	g := GroundTruth{0, 1, 1}
	label := func(ctx context.Context, idx ...int) func() error {
		return func() error { _, err := g.Label(ctx, idx); return err }
	}
	cases = append(cases, []kerneltest.Case{
		{"EntropyScore/empty", score(EntropyScore), linalg.ErrEmpty},
		{"EntropyScore/negative", score(EntropyScore, 0.5, -0.1, 0.6), linalg.ErrSettings},
		{"EntropyScore/above 1", score(EntropyScore, 1.5), linalg.ErrSettings},
		{"EntropyScore/NaN", score(EntropyScore, math.NaN()), linalg.ErrSettings},
		{"EntropyScore/Inf", score(EntropyScore, 0, math.Inf(1)), linalg.ErrSettings},
		{"MarginScore/empty", score(MarginScore), linalg.ErrEmpty},
		{"MarginScore/NaN", score(MarginScore, math.NaN()), linalg.ErrSettings},
		{"MarginScore/above 1", score(MarginScore, 0.2, 1.01), linalg.ErrSettings},
		{"GroundTruth.Label/out of range", label(fx.Ctx, 0, 3), linalg.ErrLabels},
		{"GroundTruth.Label/negative", label(fx.Ctx, -1), linalg.ErrLabels},
		{"GroundTruth.Label/nil ctx", label(nilCtx, 5), linalg.ErrSettings},
		{"GroundTruth.Label/cancelled", label(fx.Cancelled, 0), context.Canceled},
	}...)
	cases = append(cases, featureCases(p, feat)...)
	kerneltest.CheckErrors(t, "active.", cases)
}

// featureCases are the bad inputs of the feature selectors beyond those of
// every selector: missing, misshapen or non-finite features, negative
// settings, and a pool without Fisher information.
func featureCases(p, feat *mat.Dense) []kerneltest.Case {
	var nilDense *mat.Dense
	var cases []kerneltest.Case
	certain := mat.NewDense(3, 2, []float64{1, 0, 0, 1, 1, 0})
	nan := mat.NewDense(3, 2, []float64{1, 0, math.NaN(), 1, 1, 1})
	inf := mat.NewDense(3, 2, []float64{1, 0, 0, math.Inf(-1), 1, 1})
	for _, fs := range []FeatureSelector{Fisher{}, KCenter{}} {
		name := fmt.Sprintf("%T.SelectFeatures/", fs)
		sel := func(fs FeatureSelector, probs, x mat.Matrix, k int) func() error {
			return func() error { _, err := fs.SelectFeatures(nil, probs, x, k); return err }
		}
		cases = append(cases, []kerneltest.Case{
			{name + "nil features", sel(fs, p, nil, 1), linalg.ErrEmpty},
			{name + "typed nil features", sel(fs, p, nilDense, 1), linalg.ErrEmpty},
			{name + "no feature columns", sel(fs, p, feat.Slice(0, 3, 0, 0), 1), linalg.ErrEmpty},
			{name + "rows mismatch", sel(fs, p, feat.Slice(0, 2, 0, 2), 1), linalg.ErrShape},
			{name + "NaN feature", sel(fs, p, nan, 1), linalg.ErrNonFinite},
			{name + "Inf feature", sel(fs, p, inf, 1), linalg.ErrNonFinite},
			{name + "NaN probability", sel(fs, mat.NewDense(3, 1, []float64{0.5, math.NaN(), 0.5}), feat, 1), linalg.ErrSettings},
			{name + "empty pool", sel(fs, p.Slice(0, 0, 0, 2), feat, 1), linalg.ErrEmpty},
			{name + "k=0", sel(fs, p, feat, 0), linalg.ErrSettings},
		}...)
	}
	fisher := func(f Fisher, probs, x mat.Matrix) func() error {
		return func() error { _, err := f.SelectFeatures(nil, probs, x, 2); return err }
	}
	solve := func(f Fisher, probs, x mat.Matrix) func() error {
		return func() error { _, err := f.Solve(probs, x); return err }
	}
	kc := func(c KCenter) func() error {
		return func() error { _, err := c.SelectFeatures(nil, p, feat, 2); return err }
	}
	return append(cases, []kerneltest.Case{
		{"Fisher.Select/no features", func() error { _, err := (Fisher{}).Select(nil, p, 1); return err }, linalg.ErrEmpty},
		{"KCenter.Select/no features", func() error { _, err := (KCenter{}).Select(nil, p, 1); return err }, linalg.ErrEmpty},
		{"Fisher/Rank<0", fisher(Fisher{Rank: -1}, p, feat), linalg.ErrSettings},
		{"Fisher/Tol<0", fisher(Fisher{Tol: -1}, p, feat), linalg.ErrSettings},
		{"Fisher/Tol NaN", fisher(Fisher{Tol: math.NaN()}, p, feat), linalg.ErrSettings},
		{"Fisher/Tol Inf", fisher(Fisher{Tol: math.Inf(1)}, p, feat), linalg.ErrSettings},
		{"Fisher/MaxIter<0", fisher(Fisher{MaxIter: -1}, p, feat), linalg.ErrSettings},
		{"Fisher/probabilities 0 or 1", fisher(Fisher{}, certain, feat), linalg.ErrDegenerate},
		{"Fisher/zero features", fisher(Fisher{}, p, mat.NewDense(3, 2, nil)), linalg.ErrDegenerate},
		{"Fisher/certain three classes", fisher(Fisher{}, mat.NewDense(3, 3, []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}), feat), linalg.ErrDegenerate},
		{"Fisher.Solve/certain", solve(Fisher{}, certain, feat), linalg.ErrDegenerate},
		{"Fisher.Solve/nil probs", solve(Fisher{}, nil, feat), linalg.ErrEmpty},
		{"Fisher.Solve/rows mismatch", solve(Fisher{}, p, feat.Slice(0, 1, 0, 2)), linalg.ErrShape},
		{"Fisher/Shortlist<0", fisher(Fisher{Shortlist: -1}, p, feat), linalg.ErrSettings},
		{"Fisher/shortlist without information", fisher(Fisher{Shortlist: 1},
			mat.NewDense(4, 2, []float64{0.5, 0.5, 0.4, 0.6, 0.9, 0.1, 0.95, 0.05}),
			mat.NewDense(4, 2, []float64{0, 0, 0, 0, 1, 2, -1, 1})), linalg.ErrDegenerate},
		{"KCenter/Factor<0", kc(KCenter{Factor: -1}), linalg.ErrSettings},
	}...)
}

// TestSelectDstAliasing: dst may share storage with a previous selection.
func TestSelectDstAliasing(t *testing.T) {
	p := mat.NewDense(4, 2, []float64{0.5, 0.5, 0.9, 0.1, 0.6, 0.4, 0.99, 0.01})
	feat := mat.NewDense(4, 2, []float64{1, 0, 0, 1, 1, 1, -1, 2})
	for _, s := range []Selector{Entropy{}, Margin{}, Random{Seed: 3}, Fisher{Features: feat}, KCenter{Features: feat}} {
		want, err := s.Select(nil, p, 3)
		if err != nil {
			t.Fatal(err)
		}
		buf := append([]int(nil), want...)
		got, err := s.Select(buf, p, 3)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%T: reselect into previous = %v, %v; want %v", s, got, err, want)
		}
	}
}
