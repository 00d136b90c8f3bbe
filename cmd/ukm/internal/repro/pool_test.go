package repro

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"ukm/dataset"
)

// TestPoolAreas pools two runs of a small learning-curve table (two seeds)
// from their JSON and checks the pooled differences against the areas
// computed from the runs' own rows; the same run twice, a JSON without
// per-trial values and runs of two tables are errors.
func TestPoolAreas(t *testing.T) {
	dir := t.TempDir()
	s, err := dataset.TwoMoons(100, 0.2, 4) // 200 points: 120 to query after the held-out third
	if err != nil {
		t.Fatal(err)
	}
	writeCSV(t, filepath.Join(dir, "moons.csv"), s.X, s.Y)
	registry["thesis-bmal-pooltest"] = bmalTable("thesis-bmal-pooltest", []string{"moons"}, true)
	defer delete(registry, "thesis-bmal-pooltest")
	var jsons [][]byte
	var want []float64 // BMAL-5k-pool/SKL minus Entropy/SKL, every trial of both runs
	for _, seed := range []uint64{1, 2} {
		res, err := Run(context.Background(), Config{Table: "thesis-bmal-pooltest", DataDir: dir, Trials: 3, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := res.JSON(&b); err != nil {
			t.Fatal(err)
		}
		jsons = append(jsons, b.Bytes())
		cs := curveSets(res)[0]
		a, e := areas(cs.methods["BMAL-5k-pool/SKL"]), areas(cs.methods["Entropy/SKL"])
		for i := range a {
			want = append(want, a[i]-e[i])
		}
	}
	pool := func(bufs ...[]byte) (string, error) {
		var files []io.Reader
		var names []string
		for i, b := range bufs {
			files = append(files, bytes.NewReader(b))
			names = append(names, fmt.Sprintf("run%d.json", i+1))
		}
		var out strings.Builder
		err := Pool(&out, files, names)
		return out.String(), err
	}
	out, err := pool(jsons...)
	if err != nil {
		t.Fatal(err)
	}
	sum := Summarize(want)
	cell := strings.Replace(fmt.Sprintf("%+.2f ± %.2f", sum.Mean, sum.StdErr), "-", "−", 1)
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| BMAL-5k-pool/SKL |") {
			line = l
		}
	}
	if !strings.Contains(line, cell) || !strings.Contains(out, "2 runs pooled (seeds 1, 2)") {
		t.Errorf("pooled table:\n%s\nwant the BMAL-5k-pool/SKL cell %q", out, cell)
	}
	if _, err := pool(jsons[0], jsons[0]); err == nil || !strings.Contains(err.Error(), "seed 1") {
		t.Errorf("the same run twice: %v", err)
	}
	old := bytes.ReplaceAll(jsons[1], []byte(`"values"`), []byte(`"old"`))
	if _, err := pool(jsons[0], old); err == nil || !strings.Contains(err.Error(), "per-trial values") {
		t.Errorf("a run without per-trial values: %v", err)
	}
	other := bytes.Replace(jsons[1], []byte(`"thesis-bmal-pooltest"`), []byte(`"thesis-bmal"`), 1)
	if _, err := pool(jsons[0], other); err == nil || !strings.Contains(err.Error(), "one table") {
		t.Errorf("runs of two tables: %v", err)
	}
	if _, err := pool([]byte("{}")); err == nil {
		t.Error("an empty JSON pooled without error")
	}
	// Loops that run out of points to query before the last round (130
	// moons: 74 left after the labels and the held-out third, for 100
	// queries) leave no complete curve.
	small := t.TempDir()
	s, err = dataset.TwoMoons(65, 0.2, 4)
	if err != nil {
		t.Fatal(err)
	}
	writeCSV(t, filepath.Join(small, "moons.csv"), s.X, s.Y)
	res, err := Run(context.Background(), Config{Table: "thesis-bmal-pooltest", DataDir: small, Trials: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.JSON(&b); err != nil {
		t.Fatal(err)
	}
	if _, err := pool(b.Bytes()); err == nil || !strings.Contains(err.Error(), "no complete") {
		t.Errorf("runs without complete curves: %v", err)
	}
}

// TestPoolHeadToHead pools two runs of the head-to-head table written by
// hand: a draw that failed in one column leaves its cell in every column,
// the best baseline is the peer of highest pooled mean, and the cell's
// difference is paired over the draws of both runs.
func TestPoolHeadToHead(t *testing.T) {
	row := func(ds string, l int, perClass bool, method string, values ...float64) string {
		if values == nil {
			return fmt.Sprintf(`{"dataset": %q, "labeled": %d, "per_class": %v, "method": %q, "mean": null, "stderr": null, "trials": 0}`, ds, l, perClass, method)
		}
		var vs []string
		for _, v := range values {
			if math.IsNaN(v) {
				vs = append(vs, "null")
			} else {
				vs = append(vs, fmt.Sprint(v))
			}
		}
		return fmt.Sprintf(`{"dataset": %q, "labeled": %d, "per_class": %v, "method": %q, "mean": 0, "stderr": 0, "trials": %d, "values": [%s]}`,
			ds, l, perClass, method, len(values), strings.Join(vs, ", "))
	}
	run := func(seed int, rows ...string) io.Reader {
		return strings.NewReader(fmt.Sprintf(`{"table": "baselines", "trials": 4, "seed": %d, "rows": [%s]}`, seed, strings.Join(rows, ", ")))
	}
	nan := math.NaN()
	runs := []io.Reader{
		run(1,
			row("ssl_usps", 10, false, "ukm(Auto)", 70, 80, nan, 75),
			row("ssl_usps", 10, false, "LogisticRegression", 60, 70, 65, 72),
			row("ssl_usps", 10, false, "SVC", 50, 50, 50, 50),
			row("ssl_usps", 10, false, "LabelSpreading"),
			row("heart", 50, true, "ukm(Auto)", 80, 81, 82, 83),
			row("heart", 50, true, "LogisticRegression", 80, 80, 80, 80),
			row("heart", 50, true, "SVC", 70, 70, 70, 70),
			row("heart", 50, true, "LabelSpreading", 60, 60, 60, 60)),
		run(2,
			row("ssl_usps", 10, false, "ukm(Auto)", 72, 74, 76, 78),
			row("ssl_usps", 10, false, "LogisticRegression", 71, 73, 75, 70),
			row("ssl_usps", 10, false, "SVC", 80, 40, 60, 60),
			row("ssl_usps", 10, false, "LabelSpreading"),
			row("heart", 50, true, "ukm(Auto)", 80, 80, 80, 79),
			row("heart", 50, true, "LogisticRegression", 80, 80, 80, 80),
			row("heart", 50, true, "SVC", 90, 90, 90, 90),
			row("heart", 50, true, "LabelSpreading", 60, 60, 60, 60)),
	}
	var out strings.Builder
	if err := Pool(&out, runs, []string{"a.json", "b.json"}); err != nil {
		t.Fatal(err)
	}
	// ssl_usps: the third draw of seed 1 is left out; LR's pooled mean
	// (70.1) beats SVC's (55.7).
	ours := []float64{70, 80, 75, 72, 74, 76, 78}
	lr := []float64{60, 70, 72, 71, 73, 75, 70}
	// heart at 50 per class: SVC (80.0) ties LR (80.0) and LR, listed
	// first, stays the best.
	for _, c := range []struct {
		prefix   string
		ours, bl []float64
		best     string
	}{
		{"| ssl_usps | 10 |", ours, lr, "LogisticRegression"},
		{"| heart | 50/class |", []float64{80, 81, 82, 83, 80, 80, 80, 79}, []float64{80, 80, 80, 80, 80, 80, 80, 80}, "LogisticRegression"},
	} {
		d := make([]float64, len(c.ours))
		for i := range d {
			d[i] = c.ours[i] - c.bl[i]
		}
		s := Summarize(d)
		want := fmt.Sprintf("%s %.1f | %.1f (%s) | %+.1f ± %.1f |", c.prefix, Summarize(c.ours).Mean, Summarize(c.bl).Mean, c.best, s.Mean, s.StdErr)
		if !strings.Contains(out.String(), want) {
			t.Errorf("pooled table:\n%s\nwant the line %q", out.String(), want)
		}
	}
	for _, want := range []string{"2 runs pooled (seeds 1, 2)", "within one standard error in every cell: 2 of 2 cells — met", "Each run alone (seeds 1, 2): within one standard error 2 of 2, 1 of 2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("pooled table:\n%s\nwant %q", out.String(), want)
		}
	}
	if err := Pool(&out, []io.Reader{strings.NewReader(`{"table": "kdd06-table2", "seed": 1, "rows": [` + row("heart", 10, false, "RBF", 50, 60) + `]}`)}, []string{"k.json"}); err == nil || !strings.Contains(err.Error(), "do not pool") {
		t.Errorf("a run of kdd06-table2: %v", err)
	}
}
