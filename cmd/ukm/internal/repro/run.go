package repro

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/models"
)

// Data is one data set of a table.
type Data struct {
	Name    string
	X       *mat.Dense
	Y       []int
	Classes int

	// memo holds per-data-set work that does not depend on the labels
	// (kernels, eigenpairs), computed once for all trials and methods.
	memo map[string]any
}

// memoize returns the value stored under key, computing it with f the
// first time. Run calls the methods sequentially, so no lock is needed.
func (d *Data) memoize(key string, f func() (any, error)) (any, error) {
	if v, ok := d.memo[key]; ok {
		return v, nil
	}
	v, err := f()
	if err != nil {
		return nil, err
	}
	if d.memo == nil {
		d.memo = map[string]any{}
	}
	d.memo[key] = v
	return v, nil
}

// Trial is the outcome of one method on one labeled set.
type Trial struct {
	Accuracy float64 // percent, on the points left unlabeled
	Times    models.StageTimes
	// Warning is set when the classifier returned a usable model together
	// with an error (an iteration limit or a stalled line search); the
	// trial is still scored.
	Warning error
	// Chosen names the configuration a model selection chose, if any.
	Chosen string
}

// Method is one column of a table.
type Method struct {
	Name string
	// NA marks a method that the library does not provide yet; its cells
	// print "n/a".
	NA  bool
	Run func(ctx context.Context, d *Data, labeled []int, seed uint64) (Trial, error)
	// Peer marks a column read from Config.Peers instead of run.
	Peer bool
}

// Table describes one reproducible table.
type Table struct {
	Name     string
	Title    string
	Datasets []string // file names (without .csv) in the data directory
	Sizes    []int    // labeled set sizes (per class if PerClass)
	// PerClass draws Sizes[i] labeled points from every class (stratified)
	// instead of Sizes[i] points in all.
	PerClass bool
	// PerClassSizes, when PerClass is false, adds cells of that many
	// labeled points per class after the Sizes cells; a data set whose
	// smallest class is too small for a size skips that cell.
	PerClassSizes []int
	// PeerMethods name columns filled from a peer tool's results
	// (Config.Peers) on exactly the same labeled sets; without peers
	// their cells read n/a.
	PeerMethods []string
	// Methods builds the columns on top of the run's base options.
	Methods func(base *models.Options) []Method
	// Claim, if not nil, checks the paper's claim on our results and says
	// how it fared.
	Claim func(r *Result) string
}

// Config is one reproduction run.
type Config struct {
	Table   string
	DataDir string
	Trials  int    // zero means 20 (KDD'06 section 6.1)
	Seed    uint64 // drives labeled sets, folds and eigensolver starts
	// Base holds the model options shared by every method (for sensitivity
	// studies); each method overrides the kernel and design it names.
	Base models.Options
	// Datasets and Sizes, if set, restrict the run (a quick smoke test).
	Datasets []string
	Sizes    []int
	// Progress, if set, is called after every trial of every cell.
	Progress func(done, total int)
	// Draws, if not nil, receives every labeled set as one JSON line
	// (see Draw), for the peer tools to run on.
	Draws io.Writer
	// Peers holds the peer tools' accuracies by draw (see LoadPeers).
	Peers Peers
	// DrawsOnly writes the draws and runs no method.
	DrawsOnly bool
	// OnFailure, if set, is called when a trial fails, as it happens (the
	// run goes on; Result.Failures keeps the list).
	OnFailure func(Failure)
}

// Row is one (dataset, labeled size, method) cell.
type Row struct {
	Dataset   string
	Labeled   int
	Method    string
	NA        bool
	Summary   Summary
	Seconds   Seconds
	Published *Published
	PerClass  bool    // Labeled counts points per class
	Warnings  int     // trials whose classifier ended with a warning
	Best      bool    // highest mean in its (dataset, size) group
	PValue    float64 // paired t-test against the group's best (1 for the best)
	// Chosen counts the configurations a model selection chose, by name.
	Chosen map[string]int
	// Failed counts the draws left out of this cell because a method of
	// the cell failed on them (every column loses the draw, so the
	// comparisons stay paired); Result.Failures says why.
	Failed int
	acc    []float64
	ran    int // trials whose times Seconds sums
}

// Seconds holds mean wall-clock seconds per trial by stage.
type Seconds struct {
	Kernel, Eig, QP, Fit, Total float64
}

