package dataset

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"ukm/linalg"
)

// csvCase is a CSV input with the table it must read to.
type csvCase struct {
	name   string
	in     string
	opt    TableOptions
	rows   int
	cols   int
	labels string    // the labels joined by "|"
	header string    // the header joined by "|"
	row0   []float64 // the first row of X
}

func checkTable(t *testing.T, tab *Table, rows, cols int, labels, header string, row0 []float64) {
	t.Helper()
	r, c := tab.X.Dims()
	if r != rows || c != cols {
		t.Fatalf("X is %d x %d, want %d x %d", r, c, rows, cols)
	}
	if got := strings.Join(tab.Labels, "|"); got != labels {
		t.Errorf("labels %q, want %q", got, labels)
	}
	if got := strings.Join(tab.Header, "|"); got != header {
		t.Errorf("header %q, want %q", got, header)
	}
	if row0 != nil && !slices.Equal(tab.X.RawRowView(0), row0) {
		t.Errorf("row 0 = %v, want %v", tab.X.RawRowView(0), row0)
	}
}

func TestReadCSV(t *testing.T) {
	for _, tc := range []csvCase{
		{"named header", "y,f1,f2\na,1,2\n,3,4\nb,5,6\n", TableOptions{}, 3, 2, "a||b", "f1|f2", []float64{1, 2}},
		{"no header, label last", "1,2,a\n3,4,\n", TableOptions{LabelColumn: LabelLast}, 2, 2, "a|", "", []float64{1, 2}},
		{"label in the middle", "f1,lab,f2\n1,x,2\n7,y,8\n", TableOptions{LabelColumn: 1}, 2, 2, "x|y", "f1|f2", []float64{1, 2}},
		// Regression: pandas writes the column numbers of a DataFrame made
		// from an array as the header; they were read as a row of class "0".
		{"pandas header 0..c-1", "0,1,2\n1,0.5,0.25\n0,3,4\n", TableOptions{}, 2, 2, "1|0", "1|2", []float64{0.5, 0.25}},
		{"pandas header 1..c", "1,2,3\n1,0.5,0.25\n0,3,4\n", TableOptions{}, 2, 2, "1|0", "2|3", []float64{0.5, 0.25}},
		{"pandas header, label last", "0,1,2\n0.5,0.25,1\n3,4,0\n", TableOptions{LabelColumn: LabelLast}, 2, 2, "1|0", "0|1", []float64{0.5, 0.25}},
		{"numeric header after a named label", "label,0,1\n-1,2,3\n1,4,5\n", TableOptions{}, 2, 2, "-1|1", "0|1", []float64{2, 3}},
		{"unlabeled first row of column numbers is data", ",1\n-1,2\n1,4\n", TableOptions{}, 3, 1, "|-1|1", "", []float64{1}},
		{"text label over text labels is data", "a,0,1\nb,2,3\n", TableOptions{}, 2, 2, "a|b", "", []float64{0, 1}},
		{"text label over no labels is data", "a,1,2\n,3,4\n", TableOptions{}, 2, 2, "a|", "", []float64{1, 2}},
		{"first row is data: its label recurs", "1,0,1\n1,2,3\n0,4,5\n", TableOptions{}, 3, 2, "1|1|0", "", []float64{0, 1}},
		{"two columns 0,1 is data", "0,1\n1,0\n", TableOptions{}, 2, 1, "0|1", "", []float64{1}},
		{"one line of column numbers is data", "a,0,1\n", TableOptions{}, 1, 2, "a", "", []float64{0, 1}},
		{"header forced", "1,2,3\n0,4,5\n", TableOptions{Header: HeaderYes}, 1, 2, "0", "2|3", []float64{4, 5}},
		{"header refused", "0,1,2\n1,4,5\n", TableOptions{Header: HeaderNo}, 2, 2, "0|1", "", []float64{1, 2}},
		// Regression: a UTF-8 byte-order mark joined the first label.
		{"byte-order mark, no header", "\ufeff1,2\n1,3\n", TableOptions{}, 2, 1, "1|1", "", []float64{2}},
		{"byte-order mark, header", "\ufefflabel,a\n1,3\n", TableOptions{LabelName: "label"}, 1, 1, "1", "a", []float64{3}},
		// Regression: missing-label markers made classes of their own.
		{"missing markers", "y,a\n?,1\nNA,2\nNaN,3\n,4\nN/A,5\nnan,6\nb,7\n", TableOptions{}, 7, 1, "||||||b", "a", []float64{1}},
		{"own markers", "y,a\n-,1\n?,2\n,3\n", TableOptions{Missing: []string{"-"}}, 3, 1, "|?|", "a", []float64{1}},
		{"no markers but the empty field", "y,a\nNA,1\n,2\n", TableOptions{Missing: []string{}}, 2, 1, "NA|", "a", []float64{1}},
		// Regression: +1, 1 and 1.0 were three classes.
		{"numeric labels canonical", "+1,1\n1,2\n1.0,3\n-1.0,4\n1e0,5\n007,6\n0.50,7\n", TableOptions{}, 7, 1, "1|1|1|-1|1|7|0.5", "", []float64{1}},
		{"raw labels", "+1,1\n1.0,2\n", TableOptions{RawLabels: true}, 2, 1, "+1|1.0", "", []float64{1}},
		// Regression: a quoted field holding a comma was a ragged row.
		{"quoted fields", "name,\"a,b\"\n\"x, y\",\"1.5\"\n\"z\",2\n", TableOptions{}, 2, 1, "x, y|z", "a,b", []float64{1.5}},
		{"space before a quote", "y, \"a,b\"\nx, \"1\"\n", TableOptions{}, 1, 1, "x", "a,b", []float64{1}},
		{"empty fields with a space delimiter", "y a b\nx 1 2\n", TableOptions{Comma: ' '}, 1, 2, "x", "a|b", []float64{1, 2}},
		{"quoted newline", "y,a\n\"multi\nline\",1\n", TableOptions{}, 1, 1, "multi\nline", "a", []float64{1}},
		{"label by name", "a,b,class\n1,2,x\n3,4,y\n", TableOptions{LabelName: "class"}, 2, 2, "x|y", "a|b", []float64{1, 2}},
		{"label by name with spaces", " a , class \n1, x\n", TableOptions{LabelName: "class"}, 1, 1, "x", "a", []float64{1}},
		{"no label column", "0.5,1\n2,3\n", TableOptions{LabelColumn: LabelNone}, 2, 2, "|", "", []float64{0.5, 1}},
		{"no label column, header", "a,b\n2,3\n", TableOptions{LabelColumn: LabelNone}, 1, 2, "", "a|b", []float64{2, 3}},
		{"semicolons", "y;a;b\nx;1,5;2\n", TableOptions{Comma: ';'}, 0, 0, "", "", nil}, // "1,5" is no number: error below
		{"tabs", "y\ta\nx\t 1 \n", TableOptions{Comma: '\t'}, 1, 1, "x", "a", []float64{1}},
		{"blank lines and CRLF", "\r\ny,a\r\n\r\nx,1\r\n   \r\ny,2\r\n", TableOptions{}, 2, 1, "x|y", "a", []float64{1}},
		{"hex and exponent", "y,a,b\nx,0x1p-2,1e-400\n", TableOptions{}, 1, 2, "x", "a|b", []float64{0.25, 0}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := ReadTableFrom(strings.NewReader(tc.in), tc.opt)
			if tc.name == "semicolons" {
				if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `line 2, column 2: "1,5" ("a") is not a number`) {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkTable(t, tab, tc.rows, tc.cols, tc.labels, tc.header, tc.row0)
		})
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		opt      TableOptions
		kind     error
		want     string
	}{
		{"empty", "", TableOptions{}, linalg.ErrEmpty, "no data rows"},
		{"header only", "y,a\n", TableOptions{}, linalg.ErrEmpty, "no data rows"},
		{"ragged", "y,a,b\nx,1,2\nx,1\n", TableOptions{}, ErrFormat, "line 3: 2 fields, want 3"},
		{"not a number", "x,1,2\ny,1,zz\n", TableOptions{}, ErrFormat, `line 2, column 3: "zz" is not a number`},
		{"named column", "y,a,b\nx,1,zz\n", TableOptions{}, ErrFormat, `line 2, column 3: "zz" ("b") is not a number`},
		// Regression: 1e400 was "not a number"; it is a number out of range.
		{"overflow", "y,a\nx,1\nx,1e400\n", TableOptions{}, ErrFormat, `line 3, column 2: "1e400" ("a") is out of range`},
		{"negative overflow", "x,-1e999\n", TableOptions{}, ErrFormat, "line 1, column 2: \"-1e999\" is out of range"},
		{"nan", "y,a\nx,1\ny,NaN\n", TableOptions{}, linalg.ErrNonFinite, "line 3, column 2"},
		{"inf", "x,1\ny,-Inf\n", TableOptions{}, linalg.ErrNonFinite, "line 2, column 2"},
		{"missing feature", "y,a,b\nx,1,\n", TableOptions{}, ErrFormat, "line 2, column 3"},
		{"one column", "x\n", TableOptions{}, ErrFormat, "need a label"},
		{"bare quote", "y,a\nx,1\"2\n", TableOptions{}, ErrFormat, "line 2, column 4: bare"},
		{"open quote", "y,a\nx,\"1\n", TableOptions{}, ErrFormat, "extraneous or missing"},
		{"label column out of range", "x,1\n", TableOptions{LabelColumn: 5}, linalg.ErrSettings, "LabelColumn 5 is out of range"},
		{"label name absent", "a,b\n1,2\n", TableOptions{LabelName: "y"}, linalg.ErrSettings, `LabelName "y" is not in the header`},
		{"label name twice", "y,y\n1,2\n", TableOptions{LabelName: "y"}, ErrFormat, `names "y" twice`},
		{"label name and column", "a,b\n1,2\n", TableOptions{LabelName: "a", LabelColumn: 1}, linalg.ErrSettings, "set one"},
		{"label name, no header", "a,b\n1,2\n", TableOptions{LabelName: "a", Header: HeaderNo}, linalg.ErrSettings, "needs a header"},
		{"bad label column", "a,b\n1,2\n", TableOptions{LabelColumn: -3}, linalg.ErrSettings, "LabelColumn = -3"},
		{"bad delimiter", "a,b\n1,2\n", TableOptions{Comma: '"'}, linalg.ErrSettings, "cannot be a delimiter"},
		{"bad header option", "a,b\n", TableOptions{Header: 7}, linalg.ErrSettings, "unknown Header 7"},
		{"bad format", "a,b\n", TableOptions{Format: 9}, linalg.ErrSettings, "unknown Format 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadTableFrom(strings.NewReader(tc.in), tc.opt)
			if !errors.Is(err, tc.kind) || !errors.Is(err, linalg.ErrInvalid) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.kind, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "dataset.ReadTableFrom: ") {
				t.Errorf("err = %v, want the operation first", err)
			}
		})
	}
}

func TestReadCSVLabelsInterned(t *testing.T) {
	tab, err := ReadTableFrom(strings.NewReader("y,a\n1,1\n1.0,2\n+1,3\n"), TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	classes, labeled, y := tab.Index()
	if !slices.Equal(classes, []string{"1"}) || !slices.Equal(labeled, []int{0, 1, 2}) || !slices.Equal(y, []int{0, 0, 0}) {
		t.Fatalf("classes %v labeled %v y %v", classes, labeled, y)
	}
}
