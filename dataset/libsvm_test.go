package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"runtime"
	"slices"
	"strings"
	"testing"

	"ukm/linalg"
)

func TestReadLIBSVM(t *testing.T) {
	for _, tc := range []struct {
		name, in   string
		opt        TableOptions
		rows, cols int
		labels     string // joined by "|"
		dense      []float64
	}{
		{"labels and unlabeled", "+1 1:0.5 3:2\n? 2:1\n2:4 3:1 # comment\n-1 1:9\n", TableOptions{}, 4, 3, "1|||-1",
			[]float64{0.5, 0, 2, 0, 1, 0, 0, 4, 1, 9, 0, 0}},
		// Regression: +1 and 1 (and 1.0) were two classes.
		{"labels canonical", "+1 1:1\n1 1:2\n1.0 1:3\n-1.00 1:4\n", TableOptions{}, 4, 1, "1|1|1|-1", []float64{1, 2, 3, 4}},
		{"raw labels", "+1 1:1\n1 1:2\n", TableOptions{RawLabels: true}, 2, 1, "+1|1", []float64{1, 2}},
		{"features fixed", "1 1:1\n0 2:3\n", TableOptions{Features: 5}, 2, 5, "1|0", []float64{1, 0, 0, 0, 0, 0, 3, 0, 0, 0}},
		{"zero-based", "a 0:1 2:2\nb 1:3\n", TableOptions{ZeroBased: true}, 2, 3, "a|b", []float64{1, 0, 2, 0, 3, 0}},
		{"qid, tabs, CRLF, blank lines", "\n3 qid:7 1:1\t2:2\r\n\r\n# only a comment\nNA 2:5\n", TableOptions{}, 2, 2, "3|", []float64{1, 2, 0, 5}},
		{"empty row", "1\n2 1:1\n", TableOptions{}, 2, 1, "1|2", []float64{0, 1}},
		{"byte-order mark", "\ufeff1 1:1\n", TableOptions{}, 1, 1, "1", []float64{1}},
		{"own markers", "- 1:1\n? 1:2\n", TableOptions{Missing: []string{"-"}}, 2, 1, "|?", []float64{1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadLIBSVM(strings.NewReader(tc.in), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.X.Validate(); err != nil {
				t.Fatal(err)
			}
			if s.X.Rows != tc.rows || s.X.Cols != tc.cols {
				t.Fatalf("X is %d x %d, want %d x %d", s.X.Rows, s.X.Cols, tc.rows, tc.cols)
			}
			if got := strings.Join(s.Labels, "|"); got != tc.labels {
				t.Errorf("labels %q, want %q", got, tc.labels)
			}
			d, err := s.Dense(0)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.X.RawMatrix().Data, tc.dense) {
				t.Errorf("dense X = %v, want %v", d.X.RawMatrix().Data, tc.dense)
			}
			// ReadTableFrom tells LIBSVM by the content and reads the same.
			tab, err := ReadTableFrom(strings.NewReader(tc.in), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tab.X.RawMatrix().Data, tc.dense) || !slices.Equal(tab.Labels, s.Labels) {
				t.Errorf("ReadTableFrom: X %v labels %q", tab.X.RawMatrix().Data, tab.Labels)
			}
		})
	}
}

func TestReadLIBSVMErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      TableOptions
		kind     error
		want     string
	}{
		{"empty", "", TableOptions{}, linalg.ErrEmpty, "no data rows"},
		{"comments only", "# x\n\n", TableOptions{}, linalg.ErrEmpty, "no data rows"},
		{"labels only", "1\n2\n", TableOptions{}, linalg.ErrEmpty, "no features"},
		{"token", "1 1:2 bad\n", TableOptions{}, ErrFormat, `line 1, column 3: "bad" is not index:value`},
		{"order", "1 1:1\n1 2:1 1:1\n", TableOptions{}, ErrFormat, "line 2, column 3: feature index 1 is not above the previous 2"},
		{"repeated", "1 2:1 2:1\n", TableOptions{}, ErrFormat, "not above the previous 2"},
		{"index zero", "1 0:1\n", TableOptions{}, ErrFormat, "set ZeroBased"},
		{"index sign", "1 -1:1\n", TableOptions{}, ErrFormat, `"-1" is not a non-negative integer`},
		{"index text", "1 a:1\n", TableOptions{}, ErrFormat, "not a non-negative integer"},
		{"index empty", "1 :1\n", TableOptions{}, ErrFormat, "not a non-negative integer"},
		{"index huge", "1 99999999999999999999:1\n", TableOptions{}, ErrFormat, "out of range"},
		{"value empty", "1 1:\n", TableOptions{}, ErrFormat, `line 1, column 2: "" (feature 1) is not a number`},
		{"value text", "1 1:x\n", TableOptions{}, ErrFormat, "is not a number"},
		{"value overflow", "1 1:1e400\n", TableOptions{}, ErrFormat, `line 1, column 2: "1e400" (feature 1) is out of range`},
		{"value nan", "1 1:nan\n", TableOptions{}, linalg.ErrNonFinite, "not finite"},
		{"above features", "1 4:1\n", TableOptions{Features: 3}, ErrFormat, "above the 3 features set by Features"},
		{"negative features", "1 1:1\n", TableOptions{Features: -1}, linalg.ErrSettings, "Features = -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadLIBSVM(strings.NewReader(tc.in), tc.opt)
			if !errors.Is(err, tc.kind) || !errors.Is(err, linalg.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.kind, tc.want)
			}
		})
	}
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// maxSmallInputAlloc is the most a reader may allocate for an input under
// 1 KB: 100 MB.
const maxSmallInputAlloc = 100 << 20

