package dataset

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

func TestBlobsShapeBalanceDeterminism(t *testing.T) {
	s, err := Blobs(1003, 12, 4, 7)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := s.X.Dims(); r != 1003 || c != 12 || len(s.Y) != r || len(s.Labels) != r {
		t.Fatalf("X is %d x %d, %d labels", r, c, len(s.Y))
	}
	if !slices.Equal(s.Classes, []string{"0", "1", "2", "3"}) || s.Name != "blobs" {
		t.Fatalf("classes %v name %q", s.Classes, s.Name)
	}
	count := make([]int, 4)
	for i, c := range s.Y {
		count[c]++
		if s.Labels[i] != s.Classes[c] {
			t.Fatalf("row %d: label %q, class %d", i, s.Labels[i], c)
		}
		// Every prefix is balanced.
		if lo, hi := slices.Min(count), slices.Max(count); hi-lo > 1 {
			t.Fatalf("prefix of %d rows has class counts %v", i+1, count)
		}
	}
	for _, v := range s.X.RawMatrix().Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatal("non-finite coordinate")
		}
	}
	again, _ := Blobs(1003, 12, 4, 7)
	if !mat.Equal(s.X, again.X) || !slices.Equal(s.Y, again.Y) {
		t.Error("same seed, different set")
	}
	other, _ := Blobs(1003, 12, 4, 8)
	if mat.Equal(s.X, other.X) {
		t.Error("different seeds, same set")
	}
	// A zero ClustersPerClass means the default.
	zero, err := BlobsWith(1003, 12, 4, 7, BlobsOptions{Noise: DefaultBlobsNoise})
	if err != nil || !mat.Equal(zero.X, s.X) {
		t.Errorf("ClustersPerClass 0 is not the default: %v", err)
	}
	// The smallest cases: one point per class, and the plane.
	for _, a := range [][3]int{{2, 2, 2}, {50, 2, 3}, {7, 3, 7}} {
		s, err := Blobs(a[0], a[1], a[2], 1)
		if err != nil {
			t.Fatalf("Blobs%v: %v", a, err)
		}
		if r, c := s.X.Dims(); r != a[0] || c != a[1] {
			t.Fatalf("Blobs%v: %d x %d", a, r, c)
		}
	}
}

func TestBlobsErrors(t *testing.T) {
	for _, tc := range []struct {
		n, p, classes int
		opt           BlobsOptions
		want          string
	}{
		{10, 5, 1, DefaultBlobsOptions, "1 classes, want at least 2"},
		{3, 5, 4, DefaultBlobsOptions, "3 points for 4 classes"},
		{10, 1, 2, DefaultBlobsOptions, "dimension 1, want at least 2"},
		{10, 5, 2, BlobsOptions{ClustersPerClass: -1}, "-1 clusters per class"},
		{10, 5, 2, BlobsOptions{ClustersPerClass: 2, Noise: -1}, "noise -1"},
		{10, 5, 2, BlobsOptions{ClustersPerClass: 2, Noise: math.NaN()}, "noise NaN"},
		{1 << 40, 1 << 40, 2, DefaultBlobsOptions, "too large"},
	} {
		_, err := BlobsWith(tc.n, tc.p, tc.classes, 1, tc.opt)
		if !errors.Is(err, linalg.ErrSettings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("BlobsWith(%d, %d, %d, %+v): error %v, want %q", tc.n, tc.p, tc.classes, tc.opt, err, tc.want)
		}
	}
}

// oneNNLeaveOneOut returns the leave-one-out accuracy of the 1-nearest-
// neighbour classifier.
func oneNNLeaveOneOut(s *Set) float64 {
	n, _ := s.X.Dims()
	right := 0
	for i := range n {
		best, arg := math.Inf(1), -1
		xi := s.X.RawRowView(i)
		for j := range n {
			if j == i {
				continue
			}
			d := 0.0
			for k, v := range s.X.RawRowView(j) {
				d += (v - xi[k]) * (v - xi[k])
			}
			if d < best {
				best, arg = d, j
			}
		}
		if s.Y[arg] == s.Y[i] {
			right++
		}
	}
	return float64(right) / float64(n)
}

// leastSquaresAccuracy returns the training accuracy of the linear
// classifier (with intercept) fitted by least squares to one-hot targets:
// an optimistic estimate of what a linear classifier can do.
func leastSquaresAccuracy(t *testing.T, s *Set) float64 {
	n, p := s.X.Dims()
	c := len(s.Classes)
	a := mat.NewDense(n, p+1, nil)
	b := mat.NewDense(n, c, nil)
	for i := range n {
		copy(a.RawRowView(i), s.X.RawRowView(i))
		a.Set(i, p, 1)
		b.Set(i, s.Y[i], 1)
	}
	var w, f mat.Dense
	if err := w.Solve(a, b); err != nil {
		t.Fatal(err)
	}
	f.Mul(a, &w)
	right := 0
	for i := range n {
		row := f.RawRowView(i)
		if slices.Index(row, slices.Max(row)) == s.Y[i] {
			right++
		}
	}
	return float64(right) / float64(n)
}

func TestBlobsKNNSeparableNotLinear(t *testing.T) {
	for _, a := range [][3]int{{600, 10, 2}, {600, 10, 3}, {900, 50, 5}} {
		s, err := Blobs(a[0], a[1], a[2], 3)
		if err != nil {
			t.Fatal(err)
		}
		knn, lin := oneNNLeaveOneOut(s), leastSquaresAccuracy(t, s)
		t.Logf("n=%d p=%d classes=%d: 1-NN leave-one-out %.3f, least squares (training) %.3f", a[0], a[1], a[2], knn, lin)
		if knn < 0.97 {
			t.Errorf("1-NN accuracy %.3f, want ≥ 0.97", knn)
		}
		if lin > 0.75 || lin > knn-0.25 {
			t.Errorf("linear accuracy %.3f, want ≤ 0.75 and well below 1-NN's %.3f", lin, knn)
		}
	}
}

func BenchmarkBlobs(b *testing.B) {
	const n, p = 1_000_000, 20
	b.SetBytes(8 * n * p)
	for b.Loop() {
		if _, err := Blobs(n, p, 10, 1); err != nil {
			b.Fatal(err)
		}
	}
}
