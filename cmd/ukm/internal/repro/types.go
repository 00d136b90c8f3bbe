package repro

import (
	"context"
	"fmt"
	"io"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/models"
)

// The vocabulary of the runner: data sets, methods (the columns), tables,
// a run's configuration and its result, cell by cell.

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
// first time. Run calls the methods of one data set one at a time, and
// data sets run at once have their own Data, so no lock is needed.
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
	// Unreached counts the unlabeled points the method never reached and
	// so guessed (a peer's label spreading stopped before its scores got
	// there); UnreachedCorrect, how many of those guesses were right.
	Unreached, UnreachedCorrect int
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
	// Datasets, Sizes and Methods, if set, restrict the run (a quick smoke
	// test, or a few columns of a long table). The claims are then tested
	// on the columns that ran.
	Datasets []string
	Sizes    []int
	Methods  []string
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
	// Parallel is how many data sets run at once; zero or one runs them
	// one after another. The result does not depend on it, but the times
	// in it do: data sets run at once share the cores.
	Parallel int
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
	// Unreached and UnreachedCorrect sum the trials' counts (see Trial);
	// Unlabeled sums the unlabeled points of a peer column's trials.
	Unreached, UnreachedCorrect, Unlabeled int

	acc []float64
	ran int // trials whose times Seconds sums
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
