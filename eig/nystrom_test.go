package eig

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// nystromData returns n points in p dimensions drawn from a few Gaussian
// blobs, so that the RBF kernel has a decaying spectrum with clear gaps.
func nystromData(n, p int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		c := float64(i % 4)
		for j := 0; j < p; j++ {
			x.Set(i, j, rng.NormFloat64()+3*c*float64((j+i%4)%2))
		}
	}
	return x
}

// exactTop returns the k largest eigenpairs of the formed kernel matrix from
// the dense reference solver.
func exactTop(t testing.TB, kern linalg.Kernel, x *mat.Dense, k int) *Result {
	t.Helper()
	g, err := linalg.Gram(context.Background(), kern, x)
	if err != nil {
		t.Fatal(err)
	}
	op, err := NewDense(g)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Reference{}.Solve(context.Background(), op, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// signedDiff returns max_i |a_i - s b_i| for the sign s that aligns b with a.
func signedDiff(a, b mat.Vector) float64 {
	s := 1.0
	if mat.Dot(a, b) < 0 {
		s = -1
	}
	var d float64
	for i := 0; i < a.Len(); i++ {
		d = math.Max(d, math.Abs(a.AtVec(i)-s*b.AtVec(i)))
	}
	return d
}

// TestNystromExactWithAllLandmarks checks that m = n reproduces the dense
// reference eigenpairs (up to sign), with and without the cache of C, and
// for the plain extension.
func TestNystromExactWithAllLandmarks(t *testing.T) {
	eps := 0x1p-52
	cases := []struct {
		name string
		kern linalg.Kernel
		n, p int
		k    int
		set  NystromSettings
	}{
		{"rbf/k=1", linalg.RBF{Gamma: 0.1}, 60, 3, 1, NystromSettings{}},
		{"rbf/k=6", linalg.RBF{Gamma: 0.1}, 80, 3, 6, NystromSettings{}},
		{"rbf/nocache", linalg.RBF{Gamma: 0.1}, 80, 3, 6, NystromSettings{MaxCache: -1}},
		{"rbf/extension", linalg.RBF{Gamma: 0.1}, 80, 3, 6, NystromSettings{Extension: true}},
		{"linear/rank10", linalg.Linear{}, 50, 10, 4, NystromSettings{}},
		{"n=1", linalg.RBF{Gamma: 1}, 1, 2, 1, NystromSettings{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			x := nystromData(tc.n, tc.p, 7)
			ref := exactTop(t, tc.kern, x, tc.k)
			got, err := Nystrom(context.Background(), tc.kern, x, tc.n, tc.k, &tc.set)
			if err != nil {
				t.Fatal(err)
			}
			norm := ref.Values[0]
			for j := 0; j < tc.k; j++ {
				// Eigenvalues: the m x m problem goes through CᵀC, whose
				// rounding (eps ||K||² n) divided by ||K|| gives n eps ||K||;
				// 100 n eps leaves a factor 100 of headroom.
				if d := math.Abs(got.Values[j] - ref.Values[j]); d > 100*float64(tc.n)*eps*norm {
					t.Errorf("value %d: got %v, want %v (diff %.3g)", j, got.Values[j], ref.Values[j], d)
				}
				// Eigenvectors: error ~ perturbation / gap. The smallest
				// relative gap of these spectra is about 1e-2, so 1e-8 is
				// loose for round-off yet far below any real mismatch.
				if d := signedDiff(got.Vectors.ColView(j), ref.Vectors.ColView(j)); d > 1e-8 {
					t.Errorf("vector %d differs by %.3g", j, d)
				}
			}
			if got.Rank < tc.k || len(got.Landmarks) != tc.n {
				t.Errorf("rank %d, %d landmarks", got.Rank, len(got.Landmarks))
			}
		})
	}
}

// TestNystromNormalized checks Normalized with m = n against the dense
// reference on D^-1/2 K D^-1/2, D = diag(K 1).
func TestNystromNormalized(t *testing.T) {
	for _, tc := range []struct {
		name  string
		gamma float64
		set   NystromSettings
	}{
		// gamma 0.05 on these blobs: one connected cluster structure
		// (the top values 1, 0.95, 0.69, 0.43, 0.12, 0.098 are separated)
		// and no direction of W is cut, so C W^+ Cᵀ = K to rounding.
		{"cached", 0.05, NystromSettings{Normalized: true}},
		{"nocache", 0.05, NystromSettings{Normalized: true, MaxCache: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const n, k = 70, 5
			x := nystromData(n, 3, 8)
			kern := linalg.RBF{Gamma: tc.gamma}
			g, err := linalg.Gram(context.Background(), kern, x)
			if err != nil {
				t.Fatal(err)
			}
			d := make([]float64, n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					d[i] += g.At(i, j)
				}
			}
			s := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					s.SetSym(i, j, g.At(i, j)/math.Sqrt(d[i]*d[j]))
				}
			}
			op, err := NewDense(s)
			if err != nil {
				t.Fatal(err)
			}
			ref, err := Reference{}.Solve(context.Background(), op, k, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Nystrom(context.Background(), kern, x, n, k, &tc.set)
			if err != nil {
				t.Fatal(err)
			}
			if got.Rank != n {
				t.Fatalf("rank %d: the test needs a well-conditioned W", got.Rank)
			}
			for i := 0; i < n; i++ {
				// degrees are sums of n entries of size <= 1: 1e-10 relative
				if math.Abs(got.Degrees[i]-d[i]) > 1e-10*d[i] {
					t.Errorf("degree %d: %v, want %v", i, got.Degrees[i], d[i])
				}
			}
			var worstV, worstU float64
			for j := 0; j < k; j++ {
				worstV = math.Max(worstV, math.Abs(got.Values[j]-ref.Values[j]))
				worstU = math.Max(worstU, signedDiff(got.Vectors.ColView(j), ref.Vectors.ColView(j)))
			}
			t.Logf("largest differences: values %.2g, vectors %.2g", worstV, worstU)
			for j := 0; j < k; j++ {
				// The top eigenvalue of S is 1. We measured differences
				// of 2e-15 (values) and 3e-15 (vectors); W is inverted in
				// the process, so rounding grows with its condition
				// number: 1e-12 and 1e-10 leave room for other data.
				if math.Abs(got.Values[j]-ref.Values[j]) > 1e-12 {
					t.Errorf("value %d: %v, want %v", j, got.Values[j], ref.Values[j])
				}
				if dv := signedDiff(got.Vectors.ColView(j), ref.Vectors.ColView(j)); dv > 1e-10 {
					t.Errorf("vector %d differs by %.3g", j, dv)
				}
			}
			if math.Abs(got.Values[0]-1) > 1e-12 {
				t.Errorf("top value %v, want 1 (the normalised kernel's)", got.Values[0])
			}
		})
	}
}

