package repro

import (
	"fmt"
	"slices"
	"strings"
)

// The areas under the learning curves and the thesis's claim, tested on
// the results of the thesis-bmal table.

// curveSet is the rows of one data set by method, in increasing labels.
type curveSet struct {
	name    string
	methods map[string][]*Row
}

// curveSets groups a result's rows by data set, in table order.
func curveSets(r *Result) []curveSet {
	var out []curveSet
	idx := map[string]int{}
	for _, row := range r.Rows {
		if row.NA {
			continue
		}
		i, ok := idx[row.Dataset]
		if !ok {
			i = len(out)
			idx[row.Dataset] = i
			out = append(out, curveSet{name: row.Dataset, methods: map[string][]*Row{}})
		}
		out[i].methods[row.Method] = append(out[i].methods[row.Method], row)
	}
	for _, cs := range out {
		for _, rows := range cs.methods {
			slices.SortFunc(rows, func(a, b *Row) int { return a.Labeled - b.Labeled })
		}
	}
	return out
}

// areas returns every trial's normalised area under a method's learning
// curve: the trapezoid rule over the rows, divided by the span of labels,
// so it is the curve's mean height in the metric's unit. Nil when the rows
// do not hold the same trials.
func areas(rows []*Row) []float64 {
	if len(rows) < 2 {
		return nil
	}
	trials := len(rows[0].acc)
	span := float64(rows[len(rows)-1].Labeled - rows[0].Labeled)
	out := make([]float64, trials)
	for t := range trials {
		var a float64
		for i := 1; i < len(rows); i++ {
			if len(rows[i].acc) != trials || len(rows[i-1].acc) != trials {
				return nil
			}
			w := float64(rows[i].Labeled - rows[i-1].Labeled)
			a += w * (rows[i].acc[t] + rows[i-1].acc[t]) / 2
		}
		out[t] = a / span
	}
	return out
}

// pairedCount tallies paired comparisons of a against b: significantly
// above (p < 0.05), significantly below, and neither.
type pairedCount struct{ above, below, same int }

func (c *pairedCount) add(a, b []float64) {
	p, err := PairedT(a, b)
	d := Summarize(a).Mean - Summarize(b).Mean
	switch {
	case err != nil || p >= 0.05 || d == 0:
		c.same++
	case d > 0:
		c.above++
	default:
		c.below++
	}
}

func (c pairedCount) String() string {
	return fmt.Sprintf("above in %d, below in %d, no significant difference in %d", c.above, c.below, c.same)
}

// bmalClaim writes the table of areas under the learning curves and tests
// the targets and the thesis's claim on them.
func bmalClaim(r *Result) string {
	var b strings.Builder
	sets := curveSets(r)
	var names []string
	for _, m := range r.Methods {
		names = append(names, m.Name)
	}
	b.WriteString("Area under the learning curve (trapezoid rule over l = 20 … 120, divided by the span: the curve's mean height), " +
		"mean ± s.e. over the trials; **bold**: best of its kernel; `*`: significantly below it (paired t-test, p < 0.05).\n\n| set |")
	for _, n := range names {
		fmt.Fprintf(&b, " %s |", n)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(names)) + "\n")
	area := map[string]map[string][]float64{} // set → method → per trial
	for _, cs := range sets {
		area[cs.name] = map[string][]float64{}
		fmt.Fprintf(&b, "| %s |", cs.name)
		best := map[string]string{} // kernel → method of largest mean
		for _, n := range names {
			a := areas(cs.methods[n])
			area[cs.name][n] = a
			k := kernelOf(n)
			if a != nil && (best[k] == "" || Summarize(a).Mean > Summarize(area[cs.name][best[k]]).Mean) {
				best[k] = n
			}
		}
		for _, n := range names {
			a := area[cs.name][n]
			if a == nil {
				b.WriteString(" – |")
				continue
			}
			s := Summarize(a)
			cell := fmt.Sprintf("%.2f ± %.2f", s.Mean, s.StdErr)
			if best[kernelOf(n)] == n {
				cell = "**" + cell + "**"
			} else if p, err := PairedT(area[cs.name][best[kernelOf(n)]], a); err == nil && p < 0.05 {
				cell += "*"
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, v := range bmalVariants {
		for _, k := range bmalKernels {
			bmalTarget(&b, sets, area, v, k)
		}
	}
	b.WriteString("- The thesis's claim, BMAL above the margin-based selectors (its LogReg-AL is top-k entropy, its SVM-AL " +
		"top-k smallest margin), tested cell by cell (every set and every l after the first round; paired t-test, p < 0.05) " +
		"and by area:\n")
	for _, v := range bmalVariants {
		for _, k := range bmalKernels {
			bmalRivals(&b, sets, area, v, k)
		}
	}
	return b.String()
}

// bmalVariants are the Fisher columns whose targets and claims are tested.
var bmalVariants = []string{"BMAL", "BMAL-5k", "BMAL-5k-pool"}

// bmalTarget writes the target, a variant's area at least top-k
// entropy's on 5 of the 7 sets, for one kernel.
func bmalTarget(b *strings.Builder, sets []curveSet, area map[string]map[string][]float64, v, k string) {
	wins, sets2 := 0, 0
	var notes []string
	for _, cs := range sets {
		a, e := area[cs.name][v+"/"+k], area[cs.name]["Entropy/"+k]
		if a == nil || e == nil {
			continue
		}
		sets2++
		d := Summarize(a).Mean - Summarize(e).Mean
		if d >= 0 {
			wins++
		}
		p, _ := PairedT(a, e)
		notes = append(notes, fmt.Sprintf("%s %+.2f (p = %.2g)", cs.name, d, p))
	}
	if sets2 == 0 {
		return // the run left out one of the two columns
	}
	verdict := "met"
	if wins < 5 || sets2 < 7 {
		verdict = "not met"
	}
	fmt.Fprintf(b, "- Target: %s's area at least top-k entropy's on ≥ 5 of the 7 sets, %s kernel: %d of %d — %s. "+
		"Differences %s − Entropy: %s.\n", v, k, wins, sets2, verdict, v, strings.Join(notes, ", "))
}

// bmalRivals writes a variant's paired comparisons with the other
// selectors on one kernel, by cell and by area.
func bmalRivals(b *strings.Builder, sets []curveSet, area map[string]map[string][]float64, v, k string) {
	for _, rival := range []string{"Entropy", "Margin", "KCenter", "Random"} {
		var cells, byArea pairedCount
		compared := false
		for _, cs := range sets {
			a, o := cs.methods[v+"/"+k], cs.methods[rival+"/"+k]
			if len(a) == 0 || len(a) != len(o) {
				continue
			}
			compared = true
			for i := 1; i < len(a); i++ {
				cells.add(a[i].acc, o[i].acc)
			}
			if aa, ao := area[cs.name][v+"/"+k], area[cs.name][rival+"/"+k]; aa != nil && ao != nil {
				byArea.add(aa, ao)
			}
		}
		if !compared {
			continue // the run left out one of the two columns
		}
		verdict := ""
		if rival == "Entropy" || rival == "Margin" {
			verdict = " — the claim does not hold"
			if cells.above > cells.below && byArea.above > byArea.below {
				verdict = " — the claim holds"
			}
		}
		fmt.Fprintf(b, "  - %s kernel, %s against %s: cells: %s; areas: %s%s.\n", k, v, rival, cells, byArea, verdict)
	}
}

// kernelOf returns the kernel half of a method name "Selector/Kernel".
func kernelOf(method string) string {
	if i := strings.LastIndexByte(method, '/'); i >= 0 {
		return method[i+1:]
	}
	return method
}
