package dataset

import (
	"bufio"
	"errors"
	"io"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// SparseTable is a user's data with a sparse feature matrix, as read from a
// LIBSVM file: X is rows x features in CSR form, and rows with an empty
// label are unlabeled.
type SparseTable struct {
	X      *linalg.CSR // rows x features
	Labels []string    // "" for an unlabeled row

	textBytes int64 // bytes of text the table was read from, for Dense's default limit
}

// Labeled returns the indices of the labeled rows, in increasing order.
func (t *SparseTable) Labeled() []int { return labeledRows(t.Labels) }

// Index returns the classes of the labeled rows, the labeled rows and
// their class indices, as Table.Index does.
func (t *SparseTable) Index() (classes []string, labeled, y []int) {
	return indexLabeled(t.Labels)
}

// Dense returns the table with a dense copy of X (the labels are shared).
// maxBytes bounds the size of the dense matrix, 8·rows·features bytes;
// 0 means the default rule (the larger of DefaultMaxDenseBytes and
// DefaultDenseBytesPerByte bytes per byte of the text the table was read
// from). Above the limit, nothing is allocated and the error, wrapping
// linalg.ErrSettings, names the size and the limit. A negative maxBytes is
// an error wrapping linalg.ErrSettings too; a nil table or one without rows
// or columns, an invalid X (see linalg.CSR.Validate) or a label count other
// than the number of rows is an error wrapping linalg.ErrEmpty, ErrShape or
// ErrNonFinite.
// Cost: O(rows x features).
func (t *SparseTable) Dense(maxBytes int64) (*Table, error) {
	const op = "dataset.SparseTable.Dense"
	if maxBytes < 0 {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "maxBytes = %d is negative, want >= 0 (0 = default)", maxBytes)
	}
	if t == nil || t.X == nil {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "table is nil")
	}
	if err := t.X.Validate(); err != nil {
		return nil, linalg.Errorf(nil, op, "X: %w", err)
	}
	if len(t.Labels) != t.X.Rows {
		return nil, linalg.Errorf(linalg.ErrShape, op, "%d labels for %d rows", len(t.Labels), t.X.Rows)
	}
	return t.dense(maxBytes, src{op: op})
}

// dense converts t within the limit maxBytes (0: the default rule).
func (t *SparseTable) dense(maxBytes int64, at src) (*Table, error) {
	limit, how := maxBytes, "the limit set"
	if limit == 0 {
		limit = max(DefaultMaxDenseBytes, min(t.textBytes, math.MaxInt64/DefaultDenseBytesPerByte)*DefaultDenseBytesPerByte)
		how = "the default limit"
	}
	r, c := t.X.Dims()
	hi, cells := bits.Mul64(uint64(r), uint64(c))
	if hi != 0 || cells > uint64(limit)/8 || cells > math.MaxInt/8 {
		size := "more than 2^64"
		if hi == 0 && cells <= math.MaxUint64/8 {
			size = strconv.FormatUint(8*cells, 10)
		}
		return nil, at.errf(linalg.ErrSettings, 0, 0,
			"a dense %d x %d matrix takes %s bytes, above %s of %d bytes; raise TableOptions.MaxDenseBytes (or the argument of SparseTable.Dense), or keep the sparse matrix of ReadLIBSVM",
			r, c, size, how, limit)
	}
	if r == 0 || c == 0 {
		return nil, at.errf(linalg.ErrEmpty, 0, 0, "the matrix is %d x %d", r, c)
	}
	x := mat.NewDense(r, c, nil)
	for i := range r {
		row := x.RawRowView(i)
		for k := t.X.RowPtr[i]; k < t.X.RowPtr[i+1]; k++ {
			row[t.X.ColIdx[k]] = t.X.Val[k]
		}
	}
	return &Table{X: x, Labels: t.Labels}, nil
}

// ReadLIBSVM reads a LIBSVM/SVMlight file from r into a SparseTable; gzip
// is recognised by its magic bytes. Each line is "label index:value ..."
// with indices from 1 (from 0 with opt.ZeroBased) strictly increasing; a
// '#' starts a comment, blank lines are skipped, a "qid:n" token is
// ignored, and a line whose first token is an index:value pair or a
// missing-label marker (opt.Missing) is unlabeled. The number of features
// is opt.Features, or else the highest index seen. Of the options, Format,
// the CSV ones and MaxDenseBytes are ignored.
//
// Memory is proportional to the stored entries and rows, whatever the
// indices: no dense matrix is made (see SparseTable.Dense). Errors name
// the line and the column (the token, counted from 1) and wrap ErrFormat
// (a token that is not index:value, an index that is not an integer, zero
// in 1-based files, above opt.Features or not increasing, a value that is
// not a number or out of range), linalg.ErrNonFinite (NaN or Inf written),
// linalg.ErrEmpty (no rows, or no features at all) or linalg.ErrSettings
// (invalid options). Cost: one pass over the input.
func ReadLIBSVM(r io.Reader, opt TableOptions) (*SparseTable, error) {
	const op = "dataset.ReadLIBSVM"
	if err := checkReader(op, r); err != nil {
		return nil, err
	}
	opt.Format = FormatLIBSVM
	if err := opt.check(op); err != nil {
		return nil, err
	}
	at := src{op: op}
	in, err := openText(r)
	if err != nil {
		return nil, at.streamErr(err, 0)
	}
	defer in.close()
	return readLIBSVM(in, &opt, at)
}