// Regression: this 27-byte file made the reader allocate a dense 2 x 2e9
// matrix (32 GB) and die of out-of-memory.
const hugeIndex = "1 1:1\n-1 2000000000:1\n"

func TestLIBSVMHugeIndexSparse(t *testing.T) {
	var s *SparseTable
	var err error
	a := allocated(func() { s, err = ReadLIBSVM(strings.NewReader(hugeIndex), TableOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	if a > 1<<20 {
		t.Errorf("ReadLIBSVM allocated %d bytes for %d bytes of input", a, len(hugeIndex))
	}
	if s.X.Rows != 2 || s.X.Cols != 2000000000 || s.X.NNZ() != 2 || s.X.At(1, 1999999999) != 1 ||
		!slices.Equal(s.Labels, []string{"1", "-1"}) {
		t.Fatalf("X %dx%d with %d entries, labels %q", s.X.Rows, s.X.Cols, s.X.NNZ(), s.Labels)
	}
	// Dense refuses before allocating, naming the size and the option.
	a = allocated(func() { _, err = s.Dense(0) })
	if !errors.Is(err, linalg.ErrSettings) || !strings.Contains(err.Error(), "2 x 2000000000 matrix takes 32000000000 bytes") ||
		!strings.Contains(err.Error(), "MaxDenseBytes") {
		t.Fatalf("Dense: %v", err)
	}
	if a > 1<<20 {
		t.Errorf("a refused Dense allocated %d bytes", a)
	}
	if _, err := s.Dense(-1); !errors.Is(err, linalg.ErrSettings) {
		t.Errorf("Dense(-1): %v", err)
	}
	small, err := ReadLIBSVM(strings.NewReader("1 3:1\n"), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := small.Dense(23); !errors.Is(err, linalg.ErrSettings) || !strings.Contains(err.Error(), "24 bytes, above the limit set of 23") {
		t.Errorf("Dense(23) of 24 bytes: %v", err)
	}
	if d, err := small.Dense(24); err != nil || d.X.At(0, 2) != 1 {
		t.Errorf("Dense(24) of 24 bytes: %v", err)
	}
}

func TestSmallInputsAllocateLittle(t *testing.T) {
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write([]byte("1 1:1" + strings.Repeat(" ", 900<<10) + "8000000:1\n"))
	w.Close()
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"huge index", []byte(hugeIndex)},
		{"just under the floor", []byte("1 8388607:1\n")},
		{"many rows", []byte(strings.Repeat("1\n", 400) + "1 20000:1\n")},
		{"gzip bomb", gz.Bytes()},
		{"huge declared features", []byte("1 1:1\n")},
		{"csv", []byte(strings.Repeat("1,2,3,4,5,6,7,8,9\n", 50))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.in) >= 1024 {
				t.Fatalf("input is %d bytes, want < 1 KB", len(tc.in))
			}
			opt := TableOptions{}
			if tc.name == "huge declared features" {
				opt.Features = 1 << 40
			}
			a := allocated(func() {
				ReadTableFrom(bytes.NewReader(tc.in), opt)
				ReadLIBSVM(bytes.NewReader(tc.in), opt)
			})
			t.Logf("%d bytes of input: %d bytes allocated", len(tc.in), a)
			if a > maxSmallInputAlloc {
				t.Errorf("%d bytes of input made the readers allocate %d bytes", len(tc.in), a)
			}
		})
	}
}
