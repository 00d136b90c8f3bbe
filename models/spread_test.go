package models

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSpreadUnreached: on a graph of three cliques of duplicate rows (each
// point's nearest neighbours are its own copies), the clique without a
// label is reached by no label. Its points take the labels' most frequent
// class, here class 1, and the labels' class shares as probabilities,
// not class 0 and uniform probabilities; the labeled cliques keep their
// own class.
func TestSpreadUnreached(t *testing.T) {
	const copies = 15
	centres := [][2]float64{{0, 0}, {10, 10}, {20, 0}}
	x := mat.NewDense(3*copies, 2, nil)
	for g, c := range centres {
		for a := range copies {
			x.SetRow(g*copies+a, c[:])
		}
	}
	labeled := []int{0, 1, copies} // two labels of class 1 in clique 0, one of class 0 in clique 1
	labels := []int{1, 1, 0}
	o := Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread}
	m, err := Fit(context.Background(), x, labeled, labels, &o)
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]int, 3*copies)
	for i := range rows {
		rows[i] = i
	}
	pred, err := m.PredictRows(nil, rows)
	if err != nil {
		t.Fatal(err)
	}
	proba, err := m.ProbaRows(nil, rows)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range pred {
		want := []int{1, 0, 1}[i/copies]
		if p != want {
			t.Fatalf("row %d (clique %d) predicted %d, want %d", i, i/copies, p, want)
		}
		if i/copies == 2 {
			if got := proba.At(i, 1); math.Abs(got-2.0/3) > 1e-15 {
				t.Fatalf("unreached row %d: probability of class 1 %v, want the labels' share 2/3", i, got)
			}
		}
	}
	// Only rows without any score are filled (the rule Select's
	// cross-validation applies to each split too).
	f := mat.NewDense(2, 3, []float64{0, 0, 0, 0.1, 0, 0.2})
	if got := priorUnreached(f, []int{2, 0, 2}, 3); got != 1 ||
		!mat.Equal(f, mat.NewDense(2, 3, []float64{1.0 / 3, 0, 2.0 / 3, 0.1, 0, 0.2})) {
		t.Errorf("priorUnreached filled %d rows: %v", got, mat.Formatted(f))
	}
}
