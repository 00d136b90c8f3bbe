package dataset

import (
	"encoding/csv"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// csvReader holds the state of one CSV read.
type csvReader struct {
	at     src
	opt    *TableOptions
	labels *labeler

	cols, lab int // fields per record; label column (-1: none)
	t         Table
	data      []float64
	// pending is set while the first record waits for the end of the file
	// to learn whether it is a header (rule 3 of the package doc); it is
	// kept as row 0 meanwhile.
	pending     bool
	pendingHead []string
}

// readCSV reads a CSV table. requireLabels makes an unlabeled row an error
// (linalg.ErrLabels), for the reference sets.
func readCSV(in io.Reader, opt *TableOptions, requireLabels bool, at src) (*Table, error) {
	cr := csv.NewReader(in)
	if opt.Comma != 0 {
		cr.Comma = opt.Comma
	}
	// Spaces before an opening quote are allowed (`a, "b,c"`), unless the
	// delimiter is itself a space, whose empty fields they would swallow.
	cr.TrimLeadingSpace = !unicode.IsSpace(cr.Comma)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	c := &csvReader{at: at, opt: opt, labels: newLabeler(opt), cols: -1}
	line := 0 // of the last record read
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) && isSyntax(pe.Err) {
				return nil, at.errf(ErrFormat, pe.Line, pe.Column, "%v", pe.Err)
			}
			return nil, at.streamErr(err, line+1)
		}
		line, _ = cr.FieldPos(len(rec) - 1)
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a blank line
		}
		start, _ := cr.FieldPos(0)
		if c.cols < 0 {
			header, err := c.first(rec, start)
			if err != nil {
				return nil, err
			}
			if header {
				continue
			}
		}
		if err := c.row(rec, start, cr, requireLabels); err != nil {
			return nil, err
		}
	}
	return c.finish()
}

// isSyntax reports whether a csv.ParseError cause is a quoting error.
func isSyntax(err error) bool {
	return errors.Is(err, csv.ErrBareQuote) || errors.Is(err, csv.ErrQuote) || errors.Is(err, csv.ErrFieldCount)
}

// first sets the layout from the first record and reports whether it is a
// header.
func (c *csvReader) first(rec []string, line int) (bool, error) {
	c.cols = len(rec)
	names := make([]string, len(rec))
	for j, f := range rec {
		names[j] = strings.TrimSpace(f)
	}
	switch lc := c.opt.LabelColumn; {
	case c.opt.LabelName != "":
		c.lab = -1
		for j, n := range names {
			if n != c.opt.LabelName {
				continue
			}
			if c.lab >= 0 {
				return false, c.at.errf(ErrFormat, line, j+1, "the header names %q twice (columns %d and %d)", n, c.lab+1, j+1)
			}
			c.lab = j
		}
		if c.lab < 0 {
			return false, c.at.errf(linalg.ErrSettings, line, 0, "LabelName %q is not in the header %q", c.opt.LabelName, names)
		}
	case lc == LabelNone:
		c.lab = -1
	case lc == LabelLast:
		c.lab = c.cols - 1
	case lc >= c.cols:
		return false, c.at.errf(linalg.ErrSettings, line, 0, "LabelColumn %d is out of range: the file has %d columns (0..%d, or -1 for the last)", lc, c.cols, c.cols-1)
	default:
		c.lab = lc
	}
	if c.lab >= 0 && c.cols < 2 {
		return false, c.at.errf(ErrFormat, line, 0, "%d column; need a label and at least one feature", c.cols)
	}
	header := false
	switch {
	case c.opt.Header == HeaderYes || c.opt.LabelName != "":
		header = true
	case c.opt.Header == HeaderNo:
	case c.someFeatureNotNumber(names) || (c.cols >= 3 && columnNumbers(names)):
		header = true
	case c.lab >= 0 && columnNumbers(c.features(names)):
		c.pending, c.pendingHead = true, names
	}
	if header {
		c.t.Header = c.features(names)
	}
	return header, nil
}

// features returns the fields of rec other than the label.
func (c *csvReader) features(rec []string) []string {
	if c.lab < 0 {
		return rec
	}
	out := make([]string, 0, len(rec)-1)
	out = append(out, rec[:c.lab]...)
	return append(out, rec[c.lab+1:]...)
}

