package repro

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/models"
	"ukm/models/active"
)

// errInjected is the error of the failing methods below.
var errInjected = errors.New("injected failure")

// failingTable is a two-column table on data set "moons" whose column
// "fails" errs on the trials failOn lists (by the trial's position among
// its cell's trials) and whose column "ok" scores each draw by its first
// labeled index, so that a dropped draw shows in the mean.
func failingTable(failOn map[int]bool) *Table {
	return &Table{
		Name:     "failing-test",
		Datasets: []string{"moons"},
		Sizes:    []int{10, 20},
		Methods: func(*models.Options) []Method {
			calls := map[int]int{}
			return []Method{
				{Name: "ok", Run: func(_ context.Context, _ *Data, labeled []int, _ uint64) (Trial, error) {
					return Trial{Accuracy: float64(labeled[0])}, nil
				}},
				{Name: "fails", Run: func(_ context.Context, _ *Data, labeled []int, _ uint64) (Trial, error) {
					t := calls[len(labeled)]
					calls[len(labeled)]++
					if failOn[t] {
						return Trial{}, fmt.Errorf("trial %d: %w", t, errInjected)
					}
					return Trial{Accuracy: 50}, nil
				}},
			}
		},
	}
}

func moonsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	s, err := dataset.TwoMoons(60, 0.2, 4)
	if err != nil {
		t.Fatal(err)
	}
	writeCSV(t, filepath.Join(dir, "moons.csv"), s.X, s.Y)
	return dir
}

// TestRunKeepsGoing: a method that fails on some draws costs those draws,
// in every column of their cells, and nothing else; the failures are
// listed, and a cancelled run still stops.
func TestRunKeepsGoing(t *testing.T) {
	dir := moonsDir(t)
	const trials = 5
	for _, tc := range []struct {
		name   string
		failOn map[int]bool
	}{
		{"none", nil},
		{"one", map[int]bool{1: true}},
		{"two", map[int]bool{0: true, 4: true}},
		{"all", map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			registry["failing-test"] = failingTable(tc.failOn)
			defer delete(registry, "failing-test")
			var seen []Failure
			cfg := Config{Table: "failing-test", DataDir: dir, Trials: trials, Seed: 3, OnFailure: func(f Failure) { seen = append(seen, f) }}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			// The same run without the failing column gives each draw's
			// score, to compare the kept draws with.
			registry["failing-test"] = failingTable(nil)
			all, err := Run(context.Background(), Config{Table: "failing-test", DataDir: dir, Trials: trials, Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			nf := len(tc.failOn)
			if want := 2 * nf; len(res.Failures) != want || len(seen) != want {
				t.Fatalf("%d failures listed, %d reported, want %d", len(res.Failures), len(seen), want)
			}
			for _, f := range res.Failures {
				if !errors.Is(f.Err, errInjected) || !tc.failOn[f.Trial] || f.Method != "fails" {
					t.Errorf("failure %s: not one of those injected", f)
				}
			}
			for i, row := range res.Rows {
				if row.Failed != nf || row.Summary.N != trials-nf || len(row.acc) != trials-nf {
					t.Errorf("%s l=%d: Failed %d, N %d, %d scores; want %d, %d", row.Method, row.Labeled, row.Failed, row.Summary.N, len(row.acc), nf, trials-nf)
				}
				if row.Method != "ok" {
					continue
				}
				var kept []float64
				for tr, a := range all.Rows[i].acc {
					if !tc.failOn[tr] {
						kept = append(kept, a)
					}
				}
				if fmt.Sprint(kept) != fmt.Sprint(row.acc) {
					t.Errorf("l=%d: the kept draws scored %v, want %v", row.Labeled, row.acc, kept)
				}
			}
			var b strings.Builder
			if err := res.Markdown(&b); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(b.String(), "failed"); got != (nf > 0) {
				t.Errorf("the markdown mentions failures: %v, want %v", got, nf > 0)
			}
			if nf == trials {
				for _, row := range res.Rows {
					if !math.IsNaN(row.Summary.Mean) {
						t.Errorf("%s: mean %v over no draws", row.Method, row.Summary.Mean)
					}
				}
			}
			b.Reset()
			if err := res.JSON(&b); err != nil {
				t.Fatalf("JSON: %v", err)
			}
		})
	}

	registry["failing-test"] = failingTable(map[int]bool{1: true})
	defer delete(registry, "failing-test")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, Config{Table: "failing-test", DataDir: dir, Trials: trials}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled run: %v, want context.Canceled", err)
	}
}

// failingSelector errs on its round-th call.
type failingSelector struct {
	calls *int
	round int
}

func (s failingSelector) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	*s.calls++
	if *s.calls == s.round {
		return nil, errInjected
	}
	return active.Entropy{}.Select(dst, probs, k)
}

