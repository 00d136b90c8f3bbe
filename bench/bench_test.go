package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset/benchdata"
	"ukm/eig"
	"ukm/linalg"
	"ukm/models"
	"ukm/models/active"
	"ukm/models/klr"
	"ukm/models/spectral"
	"ukm/qp"
)

// Parameters of the scaling study.
const (
	// scalingP is the number of features of the synthetic points.
	scalingP = benchdata.RBFDim
	// scalingL is the number of labeled points.
	scalingL = 20
	// scalingSeed seeds the points (through benchdata.RBFPoints) and the
	// labeled draw.
	scalingSeed = 1
	// scalingC is the SKL decay factor (models.DefaultC).
	scalingC = models.DefaultDecay
	// scalingLambda is the KLR regularisation, fixed so that the klr stage
	// and the total time one fit, not a cross-validation grid.
	scalingLambda = klr.DefaultLambda
	// variantsD is the eigenvector count of the eigensolver variants.
	variantsD = 20
	// variantsQPN is the size n of the spectra of the QP variants.
	variantsQPN = 1000
	// largeEnv enables the sizes above 4000.
	largeEnv = "UKM_BENCH_LARGE"
	// eps is the float64 machine epsilon, the unit of the kkt/eps metric.
	eps = 0x1p-52
)

// Sinks keep benchmark results alive.
var (
	sinkSym   *mat.SymDense
	sinkOp    *eig.Dense
	sinkEig   *eig.Result
	sinkMu    []float64
	sinkInt   []int
	sinkModel *models.Model
	sinkQP    qp.Result
)

// sizes returns the n of the scaling study: up to 4000 by default, 8000 and
// 16000 as well when UKM_BENCH_LARGE=1 (the n = 16000 kernel alone is 2 GB).
func sizes() []int {
	ns := []int{250, 500, 1000, 2000, 4000}
	if os.Getenv(largeEnv) == "1" {
		ns = append(ns, 8000, 16000)
	}
	return ns
}

// dims are the eigenvector counts d of the scaling study.
var dims = [...]int{10, 20, 50, 100}

// scalingData is the input of the scaling study at one n: the seeded
// standard-normal points of benchdata.RBFPoints (p = 10), the class of a
// point is whether its first two coordinates sum to more than zero (a
// linear boundary the RBF spectrum can express), and l = 20 labeled points
// drawn without replacement by a seeded generator, redrawn until both
// classes occur.
type scalingData struct {
	x       *mat.Dense
	labeled []int
	labels  []int // classes of the labeled points
	unl     []int // the other points, increasing
}

func newScalingData(n int) (*scalingData, error) {
	if n < scalingL+1 {
		return nil, fmt.Errorf("n = %d leaves no unlabeled point", n)
	}
	x, err := benchdata.RBFPoints(n, scalingP, scalingSeed)
	if err != nil {
		return nil, err
	}
	class := make([]int, n)
	for i := range class {
		if x.At(i, 0)+x.At(i, 1) > 0 {
			class[i] = 1
		}
	}
	rng := rand.New(rand.NewPCG(scalingSeed, 2))
	s := &scalingData{x: x}
	for {
		s.labeled = rng.Perm(n)[:scalingL]
		c1 := 0
		for _, i := range s.labeled {
			c1 += class[i]
		}
		if c1 > 0 && c1 < scalingL {
			break
		}
	}
	s.labels = make([]int, scalingL)
	in := make([]bool, n)
	for a, i := range s.labeled {
		s.labels[a] = class[i]
		in[i] = true
	}
	for i := range n {
		if !in[i] {
			s.unl = append(s.unl, i)
		}
	}
	return s, nil
}

