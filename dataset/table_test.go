package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"ukm/linalg"
)

func gzipBytes(t testing.TB, b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func writeFile(t *testing.T, name, content string, gz bool) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	b := []byte(content)
	if gz {
		b = gzipBytes(t, b)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadTable(t *testing.T) {
	for _, tc := range []struct {
		name, file, content string
		opt                 TableOptions
		gz                  bool
		rows, cols          int
		labels              string
		x10                 float64 // X(1,0)
	}{
		{"csv header first", "a.csv", "y,f1,f2\na,1,2\n,3,4\nb,5,6\n", TableOptions{}, false, 3, 2, "a,,b", 3},
		{"csv no header last", "a.csv", "5,2,a\n3,4,\n", TableOptions{LabelColumn: -1}, false, 2, 2, "a,", 3},
		{"csv middle label gz", "a.csv.gz", "f1,lab,f2\n1,x,2\n7,y,8\n", TableOptions{LabelColumn: 1}, true, 2, 2, "x,y", 7},
		{"libsvm", "a.libsvm", "+1 1:0.5 3:2\n? 2:1\n2:4 3:1 # comment\n-1 1:9\n", TableOptions{}, false, 4, 3, "1,,,-1", 0},
		{"libsvm gz fixed p", "a.svm.gz", "1 1:1\n0 2:3\n", TableOptions{Features: 5}, true, 2, 5, "1,0", 0},
		// Gzip is told by its magic bytes, not by the name.
		{"gzip without .gz", "a.csv", "y,a\nx,1\ny,2\n", TableOptions{}, true, 2, 1, "x,y", 2},
		{"plain with .gz", "a.csv.gz", "y,a\nx,1\ny,2\n", TableOptions{}, false, 2, 1, "x,y", 2},
		{"libsvm by content", "a.txt", "1 1:1\n2 2:2\n", TableOptions{}, false, 2, 2, "1,2", 0},
		{"libsvm by content gz", "a9a", "# a9a\n1 1:1\n2 2:2\n", TableOptions{}, true, 2, 2, "1,2", 0},
		{"csv by content", "data", "1,1:1\n2,3\n", TableOptions{}, false, 1, 1, "2", 3},
		{"tsv", "a.tsv", "y\ta\nx\t1\nz\t2\n", TableOptions{}, false, 2, 1, "x,z", 2},
		{"libsvm forced", "a.csv", "1 1:1\n2 1:2\n", TableOptions{Format: FormatLIBSVM}, false, 2, 1, "1,2", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadTable(writeFile(t, tc.file, tc.content, tc.gz), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			r, c := tab.X.Dims()
			if r != tc.rows || c != tc.cols {
				t.Fatalf("dims %dx%d, want %dx%d", r, c, tc.rows, tc.cols)
			}
			if got := strings.Join(tab.Labels, ","); got != tc.labels {
				t.Errorf("labels %q, want %q", got, tc.labels)
			}
			if r > 1 && tab.X.At(1, 0) != tc.x10 {
				t.Errorf("X(1,0) = %v, want %v", tab.X.At(1, 0), tc.x10)
			}
		})
	}
}

func TestReadTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, content string
		gz                  bool
		opt                 TableOptions
		kind                error
		want                string
	}{
		{"empty", "e.csv", "", false, TableOptions{}, linalg.ErrEmpty, "no data rows"},
		{"ragged", "r.csv", "y,a,b\nx,1,2\nx,1\n", false, TableOptions{}, ErrFormat, "line 3: 2 fields, want 3"},
		{"non-numeric", "n.csv", "x,1,2\ny,1,zz\n", false, TableOptions{}, ErrFormat, "line 2, column 3"},
		{"overflow in gzip", "o.csv.gz", "y,a\nx,1\nx,1e400\n", true, TableOptions{}, ErrFormat, "line 3, column 2: \"1e400\""},
		{"libsvm token", "t.libsvm", "1 1:2 bad\n", false, TableOptions{}, ErrFormat, "line 1, column 3: \"bad\""},
		{"libsvm too dense", "d.libsvm", hugeIndex, false, TableOptions{}, linalg.ErrSettings, "takes 32000000000 bytes"},
		{"libsvm limit set", "d.libsvm", "1 100:1\n", false, TableOptions{MaxDenseBytes: 799}, linalg.ErrSettings, "800 bytes, above the limit set of 799"},
		{"truncated gzip", "g.csv", "y,a\nx,1\n", true, TableOptions{}, ErrFormat, "unexpected EOF"},
		{"negative limit", "n.libsvm", "1 1:1\n", false, TableOptions{MaxDenseBytes: -5}, linalg.ErrSettings, "MaxDenseBytes = -5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, tc.file, tc.content, tc.gz)
			if tc.name == "truncated gzip" {
				b, _ := os.ReadFile(p)
				os.WriteFile(p, b[:len(b)-6], 0o644)
			}
			_, err := ReadTable(p, tc.opt)
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.kind, tc.want)
			}
			if tc.kind != linalg.ErrSettings || tc.name == "libsvm too dense" {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("err = %v, want the file name", err)
				}
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "missing.csv")
	for name, f := range map[string]func() error{
		"ReadTable":      func() error { _, err := ReadTable(missing, TableOptions{}); return err },
		"ReadLIBSVMFile": func() error { _, err := ReadLIBSVMFile(missing, TableOptions{}); return err },
		"ReadFile":       func() error { _, err := ReadFile(missing); return err },
		"ReadIDXFile":    func() error { _, err := ReadIDXFile(missing); return err },
	} {
		err := f()
		if !errors.Is(err, ErrNotFound) || !errors.Is(err, fs.ErrNotExist) || errors.Is(err, linalg.ErrInvalid) || errors.Is(err, ErrFormat) {
			t.Errorf("%s of a missing file: %v, want ErrNotFound and not an input error", name, err)
		}
	}
}

