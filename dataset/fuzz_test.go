package dataset

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"ukm/linalg"
)

// Fuzz targets for every reader. Inputs come from a bytes.Reader, which
// cannot fail, so every error must be an input error (linalg.ErrInvalid).
// The dense limit is kept small so that the fuzzer stays fast.

const fuzzDense = 1 << 20

// fuzzSeeds are the tricky inputs users met, and their neighbours.
var fuzzSeeds = []string{
	"0,1,2\n1,0.5,0.25\n0,3,4\n",         // numeric header (pandas)
	"label,0,1\n-1,2,3\n1,4,5\n",         // column numbers after a named label
	"\ufefflabel,a,b\n1,2,3\n",           // byte-order mark
	"y,a\n?,1\nNA,2\nNaN,3\n,4\nb,7\n",   // missing-label markers
	"+1,1\n1,2\n1.0,3\n-1.0,4\n",         // one class written three ways
	"name,\"a,b\"\n\"x, y\",\"1.5\"\n",   // quoted delimiter
	"y,a\nx,1e400\n",                     // overflow
	"y,a\nx,1\"2\n",                      // bare quote
	"y,a\n\"multi\nline\",1\n",           // quoted newline
	hugeIndex,                            // LIBSVM index far out
	"+1 1:0.5 3:2\n? 2:1\n2:4 3:1 # c\n", // LIBSVM, unlabeled rows
	"1 qid:3 1:1\t2:2\r\n",               // qid, tab, CRLF
	"1 2:1 1:1\n",                        // indices decreasing
	"1 0:1\n",                            // zero index
	"1 1:nan\n",                          // NaN value
	"",
}

// checkTableInvariants checks a table read without error.
func checkTableInvariants(t *testing.T, tab *Table, opt TableOptions) {
	r, c := tab.X.Dims()
	if r != len(tab.Labels) || r == 0 || c == 0 {
		t.Fatalf("X is %d x %d with %d labels", r, c, len(tab.Labels))
	}
	if tab.Header != nil && len(tab.Header) != c {
		t.Fatalf("%d header names for %d features", len(tab.Header), c)
	}
	for _, v := range tab.X.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("non-finite value %v", v)
		}
	}
	checkLabels(t, tab.Labels, opt)
}

func checkLabels(t *testing.T, labels []string, opt TableOptions) {
	markers := opt.Missing
	if markers == nil {
		markers = DefaultMissing
	}
	for _, l := range labels {
		if l == "" {
			continue
		}
		if l != strings.TrimSpace(l) || slices.Contains(markers, l) {
			t.Fatalf("label %q is untrimmed or a missing marker", l)
		}
		if !opt.RawLabels && canonLabel(l) != l {
			t.Fatalf("label %q is not canonical (%q)", l, canonLabel(l))
		}
	}
}

func checkInputErr(t *testing.T, err error) {
	if !errors.Is(err, linalg.ErrInvalid) {
		t.Fatalf("error %v does not wrap linalg.ErrInvalid", err)
	}
	var le *linalg.Error
	if !errors.As(err, &le) || !strings.HasPrefix(le.Op, "dataset.") {
		t.Fatalf("error %v is not a *linalg.Error of this package", err)
	}
}

// fuzzOptions builds valid options from two fuzzed bytes.
func fuzzOptions(a, b byte) TableOptions {
	opt := TableOptions{MaxDenseBytes: fuzzDense}
	opt.LabelColumn = []int{0, 0, 1, LabelLast, LabelNone}[int(a)%5]
	opt.Header = Header(a / 5 % 3)
	opt.Comma = []rune{0, ';', '\t', ' '}[b%4]
	opt.RawLabels = b&4 != 0
	if b&8 != 0 {
		opt.Missing = []string{"-"}
	}
	opt.Format = Format(b >> 4 % 3)
	return opt
}

func FuzzCSV(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), byte(i), byte(0))
		f.Add([]byte(s), byte(3), byte(0x10|i))
	}
	f.Fuzz(func(t *testing.T, in []byte, a, b byte) {
		opt := fuzzOptions(a, b)
		opt.Format = FormatCSV
		tab, err := ReadTableFrom(bytes.NewReader(in), opt)
		if err != nil {
			checkInputErr(t, err)
			return
		}
		checkTableInvariants(t, tab, opt)
	})
}

