package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	"ukm/models"
	"ukm/models/active"
)

// activeCmd runs the active-learning loop on a fully labeled file: it keeps
// -labels of the labels, answers the loop's queries from the labels it held
// back, and writes the learning curve (the accuracy on the rows still
// unlabeled after every round, or on held-out rows with -holdout).
func activeCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("active", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var tf tableFlags
	tf.register(fs)
	keep := fs.Int("labels", 0, "labeled rows to start from (stratified by class, seeded by -seed); required")
	budget := fs.Int("budget", 20, "labels the loop may ask for in all")
	batch := fs.Int("batch", 1, "labels asked for per round")
	strategy := fs.String("strategy", "uklr", "uklr (re-learn the kernel every round, query by entropy), klr-active (fixed initial kernel, entropy) or klr-rand (fixed initial kernel, random queries)")
	sel := fs.String("select", "", "how each round's batch is chosen, replacing the strategy's: entropy, margin, random, fisher (batch-mode active learning by Fisher information, Hoi's thesis ch. 4) or kcenter (farthest-first among the 5 batch most uncertain); empty: the strategy's")
	shortlist := fs.Int("shortlist", 0, "with -select fisher: choose the batch among the N batch most uncertain rows (0: the whole pool, as the thesis)")
	shortlistPool := fs.Bool("shortlist-pool", false, "with -shortlist: the Fisher matrix of the shortlisted rows alone, as if they were the pool (default: of the whole pool)")
	holdout := fs.Float64("holdout", 0, "hold out this fraction of the rows not labeled at the start (drawn with -seed): never queried, and the accuracy of every round is measured on them (0: on the rows still unlabeled)")
	seed := fs.Uint64("seed", 1, "random seed")
	format := fs.String("format", "csv", "output format: csv or json")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	var mf modelFlags
	mf.register(fs, "skl")
	if err := parse(fs, args); err != nil {
		return err
	}
	switch {
	case tf.data == "":
		return fmt.Errorf("active: -data is required")
	case *keep <= 0:
		return fmt.Errorf("active: -labels N (the labeled rows to start from) is required")
	case *budget < 0 || *batch < 1:
		return fmt.Errorf("active: -budget must be >= 0 and -batch >= 1")
	case *format != "csv" && *format != "json":
		return fmt.Errorf("active: unknown -format %q (csv, json)", *format)
	case *shortlist < 0:
		return fmt.Errorf("active: -shortlist must be >= 0")
	case *shortlist > 0 && *sel != "fisher":
		return fmt.Errorf("active: -shortlist applies to -select fisher only")
	case *shortlistPool && *shortlist == 0:
		return fmt.Errorf("active: -shortlist-pool needs -shortlist N")
	case !(*holdout >= 0 && *holdout < 1):
		return fmt.Errorf("active: -holdout must be a fraction in [0, 1), got %v", *holdout)
	}
	opt, err := mf.options()
	if err != nil {
		return err
	}
	opt.Seed = *seed
	var lo *models.LoopOptions
	switch *strategy {
	case "uklr":
		lo = models.UKLR(opt, *budget, *batch)
	case "klr-active":
		lo = models.KLRActive(opt, *budget, *batch)
	case "klr-rand":
		lo = models.KLRRand(opt, *budget, *batch)
	default:
		return fmt.Errorf("active: unknown -strategy %q (uklr, klr-active, klr-rand)", *strategy)
	}
	if *sel != "" {
		if *strategy == "klr-rand" {
			return fmt.Errorf("active: -strategy klr-rand queries at random; give -strategy klr-active with -select %s", *sel)
		}
		switch *sel {
		case "entropy":
			lo.Selector = active.Entropy{}
		case "margin":
			lo.Selector = active.Margin{}
		case "random":
			lo.Selector = active.Random{Seed: *seed}
		case "fisher":
			lo.Selector = active.Fisher{Shortlist: *shortlist, ShortlistPool: *shortlistPool}
		case "kcenter":
			lo.Selector = active.KCenter{}
		default:
			return fmt.Errorf("active: unknown -select %q (entropy, margin, random, fisher, kcenter)", *sel)
		}
	}
	topt, err := tf.options()
	if err != nil {
		return err
	}
	tab, err := readData(tf.data, tf.idxLabels, topt)
	if err != nil {
		return err
	}
	if n := len(tab.Labeled()); n != len(tab.Labels) {
		return fmt.Errorf("active: %s has %d unlabeled rows; the loop's oracle is the file's labels, so every row must be labeled", tf.data, len(tab.Labels)-n)
	}
	classes, _, truth := tab.Index()
	if len(classes) < 2 {
		return fmt.Errorf("active: %s holds one class only", tf.data)
	}
	keepLabels(tab, *keep, *seed)
	noteKept(stderr, "active", tab, *keep)
	labeled := tab.Labeled()
	labels := make([]int, len(labeled))
	for a, i := range labeled {
		labels[a] = truth[i]
	}
	lo.Truth = truth
	lo.Holdout = holdoutRows(len(truth), labeled, *holdout, *seed)
	if !*quiet {
		lo.Progress = func(r models.Round) {
			fmt.Fprintf(stderr, "active: round %d, %d labeled, accuracy %.4f\n", r.Index, r.Labeled, r.Accuracy)
		}
	}
	_, rounds, err := models.Loop(ctx, tab.X, labeled, labels, active.GroundTruth(truth), lo)
	if err != nil {
		return err
	}
	return writeCurve(stdout, *format, rounds)
}

