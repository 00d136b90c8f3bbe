package repro

import (
	"context"
	"fmt"
	"strings"

	"ukm/models"
)

// The candidates' oracle, a diagnostic beside the head-to-head table: every
// default candidate of models.Select is fitted with its fixed settings on
// the same labeled sets as "baselines" and scored on the unlabeled points.
// A losing cell then shows whether the candidate set holds a model at the
// best baseline's level (and the choice made from few labels is what
// loses) or not. Choosing a column of this table uses the test accuracy,
// which no method can.

func init() {
	bt := registry["baselines"]
	registry["baselines-oracle"] = &Table{
		Name: "baselines-oracle",
		Title: "Diagnostic: every default candidate of model selection with its fixed settings, on the labeled sets " +
			"of the head-to-head table, beside ukm(Auto) and the baselines; accuracy (%)",
		Datasets:      bt.Datasets,
		Sizes:         bt.Sizes,
		PerClassSizes: bt.PerClassSizes,
		PeerMethods:   bt.PeerMethods,
		Methods: func(base *models.Options) []Method {
			ms := []Method{candidatesMethod("ukm(Auto)", base, nil)}
			for _, c := range models.DefaultCandidates(selectBase(base)) {
				ms = append(ms, fixedCandidate(c, base))
			}
			return ms
		},
		Claim: oracleClaim,
	}
}

// fixedCandidate fits one candidate as it is (a selection over a list of
// one, which reuses the data set's bases across trials).
func fixedCandidate(c models.Candidate, base *models.Options) Method {
	one := func(*models.Options) []models.Candidate { return []models.Candidate{c} }
	return Method{Name: c.Name, Run: func(ctx context.Context, d *Data, labeled []int, seed uint64) (Trial, error) {
		m, err := selectOn(ctx, d, labeled, base, one)
		t, err := score(m, err, d, labeled)
		t.Chosen = "" // nothing was chosen
		return t, err
	}}
}

// oracleClaim lists, per cell, the best baseline, ukm(Auto), the default
// candidate (the first) and the best fixed candidate, with the number of
// candidates at or above the best baseline.
func oracleClaim(r *Result) string {
	cells, order := byCell(r.Rows)
	isPeer := map[string]bool{}
	for _, p := range r.Table.PeerMethods {
		isPeer[p] = true
	}
	var b strings.Builder
	b.WriteString("| set | l | best baseline | ukm(Auto) | default candidate | best fixed candidate | candidates at or above the best baseline |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, k := range order {
		var peer, auto, def, best *Row
		var cands []*Row
		for _, row := range cells[k] {
			switch {
			case row.NA:
			case isPeer[row.Method]:
				if peer == nil || row.Summary.Mean > peer.Summary.Mean {
					peer = row
				}
			case row.Method == "ukm(Auto)":
				auto = row
			default:
				if def == nil {
					def = row
				}
				cands = append(cands, row)
				if best == nil || row.Summary.Mean > best.Summary.Mean {
					best = row
				}
			}
		}
		if auto == nil || best == nil {
			continue
		}
		lab := fmt.Sprint(k.l)
		if k.perClass {
			lab += "/class"
		}
		peerCell, count := "n/a", "n/a"
		if peer != nil {
			peerCell = fmt.Sprintf("%.1f (%s)", peer.Summary.Mean, peer.Method)
			n := 0
			for _, c := range cands {
				if c.Summary.Mean >= peer.Summary.Mean {
					n++
				}
			}
			count = fmt.Sprintf("%d of %d", n, len(cands))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.1f | %.1f | %.1f (%s) | %s |\n", k.ds, lab, peerCell,
			auto.Summary.Mean, def.Summary.Mean, best.Summary.Mean, best.Method, count)
	}
	return b.String()
}
