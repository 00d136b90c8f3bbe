package repro

import (
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
					r.Unreached += tr.Unreached
					r.UnreachedCorrect += tr.UnreachedCorrect
					if m.Peer {
						r.Unlabeled += len(d.Y) - len(labeled)
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
