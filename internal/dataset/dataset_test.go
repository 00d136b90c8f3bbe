package dataset

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"
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
}

func TestIndexNumericOrder(t *testing.T) {
	cls, y := Index([]string{"10", "2", "-1", "2"})
	if strings.Join(cls, ",") != "-1,2,10" || y[0] != 2 || y[1] != 1 || y[2] != 0 {
		t.Fatalf("got %v %v", cls, y)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "no data rows"},
		{"no rows", "label,a\n", "no data rows"},
		{"ragged", "label,a,b\nx,1\n", "line 2: 2 fields, want 3"},
		{"text", "label,a\nx,abc\n", "line 2: column 2"},
		{"nan", "label,a\nx,1\ny,NaN\n", "line 3: column 2"},
		{"no features", "label\nx\n", "need a label"},
		{"unlabeled row", "label,a\nx,1\n,2\n", "row 2 has no label"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
		})
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
		if n != tc.n || p != tc.p || len(s.Classes) != tc.c {
			t.Errorf("%s: %dx%d with %d classes, want %dx%d with %d", tc.name, n, p, len(s.Classes), tc.n, tc.p, tc.c)
		}
	}
	if _, err := Load("no-such-set"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing set: err = %v", err)
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
		if a.Y[0] != 0 || a.Y[99] != 1 {
			t.Errorf("%s: labels %v", name, a.Y)
		}
		if _, err := gen(0, 0.1, 1); err == nil {
			t.Errorf("%s: zero points accepted", name)
		}
		if _, err := gen(5, -1, 1); err == nil {
			t.Errorf("%s: negative noise accepted", name)
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
