package repro

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// Pooling several runs of one table, each with its own seed and so its own
// draws. For a learning-curve table (thesis-bmal, thesis-bmal-test): every
// trial's area under a Fisher column's curve minus top-k entropy's on the
// same trial, pooled over all the trials of all the runs. For the
// head-to-head table (baselines): its targets read on all the draws.

// pooledRun is one run read back from its JSON.
type pooledRun struct {
	table string
	seed  uint64
	res   *Result
}

// readRun reads the JSON that Result.JSON wrote, with its per-trial values.
func readRun(r io.Reader, name string) (pooledRun, error) {
	var in struct {
		Table string    `json:"table"`
		Seed  uint64    `json:"seed"`
		Rows  []jsonRow `json:"rows"`
	}
	if err := json.NewDecoder(r).Decode(&in); err != nil {
		return pooledRun{}, fmt.Errorf("repro: %s: %w", name, err)
	}
	if in.Table == "" || len(in.Rows) == 0 {
		return pooledRun{}, fmt.Errorf("repro: %s: no table or no rows (not the -json of ukm reproduce)", name)
	}
	res := &Result{}
	for _, j := range in.Rows {
		if j.Mean == nil {
			// Every draw failed, or the column did not run: no values,
			// so a curve through this row has no area.
			res.Rows = append(res.Rows, &Row{Dataset: j.Dataset, Labeled: j.Labeled, PerClass: j.PerClass, Method: j.Method})
			continue
		}
		if len(j.Values) == 0 {
			return pooledRun{}, fmt.Errorf("repro: %s: row %s l=%d %s has no per-trial values (written by an older ukm: run the table again)", name, j.Dataset, j.Labeled, j.Method)
		}
		row := &Row{Dataset: j.Dataset, Labeled: j.Labeled, PerClass: j.PerClass, Method: j.Method}
		for _, v := range j.Values {
			if v == nil {
				row.acc = append(row.acc, math.NaN())
			} else {
				row.acc = append(row.acc, *v)
			}
		}
		res.Rows = append(res.Rows, row)
	}
	return pooledRun{table: in.Table, seed: in.Seed, res: res}, nil
}

// Pool reads runs of one table (the -json files of ukm reproduce, with
// distinct seeds) and writes what they say pooled: for a learning-curve
// table (thesis-bmal, thesis-bmal-test) poolAreas, for the head-to-head
// table (baselines) poolHeadToHead.
func Pool(w io.Writer, files []io.Reader, names []string) error {
	if len(files) == 0 {
		return fmt.Errorf("repro: no runs to pool")
	}
	var runs []pooledRun
	for i, f := range files {
		run, err := readRun(f, names[i])
		if err != nil {
			return err
		}
		if len(runs) > 0 && run.table != runs[0].table {
			return fmt.Errorf("repro: %s is a run of %s, %s of %s: pool runs of one table", names[i], run.table, names[0], runs[0].table)
		}
		for k, r := range runs {
			if r.seed == run.seed {
				return fmt.Errorf("repro: %s and %s are runs of seed %d (the same draws twice)", names[k], names[i], run.seed)
			}
		}
		runs = append(runs, run)
	}
	table := runs[0].table
	if _, ok := registry[table]; ok {
		switch {
		case strings.HasPrefix(table, "thesis-bmal"):
			return poolAreas(w, runs, names)
		case table == "baselines":
			return poolHeadToHead(w, runs)
		}
	}
	return fmt.Errorf("repro: runs of %s do not pool (thesis-bmal, thesis-bmal-test and baselines do)", table)
}

// poolAreas writes, for every Fisher column, its area minus top-k
// entropy's of the same kernel on every data set, pooled over all the
// trials of all the runs: the mean of the paired differences ± its
// standard error, `*` when a paired t-test over all the trials gives
// p < 0.05 (a trial whose curve has a failed draw is left out of its set's
// pairs), the sets where the mean is at least zero, and that count in each
// run alone.
func poolAreas(w io.Writer, runs []pooledRun, names []string) error {
	runSets := make([][]curveSet, len(runs))
	for i, r := range runs {
		runSets[i] = curveSets(r.res)
	}
	var sets []string
	for _, cs := range runSets[0] {
		sets = append(sets, cs.name)
	}
	var seeds []string
	for _, r := range runs {
		seeds = append(seeds, fmt.Sprint(r.seed))
	}
	fmt.Fprintf(w, "Area − top-k entropy's (%s), %d runs pooled (seeds %s): mean ± s.e. of the paired differences over all trials; `*`: p < 0.05 (paired t-test).\n\n",
		runs[0].table, len(runs), strings.Join(seeds, ", "))
	fmt.Fprintf(w, "| column | %s | at or above | per run |\n|---|%s---|---|\n", strings.Join(sets, " | "), strings.Repeat("---|", len(sets)))
	for _, v := range bmalVariants {
		for _, k := range bmalKernels {
			col := v + "/" + k
			var cells []string
			wins := 0
			perRun := make([]int, len(runs))
			for _, set := range sets {
				var d []float64
				for ri := range runs {
					a, e := runAreas(runSets[ri], set, col), runAreas(runSets[ri], set, "Entropy/"+k)
					if a == nil || e == nil {
						return fmt.Errorf("repro: %s: no complete %s or Entropy/%s curve on %s", names[ri], col, k, set)
					}
					var dr []float64
					for t := range a {
						if !math.IsNaN(a[t]) && !math.IsNaN(e[t]) {
							dr = append(dr, a[t]-e[t])
						}
					}
					if Summarize(dr).Mean >= 0 {
						perRun[ri]++
					}
					d = append(d, dr...)
				}
				s := Summarize(d)
				p, err := PairedT(d, make([]float64, len(d)))
				cell := fmt.Sprintf("%+.2f ± %.2f", s.Mean, s.StdErr)
				if err == nil && p < 0.05 {
					cell += "*"
				}
				cells = append(cells, strings.Replace(cell, "-", "−", 1))
				if s.Mean >= 0 {
					wins++
				}
			}
			per := make([]string, len(perRun))
			for i, c := range perRun {
				per[i] = fmt.Sprint(c)
			}
			fmt.Fprintf(w, "| %s | %s | %d of %d | %s |\n", col, strings.Join(cells, " | "), wins, len(sets), strings.Join(per, ", "))
		}
	}
	return nil
}

// runAreas returns every trial's area under a column's curve on one set of
// a run (NaN for a trial with a failed draw), nil if the run lacks it.
func runAreas(sets []curveSet, set, col string) []float64 {
	i := slices.IndexFunc(sets, func(cs curveSet) bool { return cs.name == set })
	if i < 0 {
		return nil
	}
	return areas(sets[i].methods[col])
}
