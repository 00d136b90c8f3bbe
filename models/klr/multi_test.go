package klr

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"ukm/models/internal/kerneltest"
)

// blobs returns perClass points around each of the class centres
// (3*c, (-1)^c) with unit Gaussian noise, labels 0..classes-1.
func blobs(classes, perClass int, noise float64, seed uint64) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, 9))
	n := classes * perClass
	x := mat.NewDense(n, 2, nil)
	lab := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % classes
		lab[i] = c
		x.Set(i, 0, 3*float64(c)+noise*rng.NormFloat64())
		x.Set(i, 1, math.Pow(-1, float64(c))+noise*rng.NormFloat64())
	}
	return x, lab
}

// TestMultiBinary: with two classes the multi-class fit is one binary problem
// with class 1 positive, and its probabilities are (1-p, p).
func TestMultiBinary(t *testing.T) {
	x, lab := blobs(2, 15, 1.5, 1)
	k := kerneltest.RBF(x, x, 1)
	s := &Settings{Lambda: 0.01, Bias: true}
	mm, err := FitMultiKernel(context.Background(), k, lab, 2, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(mm.Models) != 1 {
		t.Fatalf("%d binary models for 2 classes, want 1", len(mm.Models))
	}
	y := make([]float64, len(lab))
	for i, c := range lab {
		y[i] = float64(2*c - 1)
	}
	b, err := FitKernel(context.Background(), k, y, s)
	if err != nil {
		t.Fatal(err)
	}
	if !floats.EqualApprox(b.Coef, mm.Models[0].Coef, 1e-14) {
		t.Fatal("multi-class model with 2 classes differs from the binary fit")
	}
	p, err := mm.PredictProba(nil, k)
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := b.Prob(nil, k)
	pred, _ := mm.Predict(nil, k)
	for i := range lab {
		if math.Abs(p.At(i, 1)-pb[i]) > 1e-15 || math.Abs(p.At(i, 0)+p.At(i, 1)-1) > 1e-15 {
			t.Errorf("row %d: (%v, %v), binary p = %v", i, p.At(i, 0), p.At(i, 1), pb[i])
		}
		if want := map[bool]int{true: 1, false: 0}[pb[i] > 0.5]; pred[i] != want {
			t.Errorf("row %d predicted %d, p = %v", i, pred[i], pb[i])
		}
	}
}

// TestMultiOvA: with c > 2 classes, model c is exactly the binary fit of c
// against the rest; Predict is the argmax of PredictProba, and the
// normalised probabilities sum to one.
func TestMultiOvA(t *testing.T) {
	x, lab := blobs(4, 10, 0.8, 2)
	s := &Settings{Lambda: 0.01, Bias: true}
	mm, err := FitMultiFeatures(context.Background(), x, lab, 4, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(mm.Models) != 4 {
		t.Fatalf("%d models, want 4", len(mm.Models))
	}
	for c := 0; c < 4; c++ {
		y := make([]float64, len(lab))
		for i, v := range lab {
			y[i] = -1
			if v == c {
				y[i] = 1
			}
		}
		b, err := FitFeatures(context.Background(), x, y, s)
		if err != nil {
			t.Fatal(err)
		}
		if !floats.EqualApprox(b.Coef, mm.Models[c].Coef, 1e-14) || b.Bias != mm.Models[c].Bias {
			t.Errorf("class %d model differs from its binary fit", c)
		}
	}
	xt, lt := blobs(4, 25, 0.8, 3)
	p, err := mm.PredictProba(nil, xt)
	if err != nil {
		t.Fatal(err)
	}
	pn, err := mm.PredictProbaNormalized(nil, xt)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := mm.Predict(nil, xt)
	if err != nil {
		t.Fatal(err)
	}
	correct := 0
	for i := range lt {
		row := p.RawRowView(i)
		if am := floats.MaxIdx(row); am != pred[i] {
			t.Errorf("row %d: Predict %d, argmax of probabilities %d", i, pred[i], am)
		}
		if am := floats.MaxIdx(pn.RawRowView(i)); am != pred[i] {
			t.Errorf("row %d: normalised argmax %d, Predict %d", i, am, pred[i])
		}
		if s := floats.Sum(pn.RawRowView(i)); math.Abs(s-1) > 1e-14 {
			t.Errorf("row %d: normalised probabilities sum to %v", i, s)
		}
		for _, v := range row {
			if !(v > 0 && v < 1) {
				t.Errorf("row %d: probability %v outside (0,1)", i, v)
			}
		}
		if pred[i] == lt[i] {
			correct++
		}
	}
	// Centres are >= 3 apart with noise 0.8: the Bayes error is a few
	// percent, so 80% is a loose floor that still catches a broken argmax.
	if acc := float64(correct) / float64(len(lt)); acc < 0.8 {
		t.Errorf("accuracy %v on well separated blobs", acc)
	}
}

// zscore returns x with every column centred and scaled to unit variance
// (over all rows: in the semi-supervised setting the unlabeled points are
// available when the features are prepared).
func zscore(x *mat.Dense) *mat.Dense {
	n, p := x.Dims()
	z := mat.NewDense(n, p, nil)
	col := make([]float64, n)
	for j := 0; j < p; j++ {
		mat.Col(col, j, x)
		mean, sd := stat.MeanStdDev(col, nil)
		if sd == 0 {
			sd = 1
		}
		for i := 0; i < n; i++ {
			z.Set(i, j, (col[i]-mean)/sd)
		}
	}
	return z
}

// sampleLabeled draws n indices without replacement, retrying until every
// class is present (the KDD'06 protocol), and returns them with the rest.
func sampleLabeled(lab []int, classes, n int, seed uint64) (train, test []int) {
	rng := rand.New(rand.NewPCG(seed, 5))
	for {
		perm := rng.Perm(len(lab))
		seen := make([]bool, classes)
		cnt := 0
		for _, i := range perm[:n] {
			if !seen[lab[i]] {
				seen[lab[i]] = true
				cnt++
			}
		}
		if cnt == classes {
			train, test = slices.Clone(perm[:n]), slices.Clone(perm[n:])
			slices.Sort(train)
			slices.Sort(test)
			return train, test
		}
	}
}

func rows(x *mat.Dense, idx []int) *mat.Dense {
	_, p := x.Dims()
	out := mat.NewDense(len(idx), p, nil)
	for a, i := range idx {
		out.SetRow(a, x.RawRowView(i))
	}
	return out
}

func pick(lab, idx []int) []int {
	out := make([]int, len(idx))
	for a, i := range idx {
		out[a] = lab[i]
	}
	return out
}

// TestWine: one-versus-all KLR on the UCI wine data (z-scored, 30 labeled
// points, lambda by 5-fold CV). KDD'06 Table 2 reports about 92% (linear) and
// 95% (RBF) mean test accuracy at 30 labels; 85% on each of three random
// splits is a floor that a correct implementation clears with margin.
func TestWine(t *testing.T) {
	x, lab, classes := requireData(t, "wine")
	z := zscore(x)
	_, p := z.Dims()
	for seed := uint64(1); seed <= 3; seed++ {
		train, test := sampleLabeled(lab, classes, 30, seed)
		xtr, xte := rows(z, train), rows(z, test)
		ytr, yte := pick(lab, train), pick(lab, test)
		for _, form := range []string{"linear-features", "rbf-kernel"} {
			t.Run(fmt.Sprintf("split=%d/%s", seed, form), func(t *testing.T) {
				s := &Settings{Bias: true}
				var mm *Multi
				var xtest mat.Matrix
				var cv *CVResult
				var err error
				if form == "linear-features" {
					cv, err = CrossValidateFeatures(context.Background(), xtr, ytr, classes, s, &CVSettings{Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					s.Lambda = cv.Lambda
					mm, err = FitMultiFeatures(context.Background(), xtr, ytr, classes, s)
					xtest = xte
				} else {
					// Width sqrt(p): the squared distances of z-scored
					// points are about 2p on average.
					sigma := math.Sqrt(float64(p))
					k := kerneltest.RBF(xtr, xtr, sigma)
					cv, err = CrossValidateKernel(context.Background(), k, ytr, classes, s, &CVSettings{Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					s.Lambda = cv.Lambda
					mm, err = FitMultiKernel(context.Background(), k, ytr, classes, s)
					xtest = kerneltest.RBF(xte, xtr, sigma)
				}
				if err != nil {
					t.Fatal(err)
				}
				pred, err := mm.Predict(nil, xtest)
				if err != nil {
					t.Fatal(err)
				}
				correct := 0
				for i, c := range pred {
					if c == yte[i] {
						correct++
					}
				}
				acc := float64(correct) / float64(len(yte))
				t.Logf("lambda %g (CV accuracy %v), test accuracy %.3f", cv.Lambda, cv.Accuracy, acc)
				if acc < 0.85 {
					t.Errorf("test accuracy %.3f < 0.85", acc)
				}
			})
		}
	}
}

// TestCrossValidate: deterministic for a seed, the kernel form on
// K = Phi Phi^T scores exactly like the feature form, ties go to the larger
// lambda, and l = 10 labels work.
func TestCrossValidate(t *testing.T) {
	ctx := context.Background()
	x, lab := blobs(2, 12, 1.8, 4)
	k := kerneltest.Linear(x, x)
	s := &Settings{Bias: true}
	cvs := &CVSettings{Seed: 42}
	a, err := CrossValidateFeatures(ctx, x, lab, 2, s, cvs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := CrossValidateFeatures(ctx, x, lab, 2, s, cvs)
	if err != nil {
		t.Fatal(err)
	}
	if a.Lambda != b.Lambda || !slices.Equal(a.Accuracy, b.Accuracy) {
		t.Fatalf("same seed, different results: %+v vs %+v", a, b)
	}
	if !slices.Contains(DefaultGrid(), a.Lambda) || a.Folds != DefaultFolds {
		t.Errorf("result %+v: lambda not from the default grid or wrong fold count", a)
	}
	kc, err := CrossValidateKernel(ctx, k, lab, 2, s, cvs)
	if err != nil {
		t.Fatal(err)
	}
	if kc.Lambda != a.Lambda || !slices.Equal(kc.Accuracy, a.Accuracy) {
		t.Errorf("kernel form CV %+v differs from feature form %+v", kc, a)
	}
	// The winner has the best accuracy, and no larger lambda ties it.
	for i, acc := range a.Accuracy {
		if acc > a.Accuracy[slices.Index(a.Grid, a.Lambda)] || (acc == a.Accuracy[slices.Index(a.Grid, a.Lambda)] && a.Grid[i] > a.Lambda) {
			t.Errorf("lambda %g (accuracy %v) should have won over %g", a.Grid[i], acc, a.Lambda)
		}
	}

	// Well separated classes: every lambda classifies all held-out points,
	// so the tie-break must return the largest grid value.
	xs, ls := blobs(2, 8, 0.05, 5)
	grid := []float64{1e-3, 0.1, 1, 10}
	r, err := CrossValidateFeatures(ctx, xs, ls, 2, s, &CVSettings{Grid: grid, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Lambda != 10 {
		t.Errorf("all-tie grid picked %g (accuracies %v), want the largest 10", r.Lambda, r.Accuracy)
	}

	// l = 10 with an unbalanced 7/3 split: folds = min(5, 3) = 3.
	x10, _ := blobs(2, 5, 1, 6)
	l10 := []int{0, 0, 0, 0, 0, 0, 0, 1, 1, 1}
	r, err = CrossValidateKernel(ctx, kerneltest.Linear(x10, x10), l10, 2, nil, &CVSettings{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if r.Folds != 3 {
		t.Errorf("folds %d, want 3", r.Folds)
	}

	// Cancellation propagates.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := CrossValidateFeatures(cctx, x, lab, 2, s, cvs); err == nil {
		t.Error("cancelled context: no error")
	}
}

// TestStratifiedFolds: every training part holds every class, the folds
// differ in size by at most one, and the assignment depends on the seed only.
func TestStratifiedFolds(t *testing.T) {
	lab := []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2}
	for _, folds := range []int{2, 3, 5, 10} {
		f, k, err := stratifiedFolds("klr.test", slices.Clone(lab), 3, folds, 99)
		if err != nil {
			t.Fatal(err)
		}
		if k != min(folds, 3) {
			t.Errorf("folds=%d: used %d", folds, k)
		}
		size := make([]int, k)
		for _, v := range f {
			size[v]++
		}
		if slices.Max(size)-slices.Min(size) > 1 {
			t.Errorf("folds=%d: sizes %v", folds, size)
		}
		for fo := 0; fo < k; fo++ {
			seen := map[int]bool{}
			for i, v := range f {
				if v != fo {
					seen[lab[i]] = true
				}
			}
			if len(seen) != 3 {
				t.Errorf("folds=%d: training part of fold %d lacks a class", folds, fo)
			}
		}
		g, _, _ := stratifiedFolds("klr.test", slices.Clone(lab), 3, folds, 99)
		if !slices.Equal(f, g) {
			t.Errorf("folds=%d: not deterministic", folds)
		}
	}
}
