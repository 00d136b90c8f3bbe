package repro

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// Markdown writes the result in the paper's layout: one block per data set,
// a row per labeled size, a column per method. A cell reads
// "ours ± se" and, where the paper has the cell, "(paper p, Δ d)". The best
// mean of a row is bold; a "*" marks a method significantly worse than that
// best (paired t-test, p < 0.05).
func (r *Result) Markdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", r.Table.Title)
	fmt.Fprintf(&b, "%d trials per cell, seed %d; accuracy on the points left unlabeled, mean ± standard error; "+
		"**bold**: best mean of the row; `*`: significantly below the best (paired t-test, p < 0.05); "+
		"(paper value, our difference).\n\n", r.Config.Trials, r.Config.Seed)
	order := []string{}
	seen := map[string]bool{}
	for _, row := range r.Rows {
		if !seen[row.Dataset] {
			seen[row.Dataset] = true
			order = append(order, row.Dataset)
		}
	}
	for _, ds := range order {
		fmt.Fprintf(&b, "### %s\n\n| l |", ds)
		for _, m := range r.Methods {
			fmt.Fprintf(&b, " %s |", m.Name)
		}
		b.WriteString("\n|---|")
		for range r.Methods {
			b.WriteString("---|")
		}
		b.WriteString("\n")
		var last string
		for _, row := range r.Rows {
			if row.Dataset != ds {
				continue
			}
			if lab := sizeLabel(row); lab != last {
				if last != "" {
					b.WriteString("\n")
				}
				fmt.Fprintf(&b, "| %s |", lab)
				last = lab
			}
			b.WriteString(" " + cell(row) + " |")
		}
		b.WriteString("\n\n")
		// Timing line: mean seconds per trial of the kernel-learning methods.
		b.WriteString("Mean seconds per trial (kernel + eig + design + fit): ")
		var parts []string
		for _, m := range r.Methods {
			var tot, q float64
			var k int
			for _, row := range r.Rows {
				if row.Dataset == ds && row.Method == m.Name && !row.NA {
					tot += row.Seconds.Total
					q += row.Seconds.QP
					k++
				}
			}
			if k > 0 {
				parts = append(parts, fmt.Sprintf("%s %.4f (design %.5f)", m.Name, tot/float64(k), q/float64(k)))
			}
		}
		b.WriteString(strings.Join(parts, "; ") + "\n\n")
		for _, row := range r.Rows {
			if row.Dataset == ds && len(row.Chosen) > 0 {
				fmt.Fprintf(&b, "%s chose at l = %s: %s.\n\n", row.Method, sizeLabel(row), chosenSummary(row.Chosen))
			}
		}
		b.WriteString(unreachedLine(r, ds))
	}
	b.WriteString("Mean accuracy over all cells of the table: ")
	var avg []string
	for _, m := range r.Methods {
		if v, ok := r.MethodMean(m.Name); ok {
			avg = append(avg, fmt.Sprintf("%s %.2f", m.Name, v))
		}
	}
	b.WriteString(strings.Join(avg, "; ") + ".\n\n")
	if diff := r.Differences(); len(diff) > 0 {
		higher := 0
		for _, row := range diff {
			if row.Summary.Mean > row.Published.Mean {
				higher++
			}
		}
		fmt.Fprintf(&b, "Cells differing from the paper by more than two combined standard errors "+
			"(sqrt(se_ours² + se_paper²)): %d of %d with a published value (%d higher, %d lower): ",
			len(diff), r.publishedCells(), higher, len(diff)-higher)
		var parts []string
		for _, row := range diff {
			parts = append(parts, fmt.Sprintf("%s/%d/%s %+.1f", row.Dataset, row.Labeled, row.Method, row.Summary.Mean-row.Published.Mean))
		}
		b.WriteString(strings.Join(parts, ", ") + ".\n\n")
	}
	warned := 0
	for _, row := range r.Rows {
		warned += row.Warnings
	}
	if warned > 0 {
		fmt.Fprintf(&b, "%d trials ended with a classifier warning (iteration limit or stalled line search on an "+
			"ill-conditioned kernel); their best iterate was scored.\n\n", warned)
	}
	if len(r.Failures) > 0 {
		fmt.Fprintf(&b, "%d trials failed; each one's draw is left out of its cell in every column (cells marked "+
			"\"[k failed]\"), so that the comparisons stay paired:\n\n", len(r.Failures))
		for i, f := range r.Failures {
			if i == maxListedFailures {
				fmt.Fprintf(&b, "- and %d more\n", len(r.Failures)-i)
				break
			}
			fmt.Fprintf(&b, "- %s\n", f)
		}
		b.WriteString("\n")
	}
	if r.Table.Claim != nil {
		b.WriteString("Claims of the paper, tested on these results:\n\n" + r.Table.Claim(r) + "\n")
	}
	fmt.Fprintf(&b, "Elapsed: %.1f s.\n", r.Elapsed.Seconds())
	_, err := io.WriteString(w, b.String())
	return err
}

