package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"time"

	"ukm/dataset"
)

// readData reads -data: a CSV or LIBSVM table, an IDX image file with its
// label file, or "fashion-mnist".
func readData(path, idxLabels string, topt dataset.TableOptions) (*dataset.Table, error) {
	var s *dataset.Set
	var err error
	switch {
	case path == "fashion-mnist":
		dir, derr := dataset.FashionMNISTDir()
		if derr != nil {
			return nil, fmt.Errorf("fashion-mnist: %w (install Debian's dataset-fashion-mnist or set $%s)", derr, dataset.EnvFashionMNIST)
		}
		s, err = dataset.FashionMNIST(dir)
	case idxLabels != "":
		s, err = dataset.LoadIDXPair(path, idxLabels)
	case strings.Contains(path, "idx3-ubyte"):
		return nil, fmt.Errorf("%s is an IDX image file: name its labels with -idx-labels", path)
	default:
		return dataset.ReadTable(path, topt)
	}
	if err != nil {
		return nil, err
	}
	labels := make([]string, len(s.Y))
	for i, y := range s.Y {
		labels[i] = s.Classes[y]
	}
	return &dataset.Table{X: s.X, Labels: labels}, nil
}

// keepLabels keeps n labeled rows of t, stratified: each class keeps its
// share of n (largest remainders, at least one row per class), the rows
// drawn at random with seed. The other labels are cleared and returned
// (indexed by row; "" for rows that stay labeled or were unlabeled).
func keepLabels(t *dataset.Table, n int, seed uint64) []string {
	byClass := map[string][]int{}
	var names []string
	total := 0
	for i, l := range t.Labels {
		if l == "" {
			continue
		}
		if _, ok := byClass[l]; !ok {
			names = append(names, l)
		}
		byClass[l] = append(byClass[l], i)
		total++
	}
	held := make([]string, len(t.Labels))
	if n >= total {
		return held
	}
	sort.Strings(names)
	quota := make(map[string]int, len(names))
	type rem struct {
		name string
		frac float64
	}
	var rems []rem
	used := 0
	for _, c := range names {
		exact := float64(n) * float64(len(byClass[c])) / float64(total)
		quota[c] = max(1, int(exact))
		used += quota[c]
		rems = append(rems, rem{c, exact - float64(int(exact))})
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].frac > rems[b].frac })
	for i := 0; used < n && i < len(rems); i++ {
		quota[rems[i].name]++
		used++
	}
	rng := rand.New(rand.NewPCG(seed, 0x1abe15))
	for _, c := range names {
		rows := byClass[c]
		rng.Shuffle(len(rows), func(a, b int) { rows[a], rows[b] = rows[b], rows[a] })
		for _, i := range rows[min(quota[c], len(rows)):] {
			held[i] = t.Labels[i]
			t.Labels[i] = ""
		}
	}
	return held
}

// noteKept tells the user on w when keepLabels kept more labeled rows than
// the n asked for (every class keeps at least one), so that a run on more
// labels than asked is not mistaken for one on n.
func noteKept(w io.Writer, name string, t *dataset.Table, n int) {
	if k := len(t.Labeled()); k > n {
		fmt.Fprintf(w, "%s: kept %d labeled rows, not %d: every class keeps at least one\n", name, k, n)
	}
}

// stageLogger returns an Options.Progress that writes one line per
// finished stage with the time since the fit started (plain lines, so that
// redirected logs stay readable).
func stageLogger(w io.Writer, name string) func(stage string, done, total int) {
	start := time.Now()
	return func(stage string, done, total int) {
		if done == total {
			fmt.Fprintf(w, "%s: %s done (%.1f s)\n", name, stage, time.Since(start).Seconds())
		}
	}
}