// Result is a finished reproduction.
type Result struct {
	Table   *Table
	Config  Config
	Methods []Method
	Rows    []*Row
	Elapsed time.Duration
	// Failures lists the trials that ended in an error, in the order they
	// ran. The run goes on without them: a failure costs its cell one draw
	// (Row.Failed), not the table.
	Failures []Failure
}

// Failure is one method's error on one labeled set.
type Failure struct {
	Dataset  string
	Labeled  int
	PerClass bool
	Trial    int
	Method   string
	Err      error
}

func (f Failure) String() string {
	lab := fmt.Sprint(f.Labeled)
	if f.PerClass {
		lab += "/class"
	}
	return fmt.Sprintf("%s l=%s trial %d %s: %v", f.Dataset, lab, f.Trial, f.Method, f.Err)
}

// Tables lists the reproducible tables by name.
func Tables() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the table of the given name.
func Lookup(name string) (*Table, error) {
	t, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("repro: unknown table %q (known: %s)", name, strings.Join(Tables(), ", "))
	}
	return t, nil
}

// LoadData reads one data set of the reference collection from dir.
func LoadData(dir, name string) (*Data, error) {
	var p string
	for _, fn := range []string{name + ".csv", name + ".csv.gz"} {
		if _, err := os.Stat(filepath.Join(dir, fn)); err == nil {
			p = filepath.Join(dir, fn)
			break
		}
	}
	if p == "" {
		return nil, fmt.Errorf("repro: data set %q not found in %s (want %s.csv)", name, dir, name)
	}
	s, err := dataset.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return &Data{Name: name, X: s.X, Y: s.Y, Classes: len(s.Classes)}, nil
}

// Run executes the protocol of cfg.Table.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	tab, err := Lookup(cfg.Table)
	if err != nil {
		return nil, err
	}
	if cfg.Trials == 0 {
		cfg.Trials = 20
	}
	if cfg.Trials < 1 {
		return nil, fmt.Errorf("repro: %d trials, want at least 1", cfg.Trials)
	}
	if st, err := os.Stat(cfg.DataDir); err != nil || !st.IsDir() {
		return nil, fmt.Errorf("repro: data directory %q does not exist", cfg.DataDir)
	}
	datasets, err := subset("data set", tab.Datasets, cfg.Datasets)
	if err != nil {
		return nil, err
	}
	sizes, err := subsetInt(tab.Sizes, cfg.Sizes)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	methods := tab.Methods(&cfg.Base)
	for _, pm := range tab.PeerMethods {
		methods = append(methods, peerMethod(pm, cfg.Peers))
	}
	res := &Result{Table: tab, Config: cfg, Methods: methods}
	cells := make([]sizeCell, 0, len(sizes)+len(tab.PerClassSizes))
	for _, l := range sizes {
		cells = append(cells, sizeCell{l, tab.PerClass})
	}
	if len(cfg.Sizes) == 0 {
		for _, l := range tab.PerClassSizes {
			cells = append(cells, sizeCell{l, true})
		}
	}
	total := len(datasets) * len(cells) * cfg.Trials
	done := 0
	for _, name := range datasets {
		d, err := tab.load(cfg.DataDir, name)
		if err != nil {
			return nil, err
		}
		// Seeds follow the position in the full table, so a restricted run
		// (-datasets, -sizes) draws the same labeled sets as the full one.
		di := slices.Index(tab.Datasets, name)
		for _, cl := range cells {
			l := cl.l
			si := slices.Index(tab.Sizes, l)
			if cl.perClass != tab.PerClass {
				si = len(tab.Sizes) + slices.Index(tab.PerClassSizes, l)
			} else if si < 0 {
				si = len(tab.Sizes) + l
			}
			if cl.perClass && !tab.PerClass && !classesAllow(d, l) {
				done += cfg.Trials
				continue
			}
			group := make([]*Row, len(methods))
			for mi, m := range methods {
				group[mi] = &Row{Dataset: name, Labeled: l, PerClass: cl.perClass, Method: m.Name, NA: m.NA}
				if p, ok := PublishedCell(tab.Name, name, m.Name, l); ok {
					group[mi].Published = &p
				}
			}
			failed := make([]bool, cfg.Trials)
			for trial := 0; trial < cfg.Trials; trial++ {
				seed := trialSeed(cfg.Seed, di, si, trial)
				rng := rand.New(rand.NewPCG(seed, 0x1abe1))
				var labeled []int
				if cl.perClass {
					labeled, err = SampleStratified(rng, d.Y, d.Classes, l)
				} else {
					labeled, err = SampleLabeled(rng, d.Y, d.Classes, l)
				}
				if err != nil {
					return nil, fmt.Errorf("repro: %s l=%d: %w", name, l, err)
				}
				if cfg.Draws != nil {
					if err := writeDraw(cfg.Draws, Draw{Dataset: name, Labeled: l, PerClass: cl.perClass, Trial: trial, Seed: seed, Idx: labeled}); err != nil {
						return nil, err
					}
				}
				if cfg.DrawsOnly {
					continue
				}
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				for mi, m := range methods {
					if m.NA {
						continue
					}
					var tr Trial
					var err error
					if m.Peer {
						tr, err = cfg.Peers.trial(m.Name, Draw{Dataset: name, Labeled: l, PerClass: cl.perClass, Trial: trial})
					} else {
						tr, err = m.Run(ctx, d, labeled, seed)
					}
					r := group[mi]
					if err != nil {
						var fe fatalError
						if m.Peer || ctx.Err() != nil || errors.As(err, &fe) {
							// A peer file without this draw is the wrong
							// file, a cancelled run stops, and so does a
							// misuse of the table.
							return nil, fmt.Errorf("repro: %s l=%d trial %d %s: %w", name, l, trial, m.Name, err)
						}
						res.Failures = append(res.Failures, Failure{Dataset: name, Labeled: l, PerClass: cl.perClass, Trial: trial, Method: m.Name, Err: err})
						if cfg.OnFailure != nil {
							cfg.OnFailure(res.Failures[len(res.Failures)-1])
						}
						failed[trial] = true
						r.acc = append(r.acc, math.NaN())
						continue
					}
					r.acc = append(r.acc, tr.Accuracy)
					r.ran++
					if tr.Warning != nil {
						r.Warnings++
					}
					if tr.Chosen != "" {
						if r.Chosen == nil {
							r.Chosen = map[string]int{}
						}
						r.Chosen[tr.Chosen]++
					}
					r.Seconds.Kernel += tr.Times.Kernel.Seconds()
					r.Seconds.Eig += tr.Times.Eig.Seconds()
					r.Seconds.QP += tr.Times.Design.Seconds()
					r.Seconds.Fit += (tr.Times.Fit + tr.Times.Select).Seconds()
					r.Seconds.Total += tr.Times.Total().Seconds()
				}
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, total)
				}
			}
			finishGroup(group, failed)
			res.Rows = append(res.Rows, group...)
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// fatalError marks a method's error that every draw would meet (a misuse
// of the table, such as reading rows that were not run): it ends the run
// instead of costing one draw.
type fatalError struct{ error }

