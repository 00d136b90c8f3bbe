package dataset

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Format is the layout of a user's data file.
type Format int

const (
	// FormatAuto picks the format from the file name, and from the content
	// when the name does not tell: names ending in .libsvm, .svm or
	// .svmlight (before an optional .gz) are LIBSVM, names ending in .csv or
	// .tsv are CSV (.tsv with a tab as the default delimiter); otherwise the
	// content decides: the input is LIBSVM when, in its first 64 KiB, a
	// line with a token of the form index:value comes before any line that
	// holds the delimiter ('#' comment lines aside), and CSV if not. A
	// reader without a name is judged by its content.
	FormatAuto Format = iota
	// FormatCSV is delimiter-separated values, one example per line; see
	// the package doc for the header rule, quoting and the label column.
	FormatCSV
	// FormatLIBSVM is the sparse LIBSVM/SVMlight format
	// "label index:value ...", indices from 1 (from 0 with ZeroBased) and
	// strictly increasing within a line.
	FormatLIBSVM
)

// Header says whether the first line of a CSV file is a header.
type Header int

const (
	// HeaderAuto detects the header by the rule in the package doc.
	HeaderAuto Header = iota
	// HeaderYes: the first line is a header.
	HeaderYes
	// HeaderNo: the first line is data.
	HeaderNo
)

// Label column positions for TableOptions.LabelColumn besides the 0-based
// column numbers.
const (
	// LabelLast selects the last column.
	LabelLast = -1
	// LabelNone says there is no label column: every column is a feature
	// and every row is unlabeled (new data to predict).
	LabelNone = -2
)

// Size limits for reading a sparse file into a dense matrix (ReadTable and
// ReadTableFrom on LIBSVM files, SparseTable.Dense) when
// TableOptions.MaxDenseBytes is 0: the dense matrix may take the larger of
// DefaultMaxDenseBytes and DefaultDenseBytesPerByte bytes per byte of
// (decompressed) text read, so that a small file cannot ask for a huge
// matrix while a large dense file still reads.
const (
	// DefaultMaxDenseBytes is the size a dense matrix may always take:
	// 64 MiB.
	DefaultMaxDenseBytes = 64 << 20
	// DefaultDenseBytesPerByte is the size a dense matrix may take per
	// byte of text read.
	DefaultDenseBytesPerByte = 64
)

// TableOptions configures ReadTable, ReadTableFrom and ReadLIBSVM. The zero
// value reads a CSV file (header detected, label in the first column,
// comma-separated) or a LIBSVM file (1-based indices, feature count
// inferred), with the default missing-label markers and limits.
type TableOptions struct {
	// Format is the file's layout; FormatAuto (the zero value) tells it
	// from the name and the content.
	Format Format

	// LabelColumn is the 0-based CSV column holding the label; LabelLast
	// (-1) means the last column and LabelNone (-2) that there is none. The
	// zero value is the first column. Ignored for LIBSVM.
	LabelColumn int
	// LabelName selects the label column by its header name instead
	// (whitespace around header fields is ignored); it implies that the
	// file has a header, and LabelColumn must then be 0.
	LabelName string
	// Header says whether the first CSV line is a header; HeaderAuto (the
	// zero value) detects it by the rule in the package doc.
	Header Header
	// Comma is the CSV field delimiter; 0 means ',' (a tab for a .tsv
	// file read with FormatAuto). It may not be '"', '\r', '\n' or an
	// invalid rune.
	Comma rune

	// Missing lists the label values that mark an unlabeled row, besides
	// the empty field, which always does; nil means DefaultMissing and an
	// empty non-nil slice no other marker. Markers are compared with the
	// field after trimming spaces, case-sensitively.
	Missing []string
	// RawLabels keeps numeric labels as written; by default they are
	// written in one canonical form ("+1", "1", "1.0" and "1e0" become
	// "1"), so that they are one class.
	RawLabels bool

	// Features fixes the number of LIBSVM features, so that files whose
	// highest index differs read to the same width; 0 infers it from the
	// highest index seen. An index above it is an error.
	Features int
	// ZeroBased reads LIBSVM feature indices from 0 instead of 1.
	ZeroBased bool
	// MaxDenseBytes bounds the dense matrix made from a LIBSVM file by
	// ReadTable and ReadTableFrom; 0 applies the default rule of
	// DefaultMaxDenseBytes and DefaultDenseBytesPerByte. ReadLIBSVM makes
	// no dense matrix and ignores it.
	MaxDenseBytes int64
}

// Table is a user's data: every row has features, and rows with an empty
// label are unlabeled.
type Table struct {
	X      *mat.Dense // rows x features
	Labels []string   // "" for an unlabeled row
	Header []string   // feature names from a CSV header, if any
}

// Labeled returns the indices of the labeled rows, in increasing order.
func (t *Table) Labeled() []int { return labeledRows(t.Labels) }

// Index returns the classes of the labeled rows (sorted as Index sorts
// them), the labeled rows and their class indices: Labels[labeled[i]] is
// classes[y[i]].
func (t *Table) Index() (classes []string, labeled, y []int) {
	return indexLabeled(t.Labels)
}

func labeledRows(labels []string) []int {
	var idx []int
	for i, l := range labels {
		if l != "" {
			idx = append(idx, i)
		}
	}
	return idx
}

func indexLabeled(labels []string) (classes []string, labeled, y []int) {
	labeled = labeledRows(labels)
	raw := make([]string, len(labeled))
	for i, j := range labeled {
		raw[i] = labels[j]
	}
	classes, y = Index(raw)
	return classes, labeled, y
}