// TestBMALFailedLoop: a learning curve whose loop fails leaves its trial
// out of every row of the table, and the other trials' rows stay paired.
func TestBMALFailedLoop(t *testing.T) {
	dir := moonsDir(t)
	seeds := map[uint64]int{}
	tab := bmalTable("bmal-failing-test", []string{"moons"}, false)
	tab.Methods = func(base *models.Options) []Method {
		return []Method{
			bmalMethod("Entropy/RBF", base, false, false, func(uint64) active.Selector { return active.Entropy{} }),
			bmalMethod("Fails/RBF", base, false, false, func(seed uint64) active.Selector {
				seeds[seed]++
				var calls int
				if len(seeds) == 2 {
					// The second trial fails in its third round.
					return failingSelector{calls: &calls, round: 3}
				}
				return active.Entropy{}
			}),
		}
	}
	registry[tab.Name] = tab
	defer delete(registry, tab.Name)
	res, err := Run(context.Background(), Config{Table: tab.Name, DataDir: dir, Trials: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) != bmalRounds+1 {
		t.Errorf("%d failures, want one per row (%d)", len(res.Failures), bmalRounds+1)
	}
	for _, row := range res.Rows {
		if row.Failed != 1 || len(row.acc) != 2 {
			t.Errorf("%s l=%d: %d failed, %d scores; want 1, 2", row.Method, row.Labeled, row.Failed, len(row.acc))
		}
	}
	// The two columns select alike on the trials that ran, so their
	// curves agree.
	for _, cs := range curveSets(res) {
		a, b := areas(cs.methods["Entropy/RBF"]), areas(cs.methods["Fails/RBF"])
		if len(a) != 2 || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("areas %v and %v, want two equal", a, b)
		}
	}
}

// TestRunParallel: data sets run at once give the rows, failures and
// draws of the sequential run, in the same order; a data set that cannot
// load stops the run with its own error.
func TestRunParallel(t *testing.T) {
	dir := t.TempDir()
	sets := []string{"m1", "m2", "m3"}
	for i, name := range sets {
		s, err := dataset.TwoMoons(40+10*i, 0.2, uint64(i+1))
		if err != nil {
			t.Fatal(err)
		}
		writeCSV(t, filepath.Join(dir, name+".csv"), s.X, s.Y)
	}
	tab := failingTable(map[int]bool{2: true})
	tab.Name, tab.Datasets = "parallel-test", sets
	registry[tab.Name] = tab
	defer delete(registry, tab.Name)
	run := func(parallel int) (*Result, string) {
		t.Helper()
		var draws strings.Builder
		res, err := Run(context.Background(), Config{Table: tab.Name, DataDir: dir, Trials: 4, Seed: 5, Parallel: parallel, Draws: &draws})
		if err != nil {
			t.Fatalf("parallel %d: %v", parallel, err)
		}
		return res, draws.String()
	}
	seq, seqDraws := run(1)
	for _, p := range []int{2, 3, 8} {
		res, draws := run(p)
		if draws != seqDraws {
			t.Errorf("parallel %d: the draws differ from the sequential run's", p)
		}
		if len(res.Rows) != len(seq.Rows) || len(res.Failures) != len(seq.Failures) {
			t.Fatalf("parallel %d: %d rows, %d failures; want %d, %d", p, len(res.Rows), len(res.Failures), len(seq.Rows), len(seq.Failures))
		}
		for i, r := range res.Rows {
			s := seq.Rows[i]
			if r.Dataset != s.Dataset || r.Labeled != s.Labeled || r.Method != s.Method || fmt.Sprint(r.acc) != fmt.Sprint(s.acc) {
				t.Errorf("parallel %d, row %d: %s/%d/%s %v, want %s/%d/%s %v", p, i, r.Dataset, r.Labeled, r.Method, r.acc, s.Dataset, s.Labeled, s.Method, s.acc)
			}
		}
		for i, f := range res.Failures {
			if f.String() != seq.Failures[i].String() {
				t.Errorf("parallel %d, failure %d: %s, want %s", p, i, f, seq.Failures[i])
			}
		}
	}
	tab.Datasets = []string{"m1", "missing", "m3"}
	if _, err := Run(context.Background(), Config{Table: tab.Name, DataDir: dir, Trials: 2, Parallel: 3}); err == nil || errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "missing") {
		t.Errorf("a data set that cannot load: %v, want its own error", err)
	}
}

// TestClaimsOnSubsets: every table's claim and markdown take a result that
// holds only some of its columns (a run with -methods) without failing.
func TestClaimsOnSubsets(t *testing.T) {
	for _, name := range Tables() {
		tab := registry[name]
		all, err := tableMethods(tab, Config{})
		if err != nil {
			t.Fatal(err)
		}
		subsets := [][]Method{all, nil}
		for _, m := range all {
			subsets = append(subsets, []Method{m})
		}
		for _, ms := range subsets {
			res := &Result{Table: tab, Methods: ms}
			for _, ds := range tab.Datasets {
				for si, l := range append(append([]int{}, tab.Sizes...), tab.PerClassSizes...) {
					group := make([]*Row, len(ms))
					for mi, m := range ms {
						group[mi] = &Row{Dataset: ds, Labeled: l, PerClass: tab.PerClass || si >= len(tab.Sizes), Method: m.Name, NA: m.NA}
						for tr := range 4 {
							group[mi].acc = append(group[mi].acc, float64(50+mi+si+tr%2))
						}
					}
					finishGroup(group, make([]bool, 4))
					res.Rows = append(res.Rows, group...)
				}
			}
			func() {
				defer func() {
					if e := recover(); e != nil {
						t.Errorf("%s with %d of %d columns: %v", name, len(ms), len(all), e)
					}
				}()
				if err := res.Markdown(io.Discard); err != nil {
					t.Errorf("%s with %d of %d columns: %v", name, len(ms), len(all), err)
				}
			}()
		}
	}
}
