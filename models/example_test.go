package models_test

import (
	"context"
	"fmt"
	"log"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/linalg"
	"ukm/models"
	"ukm/models/active"
)

// Two rings of 100 points each, two labels per ring: the learned spectral
// kernel follows the rings better than the initial RBF kernel.
func ExampleFit() {
	s, err := dataset.TwoCircles(100, 0.1, 1)
	if err != nil {
		log.Fatal(err)
	}
	labeled := []int{0, 1, 100, 101}
	labels := []int{s.Y[0], s.Y[1], s.Y[100], s.Y[101]}
	var unlabeled []int
	for i := 4; i < 200; i++ {
		if i != 100 && i != 101 {
			unlabeled = append(unlabeled, i)
		}
	}
	for _, opt := range []models.Options{
		{Design: models.Standard, Lambda: 0.1},
		// Decay 1: the ring indicator is not a leading eigenvector of
		// the median-width RBF kernel, so no decay is imposed.
		{Design: models.SKL, Decay: 1, Lambda: 0.1},
	} {
		design := opt.Design
		m, err := models.Fit(context.Background(), s.X, labeled, labels, &opt)
		if err != nil {
			log.Fatal(err)
		}
		pred, err := m.PredictRows(nil, unlabeled)
		if err != nil {
			log.Fatal(err)
		}
		right := 0
		for a, i := range unlabeled {
			if pred[a] == s.Y[i] {
				right++
			}
		}
		fmt.Printf("%-8s accuracy %.2f\n", design, float64(right)/float64(len(unlabeled)))
	}
	// Output:
	// Standard accuracy 0.76
	// SKL      accuracy 0.83
}

// UKLR (KDD'06 Fig. 6): re-learn the kernel, refit KLR, query the most
// uncertain point, until the budget is spent.
func ExampleLoop() {
	s, err := dataset.TwoCircles(100, 0.1, 2)
	if err != nil {
		log.Fatal(err)
	}
	labeled := []int{0, 100}
	labels := []int{s.Y[0], s.Y[100]}
	opt := models.UKLR(models.Options{Decay: 1, Lambda: 0.1}, 3, 1)
	opt.Truth = s.Y // only for reporting accuracy
	_, rounds, err := models.Loop(context.Background(), s.X, labeled, labels, active.GroundTruth(s.Y), opt)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rounds {
		fmt.Printf("round %d: %d labels, accuracy %.2f, queried %d points\n", r.Index, r.Labeled, r.Accuracy, len(r.Queried))
	}
	// Output:
	// round 0: 2 labels, accuracy 0.51, queried 1 points
	// round 1: 3 labels, accuracy 0.79, queried 1 points
	// round 2: 4 labels, accuracy 0.87, queried 1 points
	// round 3: 5 labels, accuracy 0.92, queried 0 points
}

// Several selectors compared from one labeled set: a BasisCache lets the
// loops after the first reuse its kernel's eigenpairs.
func ExampleBasisCache() {
	s, err := dataset.TwoCircles(100, 0.1, 2)
	if err != nil {
		log.Fatal(err)
	}
	labeled := []int{0, 100}
	labels := []int{s.Y[0], s.Y[100]}
	cache := &models.BasisCache{}
	for _, sel := range []struct {
		name string
		s    active.Selector
	}{{"entropy", active.Entropy{}}, {"k-centers", active.KCenter{}}} {
		opt := models.UKLR(models.Options{Decay: 1, Lambda: 0.1}, 4, 2)
		opt.Selector, opt.Cache, opt.Truth = sel.s, cache, s.Y
		_, rounds, err := models.Loop(context.Background(), s.X, labeled, labels, active.GroundTruth(s.Y), opt)
		if err != nil {
			log.Fatal(err)
		}
		last := rounds[len(rounds)-1]
		fmt.Printf("%s: accuracy %.2f with %d labels; eigenpairs computed: %v\n", sel.name, last.Accuracy, last.Labeled, rounds[0].Times.Eig > 0)
	}
	// Output:
	// entropy: accuracy 0.95 with 6 labels; eigenpairs computed: true
	// k-centers: accuracy 0.78 with 6 labels; eigenpairs computed: false
}

// New points are classified through the Nyström extension of the
// eigenvectors.
func ExampleModel_Predict() {
	s, err := dataset.TwoCircles(100, 0.1, 1)
	if err != nil {
		log.Fatal(err)
	}
	labeled := []int{0, 1, 2, 3, 4, 100, 101, 102, 103, 104}
	labels := make([]int, len(labeled))
	for a, i := range labeled {
		labels[a] = s.Y[i]
	}
	m, err := models.Fit(context.Background(), s.X, labeled, labels, &models.Options{Decay: 1, Lambda: 0.1})
	if err != nil {
		log.Fatal(err)
	}
	// Points on the inner ring (radius 1) and on the outer ring (radius 2).
	xnew := mat.NewDense(4, 2, []float64{1, 0, 0, -1, 2, 0, 0, -2})
	pred, err := m.Predict(nil, xnew)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(pred)
	// Output:
	// [0 0 1 1]
}

