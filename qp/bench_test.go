package qp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/dataset"
)

// ionoEigen holds the spectrum of the RBF kernel of the z-scored ionosphere data.
type ionoEigen struct {
	vecs    *mat.Dense // n×n, columns in decreasing eigenvalue order
	vals    []float64  // decreasing
	labeled []int
	y       *mat.Dense // labeled targets ±1
}

// loadIono builds the benchmark instance: features z-scored (constant columns
// left at 0), RBF kernel with γ = 1/median pairwise squared distance, full
// eigendecomposition, and 20 labeled rows drawn with seed 1 (redrawn until both
// classes are present).
func loadIono(tb testing.TB) *ionoEigen {
	set, err := dataset.Load("ionosphere")
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatal(err)
		}
		tb.Skip("ionosphere not available:", err)
	}
	n, p := set.X.Dims()
	x := mat.DenseCopyOf(set.X)
	for j := 0; j < p; j++ {
		mean, sq := 0.0, 0.0
		for i := 0; i < n; i++ {
			mean += x.At(i, j)
		}
		mean /= float64(n)
		for i := 0; i < n; i++ {
			d := x.At(i, j) - mean
			sq += d * d
		}
		sd := math.Sqrt(sq / float64(n))
		for i := 0; i < n; i++ {
			v := 0.0
			if sd > 0 {
				v = (x.At(i, j) - mean) / sd
			}
			x.Set(i, j, v)
		}
	}
	d2 := mat.NewSymDense(n, nil)
	var all []float64
	for i := 0; i < n; i++ {
		for k := i + 1; k < n; k++ {
			s := 0.0
			for j := 0; j < p; j++ {
				d := x.At(i, j) - x.At(k, j)
				s += d * d
			}
			d2.SetSym(i, k, s)
			all = append(all, s)
		}
	}
	slices.Sort(all)
	gamma := 1 / all[len(all)/2]
	k := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			k.SetSym(i, j, math.Exp(-gamma*d2.At(i, j)))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(k, true) {
		tb.Fatal("eigendecomposition failed")
	}
	var ev mat.Dense
	es.VectorsTo(&ev)
	asc := es.Values(nil)
	ie := &ionoEigen{vecs: mat.NewDense(n, n, nil), vals: make([]float64, n)}
	for j := 0; j < n; j++ {
		ie.vals[j] = asc[n-1-j]
		for i := 0; i < n; i++ {
			ie.vecs.Set(i, j, ev.At(i, n-1-j))
		}
	}
	rng := rand.New(rand.NewPCG(1, 0))
	for {
		ie.labeled = rng.Perm(n)[:20]
		c0 := 0
		for _, i := range ie.labeled {
			if set.Y[i] == 0 {
				c0++
			}
		}
		if c0 > 0 && c0 < 20 {
			break
		}
	}
	ie.y = mat.NewDense(20, 1, nil)
	for r, i := range ie.labeled {
		ie.y.Set(r, 0, float64(2*set.Y[i]-1))
	}
	return ie
}

func (ie *ionoEigen) skl(tb testing.TB, d int, c float64) *SKL {
	vl := mat.NewDense(len(ie.labeled), d, nil)
	for r, i := range ie.labeled {
		for j := 0; j < d; j++ {
			vl.Set(r, j, ie.vecs.At(i, j))
		}
	}
	s, err := NewSKL(vl, ie.y, c)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestSKLIonosphere checks every solver on the real benchmark instances (C = 2)
// and the C = 1 case where the Cluster and Truncated kernels are feasible as is.
func TestSKLIonosphere(t *testing.T) {
	ie := loadIono(t)
	for _, d := range []int{10, 20, 50} {
		for _, c := range []float64{1, 2} {
			s := ie.skl(t, d, c)
			var ref Result
			for i, sv := range sklSolvers() {
				var res Result
				if err := s.Solve(context.Background(), sv.s, nil, &res); err != nil {
					if notDefinite(sv.name, err) {
						continue
					}
					t.Fatalf("d=%d C=%v %s: %v", d, c, sv.name, err)
				}
				if res.Status != Optimal || res.KKT.Max() > kktTol {
					t.Errorf("d=%d C=%v %s: %v KKT %+v", d, c, sv.name, res.Status, res.KKT)
				}
				if i == 0 {
					ref = res
				} else if math.Abs(res.Obj-ref.Obj) > 1e-8*ref.Obj {
					t.Errorf("d=%d C=%v %s: obj %v, bounded %v", d, c, sv.name, res.Obj, ref.Obj)
				}
			}
			best := s.Alignment(ref.X)
			cluster := make([]float64, d)
			trunc := make([]float64, d)
			for i := range cluster {
				cluster[i] = math.Pow(c, -float64(i))
				trunc[i] = ie.vals[i] * math.Pow(c, -float64(i))
			}
			// 1e-9 relative slack for rounding in the alignment formula
			if ac, at := s.Alignment(cluster), s.Alignment(trunc); ac > best*(1+1e-9) || at > best*(1+1e-9) {
				t.Errorf("d=%d C=%v: alignment optimum %v < cluster %v or truncated %v", d, c, best, ac, at)
			}
			t.Logf("d=%d C=%v: alignment SKL %.4f cluster %.4f truncated %.4f (iterations %d)", d, c, best, s.Alignment(cluster), s.Alignment(trunc), ref.Iter)
		}
	}
}

// TestSKLIonosphereLarge checks the truncated fast path on the real instances
// of BenchmarkSKL at d = 100 and 200 (C = 2): certified on the full μ-space
// problem to 1e-10 without the ActiveSet refinement, and not worse than
// ActiveSet on Problem() (1e-12 relative slack for rounding of the objective).
func TestSKLIonosphereLarge(t *testing.T) {
	ie := loadIono(t)
	for _, d := range []int{100, 200} {
		s := ie.skl(t, d, 2)
		var res, ref Result
		if err := s.Solve(context.Background(), nil, nil, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status != Optimal || res.KKT.Max() > sklKKTTol || res.Polish != 0 || res.Iter > 2 {
			t.Errorf("d=%d: %v KKT %+v iterations %d polish %d", d, res.Status, res.KKT, res.Iter, res.Polish)
		}
		if err := NewActiveSet(nil).Solve(context.Background(), s.Problem(), nil, &ref); err != nil {
			t.Fatal(err)
		}
		if ref.Status != Optimal || res.Obj > ref.Obj*(1+1e-12) {
			t.Errorf("d=%d: obj %v, ActiveSet %v (%v)", d, res.Obj, ref.Obj, ref.Status)
		}
	}
}

var sinkResult Result

// BenchmarkSKL solves the SKL QP on ionosphere (RBF kernel, 20 labeled points,
// C = 2) with a reused workspace, cold-started each time.
func BenchmarkSKL(b *testing.B) {
	ie := loadIono(b)
	for _, solver := range []string{"bounded", "activeset", "admm", "goldfarb-idnani"} {
		for _, d := range []int{10, 20, 50, 100, 200} {
			b.Run(fmt.Sprintf("solver=%s/d=%d", solver, d), func(b *testing.B) {
				s := ie.skl(b, d, 2)
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
					if errors.Is(err, ErrNotConvex) {
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
				b.ReportMetric(float64(sinkResult.Iter), "iter")
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
				b.ReportMetric(float64(sinkResult.Iter), "iter")
				b.ReportMetric(sinkResult.KKT.Max(), "kkt")
			})
		}
	}
}
