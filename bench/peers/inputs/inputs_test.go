package inputs

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset/benchdata"
	"ukm/dataset/datatest"
	"ukm/linalg"
	"ukm/qp"
)

// The builders themselves, and the pins of their bits, are tested in package
// internal/benchdata; these tests cover what this package adds: the SKL
// instance, and that its names reach the same builders.

// TestSameAsBenchdata checks that the exported names give the benchmarks'
// inputs: identical points and kernels, and the same sentinel error.
func TestSameAsBenchdata(t *testing.T) {
	x, err := RBFPoints(60, RBFDim, RBFSeed)
	if err != nil {
		t.Fatal(err)
	}
	bx, err := benchdata.RBFPoints(60, benchdata.RBFDim, benchdata.RBFSeed)
	if err != nil {
		t.Fatal(err)
	}
	k, g, err := RBFKernel(x)
	if err != nil {
		t.Fatal(err)
	}
	bk, bg, err := benchdata.RBFKernel(bx)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(x, bx) || !mat.Equal(k, bk) || g != bg {
		t.Error("inputs and benchdata disagree on the RBF inputs")
	}
	if _, err := RBFPoints(0, 1, 1); !errors.Is(err, ErrArgument) {
		t.Errorf("RBFPoints(0, 1, 1): error %v, want ErrArgument", err)
	}
	if _, err := NewSpectrum(nil, 2, 1); !errors.Is(err, ErrArgument) {
		t.Errorf("NewSpectrum(nil): error %v, want ErrArgument", err)
	}
}

// loadIonosphere builds the BenchmarkSKL spectrum, skipping when the data
// set is absent unless CI is set.
func loadIonosphere(t *testing.T) *Spectrum {
	t.Helper()
	datatest.Load(t, "ionosphere")
	sp, err := Ionosphere()
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestSKLInstance checks H and a against a direct recomputation from the
// spectrum, H_ij = (v_iᵀv_j)² and a_i = (yᵀv_i)² over the labeled rows, checks
// the μ-space problem's constraints, and that our solver reaches KKT
// precision on it.
func TestSKLInstance(t *testing.T) {
	sp := loadIonosphere(t)
	for _, d := range []int{10, 20, 50, 100, 200} {
		s, err := sp.SKL(d, SKLC)
		if err != nil {
			t.Fatal(err)
		}
		h, a := s.H(), s.A()
		for i := 0; i < d; i++ {
			yv := 0.0
			for r, row := range sp.Labeled {
				yv += sp.Y.At(r, 0) * sp.Vectors.At(row, i)
			}
			// a_i is a squared sum of 20 products of unit-scale numbers: 1e-13
			// absolute is a few hundred ulps
			if math.Abs(a[i]-yv*yv) > 1e-13 {
				t.Errorf("d=%d: a[%d] = %v, recomputed %v", d, i, a[i], yv*yv)
			}
			for j := 0; j < d; j++ {
				g := 0.0
				for _, row := range sp.Labeled {
					g += sp.Vectors.At(row, i) * sp.Vectors.At(row, j)
				}
				if math.Abs(h.At(i, j)-g*g) > 1e-13 {
					t.Errorf("d=%d: H[%d,%d] = %v, recomputed %v", d, i, j, h.At(i, j), g*g)
				}
			}
		}
		p := s.Problem()
		if p.Ain != nil {
			for i := 0; i < d-1; i++ {
				if p.Ain.At(i, i) != 1 || p.Ain.At(i, i+1) != -SKLC {
					t.Fatalf("d=%d: decay row %d is not e_i - C e_{i+1}", d, i)
				}
			}
		}
		var res qp.Result
		if err := s.Solve(context.Background(), nil, nil, &res); err != nil {
			t.Fatalf("d=%d: %v", d, err)
		}
		// 1e-9: the relative KKT level our benchmarks report as solved
		if res.Status != linalg.Optimal || res.KKT.Max() > 1e-9 {
			t.Errorf("d=%d: status %v, KKT %+v", d, res.Status, res.KKT)
		}
	}
}

func TestParseSizes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []int
		ok   bool
	}{
		{"1, 2,,30", []int{1, 2, 30}, true},
		{"", nil, true},
		{"5,0", nil, false},
		{"5,x", nil, false},
		{"-3", nil, false},
	} {
		got, err := ParseSizes(c.in)
		if (err == nil) != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("ParseSizes(%q) = %v, %v", c.in, got, err)
		}
	}
}

// TestOutputDir checks both ways of naming the output directory.
func TestOutputDir(t *testing.T) {
	want := filepath.Join(t.TempDir(), "a", "b")
	got, err := OutputDir(want, "x-")
	if err != nil || got != want {
		t.Fatalf("OutputDir(%q) = %q, %v", want, got, err)
	}
	if st, err := os.Stat(want); err != nil || !st.IsDir() {
		t.Fatalf("%s not created: %v", want, err)
	}
	tmp, err := OutputDir("", "ukm-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if !strings.HasPrefix(filepath.Base(tmp), "ukm-test-") {
		t.Fatalf("temporary directory %q", tmp)
	}
}