func (e fatalError) Unwrap() error { return e.error }

// trialSeed derives the seed of one trial so that every method sees the
// same labeled set (paired comparisons) and cells are independent.
func trialSeed(seed uint64, di, si, trial int) uint64 {
	return seed*0x9e3779b97f4a7c15 + uint64(di)<<40 + uint64(si)<<24 + uint64(trial)
}

// finishGroup summarises the rows of one cell: the draws on which any
// method failed are dropped from every row, so that the paired tests
// compare the same draws.
func finishGroup(group []*Row, failed []bool) {
	nFailed := 0
	for _, f := range failed {
		if f {
			nFailed++
		}
	}
	var best *Row
	for _, r := range group {
		if r.NA {
			continue
		}
		if nFailed > 0 {
			kept := r.acc[:0]
			for t, a := range r.acc {
				if !failed[t] {
					kept = append(kept, a)
				}
			}
			r.acc, r.Failed = kept, nFailed
		}
		r.Summary = Summarize(r.acc)
		// Times are per trial the method completed.
		f := 1 / float64(max(1, r.ran))
		r.Seconds = Seconds{r.Seconds.Kernel * f, r.Seconds.Eig * f, r.Seconds.QP * f, r.Seconds.Fit * f, r.Seconds.Total * f}
		if best == nil || r.Summary.Mean > best.Summary.Mean {
			best = r
		}
	}
	if best == nil {
		return
	}
	best.Best = true
	for _, r := range group {
		if r.NA {
			continue
		}
		r.PValue = 1
		if r != best && len(r.acc) > 1 {
			if p, err := PairedT(best.acc, r.acc); err == nil {
				r.PValue = p
			}
		}
	}
}

func subset(what string, all, want []string) ([]string, error) {
	if len(want) == 0 {
		return all, nil
	}
	for _, w := range want {
		found := false
		for _, a := range all {
			found = found || a == w
		}
		if !found {
			return nil, fmt.Errorf("repro: %s %q is not in this table (it has %s)", what, w, strings.Join(all, ", "))
		}
	}
	return want, nil
}