func TestReadLIBSVMFile(t *testing.T) {
	p := writeFile(t, "x.dat", "1 2:3\n", true)
	s, err := ReadLIBSVMFile(p, TableOptions{Features: 4})
	if err != nil {
		t.Fatal(err)
	}
	if s.X.Rows != 1 || s.X.Cols != 4 || s.X.At(0, 1) != 3 || len(s.Labeled()) != 1 {
		t.Fatalf("X %dx%d", s.X.Rows, s.X.Cols)
	}
	_, err = ReadLIBSVMFile(writeFile(t, "y.dat", "1 2:x\n", false), TableOptions{})
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "y.dat: line 1, column 2") {
		t.Fatalf("err = %v", err)
	}
}

func TestReadTableReference(t *testing.T) {
	dir, err := Dir()
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	// ssl_text is stored gzip-compressed: 1500 rows, 11960 features.
	tab, err := ReadTable(filepath.Join(dir, "ssl_text.csv.gz"), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := tab.X.Dims(); r != 1500 || c != 11960 || len(tab.Labeled()) != 1500 {
		t.Fatalf("ssl_text: %dx%d, %d labeled", r, c, len(tab.Labeled()))
	}
}

func TestReadTableStreamErrors(t *testing.T) {
	boom := errors.New("boom")
	// The reader fails in the first record, after the format is known.
	failing := io.MultiReader(strings.NewReader("y,"+strings.Repeat("x", 100)), iotest.ErrReader(boom))
	for name, r := range map[string]io.Reader{
		"at once":      iotest.ErrReader(boom),
		"first record": failing,
	} {
		_, err := ReadTableFrom(r, TableOptions{Format: FormatCSV})
		if !errors.Is(err, boom) || errors.Is(err, linalg.ErrInvalid) {
			t.Errorf("%s: %v, want boom and not an input error", name, err)
		}
	}
	// A gzip stream cut inside its first record: a format error, no panic.
	gz := gzipBytes(t, []byte(strings.Repeat("1,2,3,4,5,6,7,8\n", 5000)))
	for _, cut := range []int{len(gz) / 2, 20, 12} {
		_, err := ReadTableFrom(bytes.NewReader(gz[:cut]), TableOptions{Format: FormatCSV})
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "compressed stream") {
			t.Errorf("cut at %d: %v", cut, err)
		}
	}
}
