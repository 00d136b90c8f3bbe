package ova

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

var (
	errShape  = errors.New("test: shape")
	errLabels = errors.New("test: labels")
	errSoft   = errors.New("test: soft")
	errHard   = errors.New("test: hard")
)

func TestChecks(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want error // nil: no error expected
	}{
		{"binary ok", CheckBinary([]float64{1, -1, 1}, errLabels), nil},
		{"binary zero label", CheckBinary([]float64{1, 0, -1}, errLabels), errLabels},
		{"binary one class", CheckBinary([]float64{1, 1}, errLabels), errLabels},
		{"labels ok", CheckLabels([]int{0, 2, 1, 2}, 3, errLabels), nil},
		{"labels ok, 20 classes", CheckLabels([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, 20, errLabels), nil},
		{"labels classes=1", CheckLabels([]int{0, 0}, 1, errLabels), errLabels},
		{"labels out of range", CheckLabels([]int{0, 1, 3}, 3, errLabels), errLabels},
		{"labels negative", CheckLabels([]int{0, -1, 1}, 2, errLabels), errLabels},
		{"labels missing class", CheckLabels([]int{0, 2, 0}, 3, errLabels), errLabels},
		{"kernel ok", CheckKernel(mat.NewDense(2, 2, nil), 2, errShape), nil},
		{"kernel nil", CheckKernel(nil, 2, errShape), errShape},
		{"kernel not square", CheckKernel(mat.NewDense(2, 3, nil), 2, errShape), errShape},
		{"kernel empty", CheckKernel(&mat.Dense{}, 0, errShape), errShape},
		{"kernel vs labels", CheckKernel(mat.NewDense(2, 2, nil), 3, errShape), errShape},
	} {
		if c.want == nil && c.err != nil || !errors.Is(c.err, c.want) {
			t.Errorf("%s: error %v, want %v", c.name, c.err, c.want)
		}
	}
}

// TestFit checks the targets each binary problem sees, the resizing of the
// model slice, and the soft/hard error handling.
func TestFit(t *testing.T) {
	labels := []int{0, 2, 1, 2}
	soft := func(err error) bool { return errors.Is(err, errSoft) }
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
		{"soft error goes on", 3, map[int]error{0: errSoft, 1: errSoft}, 3, errSoft, nil},
		{"hard error stops", 3, map[int]error{1: errHard}, 2, errHard, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			lab := labels
			if c.classes == 2 {
				lab = []int{0, 1, 0, 1}
			}
			models := make([]int, 5, 8) // stale entries, larger capacity
			var got [][]float64
			err := Fit("test", &models, lab, c.classes, make([]float64, len(lab)), func(m *int, y []float64) error {
				*m = len(got)
				got = append(got, slices.Clone(y))
				return c.fail[*m]
			}, soft)
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("error %v, want %v", err, c.want)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "test: class 0 versus rest") && !strings.HasPrefix(err.Error(), "test: class 1 versus rest") {
				t.Errorf("message %q does not name the first failing problem", err)
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
