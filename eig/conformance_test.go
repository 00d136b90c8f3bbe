package eig

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/dataset/benchdata"
	"ukm/linalg"
)

// eps is the unit round-off used to scale the thresholds (LAPACK's
// testing convention).
const eps = 1.0 / (1 << 53)

var solvers = []Solver{Reference{}, Lanczos{}, ThickRestart{}, Block{}, Chebyshev{}}

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
	normA := spectrumNorm(all)
	av := residualMatrix(a, res)
	if s := mat.Norm(av, 2) / (normA * float64(n) * eps); s > bound {
		t.Errorf("scaled residual ||AV-VΛ||/(||A|| n eps) = %.3g > %.3g", s, bound)
	}
	checkResiduals(t, av, res, normA)
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

// spectrumNorm returns ||A|| = max |lambda| from the ascending spectrum, or 1
// for the zero matrix.
func spectrumNorm(all []float64) float64 {
	if v := math.Max(math.Abs(all[0]), math.Abs(all[len(all)-1])); v > 0 {
		return v
	}
	return 1
}

// residualMatrix returns A V − V Λ for the pairs of res.
func residualMatrix(a *mat.SymDense, res *Result) *mat.Dense {
	var av mat.Dense
	av.Mul(a, res.Vectors)
	r, c := av.Dims()
	for j := 0; j < c; j++ {
		for i := 0; i < r; i++ {
			av.Set(i, j, av.At(i, j)-res.Values[j]*res.Vectors.At(i, j))
		}
	}
	return &av
}

// checkResiduals requires the residuals res reports to be the true ones,
// the column norms of av = A V − V Λ, to round-off.
func checkResiduals(t *testing.T, av *mat.Dense, res *Result, normA float64) {
	t.Helper()
	n, c := av.Dims()
	if len(res.Residuals) != c {
		t.Fatalf("%d residuals for %d pairs", len(res.Residuals), c)
	}
	for j := 0; j < c; j++ {
		tr := mat.Norm(av.ColView(j), 2)
		if math.Abs(tr-res.Residuals[j]) > 1e3*float64(n)*eps*normA {
			t.Errorf("pair %d: reported residual %.3g, true %.3g", j, res.Residuals[j], tr)
		}
	}
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

// TestConformance runs every solver on the RBF kernels of random points
// and of the data sets, whose spectra are not known in closed form (the
// known-spectrum cases are package eigtest's, run by eigtest_test.go): the
// pairs are checked against the dense reference.
func TestConformance(t *testing.T) {
	ctx := context.Background()
	type conformCase struct {
		name string
		a    *mat.SymDense
		d    int
	}
	cases := []conformCase{{name: "gauss-rbf/n=300/d=20", a: rbfKernel(gaussPoints(300, 10, 8)), d: 20}}
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
	for _, tc := range cases {
		op, err := NewDense(tc.a)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range solvers {
			{
				const which = Largest // the smallest of a kernel are a cluster at round-off
				t.Run(tc.name+"/solver="+s.Name(), func(t *testing.T) {
					res, err := s.Solve(ctx, op, tc.d, &Settings{Which: which, Seed: 42})
					if err != nil {
						t.Fatalf("Solve: %v (status %v)", err, res.Status)
					}
					if res.Status != linalg.Converged || res.Converged != tc.d {
						t.Fatalf("status %v, converged %d of %d", res.Status, res.Converged, tc.d)
					}
					// LAPACK's bound 60 for the scaled residual, which the
					// refinement of the Krylov methods meets.
					checkPairs(t, tc.a, res, tc.d, which, 60)
					if _, ok := s.(Reference); !ok && res.Iterations == 0 {
						t.Errorf("%s fell back to the dense method", s.Name())
					}
				})
			}
		}
	}
}