// ReadLIBSVMFile reads the LIBSVM file at path as ReadLIBSVM does; errors
// also name the file, and a missing file is an error wrapping ErrNotFound.
func ReadLIBSVMFile(path string, opt TableOptions) (*SparseTable, error) {
	const op = "dataset.ReadLIBSVMFile"
	opt.Format = FormatLIBSVM
	if err := opt.check(op); err != nil {
		return nil, err
	}
	f, err := openFile(op, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	at := src{op, path}
	in, err := openText(f)
	if err != nil {
		return nil, at.streamErr(err, 0)
	}
	defer in.close()
	return readLIBSVM(in, &opt, at)
}

// maxLine bounds the length of a LIBSVM line (the buffer grows with the
// input up to it).
const maxLine = 1 << 30

func readLIBSVM(in *text, opt *TableOptions, at src) (*SparseTable, error) {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	labels := newLabeler(opt)
	base := 1
	if opt.ZeroBased {
		base = 0
	}
	t := &SparseTable{}
	rowPtr := []int{0}
	var colIdx []int
	var val []float64
	cols, line := opt.Features, 0
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
		label, first := "", 0
		if !strings.Contains(toks[0], ":") {
			label, _ = labels.label(toks[0])
			first = 1
		}
		prev := -1
		for k := first; k < len(toks); k++ {
			tok := toks[k]
			if strings.HasPrefix(tok, "qid:") {
				continue
			}
			is, vs, ok := strings.Cut(tok, ":")
			if !ok {
				return nil, at.errf(ErrFormat, line, k+1, "%q is not index:value", clip(tok))
			}
			j, err := parseIndex(is, base, opt, at, line, k+1)
			if err != nil {
				return nil, err
			}
			if j <= prev {
				return nil, at.errf(ErrFormat, line, k+1, "feature index %s is not above the previous %d (indices must increase)", is, prev+base)
			}
			v, err := parseValue(vs)
			if err != nil {
				return nil, valueErr(at, err, line, k+1, " (feature "+is+")", vs)
			}
			prev = j
			colIdx = append(colIdx, j)
			val = append(val, v)
			if opt.Features == 0 {
				cols = max(cols, j+1)
			}
		}
		t.Labels = append(t.Labels, label)
		rowPtr = append(rowPtr, len(colIdx))
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, at.errf(ErrFormat, line+1, 0, "line longer than %d bytes", maxLine)
		}
		return nil, at.streamErr(err, line+1)
	}
	if len(t.Labels) == 0 {
		return nil, at.errf(linalg.ErrEmpty, 0, 0, "no data rows (empty file)")
	}
	if cols == 0 {
		return nil, at.errf(linalg.ErrEmpty, 0, 0, "no features in any row (set Features for a file of labels only)")
	}
	x, err := linalg.NewCSR(len(t.Labels), cols, rowPtr, colIdx, val)
	if err != nil {
		return nil, at.errf(ErrFormat, 0, 0, "%w", err) // not reached: the checks above build a valid matrix
	}
	t.X = x
	t.textBytes = in.count.n
	return t, nil
}

// parseIndex parses a feature index and returns its 0-based column.
func parseIndex(is string, base int, opt *TableOptions, at src, line, col int) (int, error) {
	if is == "" || strings.Trim(is, "0123456789") != "" {
		return 0, at.errf(ErrFormat, line, col, "feature index %q is not a non-negative integer", clip(is))
	}
	u, err := strconv.ParseUint(is, 10, 63)
	if err != nil || u >= math.MaxInt {
		return 0, at.errf(ErrFormat, line, col, "feature index %s is out of range", clip(is))
	}
	if u < uint64(base) {
		return 0, at.errf(ErrFormat, line, col, "feature index 0, but indices count from 1 (set ZeroBased for files written with indices from 0)")
	}
	j := int(u) - base
	if opt.Features > 0 && j >= opt.Features {
		return 0, at.errf(ErrFormat, line, col, "feature index %s above the %d features set by Features", is, opt.Features)
	}
	return j, nil
}

// clip shortens a token for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
