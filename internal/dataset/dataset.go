// Package dataset reads the reference data sets used by the tests, benchmarks
// and reproductions: plain CSV files whose first column is the class label
// and whose other columns are numeric features (optionally gzip-compressed).
//
// The directory holding the files is found by Dir: the UKM_DATASETS
// environment variable if set, otherwise a "shared/datasets" directory that
// sits beside the module root (or beside any of its parent directories).
package dataset

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// EnvDir names the environment variable that overrides the data directory.
const EnvDir = "UKM_DATASETS"

// ErrNotFound is returned when no data directory or file can be found.
var ErrNotFound = errors.New("dataset: not found")

// Set is a labeled data set: one row of X per example.
type Set struct {
	Name    string
	X       *mat.Dense // n x p features, as stored (not rescaled)
	Labels  []string   // raw label of every row
	Y       []int      // class index of every row, 0..len(Classes)-1
	Classes []string   // class names, sorted (numerically when all parse as numbers)
}

// Dir returns the directory holding the reference data sets.
func Dir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, nil
		}
		return "", fmt.Errorf("%w: %s=%q is not a directory", ErrNotFound, EnvDir, d)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("dataset: %v", err)
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
	return "", fmt.Errorf("%w: no shared/datasets directory above %s; set %s", ErrNotFound, wd, EnvDir)
}

// Load reads the named data set (for example "ionosphere") from Dir. The
// file NAME.csv is tried first, then NAME.csv.gz.
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
	return nil, fmt.Errorf("%w: no %s.csv or %s.csv.gz in %s", ErrNotFound, name, name, dir)
}

// ReadFile reads a CSV data set from path; a ".gz" suffix means gzip.
func ReadFile(path string) (*Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %v", err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("dataset: %s: %v", path, err)
		}
		defer gz.Close()
		r = gz
	}
	s, err := Read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.Name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".csv")
	return s, nil
}

// Read parses a CSV data set: a header line, then one example per line with
// the label in the first column and finite numeric features after it.
// Errors name the offending line. Every row must be labeled.
func Read(r io.Reader) (*Set, error) {
	t, err := readCSVTable(r, 0)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	for i, l := range t.Labels {
		if l == "" {
			return nil, fmt.Errorf("dataset: row %d has no label", i+1)
		}
	}
	s := &Set{X: t.X, Labels: t.Labels}
	s.Classes, s.Y = Index(t.Labels)
	return s, nil
}

// Index maps raw labels to class indices. Classes are sorted numerically when
// every label parses as a number, lexicographically otherwise.
func Index(labels []string) (classes []string, y []int) {
	seen := map[string]bool{}
	for _, l := range labels {
		if !seen[l] {
			seen[l] = true
			classes = append(classes, l)
		}
	}
	numeric := true
	for _, c := range classes {
		if _, err := strconv.ParseFloat(c, 64); err != nil {
			numeric = false
			break
		}
	}
	sort.Slice(classes, func(i, j int) bool {
		if numeric {
			a, _ := strconv.ParseFloat(classes[i], 64)
			b, _ := strconv.ParseFloat(classes[j], 64)
			return a < b
		}
		return classes[i] < classes[j]
	})
	pos := make(map[string]int, len(classes))
	for i, c := range classes {
		pos[c] = i
	}
	y = make([]int, len(labels))
	for i, l := range labels {
		y[i] = pos[l]
	}
	return classes, y
}

// Binary returns the labels as ±1: class index 0 maps to -1, 1 to +1. It
// reports an error unless the set has exactly two classes.
func (s *Set) Binary() ([]float64, error) {
	if len(s.Classes) != 2 {
		return nil, fmt.Errorf("dataset: %s has %d classes, want 2", s.Name, len(s.Classes))
	}
	y := make([]float64, len(s.Y))
	for i, c := range s.Y {
		y[i] = float64(2*c - 1)
	}
	return y, nil
}
