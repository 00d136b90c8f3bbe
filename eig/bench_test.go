package eig

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/dataset/benchdata"
	"ukm/dataset/datatest"
	"ukm/linalg"
)

// sinkResult keeps benchmark results alive.
var sinkResult *Result
var sinkFloat float64

// benchKernel returns the Dense operator of the RBF kernel of n seeded
// standard-normal points in 10 dimensions: the input of BenchmarkTopD, the
// one bench/peers gives the peer tools.
func benchKernel(b *testing.B, n int) *Dense {
	b.Helper()
	op, err := NewDense(rbfKernel(gaussPoints(n, benchdata.RBFDim, benchdata.RBFSeed)))
	if err != nil {
		b.Fatal(err)
	}
	return op
}

// reportTopD keeps res in the sink and reports its operator calls and its
// worst residual relative to the norm estimate, in units of eps.
func reportTopD(b *testing.B, res *Result) {
	sinkResult = res
	b.ReportMetric(float64(res.MatVecs), "matvecs/op")
	var worst float64
	for _, r := range res.Residuals {
		worst = max(worst, r/res.NormEstimate)
	}
	b.ReportMetric(worst/eps, "relres/eps")
}

// BenchmarkTopD times every solver on the RBF kernel of benchKernel; the
// block method also with the final refinement turned off
// (solver=block/refine=off), to price the refinement in the same run.
func BenchmarkTopD(b *testing.B) {
	ctx := context.Background()
	type variant struct {
		s    Solver
		name string
		set  *Settings
	}
	variants := []variant{
		{Block{}, "block", nil},
		{Block{}, "block/refine=off", &Settings{NoRefine: true}},
		{ThickRestart{}, "thick-restart", nil},
		{Lanczos{}, "lanczos", nil},
		{Reference{}, "reference", nil},
	}
	for _, v := range variants {
		for _, n := range []int{500, 1000, 2000, 4000} {
			if _, ok := v.s.(Reference); ok && n > 2000 {
				continue // O(n^3): minutes at n = 4000
			}
			var op *Dense
			for _, d := range []int{10, 20, 50} {
				b.Run(fmt.Sprintf("solver=%s/n=%d/d=%d", v.name, n, d), func(b *testing.B) {
					if op == nil {
						op = benchKernel(b, n)
					}
					b.ReportAllocs()
					b.ResetTimer()
					var res *Result
					for b.Loop() {
						var err error
						res, err = v.s.Solve(ctx, op, d, v.set)
						if err != nil {
							b.Fatal(err)
						}
					}
					reportTopD(b, res)
				})
			}
		}
	}
}

func BenchmarkLaplacianBottomD(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{10000, 100000} {
		d := 20
		b.Run(fmt.Sprintf("n=%d/d=%d", n, d), func(b *testing.B) {
			if testing.Short() && n > 10000 {
				b.Skip("large graph skipped in short mode")
			}
			w, err := linalg.KNNGraph(ctx, gaussPoints(n, 10, 3), 10, nil)
			if err != nil {
				b.Fatal(err)
			}
			l, err := linalg.Laplacian(w, linalg.Combinatorial)
			if err != nil {
				b.Fatal(err)
			}
			op, err := NewCSR(l)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var res *Result
			for b.Loop() {
				res, err = TopD(ctx, op, d, &Settings{Which: Smallest})
				if err != nil {
					b.Fatal(err)
				}
			}
			sinkResult = res
			b.ReportMetric(float64(res.MatVecs), "matvecs/op")
		})
	}
}