// maxListedFailures bounds the failures Markdown lists one by one.
const maxListedFailures = 20

// sizeLabel is a row's labeled size: "20", or "50/class".
func sizeLabel(row *Row) string {
	if row.PerClass && row.Labeled > 0 {
		return fmt.Sprintf("%d/class", row.Labeled)
	}
	return fmt.Sprint(row.Labeled)
}

// chosenSummary lists the three configurations chosen most often, by
// decreasing count, and how many others there were.
func chosenSummary(c map[string]int) string {
	names := make([]string, 0, len(c))
	for n := range c {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if c[names[i]] != c[names[j]] {
			return c[names[i]] > c[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	rest := 0
	for i, n := range names {
		if i < 3 {
			parts = append(parts, fmt.Sprintf("%s ×%d", n, c[n]))
		} else {
			rest += c[n]
		}
	}
	if rest > 0 {
		parts = append(parts, fmt.Sprintf("%d other choices", rest))
	}
	return strings.Join(parts, ", ")
}

func cell(row *Row) string {
	if row.NA {
		return "n/a"
	}
	s := fmt.Sprintf("%.2f ± %.2f", row.Summary.Mean, row.Summary.StdErr)
	if row.Best {
		s = "**" + s + "**"
	} else if row.PValue < 0.05 {
		s += "*"
	}
	if p := row.Published; p != nil {
		s += fmt.Sprintf(" (%.2f, %+.2f)", p.Mean, row.Summary.Mean-p.Mean)
	}
	if row.Failed > 0 {
		s += fmt.Sprintf(" [%d failed]", row.Failed)
	}
	return s
}

type jsonRow struct {
	Dataset   string         `json:"dataset"`
	Labeled   int            `json:"labeled"`
	PerClass  bool           `json:"per_class,omitempty"`
	Method    string         `json:"method"`
	Mean      *float64       `json:"mean"`
	StdErr    *float64       `json:"stderr"`
	Trials    int            `json:"trials"`
	Seconds   jsonSeconds    `json:"seconds"`
	Published *float64       `json:"published,omitempty"`
	PValue    *float64       `json:"p_vs_best,omitempty"`
	Chosen    map[string]int `json:"chosen,omitempty"`
	Failed    int            `json:"failed,omitempty"`
	// Unreached, UnreachedCorrect and Unlabeled: see Row.
	Unreached        int `json:"unreached,omitempty"`
	UnreachedCorrect int `json:"unreached_correct,omitempty"`
	Unlabeled        int `json:"unlabeled,omitempty"`
	// Values holds every trial's metric, in trial order (null for a draw
	// that failed), so that runs can be pooled (Pool).
	Values []*float64 `json:"values,omitempty"`
}

type jsonSeconds struct {
	Kernel float64 `json:"kernel"`
	Eig    float64 `json:"eig"`
	QP     float64 `json:"qp"`
	Fit    float64 `json:"fit"`
	Total  float64 `json:"total"`
}

// JSON writes {"table", "trials", "seed", "rows": [...]}: accuracy in
// percent, seconds as means per trial; a method not implemented has null
// mean and stderr.
func (r *Result) JSON(w io.Writer) error {
	out := struct {
		Table    string    `json:"table"`
		Trials   int       `json:"trials"`
		Seed     uint64    `json:"seed"`
		Rows     []jsonRow `json:"rows"`
		Failures []string  `json:"failures,omitempty"`
	}{Table: r.Table.Name, Trials: r.Config.Trials, Seed: r.Config.Seed}
	for _, f := range r.Failures {
		out.Failures = append(out.Failures, f.String())
	}
	for _, row := range r.Rows {
		j := jsonRow{Dataset: row.Dataset, Labeled: row.Labeled, PerClass: row.PerClass, Method: row.Method, Chosen: row.Chosen, Failed: row.Failed}
		if row.Unreached > 0 {
			j.Unreached, j.UnreachedCorrect, j.Unlabeled = row.Unreached, row.UnreachedCorrect, row.Unlabeled
		}
		if !row.NA {
			m, s, p := row.Summary.Mean, row.Summary.StdErr, row.PValue
			if math.IsNaN(s) {
				s = 0
			}
			if math.IsNaN(p) {
				p = 1
			}
			j.Mean, j.StdErr, j.PValue = &m, &s, &p
			if math.IsNaN(m) {
				// No draw left (every one failed): no mean to give.
				j.Mean, j.StdErr, j.PValue = nil, nil, nil
			}
			j.Trials = row.Summary.N
			for _, v := range row.acc {
				if math.IsNaN(v) {
					j.Values = append(j.Values, nil)
					continue
				}
				j.Values = append(j.Values, &v)
			}
			j.Seconds = jsonSeconds{row.Seconds.Kernel, row.Seconds.Eig, row.Seconds.QP, row.Seconds.Fit, row.Seconds.Total}
		}
		if row.Published != nil {
			v := row.Published.Mean
			j.Published = &v
		}
		out.Rows = append(out.Rows, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// MethodMean returns the mean accuracy of a method over all cells of the
// result (false if the method has no results).
func (r *Result) MethodMean(method string) (float64, bool) {
	var sum float64
	var k int
	for _, row := range r.Rows {
		if row.Method == method && !row.NA {
			sum += row.Summary.Mean
			k++
		}
	}
	if k == 0 {
		return math.NaN(), false
	}
	return sum / float64(k), true
}

// Differences returns the cells whose mean differs from the published one
// by more than two combined standard errors.
func (r *Result) Differences() []*Row {
	var out []*Row
	for _, row := range r.Rows {
		if row.NA || row.Published == nil {
			continue
		}
		se := math.Hypot(row.Summary.StdErr, row.Published.StdErr)
		if math.Abs(row.Summary.Mean-row.Published.Mean) > 2*se {
			out = append(out, row)
		}
	}
	return out
}

func (r *Result) publishedCells() int {
	k := 0
	for _, row := range r.Rows {
		if !row.NA && row.Published != nil {
			k++
		}
	}
	return k
}

// unreachedLine says, for each column of data set ds that left unlabeled
// points unreached (peers that report them), what share of the unlabeled
// points those were and how many of its guesses there were right (""
// when no column did).
func unreachedLine(r *Result, ds string) string {
	var b strings.Builder
	for _, m := range r.Methods {
		var parts []string
		for _, row := range r.Rows {
			if row.Dataset != ds || row.Method != m.Name || row.Unreached == 0 || row.Unlabeled == 0 {
				continue
			}
			parts = append(parts, fmt.Sprintf("%.0f%% at l = %s (%.0f%% of them right)",
				100*float64(row.Unreached)/float64(row.Unlabeled), sizeLabel(row),
				100*float64(row.UnreachedCorrect)/float64(row.Unreached)))
		}
		if len(parts) > 0 {
			fmt.Fprintf(&b, "%s never reached (scores all zero when it stopped; labeled the first class): %s of the unlabeled points.\n\n",
				m.Name, strings.Join(parts, ", "))
		}
	}
	return b.String()
}
