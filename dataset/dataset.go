package dataset

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// EnvDir names the environment variable that overrides the data directory.
const EnvDir = "UKM_DATASETS"

// Set is a labeled data set: one row of X per example, every row labeled.
type Set struct {
	Name    string     // the set's name (file base name for ReadFile)
	X       *mat.Dense // n x p features, as stored (not rescaled)
	Labels  []string   // label of every row
	Y       []int      // class index of every row, 0..len(Classes)-1
	Classes []string   // class names, sorted as Index sorts them
}

// Dir returns the directory holding the reference data sets: the value of
// the UKM_DATASETS environment variable if set (it must name a directory),
// otherwise a "shared/datasets" directory found beside the working
// directory or beside any of its parents. Otherwise the error wraps
// ErrNotFound.
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
		return "", fmt.Errorf("dataset.Dir: %w: %s=%q is not a directory", ErrNotFound, EnvDir, d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("dataset.Dir: %w", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, "shared", "datasets")
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand, nil
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return "", fmt.Errorf("dataset.Dir: %w: no shared/datasets directory above %s; set %s", ErrNotFound, wd, EnvDir)
}

// Load reads the named reference data set (for example "ionosphere") from
// Dir: the file NAME.csv is tried first, then NAME.csv.gz, and read as
// ReadFile reads it. A missing directory or file is an error wrapping
// ErrNotFound.
func Load(name string) (*Set, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	for _, fn := range []string{name + ".csv", name + ".csv.gz"} {
		p := filepath.Join(dir, fn)
		if _, err := os.Stat(p); err == nil {
			s, err := ReadFile(p)
			if err != nil {
				return nil, err
			}
			s.Name = name
			return s, nil
		}
	}
	return nil, fmt.Errorf("dataset.Load: %w: no %s.csv or %s.csv.gz in %s", ErrNotFound, name, name, dir)
}

// ReadFile reads a reference data set from the CSV file at path as Read
// does; gzip is recognised by its magic bytes. The Set is named after the
// file, without ".gz" and ".csv". Errors also name the file; a missing file
// is an error wrapping ErrNotFound.
func ReadFile(path string) (*Set, error) {
	const op = "dataset.ReadFile"
	f, err := openFile(op, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := readSet(f, src{op, path})
	if err != nil {
		return nil, err
	}
	s.Name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".csv")
	return s, nil
}

// Read reads a reference data set: a CSV table (gzip-compressed or not)
// read as ReadTableFrom reads it with the default options (header detected,
// label in the first column), in which every row must be labeled. A row
// without a label is an error wrapping linalg.ErrLabels; the other errors
// are those of ReadTableFrom. Cost: one pass over the input.
func Read(r io.Reader) (*Set, error) {
	if err := checkReader("dataset.Read", r); err != nil {
		return nil, err
	}
	return readSet(r, src{op: "dataset.Read"})
}

func readSet(r io.Reader, at src) (*Set, error) {
	in, err := openText(r)
	if err != nil {
		return nil, at.streamErr(err, 0)
	}
	defer in.close()
	t, err := readCSV(in, &TableOptions{}, true, at)
	if err != nil {
		return nil, err
	}
	s := &Set{X: t.X, Labels: t.Labels}
	s.Classes, s.Y = Index(t.Labels)
	return s, nil
}

// Binary returns the labels as ±1: class index 0 maps to -1, 1 to +1. A set
// without exactly two classes is an error wrapping linalg.ErrLabels.
func (s *Set) Binary() ([]float64, error) {
	if len(s.Classes) != 2 {
		return nil, linalg.Errorf(linalg.ErrLabels, "dataset.Set.Binary", "%s has %d classes, want 2", s.Name, len(s.Classes))
	}
	y := make([]float64, len(s.Y))
	for i, c := range s.Y {
		y[i] = float64(2*c - 1)
	}
	return y, nil
}
