package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"ukm/internal/dataset"
	"ukm/models"
)

// fitCmd fits on a user's file. Without out-of-sample data it predicts the
// file's own unlabeled rows; with -train it fits on that file and predicts
// every row of -data.
func fitCmd(ctx context.Context, args []string, stdout, stderr io.Writer, outOfSample bool) error {
	name := "fit"
	if outOfSample {
		name = "predict"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "data file: CSV (label column; empty label = unlabeled) or LIBSVM (.libsvm/.svm), optionally .gz; "+
		"or an IDX image file (name containing idx3-ubyte) with -idx-labels; or \"fashion-mnist\" (the 70,000 images of Debian's dataset-fashion-mnist, or the directory in $UKM_FASHION_MNIST)")
	idxLabels := fs.String("idx-labels", "", "IDX label file for an IDX image -data file")
	keep := fs.Int("labels", 0, "keep only this many labeled rows (stratified by class, seeded by -seed); the others become unlabeled (0: keep all)")
	eval := fs.Bool("eval", false, "fit: score the predictions of the rows whose labels -labels held back (accuracy, per-class recall)")
	train := fs.String("train", "", "training file (predict only)")
	labelCol := fs.Int("label-col", 0, "0-based CSV column holding the label (-1: last)")
	seed := fs.Uint64("seed", 1, "random seed")
	quiet := fs.Bool("quiet", false, "no stage lines on stderr")
	var mf modelFlags
	mf.register(fs, "auto")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *data == "" {
		return fmt.Errorf("%s: -data is required", name)
	}
	if outOfSample && *train == "" {
		return errors.New("predict: -train is required")
	}
	opt, err := mf.options()
	if err != nil {
		return err
	}
	opt.Seed = *seed
	if !*quiet {
		opt.Progress = stageLogger(stderr, name)
	}
	topt := dataset.TableOptions{LabelColumn: *labelCol}
	trainPath := *data
	if outOfSample {
		trainPath = *train
	}
	tab, err := readData(trainPath, *idxLabels, topt)
	if err != nil {
		return err
	}
	var heldOut []string
	if *keep > 0 {
		heldOut = keepLabels(tab, *keep, *seed)
	} else if *eval {
		return fmt.Errorf("%s: -eval needs -labels N (the rows whose labels are held back are scored)", name)
	}
	labeled := tab.Labeled()
	if len(labeled) == 0 {
		return fmt.Errorf("%s: %s has no labeled rows", name, trainPath)
	}
	raw := make([]string, len(labeled))
	for i, j := range labeled {
		raw[i] = tab.Labels[j]
	}
	classes, y := dataset.Index(raw)
	if len(classes) < 2 {
		return fmt.Errorf("%s: %s: the labeled rows hold only one class (%q); need at least two", name, trainPath, classes[0])
	}
	m, err := models.Fit(ctx, tab.X, labeled, y, &opt)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "%s: %d rows, %d labeled, %d classes, alignment %.4f, %v\n", name, len(tab.Labels), len(labeled), len(classes), m.Alignment(), m.Timings().Total())
	if sel := m.Selection(); sel != nil {
		b := sel.Best()
		if sel.Folds == 0 {
			fmt.Fprintf(stderr, "%s: %s; fitted %s\n", name, sel.Rule, b.Name)
		} else {
			fmt.Fprintf(stderr, "%s: chose %s by %s cross-validation (accuracy %.3f ± %.3f over %d candidates, %v)\n",
				name, b.Name, sel.Rule, b.Accuracy, b.StdErr, len(sel.Scores), sel.Elapsed.Round(time.Millisecond))
		}
	}
	if !outOfSample {
		u := others(len(tab.Labels), labeled)
		if len(u) == 0 {
			return fmt.Errorf("fit: %s has no unlabeled rows to predict (use predict -train for new data)", trainPath)
		}
		pred, err := m.PredictRows(nil, u)
		if err != nil {
			return err
		}
		if *eval {
			return evaluate(stdout, u, pred, classes, heldOut)
		}
		fmt.Fprintln(stdout, "row,label")
		for i, j := range u {
			fmt.Fprintf(stdout, "%d,%s\n", j, classes[pred[i]])
		}
		return nil
	}
	newTab, err := dataset.ReadTable(*data, topt)
	if err != nil {
		return err
	}
	_, pNew := newTab.X.Dims()
	if _, pTrain := tab.X.Dims(); pNew != pTrain {
		return fmt.Errorf("predict: %s has %d features, but %s has %d", *data, pNew, trainPath, pTrain)
	}
	pred, err := m.Predict(nil, newTab.X)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, "row,label")
	for i, c := range pred {
		fmt.Fprintf(stdout, "%d,%s\n", i, classes[c])
	}
	return nil
}
