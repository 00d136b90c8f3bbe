package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/models"
)

// tableFlags are the flags that say how to read a user's file.
type tableFlags struct {
	data, idxLabels   string
	labelCol          int
	labelName, header string
	missing           string
	maxDenseMB        int
}

func (t *tableFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&t.data, "data", "", "data file: CSV (a label column; an empty or missing label marks an unlabeled row) or LIBSVM (.libsvm/.svm), optionally gzip-compressed; "+
		"or an IDX image file (name containing idx3-ubyte) with -idx-labels; or \"fashion-mnist\" (the 70,000 images of Debian's dataset-fashion-mnist, or the directory in $UKM_FASHION_MNIST)")
	fs.StringVar(&t.idxLabels, "idx-labels", "", "IDX label file for an IDX image -data file")
	fs.IntVar(&t.labelCol, "label-col", 0, "0-based CSV column holding the label (-1: the last)")
	fs.StringVar(&t.labelName, "label-name", "", "CSV header name of the label column (instead of -label-col)")
	fs.StringVar(&t.header, "header", "auto", "whether the CSV file has a header line: auto (detected), yes or no")
	fs.IntVar(&t.maxDenseMB, "max-dense-mb", 0, "largest dense matrix in MB made from a sparse (LIBSVM) file (0: the larger of 64 MB and 64 bytes per byte of the file)")
	fs.StringVar(&t.missing, "missing", "", "comma-separated label values that mark an unlabeled row, besides the empty field (default: ?,NA,N/A,NaN,nan)")
}

func (t *tableFlags) options() (dataset.TableOptions, error) {
	o := dataset.TableOptions{LabelColumn: t.labelCol, LabelName: t.labelName, MaxDenseBytes: int64(t.maxDenseMB) << 20}
	if t.maxDenseMB < 0 {
		return o, fmt.Errorf("-max-dense-mb = %d is negative", t.maxDenseMB)
	}
	switch t.header {
	case "auto":
		o.Header = dataset.HeaderAuto
	case "yes":
		o.Header = dataset.HeaderYes
	case "no":
		o.Header = dataset.HeaderNo
	default:
		return o, fmt.Errorf("unknown -header %q (auto, yes, no)", t.header)
	}
	if t.missing != "" {
		o.Missing = splitList(t.missing)
	}
	return o, nil
}

// outFlags are the flags that say what to write and where.
type outFlags struct {
	proba        bool
	format, file string
}

func (o *outFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.proba, "proba", false, "also write the class probabilities of every predicted row (KLR and Spread classifiers, and the committees of -design auto)")
	fs.StringVar(&o.format, "format", "csv", "output format: csv or json")
	fs.StringVar(&o.file, "out", "", "write the predictions to this file instead of standard output")
}