func subsetInt(all, want []int) ([]int, error) {
	if len(want) == 0 {
		return all, nil
	}
	for _, w := range want {
		if w < 1 {
			return nil, fmt.Errorf("repro: labeled size %d must be positive", w)
		}
	}
	return want, nil
}

// accuracy returns the percentage of idx whose prediction equals truth.
func accuracy(pred []int, idx []int, truth []int) float64 {
	if len(idx) == 0 {
		return math.NaN()
	}
	ok := 0
	for i, j := range idx {
		if pred[i] == truth[j] {
			ok++
		}
	}
	return 100 * float64(ok) / float64(len(idx))
}

// complement returns the indices 0..n-1 not in idx, in order.
func complement(n int, idx []int) []int {
	in := make([]bool, n)
	for _, i := range idx {
		in[i] = true
	}
	out := make([]int, 0, n-len(idx))
	for i := 0; i < n; i++ {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}

func labelsOf(y, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

// fitMethod returns a Method that fits one model with the given options on
// top of the run's base options and scores it on the unlabeled points.
func fitMethod(name string, base *models.Options, set func(o *models.Options)) Method {
	return Method{Name: name, Run: func(ctx context.Context, d *Data, labeled []int, seed uint64) (Trial, error) {
		o := *base
		o.Seed = seed
		set(&o)
		o = o.Trim() // the base's knobs reach the methods that use them
		m, err := models.Fit(ctx, d.X, labeled, labelsOf(d.Y, labeled), &o)
		return score(m, err, d, labeled)
	}}
}

// score scores a fitted model on the points left unlabeled; err is Fit's
// (a model with an error is scored and the error kept as a warning).
func score(m *models.Model, err error, d *Data, labeled []int) (Trial, error) {
	if err != nil && m == nil {
		return Trial{}, err
	}
	u := complement(len(d.Y), labeled)
	pred, perr := m.PredictRows(nil, u)
	if perr != nil {
		return Trial{}, perr
	}
	t := Trial{Accuracy: accuracy(pred, u, d.Y), Times: m.Timings(), Warning: err}
	if sel := m.Selection(); sel != nil {
		t.Times.Fit += sel.Elapsed
		t.Chosen = sel.Best().Name
	}
	return t, nil
}

// loopMethod returns a Method that runs an active-learning strategy with
// the given budget and batch and scores the final model on the points still
// unlabeled at the end.
func loopMethod(name string, base *models.Options, set func(o *models.Options), mk func(models.Options) *models.LoopOptions) Method {
	return Method{Name: name, Run: func(ctx context.Context, d *Data, labeled []int, seed uint64) (Trial, error) {
		o := *base
		o.Seed = seed
		set(&o)
		return runLoop(ctx, d, labeled, mk(o.Trim()))
	}}
}

// runLoop runs the active-learning loop lo from the labeled rows and
// returns the accuracy after its last round, with the stage times of all
// rounds.
func runLoop(ctx context.Context, d *Data, labeled []int, lo *models.LoopOptions) (Trial, error) {
	lo.Truth = d.Y
	_, rounds, err := models.Loop(ctx, d.X, labeled, labelsOf(d.Y, labeled), activeTruth(d.Y), lo)
	if err != nil {
		return Trial{}, err
	}
	if len(rounds) == 0 {
		return Trial{}, errors.New("repro: loop ran no round")
	}
	var t models.StageTimes
	for _, r := range rounds {
		t.Kernel += r.Times.Kernel
		t.Eig += r.Times.Eig
		t.Design += r.Times.Design
		t.Fit += r.Times.Fit
		t.Select += r.Times.Select
	}
	return Trial{Accuracy: 100 * rounds[len(rounds)-1].Accuracy, Times: t}, nil
}

// uklrClaim tests KDD'06 Table 3's claim, UKLR >= KLR+Active in at least
// 12 of 16 cells, for each kernel; qualifier (may be empty) says under
// which settings.
func uklrClaim(r *Result, qualifier string) string {
	var b strings.Builder
	for _, k := range []string{"Linear", "RBF"} {
		wins, cells := countAtLeast(r, "UKLR/"+k, "KLR+Active/"+k)
		verdict := "holds"
		if wins < 12*cells/16 {
			verdict = "does not hold"
		}
		fmt.Fprintf(&b, "- UKLR >= KLR+Active with the %s kernel%s in at least 12 of 16 cells: %d of %d — %s.\n", k, qualifier, wins, cells, verdict)
	}
	return b.String()
}
