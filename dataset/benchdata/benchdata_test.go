package benchdata

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/dataset/datatest"
	"ukm/linalg"
	"ukm/qp"
)

// weightedSum is a checksum of a matrix that is sensitive to the position of
// every entry: Σ K_ij·((31i + 17j) mod 101), and the plain sum.
func weightedSum(k mat.Matrix) (ws, sum float64) {
	r, c := k.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			ws += k.At(i, j) * float64((i*31+j*17)%101)
			sum += k.At(i, j)
		}
	}
	return ws, sum
}

// TestRBFMatchesEigBenchmark pins the n = 500 and n = 1000 inputs of
// BenchmarkTopD. The expected bits were printed by the eig package's builder
// of the time (its test helpers gaussPoints and rbfKernel, which this package
// replaced) and must be reproduced exactly: any change of seed, stream, draw
// order or summation order changes them.
func TestRBFMatchesEigBenchmark(t *testing.T) {
	x, err := RBFPoints(500, RBFDim, RBFSeed)
	if err != nil {
		t.Fatal(err)
	}
	k, _, err := RBFKernel(x)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		got  float64
		want uint64
	}{
		{"x[0,0]", x.At(0, 0), 0x3fd906151afe5c08},
		{"x[499,9]", x.At(499, 9), 0xbfd1a1c38bca957c},
		{"K[0,1]", k.At(0, 1), 0x3fe315cee1636512},
		{"K[498,499]", k.At(498, 499), 0x3fc31c04816a5613},
	} {
		if math.Float64bits(c.got) != c.want {
			t.Errorf("%s = %v (bits %016x), want bits %016x", c.name, c.got, math.Float64bits(c.got), c.want)
		}
	}
	// Checksums printed with %.17g by the eig builder; the summation order is
	// the same here, so they must agree to the last bit.
	ws, sum := weightedSum(k)
	if ws != 4751219.9907452036 || sum != 95037.198626021709 {
		t.Errorf("checksums %.17g, %.17g; want 4751219.9907452036, 95037.198626021709", ws, sum)
	}
	if testing.Short() {
		return
	}
	// n = 1000: γ bits and checksums printed the same way
	x, err = RBFPoints(1000, RBFDim, RBFSeed)
	if err != nil {
		t.Fatal(err)
	}
	k, gamma, err := RBFKernel(x)
	if err != nil {
		t.Fatal(err)
	}
	ws, sum = weightedSum(k)
	if math.Float64bits(gamma) != 0x3fab82db8bc36260 || ws != 18976852.625011373 || sum != 379600.4514067329 {
		t.Errorf("n=1000: gamma bits %016x, checksums %.17g, %.17g", math.Float64bits(gamma), ws, sum)
	}
}

// TestRBFKernelIndependent recomputes the kernel through an independent path:
// distances by floats.Distance, the median by sorting a fresh copy, and the
// kernel by linalg.Gram (tiled, ‖x‖² + ‖z‖² − 2xᵀz form), so agreement is to
// rounding, not bitwise.
func TestRBFKernelIndependent(t *testing.T) {
	for _, n := range []int{1, 2, 3, 60, 500} {
		x, err := RBFPoints(n, RBFDim, RBFSeed)
		if err != nil {
			t.Fatal(err)
		}
		k, gamma, err := RBFKernel(x)
		if err != nil {
			t.Fatal(err)
		}
		var d2 []float64
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				d := floats.Distance(x.RawRowView(i), x.RawRowView(j), 2)
				d2 = append(d2, d*d)
			}
		}
		slices.Sort(d2)
		want := 1.0
		if len(d2) > 0 {
			want = 1 / d2[len(d2)/2]
		}
		// sqrt then square loses a few ulps: 1e-13 relative is ~500 ulps of slack
		if math.Abs(gamma-want) > 1e-13*want {
			t.Errorf("n=%d: gamma %v, independent %v", n, gamma, want)
		}
		ref, err := linalg.Gram(context.Background(), linalg.RBF{Gamma: gamma}, x)
		if err != nil {
			t.Fatal(err)
		}
		// Entries are in (0, 1]; the expanded-square distance formula of the
		// reference loses about ε·‖x‖² ≈ 1e-14 absolute in d², so 1e-12 is
		// generous yet far below any real difference.
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if d := math.Abs(k.At(i, j) - ref.At(i, j)); d > 1e-12 {
					t.Fatalf("n=%d: K[%d,%d] = %v, linalg.Gram %v", n, i, j, k.At(i, j), ref.At(i, j))
				}
			}
		}
	}
}

