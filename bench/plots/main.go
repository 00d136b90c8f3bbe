// Command plots turns saved output of the ukm scaling benchmarks into PNG
// charts and markdown tables.
//
//	go run . -in bench.txt -out DIR [-d 20] [-n 1000]
//
// It reads `go test -bench` text (any number of -count runs; several files
// may be given as a comma-separated list, "-" is standard input), takes the
// median of every benchmark and writes into DIR:
//
//   - eig_solvers.png: time against n of every eigensolver
//     (BenchmarkVariants/eig=...), log-log;
//   - stages.png: time against n of every stage of BenchmarkScaling at d,
//     log-log;
//   - stage_share.png: each stage's share of the summed stage times, per n;
//   - qp_d.png: time against d of every QP solver (BenchmarkVariants/qp=...),
//     log-log;
//   - large_n.png: time of a whole fit against n on the exact and the
//     large-n path (models' BenchmarkLargeN/path=.../n=...), log-log;
//   - tables.md: the per-stage cost table at d, the fitted slopes (against n
//     at d, against d at n) beside the theory, and the variant ratio tables.
//
// A chart or table whose benchmarks are absent from the input is skipped
// with a note on standard error. The program is a module of its own so that
// gonum.org/v1/plot stays out of the library's import graph.
package main

import (
	"errors"
	"flag"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"ukm/bench"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "plots:", err)
		os.Exit(1)
	}
}