// One label per row, as scikit-learn's semi-supervised estimators take
// them: the class names come back in the predictions.
func ExampleFitLabels() {
	s, err := dataset.TwoCircles(50, 0.05, 1)
	if err != nil {
		log.Fatal(err)
	}
	y := make([]string, 100) // models.Unlabeled everywhere
	for _, i := range []int{0, 1, 50, 51} {
		y[i] = []string{"inner", "outer"}[s.Y[i]]
	}
	m, err := models.FitLabels(context.Background(), s.X, y, &models.Options{Decay: 1, Lambda: 0.1})
	if err != nil {
		log.Fatal(err)
	}
	// Two new points: one on each ring (radii 1 and 2).
	x := mat.NewDense(2, 2, []float64{1, 0, 0, -2})
	names, err := m.PredictLabels(x)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.ClassNames(), names)
	// Output:
	// [inner outer] [inner outer]
}

// Images of 8 x 8 pixels, each of one bar, vertical or horizontal, at
// some place, with its own contrast and background; five labeled images of
// each orientation. Among the pixels, images of like background are close
// whatever their bar's orientation, and some are misjoined; among the
// images' histograms of oriented gradients (GraphFeatures; one 8-pixel
// cell: the orientations of the whole image) only the orientation counts.
func ExampleOptions_graphFeatures() {
	const n, side = 200, 8
	x := mat.NewDense(n, side*side, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = i % 2
		at := (i * 5) % side
		contrast, background := 0.2+float64(i*37%100)/33, float64(i*53%100)/100
		for r := 0; r < side; r++ {
			for c := 0; c < side; c++ {
				v := background
				if (y[i] == 0 && c == at) || (y[i] == 1 && r == at) {
					v += contrast
				}
				x.Set(i, r*side+c, v)
			}
		}
	}
	labeled := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	labels := y[:10]
	for _, c := range []struct {
		name string
		hog  *linalg.HOG
	}{{"pixels", nil}, {"HOG descriptors", &linalg.HOG{Cell: side}}} {
		m, err := models.Fit(context.Background(), x, labeled, labels, &models.Options{
			Kernel: models.KernelSpec{Kind: models.KNN}, Design: models.LabelSpreading, D: 10,
			Scale: models.NoScaling, GraphFeatures: c.hog, Seed: 1,
		})
		if err != nil {
			log.Fatal(err)
		}
		rows := make([]int, n-10)
		for i := range rows {
			rows[i] = i + 10
		}
		acc, err := m.ScoreRows(rows, y[10:])
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("graph among %s: %.0f%% of the unlabeled bars right\n", c.name, 100*acc)
	}
	// Output:
	// graph among pixels: 89% of the unlabeled bars right
	// graph among HOG descriptors: 100% of the unlabeled bars right
}

// Select on two moons with 12 labels: cross-validation on the labeled
// points chooses a candidate, and the candidates that the scores cannot
// tell from it vote with it (VoteAuto with the default candidates).
func ExampleSelect() {
	s, err := dataset.TwoMoons(100, 0.15, 2)
	if err != nil {
		log.Fatal(err)
	}
	var labeled, labels, unlabeled, truth []int
	for i, y := range s.Y {
		if i%100 < 6 {
			labeled, labels = append(labeled, i), append(labels, y)
		} else {
			unlabeled, truth = append(unlabeled, i), append(truth, y)
		}
	}
	m, err := models.Select(context.Background(), s.X, labeled, labels, &models.SelectOptions{Base: models.Options{Seed: 1}})
	if err != nil {
		log.Fatal(err)
	}
	sel := m.Selection()
	best := sel.Best()
	fmt.Printf("%s cross-validation chose %s (%.2f)\n", sel.Rule, best.Name, best.Accuracy)
	if len(sel.Voters) > 0 {
		first := sel.Scores[sel.Voters[0]]
		fmt.Printf("votes with %d others, the first %s (%.2f)\n", len(sel.Voters), first.Name, first.Accuracy)
	}
	acc, err := m.ScoreRows(unlabeled, truth)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("accuracy on the unlabeled points %.2f\n", acc)
	// Output:
	// stratified 6-fold cross-validation chose kNN(k=10)/Spread(alpha=0.99) (1.00)
	// votes with 8 others, the first kNN(k=5)/Spread(alpha=0.9) (1.00)
	// accuracy on the unlabeled points 0.86
}
