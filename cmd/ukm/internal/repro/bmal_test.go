package repro

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/models"
	"ukm/models/active"
)

func TestMinorityF1(t *testing.T) {
	truth := []int{0, 0, 0, 1, 1, 1, 1, 1}
	idx := []int{0, 1, 2, 3, 4, 5, 6, 7}
	for _, tc := range []struct {
		name string
		pred []int
		want float64
	}{
		{"perfect", []int{0, 0, 0, 1, 1, 1, 1, 1}, 100},
		{"none predicted", []int{1, 1, 1, 1, 1, 1, 1, 1}, 0},
		{"all predicted", []int{0, 0, 0, 0, 0, 0, 0, 0}, 100 * 2 * 3.0 / (2*3 + 5)},
		{"one miss, one false alarm", []int{0, 0, 1, 0, 1, 1, 1, 1}, 100 * 2 * 2.0 / (2*2 + 1 + 1)},
	} {
		if got := minorityF1(tc.pred, idx, truth, 0); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: F1 %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestAreas(t *testing.T) {
	mk := func(l int, acc ...float64) *Row { return &Row{Labeled: l, acc: acc} }
	for _, tc := range []struct {
		name string
		rows []*Row
		want []float64
	}{
		{"flat", []*Row{mk(20, 50, 60), mk(30, 50, 60), mk(40, 50, 60)}, []float64{50, 60}},
		{"linear rise", []*Row{mk(20, 0), mk(30, 10), mk(40, 20)}, []float64{10}},
		{"uneven steps", []*Row{mk(0, 0), mk(10, 10), mk(40, 10)}, []float64{(50 + 300) / 40.0}},
		{"one row", []*Row{mk(20, 1)}, nil},
		{"ragged trials", []*Row{mk(20, 1, 2), mk(30, 1)}, nil},
	} {
		got := areas(tc.rows)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: areas %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRecordedPredictions: the predictions read from the probabilities the
// recording selector keeps are the loop's own (its accuracy per round).
func TestRecordedPredictions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		classes int
		learned bool
	}{{"binary/SKL", 2, true}, {"binary/RBF", 2, false}, {"three classes/SKL", 3, true}} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := dataset.Blobs(150, 3, tc.classes, 5)
			if err != nil {
				t.Fatal(err)
			}
			lab := []int{}
			for c := range tc.classes {
				for i, y := range s.Y {
					if y == c && len(lab) < 2*(c+1) {
						lab = append(lab, i)
					}
				}
			}
			o := models.Options{Seed: 2}
			lo := models.UKLR(o, 20, 10)
			if !tc.learned {
				lo = models.KLRActive(o, 20, 10)
			}
			rec := &recordingSelector{inner: active.Fisher{}}
			lo.Selector, lo.Truth = rec, s.Y
			_, rounds, err := models.Loop(context.Background(), s.X, lab, labelsOf(s.Y, lab), activeTruth(s.Y), lo)
			if err != nil {
				t.Fatal(err)
			}
			taken := append([]int(nil), lab...)
			for r, p := range rec.probs {
				u := complement(len(s.Y), taken)
				if got, want := accuracy(argmaxRows(p), u, s.Y), 100*rounds[r].Accuracy; math.Abs(got-want) > 1e-9 {
					t.Errorf("round %d: accuracy from the recorded probabilities %v, the loop's %v", r, got, want)
				}
				taken = append(taken, rounds[r].Queried...)
			}
			if len(rec.probs) != 2 || len(rec.elapsed) != 2 {
				t.Errorf("%d rounds recorded, want 2", len(rec.probs))
			}
		})
	}
}

// TestBMALTable runs the learning-curve table on a small synthetic set
// (two trials) and checks its shape: a row per number of labels, the same
// start for every selector of a kernel, a claim section with the areas.
func TestBMALTable(t *testing.T) {
	dir := t.TempDir()
	s, err := dataset.TwoMoons(60, 0.2, 4)
	if err != nil {
		t.Fatal(err)
	}
	writeCSV(t, filepath.Join(dir, "moons.csv"), s.X, s.Y)
	registry["bmal-test"] = bmalTable("bmal-test", []string{"moons"}, false)
	defer delete(registry, "bmal-test")
	res, err := Run(context.Background(), Config{Table: "bmal-test", DataDir: dir, Trials: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := (bmalRounds + 1) * len(bmalSelectors) * len(bmalKernels); len(res.Rows) != want {
		t.Fatalf("%d rows, want %d", len(res.Rows), want)
	}
	start := map[string][]float64{}
	for _, row := range res.Rows {
		if row.Labeled != bmalInitial {
			continue
		}
		k := kernelOf(row.Method)
		if prev, ok := start[k]; ok && fmt.Sprint(prev) != fmt.Sprint(row.acc) {
			t.Errorf("%s starts at %v, another selector of its kernel at %v", row.Method, row.acc, prev)
		}
		start[k] = row.acc
	}
	var b strings.Builder
	if err := res.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| 120 |", "Area under the learning curve", "BMAL against Margin", "| moons |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the markdown lacks %q", want)
		}
	}
	// A run restricted to later rows cannot read curves it never ran.
	registry["bmal-test"] = bmalTable("bmal-test", []string{"moons"}, false)
	if _, err := Run(context.Background(), Config{Table: "bmal-test", DataDir: dir, Trials: 1, Sizes: []int{30}}); err == nil {
		t.Error("a run without the first row gave no error")
	}
}