func BenchmarkDenseMulVec(b *testing.B) {
	impl := blas64.Implementation()
	for _, n := range []int{2000, 4000} {
		a := rbfKernel(gaussPoints(n, 10, 2))
		op, _ := NewDense(a)
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i%7) - 3
		}
		y := make([]float64, n)
		bytes := float64(8 * n * n)
		report := func(b *testing.B) {
			b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
			b.ReportMetric(1, "matvecs/op")
		}
		b.Run(fmt.Sprintf("n=%d/variant=ours", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				op.MulVecTo(y, x)
			}
			report(b)
		})
		for _, p := range []int{4, 8, 16} {
			b.Run(fmt.Sprintf("n=%d/variant=ours-block%d", n, p), func(b *testing.B) {
				xs := mat.NewDense(p, n, nil)
				ys := mat.NewDense(p, n, nil)
				for k := 0; k < p; k++ {
					copy(xs.RawRowView(k), x)
				}
				b.ReportAllocs()
				for b.Loop() {
					op.MulVecsTo(ys, xs)
				}
				b.ReportMetric(bytes*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
				b.ReportMetric(float64(p), "matvecs/op")
			})
		}
		b.Run(fmt.Sprintf("n=%d/variant=dsymv", n), func(b *testing.B) {
			raw := a.RawSymmetric()
			b.ReportAllocs()
			for b.Loop() {
				impl.Dsymv(raw.Uplo, n, 1, raw.Data, raw.Stride, x, 1, 0, y, 1)
			}
			report(b)
		})
		b.Run(fmt.Sprintf("n=%d/variant=dgemv", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				impl.Dgemv(blas.NoTrans, n, n, 1, op.a, n, x, 1, 0, y, 1)
			}
			report(b)
		})
	}
	sinkFloat = 0
}

