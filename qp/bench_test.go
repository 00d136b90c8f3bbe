package qp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"ukm/dataset/benchdata"
	"ukm/dataset/datatest"
	"ukm/linalg"
)

// loadIono builds the spectrum of the benchmark instance (benchdata.Ionosphere:
// z-scored features, RBF kernel with γ = 1/median pairwise squared distance,
// full eigendecomposition, SKLLabeled = 20 labeled rows drawn with SKLSeed = 1
// until both classes are present), skipping when the data set is absent
// unless CI is set.
func loadIono(tb testing.TB) *benchdata.Spectrum {
	tb.Helper()
	sp, err := benchdata.NewSpectrum(datatest.Load(tb, "ionosphere"), benchdata.SKLLabeled, benchdata.SKLSeed)
	if err != nil {
		tb.Fatal(err)
	}
	return sp
}

// ionoSKL returns the SKL instance on the top-d eigenvectors of sp restricted
// to its labeled rows, with decay factor c.
func ionoSKL(tb testing.TB, sp *benchdata.Spectrum, d int, c float64) *SKL {
	tb.Helper()
	v, err := sp.LabeledVectors(d)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := NewSKL(v, sp.Y, c)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestSKLIonosphere checks every solver on the real benchmark instances (δ = 2)
// and the δ = 1 case where the Cluster and Truncated kernels are feasible as is.
func TestSKLIonosphere(t *testing.T) {
	ie := loadIono(t)
	for _, d := range []int{10, 20, 50} {
		for _, c := range []float64{1, 2} {
			s := ionoSKL(t, ie, d, c)
			var ref Result
			for i, sv := range sklSolvers() {
				var res Result
				if err := s.Solve(context.Background(), sv.s, nil, &res); err != nil {
					if notDefinite(sv.name, err) {
						continue
					}
					t.Fatalf("d=%d decay=%v %s: %v", d, c, sv.name, err)
				}
				if res.Status != linalg.Optimal || res.KKT.Max() > kktTol {
					t.Errorf("d=%d decay=%v %s: %v KKT %+v", d, c, sv.name, res.Status, res.KKT)
				}
				if i == 0 {
					ref = res
				} else if math.Abs(res.Obj-ref.Obj) > 1e-8*ref.Obj {
					t.Errorf("d=%d decay=%v %s: obj %v, bounded %v", d, c, sv.name, res.Obj, ref.Obj)
				}
			}
			best := s.Alignment(ref.X)
			cluster := make([]float64, d)
			trunc := make([]float64, d)
			for i := range cluster {
				cluster[i] = math.Pow(c, -float64(i))
				trunc[i] = ie.Values[i] * math.Pow(c, -float64(i))
			}
			// 1e-9 relative slack for rounding in the alignment formula
			if ac, at := s.Alignment(cluster), s.Alignment(trunc); ac > best*(1+1e-9) || at > best*(1+1e-9) {
				t.Errorf("d=%d decay=%v: alignment optimum %v < cluster %v or truncated %v", d, c, best, ac, at)
			}
			t.Logf("d=%d decay=%v: alignment SKL %.4f cluster %.4f truncated %.4f (iterations %d)", d, c, best, s.Alignment(cluster), s.Alignment(trunc), ref.Iterations)
		}
	}
}

// TestSKLIonosphereLarge checks the truncated fast path on the real instances
// of BenchmarkSKL at d = 100 and 200 (δ = 2): certified on the full μ-space
// problem to 1e-10 without the ActiveSet refinement, and not worse than
// ActiveSet on Problem() (1e-12 relative slack for rounding of the objective).
func TestSKLIonosphereLarge(t *testing.T) {
	ie := loadIono(t)
	for _, d := range []int{100, 200} {
		s := ionoSKL(t, ie, d, benchdata.SKLC)
		var res, ref Result
		if err := s.Solve(context.Background(), nil, nil, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status != linalg.Optimal || res.KKT.Max() > sklKKTTol || res.PolishIterations != 0 || res.Iterations > 2 {
			t.Errorf("d=%d: %v KKT %+v iterations %d polish %d", d, res.Status, res.KKT, res.Iterations, res.PolishIterations)
		}
		if err := NewActiveSet(nil).Solve(context.Background(), s.Problem(), nil, &ref); err != nil {
			t.Fatal(err)
		}
		if ref.Status != linalg.Optimal || res.Obj > ref.Obj*(1+1e-12) {
			t.Errorf("d=%d: obj %v, ActiveSet %v (%v)", d, res.Obj, ref.Obj, ref.Status)
		}
	}
}

var sinkResult Result

// BenchmarkSKL solves the SKL QP on ionosphere (RBF kernel, 20 labeled points,
// δ = 2) with a reused workspace, cold-started each time.
func BenchmarkSKL(b *testing.B) {
	ie := loadIono(b)
	for _, solver := range []string{"bounded", "activeset", "admm", "goldfarb-idnani"} {
		for _, d := range []int{10, 20, 50, 100, 200} {
			b.Run(fmt.Sprintf("solver=%s/d=%d", solver, d), func(b *testing.B) {
				s := ionoSKL(b, ie, d, benchdata.SKLC)
				var sv Solver
				switch solver {
				case "activeset":
					sv = NewActiveSet(&Settings{SkipPSDCheck: true})
				case "admm":
					sv = NewADMM(&Settings{SkipPSDCheck: true})
				case "goldfarb-idnani":
					sv = NewGoldfarbIdnani(nil)
				}
				ctx := context.Background()
				if err := s.Solve(ctx, sv, nil, &sinkResult); err != nil {
					if errors.Is(err, linalg.ErrNotPSD) {
						// H = DᵀD is only semidefinite in general (rank <=
						// l(l+1)/2); where its Cholesky fails the dual method
						// does not apply (on ionosphere with l = 20 it succeeds)
						b.Skip(err)
					}
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := s.Solve(ctx, sv, nil, &sinkResult); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(sinkResult.Iterations), "iter")
				b.ReportMetric(sinkResult.KKT.Max(), "kkt")
			})
		}
	}
}

// BenchmarkQP solves random strictly convex problems with n/2 inequalities and
// boxes on half the variables. activeset-primal is ActiveSet without the dual
// crash.
func BenchmarkQP(b *testing.B) {
	for _, solver := range []string{"activeset", "activeset-primal", "admm", "goldfarb-idnani"} {
		for _, n := range []int{10, 50, 100, 500} {
			b.Run(fmt.Sprintf("solver=%s/n=%d", solver, n), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(uint64(n), 1))
				p := randProblem(rng, n, 0, n/2, n)
				var sv Solver = NewActiveSet(&Settings{SkipPSDCheck: true})
				switch solver {
				case "admm":
					sv = NewADMM(&Settings{SkipPSDCheck: true})
				case "activeset-primal":
					sv = &ActiveSet{Settings: Settings{SkipPSDCheck: true}, NoDualCrash: true}
				case "goldfarb-idnani":
					sv = NewGoldfarbIdnani(nil)
				}
				ctx := context.Background()
				if err := sv.Solve(ctx, p, nil, &sinkResult); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := sv.Solve(ctx, p, nil, &sinkResult); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(sinkResult.Iterations), "iter")
				b.ReportMetric(sinkResult.KKT.Max(), "kkt")
			})
		}
	}
}