// check validates the options (ErrSettings).
func (opt *TableOptions) check(op string) error {
	bad := func(format string, args ...any) error {
		return linalg.Errorf(linalg.ErrSettings, op, format, args...)
	}
	switch {
	case opt.Format < FormatAuto || opt.Format > FormatLIBSVM:
		return bad("unknown Format %d", opt.Format)
	case opt.Header < HeaderAuto || opt.Header > HeaderNo:
		return bad("unknown Header %d", opt.Header)
	case opt.LabelColumn < LabelNone:
		return bad("LabelColumn = %d, want a column number >= 0, LabelLast (-1) or LabelNone (-2)", opt.LabelColumn)
	case opt.LabelName != "" && opt.LabelColumn != 0:
		return bad("both LabelName %q and LabelColumn %d are set; set one", opt.LabelName, opt.LabelColumn)
	case opt.LabelName != "" && opt.Header == HeaderNo:
		return bad("LabelName %q needs a header, but Header is HeaderNo", opt.LabelName)
	case opt.Comma != 0 && (opt.Comma == '"' || opt.Comma == '\r' || opt.Comma == '\n' ||
		!utf8.ValidRune(opt.Comma) || opt.Comma == utf8.RuneError):
		return bad("Comma %q cannot be a delimiter", opt.Comma)
	case opt.Features < 0:
		return bad("Features = %d is negative, want >= 0 (0 = infer)", opt.Features)
	case opt.MaxDenseBytes < 0:
		return bad("MaxDenseBytes = %d is negative, want >= 0 (0 = default)", opt.MaxDenseBytes)
	}
	return nil
}

// ReadTable reads a user's data file, CSV or LIBSVM (see Format), into a
// dense Table; gzip is recognised by its magic bytes whatever the name. A
// LIBSVM file is read as ReadLIBSVM reads it and then made dense within
// the limit of opt.MaxDenseBytes (an error wrapping linalg.ErrSettings
// names the size when it is above). Errors name the file, the line and the
// column: they wrap ErrFormat for a malformed file, linalg.ErrEmpty for a
// file without data rows, linalg.ErrNonFinite for NaN or Inf written as a
// feature, linalg.ErrSettings for invalid options, and ErrNotFound for a
// missing file. Cost: one pass over the file; memory O(rows x features)
// for the result plus one line.
func ReadTable(path string, opt TableOptions) (*Table, error) {
	const op = "dataset.ReadTable"
	if err := opt.check(op); err != nil {
		return nil, err
	}
	f, err := openFile(op, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readTable(f, opt, src{op, path})
}

// ReadTableFrom reads a CSV or LIBSVM table from r as ReadTable reads a
// file; FormatAuto decides by the content, and errors name the line and
// column but no file.
func ReadTableFrom(r io.Reader, opt TableOptions) (*Table, error) {
	const op = "dataset.ReadTableFrom"
	if err := checkReader(op, r); err != nil {
		return nil, err
	}
	if err := opt.check(op); err != nil {
		return nil, err
	}
	return readTable(r, opt, src{op: op})
}

func readTable(r io.Reader, opt TableOptions, at src) (*Table, error) {
	in, err := openText(r)
	if err != nil {
		return nil, at.streamErr(err, 0)
	}
	defer in.close()
	format, err := resolveFormat(in, &opt, at)
	if err != nil {
		return nil, err
	}
	if format == FormatCSV {
		return readCSV(in, &opt, false, at)
	}
	s, err := readLIBSVM(in, &opt, at)
	if err != nil {
		return nil, err
	}
	return s.dense(opt.MaxDenseBytes, at)
}

// resolveFormat settles FormatAuto (and the .tsv delimiter) by the name and
// the first line.
func resolveFormat(in *text, opt *TableOptions, at src) (Format, error) {
	if opt.Format != FormatAuto {
		return opt.Format, nil
	}
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(at.name)), ".gz")
	switch filepath.Ext(base) {
	case ".libsvm", ".svm", ".svmlight":
		return FormatLIBSVM, nil
	case ".tsv":
		if opt.Comma == 0 {
			opt.Comma = '\t'
		}
		return FormatCSV, nil
	case ".csv":
		return FormatCSV, nil
	}
	head, err := in.Peek(textBuf)
	if err != nil && err != io.EOF && len(head) < textBuf {
		return 0, at.streamErr(err, 0)
	}
	comma := opt.Comma
	if comma == 0 {
		comma = ','
	}
	if looksLIBSVM(head, comma) {
		return FormatLIBSVM, nil
	}
	return FormatCSV, nil
}

// looksLIBSVM reports whether, in the first lines that are neither blank
// nor '#' comments, a token index:value comes before the delimiter.
func looksLIBSVM(head []byte, comma rune) bool {
	for len(head) > 0 {
		line := head
		if k := bytes.IndexByte(head, '\n'); k >= 0 {
			line, head = head[:k], head[k+1:]
		} else {
			head = nil
		}
		trim := bytes.TrimSpace(line)
		if len(trim) == 0 || trim[0] == '#' {
			continue
		}
		if bytes.ContainsRune(line, comma) {
			return false
		}
		for _, tok := range bytes.Fields(line) {
			idx, _, ok := bytes.Cut(tok, []byte(":"))
			if ok && len(idx) > 0 && len(bytes.Trim(idx, "0123456789")) == 0 {
				return true
			}
		}
	}
	return false
}
