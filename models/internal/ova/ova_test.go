package ova

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

const op = "test.Op"

var errFit = errors.New("test: fit failed")

func second[T any](_ T, err error) error { return err }

// TestChecks walks the checks' good and bad cases: every failure wraps
// linalg.ErrInvalid and the kind named, and its message starts with op.
func TestChecks(t *testing.T) {
	var nilDense *mat.Dense
	for _, c := range []struct {
		name string
		err  error
		want error // nil: no error expected
	}{
		{"binary ok", CheckBinary(op, []float64{1, -1, 1}), nil},
		{"binary empty", CheckBinary(op, nil), linalg.ErrEmpty},
		{"binary zero label", CheckBinary(op, []float64{1, 0, -1}), linalg.ErrLabels},
		{"binary one class", CheckBinary(op, []float64{1, 1}), linalg.ErrLabels},
		{"labels ok", CheckLabels(op, []int{0, 2, 1, 2}, 3), nil},
		{"labels ok, 20 classes", CheckLabels(op, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, 20), nil},
		{"labels classes=1", CheckLabels(op, []int{0, 0}, 1), linalg.ErrLabels},
		{"labels out of range", CheckLabels(op, []int{0, 1, 3}, 3), linalg.ErrLabels},
		{"labels negative", CheckLabels(op, []int{0, -1, 1}, 2), linalg.ErrLabels},
		{"labels missing class", CheckLabels(op, []int{0, 2, 0}, 3), linalg.ErrLabels},
		// A huge class count is an error before anything is allocated (it
		// was an out-of-memory crash).
		{"labels huge classes", CheckLabels(op, []int{0, 1}, 1<<50), linalg.ErrLabels},
		{"kernel ok", CheckKernel(op, mat.NewDense(2, 2, nil), 2), nil},
		{"kernel nil", CheckKernel(op, nil, 2), linalg.ErrEmpty},
		// A typed nil counts as nil: its Dims would panic.
		{"kernel typed nil", CheckKernel(op, nilDense, 1), linalg.ErrEmpty},
		{"kernel not square", CheckKernel(op, mat.NewDense(2, 3, nil), 2), linalg.ErrShape},
		{"kernel empty", CheckKernel(op, &mat.Dense{}, 0), linalg.ErrEmpty},
		{"kernel vs labels", CheckKernel(op, mat.NewDense(2, 2, nil), 3), linalg.ErrShape},
		{"predict ok", second(CheckPredict(op, 2, 1, mat.NewDense(1, 2, nil))), nil},
		{"predict untrained", second(CheckPredict(op, 0, 0, mat.NewDense(1, 2, nil))), linalg.ErrEmpty},
		{"predict 2 models for 2 classes", second(CheckPredict(op, 2, 2, mat.NewDense(1, 2, nil))), linalg.ErrShape},
		{"predict nil x", second(CheckPredict(op, 2, 1, nil)), linalg.ErrEmpty},
		{"predict typed nil x", second(CheckPredict(op, 2, 1, nilDense)), linalg.ErrEmpty},
		{"predict no rows", second(CheckPredict(op, 2, 1, mat.NewDense(1, 2, nil).Slice(0, 0, 0, 2))), linalg.ErrEmpty},
		{"dst nil", second(Dst(op, nil, 2, 3)), nil},
		{"dst ok", second(Dst(op, mat.NewDense(2, 3, nil), 2, 3)), nil},
		{"dst shape", second(Dst(op, mat.NewDense(3, 2, nil), 2, 3)), linalg.ErrShape},
		{"models ok, 2 classes", CheckModels(op, 2, 1), nil},
		{"models ok, 4 classes", CheckModels(op, 4, 4), nil},
		{"models untrained", CheckModels(op, 2, 0), linalg.ErrEmpty},
		{"models 2 for 2 classes", CheckModels(op, 2, 2), linalg.ErrShape},
		{"models 1 for 3 classes", CheckModels(op, 3, 1), linalg.ErrShape},
		{"models 1 class", CheckModels(op, 1, 1), linalg.ErrShape},
		{"models 0 classes", CheckModels(op, 0, 0), linalg.ErrEmpty},
		{"models -1 classes", CheckModels(op, -1, 1), linalg.ErrShape},
	} {
		switch {
		case c.want == nil:
			if c.err != nil {
				t.Errorf("%s: error %v, want none", c.name, c.err)
			}
		case !errors.Is(c.err, linalg.ErrInvalid) || !errors.Is(c.err, c.want):
			t.Errorf("%s: error %v, want kind %v", c.name, c.err, c.want)
		case !strings.HasPrefix(c.err.Error(), op+": "):
			t.Errorf("%s: message %q does not start with the operation", c.name, c.err)
		}
	}
	var nilIface mat.Matrix
	if !IsNil(nilIface) || !IsNil(nilDense) || IsNil(mat.NewDense(1, 1, nil)) {
		t.Error("IsNil wrong")
	}
}