// BenchmarkMemBandwidth measures the read bandwidth of a parallel sum over
// 256 MiB, the bound for a dense product streaming the matrix once.
func BenchmarkMemBandwidth(b *testing.B) {
	s := bandwidthBuffer()
	b.SetBytes(int64(8 * len(s)))
	b.ResetTimer()
	for b.Loop() {
		sinkFloat = parallelSum(s)
	}
	b.ReportMetric(float64(8*len(s))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
}

// bandwidthBuffer returns 256 MiB of ones, eight times the last-level cache.
func bandwidthBuffer() []float64 {
	s := make([]float64, 32<<20)
	for i := range s {
		s[i] = 1
	}
	return s
}

// parallelSum returns the sum of s, split over GOMAXPROCS goroutines (four
// accumulators each, so that the loads and not the additions set the pace).
func parallelSum(s []float64) float64 {
	w := runtime.GOMAXPROCS(0)
	part := make([]float64, w)
	var wg sync.WaitGroup
	for t := range w {
		wg.Go(func() {
			ch := s[t*len(s)/w : (t+1)*len(s)/w]
			var a0, a1, a2, a3 float64
			for i := 0; i+4 <= len(ch); i += 4 {
				a0 += ch[i]
				a1 += ch[i+1]
				a2 += ch[i+2]
				a3 += ch[i+3]
			}
			part[t] = a0 + a1 + a2 + a3
		})
	}
	wg.Wait()
	var sum float64
	for _, p := range part {
		sum += p
	}
	return sum
}

// BenchmarkBandwidthRatio measures, in one run, the machine's read
// bandwidth (BenchmarkMemBandwidth's sum, three passes before every solve)
// and the default solver on the kernel of BenchmarkTopD at n = 4000, and
// reports
//
//	ratio = solve time / (Products passes over the 8n² bytes of the matrix at that bandwidth)
//
// the solve time against the time its operator calls need at the measured
// bandwidth (1 would be a solver that costs nothing beyond streaming the
// matrix). Also reported: the bandwidth (GB/s), the rate of a block
// product of eight vectors measured the same way (product-GB/s, three
// products before every solve: the part of the ratio the products alone
// account for is GB/s over product-GB/s), the speed of the cores (cpu-GF/s:
// the dot-product kernel on one core on data in the cache, before every
// solve; the VM's speed drifts, and this shows how fast it was during the
// run), the solve time alone (solve-ms) and the passes (passes/op). ns/op
// includes the measuring passes and is not the solve time.
func BenchmarkBandwidthRatio(b *testing.B) {
	ctx := context.Background()
	const n = 4000
	var op *Dense
	var buf []float64
	for _, d := range []int{10, 20, 50} {
		b.Run(fmt.Sprintf("n=%d/d=%d", n, d), func(b *testing.B) {
			if op == nil {
				op, buf = benchKernel(b, n), bandwidthBuffer()
			}
			var solve, sum, prod, cpu time.Duration
			var passes int
			x := mat.NewDense(8, n, nil)
			for i := range x.RawMatrix().Data {
				x.RawMatrix().Data[i] = float64(i%7) - 3
			}
			y := mat.NewDense(8, n, nil)
			cw := newCPUWork()
			for b.Loop() {
				t0 := time.Now()
				for range 3 {
					sinkFloat += parallelSum(buf)
				}
				tp := time.Now()
				for range 3 {
					op.MulVecsTo(y, x)
				}
				prod += time.Since(tp)
				tc := time.Now()
				for range cpuReps {
					cpuWork(cw)
				}
				cpu += time.Since(tc)
				t1 := time.Now()
				res, err := TopD(ctx, op, d, nil)
				if err != nil {
					b.Fatal(err)
				}
				solve += time.Since(t1)
				sum += tp.Sub(t0)
				passes = res.Products
				sinkResult = res
			}
			bw := 3 * float64(8*len(buf)) * float64(b.N) / sum.Seconds()
			ideal := float64(passes) * float64(8*n*n) / bw * float64(b.N)
			b.ReportMetric(bw/1e9, "GB/s")
			b.ReportMetric(3*float64(8*n*n)*float64(b.N)/prod.Seconds()/1e9, "product-GB/s")
			b.ReportMetric(float64(cpuReps*cpuFlops)*float64(b.N)/cpu.Seconds()/1e9, "cpu-GF/s")
			b.ReportMetric(solve.Seconds()*1e3/float64(b.N), "solve-ms")
			b.ReportMetric(float64(passes), "passes/op")
			b.ReportMetric(solve.Seconds()/ideal, "ratio")
		})
	}
}

// cpuWork is a fixed computation on data in the cache: the dot products of
// 48 rows with 4 vectors of length 256 (cpuFlops flops, 104 KiB), by the
// block kernel. Only its changes between runs mean something.
type cpuWorkData struct{ a, x, c []float64 }

const (
	cpuLen   = 256
	cpuRows  = 48
	cpuFlops = 2 * cpuRows * 4 * cpuLen
	cpuReps  = 500
)

func newCPUWork() *cpuWorkData {
	w := &cpuWorkData{a: make([]float64, cpuRows*cpuLen), x: make([]float64, 4*cpuLen), c: make([]float64, 4*cpuRows)}
	for i := range w.a {
		w.a[i] = float64(i%5) - 2
	}
	for i := range w.x {
		w.x[i] = float64(i%3) - 1
	}
	return w
}

func cpuWork(w *cpuWorkData) {
	dotsNT(true, w.c, 4, 1, w.a, cpuLen, cpuRows, w.x, cpuLen, 4, cpuLen)
}

// BenchmarkTopDData runs TopD on the RBF kernels of real data sets, the
// size the models package meets (ionosphere: n = 351).
func BenchmarkTopDData(b *testing.B) {
	ctx := context.Background()
	for _, name := range []string{"ionosphere"} {
		s := datatest.Load(b, name)
		op, err := NewDense(rbfKernel(benchdata.ZScore(s.X)))
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range []int{20} {
			n, _ := op.Dims()
			b.Run(fmt.Sprintf("data=%s/n=%d/d=%d", name, n, d), func(b *testing.B) {
				b.ReportAllocs()
				var res *Result
				for b.Loop() {
					res, err = TopD(ctx, op, d, nil)
					if err != nil {
						b.Fatal(err)
					}
				}
				reportTopD(b, res)
			})
		}
	}
}
