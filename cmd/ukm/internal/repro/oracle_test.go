package repro

import (
	"strings"
	"testing"
)

// TestOracleClaim checks the digest of the candidates' oracle on
// constructed rows: the best baseline, the default (the first candidate),
// the best fixed candidate and the count at or above the baseline, per
// cell; a cell without peers says n/a.
func TestOracleClaim(t *testing.T) {
	tab := registry["baselines-oracle"]
	if tab == nil {
		t.Fatal("baselines-oracle is not registered")
	}
	row := func(ds string, l int, method string, mean float64) *Row {
		return &Row{Dataset: ds, Labeled: l, Method: method, Summary: Summary{Mean: mean}}
	}
	r := &Result{Table: tab, Rows: []*Row{
		row("a", 10, "ukm(Auto)", 70), row("a", 10, "first", 60), row("a", 10, "second", 80), row("a", 10, "third", 75),
		row("a", 10, "LogisticRegression", 72), row("a", 10, "SVC", 74), {Dataset: "a", Labeled: 10, Method: "LabelSpreading", NA: true},
		row("b", 20, "ukm(Auto)", 50), row("b", 20, "first", 55),
	}}
	got := oracleClaim(r)
	for _, want := range []string{
		"| a | 10 | 74.0 (SVC) | 70.0 | 60.0 | 80.0 (second) | 2 of 3 |",
		"| b | 20 | n/a | 50.0 | 55.0 | 55.0 (first) | n/a |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("digest lacks %q:\n%s", want, got)
		}
	}
}
