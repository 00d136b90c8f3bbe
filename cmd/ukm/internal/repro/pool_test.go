package repro

import (
	"bytes"
	"context"
	"fmt"
	"io"
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
		err := PoolAreas(&out, files, names)
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