// holdoutRows returns the fraction frac (rounded down) of the n rows
// outside labeled, drawn uniformly with the seed, ascending; nil for 0.
func holdoutRows(n int, labeled []int, frac float64, seed uint64) []int {
	rest := others(n, labeled)
	k := int(frac * float64(len(rest)))
	if k == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(seed, 0x401d0))
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	held := rest[:k]
	slices.Sort(held)
	return held
}

// curvePoint is one round of the learning curve. A figure that was not
// measured (the accuracy of a round that left no row to score) is nil.
type curvePoint struct {
	Round      int      `json:"round"`
	Labeled    int      `json:"labeled"`
	Accuracy   *float64 `json:"accuracy"`
	MaxEntropy *float64 `json:"max_entropy"`
	Alignment  *float64 `json:"alignment"`
	Queried    []int    `json:"queried"`
}

// measured returns nil for NaN (nothing measured), else &v.
func measured(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

// csvFigure formats a figure for the CSV curve: empty when not measured.
func csvFigure(v *float64) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf("%.4f", *v)
}

// writeCurve writes the learning curve: CSV "round,labeled,accuracy,
// max_entropy,alignment,queried" (queried rows separated by spaces) or a
// JSON array of the same fields. A figure that was not measured is an
// empty CSV field or a JSON null, never a number: a round that labeled
// every row has no accuracy.
func writeCurve(w io.Writer, format string, rounds []models.Round) error {
	pts := make([]curvePoint, len(rounds))
	for i, r := range rounds {
		pts[i] = curvePoint{r.Index, r.Labeled, measured(r.Accuracy), measured(r.MaxEntropy), measured(r.Alignment), r.Queried}
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", " ")
		return enc.Encode(pts)
	}
	if _, err := fmt.Fprintln(w, "round,labeled,accuracy,max_entropy,alignment,queried"); err != nil {
		return err
	}
	for _, p := range pts {
		q := fmt.Sprint(p.Queried)
		if _, err := fmt.Fprintf(w, "%d,%d,%s,%s,%s,%s\n", p.Round, p.Labeled, csvFigure(p.Accuracy), csvFigure(p.MaxEntropy), csvFigure(p.Alignment), q[1:len(q)-1]); err != nil {
			return err
		}
	}
	return nil
}