// kernelStage is the kernel stage of models.Fit with its defaults: z-score
// scaling, RBF width by the median heuristic, the Gram matrix and the
// eigensolver's dense operator (sharing its storage). Like Fit, it builds the
// kernel from one matrix of squared distances when the median is exact (at
// most linalg.DefaultMaxPairs pairs, n <= 1448) and otherwise samples the
// median (seed 0) and uses the Gram product.
func kernelStage(ctx context.Context, x *mat.Dense) (*mat.SymDense, *eig.Dense, error) {
	xs, _, err := linalg.FitTransform(x, linalg.ZScore)
	if err != nil {
		return nil, nil, err
	}
	n, _ := xs.Dims()
	var k *mat.SymDense
	if n*(n-1)/2 <= linalg.DefaultMaxPairs {
		k = &mat.SymDense{}
		if err := linalg.SquaredDistances(ctx, k, xs); err != nil {
			return nil, nil, err
		}
		g, err := linalg.MedianGammaOf(k)
		if err != nil {
			return nil, nil, err
		}
		if err := linalg.RBFFromDistances(k, k, g); err != nil {
			return nil, nil, err
		}
	} else {
		g, err := linalg.MedianGamma(ctx, xs, &linalg.BandwidthOptions{})
		if err != nil {
			return nil, nil, err
		}
		if k, err = linalg.Gram(ctx, linalg.RBF{Gamma: g}, xs); err != nil {
			return nil, nil, err
		}
	}
	op, err := eig.NewDenseShared(k)
	return k, op, err
}

// features returns rows idx of V diag(sqrt(mu)): the feature map Phi of the
// learned kernel on those points.
func features(basis *spectral.Basis, mu []float64, idx []int) (*mat.Dense, error) {
	phi, err := basis.Rows(nil, idx)
	if err != nil {
		return nil, err
	}
	r, c := phi.Dims()
	for i := 0; i < r; i++ {
		row := phi.RawRowView(i)
		for j := 0; j < c; j++ {
			row[j] *= math.Sqrt(mu[j])
		}
	}
	return phi, nil
}

// reportRSS reports the process's peak resident memory so far.
func reportRSS(b *testing.B) {
	if v, ok := peakRSSMiB(); ok {
		b.ReportMetric(v, RSSUnit)
	}
}