func writeCSV(t *testing.T, path string, x *mat.Dense, y []int) {
	t.Helper()
	var b strings.Builder
	_, p := x.Dims()
	b.WriteString("label")
	for j := range p {
		fmt.Fprintf(&b, ",f%d", j+1)
	}
	b.WriteString("\n")
	for i, yi := range y {
		fmt.Fprint(&b, yi)
		for _, v := range x.RawRowView(i) {
			fmt.Fprintf(&b, ",%v", v)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBMALSharedBasis: the columns of one trial, run with the trial's
// shared basis, give the learning curves that each gives run alone, and
// every column's round 0 carries the basis's cost.
func TestBMALSharedBasis(t *testing.T) {
	s, err := dataset.TwoMoons(60, 0.2, 4)
	if err != nil {
		t.Fatal(err)
	}
	d := &Data{X: s.X, Y: s.Y, Classes: 2}
	labeled := []int{0, 1, 2, 3, 60, 61, 62, 63}
	base := &models.Options{}
	const seed = 7
	bases := &bmalBases{}
	for _, learned := range []bool{true, false} {
		for _, sel := range bmalSelectors {
			alone, err := bmalRun(context.Background(), d, labeled, seed, base, learned, false, sel.make(seed), nil)
			if err != nil {
				t.Fatal(err)
			}
			shared, err := bmalRun(context.Background(), d, labeled, seed, base, learned, false, sel.make(seed), bases.forTrial(seed))
			if err != nil {
				t.Fatal(err)
			}
			bases.account(&shared.times[0])
			if fmt.Sprint(shared.metric) != fmt.Sprint(alone.metric) {
				t.Errorf("%s (learned %v): curve %v with the shared basis, %v alone", sel.name, learned, shared.metric, alone.metric)
			}
			if shared.times[0].Kernel == 0 || shared.times[0].Eig == 0 {
				t.Errorf("%s (learned %v): round 0 times %+v lack the basis's cost", sel.name, learned, shared.times[0])
			}
		}
	}
}

// TestBMALHoldout: the held-out points are a third of the points outside
// the labeled set, the same for a seed; every column of a trial starts from
// the same score on them, and an imbalanced binary set is scored by F1 on
// them (the loop's predictions there).
func TestBMALHoldout(t *testing.T) {
	labeled := []int{0, 1, 2, 3, 60, 61, 62, 63}
	held := bmalHoldout(120, labeled, 5)
	if len(held) != (120-len(labeled))/3 || !slices.IsSorted(held) {
		t.Fatalf("held-out points %v: want %d, ascending", held, (120-len(labeled))/3)
	}
	for a, i := range held {
		if slices.Contains(labeled, i) || (a > 0 && held[a-1] == i) {
			t.Fatalf("held-out point %d is labeled or repeated", i)
		}
	}
	if again := bmalHoldout(120, labeled, 5); !slices.Equal(again, held) {
		t.Errorf("the same seed held out %v, then %v", held, again)
	}
	if other := bmalHoldout(120, labeled, 6); slices.Equal(other, held) {
		t.Errorf("seeds 5 and 6 held out the same points")
	}
	s, err := dataset.TwoMoons(100, 0.2, 4)
	if err != nil {
		t.Fatal(err)
	}
	// The moons with every other point of class 1 dropped: imbalanced
	// (a third of the points in class 1), scored by F1.
	var keep []int
	for i, y := range s.Y {
		if y == 0 || i%2 == 1 {
			keep = append(keep, i)
		}
	}
	x := mat.NewDense(len(keep), 2, nil)
	y := make([]int, len(keep))
	for a, i := range keep {
		x.SetRow(a, s.X.RawRowView(i))
		y[a] = s.Y[i]
	}
	for _, tc := range []struct {
		name string
		d    *Data
	}{{"balanced", &Data{X: s.X, Y: s.Y, Classes: 2}}, {"imbalanced", &Data{X: x, Y: y, Classes: 2}}} {
		t.Run(tc.name, func(t *testing.T) {
			var lab []int
			for c := range 2 {
				for i, yi := range tc.d.Y {
					if yi == c && len(lab) < 4*(c+1) {
						lab = append(lab, i)
					}
				}
			}
			var start []float64
			for _, sel := range bmalSelectors {
				c, err := bmalRun(context.Background(), tc.d, lab, 7, &models.Options{}, true, true, sel.make(7), nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(c.metric) != bmalRounds+1 {
					t.Fatalf("%s: %d rounds", sel.name, len(c.metric))
				}
				start = append(start, c.metric[0])
			}
			for _, v := range start[1:] {
				if v != start[0] {
					t.Errorf("round 0 on the held-out points: %v, not the same for every selector", start)
				}
			}
			// Round 0 is the model of the initial labels: its score on
			// the held-out points, recomputed from a plain fit.
			o := models.Options{Seed: 7, Kernel: models.KernelSpec{Kind: models.RBF}, Design: models.SKL}
			m, err := models.Fit(context.Background(), tc.d.X, lab, labelsOf(tc.d.Y, lab), &o)
			if err != nil {
				t.Fatal(err)
			}
			held := bmalHoldout(len(tc.d.Y), lab, 7)
			pred, err := m.PredictRows(nil, held)
			if err != nil {
				t.Fatal(err)
			}
			want := accuracy(pred, held, tc.d.Y)
			if isImbalanced(tc.d) {
				want = minorityF1(pred, held, tc.d.Y, minorityClass(tc.d))
			}
			if math.Abs(start[0]-want) > 1e-9 {
				t.Errorf("round 0 scores %v on the held-out points, a plain fit %v", start[0], want)
			}
		})
	}
	if isImbalanced(&Data{Y: y, Classes: 2}) != true {
		t.Errorf("the imbalanced set is not scored by F1")
	}
}
