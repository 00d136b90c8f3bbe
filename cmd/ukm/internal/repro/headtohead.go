package repro

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// The head-to-head table's targets: ours at least the best baseline within
// one standard error in every cell, significantly above it in at least
// half, and 2 points above it on average on the manifold sets. They are
// read on one run (baselinesClaim) or on several runs' draws pooled
// (poolHeadToHead).

// h2hCounts are the figures the targets are read on.
type h2hCounts struct {
	cells, within, above int
	manifold             []float64 // ours − best in the manifold sets' cells
}

// cellKey names one cell of the table: a data set at a labeled size.
type cellKey struct {
	ds       string
	l        int
	perClass bool
}

// byCell groups rows by their cell, the cells in the order they first
// appear.
func byCell(rows []*Row) (map[cellKey][]*Row, []cellKey) {
	cells := map[cellKey][]*Row{}
	var order []cellKey
	for _, row := range rows {
		k := cellKey{row.Dataset, row.Labeled, row.PerClass}
		if cells[k] == nil {
			order = append(order, k)
		}
		cells[k] = append(cells[k], row)
	}
	return cells, order
}

// headToHead compares ukm(Auto) with the best baseline of every cell (the
// peer of highest mean), paired over the cell's draws, writes one table
// line per cell to w (nil: none) and returns the counts.
func headToHead(r *Result, w io.Writer) h2hCounts {
	cells, order := byCell(r.Rows)
	var c h2hCounts
	if w != nil {
		fmt.Fprint(w, "| set | l | ours | best baseline | ours − best (paired, ± s.e.) | p |\n|---|---|---|---|---|---|\n")
	}
	for _, k := range order {
		method := func(name string) *Row {
			if i := slices.IndexFunc(cells[k], func(r *Row) bool { return r.Method == name }); i >= 0 {
				return cells[k][i]
			}
			return nil
		}
		ours := method("ukm(Auto)")
		var best *Row
		for _, pm := range baselinePeers {
			if row := method(pm); row != nil && !row.NA && (best == nil || row.Summary.Mean > best.Summary.Mean) {
				best = row
			}
		}
		if ours == nil || ours.NA || best == nil || len(ours.acc) != len(best.acc) {
			continue
		}
		diff := make([]float64, len(ours.acc))
		for i := range diff {
			diff[i] = ours.acc[i] - best.acc[i]
		}
		s := Summarize(diff)
		p, err := PairedT(ours.acc, best.acc)
		if err != nil {
			p = math.NaN()
		}
		c.cells++
		if s.Mean >= -s.StdErr {
			c.within++
		}
		if s.Mean > 0 && p < 0.05 {
			c.above++
		}
		for _, m := range manifoldSets {
			if m == k.ds {
				c.manifold = append(c.manifold, s.Mean)
			}
		}
		if w != nil {
			lab := fmt.Sprint(k.l)
			if k.perClass {
				lab += "/class"
			}
			fmt.Fprintf(w, "| %s | %s | %.1f | %.1f (%s) | %+.1f ± %.1f | %.3f |\n", k.ds, lab, ours.Summary.Mean, best.Summary.Mean, best.Method, s.Mean, s.StdErr, p)
		}
	}
	return c
}

// baselinesClaim tests the head-to-head targets on one run.
func baselinesClaim(r *Result) string {
	var b strings.Builder
	c := headToHead(r, &b)
	if c.cells == 0 {
		return "- The baselines' columns are empty: run bench/peers/baselines.sh to fill them.\n"
	}
	writeVerdicts(&b, c)
	return b.String()
}

