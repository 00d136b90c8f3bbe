package dataset

import (
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"ukm/linalg"
)

func TestRead(t *testing.T) {
	s, err := Read(strings.NewReader("label,a,b\nx,1,2\ny,3,.5\nx,-1,1e3\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, c := s.X.Dims()
	if r != 3 || c != 2 || s.X.At(1, 1) != 0.5 || s.X.At(2, 1) != 1000 {
		t.Fatalf("bad parse: %v", s.X)
	}
	if strings.Join(s.Classes, ",") != "x,y" || s.Y[1] != 1 || s.Y[2] != 0 {
		t.Fatalf("classes %v y %v", s.Classes, s.Y)
	}
	// Gzip by magic bytes, and a byte-order mark.
	s, err = Read(strings.NewReader(string(gzipBytes(t, []byte("\ufeff1,2\n+1,3\n-1,4\n")))))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Classes, []string{"-1", "1"}) || !slices.Equal(s.Y, []int{1, 1, 0}) {
		t.Fatalf("classes %v y %v", s.Classes, s.Y)
	}
	if y, err := s.Binary(); err != nil || !slices.Equal(y, []float64{1, 1, -1}) {
		t.Fatalf("Binary = %v, %v", y, err)
	}
}

func TestIndex(t *testing.T) {
	for _, tc := range []struct {
		name    string
		labels  []string
		classes []string
		y       []int
	}{
		{"numeric order", []string{"10", "2", "-1", "2"}, []string{"-1", "2", "10"}, []int{2, 1, 0, 1}},
		{"lexicographic", []string{"b", "10", "a", "2"}, []string{"10", "2", "a", "b"}, []int{3, 0, 2, 1}},
		// Regression: ties in value ("1" and "1.0") and NaN made the
		// numeric order depend on the input order.
		{"equal values by text", []string{"1.0", "1", "0"}, []string{"0", "1", "1.0"}, []int{2, 1, 0}},
		{"equal values reversed", []string{"1", "1.0", "0"}, []string{"0", "1", "1.0"}, []int{1, 2, 0}},
		{"NaN is text", []string{"NaN", "2", "10"}, []string{"10", "2", "NaN"}, []int{2, 1, 0}},
		{"empty", nil, nil, []int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			classes, y := Index(tc.labels)
			if !slices.Equal(classes, tc.classes) || !slices.Equal(y, tc.y) {
				t.Fatalf("Index = %q %v, want %q %v", classes, y, tc.classes, tc.y)
			}
			back, err := Decode(classes, y)
			if err != nil || !slices.Equal(back, tc.labels) && len(tc.labels) > 0 {
				t.Fatalf("Decode = %q, %v", back, err)
			}
			enc, err := Encode(classes, tc.labels)
			if err != nil || !slices.Equal(enc, y) {
				t.Fatalf("Encode = %v, %v", enc, err)
			}
		})
	}
}

func TestEncodeDecode(t *testing.T) {
	classes := []string{"-1", "1"}
	y, err := Encode(classes, []string{"1", "", "-1"})
	if err != nil || !slices.Equal(y, []int{1, -1, 0}) {
		t.Fatalf("Encode = %v, %v", y, err)
	}
	labels, err := Decode(classes, y)
	if err != nil || !slices.Equal(labels, []string{"1", "", "-1"}) {
		t.Fatalf("Decode = %q, %v", labels, err)
	}
	if _, err := Encode(classes, []string{"1", "2"}); !errors.Is(err, linalg.ErrLabels) || !strings.Contains(err.Error(), `label "2" of row 1`) {
		t.Errorf("Encode of an unknown label: %v", err)
	}
	for _, bad := range []int{2, -2} {
		if _, err := Decode(classes, []int{0, bad}); !errors.Is(err, linalg.ErrLabels) {
			t.Errorf("Decode of %d: %v", bad, err)
		}
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		kind     error
		want     string
	}{
		{"empty", "", linalg.ErrEmpty, "no data rows"},
		{"no rows", "label,a\n", linalg.ErrEmpty, "no data rows"},
		{"ragged", "label,a,b\nx,1\n", ErrFormat, "line 2: 2 fields, want 3"},
		{"text", "label,a\nx,abc\n", ErrFormat, "line 2, column 2"},
		{"nan", "label,a\nx,1\ny,NaN\n", linalg.ErrNonFinite, "line 3, column 2"},
		{"no features", "label\nx\n", ErrFormat, "need a label"},
		{"unlabeled row", "label,a\nx,1\n,2\n", linalg.ErrLabels, "line 3, column 1: no label"},
		{"missing marker", "label,a\nx,1\nNA,2\n", linalg.ErrLabels, `line 3, column 1: no label ("NA")`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %v containing %q", err, tc.kind, tc.want)
			}
		})
	}
	p := writeFile(t, "bad.csv", "label,a\nx,1\ny,\n", false)
	if _, err := ReadFile(p); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), p+": line 3, column 2") {
		t.Errorf("ReadFile: %v", err)
	}
	s := &Set{Name: "three", Classes: []string{"a", "b", "c"}}
	if _, err := s.Binary(); !errors.Is(err, linalg.ErrLabels) {
		t.Errorf("Binary of three classes: %v", err)
	}
}

