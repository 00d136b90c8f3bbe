package repro

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"ukm/dataset"
)

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
	methods, err := tableMethods(tab, cfg)
	if err != nil {
		return nil, err
	}
	start := time.Now()
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
	r := &runner{tab: tab, cfg: cfg, cells: cells, total: len(datasets) * len(cells) * cfg.Trials}
	runs := make([]dataRun, len(datasets))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int, len(datasets))
	for i := range datasets {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range max(1, min(cfg.Parallel, len(datasets))) {
		wg.Go(func() {
			for i := range next {
				if err := ctx.Err(); err != nil {
					r.fail(err) // kept only if no data set failed first
					return
				}
				if err := r.data(ctx, datasets[i], &runs[i]); err != nil {
					r.fail(err)
					cancel()
				}
			}
		})
	}
	wg.Wait()
	if r.err != nil {
		return nil, r.err
	}
	for _, dr := range runs {
		if cfg.Draws != nil {
			if _, err := cfg.Draws.Write(dr.draws.Bytes()); err != nil {
				return nil, err
			}
		}
		res.Rows = append(res.Rows, dr.rows...)
		res.Failures = append(res.Failures, dr.failures...)
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// tableMethods builds a table's columns, its own methods then the
// peers', kept to cfg.Methods when that is set (every name must be one of
// the table's).
func tableMethods(tab *Table, cfg Config) ([]Method, error) {
	methods := tab.Methods(&cfg.Base)
	for _, pm := range tab.PeerMethods {
		methods = append(methods, peerMethod(pm, cfg.Peers))
	}
	if len(cfg.Methods) == 0 {
		return methods, nil
	}
	names := make([]string, len(methods))
	for i, m := range methods {
		names[i] = m.Name
	}
	if _, err := subset("method", names, cfg.Methods); err != nil {
		return nil, err
	}
	return slices.DeleteFunc(methods, func(m Method) bool { return !slices.Contains(cfg.Methods, m.Name) }), nil
}

// runner is the state of one Run shared by the data sets it runs at once:
// progress, failures as they happen, and the first error.
type runner struct {
	tab   *Table
	cfg   Config
	cells []sizeCell
	total int

	mu   sync.Mutex
	done int
	err  error // the first error of any data set; it stops the others
}

// dataRun is what one data set contributes to a Result.
type dataRun struct {
	rows     []*Row
	failures []Failure
	draws    bytes.Buffer // its labeled sets as JSON lines, written in table order
}

// fail records err unless an earlier error was recorded: the first error
// is the cause, and those after it mostly the cancellation it led to.
func (r *runner) fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err == nil {
		r.err = err
	}
}

// progress counts n more trials done.
func (r *runner) progress(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done += n
	if r.cfg.Progress != nil {
		r.cfg.Progress(r.done, r.total)
	}
}

// onFailure reports a failed trial, one report at a time.
func (r *runner) onFailure(f Failure) {
	if r.cfg.OnFailure == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cfg.OnFailure(f)
}

// data runs every cell of one data set into out. Its methods are built
// for it alone, so that no state crosses data sets run at once.
func (r *runner) data(ctx context.Context, name string, out *dataRun) error {
	d, err := r.tab.load(r.cfg.DataDir, name)
	if err != nil {
		return err
	}
	methods, err := tableMethods(r.tab, r.cfg) // Run checked the names
	if err != nil {
		return err
	}
	for _, cl := range r.cells {
		if cl.perClass && !r.tab.PerClass && !classesAllow(d, cl.l) {
			r.progress(r.cfg.Trials)
			continue
		}
		if err := r.cell(ctx, name, d, methods, cl, out); err != nil {
			return err
		}
	}
	return nil
}

// sizeIndex is the position of a cell's size in the full table, from which
// its trials' seeds follow, so that a restricted run (-datasets, -sizes)
// draws the same labeled sets as the full one.
func sizeIndex(tab *Table, cl sizeCell) int {
	si := slices.Index(tab.Sizes, cl.l)
	if cl.perClass != tab.PerClass {
		return len(tab.Sizes) + slices.Index(tab.PerClassSizes, cl.l)
	}
	if si < 0 {
		return len(tab.Sizes) + cl.l
	}
	return si
}

// cell runs the trials of one cell (a data set and a label count) and
// appends its rows, one per method, to out.
func (r *runner) cell(ctx context.Context, name string, d *Data, methods []Method, cl sizeCell, out *dataRun) error {
	tab, cfg := r.tab, r.cfg
	di, si := slices.Index(tab.Datasets, name), sizeIndex(tab, cl)
	group := make([]*Row, len(methods))
	for mi, m := range methods {
		group[mi] = &Row{Dataset: name, Labeled: cl.l, PerClass: cl.perClass, Method: m.Name, NA: m.NA}
		if p, ok := PublishedCell(tab.Name, name, m.Name, cl.l); ok {
			group[mi].Published = &p
		}
	}
	failed := make([]bool, cfg.Trials)
	for trial := 0; trial < cfg.Trials; trial++ {
		seed := trialSeed(cfg.Seed, di, si, trial)
		rng := rand.New(rand.NewPCG(seed, 0x1abe1))
		var labeled []int
		var err error
		if cl.perClass {
			labeled, err = SampleStratified(rng, d.Y, d.Classes, cl.l)
		} else {
			labeled, err = SampleLabeled(rng, d.Y, d.Classes, cl.l)
		}
		if err != nil {
			return fmt.Errorf("repro: %s l=%d: %w", name, cl.l, err)
		}
		draw := Draw{Dataset: name, Labeled: cl.l, PerClass: cl.perClass, Trial: trial, Seed: seed, Idx: labeled}
		if cfg.Draws != nil {
			if err := writeDraw(&out.draws, draw); err != nil {
				return err
			}
		}
		if cfg.DrawsOnly {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if failed[trial], err = r.trial(ctx, d, methods, group, draw, out); err != nil {
			return err
		}
		r.progress(1)
	}
	finishGroup(group, failed)
	out.rows = append(out.rows, group...)
	return nil
}

// trial runs every method on one draw, adding each outcome to its row of
// group. A method that fails records a Failure and a NaN, and failed is
// set; the error returned stops the run (a peer file without this draw, a
// cancelled context, a misuse of the table).
func (r *runner) trial(ctx context.Context, d *Data, methods []Method, group []*Row, draw Draw, out *dataRun) (failed bool, err error) {
	key := Draw{Dataset: draw.Dataset, Labeled: draw.Labeled, PerClass: draw.PerClass, Trial: draw.Trial}
	for mi, m := range methods {
		if m.NA {
			continue
		}
		var tr Trial
		var err error
		if m.Peer {
			tr, err = r.cfg.Peers.trial(m.Name, key)
		} else {
			tr, err = m.Run(ctx, d, draw.Idx, draw.Seed)
		}
		row := group[mi]
		if err != nil {
			var fe fatalError
			if m.Peer || ctx.Err() != nil || errors.As(err, &fe) {
				return failed, fmt.Errorf("repro: %s l=%d trial %d %s: %w", draw.Dataset, draw.Labeled, draw.Trial, m.Name, err)
			}
			f := Failure{Dataset: draw.Dataset, Labeled: draw.Labeled, PerClass: draw.PerClass, Trial: draw.Trial, Method: m.Name, Err: err}
			out.failures = append(out.failures, f)
			r.onFailure(f)
			failed = true
			row.acc = append(row.acc, math.NaN())
			continue
		}
		row.add(tr, len(d.Y)-len(draw.Idx), m.Peer)
	}
	return failed, nil
}

// add records one trial's outcome in the row; unlabeled is the number of
// points the trial was scored on.
func (row *Row) add(tr Trial, unlabeled int, peer bool) {
	row.acc = append(row.acc, tr.Accuracy)
	row.ran++
	if tr.Warning != nil {
		row.Warnings++
	}
	row.Unreached += tr.Unreached
	row.UnreachedCorrect += tr.UnreachedCorrect
	if peer {
		row.Unlabeled += unlabeled
	}
	if tr.Chosen != "" {
		if row.Chosen == nil {
			row.Chosen = map[string]int{}
		}
		row.Chosen[tr.Chosen]++
	}
	row.Seconds.Kernel += tr.Times.Kernel.Seconds()
	row.Seconds.Eig += tr.Times.Eig.Seconds()
	row.Seconds.QP += tr.Times.Design.Seconds()
	row.Seconds.Fit += (tr.Times.Fit + tr.Times.Select).Seconds()
	row.Seconds.Total += tr.Times.Total().Seconds()
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
