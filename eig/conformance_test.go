package eig

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/benchdata"
	"ukm/internal/dataset"
)

// eps is the unit round-off used to scale the thresholds (LAPACK's
// testing convention).
const eps = 1.0 / (1 << 53)

var solvers = []Solver{Reference{}, Lanczos{}, ThickRestart{}, Block{}}

// randOrtho returns a random n x n orthogonal matrix (QR of a Gaussian
// matrix) from the seed.
func randOrtho(n int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(g)
	var q mat.Dense
	qr.QTo(&q)
	return &q
}

// withSpectrum returns Q diag(lambda) Qᵀ for a random orthogonal Q.
func withSpectrum(lambda []float64, seed uint64) *mat.SymDense {
	n := len(lambda)
	q := randOrtho(n, seed)
	a := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += q.At(i, k) * lambda[k] * q.At(j, k)
			}
			a.SetSym(i, j, s)
		}
	}
	return a
}

// rbfKernel returns the RBF kernel of the rows of x with γ = 1/median
// pairwise squared distance: the benchmarks' construction (benchdata.RBFKernel).
// It panics on bad input, which only a broken test would pass.
func rbfKernel(x *mat.Dense) *mat.SymDense {
	k, _, err := benchdata.RBFKernel(x)
	if err != nil {
		panic(err)
	}
	return k
}

// gaussPoints returns n seeded standard-normal points in p dimensions
// (benchdata.RBFPoints); it panics on n < 1 or p < 1.
func gaussPoints(n, p int, seed uint64) *mat.Dense {
	x, err := benchdata.RBFPoints(n, p, seed)
	if err != nil {
		panic(err)
	}
	return x
}

// referenceValues returns all eigenvalues of a, ascending.
func referenceValues(a *mat.SymDense) []float64 {
	var es mat.EigenSym
	if !es.Factorize(a, false) {
		panic("reference eigendecomposition failed")
	}
	return es.Values(nil)
}

// checkPairs verifies a result against the matrix a (dense copy): scaled
// residual, orthogonality, order, and eigenvalues against the dense
// reference. bound is the allowed value of the scaled residual
// ||A V - V Λ||_F / (||A|| n eps).
func checkPairs(t *testing.T, a *mat.SymDense, res *Result, d int, which Which, bound float64) {
	t.Helper()
	n := a.SymmetricDim()
	if len(res.Values) != d || res.Vectors == nil {
		t.Fatalf("got %d values, want %d", len(res.Values), d)
	}
	r, c := res.Vectors.Dims()
	if r != n || c != d {
		t.Fatalf("vectors are %dx%d, want %dx%d", r, c, n, d)
	}
	all := referenceValues(a)
	normA := math.Max(math.Abs(all[0]), math.Abs(all[n-1]))
	if normA == 0 {
		normA = 1
	}
	var av mat.Dense
	av.Mul(a, res.Vectors)
	for j := 0; j < d; j++ {
		for i := 0; i < n; i++ {
			av.Set(i, j, av.At(i, j)-res.Values[j]*res.Vectors.At(i, j))
		}
	}
	if s := mat.Norm(&av, 2) / (normA * float64(n) * eps); s > bound {
		t.Errorf("scaled residual ||AV-VΛ||/(||A|| n eps) = %.3g > %.3g", s, bound)
	}
	// Reported residuals must be the true ones (to round-off).
	for j := 0; j < d; j++ {
		col := mat.Col(nil, j, &av)
		tr := mat.Norm(mat.NewVecDense(n, col), 2)
		if math.Abs(tr-res.Residuals[j]) > 1e3*float64(n)*eps*normA {
			t.Errorf("pair %d: reported residual %.3g, true %.3g", j, res.Residuals[j], tr)
		}
	}
	var vtv mat.Dense
	vtv.Mul(res.Vectors.T(), res.Vectors)
	for i := 0; i < d; i++ {
		vtv.Set(i, i, vtv.At(i, i)-1)
	}
	// Orthogonality: LAPACK's ||I - VᵀV|| / (n eps) below 60.
	if s := mat.Norm(&vtv, 2) / (float64(n) * eps); s > 60 {
		t.Errorf("orthogonality ||I-VᵀV||/(n eps) = %.3g > 60", s)
	}
	for j := 0; j < d; j++ {
		want := all[n-1-j]
		if which == Smallest {
			want = all[j]
		}
		// Eigenvalue error of a Ritz value is bounded by its residual
		// (Bauer-Fike for symmetric A); allow that plus round-off.
		tolv := res.Residuals[j] + 100*float64(n)*eps*normA
		if math.Abs(res.Values[j]-want) > tolv {
			t.Errorf("value %d = %.17g, want %.17g (diff %.3g > %.3g)", j, res.Values[j], want, res.Values[j]-want, tolv)
		}
	}
}