func FuzzLIBSVM(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), uint16(0), i%2 == 0)
	}
	f.Add([]byte("1 1:1\n"), uint16(3), false)
	f.Fuzz(func(t *testing.T, in []byte, features uint16, zeroBased bool) {
		opt := TableOptions{Features: int(features), ZeroBased: zeroBased}
		s, err := ReadLIBSVM(bytes.NewReader(in), opt)
		if err != nil {
			checkInputErr(t, err)
			return
		}
		if err := s.X.Validate(); err != nil {
			t.Fatal(err)
		}
		if s.X.Rows != len(s.Labels) || s.X.Rows == 0 || s.X.Cols == 0 {
			t.Fatalf("X is %d x %d with %d labels", s.X.Rows, s.X.Cols, len(s.Labels))
		}
		if features > 0 && s.X.Cols != int(features) {
			t.Fatalf("%d columns, %d features set", s.X.Cols, features)
		}
		// Memory follows the input: an entry takes at least 3 bytes, a
		// row at least 2.
		if 3*s.X.NNZ() > len(in) || 2*s.X.Rows > len(in)+1 {
			t.Fatalf("%d entries in %d rows from %d bytes", s.X.NNZ(), s.X.Rows, len(in))
		}
		checkLabels(t, s.Labels, opt)
		d, err := s.Dense(fuzzDense)
		if err != nil {
			if !errors.Is(err, linalg.ErrSettings) || 8*float64(s.X.Rows)*float64(s.X.Cols) <= fuzzDense {
				t.Fatalf("Dense: %v", err)
			}
			return
		}
		for i := range s.X.Rows {
			for k := s.X.RowPtr[i]; k < s.X.RowPtr[i+1]; k++ {
				if d.X.At(i, s.X.ColIdx[k]) != s.X.Val[k] {
					t.Fatalf("dense (%d,%d) differs", i, s.X.ColIdx[k])
				}
			}
		}
	})
}

// FuzzGzip reads every input twice, plain and gzip-compressed, and wants
// the same answer; inputs that start with the gzip magic are read as they
// are too.
func FuzzGzip(f *testing.F) {
	for i, s := range fuzzSeeds {
		f.Add([]byte(s), byte(i))
	}
	f.Add(gzipBytes(f, []byte("y,a\nx,1\n")), byte(0))
	f.Add(append(gzipBytes(f, []byte("1 1:1\n")), gzipBytes(f, []byte("2 2:2\n"))...), byte(1))
	f.Add(append(gzipBytes(f, []byte("1 1:1\n")), "junk"...), byte(2))
	f.Add(encodeIDX([]uint32{2, 2}, []byte{1, 2, 3, 4}), byte(3))
	f.Fuzz(func(t *testing.T, in []byte, a byte) {
		opt := fuzzOptions(a, a>>3)
		if bytes.HasPrefix(in, gzipMagic) {
			if _, err := ReadTableFrom(bytes.NewReader(in), opt); err != nil {
				checkInputErr(t, err)
			}
			if _, err := ReadIDX(bytes.NewReader(in)); err != nil {
				checkInputErr(t, err)
			}
			return
		}
		gz := gzipBytes(t, in)
		plain, perr := ReadTableFrom(bytes.NewReader(in), opt)
		packed, gerr := ReadTableFrom(bytes.NewReader(gz), opt)
		sameResult(t, "table", perr, gerr)
		if perr == nil {
			checkTableInvariants(t, plain, opt)
			if !slices.Equal(plain.Labels, packed.Labels) || !slices.Equal(plain.Header, packed.Header) ||
				!slices.Equal(plain.X.RawMatrix().Data, packed.X.RawMatrix().Data) {
				t.Fatal("plain and gzip tables differ")
			}
		}
		pi, perr := ReadIDX(bytes.NewReader(in))
		gi, gerr := ReadIDX(bytes.NewReader(gz))
		sameResult(t, "idx", perr, gerr)
		if perr == nil && (!slices.Equal(pi.Dims, gi.Dims) || !bytes.Equal(pi.Data, gi.Data)) {
			t.Fatal("plain and gzip IDX differ")
		}
	})
}

// sameResult checks that plain and compressed reads fail alike.
func sameResult(t *testing.T, what string, plain, packed error) {
	if (plain == nil) != (packed == nil) {
		t.Fatalf("%s: plain error %v, gzip error %v", what, plain, packed)
	}
	if plain != nil {
		checkInputErr(t, plain)
		checkInputErr(t, packed)
		if what != "idx" && plain.Error() != packed.Error() {
			t.Fatalf("%s: plain error %q, gzip error %q", what, plain, packed)
		}
	}
}
func FuzzIDX(f *testing.F) {
	valid := encodeIDX([]uint32{2, 3}, []byte{1, 2, 3, 4, 5, 6})
	f.Add(valid)
	f.Add(encodeIDX([]uint32{1}, []byte{9}))
	f.Add(idxGzip(f, valid))
	f.Add(valid[:len(valid)-2])
	f.Add(append(slices.Clone(valid), 7))
	f.Add([]byte{0, 0, 0x0d, 1, 0, 0, 0, 1, 0, 0, 0, 0})
	f.Add([]byte{0, 0, 8, 0})
	f.Add(encodeIDX([]uint32{1000, 1000, 1000, 4}, nil))
	f.Fuzz(func(t *testing.T, in []byte) {
		x, err := ReadIDX(bytes.NewReader(in))
		if err != nil {
			// A bytes.Reader cannot fail, so every error is a format error.
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		if len(x.Dims) == 0 || idxProd(x.Dims) != len(x.Data) {
			t.Fatalf("dims %v for %d bytes", x.Dims, len(x.Data))
		}
		if len(in) < 2 || in[0] != 0x1f || in[1] != 0x8b {
			// A plain file re-encodes to itself.
			dims := make([]uint32, len(x.Dims))
			for i, d := range x.Dims {
				dims[i] = uint32(d)
			}
			if !bytes.Equal(encodeIDX(dims, x.Data), in) {
				t.Fatal("re-encoding differs from the input")
			}
		}
	})
}