// BenchmarkScaling times the stages of models.Fit (SKL design, KLR with a
// fixed lambda) on scalingData:
//
//   - stage=kernel/n: scaling, median RBF width, Gram matrix, dense operator;
//   - stage=eig/n/d: eig.TopD (the default block solver), reporting its
//     operator products as matvecs/op;
//   - stage=qp/n/d: the SKL design (a fresh spectral.SKL: a cold QP solve);
//   - stage=klr/n/d: the one-versus-all KLR fit on the labeled features;
//   - stage=select/n/d: class probabilities of the n − l unlabeled points and
//     the maximum-entropy query of one point (a round of the active loop);
//   - stage=total/n/d: models.Fit, run after the other stages of that n have
//     released the cached operator.
//
// Every stage reports B/op; kernel, eig and total also report the peak RSS
// of the process (peak-RSS-MiB), which is process-wide and never decreases:
// it describes the largest run so far in the process, so a size's own peak
// needs a process of its own (select only that benchmark). Sizes above 4000
// need UKM_BENCH_LARGE=1.
func BenchmarkScaling(b *testing.B) {
	ctx := context.Background()
	for _, n := range sizes() {
		data, err := newScalingData(n)
		if err != nil {
			b.Fatal(err)
		}
		target, err := spectral.Target(data.labels, 2)
		if err != nil {
			b.Fatal(err)
		}
		var op *eig.Dense // built on first use, dropped after this n
		getOp := func(b *testing.B) *eig.Dense {
			if op == nil {
				var err error
				if _, op, err = kernelStage(ctx, data.x); err != nil {
					b.Fatal(err)
				}
			}
			return op
		}
		b.Run(fmt.Sprintf("stage=kernel/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				k, o, err := kernelStage(ctx, data.x)
				if err != nil {
					b.Fatal(err)
				}
				sinkSym, sinkOp = k, o
			}
			sinkSym, sinkOp = nil, nil
			reportRSS(b)
		})
		for _, d := range dims {
			if d >= n {
				continue
			}
			// basis and mu are built on first use by the stages that need them.
			var basis *spectral.Basis
			var mu []float64
			getBasis := func(b *testing.B) *spectral.Basis {
				if basis == nil {
					res, err := eig.TopD(ctx, getOp(b), d, nil)
					if err != nil {
						b.Fatal(err)
					}
					basis = &spectral.Basis{Values: res.Values, V: res.Vectors}
				}
				return basis
			}
			getMu := func(b *testing.B) []float64 {
				if mu == nil {
					var err error
					mu, err = spectral.NewSKL(scalingC).Coefficients(ctx, nil, getBasis(b), data.labeled, target)
					if err != nil {
						b.Fatal(err)
					}
				}
				return mu
			}
			name := func(stage string) string { return fmt.Sprintf("stage=%s/n=%d/d=%d", stage, n, d) }
			b.Run(name("eig"), func(b *testing.B) {
				o := getOp(b)
				b.ReportAllocs()
				b.ResetTimer()
				var res *eig.Result
				for b.Loop() {
					var err error
					if res, err = eig.TopD(ctx, o, d, nil); err != nil {
						b.Fatal(err)
					}
				}
				sinkEig = res
				b.ReportMetric(float64(res.MatVecs), MatVecUnit)
				reportRSS(b)
			})
			b.Run(name("qp"), func(b *testing.B) {
				bs := getBasis(b)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					m, err := spectral.NewSKL(scalingC).Coefficients(ctx, nil, bs, data.labeled, target)
					if err != nil {
						b.Fatal(err)
					}
					sinkMu = m
				}
			})
			var mm klr.Multi
			b.Run(name("klr"), func(b *testing.B) {
				phiL, err := features(getBasis(b), getMu(b), data.labeled)
				if err != nil {
					b.Fatal(err)
				}
				ft := klr.Fitter{Settings: klr.Settings{Lambda: scalingLambda}}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if err := ft.FitMultiFeatures(ctx, &mm, phiL, data.labels, 2, false); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name("select"), func(b *testing.B) {
				phiU, err := features(getBasis(b), getMu(b), data.unl)
				if err != nil {
					b.Fatal(err)
				}
				if mm.Classes == 0 {
					phiL, err := features(basis, mu, data.labeled)
					if err != nil {
						b.Fatal(err)
					}
					ft := klr.Fitter{Settings: klr.Settings{Lambda: scalingLambda}}
					if err := ft.FitMultiFeatures(ctx, &mm, phiL, data.labels, 2, false); err != nil {
						b.Fatal(err)
					}
				}
				probs := mat.NewDense(len(data.unl), 2, nil)
				sel := make([]int, 0, 1)
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if _, err := mm.PredictProba(probs, phiU); err != nil {
						b.Fatal(err)
					}
					if sel, err = (active.Entropy{}).Select(sel, probs, 1); err != nil {
						b.Fatal(err)
					}
				}
				sinkInt = sel
			})
		}
		// The totals run after the cached operator is dropped, so that the
		// heap holds only what models.Fit allocates.
		op = nil
		runtime.GC()
		for _, d := range dims {
			if d >= n {
				continue
			}
			b.Run(fmt.Sprintf("stage=total/n=%d/d=%d", n, d), func(b *testing.B) {
				opt := &models.Options{D: d, Lambda: scalingLambda}
				b.ReportAllocs()
				for b.Loop() {
					m, err := models.Fit(ctx, data.x, data.labeled, data.labels, opt)
					if err != nil {
						b.Fatal(err)
					}
					sinkModel = m
				}
				sinkModel = nil
				reportRSS(b)
			})
		}
	}
}

