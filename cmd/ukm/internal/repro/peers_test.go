package repro

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"ukm/models"
)

// peersTable is a one-column table on data set "moons" with the peer
// column "Peer".
func peersTable() *Table {
	return &Table{
		Name:        "peers-test",
		Datasets:    []string{"moons"},
		Sizes:       []int{10, 20},
		PeerMethods: []string{"Peer"},
		Methods: func(*models.Options) []Method {
			return []Method{{Name: "ok", Run: func(context.Context, *Data, []int, uint64) (Trial, error) {
				return Trial{Accuracy: 50}, nil
			}}}
		},
	}
}

// moonsN is the number of points of moonsDir's data set (60 per moon).
const moonsN = 120

// TestPeersRoundTrip: the draws a table exports, answered by peer lines
// as bench/peers/baselines.py writes them, give the peer column its
// accuracies and sum its unreached counts per cell, which the markdown
// reports; malformed peer lines are errors that name the line.
func TestPeersRoundTrip(t *testing.T) {
	dir := moonsDir(t)
	registry["peers-test"] = peersTable()
	defer delete(registry, "peers-test")
	const trials = 3
	var draws bytes.Buffer
	if _, err := Run(context.Background(), Config{Table: "peers-test", DataDir: dir, Trials: trials, Seed: 5, Draws: &draws, DrawsOnly: true}); err != nil {
		t.Fatal(err)
	}
	// The peer's answer to draw d: accuracy 60 + trial, unreached 2 + trial
	// at l = 10 (one right per draw) and none at l = 20.
	var peers bytes.Buffer
	sc := bufio.NewScanner(&draws)
	lines := 0
	for sc.Scan() {
		var d Draw
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		un, right := 0, 0
		if d.Labeled == 10 {
			un, right = 2+d.Trial, 1
		}
		fmt.Fprintf(&peers, `{"dataset": %q, "labeled": %d, "per_class": false, "trial": %d, "method": "Peer", "accuracy": %d, "unreached": %d, "unreached_correct": %d}`+"\n",
			d.Dataset, d.Labeled, d.Trial, 60+d.Trial, un, right)
		lines++
	}
	if lines != 2*trials {
		t.Fatalf("%d draws exported, want %d", lines, 2*trials)
	}
	p, err := LoadPeers(&peers)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Table: "peers-test", DataDir: dir, Trials: trials, Seed: 5, Peers: p})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Rows {
		if row.Method != "Peer" {
			continue
		}
		wantUn, wantRight := 0, 0
		if row.Labeled == 10 {
			wantUn, wantRight = 2+3+4, trials
		}
		if row.Summary.Mean != 61 || row.Unreached != wantUn || row.UnreachedCorrect != wantRight || row.Unlabeled != trials*(moonsN-row.Labeled) {
			t.Errorf("l=%d: mean %v, unreached %d (%d right) of %d; want 61, %d (%d) of %d",
				row.Labeled, row.Summary.Mean, row.Unreached, row.UnreachedCorrect, row.Unlabeled, wantUn, wantRight, trials*(moonsN-row.Labeled))
		}
	}
	var b strings.Builder
	if err := res.Markdown(&b); err != nil {
		t.Fatal(err)
	}
	// 9 of 330 unlabeled points at l = 10, 3 of them right.
	if want := "Peer never reached (scores all zero when it stopped; labeled the first class): 3% at l = 10 (33% of them right) of the unlabeled points."; !strings.Contains(b.String(), want) {
		t.Errorf("the markdown lacks %q:\n%s", want, b.String())
	}

	// The JSON carries the counts too.
	b.Reset()
	if err := res.JSON(&b); err != nil {
		t.Fatal(err)
	}
	var js struct {
		Rows []struct {
			Method           string
			Labeled          int
			Unreached        int
			UnreachedCorrect int `json:"unreached_correct"`
			Unlabeled        int
		}
	}
	if err := json.Unmarshal([]byte(b.String()), &js); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range js.Rows {
		if r.Method == "Peer" && r.Labeled == 10 {
			found = r.Unreached == 9 && r.UnreachedCorrect == 3 && r.Unlabeled == trials*(moonsN-10)
		}
	}
	if !found {
		t.Errorf("the JSON lacks the peer's unreached counts at l = 10: %+v", js.Rows)
	}

	for _, tc := range []struct{ name, line, want string }{
		{"failed", `{"dataset": "moons", "method": "Peer", "accuracy": null, "error": "ValueError: one class"}`, "line 1: Peer on moons failed: ValueError: one class"},
		{"right above unreached", `{"dataset": "moons", "method": "Peer", "accuracy": 50, "unreached": 1, "unreached_correct": 2}`, "line 1: unreached 1, unreached_correct 2"},
		{"negative", `{"dataset": "moons", "method": "Peer", "accuracy": 50, "unreached": -1}`, "line 1: unreached -1"},
		{"not JSON", `{"dataset": `, "peers line 1"},
	} {
		if _, err := LoadPeers(strings.NewReader(tc.line)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