type conformCase struct {
	name  string
	a     *mat.SymDense
	d     int
	which Which
	block int // BlockSize setting (0 = default)
}

func linspace(n int, lo, hi float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		if n == 1 {
			out[i] = lo
			continue
		}
		out[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return out
}

func conformCases(t *testing.T) []conformCase {
	geo := make([]float64, 120)
	for i := range geo {
		geo[i] = math.Pow(0.8, float64(i)) // geometric decay like a kernel spectrum
	}
	clustered := linspace(100, -1, 1)
	for i := 0; i < 6; i++ {
		clustered[99-i] = 2 + 1e-6*float64(i) // a cluster of width 5e-6 at the top
	}
	repeated := linspace(80, 0, 1)
	for i := 0; i < 5; i++ {
		repeated[79-i] = 3 // multiplicity 5, larger than the default block size 2 or 3
	}
	negative := linspace(60, -10, -1) // all negative: Largest is algebraic
	ident := make([]float64, 30)
	for i := range ident {
		ident[i] = 1
	}
	cases := []conformCase{
		{name: "geometric/n=120/d=10", a: withSpectrum(geo, 1), d: 10},
		{name: "uniform/smallest/n=120/d=5", a: withSpectrum(linspace(120, 0, 1), 2), d: 5, which: Smallest},
		{name: "clustered/n=100/d=6", a: withSpectrum(clustered, 3), d: 6},
		{name: "clustered/n=100/d=8", a: withSpectrum(clustered, 3), d: 8},
		{name: "repeated5/n=80/d=7", a: withSpectrum(repeated, 4), d: 7},
		{name: "repeated5/n=80/d=7/block=2", a: withSpectrum(repeated, 4), d: 7, block: 2},
		{name: "negative/n=60/d=4", a: withSpectrum(negative, 5), d: 4},
		{name: "negative/smallest/n=60/d=4", a: withSpectrum(negative, 5), d: 4, which: Smallest},
		{name: "identity/n=30/d=3", a: withSpectrum(ident, 6), d: 3},
		{name: "n=1/d=1", a: mat.NewSymDense(1, []float64{-2.5}), d: 1},
		{name: "n=2/d=1", a: mat.NewSymDense(2, []float64{1, 2, 2, -1}), d: 1},
		{name: "n=2/d=2", a: mat.NewSymDense(2, []float64{1, 2, 2, -1}), d: 2},
		{name: "zero/n=20/d=2", a: mat.NewSymDense(20, nil), d: 2},
		{name: "n=40/d=39", a: withSpectrum(linspace(40, 0, 1), 7), d: 39},
		{name: "n=40/d=40", a: withSpectrum(linspace(40, 0, 1), 7), d: 40, which: Smallest},
		{name: "gauss-rbf/n=300/d=20", a: rbfKernel(gaussPoints(300, 10, 8)), d: 20},
	}
	for _, name := range []string{"ionosphere", "sonar"} {
		s, err := dataset.Load(name)
		if err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal(err)
			}
			t.Logf("skipping data set %s: %v", name, err)
			continue
		}
		cases = append(cases, conformCase{name: "rbf-" + name + "/d=20", a: rbfKernel(benchdata.ZScore(s.X)), d: 20})
	}
	return cases
}

// TestConformance runs every solver on every test matrix.
func TestConformance(t *testing.T) {
	ctx := context.Background()
	for _, tc := range conformCases(t) {
		op, err := NewDense(tc.a)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range solvers {
			t.Run(tc.name+"/solver="+s.Name(), func(t *testing.T) {
				set := &Settings{Which: tc.which, BlockSize: tc.block, Seed: 42}
				res, err := s.Solve(ctx, op, tc.d, set)
				if err != nil {
					t.Fatalf("Solve: %v (status %v)", err, res.Status)
				}
				if res.Status != Success || res.Converged != tc.d {
					t.Fatalf("status %v, converged %d of %d", res.Status, res.Converged, tc.d)
				}
				// Dense reference: LAPACK's bound 60. Iterative methods stop
				// at ||r|| <= Tol ||A|| per pair, i.e. a scaled residual up to
				// sqrt(d) Tol / (n eps), but never below the round-off level
				// of the reference.
				bound := 60.0
				if _, ok := s.(Reference); !ok {
					n := float64(tc.a.SymmetricDim())
					bound = math.Max(60, 2*math.Sqrt(float64(tc.d))*acceptTol(DefaultTol, int(n))/(n*eps))
				}
				checkPairs(t, tc.a, res, tc.d, tc.which, bound)
				// From n = 60 on, every test matrix is large enough for the
				// Krylov code (no dense fallback): make sure it ran.
				if _, ok := s.(Reference); !ok && tc.a.SymmetricDim() >= 60 && tc.d < 20 && res.Iterations == 0 {
					t.Errorf("%s fell back to the dense method", s.Name())
				}
			})
		}
	}
}