// BenchmarkVariants measures every eigensolver and every QP solver in one
// run, so that their ratios are not polluted by drifts of the machine:
//
//   - eig=<solver>/n/d=20: eig.Block, ThickRestart, Lanczos and the dense
//     Reference on the dense operator of the scaling study's kernel (the
//     reference only up to n = 1000 by default: O(n³));
//   - qp=<solver>/d: the SKL QP of the scaling study at n = 1000 (its top-d
//     eigenvectors on the 20 labeled rows, C = 2), cold-started with a
//     reused workspace by the bounded (default), active-set,
//     Goldfarb–Idnani and ADMM solvers. A solver whose first solve does not
//     end Optimal is skipped with its status in the log; the largest
//     relative KKT residual is reported in units of eps as kkt/eps.
func BenchmarkVariants(b *testing.B) {
	ctx := context.Background()
	large := os.Getenv(largeEnv) == "1"
	solvers := []eig.Solver{eig.Block{}, eig.ThickRestart{}, eig.Lanczos{}, eig.Reference{}}
	for _, n := range sizes()[1:] {
		data, err := newScalingData(n)
		if err != nil {
			b.Fatal(err)
		}
		var op *eig.Dense
		for _, s := range solvers {
			if _, ok := s.(eig.Reference); ok && (n > 2000 || (n > 1000 && !large)) {
				continue // O(n³): ten seconds at n = 2000, minutes beyond
			}
			b.Run(fmt.Sprintf("eig=%s/n=%d/d=%d", s.Name(), n, variantsD), func(b *testing.B) {
				if op == nil {
					var err error
					if _, op, err = kernelStage(ctx, data.x); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				var res *eig.Result
				for b.Loop() {
					var err error
					if res, err = s.Solve(ctx, op, variantsD, nil); err != nil {
						b.Fatal(err)
					}
				}
				sinkEig = res
				b.ReportMetric(float64(res.MatVecs), MatVecUnit)
				reportRSS(b)
			})
		}
	}
	data, err := newScalingData(variantsQPN)
	if err != nil {
		b.Fatal(err)
	}
	y := mat.NewDense(scalingL, 1, nil)
	for a, c := range data.labels {
		y.Set(a, 0, float64(2*c-1))
	}
	var res *eig.Result
	qpSolvers := []struct {
		name string
		s    qp.Solver
	}{
		{"bounded", nil},
		{"activeset", qp.NewActiveSet(&qp.Settings{SkipPSDCheck: true})},
		{"goldfarb-idnani", qp.NewGoldfarbIdnani(nil)},
		{"admm", qp.NewADMM(&qp.Settings{SkipPSDCheck: true})},
	}
	for _, sv := range qpSolvers {
		for _, d := range dims {
			b.Run(fmt.Sprintf("qp=%s/d=%d", sv.name, d), func(b *testing.B) {
				if res == nil {
					_, op, err := kernelStage(ctx, data.x)
					if err != nil {
						b.Fatal(err)
					}
					if res, err = eig.TopD(ctx, op, dims[len(dims)-1], nil); err != nil {
						b.Fatal(err)
					}
				}
				basis := &spectral.Basis{Values: res.Values[:d], V: mat.DenseCopyOf(res.Vectors.Slice(0, variantsQPN, 0, d))}
				vl, err := basis.Rows(nil, data.labeled)
				if err != nil {
					b.Fatal(err)
				}
				s, err := qp.NewSKL(vl, y, scalingC)
				if err != nil {
					b.Fatal(err)
				}
				// A solver that does not reach the optimum on this instance
				// is skipped (with its status in the log), not timed.
				if err := s.Solve(ctx, sv.s, nil, &sinkQP); err != nil || sinkQP.Status != linalg.Optimal {
					b.Skipf("%s at d = %d: status %v, error %v", sv.name, d, sinkQP.Status, err)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if err := s.Solve(ctx, sv.s, nil, &sinkQP); err != nil {
						b.Fatal(err)
					}
				}
				if sinkQP.Status != linalg.Optimal {
					b.Fatalf("status %v", sinkQP.Status)
				}
				b.ReportMetric(sinkQP.KKT.Max()/eps, "kkt/eps")
				b.ReportMetric(float64(sinkQP.Iterations), "iter")
			})
		}
	}
}
