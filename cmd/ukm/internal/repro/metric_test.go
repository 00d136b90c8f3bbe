package repro

import (
	"context"
	"strings"
	"testing"
)

func TestMetricTableData(t *testing.T) {
	tab, err := Lookup(metricTableName)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name          string
		n, p, classes int
	}{
		{"norm", 100, 11, 2},
		{"chessboard", 100, 2, 2},
		{"double-spiral", 100, 3, 2},
		{"iris", 150, 4, 3},
	} {
		d, err := tab.load(t.TempDir(), tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		n, p := d.X.Dims()
		if n != tc.n || p != tc.p || d.Classes != tc.classes || len(d.Y) != n {
			t.Errorf("%s: %dx%d with %d classes, want %dx%d with %d", tc.name, n, p, d.Classes, tc.n, tc.p, tc.classes)
		}
	}
}

// A small run of the table on a generated set: every column runs, the
// claims are written, and the same seed gives the same numbers.
func TestMetricTableRuns(t *testing.T) {
	cfg := Config{Table: metricTableName, DataDir: t.TempDir(), Trials: 2, Seed: 3,
		Datasets: []string{"double-spiral"}, Sizes: []int{20}}
	a, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Rows) != 8 {
		t.Fatalf("%d rows, want 8 columns", len(a.Rows))
	}
	for i, r := range a.Rows {
		if r.Summary.Mean < 40 || r.Summary.Mean > 100 {
			t.Errorf("%s: accuracy %v", r.Method, r.Summary.Mean)
		}
		if r.Summary.Mean != b.Rows[i].Summary.Mean {
			t.Errorf("%s: %v then %v with the same seed", r.Method, r.Summary.Mean, b.Rows[i].Summary.Mean)
		}
	}
	var sb strings.Builder
	if err := a.Markdown(&sb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sb.String(), "KDCA far above") {
		t.Error("claims missing from the markdown")
	}
}
