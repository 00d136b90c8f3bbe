package repro

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"ukm/dataset"
)

func TestSampleLabeled(t *testing.T) {
	y := make([]int, 100)
	y[7], y[50] = 1, 2 // two rare classes
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		idx, err := SampleLabeled(rng, y, 3, 60)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		cls := map[int]bool{}
		for _, i := range idx {
			if seen[i] {
				t.Fatalf("index %d repeated", i)
			}
			seen[i] = true
			cls[y[i]] = true
		}
		if len(idx) != 60 || len(cls) != 3 {
			t.Fatalf("got %d indices covering %d classes", len(idx), len(cls))
		}
	}
	for _, tc := range []struct{ classes, l int }{{3, 2}, {3, 101}, {4, 10}} {
		if _, err := SampleLabeled(rng, y, tc.classes, tc.l); err == nil {
			t.Errorf("classes=%d l=%d: no error", tc.classes, tc.l)
		}
	}
}

func TestSummarizeAndT(t *testing.T) {
	s := Summarize([]float64{1, 2, 3, 4})
	// mean 2.5, sample sd sqrt(5/3), se = sd/2.
	if s.Mean != 2.5 || math.Abs(s.StdErr-math.Sqrt(5.0/3)/2) > 1e-15 || s.N != 4 {
		t.Errorf("summary %+v", s)
	}
	// Differences 1,2,3,4,5: mean 3, se sqrt(2.5/5) -> t = 3/sqrt(0.5) = 4.2426
	// with 4 degrees of freedom: two-sided p = 0.01324 (standard t table).
	p, err := PairedT([]float64{2, 4, 6, 8, 10}, []float64{1, 2, 3, 4, 5})
	if err != nil || math.Abs(p-0.013236) > 1e-5 {
		t.Errorf("p = %v, %v", p, err)
	}
	if p, _ := PairedT([]float64{1, 2}, []float64{1, 2}); p != 1 {
		t.Errorf("identical samples: p = %v", p)
	}
	if _, err := PairedT([]float64{1}, []float64{1}); err == nil {
		t.Error("one trial accepted")
	}
	if _, err := PairedT([]float64{1, 2}, []float64{1}); err == nil {
		t.Error("length mismatch accepted")
	}
}

func TestSubsetDrawsSameLabeledSets(t *testing.T) {
	dir, err := dataset.Dir()
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	run := func(datasets []string) *Row {
		res, err := Run(context.Background(), Config{Table: "kdd06-table2", DataDir: dir, Trials: 2, Seed: 3,
			Datasets: datasets, Sizes: []int{10}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res.Rows {
			if r.Dataset == "wine" && r.Method == "SKL(RBF)" {
				return r
			}
		}
		t.Fatal("no wine SKL(RBF) row")
		return nil
	}
	// The wine cell must not depend on which other data sets run with it.
	a, b := run([]string{"wine"}), run([]string{"heart", "wine"})
	for i := range a.acc {
		if a.acc[i] != b.acc[i] {
			t.Fatalf("trial %d: %v alone, %v with heart", i, a.acc[i], b.acc[i])
		}
	}
}

func TestSampleStratified(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	y := []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 0, 1}
	for trial := 0; trial < 20; trial++ {
		idx, err := SampleStratified(rng, y, 3, 3)
		if err != nil {
			t.Fatal(err)
		}
		count := make([]int, 3)
		seen := map[int]bool{}
		for _, i := range idx {
			if seen[i] {
				t.Fatalf("index %d drawn twice", i)
			}
			seen[i] = true
			count[y[i]]++
		}
		if count[0] != 3 || count[1] != 3 || count[2] != 3 {
			t.Fatalf("counts %v, want 3 per class", count)
		}
	}
	for _, tc := range []struct{ classes, per int }{{3, 4}, {3, 0}, {2, 1}} {
		if _, err := SampleStratified(rng, y, tc.classes, tc.per); err == nil {
			t.Errorf("classes=%d per=%d accepted", tc.classes, tc.per)
		}
	}
}