// open returns the writer of the predictions: the -out file (created before
// any work, so that a bad path is found at once) or stdout.
func (o *outFlags) open(stdout io.Writer) (io.Writer, func() error, error) {
	if o.format != "csv" && o.format != "json" {
		return nil, nil, fmt.Errorf("unknown -format %q (csv, json)", o.format)
	}
	if o.file == "" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(o.file)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// fitCmd fits on a user's file. fit predicts the file's own unlabeled rows;
// predict predicts every row of -data with a saved -model, or with a model
// fitted on -train.
func fitCmd(ctx context.Context, args []string, stdout, stderr io.Writer, outOfSample bool) error {
	name := "fit"
	if outOfSample {
		name = "predict"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var tf tableFlags
	tf.register(fs)
	var of outFlags
	of.register(fs)
	keep := fs.Int("labels", 0, "keep only this many labeled rows (stratified by class, seeded by -seed); the others become unlabeled (0: keep all)")
	eval := fs.Bool("eval", false, "fit: score the predictions of the rows whose labels -labels held back (accuracy, per-class precision/recall/F1, confusion matrix)")
	save := fs.String("o", "", "fit: save the fitted model to this file (read it back with predict -model)")
	train := fs.String("train", "", "predict: fit on this file first")
	modelFile := fs.String("model", "", "predict: a model saved by fit -o")
	seed := fs.Uint64("seed", 1, "random seed")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	var mf modelFlags
	mf.register(fs, "auto")
	if err := parse(fs, args); err != nil {
		return err
	}
	set := setFlags(fs)
	switch {
	case tf.data == "":
		return fmt.Errorf("%s: -data is required", name)
	case outOfSample && (*train == "") == (*modelFile == ""):
		return errors.New("predict: give exactly one of -model (a saved model) and -train (a file to fit on)")
	case !outOfSample && (*train != "" || *modelFile != ""):
		return errors.New("fit: -train and -model belong to predict")
	case outOfSample && (*save != "" || *eval):
		return errors.New("predict: -o and -eval belong to fit")
	case *modelFile != "" && len(modelFlagsSet(set)) > 0:
		return fmt.Errorf("predict: model flags (%v) do not apply to a saved -model", modelFlagsSet(set))
	}
	topt, err := tf.options()
	if err != nil {
		return err
	}
	w, closeOut, err := of.open(stdout)
	if err != nil {
		return fmt.Errorf("%s: -out: %w", name, err)
	}
	err = fitRun(ctx, name, &tf, topt, &of, w, stderr, *keep, *eval, *save, *train, *modelFile, *seed, *quiet, &mf, outOfSample)
	if cerr := closeOut(); err == nil {
		err = cerr
	}
	return err
}

func fitRun(ctx context.Context, name string, tf *tableFlags, topt dataset.TableOptions, of *outFlags, w, stderr io.Writer,
	keep int, eval bool, save, train, modelFile string, seed uint64, quiet bool, mf *modelFlags, outOfSample bool) error {
	if save != "" {
		// Find a bad path before the fit, not after it.
		f, err := os.Create(save)
		if err != nil {
			return fmt.Errorf("fit: -o: %w", err)
		}
		f.Close()
	}
	var m *models.Model
	if modelFile != "" {
		f, err := os.Open(modelFile)
		if err != nil {
			return fmt.Errorf("predict: -model: %w", err)
		}
		m, err = models.ReadModel(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("predict: %s: %w", modelFile, err)
		}
		fmt.Fprintf(stderr, "predict: %s: %s\n", modelFile, modelSummary(m))
	}
	var tab *dataset.Table
	var heldOut []string
	if m == nil {
		opt, err := mf.options()
		if err != nil {
			return err
		}
		opt.Seed = seed
		if !quiet {
			opt.Progress = stageLogger(stderr, name)
		}
		trainPath := tf.data
		if outOfSample {
			trainPath = train
		}
		tab, err = readData(trainPath, tf.idxLabels, topt)
		if err != nil {
			return err
		}
		if keep > 0 {
			heldOut = keepLabels(tab, keep, seed)
			noteKept(stderr, name, tab, keep)
		} else if eval {
			return fmt.Errorf("%s: -eval needs -labels N (the rows whose labels are held back are scored)", name)
		}
		if m, err = fitTable(ctx, name, trainPath, tab, &opt, stderr); err != nil {
			return err
		}
		if save != "" {
			if err := saveModel(save, m); err != nil {
				return err
			}
			fmt.Fprintf(stderr, "%s: model saved to %s\n", name, save)
		}
	}
	if !outOfSample {
		u := others(len(tab.Labels), tab.Labeled())
		if len(u) == 0 {
			return fmt.Errorf("fit: %s has no unlabeled rows to predict (use predict for new data)", tf.data)
		}
		pred, err := m.PredictRows(nil, u)
		if err != nil {
			return err
		}
		var proba *mat.Dense
		if of.proba {
			if proba, err = m.ProbaRows(nil, u); err != nil {
				return err
			}
		}
		if eval {
			return writeEval(w, of.format, u, pred, m.ClassNames(), heldOut)
		}
		return writePredictions(w, of.format, u, pred, proba, m.ClassNames())
	}
	newTab, err := readData(tf.data, tf.idxLabels, topt)
	if err != nil {
		return err
	}
	pred, err := m.Predict(nil, newTab.X)
	if err != nil {
		return fmt.Errorf("predict: %s: %w", tf.data, err)
	}
	var proba *mat.Dense
	if of.proba {
		if proba, err = m.Proba(nil, newTab.X); err != nil {
			return err
		}
	}
	rows := make([]int, len(pred))
	for i := range rows {
		rows[i] = i
	}
	return writePredictions(w, of.format, rows, pred, proba, m.ClassNames())
}

// fitTable fits a model on the labeled rows of tab and reports it on stderr.
func fitTable(ctx context.Context, name, path string, tab *dataset.Table, opt *models.Options, stderr io.Writer) (*models.Model, error) {
	labeled := tab.Labeled()
	if len(labeled) == 0 {
		return nil, fmt.Errorf("%s: %s has no labeled rows", name, path)
	}
	classes, _, _ := tab.Index()
	if len(classes) < 2 {
		return nil, fmt.Errorf("%s: %s: the labeled rows hold only one class (%q); need at least two", name, path, classes[0])
	}
	m, err := models.FitLabels(ctx, tab.X, tab.Labels, opt)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "%s: %d rows, %d labeled, %d classes, alignment %.4f, %v\n", name, len(tab.Labels), len(labeled), len(classes), m.Alignment(), m.Timings().Total())
	if u := m.Unreached(); u > 0 {
		fmt.Fprintf(stderr, "%s: %d rows lie in parts of the kNN graph without a labeled row: nothing learned reaches them and they get the labels' prior (a label in each part, or a larger -k, changes that)\n", name, u)
	}
	if st := m.Status(); st.Err() != nil {
		fmt.Fprintf(stderr, "%s: warning: the classifier ended %v; the predictions may be less accurate\n", name, st)
	}
	if sel := m.Selection(); sel != nil {
		b := sel.Best()
		if sel.Folds == 0 {
			fmt.Fprintf(stderr, "%s: %s; fitted %s\n", name, sel.Rule, b.Name)
		} else {
			kept := ""
			if sel.Prior {
				kept = "; the default, no candidate beating it by a paired standard error"
			}
			fmt.Fprintf(stderr, "%s: chose %s by %s cross-validation (accuracy %.3f ± %.3f over %d candidates%s, %v)\n",
				name, b.Name, sel.Rule, b.Accuracy, b.StdErr, len(sel.Scores), kept, sel.Elapsed.Round(time.Millisecond))
			if len(sel.Voters) > 0 {
				fmt.Fprintf(stderr, "%s: votes with %d candidates the cross-validation cannot tell from it; the predictions are the %d members' mean class probabilities (-vote none: the chosen candidate alone):\n",
					name, len(sel.Voters), len(sel.Voters)+1)
				for _, i := range sel.Voters {
					v := sel.Scores[i]
					fmt.Fprintf(stderr, "%s:   %s (accuracy %.3f ± %.3f)\n", name, v.Name, v.Accuracy, v.StdErr)
				}
			}
		}
	}
	return m, nil
}

// modelSummary says what a (loaded) model is: its kernel, design and
// classifier, its classes and labeled rows, and its voters.
func modelSummary(m *models.Model) string {
	name := func(v *models.Model) string {
		o := v.Options()
		k := o.Kernel.Kind.String()
		if o.Kernel.Kind == models.KNN {
			k += fmt.Sprintf("(k=%d)", o.GraphK)
		}
		return fmt.Sprintf("%s/%v/%v", k, o.Design, o.Classifier)
	}
	s := fmt.Sprintf("%s, %d classes, fitted on %d labeled rows", name(m), m.Classes(), len(m.Labeled()))
	if voters := m.Voters(); len(voters) > 0 {
		var with []string
		for _, v := range voters {
			with = append(with, name(v))
		}
		s += fmt.Sprintf("; votes with %d others (the members' mean class probabilities): %s", len(voters), strings.Join(with, ", "))
	}
	return s
}

func saveModel(path string, m *models.Model) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("fit: -o: %w", err)
	}
	if _, err := m.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("fit: -o: %w", err)
	}
	return f.Close()
}
