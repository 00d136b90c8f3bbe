package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestActiveCommand: with every selector, the learning curve has one line
// per round, the labeled count growing by the batch; flags that contradict
// each other are errors.
func TestActiveCommand(t *testing.T) {
	dir := dataDir(t)
	base := []string{"active", "-data", dir + "/wine.csv", "-labels", "6", "-budget", "4", "-batch", "2", "-quiet"}
	for _, extra := range [][]string{
		nil,
		{"-select", "entropy"},
		{"-select", "margin"},
		{"-select", "random"},
		{"-select", "fisher"},
		{"-select", "fisher", "-shortlist", "3"},
		{"-select", "fisher", "-shortlist", "3", "-shortlist-pool"},
		{"-select", "kcenter", "-strategy", "klr-active"},
		{"-holdout", "0.3"},
	} {
		t.Run(strings.Join(extra, " "), func(t *testing.T) {
			out, _, err := runCmd(t, append(slices.Clone(base), extra...)...)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if lines[0] != "round,labeled,accuracy,max_entropy,alignment,queried" || len(lines) != 4 {
				t.Fatalf("active output:\n%s", out)
			}
			for r, l := range lines[1:] {
				if f := strings.Split(l, ","); f[1] != strconv.Itoa(6+2*r) {
					t.Errorf("round %d fitted on %s labels, want %d", r, f[1], 6+2*r)
				}
			}
		})
	}
	for _, bad := range [][]string{
		{"-select", "bogus"},
		{"-shortlist", "2"},
		{"-select", "fisher", "-shortlist", "-1"},
		{"-select", "fisher", "-shortlist-pool"},
		{"-select", "fisher", "-strategy", "klr-rand"},
		{"-holdout", "1"},
		{"-holdout", "-0.1"},
		{"-holdout", "NaN"},
	} {
		if _, _, err := runCmd(t, append(slices.Clone(base), bad...)...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// TestActiveHoldout: with -holdout the accuracy of every round is measured
// on the held-out rows (0.34 of the 172 rows not labeled at the start: 58
// rows), so it is a multiple of 1/58; the held-out rows are outside the
// labeled ones, and none for a fraction 0.
func TestActiveHoldout(t *testing.T) {
	dir := dataDir(t)
	out, _, err := runCmd(t, "active", "-data", dir+"/wine.csv", "-labels", "6", "-budget", "6", "-batch", "3", "-holdout", "0.34", "-format", "json", "-quiet")
	if err != nil {
		t.Fatal(err)
	}
	var pts []curvePoint
	if err := json.Unmarshal([]byte(out), &pts); err != nil {
		t.Fatal(err)
	}
	if len(pts) != 3 {
		t.Fatalf("%d rounds, want 3", len(pts))
	}
	for _, p := range pts {
		if p.Accuracy == nil {
			t.Fatalf("round %d: no accuracy", p.Round)
		}
		if k := *p.Accuracy * 58; math.Abs(k-math.Round(k)) > 1e-9 {
			t.Errorf("round %d: accuracy %v is not a multiple of 1/58", p.Round, *p.Accuracy)
		}
	}
	labeled := []int{0, 5, 9}
	held := holdoutRows(20, labeled, 0.5, 3)
	if len(held) != 8 || !slices.IsSorted(held) {
		t.Fatalf("held-out rows %v: want 8, ascending", held)
	}
	for _, i := range held {
		if slices.Contains(labeled, i) {
			t.Errorf("held-out row %d is labeled", i)
		}
	}
	if held := holdoutRows(20, labeled, 0, 3); held != nil {
		t.Errorf("a fraction 0 held out %v", held)
	}
}

// TestActiveLabelsEveryRow: a budget that labels every row leaves the last
// round nothing to score; its accuracy is an empty CSV field and a JSON
// null, never a number, and the rounds before it keep theirs.
func TestActiveLabelsEveryRow(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("label,x,y\n")
	for i := range 8 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i/4, i, i%3)
	}
	path := filepath.Join(dir, "tiny.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"active", "-data", path, "-labels", "4", "-budget", "4", "-batch", "2", "-kernel", "linear", "-quiet"}
	out, _, err := runCmd(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("active output:\n%s", out)
	}
	for r, l := range lines[1:] {
		acc := strings.Split(l, ",")[2]
		if last := r == 2; last != (acc == "") {
			t.Errorf("round %d (of 3): accuracy field %q", r, acc)
		}
	}
	out, _, err = runCmd(t, append(args, "-format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	// -labels 1 with two classes keeps a row of each, and says so.
	if _, errOut, err := runCmd(t, "active", "-data", path, "-labels", "1", "-budget", "2", "-kernel", "linear", "-quiet"); err != nil || !strings.Contains(errOut, "kept 2 labeled rows, not 1") {
		t.Errorf("-labels 1: %v, stderr %q", err, errOut)
	}
	var pts []curvePoint
	if err := json.Unmarshal([]byte(out), &pts); err != nil {
		t.Fatal(err)
	}
	if len(pts) != 3 || pts[2].Accuracy != nil || pts[0].Accuracy == nil {
		t.Errorf("JSON curve %s", out)
	}
}