func TestArgumentErrors(t *testing.T) {
	nan := mat.NewDense(2, 2, []float64{0, 1, math.NaN(), 2})
	twoClass := &dataset.Set{X: mat.NewDense(4, 1, []float64{0, 1, 2, 3}), Y: []int{0, 1, 0, 1}, Classes: []string{"a", "b"}}
	oneClass := &dataset.Set{X: mat.NewDense(3, 1, []float64{0, 1, 2}), Y: []int{0, 0, 0}, Classes: []string{"a", "b"}}
	for _, c := range []struct {
		name string
		err  error
	}{
		{"points n=0", func() error { _, err := RBFPoints(0, 3, 1); return err }()},
		{"points p=0", func() error { _, err := RBFPoints(3, 0, 1); return err }()},
		{"kernel nil", func() error { _, _, err := RBFKernel(nil); return err }()},
		{"kernel NaN", func() error { _, _, err := RBFKernel(nan); return err }()},
		{"spectrum nil", func() error { _, err := NewSpectrum(nil, 2, 1); return err }()},
		{"spectrum l too large", func() error { _, err := NewSpectrum(twoClass, 5, 1); return err }()},
		{"spectrum one class", func() error { _, err := NewSpectrum(oneClass, 2, 1); return err }()},
		{"spectrum 3 classes", func() error {
			s := *twoClass
			s.Classes = []string{"a", "b", "c"}
			_, err := NewSpectrum(&s, 2, 1)
			return err
		}()},
	} {
		if !errors.Is(c.err, ErrArgument) {
			t.Errorf("%s: error %v, want ErrArgument", c.name, c.err)
		}
	}
	sp, err := NewSpectrum(twoClass, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{0, 5} {
		if _, err := sp.LabeledVectors(d); !errors.Is(err, ErrArgument) {
			t.Errorf("LabeledVectors(d=%d): error %v, want ErrArgument", d, err)
		}
	}
}

// loadIonosphere builds the BenchmarkSKL spectrum, skipping when the data
// set is absent unless CI is set.
func loadIonosphere(t *testing.T) *Spectrum {
	t.Helper()
	datatest.Load(t, "ionosphere")
	sp, err := Ionosphere(SKLLabeled, SKLSeed)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestIonosphereSpectrum checks the construction independently: the pairs
// solve K v = λ v for a kernel rebuilt through linalg.Gram, the labeled rows
// are distinct and cover both classes, and the targets are the ±1 labels.
func TestIonosphereSpectrum(t *testing.T) {
	sp := loadIonosphere(t)
	set := datatest.Load(t, "ionosphere")
	n, _ := set.X.Dims()
	if len(sp.Values) != n || len(sp.Labeled) != SKLLabeled {
		t.Fatalf("got %d values and %d labeled rows", len(sp.Values), len(sp.Labeled))
	}
	if !slices.IsSortedFunc(sp.Values, func(a, b float64) int { return -cmpFloat(a, b) }) {
		t.Error("eigenvalues are not decreasing")
	}
	k, err := linalg.Gram(context.Background(), linalg.RBF{Gamma: sp.Gamma}, zscoreFloats(set.X))
	if err != nil {
		t.Fatal(err)
	}
	var kv mat.Dense
	kv.Mul(k, sp.Vectors.Slice(0, n, 0, 200))
	// LAPACK-style residual bound: ‖Kv − λv‖ ≤ 60·n·ε·‖K‖ per pair, plus the
	// 1e-12 absolute difference of the two kernel constructions times √n.
	tol := 60*float64(n)*2.2e-16*sp.Values[0] + 1e-12*math.Sqrt(float64(n))
	for j := 0; j < 200; j++ {
		r := 0.0
		for i := 0; i < n; i++ {
			d := kv.At(i, j) - sp.Values[j]*sp.Vectors.At(i, j)
			r += d * d
		}
		if math.Sqrt(r) > tol {
			t.Errorf("pair %d: residual %.3g > %.3g", j, math.Sqrt(r), tol)
		}
	}
	seen := map[int]bool{}
	var pos, neg int
	for r, i := range sp.Labeled {
		if seen[i] || i < 0 || i >= n {
			t.Fatalf("labeled row %d repeated or out of range", i)
		}
		seen[i] = true
		if want := float64(2*set.Y[i] - 1); sp.Y.At(r, 0) != want {
			t.Errorf("target of row %d = %v, want %v", i, sp.Y.At(r, 0), want)
		}
		if set.Y[i] == 1 {
			pos++
		} else {
			neg++
		}
	}
	if pos == 0 || neg == 0 {
		t.Errorf("labeled set has %d positives and %d negatives", pos, neg)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// zscoreFloats is an independent z-scoring through gonum/floats column
// operations on a copy (population standard deviation, constant columns 0).
func zscoreFloats(x *mat.Dense) *mat.Dense {
	z := mat.DenseCopyOf(x)
	n, p := z.Dims()
	for j := 0; j < p; j++ {
		col := mat.Col(nil, j, z)
		m := floats.Sum(col) / float64(n)
		floats.AddConst(-m, col)
		sd := floats.Norm(col, 2) / math.Sqrt(float64(n))
		if sd > 0 {
			floats.Scale(1/sd, col)
		} else {
			floats.Scale(0, col)
		}
		z.SetCol(j, col)
	}
	return z
}

// TestZScore compares ZScore with the floats-based path on points with a
// constant column and a shifted, scaled column.
func TestZScore(t *testing.T) {
	x, err := RBFPoints(50, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		x.Set(i, 0, 7)                  // constant: must become 0
		x.Set(i, 2, 1e3+1e2*x.At(i, 2)) // large offset and scale
	}
	got, want := ZScore(x), zscoreFloats(x)
	// unit-scale outputs; the two paths round differently (norm vs sum of
	// squares, scale by 1/sd vs divide): 1e-12 absolute is thousands of ulps
	if !mat.EqualApprox(got, want, 1e-12) {
		t.Errorf("ZScore differs from the floats-based reference:\n%v\n%v", mat.Formatted(got), mat.Formatted(want))
	}
	for i := 0; i < 50; i++ {
		if got.At(i, 0) != 0 {
			t.Fatalf("constant column row %d = %v, want 0", i, got.At(i, 0))
		}
	}
}

// TestSpectrumMatchesQPBenchmark pins the ionosphere spectrum of BenchmarkSKL
// without going through package qp: the labeled rows, the bits of γ and
// checksums of the eigenvalues, printed by the qp benchmark's builder of the
// time (its test helper loadIono, which this package replaced). The plain sum
// is the trace of a kernel with unit diagonal, 351 up to rounding.
func TestSpectrumMatchesQPBenchmark(t *testing.T) {
	sp := loadIonosphere(t)
	wantLabeled := []int{202, 20, 5, 96, 90, 47, 323, 195, 98, 130, 260, 14, 290, 228, 101, 86, 140, 100, 58, 120}
	if !slices.Equal(sp.Labeled, wantLabeled) {
		t.Errorf("labeled rows %v, want %v", sp.Labeled, wantLabeled)
	}
	if math.Float64bits(sp.Gamma) != 0x3f90d731b723ced5 {
		t.Errorf("gamma bits %016x, want 3f90d731b723ced5", math.Float64bits(sp.Gamma))
	}
	ws, sum := weightedSum(mat.NewVecDense(len(sp.Values), sp.Values))
	if ws != 8888.1241643492249 || sum != 350.99999999999937 {
		t.Errorf("eigenvalue checksums %.17g, %.17g; want 8888.1241643492249, 350.99999999999937", ws, sum)
	}
	vl, err := sp.LabeledVectors(200)
	if err != nil {
		t.Fatal(err)
	}
	for r, i := range sp.Labeled {
		for j := 0; j < 200; j++ {
			if vl.At(r, j) != sp.Vectors.At(i, j) {
				t.Fatalf("LabeledVectors[%d,%d] = %v, want Vectors[%d,%d] = %v", r, j, vl.At(r, j), i, j, sp.Vectors.At(i, j))
			}
		}
	}
}

// TestSKLMatchesQPBenchmark pins the instances of BenchmarkSKL. The expected
// values were printed by the qp package's benchmark builder of the time (its
// test helpers loadIono and ionoEigen.skl, which this package replaced): the
// bits of H[0,0] and a[0], and position-weighted checksums
// of H and a, which agree to the last bit because the construction and
// summation order are the same. H and a are squares of inner products, so
// they do not depend on the signs LAPACK gives the eigenvectors.
func TestSKLMatchesQPBenchmark(t *testing.T) {
	sp := loadIonosphere(t)
	for _, c := range []struct {
		d             int
		wsH, sumH, wa float64
	}{
		{10, 2.0724907924157256, 0.040105995651580399, 3.4738576813440472},
		{20, 13.536966455629345, 0.23762912808972339, 14.877634549215655},
		{50, 51.823478534680532, 1.0043990829296134, 73.821196997745602},
		{100, 228.89838986082728, 4.6732300396025899, 313.87089056666105},
		{200, 474.70040642389239, 9.6018115688592633, 1196.8317541754168},
	} {
		v, err := sp.LabeledVectors(c.d)
		if err != nil {
			t.Fatal(err)
		}
		s, err := qp.NewSKL(v, sp.Y, SKLC)
		if err != nil {
			t.Fatal(err)
		}
		h, a := s.H(), s.A()
		if math.Float64bits(h.At(0, 0)) != 0x3f70318a36aa95be || math.Float64bits(a[0]) != 0x3fc1f1c244fe9de8 {
			t.Errorf("d=%d: H[0,0] bits %016x, a[0] bits %016x", c.d, math.Float64bits(h.At(0, 0)), math.Float64bits(a[0]))
		}
		ws, sum := weightedSum(h)
		wa := 0.0
		for i, v := range a {
			wa += v * float64(i+1)
		}
		if ws != c.wsH || sum != c.sumH || wa != c.wa {
			t.Errorf("d=%d: checksums %.17g %.17g %.17g, want %.17g %.17g %.17g", c.d, ws, sum, wa, c.wsH, c.sumH, c.wa)
		}
	}
}
