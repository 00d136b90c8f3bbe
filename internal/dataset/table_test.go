package dataset

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, name, content string, gz bool) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if gz {
		w := gzip.NewWriter(f)
		w.Write([]byte(content))
		w.Close()
		return p
	}
	f.WriteString(content)
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
		{"csv no header last", "a.csv", "1,2,a\n3,4,\n", TableOptions{LabelColumn: -1}, false, 2, 2, "a,", 3},
		{"csv middle label gz", "a.csv.gz", "f1,lab,f2\n1,x,2\n7,y,8\n", TableOptions{LabelColumn: 1}, true, 2, 2, "x,y", 7},
		{"libsvm", "a.libsvm", "+1 1:0.5 3:2\n? 2:1\n2:4 3:1 # comment\n-1 1:9\n", TableOptions{}, false, 4, 3, "+1,,,-1", 0},
		{"libsvm gz fixed p", "a.svm.gz", "1 1:1\n0 2:3\n", TableOptions{Features: 5}, true, 2, 5, "1,0", 0},
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
			if tab.X.At(1, 0) != tc.x10 {
				t.Errorf("X(1,0) = %v, want %v", tab.X.At(1, 0), tc.x10)
			}
		})
	}
}

func TestReadTableErrors(t *testing.T) {
	for _, tc := range []struct {
		name, file, content string
		opt                 TableOptions
		want                string
	}{
		{"empty", "e.csv", "", TableOptions{}, "no data rows"},
		{"header only", "h.csv", "y,a\n", TableOptions{}, "no data rows"},
		{"ragged", "r.csv", "y,a,b\nx,1,2\nx,1\n", TableOptions{}, "line 3: 2 fields, want 3"},
		{"non-numeric", "n.csv", "x,1,2\ny,1,zz\n", TableOptions{}, "line 2: column 3"},
		{"label column", "l.csv", "x,1\n", TableOptions{LabelColumn: 5}, "label column 5 out of range"},
		{"one column", "o.csv", "x\n", TableOptions{}, "need a label"},
		{"libsvm token", "t.libsvm", "1 1:2 bad\n", TableOptions{}, "line 1: \"bad\""},
		{"libsvm order", "o.libsvm", "1 2:1 1:1\n", TableOptions{}, "not increasing"},
		{"libsvm index", "i.libsvm", "1 0:1\n", TableOptions{}, "positive integer"},
		{"libsvm nan", "v.libsvm", "1 1:nan\n", TableOptions{}, "finite"},
		{"libsvm bound", "b.libsvm", "1 4:1\n", TableOptions{Features: 3}, "above the declared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, tc.file, tc.content, false)
			_, err := ReadTable(p, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.file) {
				t.Fatalf("err = %v, want the file name and %q", err, tc.want)
			}
		})
	}
	if _, err := ReadTable(filepath.Join(t.TempDir(), "missing.csv"), TableOptions{}); err == nil {
		t.Error("missing file accepted")
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
