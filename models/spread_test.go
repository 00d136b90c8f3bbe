package models

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
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

// TestSpreadCopyGroups: on data in copies (categorical levels) the Spread
// graph has copy groups, and summing them group by group gives the scores
// of the plain iteration to rounding; rows whose lists differ in one point
// are not grouped.
func TestSpreadCopyGroups(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(21, 22))
	x := mat.NewDense(n, 3, nil)
	for i := 0; i < n; i++ {
		x.SetRow(i, []float64{float64(rng.IntN(3)), float64(rng.IntN(2)), float64(rng.IntN(3))})
	}
	labeled := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	labels := []int{0, 1, 0, 1, 0, 1, 2, 2, 0, 1}
	for _, k := range []int{5, 40} { // closed groups; with 40, lists reach other rows
		o := Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread, GraphK: k}
		m, err := Fit(context.Background(), x, labeled, labels, &o)
		if err != nil {
			t.Fatal(err)
		}
		g := m.pr.graph
		if len(g.copies.groups) < 5 {
			t.Fatalf("k=%d: %d copy groups, want one per level combination of several rows", k, len(g.copies.groups))
		}
		plain, err := spreadScores(context.Background(), g.s, nil, 0.99, labeled, labels, 3)
		if err != nil {
			t.Fatal(err)
		}
		fast, err := spreadScores(context.Background(), g.s, g.copies, 0.99, labeled, labels, 3)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			for c := 0; c < 3; c++ {
				a, b := plain.At(i, c), fast.At(i, c)
				if math.Abs(a-b) > 1e-12*math.Max(math.Abs(a), 1e-300) {
					t.Fatalf("k=%d row %d class %d: %v grouped, %v plain", k, i, c, b, a)
				}
			}
		}
	}
	// Open groups: rows that list the same points but not each other
	// (each row i >= 3 lists rows 0, 1 and 2), and one row listing another
	// point is left out.
	s := &linalg.CSR{Rows: 8, Cols: 8, RowPtr: []int{0, 1, 2, 3, 6, 9, 12, 15, 18}}
	s.ColIdx = []int{1, 2, 0, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 3}
	s.Val = make([]float64, len(s.ColIdx))
	scale := []float64{0.5, 0.5, 0.5, 1, 1, 1, 1, 1}
	for i := 0; i < 8; i++ {
		for e := s.RowPtr[i]; e < s.RowPtr[i+1]; e++ {
			s.Val[e] = scale[i] * scale[s.ColIdx[e]]
		}
	}
	got := copyGroups(s, scale)
	if len(got.groups) != 1 || got.groups[0].closed || !slices.Equal(got.groups[0].members, []int{3, 4, 5, 6}) {
		t.Fatalf("groups %+v, want the open group of rows 3-6", got.groups)
	}
	lab, ys := []int{0, 7}, []int{0, 1}
	plain, _ := spreadScores(context.Background(), s, nil, 0.9, lab, ys, 2)
	fast, _ := spreadScores(context.Background(), s, got, 0.9, lab, ys, 2)
	if !mat.EqualApprox(plain, fast, 1e-14) {
		t.Fatalf("open group: %v grouped, %v plain", mat.Formatted(fast), mat.Formatted(plain))
	}
}

// TestSpreadEachSplit: cross-validating label spreading by summing the
// spread indicators of single labeled points gives each split the scores
// of spreading its training labels directly (to the series' stopping
// accuracy, 1e-4 of a row's largest score per step at alpha = 0.99:
// within 1e-2 of it) and the same held-out predictions, on three
// overlapping classes with leave-one-out and with 3 folds.
func TestSpreadEachSplit(t *testing.T) {
	const n, l = 240, 18
	rng := rand.New(rand.NewPCG(31, 32))
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		c := float64(i % 3)
		x.SetRow(i, []float64{c + rng.NormFloat64(), c*c/2 + rng.NormFloat64()})
	}
	labeled := make([]int, l)
	labels := make([]int, l)
	for a := range labeled {
		labeled[a] = 7 * a
		labels[a] = labeled[a] % 3
	}
	o := Options{Kernel: KernelSpec{Kind: KNN}, Design: LabelSpreading, Classifier: Spread}
	m, err := Fit(context.Background(), x, labeled, labels, &o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, k := range []int{l, 3} {
		fold := make([]int, l)
		for a := range fold {
			fold[a] = a % k
		}
		cv := &cvData{labeled: labeled, labels: labels, classes: 3, fold: fold, k: k}
		splits := cv.splits()
		each, err := cv.spreadEach(ctx, m.pr, &m.pr.opt)
		if err != nil {
			t.Fatal(err)
		}
		var sum *mat.Dense
		for f, s := range splits {
			direct, err := spreadScores(ctx, m.pr.graph.s, m.pr.graph.copies, m.pr.opt.spreadAlpha(), s.trainIdx, s.y, len(s.kept))
			if err != nil {
				t.Fatal(err)
			}
			sum = sumByClass(sum, each, s)
			for i := 0; i < n; i++ {
				top := slices.Max(direct.RawRowView(i))
				for c := range s.kept {
					a, b := direct.At(i, c), sum.At(i, c)
					if math.Abs(a-b) > 1e-2*top {
						t.Fatalf("k=%d split %d row %d class %d: %v summed, %v direct", k, f, i, c, b, a)
					}
				}
			}
		}
		var right [2][][]bool
		var p [2][][]float64
		for w, e := range []*mat.Dense{nil, each} {
			right[w] = [][]bool{make([]bool, l)}
			p[w] = [][]float64{make([]float64, l)}
			if err := cv.scoreSpreadSplits(ctx, m.pr, &m.pr.opt, splits, e, []variant{{}}, right[w], p[w]); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(right[0][0], right[1][0]) {
			t.Errorf("k=%d: held-out hits %v summed, %v direct", k, right[1][0], right[0][0])
		}
		for a := range p[0][0] {
			if math.Abs(p[0][0][a]-p[1][0][a]) > 1e-2 {
				t.Errorf("k=%d: held-out point %d: true-class probability %v summed, %v direct", k, a, p[1][0][a], p[0][0][a])
			}
		}
	}
}
