package models

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// bars returns n 8 x 8 images of one bar each, vertical (class 0) or
// horizontal (class 1), at a random position, with random brightness,
// contrast and noise: in pixel space an image is closest to bars at its
// own position, whatever their orientation; its edges tell the class.
func bars(n int, seed uint64) (*mat.Dense, []int) {
	const side = 8
	rng := rand.New(rand.NewPCG(seed, 3))
	x := mat.NewDense(n, side*side, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = i % 2
		at := 1 + rng.IntN(side-2)
		a, b := 0.2+3*rng.Float64(), rng.Float64()
		row := x.RawRowView(i)
		for r := 0; r < side; r++ {
			for c := 0; c < side; c++ {
				v := 0.0
				if (y[i] == 0 && c == at) || (y[i] == 1 && r == at) {
					v = 1
				}
				row[r*side+c] = a*(v+0.05*rng.NormFloat64()) + b
			}
		}
	}
	return x, y
}

// TestGraphFeatures fits the kNN basis on HOG descriptors and on pixels:
// the descriptors separate the orientations, the pixels do not; a saved
// model predicts new images bit-identically.
func TestGraphFeatures(t *testing.T) {
	ctx := context.Background()
	x, y := bars(300, 1)
	lab, ys, unl := pickLabeled(y, 10, 1)
	acc := map[bool]float64{}
	var hogModel *Model
	for _, hog := range []bool{false, true} {
		o := &Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 10, Scale: NoScaling, Seed: 1}
		if hog {
			o.GraphFeatures = &linalg.HOG{Cell: 8} // one cell: the orientations, wherever they are
		}
		m, err := Fit(ctx, x, lab, ys, o)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.PredictRows(nil, unl)
		if err != nil {
			t.Fatal(err)
		}
		acc[hog] = accuracy(p, unl, y)
		if hog {
			hogModel = m
		}
	}
	t.Logf("accuracy: %.3f on HOG descriptors, %.3f on pixels", acc[true], acc[false])
	if acc[true] < 0.95 || acc[true] < acc[false]+0.2 {
		t.Errorf("accuracy %.3f on HOG descriptors, %.3f on pixels: want at least 0.95 and 0.2 above", acc[true], acc[false])
	}
	// New images: described, joined to the graph, predicted; the same after a round trip.
	xnew, ynew := bars(40, 2)
	p1, err := hogModel.Predict(nil, xnew)
	if err != nil {
		t.Fatal(err)
	}
	if a := accuracy(p1, seq(40), ynew); a < 0.9 {
		t.Errorf("accuracy %.3f on new images", a)
	}
	roundTrip := func(name string, m *Model) {
		t.Helper()
		p1, err := m.Predict(nil, xnew)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := m.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		got, err := ReadModel(&buf)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p2, err := got.Predict(nil, xnew)
		if err != nil || !slices.Equal(p1, p2) {
			t.Errorf("%s: after the round trip: %v (%v), before: %v", name, p2, err, p1)
		}
	}
	roundTrip("descriptors", hogModel)
	// Descriptors projected onto principal components (fitted on a sample).
	proj, err := Fit(ctx, x, lab, ys, &Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, D: 10, Scale: NoScaling,
		GraphFeatures: &linalg.HOG{Cell: 8}, GraphDims: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := proj.PredictRows(nil, unl); accuracy(p, unl, y) < 0.95 {
		t.Errorf("projected descriptors: accuracy %.3f", accuracy(p, unl, y))
	}
	roundTrip("projected descriptors", proj)
}