// TestNystromOrthonormal checks ||I - VᵀV|| against the LAPACK-style scaled
// threshold for the orthonormalised vectors with m < n.
func TestNystromOrthonormal(t *testing.T) {
	x := nystromData(500, 5, 3)
	for _, m := range []int{20, 100, 500} {
		r, err := Nystrom(context.Background(), linalg.RBF{Gamma: 0.05}, x, m, 10, &NystromSettings{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		var g mat.Dense
		g.Mul(r.Vectors.T(), r.Vectors)
		var worst float64
		for i := 0; i < 10; i++ {
			for j := 0; j < 10; j++ {
				want := 0.0
				if i == j {
					want = 1
				}
				worst = math.Max(worst, math.Abs(g.At(i, j)-want))
			}
		}
		// The vectors are G Q sigma^-1/2 with GᵀG formed explicitly, so
		// orthogonality is lost in proportion to cond(GᵀG restricted to
		// the top 10) times eps: measured below 1e-12 here; 1e-9 is the
		// threshold of a real loss.
		if worst > 1e-9 {
			t.Errorf("m=%d: ||I - VᵀV||max = %.3g", m, worst)
		}
		for j := 1; j < 10; j++ {
			if r.Values[j] > r.Values[j-1] {
				t.Errorf("m=%d: values not descending: %v", m, r.Values)
			}
		}
	}
}

// TestNystromApproximation reports the error of the approximate top-k
// eigenpairs against the dense reference for growing m and bounds it loosely.
func TestNystromApproximation(t *testing.T) {
	const n, k = 800, 5
	x := nystromData(n, 4, 11)
	kern := linalg.RBF{Gamma: 0.05}
	ref := exactTop(t, kern, x, k)
	cases := []struct {
		m        int
		maxValue float64 // relative eigenvalue error bound
		maxSin   float64 // sine of the largest principal angle
	}{
		// Loose bounds, about 10x the errors measured for this data (a
		// uniform sample this size captures the blobs well); they catch a
		// broken method, not the sampling noise.
		{50, 0.15, 0.9},
		{100, 0.015, 0.06},
		{200, 0.002, 0.008},
		{400, 6e-5, 5e-4},
	}
	for _, tc := range cases {
		r, err := Nystrom(context.Background(), kern, x, tc.m, k, &NystromSettings{Seed: 5})
		if err != nil {
			t.Fatal(err)
		}
		var relVal float64
		for j := 0; j < k; j++ {
			relVal = math.Max(relVal, math.Abs(r.Values[j]-ref.Values[j])/ref.Values[j])
		}
		s := sinTheta(ref.Vectors, r.Vectors)
		t.Logf("n=%d m=%d k=%d: max relative eigenvalue error %.2e, sin(largest principal angle) %.2e", n, tc.m, k, relVal, s)
		if relVal > tc.maxValue || s > tc.maxSin {
			t.Errorf("m=%d: errors %.3g / %.3g above bounds %g / %g", tc.m, relVal, s, tc.maxValue, tc.maxSin)
		}
	}
}

// sinTheta returns the sine of the largest principal angle between the
// column spaces of two n x k matrices with orthonormal columns:
// sqrt(1 - smallest singular value of AᵀB squared).
func sinTheta(a, b *mat.Dense) float64 {
	var p mat.Dense
	p.Mul(a.T(), b)
	var svd mat.SVD
	if !svd.Factorize(&p, mat.SVDNone) {
		return math.NaN()
	}
	v := svd.Values(nil)
	smin := v[len(v)-1]
	return math.Sqrt(math.Max(0, 1-smin*smin))
}

// TestNystromDeterministic checks that the seed alone fixes the result.
func TestNystromDeterministic(t *testing.T) {
	x := nystromData(300, 3, 2)
	kern := linalg.RBF{Gamma: 0.2}
	a, err := Nystrom(context.Background(), kern, x, 40, 4, &NystromSettings{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Nystrom(context.Background(), kern, x, 40, 4, &NystromSettings{Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Nystrom(context.Background(), kern, x, 40, 4, &NystromSettings{Seed: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.Vectors, b.Vectors) || fmt.Sprint(a.Landmarks) != fmt.Sprint(b.Landmarks) {
		t.Error("equal seeds gave different results")
	}
	if fmt.Sprint(a.Landmarks) == fmt.Sprint(c.Landmarks) {
		t.Error("different seeds gave the same landmarks")
	}
	seen := map[int]bool{}
	for i, j := range a.Landmarks {
		if j < 0 || j >= 300 || seen[j] || (i > 0 && j <= a.Landmarks[i-1]) {
			t.Fatalf("landmarks not distinct sorted indices: %v", a.Landmarks)
		}
		seen[j] = true
	}
}

// TestNystromCacheEquivalent checks that recomputing C by blocks gives the
// cached result up to rounding, over several blocks.
func TestNystromCacheEquivalent(t *testing.T) {
	x := nystromData(2*nystromBlock+100, 3, 4)
	kern := linalg.RBF{Gamma: 0.1}
	a, err := Nystrom(context.Background(), kern, x, 60, 5, &NystromSettings{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Nystrom(context.Background(), kern, x, 60, 5, &NystromSettings{Seed: 1, MaxCache: -1})
	if err != nil {
		t.Fatal(err)
	}
	if a.KernelPasses != 1 || b.KernelPasses != 2 {
		t.Errorf("kernel passes %d and %d, want 1 and 2", a.KernelPasses, b.KernelPasses)
	}
	for j := 0; j < 5; j++ {
		// Blocks shift the data by different column means before the RBF
		// product; the kernel entries then differ by a few eps, 1e-9 is
		// far above that and far below a wrong block.
		if d := signedDiff(a.Vectors.ColView(j), b.Vectors.ColView(j)); d > 1e-9 {
			t.Errorf("vector %d differs by %.3g", j, d)
		}
	}
}

// TestNystromMemory checks that the n x n matrix is never built: the bytes
// allocated stay far below 8 n² for n = 4000, m = 50.
func TestNystromMemory(t *testing.T) {
	const n, m = 4000, 50
	x := nystromData(n, 3, 1)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if _, err := Nystrom(context.Background(), linalg.RBF{Gamma: 0.1}, x, m, 5, nil); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	got := after.TotalAlloc - before.TotalAlloc
	// C (n m) and the vectors (n k) and O(n) indices: about 2 MB; the n x n
	// matrix alone would be 128 MB. A tenth of that is a generous ceiling
	// that still fails if anything quadratic in n is allocated.
	if limit := uint64(8 * n * n / 10); got > limit {
		t.Errorf("allocated %d bytes, limit %d", got, limit)
	}
	t.Logf("n=%d m=%d: %d bytes allocated (n x n would be %d)", n, m, got, 8*n*n)
}

func TestNystromErrors(t *testing.T) {
	x := nystromData(20, 2, 1)
	nan := mat.DenseCopyOf(x)
	nan.Set(3, 1, math.NaN())
	inf := mat.DenseCopyOf(x)
	inf.Set(0, 0, math.Inf(-1))
	kern := linalg.RBF{Gamma: 1}
	cases := []struct {
		name string
		ctx  context.Context
		kern linalg.Kernel
		x    *mat.Dense
		m, k int
		set  *NystromSettings
		want error
	}{
		{"m>n", context.Background(), kern, x, 21, 2, nil, linalg.ErrSettings},
		{"m=0", context.Background(), kern, x, 0, 1, nil, linalg.ErrSettings},
		{"m<0", context.Background(), kern, x, -3, 1, nil, linalg.ErrSettings},
		{"k>m", context.Background(), kern, x, 5, 6, nil, linalg.ErrSettings},
		{"k=0", context.Background(), kern, x, 5, 0, nil, linalg.ErrSettings},
		{"nan", context.Background(), kern, nan, 5, 2, nil, linalg.ErrNonFinite},
		{"inf", context.Background(), kern, inf, 5, 2, nil, linalg.ErrNonFinite},
		{"nil x", context.Background(), kern, nil, 5, 2, nil, linalg.ErrEmpty},
		{"empty x", context.Background(), kern, &mat.Dense{}, 5, 2, nil, linalg.ErrEmpty},
		{"nil kernel", context.Background(), nil, x, 5, 2, nil, linalg.ErrSettings},
		{"bad gamma", context.Background(), linalg.RBF{Gamma: -1}, x, 5, 2, nil, linalg.ErrSettings},
		{"nil ctx", nil, kern, x, 5, 2, nil, linalg.ErrSettings},
		{"rcond", context.Background(), kern, x, 5, 2, &NystromSettings{RCond: 1}, linalg.ErrSettings},
		{"rcond nan", context.Background(), kern, x, 5, 2, &NystromSettings{RCond: math.NaN()}, linalg.ErrSettings},
		{"normalized extension", context.Background(), kern, x, 5, 2, &NystromSettings{Normalized: true, Extension: true}, linalg.ErrSettings},
		// A linear kernel on 2 features has rank 2: 3 pairs do not exist.
		{"rank", context.Background(), linalg.Linear{}, x, 10, 3, nil, ErrRank},
		{"zero kernel", context.Background(), linalg.Linear{}, mat.NewDense(5, 2, nil), 3, 1, nil, ErrRank},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Nystrom(tc.ctx, tc.kern, tc.x, tc.m, tc.k, tc.set)
			if !errors.Is(err, tc.want) || !errors.Is(err, linalg.ErrInvalid) {
				t.Fatalf("error %v, want %v (and linalg.ErrInvalid)", err, tc.want)
			}
			if r != nil {
				t.Error("result returned with an error")
			}
			t.Log(err)
		})
	}
}

func TestNystromCanceled(t *testing.T) {
	x := nystromData(300, 2, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, set := range []*NystromSettings{nil, {MaxCache: -1}} {
		_, err := Nystrom(ctx, linalg.RBF{Gamma: 1}, x, 30, 2, set)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	}
}

var nystromSink *NystromResult

func BenchmarkNystrom(b *testing.B) {
	cases := []struct{ n, m, k int }{
		{1500, 150, 20},
		{1500, 300, 20},
		{20000, 200, 20},
	}
	for _, tc := range cases {
		b.Run(fmt.Sprintf("n=%d/m=%d/k=%d", tc.n, tc.m, tc.k), func(b *testing.B) {
			x := nystromData(tc.n, 10, 1)
			kern := linalg.RBF{Gamma: 0.05}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r, err := Nystrom(context.Background(), kern, x, tc.m, tc.k, nil)
				if err != nil {
					b.Fatal(err)
				}
				nystromSink = r
			}
		})
	}
}

// ExampleNystrom approximates the top eigenvalues of an RBF kernel matrix
// on 2000 points from 200 landmarks, without forming the 2000 x 2000 matrix.
func ExampleNystrom() {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(2000, 2, nil)
	for i := 0; i < 2000; i++ {
		// two well separated clusters
		x.Set(i, 0, rng.NormFloat64()+10*float64(i%2))
		x.Set(i, 1, rng.NormFloat64())
	}
	r, err := Nystrom(context.Background(), linalg.RBF{Gamma: 0.5}, x, 200, 2, &NystromSettings{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d landmarks, top values %.0f and %.0f\n", len(r.Landmarks), r.Values[0], r.Values[1])
	// Output:
	// 200 landmarks, top values 390 and 386
}
