package dataset

import (
	"errors"
	"math"
	"reflect"
	"testing"

	"ukm/linalg"
)

func TestThesisSynth(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  func(seed uint64) (*Set, error)
		n, p int
		// check tests one row's defining property.
		check func(x []float64, c int) bool
	}{
		{"norm", func(s uint64) (*Set, error) { return Norm(50, 10, s) }, 100, 11,
			// 3 ± 1 against -3 ± 1: more than 6 standard deviations on the
			// wrong side of 0 has probability below 1e-9.
			func(x []float64, c int) bool {
				if c == 0 {
					return x[0] > -3
				}
				return x[0] < 3
			}},
		{"chessboard", func(s uint64) (*Set, error) { return Chessboard(50, 4, s) }, 100, 2,
			func(x []float64, c int) bool {
				return x[0] >= 0 && x[0] < 4 && x[1] >= 0 && x[1] < 4 && (int(x[0])+int(x[1]))%2 == c
			}},
		{"double-spiral noiseless", func(s uint64) (*Set, error) { return DoubleSpiral(50, 0, s) }, 100, 3,
			func(x []float64, c int) bool {
				r := math.Hypot(x[0], x[1])
				return math.Abs(r-x[2]) < 1e-12 && r >= 0.25-1e-12 && r <= 1.75+1e-12
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := tc.gen(7)
			if err != nil {
				t.Fatal(err)
			}
			n, p := s.X.Dims()
			if n != tc.n || p != tc.p || len(s.Y) != n || len(s.Labels) != n {
				t.Fatalf("shape %dx%d with %d labels, want %dx%d", n, p, len(s.Y), tc.n, tc.p)
			}
			for i := 0; i < n; i++ {
				want := 0
				if i >= n/2 {
					want = 1
				}
				if s.Y[i] != want {
					t.Fatalf("row %d has class %d, want %d", i, s.Y[i], want)
				}
				if !tc.check(s.X.RawRowView(i), s.Y[i]) {
					t.Errorf("row %d (class %d) = %v", i, s.Y[i], s.X.RawRowView(i))
				}
			}
			again, _ := tc.gen(7)
			if !reflect.DeepEqual(s, again) {
				t.Error("same seed, different sets")
			}
			other, _ := tc.gen(8)
			if reflect.DeepEqual(s.X, other.X) {
				t.Error("different seeds, same points")
			}
		})
	}
}

func TestThesisSynthErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"norm perClass 0", func() error { _, err := Norm(0, 10, 1); return err }()},
		{"norm negative extra", func() error { _, err := Norm(5, -1, 1); return err }()},
		{"chessboard one cell", func() error { _, err := Chessboard(5, 1, 1); return err }()},
		{"chessboard perClass 0", func() error { _, err := Chessboard(0, 4, 1); return err }()},
		{"spiral NaN noise", func() error { _, err := DoubleSpiral(5, math.NaN(), 1); return err }()},
		{"spiral negative noise", func() error { _, err := DoubleSpiral(5, -1, 1); return err }()},
	} {
		if !errors.Is(tc.err, linalg.ErrSettings) || !errors.Is(tc.err, linalg.ErrInvalid) {
			t.Errorf("%s: error %v, want linalg.ErrSettings", tc.name, tc.err)
		}
	}
}
