package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"text/tabwriter"
	"time"

	"ukm/cmd/ukm/internal/repro"
	"ukm/dataset"
	"ukm/models"
	"ukm/models/active"
)

// demo compares the base RBF kernel, SKL and the active strategies on the
// synthetic sets, averaged over a few seeded trials.
func demo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "random seed (data, labeled sets, folds)")
	trials := fs.Int("trials", 5, "trials per data set")
	perClass := fs.Int("n", 150, "points per class")
	labeled := fs.Int("l", 10, "initial labeled points")
	budget := fs.Int("queries", 10, "labels the active strategies may ask for")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *trials < 1 || *perClass < 10 || *labeled < 2 || *budget < 1 || *labeled+*budget >= 2**perClass {
		return fmt.Errorf("demo: need trials >= 1, n >= 10, l >= 2, queries >= 1 and l + queries < 2n")
	}
	sets := []struct {
		name  string
		gen   func(int, float64, uint64) (*dataset.Set, error)
		noise float64
	}{
		{"twocircles", dataset.TwoCircles, 0.1},
		{"relevance", dataset.Relevance, 0.25},
		{"twomoons", dataset.TwoMoons, 0.1},
	}
	type method struct {
		name string
		run  func(ctx context.Context, s *dataset.Set, lab []int, seed uint64) (float64, error)
	}
	fit := func(design models.DesignKind) func(ctx context.Context, s *dataset.Set, lab []int, seed uint64) (float64, error) {
		return func(ctx context.Context, s *dataset.Set, lab []int, seed uint64) (float64, error) {
			m, err := models.Fit(ctx, s.X, lab, pick(s.Y, lab), &models.Options{Design: design, Seed: seed})
			if err != nil {
				return 0, err
			}
			u := others(len(s.Y), lab)
			pred, err := m.PredictRows(nil, u)
			if err != nil {
				return 0, err
			}
			ok := 0
			for i, j := range u {
				if pred[i] == s.Y[j] {
					ok++
				}
			}
			return 100 * float64(ok) / float64(len(u)), nil
		}
	}
	loop := func(mk func(models.Options, int, int) *models.LoopOptions) func(ctx context.Context, s *dataset.Set, lab []int, seed uint64) (float64, error) {
		return func(ctx context.Context, s *dataset.Set, lab []int, seed uint64) (float64, error) {
			lo := mk(models.Options{Seed: seed}, *budget, 1)
			lo.Truth = s.Y
			_, rounds, err := models.Loop(ctx, s.X, lab, pick(s.Y, lab), active.GroundTruth(s.Y), lo)
			if err != nil {
				return 0, err
			}
			return 100 * rounds[len(rounds)-1].Accuracy, nil
		}
	}
	methods := []method{
		{"RBF + KLR", fit(models.Standard)},
		{"SKL(RBF) + KLR", fit(models.SKL)},
		{"Order (10-NN graph) + KLR", fit(models.Order)},
		{"Auto (selected on the labels)", fit(models.Auto)},
		{fmt.Sprintf("KLR+Rand (+%d)", *budget), loop(models.KLRRand)},
		{fmt.Sprintf("KLR+Active (+%d)", *budget), loop(models.KLRActive)},
		{fmt.Sprintf("UKLR (+%d)", *budget), loop(models.UKLR)},
	}
	fmt.Fprintf(stdout, "ukm demo: %d points per class, %d labeled, %d trials, seed %d\n", *perClass, *labeled, *trials, *seed)
	fmt.Fprintf(stdout, "accuracy (%%) on the unlabeled points, mean ± standard error; time per trial\n\n")
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "method\t")
	for _, s := range sets {
		fmt.Fprintf(tw, "%s\t", s.name)
	}
	fmt.Fprint(tw, "ms/trial\t\n")
	prog := newProgress(stderr, "demo")
	total, done := len(methods)*len(sets)**trials, 0
	for _, m := range methods {
		fmt.Fprintf(tw, "%s\t", m.name)
		var elapsed time.Duration
		for si, s := range sets {
			acc := make([]float64, *trials)
			for t := range acc {
				ts := *seed*1000 + uint64(si*100+t)
				data, err := s.gen(*perClass, s.noise, ts)
				if err != nil {
					return err
				}
				lab, err := repro.SampleLabeled(rand.New(rand.NewPCG(ts, 7)), data.Y, 2, *labeled)
				if err != nil {
					return err
				}
				start := time.Now()
				acc[t], err = m.run(ctx, data, lab, ts)
				if err != nil {
					return fmt.Errorf("demo: %s on %s: %w", m.name, s.name, err)
				}
				elapsed += time.Since(start)
				done++
				prog.update(done, total)
			}
			sum := repro.Summarize(acc)
			fmt.Fprintf(tw, "%.1f ± %.1f\t", sum.Mean, sum.StdErr)
		}
		fmt.Fprintf(tw, "%.2f\t\n", float64(elapsed.Microseconds())/1000/float64(len(sets)**trials))
	}
	return tw.Flush()
}

func pick(y, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

func others(n int, idx []int) []int {
	in := make([]bool, n)
	for _, i := range idx {
		in[i] = true
	}
	var out []int
	for i := range n {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}