// seq returns 0, 1, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// TestGraphFeaturesErrors checks the settings Fit refuses with
// GraphFeatures, and that Select hands them to its kNN candidates.
func TestGraphFeaturesErrors(t *testing.T) {
	ctx := context.Background()
	x, y := bars(60, 3)
	lab, ys, _ := pickLabeled(y, 5, 1)
	knn := KernelSpec{Kind: KNN}
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"scaled", Options{Kernel: knn, Design: LabelSpreading, D: 5, GraphFeatures: &linalg.HOG{}}},
		{"no graph", Options{Scale: NoScaling, GraphFeatures: &linalg.HOG{}}},
		{"not square", Options{Kernel: knn, Design: LabelSpreading, D: 5, Scale: NoScaling, GraphFeatures: &linalg.HOG{Width: 4, Height: 4}}},
		{"cell too large", Options{Kernel: knn, Design: LabelSpreading, D: 5, Scale: NoScaling, GraphFeatures: &linalg.HOG{Cell: 9}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Fit(ctx, x, lab, ys, &c.o); !errors.Is(err, linalg.ErrSettings) {
				t.Fatalf("error %v, want ErrSettings", err)
			}
		})
	}
	// A cancelled fit stops with the context's error.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	o := Options{Kernel: knn, Design: LabelSpreading, D: 5, Scale: NoScaling, GraphFeatures: &linalg.HOG{}}
	if _, err := Fit(cctx, x, lab, ys, &o); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	h := &linalg.HOG{}
	base := Options{Scale: NoScaling, GraphFeatures: h}
	for _, c := range DefaultCandidates(&base) {
		o := c.Options
		onGraph := o.Kernel.Kind == KNN || o.Classifier == Spread || o.Design.graph()
		if (o.GraphFeatures != nil) != onGraph {
			t.Errorf("%s: GraphFeatures %v", c.Name, o.GraphFeatures)
		}
	}
	base.Design = Auto
	auto, err := Fit(ctx, x, lab, ys, &base)
	if err != nil {
		t.Fatalf("Auto with GraphFeatures: %v", err)
	}
	if *h != (linalg.HOG{}) {
		t.Errorf("Fit changed the caller's HOG settings: %+v", *h)
	}
	// The selected model saves its resolved HOG settings and reads back.
	var buf bytes.Buffer
	if _, err := auto.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadModel(&buf); err != nil {
		t.Fatalf("reading a model selected with GraphFeatures (%s): %v", auto.Selection().Best().Name, err)
	}
	// Settings every kNN candidate would fail on are an error of Select,
	// not skipped candidates.
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"scaled", Options{GraphFeatures: &linalg.HOG{}}},
		{"not square", Options{Scale: NoScaling, GraphFeatures: &linalg.HOG{Width: 4, Height: 4}}},
	} {
		if _, err := Select(ctx, x, lab, ys, &SelectOptions{Base: c.o}); !errors.Is(err, linalg.ErrSettings) {
			t.Errorf("Select, %s: error %v, want ErrSettings", c.name, err)
		}
	}
}

// TestNearest checks the new points' neighbour search, which stops summing
// a distance once it exceeds the k-th kept one, against the plain sort of
// all distances: the same neighbours in the same order with the same
// distances, for widths below, at and above the 8-wide step, with ties.
func TestNearest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, p := range []int{3, 8, 13, 50} {
		x := mat.NewDense(300, p, nil)
		for i := 0; i < 300; i++ {
			for j := 0; j < p; j++ {
				x.Set(i, j, float64(rng.IntN(4))) // coarse values: many ties
			}
		}
		q := make([]float64, p)
		for j := range q {
			q[j] = float64(rng.IntN(4))
		}
		const k = 7
		nb, nd := make([]int, k), make([]float64, k)
		nearest(x, q, nb, nd)
		type cand struct {
			d float64
			j int
		}
		all := make([]cand, 300)
		for j := range all {
			var s float64
			for t := 0; t < p; t++ {
				e := x.At(j, t) - q[t]
				s += e * e
			}
			all[j] = cand{s, j}
		}
		slices.SortStableFunc(all, func(a, b cand) int { return cmp.Compare(a.d, b.d) })
		for a := 0; a < k; a++ {
			if nb[a] != all[a].j || nd[a] != all[a].d {
				t.Fatalf("p = %d: neighbour %d is %d at %v, want %d at %v", p, a, nb[a], nd[a], all[a].j, all[a].d)
			}
		}
	}
}
