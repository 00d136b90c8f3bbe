package dataset

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Format is the layout of a user's data file.
type Format int

const (
	// FormatAuto picks LIBSVM for names ending in .libsvm, .svm or .svmlight
	// (before an optional .gz), CSV otherwise.
	FormatAuto Format = iota
	// FormatCSV is comma-separated values, one example per line, with a header
	// line naming the columns (the header is detected: a first line whose
	// feature fields are not all numbers).
	FormatCSV
	// FormatLIBSVM is the sparse LIBSVM/SVMlight format "label idx:val ...",
	// indices from 1. A line whose first token is "?" or is itself an
	// idx:val pair is unlabeled.
	FormatLIBSVM
)

// TableOptions configures ReadTable. The zero value reads a CSV file whose
// first column is the label.
type TableOptions struct {
	Format Format
	// LabelColumn is the 0-based CSV column holding the label; -1 means the
	// last column. Ignored for LIBSVM.
	LabelColumn int
	// Features fixes the number of LIBSVM features (0: the largest index seen).
	Features int
}

// Table is a user's data: every row has features, and rows with an empty
// label are unlabeled.
type Table struct {
	X      *mat.Dense
	Labels []string // "" for an unlabeled row
	Header []string // feature names from a CSV header, if any
}

// Labeled returns the indices of the labeled rows.
func (t *Table) Labeled() []int {
	var idx []int
	for i, l := range t.Labels {
		if l != "" {
			idx = append(idx, i)
		}
	}
	return idx
}

// ReadTable reads a user's data file; a ".gz" suffix means gzip. Errors name
// the file and the line.
func ReadTable(path string, opt TableOptions) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %v", err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	var r io.Reader = br
	// Gzip is recognised by its magic bytes as well as by the name.
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("dataset: %s: %v", path, err)
		}
		defer gz.Close()
		r = gz
	}
	format := opt.Format
	if format == FormatAuto {
		base := strings.TrimSuffix(strings.ToLower(path), ".gz")
		format = FormatCSV
		for _, ext := range []string{".libsvm", ".svm", ".svmlight"} {
			if strings.HasSuffix(base, ext) {
				format = FormatLIBSVM
			}
		}
	}
	var t *Table
	switch format {
	case FormatCSV:
		t, err = readCSVTable(r, opt.LabelColumn)
	case FormatLIBSVM:
		t, err = readLIBSVM(r, opt.Features)
	default:
		err = fmt.Errorf("dataset: unknown format %d", format)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

func newScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	return sc
}

func readCSVTable(r io.Reader, labelCol int) (*Table, error) {
	sc := newScanner(r)
	var t Table
	var data []float64
	cols, line := -1, 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		fields := strings.Split(text, ",")
		if cols < 0 {
			cols = len(fields)
			if cols < 2 {
				return nil, fmt.Errorf("line %d: %d column(s); need a label and at least one feature", line, cols)
			}
			if labelCol < -1 || labelCol >= cols {
				return nil, fmt.Errorf("label column %d out of range: the file has %d columns (0..%d, or -1 for the last)", labelCol, cols, cols-1)
			}
			if labelCol == -1 {
				labelCol = cols - 1
			}
			if isHeader(fields, labelCol) {
				for j, f := range fields {
					if j != labelCol {
						t.Header = append(t.Header, strings.TrimSpace(f))
					}
				}
				continue
			}
		}
		if len(fields) != cols {
			return nil, fmt.Errorf("line %d: %d fields, want %d (ragged row)", line, len(fields), cols)
		}
		for j, f := range fields {
			f = strings.TrimSpace(f)
			if j == labelCol {
				t.Labels = append(t.Labels, f)
				continue
			}
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: column %d: %q is not a number", line, j+1, f)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("line %d: column %d: %q is not finite", line, j+1, f)
			}
			data = append(data, v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", line+1, err)
	}
	if len(t.Labels) == 0 {
		return nil, errors.New("no data rows (empty file or header only)")
	}
	t.X = mat.NewDense(len(t.Labels), cols-1, data)
	return &t, nil
}

// isHeader reports whether a first CSV line is a header: some feature field
// is not a number.
func isHeader(fields []string, labelCol int) bool {
	for j, f := range fields {
		if j == labelCol {
			continue
		}
		if _, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err != nil {
			return true
		}
	}
	return false
}

func readLIBSVM(r io.Reader, features int) (*Table, error) {
	if features < 0 {
		return nil, fmt.Errorf("negative feature count %d", features)
	}
	sc := newScanner(r)
	type entry struct {
		row, col int
		v        float64
	}
	var t Table
	var entries []entry
	maxCol, line := 0, 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if k := strings.IndexByte(text, '#'); k >= 0 {
			text = text[:k]
		}
		toks := strings.Fields(text)
		if len(toks) == 0 {
			continue
		}
		label := ""
		switch {
		case toks[0] == "?":
			toks = toks[1:]
		case !strings.Contains(toks[0], ":"):
			label, toks = toks[0], toks[1:]
		}
		row := len(t.Labels)
		t.Labels = append(t.Labels, label)
		prev := 0
		for _, tok := range toks {
			is, vs, ok := strings.Cut(tok, ":")
			if !ok {
				return nil, fmt.Errorf("line %d: %q is not index:value", line, tok)
			}
			j, err := strconv.Atoi(is)
			if err != nil || j < 1 {
				return nil, fmt.Errorf("line %d: feature index %q is not a positive integer", line, is)
			}
			if j <= prev {
				return nil, fmt.Errorf("line %d: feature indices not increasing at %d", line, j)
			}
			if features > 0 && j > features {
				return nil, fmt.Errorf("line %d: feature index %d above the declared %d features", line, j, features)
			}
			prev = j
			v, err := strconv.ParseFloat(vs, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("line %d: feature %d: %q is not a finite number", line, j, vs)
			}
			entries = append(entries, entry{row, j - 1, v})
			maxCol = max(maxCol, j)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", line+1, err)
	}
	if len(t.Labels) == 0 {
		return nil, errors.New("no data rows (empty file)")
	}
	p := max(features, maxCol)
	if p == 0 {
		return nil, errors.New("no features in any row")
	}
	t.X = mat.NewDense(len(t.Labels), p, nil)
	for _, e := range entries {
		t.X.Set(e.row, e.col, e.v)
	}
	return &t, nil
}