// TestResolve: zero fields take their defaults, others are kept, bad
// values are errors naming the field, and other kinds of field are left
// alone.
func TestResolve(t *testing.T) {
	type settings struct {
		Tol     float64
		MaxIter int
		Flag    bool
		Seed    uint64
		Grid    []float64
		hidden  float64
	}
	def := settings{Tol: 1e-3, MaxIter: 10, Seed: 7, hidden: 1}
	for _, c := range []struct {
		name string
		in   *settings
		want settings
		err  string // "" for none, else the field named
	}{
		{"nil", nil, settings{Tol: 1e-3, MaxIter: 10}, ""},
		{"zero", &settings{}, settings{Tol: 1e-3, MaxIter: 10}, ""},
		{"kept", &settings{Tol: 2, MaxIter: 3, Flag: true, Seed: 1, hidden: -1}, settings{Tol: 2, MaxIter: 3, Flag: true, Seed: 1, hidden: -1}, ""},
		{"Tol<0", &settings{Tol: -1}, settings{}, "Tol"},
		{"Tol NaN", &settings{Tol: math.NaN()}, settings{}, "Tol"},
		{"Tol Inf", &settings{Tol: math.Inf(1)}, settings{}, "Tol"},
		{"MaxIter<0", &settings{MaxIter: -1}, settings{}, "MaxIter"},
	} {
		got, err := Resolve(op, c.in, def)
		switch {
		case c.err == "":
			if err != nil || got.Tol != c.want.Tol || got.MaxIter != c.want.MaxIter || got.Flag != c.want.Flag || got.Seed != c.want.Seed || got.hidden != c.want.hidden {
				t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
			}
		case !errors.Is(err, linalg.ErrSettings) || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), op+": "):
			t.Errorf("%s: error %v, want one of kind ErrSettings naming %s", c.name, err, c.err)
		}
	}
}

// TestFit checks the targets each binary problem sees, the resizing of the
// model slice, and that the first error stops the loop.
func TestFit(t *testing.T) {
	labels := []int{0, 2, 1, 2}
	for _, c := range []struct {
		name    string
		classes int
		fail    map[int]error // problem index -> error returned by fit
		calls   int           // problems fitted
		want    error
		targets [][]float64
	}{
		{"two classes", 2, nil, 1, nil, [][]float64{{-1, 1, -1, 1}}},
		{"three classes", 3, nil, 3, nil, [][]float64{{1, -1, -1, -1}, {-1, -1, 1, -1}, {-1, 1, -1, 1}}},
		{"error stops", 3, map[int]error{1: errFit}, 2, errFit, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			lab := labels
			if c.classes == 2 {
				lab = []int{0, 1, 0, 1}
			}
			models := make([]int, 5, 8) // stale entries, larger capacity
			var got [][]float64
			err := Fit(&models, lab, c.classes, make([]float64, len(lab)), func(m *int, y []float64) error {
				*m = len(got)
				got = append(got, slices.Clone(y))
				return c.fail[*m]
			})
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if len(got) != c.calls || len(models) != Problems(c.classes) {
				t.Fatalf("%d calls, %d models; want %d calls, %d models", len(got), len(models), c.calls, Problems(c.classes))
			}
			for i, want := range c.targets {
				if !slices.Equal(got[i], want) {
					t.Errorf("problem %d targets %v, want %v", i, got[i], want)
				}
			}
		})
	}
}

// TestDecision: column c holds model c's values; the shape checks and the
// model's own error come through.
func TestDecision(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{1, 2})
	decide := func(m *float64, dst []float64, x mat.Matrix) ([]float64, error) {
		if *m < 0 {
			return dst, errFit
		}
		for i := range dst {
			dst[i] = *m * x.At(i, 0)
		}
		return dst, nil
	}
	got, err := Decision(op, nil, 3, []float64{1, 10, 100}, x, decide)
	if err != nil || !mat.Equal(got, mat.NewDense(2, 3, []float64{1, 10, 100, 2, 20, 200})) {
		t.Errorf("Decision = %v, %v", mat.Formatted(got), err)
	}
	if _, err := Decision(op, nil, 3, []float64{1, -1, 1}, x, decide); !errors.Is(err, errFit) {
		t.Errorf("model error: %v", err)
	}
	if _, err := Decision(op, mat.NewDense(2, 2, nil), 3, []float64{1, 1, 1}, x, decide); !errors.Is(err, linalg.ErrShape) {
		t.Errorf("bad dst: %v", err)
	}
	if _, err := Decision(op, nil, 3, []float64{1, 1}, x, decide); !errors.Is(err, linalg.ErrShape) {
		t.Errorf("2 models for 3 classes: %v", err)
	}
}

func TestClassify(t *testing.T) {
	dec := mat.NewDense(3, 3, []float64{
		0.5, 0.5, 0.1, // tie: lower index
		-1, -2, -0.5,
		0, 3, 3,
	})
	if got := Classify(nil, dec, false, nil); !slices.Equal(got, []int{0, 2, 1}) {
		t.Errorf("multi-class %v, want [0 2 1]", got)
	}
	bin := mat.NewDense(3, 1, []float64{0.2, 0, -0.1})
	dst := make([]int, 1, 3)
	if got := Classify(dst, bin, true, func(f float64) bool { return f > 0 }); !slices.Equal(got, []int{1, 0, 0}) {
		t.Errorf("binary f > 0: %v, want [1 0 0]", got)
	}
	if got := Classify(nil, bin, true, func(f float64) bool { return f >= 0 }); !slices.Equal(got, []int{1, 1, 0}) {
		t.Errorf("binary f >= 0: %v, want [1 1 0]", got)
	}
}

// A one-versus-all model has one binary problem per class, except with two
// classes, where class 1 against class 0 is enough.
func ExampleProblems() {
	fmt.Println(Problems(2), Problems(3), Problems(10))
	// Output: 1 3 10
}
