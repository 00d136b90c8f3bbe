package models_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/robust"
	"ukm/linalg"
	"ukm/models"
)

// FuzzFit runs the whole pipeline (scaling, kernel or graph, eigenpairs,
// design, classifier) on small data sets built from the bytes — n <= 30
// points in p <= 5 dimensions on a grid of 1/4 (duplicate rows, constant
// columns and ties are likely), 2 to n labeled points, one or several
// classes, every kernel, design and classifier, the exact or the large-n
// path, d and the decay from the bytes, model selection (Auto) now and
// then — and checks the contract: an error wraps linalg.ErrInvalid (the
// input's fault) or one of the outcome errors (linalg.ErrIterationLimit,
// ErrStalled, ErrNumerical, ErrInfeasible, ErrUnbounded), never a panic; a
// model predicts one of the labels' classes for every row, with
// probabilities that are finite and sum to 1, and the same predictions
// after a save and a load, on the training rows and on new points.
func FuzzFit(f *testing.F) {
	f.Add([]byte{20, 2, 6, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{30, 4, 10, 3, 1, 2, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{8, 1, 2, 1, 5, 1, 64, 64, 64})
	f.Add([]byte{25, 3, 4, 2, 9, 0, 129, 127, 130, 126, 1})
	f.Add([]byte{16, 2, 16, 3, 12, 1, 5, 9, 33, 1})
	f.Fuzz(func(t *testing.T, data []byte) { fitContract(t, data) })
}

// fitContract is FuzzFit's check of one input; it reports whether a model
// was fitted.
func fitContract(t *testing.T, data []byte) bool {
	if len(data) < 7 {
		return false
	}
	n := 3 + int(data[0])%28
	p := 1 + int(data[1])%5
	l := 2 + int(data[2])%(n-1)
	kind := models.KernelKind(data[3] % 4)
	design := models.DesignKind(data[4] % 10) // SKL … LabelSpreading
	if data[4] >= 240 {
		design = models.Auto // selection: 90 candidates, so rarely
	}
	classifier := models.ClassifierKind(data[5] % 3)
	bs := robust.NewBytes(data[6:])
	next := bs.Next
	x := bs.Grid(n, p)
	// Mostly valid labels (distinct points, every class present), so
	// that most inputs reach the solvers; one class, or a repeated
	// point, now and then.
	classes := 2 + int(next())%2
	if next()%16 == 0 {
		classes = 1
	}
	labeled := bs.Perm(n)[:l]
	if next()%16 == 0 && l > 1 {
		labeled[1] = labeled[0]
	}
	labels := make([]int, l)
	for a := range labels {
		labels[a] = a % classes
		if a >= classes {
			labels[a] = int(next()) % classes
		}
	}
	// Mostly valid settings too: the decay only for the designs that use
	// it, label spreading on the whole graph as its options require, d up
	// to n (beyond it now and then).
	opt := &models.Options{
		Kernel:     models.KernelSpec{Kind: kind},
		Design:     design,
		Classifier: classifier,
		D:          int(next()) % (n + 1),
		Bias:       classifier == models.KLR && next()%2 == 1,
		GraphK:     int(next()) % 8,
		Seed:       uint64(len(data)),
	}
	if next()%16 == 0 {
		opt.D = n + 1
	}
	if next()%4 == 0 {
		// the large-n path on small data: Nyström landmarks, the
		// approximate kNN graph, the Chebyshev solver
		opt.Large = models.LargeOn
		opt.Landmarks = int(next()) % (n + 2)
	}
	if design == models.SKL || design == models.MM {
		// (and with the Spread classifier below, which ignores it: an error)
		opt.Decay = 1 + float64(next()%9)/4
	}
	if classifier == models.Spread {
		opt.Kernel.Kind, opt.Design, opt.D = models.KNN, models.LabelSpreading, 0
	}
	m, err := models.Fit(context.Background(), x, labeled, labels, opt)
	if err != nil {
		// the package's vocabulary: the input's fault, or an outcome
		if !errors.Is(err, linalg.ErrInvalid) && !linalg.IsOutcome(err) {
			t.Fatalf("Fit: an error of no kind of the vocabulary: %v", err)
		}
		return false
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	pred, err := m.PredictRows(nil, all)
	if err != nil {
		t.Fatalf("PredictRows after a successful fit: %v", err)
	}
	seen := map[int]bool{}
	for _, c := range labels {
		seen[c] = true
	}
	for i, c := range pred {
		if !seen[c] {
			t.Fatalf("row %d predicted as class %d, which no label has (labels %v)", i, c, labels)
		}
	}
	// A saved and loaded model predicts the same, bit for bit, on the
	// training rows and on new points (the rows moved by a quarter,
	// where the design has an out-of-sample extension).
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	m2, err := models.ReadModel(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("ReadModel of a model just saved: %v", err)
	}
	if pred2, err := m2.PredictRows(nil, all); err != nil || !slices.Equal(pred, pred2) {
		t.Fatalf("the loaded model predicts %v (%v), the fitted one %v", pred2, err, pred)
	}
	xn := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			xn.Set(i, j, x.At(i, j)+float64(int(next())%3-1)/4)
		}
	}
	out, err := m.Predict(nil, xn)
	if errors.Is(err, models.ErrNoOutOfSample) {
		if _, err2 := m2.Predict(nil, xn); !errors.Is(err2, models.ErrNoOutOfSample) {
			t.Fatalf("the loaded model: %v, the fitted one: %v", err2, err)
		}
	} else if err != nil {
		// a new point the kernel cannot place (one that scales to the
		// origin under a cosine-normalised linear kernel) is the input's
		// fault, and the loaded model says so too
		if !errors.Is(err, linalg.ErrInvalid) {
			t.Fatalf("Predict on new points: an error of no kind of the vocabulary: %v", err)
		}
		if _, err2 := m2.Predict(nil, xn); err2 == nil || err2.Error() != err.Error() {
			t.Fatalf("the loaded model: %v, the fitted one: %v", err2, err)
		}
	} else {
		for i, c := range out {
			if !seen[c] {
				t.Fatalf("new point %d predicted as class %d, which no label has", i, c)
			}
		}
		if out2, err := m2.Predict(nil, xn); err != nil || !slices.Equal(out, out2) {
			t.Fatalf("on new points the loaded model predicts %v (%v), the fitted one %v", out2, err, out)
		}
	}
	proba, err := m.ProbaRows(nil, all)
	if errors.Is(err, models.ErrNoProbability) && (classifier == models.SVM || design == models.Auto) {
		return true // documented: an SVM (given, or selected) has no probabilities
	}
	if err != nil {
		t.Fatalf("ProbaRows after a successful fit: %v", err)
	}
	r, c := proba.Dims()
	for i := 0; i < r; i++ {
		s := 0.0
		for j := 0; j < c; j++ {
			v := proba.At(i, j)
			if math.IsNaN(v) || v < 0 || v > 1 {
				t.Fatalf("row %d: probability %v", i, v)
			}
			s += v
		}
		if math.Abs(s-1) > 1e-9 {
			t.Fatalf("row %d: probabilities sum to %v", i, s)
		}
	}
	return true
}
