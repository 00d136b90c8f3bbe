package bench

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Table is a table rendered as GitHub-flavoured markdown.
type Table struct {
	// Header holds the column titles.
	Header []string
	// Right marks the columns aligned right (numbers); missing entries
	// mean left.
	Right []bool
	// Rows holds the cells; a short row is padded with empty cells.
	Rows [][]string
}

// Markdown renders the table with a header separator line, one row per line
// and cells padded to the column width.
func (t *Table) Markdown() string {
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	width := make([]int, cols)
	cell := func(r []string, j int) string {
		if j < len(r) {
			return strings.ReplaceAll(r[j], "|", `\|`)
		}
		return ""
	}
	for j := range width {
		width[j] = max(3, len([]rune(cell(t.Header, j))))
		for _, r := range t.Rows {
			width[j] = max(width[j], len([]rune(cell(r, j))))
		}
	}
	right := func(j int) bool { return j < len(t.Right) && t.Right[j] }
	var b strings.Builder
	line := func(r []string) {
		b.WriteString("|")
		for j := range width {
			c := cell(r, j)
			pad := strings.Repeat(" ", width[j]-len([]rune(c)))
			if right(j) {
				b.WriteString(" " + pad + c + " |")
			} else {
				b.WriteString(" " + c + pad + " |")
			}
		}
		b.WriteString("\n")
	}
	line(t.Header)
	b.WriteString("|")
	for j, w := range width {
		if right(j) {
			b.WriteString(" " + strings.Repeat("-", w-1) + ": |")
		} else {
			b.WriteString(" " + strings.Repeat("-", w) + " |")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		line(r)
	}
	return b.String()
}

// FormatNs formats a duration given in nanoseconds with three significant
// digits and a unit: "950 ns", "1.23 µs", "45.6 ms", "2.31 s". NaN gives "–".
func FormatNs(ns float64) string {
	if math.IsNaN(ns) {
		return "–"
	}
	units := []struct {
		scale float64
		name  string
	}{{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}}
	for _, u := range units {
		if math.Abs(ns) >= u.scale || u.scale == 1 {
			return sig3(ns/u.scale) + " " + u.name
		}
	}
	return "" // not reached
}

// FormatBytes formats a byte count with binary prefixes: "512 B",
// "1.50 KiB", "2.00 GiB". NaN gives "–".
func FormatBytes(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	k := 0
	for math.Abs(v) >= 1024 && k < len(units)-1 {
		v /= 1024
		k++
	}
	if k == 0 {
		return strconv.FormatFloat(v, 'f', 0, 64) + " B"
	}
	return sig3(v) + " " + units[k]
}

// sig3 formats v with three significant digits in fixed notation.
func sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// Benchmark names and units used by the benchmarks of this package.
const (
	// ScalingBench is the benchmark of the per-stage scaling study.
	ScalingBench = "BenchmarkScaling"
	// VariantsBench is the benchmark of the solver variants.
	VariantsBench = "BenchmarkVariants"
	// NsPerOp is the unit of the time per operation.
	NsPerOp = "ns/op"
	// BytesPerOp is the unit of the bytes allocated per operation.
	BytesPerOp = "B/op"
	// RSSUnit is the custom metric of the process's peak resident memory
	// (getrusage ru_maxrss) at the end of a benchmark, in MiB.
	RSSUnit = "peak-RSS-MiB"
	// MatVecUnit is the custom metric of operator applications per
	// eigensolve.
	MatVecUnit = "matvecs/op"
)

// Stages returns the stages of BenchmarkScaling in pipeline order; "total"
// is the whole models.Fit. The slice is new on every call.
func Stages() []string { return []string{"kernel", "eig", "qp", "klr", "select", "total"} }

// keyValues returns the distinct numeric values of key over sums, sorted.
func keyValues(sums []Summary, key string) []float64 {
	var vs []float64
	for i := range sums {
		if v, ok := sums[i].Float(key); ok && !slices.Contains(vs, v) {
			vs = append(vs, v)
		}
	}
	slices.Sort(vs)
	return vs
}

func itoa(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// lookup returns the median of unit of the single summary matching want, or
// NaN when there is none.
func lookup(sums []Summary, want map[string]string, unit string) float64 {
	m := Filter(sums, "", want)
	if len(m) == 0 {
		return math.NaN()
	}
	v, ok := m[0].Median[unit]
	if !ok {
		return math.NaN()
	}
	return v
}

// stageWant returns the filter of one stage of BenchmarkScaling at n and
// d. The kernel stage does not depend on d and carries no d in its name.
func stageWant(stage string, n, d float64) map[string]string {
	w := map[string]string{"stage": stage, "n": itoa(n)}
	if stage != "kernel" {
		w["d"] = itoa(d)
	}
	return w
}

// StageTable renders the per-stage cost table of BenchmarkScaling at
// eigenvector count d: one row per n with the median time of each stage and
// its share of the total, the bytes allocated by the whole fit and the peak
// RSS recorded after it. Missing cells show "–". It is an error wrapping
// ErrData when no BenchmarkScaling result has that d.
func StageTable(sums []Summary, d int) (*Table, error) {
	sc := Filter(sums, ScalingBench, nil)
	ns := keyValues(Filter(sc, "", map[string]string{"d": strconv.Itoa(d)}), "n")
	if len(ns) == 0 {
		return nil, fmt.Errorf("%w: no %s results with d = %d", ErrData, ScalingBench, d)
	}
	t := &Table{Header: []string{"n"}, Right: []bool{true}}
	for _, s := range Stages() {
		t.Header = append(t.Header, s)
		t.Right = append(t.Right, true)
	}
	t.Header = append(t.Header, "stages / total", "B/op (total)", "peak RSS")
	t.Right = append(t.Right, true, true, true)
	for _, n := range ns {
		row := []string{itoa(n)}
		total := lookup(sc, stageWant("total", n, float64(d)), NsPerOp)
		var sum float64
		for _, s := range Stages() {
			v := lookup(sc, stageWant(s, n, float64(d)), NsPerOp)
			c := FormatNs(v)
			if s != "total" {
				sum += v
				if !math.IsNaN(v) && total > 0 {
					c += fmt.Sprintf(" (%.0f%%)", 100*v/total)
				}
			}
			row = append(row, c)
		}
		share := "–"
		if !math.IsNaN(sum) && total > 0 {
			share = fmt.Sprintf("%.2f", sum/total)
		}
		row = append(row, share, FormatBytes(lookup(sc, stageWant("total", n, float64(d)), BytesPerOp)))
		rss := lookup(sc, stageWant("total", n, float64(d)), RSSUnit)
		if math.IsNaN(rss) {
			row = append(row, "–")
		} else {
			row = append(row, FormatBytes(rss*(1<<20)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// SlopeRow is one fitted log-log slope set beside the theory.
type SlopeRow struct {
	// Quantity names what was timed, for example "eig".
	Quantity string
	// Against is the varied parameter ("n" or "d").
	Against string
	// Fixed describes the parameters held fixed, for example "d = 20".
	Fixed string
	// Fit is the least-squares fit; its Points is 0 when there was too
	// little data (then Err says why).
	Fit PowerFit
	// Err is the reason the fit failed, or nil.
	Err error
	// Theory is the expected exponent and its reason, for example
	// "2: O(n² p)".
	Theory string
}

// theory returns the expected exponent of a stage of BenchmarkScaling
// against a parameter, with its reason.
func theory(key string) string {
	return map[string]string{
		"kernel/n":      "2: O(n² p) kernel entries, plus the O(n p) scaling",
		"eig/n":         "2 × (products' growth): each product reads the n × n matrix, O(n²)",
		"eig/n/product": "2: one dense product is O(n²)",
		"eig/n/matvecs": "0 if the iteration count does not grow with n",
		"qp/n":          "0: the QP sees only the l × d labeled rows",
		"klr/n":         "0: Newton steps on the l × d feature map",
		"select/n":      "1: probabilities of the n − l unlabeled points, O(n d)",
		"total/n":       "2: kernel and eigensolver dominate",
		"eig/d":         "about 1: products grow with d; O(n d²) orthogonalisation on top",
		"qp/d":          "2–3: forming H is O(l d²), factorising O(d³)",
		"klr/d":         "2–3: O(l d² + d³) per Newton step",
		"select/d":      "1: O(n d) probabilities",
		"total/d":       "about 1: the eigensolver",
	}[key]
}

// ScalingSlopes fits time against n at eigenvector count d (every stage,
// plus the eigensolver's time per operator product and its product count)
// and time against d at size n (every stage but the kernel, which does not
// depend on d), and sets each slope beside the theory. A stage with fewer
// than two usable points gets a row whose Err says so.
func ScalingSlopes(sums []Summary, d, n int) []SlopeRow {
	sc := Filter(sums, ScalingBench, nil)
	var rows []SlopeRow
	fit := func(q, against, fixed string, want map[string]string, unit string, per string) {
		sel := Filter(sc, "", want)
		x, y, err := Series(sel, against, unit)
		if err == nil && per != "" {
			_, z, err2 := Series(sel, against, per)
			if err2 != nil || len(z) != len(y) {
				err = fmt.Errorf("%w: %s missing from some results", ErrData, per)
			} else {
				for i := range y {
					y[i] /= z[i]
				}
			}
		}
		r := SlopeRow{Quantity: q, Against: against, Fixed: fixed}
		key := strings.Fields(q)[0] + "/" + against
		switch {
		case per != "":
			key += "/product"
		case unit == MatVecUnit:
			key += "/matvecs"
		}
		r.Theory = theory(key)
		if err == nil {
			r.Fit, err = LogLogFit(x, y)
		}
		r.Err = err
		rows = append(rows, r)
	}
	dd, nn := strconv.Itoa(d), strconv.Itoa(n)
	for _, s := range Stages() {
		want := map[string]string{"stage": s, "d": dd}
		fixed := "d = " + dd
		if s == "kernel" {
			want["d"] = ""
			fixed = "p = 10"
		}
		fit(s, "n", fixed, want, NsPerOp, "")
		if s == "eig" {
			fit("eig per product", "n", fixed, want, NsPerOp, MatVecUnit)
			fit("eig products", "n", fixed, want, MatVecUnit, "")
		}
	}
	for _, s := range Stages()[1:] {
		fit(s, "d", "n = "+nn, map[string]string{"stage": s, "n": nn}, NsPerOp, "")
	}
	return rows
}

// SlopeTable renders slope rows: quantity, varied parameter, fixed
// parameters, fitted exponent ± its standard error, R², the worst point's
// factor off the fit, the number of points and the theory.
func SlopeTable(rows []SlopeRow) *Table {
	t := &Table{
		Header: []string{"time of", "against", "at", "fitted slope", "R²", "worst point off fit", "points", "theory"},
		Right:  []bool{false, false, false, true, true, true, true, false},
	}
	for _, r := range rows {
		if r.Err != nil {
			t.Rows = append(t.Rows, []string{r.Quantity, r.Against, r.Fixed, "–", "–", "–", "0", r.Theory})
			continue
		}
		slope := fmt.Sprintf("%.2f", r.Fit.Slope)
		if r.Fit.Points > 2 {
			slope += fmt.Sprintf(" ± %.2f", r.Fit.SlopeErr)
		}
		t.Rows = append(t.Rows, []string{
			r.Quantity, r.Against, r.Fixed, slope,
			fmt.Sprintf("%.3f", r.Fit.R2),
			fmt.Sprintf("×%.2f", math.Exp(r.Fit.MaxResid)),
			strconv.Itoa(r.Fit.Points), r.Theory,
		})
	}
	return t
}

// VariantTable renders one row per value of xkey with the median time of
// every variant named by key (for example key "eig", xkey "n": the
// BenchmarkVariants/eig=<solver>/n=... results; other parameters must be
// fixed by want) and, after the times, each variant's ratio to the
// baseline variant measured in the same run. Variants appear in order of
// first appearance. It is an error wrapping ErrData when nothing matches or
// the baseline is absent.
func VariantTable(sums []Summary, key, xkey, baseline string, want map[string]string) (*Table, error) {
	w := map[string]string{key: "*"}
	for k, v := range want {
		w[k] = v
	}
	sel := Filter(sums, VariantsBench, w)
	if len(sel) == 0 {
		return nil, fmt.Errorf("%w: no %s results with %s=...", ErrData, VariantsBench, key)
	}
	var variants []string
	for i := range sel {
		v, _ := sel[i].Get(key)
		if !slices.Contains(variants, v) {
			variants = append(variants, v)
		}
	}
	if !slices.Contains(variants, baseline) {
		return nil, fmt.Errorf("%w: baseline %s=%s absent", ErrData, key, baseline)
	}
	t := &Table{Header: []string{xkey}, Right: []bool{true}}
	for _, v := range variants {
		t.Header = append(t.Header, v)
		t.Right = append(t.Right, true)
	}
	for _, v := range variants {
		if v != baseline {
			t.Header = append(t.Header, v+" / "+baseline)
			t.Right = append(t.Right, true)
		}
	}
	for _, x := range keyValues(sel, xkey) {
		row := []string{itoa(x)}
		at := func(v string) float64 {
			return lookup(sel, map[string]string{key: v, xkey: itoa(x)}, NsPerOp)
		}
		for _, v := range variants {
			row = append(row, FormatNs(at(v)))
		}
		base := at(baseline)
		for _, v := range variants {
			if v == baseline {
				continue
			}
			r := at(v) / base
			if math.IsNaN(r) || math.IsInf(r, 0) {
				row = append(row, "–")
			} else {
				row = append(row, fmt.Sprintf("%.2f", r))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}