func TestLoadReference(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n, p, c int
	}{
		{"ionosphere", 351, 34, 2}, {"wine", 178, 13, 3}, {"heart", 270, 13, 2}, {"sonar", 208, 60, 2},
	} {
		s, err := Load(tc.name)
		if err != nil {
			if os.Getenv("CI") == "" && errors.Is(err, ErrNotFound) {
				t.Skip(err)
			}
			t.Fatal(err)
		}
		n, p := s.X.Dims()
		if n != tc.n || p != tc.p || len(s.Classes) != tc.c || s.Name != tc.name {
			t.Errorf("%s: %dx%d with %d classes, want %dx%d with %d", tc.name, n, p, len(s.Classes), tc.n, tc.p, tc.c)
		}
	}
	if _, err := Load("no-such-set"); !errors.Is(err, ErrNotFound) || errors.Is(err, linalg.ErrInvalid) {
		t.Errorf("missing set: err = %v", err)
	}
	t.Setenv(EnvDir, "/no/such/dir")
	if _, err := Dir(); !errors.Is(err, ErrNotFound) {
		t.Errorf("bad %s: %v", EnvDir, err)
	}
}

func TestSynthetic(t *testing.T) {
	gens := map[string]func(int, float64, uint64) (*Set, error){
		"twocircles": TwoCircles, "relevance": Relevance, "twomoons": TwoMoons,
	}
	for name, gen := range gens {
		a, err := gen(50, 0.1, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := gen(50, 0.1, 7)
		c, _ := gen(50, 0.1, 8)
		if n, p := a.X.Dims(); n != 100 || p != 2 || a.Name != name {
			t.Fatalf("%s: %dx%d %q", name, n, p, a.Name)
		}
		if a.X.At(3, 0) != b.X.At(3, 0) || a.X.At(3, 0) == c.X.At(3, 0) {
			t.Errorf("%s: not reproducible from the seed, or seed ignored", name)
		}
		if a.Y[0] != 0 || a.Y[99] != 1 || a.Labels[99] != "1" {
			t.Errorf("%s: labels %v", name, a.Y)
		}
		for _, bad := range []struct {
			n     int
			noise float64
		}{{0, 0.1}, {-1, 0.1}, {5, -1}, {5, math.NaN()}, {5, math.Inf(1)}, {math.MaxInt / 2, 0.1}} {
			if _, err := gen(bad.n, bad.noise, 1); !errors.Is(err, linalg.ErrSettings) {
				t.Errorf("%s(%d, %v): %v, want ErrSettings", name, bad.n, bad.noise, err)
			}
		}
	}
	// TwoCircles radii: class 0 near 1, class 1 near 2 (noise 0 makes it exact).
	s, _ := TwoCircles(20, 0, 1)
	for i := 0; i < 40; i++ {
		r := math.Hypot(s.X.At(i, 0), s.X.At(i, 1))
		if math.Abs(r-float64(s.Y[i]+1)) > 1e-12 {
			t.Fatalf("point %d radius %v class %d", i, r, s.Y[i])
		}
	}
}