// config holds the command-line settings.
type config struct {
	in  []string
	out string
	d   int
	n   int
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("plots", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("in", "", "benchmark output file(s), comma-separated; - for standard input")
	out := fs.String("out", "", "output directory (created if missing)")
	d := fs.Int("d", 20, "eigenvector count of the stage table and of the slopes against n")
	n := fs.Int("n", 1000, "size n of the slopes against d")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if *in == "" || *out == "" {
		return nil, errors.New("both -in and -out are required")
	}
	if *d < 1 || *n < 1 {
		return nil, fmt.Errorf("-d %d and -n %d must be positive", *d, *n)
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return &config{in: strings.Split(*in, ","), out: *out, d: *d, n: *n}, nil
}

func run(args []string, stdin io.Reader, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	var results []bench.Result
	for _, name := range cfg.in {
		rep, err := readReport(name, stdin)
		if err != nil {
			return err
		}
		results = append(results, rep.Results...)
	}
	if len(results) == 0 {
		return errors.New("no benchmark results in the input")
	}
	sums := bench.Summarize(results)
	if err := os.MkdirAll(cfg.out, 0o755); err != nil {
		return err
	}
	skip := func(what string, err error) { fmt.Fprintf(stderr, "plots: skipping %s: %v\n", what, err) }
	charts := []struct {
		file string
		draw func([]bench.Summary, *config) (*plot.Plot, error)
	}{
		{"eig_solvers.png", eigChart},
		{"stages.png", stageChart},
		{"stage_share.png", shareChart},
		{"qp_d.png", qpChart},
		{"large_n.png", largeChart},
	}
	for _, c := range charts {
		p, err := c.draw(sums, cfg)
		if err != nil {
			skip(c.file, err)
			continue
		}
		if err := p.Save(6*vg.Inch, 4*vg.Inch, filepath.Join(cfg.out, c.file)); err != nil {
			return fmt.Errorf("writing %s: %w", c.file, err)
		}
	}
	md := tables(sums, cfg, skip)
	return os.WriteFile(filepath.Join(cfg.out, "tables.md"), []byte(md), 0o644)
}

func readReport(name string, stdin io.Reader) (*bench.Report, error) {
	if name == "-" {
		return bench.Parse(stdin)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := bench.Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rep, nil
}

// variants returns the distinct values of key over sums, in order of first
// appearance.
func variants(sums []bench.Summary, key string) []string {
	var vs []string
	seen := map[string]bool{}
	for i := range sums {
		if v, ok := sums[i].Get(key); ok && !seen[v] {
			seen[v] = true
			vs = append(vs, v)
		}
	}
	return vs
}

// seconds converts a series of ns/op to plotter points in seconds.
func seconds(x, y []float64) plotter.XYs {
	xy := make(plotter.XYs, len(x))
	for i := range x {
		xy[i].X, xy[i].Y = x[i], y[i]/1e9
	}
	return xy
}

// logLog returns a plot with logarithmic axes.
func logLog(title, xlabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xlabel
	p.Y.Label.Text = "time per operation (s)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	// Rising curves leave the bottom right corner empty.
	p.Legend.Top, p.Legend.Left = false, false
	p.Add(plotter.NewGrid())
	return p
}

// markX puts a labelled tick at every x of the series (the measured sizes)
// instead of the powers of ten, which a factor-16 range barely contains.
func markX(p *plot.Plot, series []plotter.XYs) {
	seen := map[float64]bool{}
	var ticks []plot.Tick
	for _, s := range series {
		for _, pt := range s {
			if !seen[pt.X] {
				seen[pt.X] = true
				ticks = append(ticks, plot.Tick{Value: pt.X, Label: strconv.FormatFloat(pt.X, 'f', -1, 64)})
			}
		}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
}

// lines adds one line with points per named series; it fails when no
// series has a point.
func lines(p *plot.Plot, names []string, series []plotter.XYs) error {
	var args []any
	for i, s := range series {
		if len(s) > 0 {
			args = append(args, names[i], s)
		}
	}
	if len(args) == 0 {
		return errors.New("no data")
	}
	markX(p, series)
	return plotutil.AddLinePoints(p, args...)
}

// variantChart plots time against xkey for every value of key in
// BenchmarkVariants, with the other parameters fixed by want.
func variantChart(sums []bench.Summary, key, xkey, title string, want map[string]string) (*plot.Plot, error) {
	return benchChart(sums, bench.VariantsBench, key, xkey, title, want)
}

// benchChart plots time against xkey for every value of key in the
// benchmark base, with the other parameters fixed by want.
func benchChart(sums []bench.Summary, base, key, xkey, title string, want map[string]string) (*plot.Plot, error) {
	sel := bench.Filter(sums, base, map[string]string{key: "*"})
	names := variants(sel, key)
	var series []plotter.XYs
	for _, v := range names {
		w := map[string]string{key: v}
		for k, x := range want {
			w[k] = x
		}
		x, y, err := bench.Series(bench.Filter(sel, "", w), xkey, bench.NsPerOp)
		if err != nil {
			return nil, err
		}
		series = append(series, seconds(x, y))
	}
	p := logLog(title, xkey)
	if err := lines(p, names, series); err != nil {
		return nil, err
	}
	return p, nil
}

func eigChart(sums []bench.Summary, _ *config) (*plot.Plot, error) {
	return variantChart(sums, "eig", "n", "Top-20 eigenpairs of the n × n RBF kernel", map[string]string{"d": "20"})
}

// largeChart plots the whole fit against n on the exact and the large-n
// paths (models.BenchmarkLargeN).
func largeChart(sums []bench.Summary, _ *config) (*plot.Plot, error) {
	return benchChart(sums, "BenchmarkLargeN", "path", "n", "Fit (kNN basis, LabelSpreading, d = 20) against n", nil)
}

func qpChart(sums []bench.Summary, _ *config) (*plot.Plot, error) {
	return variantChart(sums, "qp", "d", "SKL QP (20 labeled points, C = 2) against d", nil)
}

// stageSeries returns time against n of every stage at d.
func stageSeries(sums []bench.Summary, d int) ([]string, []plotter.XYs, error) {
	names := bench.Stages()
	series := make([]plotter.XYs, len(names))
	for i, s := range names {
		w := map[string]string{"stage": s, "d": strconv.Itoa(d)}
		if s == "kernel" {
			w["d"] = ""
		}
		x, y, err := bench.Series(bench.Filter(sums, bench.ScalingBench, w), "n", bench.NsPerOp)
		if err != nil {
			return nil, nil, err
		}
		series[i] = seconds(x, y)
	}
	return names, series, nil
}

func stageChart(sums []bench.Summary, cfg *config) (*plot.Plot, error) {
	names, series, err := stageSeries(sums, cfg.d)
	if err != nil {
		return nil, err
	}
	p := logLog(fmt.Sprintf("Stages of models.Fit against n (d = %d)", cfg.d), "n")
	if err := lines(p, names, series); err != nil {
		return nil, err
	}
	return p, nil
}

// shareChart stacks each stage's percentage of the summed stage times at
// every n where all five stages were measured.
func shareChart(sums []bench.Summary, cfg *config) (*plot.Plot, error) {
	names, series, err := stageSeries(sums, cfg.d)
	if err != nil {
		return nil, err
	}
	names, series = names[:len(names)-1], series[:len(series)-1] // without total
	at := func(s plotter.XYs, n float64) float64 {
		for _, p := range s {
			if p.X == n {
				return p.Y
			}
		}
		return math.NaN()
	}
	var ns []float64
	for _, pt := range series[0] {
		ok := true
		for _, s := range series[1:] {
			ok = ok && !math.IsNaN(at(s, pt.X))
		}
		if ok {
			ns = append(ns, pt.X)
		}
	}
	if len(ns) == 0 {
		return nil, errors.New("no n with every stage measured")
	}
	share := make([]plotter.Values, len(names))
	for k, n := range ns {
		var sum float64
		for _, s := range series {
			sum += at(s, n)
		}
		for i, s := range series {
			if k == 0 {
				share[i] = make(plotter.Values, len(ns))
			}
			share[i][k] = 100 * at(s, n) / sum
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Share of each stage in the summed stage times (d = %d)", cfg.d)
	p.X.Label.Text = "n"
	p.Y.Label.Text = "% of the stage sum"
	p.Legend.Top = true
	var prev *plotter.BarChart
	for i := range names {
		bar, err := plotter.NewBarChart(share[i], vg.Points(24))
		if err != nil {
			return nil, err
		}
		bar.Color = plotutil.Color(i)
		bar.LineStyle.Color = color.White
		if prev != nil {
			bar.StackOn(prev)
		}
		prev = bar
		p.Add(bar)
		p.Legend.Add(names[i], bar)
	}
	labels := make([]string, len(ns))
	for i, n := range ns {
		labels[i] = strconv.FormatFloat(n, 'f', -1, 64)
	}
	p.NominalX(labels...)
	p.Y.Max = 130 // room for the legend above the bars
	return p, nil
}

// tables renders the markdown of every table the input allows.
func tables(sums []bench.Summary, cfg *config, skip func(string, error)) string {
	var b strings.Builder
	b.WriteString("<!-- generated by bench/plots from saved `go test -bench` output; medians over the runs -->\n\n")
	if t, err := bench.StageTable(sums, cfg.d); err != nil {
		skip("stage table", err)
	} else {
		fmt.Fprintf(&b, "### Per-stage cost (d = %d)\n\n%s\n", cfg.d, t.Markdown())
	}
	rows := bench.ScalingSlopes(sums, cfg.d, cfg.n)
	usable := 0
	for _, r := range rows {
		if r.Err == nil {
			usable++
		}
	}
	if usable == 0 {
		skip("slope table", errors.New("no stage has two sizes"))
	} else {
		fmt.Fprintf(&b, "### Log-log slopes beside the theory\n\n%s\n", bench.SlopeTable(rows).Markdown())
	}
	if t, err := bench.VariantTable(sums, "eig", "n", "block", map[string]string{"d": "20"}); err != nil {
		skip("eigensolver table", err)
	} else {
		fmt.Fprintf(&b, "### Eigensolvers, d = 20 (ratios to block, same run)\n\n%s\n", t.Markdown())
	}
	if t, err := bench.VariantTable(sums, "qp", "d", "bounded", nil); err != nil {
		skip("QP table", err)
	} else {
		fmt.Fprintf(&b, "### SKL QP solvers (ratios to bounded, same run)\n\n%s\n", t.Markdown())
	}
	return b.String()
}