// writeVerdicts writes the three targets' lines.
func writeVerdicts(w io.Writer, c h2hCounts) {
	verdict := func(ok bool) string {
		if ok {
			return "met"
		}
		return "missed"
	}
	fmt.Fprintf(w, "\n- At least the best baseline within one standard error in every cell: %d of %d cells — %s.\n", c.within, c.cells, verdict(c.within == c.cells))
	fmt.Fprintf(w, "- Significantly above the best baseline (paired t-test, p < 0.05) in at least half of the cells: %d of %d — %s.\n", c.above, c.cells, verdict(2*c.above >= c.cells))
	if len(c.manifold) > 0 {
		m := Summarize(c.manifold).Mean
		fmt.Fprintf(w, "- At least 2 points above the best baseline on average over the manifold sets' cells (%s): %+.2f — %s.\n",
			strings.Join(manifoldSets, ", "), m, verdict(m >= 2))
	}
}

// poolHeadToHead reads the head-to-head targets on the draws of several
// runs pooled: every cell's draws of all the runs are one sample (a draw
// that failed in any column of its cell is left out of the cell), the best
// baseline is the peer of highest pooled mean, and the differences are
// paired over all the draws. Each run's own counts follow, for comparison.
func poolHeadToHead(w io.Writer, runs []pooledRun) error {
	pooled := pooledCells(runs)
	var seeds []string
	for _, r := range runs {
		seeds = append(seeds, fmt.Sprint(r.seed))
	}
	seedList := "seed " + seeds[0]
	if len(seeds) > 1 {
		seedList = "seeds " + strings.Join(seeds, ", ")
	}
	fmt.Fprintf(w, "Head to head, %d runs pooled (%s): every cell's draws of all the runs paired; the best baseline is the peer of highest pooled mean.\n\n",
		len(runs), seedList)
	c := headToHead(pooled, w)
	if c.cells == 0 {
		return fmt.Errorf("repro: the runs have no cell with ukm(Auto) and a peer column (were they run with -peers?)")
	}
	writeVerdicts(w, c)
	fmt.Fprintf(w, "\nEach run alone (%s): within one standard error ", seedList)
	var within, above, man []string
	for _, r := range runs {
		rc := headToHead(pooledCells([]pooledRun{r}), nil)
		within = append(within, fmt.Sprintf("%d of %d", rc.within, rc.cells))
		above = append(above, fmt.Sprint(rc.above))
		man = append(man, fmt.Sprintf("%+.2f", Summarize(rc.manifold).Mean))
	}
	fmt.Fprintf(w, "%s; significantly above %s; manifold sets %s.\n", strings.Join(within, ", "), strings.Join(above, ", "), strings.Join(man, ", "))
	return nil
}

// pooledCells returns the runs' rows with every cell's draws of all the
// runs as one sample, leaving out a draw that failed (a null value) in any
// column of its cell.
func pooledCells(runs []pooledRun) *Result {
	type column struct {
		cellKey
		method string
	}
	pooled := &Result{}
	index := map[column]*Row{}
	for _, run := range runs {
		cells, order := byCell(run.res.Rows)
		for _, k := range order {
			// The draws every column of the cell has a value for.
			var keep []int
			for t := range minLen(cells[k]) {
				if !slices.ContainsFunc(cells[k], func(r *Row) bool { return len(r.acc) > 0 && math.IsNaN(r.acc[t]) }) {
					keep = append(keep, t)
				}
			}
			for _, row := range cells[k] {
				id := column{k, row.Method}
				p := index[id]
				if p == nil {
					p = &Row{Dataset: row.Dataset, Labeled: row.Labeled, PerClass: row.PerClass, Method: row.Method, NA: true}
					index[id] = p
					pooled.Rows = append(pooled.Rows, p)
				}
				if len(row.acc) == 0 {
					continue // not run, or every draw failed
				}
				p.NA = false
				for _, t := range keep {
					p.acc = append(p.acc, row.acc[t])
				}
			}
		}
	}
	for _, row := range pooled.Rows {
		row.Summary = Summarize(row.acc)
	}
	return pooled
}

// minLen is the fewest values of the cell's columns that have any.
func minLen(rows []*Row) int {
	n := -1
	for _, r := range rows {
		if len(r.acc) > 0 && (n < 0 || len(r.acc) < n) {
			n = len(r.acc)
		}
	}
	return max(n, 0)
}
