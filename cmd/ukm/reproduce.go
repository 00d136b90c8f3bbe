package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"ukm/cmd/ukm/internal/repro"
	"ukm/dataset"
)

func reproduce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	table := fs.String("table", "", "table to reproduce: "+strings.Join(repro.Tables(), ", "))
	data := fs.String("data", "", "directory of the reference data sets (default: shared/datasets found above the working directory, or $UKM_DATASETS)")
	trials := fs.Int("trials", 20, "random labeled sets per cell")
	seed := fs.Uint64("seed", 1, "random seed")
	jsonOut := fs.String("json", "", "also write the results as JSON to this file")
	only := fs.String("datasets", "", "comma-separated subset of the table's data sets")
	sizes := fs.String("sizes", "", "comma-separated subset of labeled sizes")
	methods := fs.String("methods", "", "comma-separated subset of the table's columns, by their names in its header")
	quiet := fs.Bool("quiet", false, "no progress bar")
	parallel := fs.Int("parallel", 1, "data sets run at once (the tables are the same; the times in them are not, as the data sets share the cores)")
	var mf modelFlags
	draws := fs.String("draws", "", "write every labeled set drawn as a JSON line to this file (for bench/peers)")
	peers := fs.String("peers", "", "JSON lines of the peer tools' accuracies on this table's draws (bench/peers/baselines.sh)")
	drawsOnly := fs.Bool("draws-only", false, "with -draws: write the labeled sets and run nothing")
	pool := fs.String("pool", "", "comma-separated -json files of runs of one table with distinct seeds, and run nothing: for thesis-bmal or thesis-bmal-test print the Fisher columns' areas minus top-k entropy's pooled over their trials; for baselines the head-to-head targets read on all their draws")
	mf.register(fs, "skl")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *pool != "" {
		if len(setFlags(fs)) > 1 {
			return fmt.Errorf("reproduce: -pool reads finished runs and takes no other flag")
		}
		return poolRuns(stdout, strings.Split(*pool, ","))
	}
	if *table == "" {
		return fmt.Errorf("reproduce: -table is required (%s)", strings.Join(repro.Tables(), ", "))
	}
	if *trials < 1 {
		return fmt.Errorf("reproduce: -trials = %d, want at least 1", *trials)
	}
	if *parallel < 1 {
		return fmt.Errorf("reproduce: -parallel = %d, want at least 1", *parallel)
	}
	set := setFlags(fs)
	for _, f := range []string{"design", "kernel", "classifier", "weighting", "vote"} {
		if set[f] {
			return fmt.Errorf("reproduce: -%s is set by each method of the table; the model flags that apply are the knobs a method's design uses (such as -decay, -lambda, -d, -scale)", f)
		}
	}
	if _, err := repro.Lookup(*table); err != nil {
		return err
	}
	base, err := mf.options()
	if err != nil {
		return err
	}
	dir := *data
	if dir == "" {
		if dir, err = dataset.Dir(); err != nil {
			return fmt.Errorf("reproduce: no -data directory given and none found: %w", err)
		}
	}
	cfg := repro.Config{Table: *table, DataDir: dir, Trials: *trials, Seed: *seed, Base: base, Parallel: *parallel}
	if *only != "" {
		cfg.Datasets = strings.Split(*only, ",")
	}
	if *methods != "" {
		cfg.Methods = strings.Split(*methods, ",")
	}
	if *sizes != "" {
		for _, s := range strings.Split(*sizes, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return fmt.Errorf("reproduce: -sizes: %q is not an integer", s)
			}
			cfg.Sizes = append(cfg.Sizes, v)
		}
	}
	if *peers != "" {
		f, err := os.Open(*peers)
		if err != nil {
			return fmt.Errorf("reproduce: -peers: %w", err)
		}
		cfg.Peers, err = repro.LoadPeers(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	if *draws != "" {
		f, err := os.Create(*draws)
		if err != nil {
			return fmt.Errorf("reproduce: -draws: %w", err)
		}
		defer f.Close()
		cfg.Draws = f
		cfg.DrawsOnly = *drawsOnly
	} else if *drawsOnly {
		return fmt.Errorf("reproduce: -draws-only needs -draws FILE")
	}
	var jsonFile *os.File
	if *jsonOut != "" {
		// Created now, so that a bad path is found before the run.
		if jsonFile, err = os.Create(*jsonOut); err != nil {
			return fmt.Errorf("reproduce: -json: %w", err)
		}
		defer jsonFile.Close()
	}
	if !*quiet {
		cfg.Progress = newProgress(stderr, *table).update
	}
	cfg.OnFailure = func(f repro.Failure) { fmt.Fprintf(stderr, "\nreproduce: %s (the run goes on without this draw)\n", f) }
	res, err := repro.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if cfg.DrawsOnly {
		return nil
	}
	if err := res.Markdown(stdout); err != nil {
		return err
	}
	if jsonFile != nil {
		if err := res.JSON(jsonFile); err != nil {
			return err
		}
		if err := jsonFile.Close(); err != nil {
			return err
		}
	}
	if n := len(res.Failures); n > 0 {
		// The table is written; the exit status still says that it is
		// missing draws.
		return fmt.Errorf("reproduce: %d trials failed; the table leaves their draws out (listed under it)", n)
	}
	return nil
}

// poolRuns writes repro.Pool of the JSON files.
func poolRuns(w io.Writer, names []string) error {
	var files []io.Reader
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			return fmt.Errorf("reproduce: %w", err)
		}
		defer f.Close()
		files = append(files, f)
	}
	return repro.Pool(w, files, names)
}