// someFeatureNotNumber is rule 1 of the header: a feature field is not a
// number (an out-of-range number such as 1e400 still counts as a number).
func (c *csvReader) someFeatureNotNumber(names []string) bool {
	for j, f := range names {
		if j == c.lab {
			continue
		}
		if _, err := strconv.ParseFloat(f, 64); err != nil && !errors.Is(err, strconv.ErrRange) {
			return true
		}
	}
	return false
}

// columnNumbers reports whether fields are exactly 0, 1, ..., k-1 or
// 1, 2, ..., k.
func columnNumbers(fields []string) bool {
	for _, base := range []int{0, 1} {
		ok := true
		for j, f := range fields {
			if f != strconv.Itoa(j+base) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// row parses one data record.
func (c *csvReader) row(rec []string, line int, cr *csv.Reader, requireLabels bool) error {
	if len(rec) != c.cols {
		return c.at.errf(ErrFormat, line, 0, "%d fields, want %d as on the first line (ragged row)", len(rec), c.cols)
	}
	label := ""
	for j, f := range rec {
		if j == c.lab {
			var ok bool
			if label, ok = c.labels.label(f); !ok && requireLabels {
				return c.at.errf(linalg.ErrLabels, line, j+1, "no label (%q)", strings.TrimSpace(f))
			}
			continue
		}
		v, err := parseValue(f)
		if err != nil {
			fl, _ := cr.FieldPos(j)
			return c.errValue(err, fl, j, f)
		}
		c.data = append(c.data, v)
	}
	c.t.Labels = append(c.t.Labels, label)
	return nil
}

// errValue reports a field that is not a finite number, in column j+1
// (the header's name for it in parentheses when there is one).
func (c *csvReader) errValue(err error, line, j int, f string) error {
	name := ""
	if h := c.headerNames(); j < len(h) && h[j] != "" {
		name = " (" + strconv.Quote(h[j]) + ")"
	}
	return valueErr(c.at, err, line, j+1, name, f)
}

// headerNames returns the header's fields by column, label included, or
// nil.
func (c *csvReader) headerNames() []string {
	if c.t.Header == nil {
		return nil
	}
	if c.lab < 0 {
		return c.t.Header
	}
	out := make([]string, 0, c.cols)
	out = append(out, c.t.Header[:c.lab]...)
	out = append(out, "")
	return append(out, c.t.Header[c.lab:]...)
}

// errNaN and errOverflow classify a value that parses but is not finite.
var (
	errNaN      = errors.New("not finite")
	errOverflow = errors.New("out of range")
)

// parseValue parses a feature value: a finite float64.
func parseValue(f string) (float64, error) {
	f = strings.TrimSpace(f)
	v, err := strconv.ParseFloat(f, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && math.IsInf(v, 0):
		return 0, errOverflow
	case err != nil:
		return 0, err
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, errNaN
	}
	return v, nil
}

// valueErr reports a bad feature value at a line and column.
func valueErr(at src, err error, line, col int, name, f string) error {
	f = strings.TrimSpace(f)
	if len(f) > 40 {
		f = f[:37] + "..."
	}
	switch err {
	case errOverflow:
		return at.errf(ErrFormat, line, col, "%q%s is out of range (overflows float64)", f, name)
	case errNaN:
		return at.errf(linalg.ErrNonFinite, line, col, "%q%s is not finite", f, name)
	}
	return at.errf(ErrFormat, line, col, "%q%s is not a number", f, name)
}

// laterNumeric settles rule 3 of the header: the first row's label is
// text, and the labels of the later rows are numbers (one at least; missing
// labels aside).
func (c *csvReader) laterNumeric() bool {
	if _, ok := number(c.t.Labels[0]); ok || c.t.Labels[0] == "" {
		return false
	}
	some := false
	for _, l := range c.t.Labels[1:] {
		if l == "" {
			continue
		}
		if _, ok := number(l); !ok {
			return false
		}
		some = true
	}
	return some
}

// finish settles a pending header and builds the table.
func (c *csvReader) finish() (*Table, error) {
	p := c.cols
	if c.lab >= 0 {
		p--
	}
	if c.pending && c.laterNumeric() {
		c.t.Header = c.features(c.pendingHead)
		c.t.Labels = c.t.Labels[1:]
		c.data = c.data[p:]
	}
	if len(c.t.Labels) == 0 {
		return nil, c.at.errf(linalg.ErrEmpty, 0, 0, "no data rows (empty file or header only)")
	}
	c.t.X = mat.NewDense(len(c.t.Labels), p, c.data)
	return &c.t, nil
}
