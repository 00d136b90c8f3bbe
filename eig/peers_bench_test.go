package eig_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
	gonumlapack "gonum.org/v1/gonum/lapack/gonum"

	"ukm/eig"
	"ukm/eig/eigtest"
	"ukm/linalg"
)

// sink keeps benchmark results alive.
var sink *eig.Result

// BenchmarkVsEigsh times the default solver (TopD) and the
// shift-and-invert mode on the matrices that bench/peers/gen/eigfam writes
// for SciPy's eigsh (bench/peers/eigsh_families.sh runs both sides in one
// run; the names are the same):
//
//   - family=rbf: the dense RBF kernel of eigtest.KernelRBF, largest d;
//   - family=knn: the 10-NN graph Laplacian of eigtest.KNNLaplacian, as a
//     CSR operator, largest d;
//   - family=repeated-*: an eigenvalue of multiplicity exactly d at the
//     bottom, smallest d;
//   - family=grid-stiffness, clustered-laplacian: condition 1e10 at
//     n = 5,000, the smallest d by shift-and-invert with sigma = 0.
//
// Reported: matvecs/op (products with A), solves/op (applications of the
// shifted inverse), relres/eps (worst ||A v - θ v|| / (NormEstimate eps),
// eps = 2^-53) and converged (1 if Status is Converged).
func BenchmarkVsEigsh(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{200, 500, 1000, 2000, 4000} {
		var dense *eig.Dense
		var knn *eig.CSR
		for _, d := range []int{5, 20, 50} {
			b.Run(fmt.Sprintf("family=rbf/n=%d/d=%d", n, d), func(b *testing.B) {
				if dense == nil {
					k, err := eigtest.KernelRBF(n, 1)
					if err != nil {
						b.Fatal(err)
					}
					if dense, err = eig.NewDenseShared(k); err != nil {
						b.Fatal(err)
					}
				}
				benchSolve(b, func() (*eig.Result, error) { return eig.TopD(ctx, dense, d, nil) })
			})
		}
		for _, d := range []int{5, 20, 50} {
			b.Run(fmt.Sprintf("family=knn/n=%d/d=%d", n, d), func(b *testing.B) {
				if knn == nil {
					knn = knnOperator(b, n)
				}
				benchSolve(b, func() (*eig.Result, error) { return eig.TopD(ctx, knn, d, nil) })
			})
		}
	}
	for _, p := range []eigtest.Problem{eigtest.RepeatedDiagonal(420, 20), eigtest.RepeatedBlocks(1000, 10, 1)} {
		b.Run(fmt.Sprintf("family=%s/d=%d", p.Name, p.Mult), func(b *testing.B) {
			set := &eig.Settings{Which: eig.Smallest}
			benchSolve(b, func() (*eig.Result, error) { return eig.TopD(ctx, p.A, p.Mult, set) })
		})
	}
	ps, err := illConditioned()
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range ps {
		for _, d := range []int{6, 10, 20} {
			b.Run(fmt.Sprintf("family=%s/d=%d/solver=shift-invert", p.Name, d), func(b *testing.B) {
				benchSolve(b, func() (*eig.Result, error) { return eig.ShiftInvert{}.Solve(ctx, p.A, d, nil) })
			})
		}
	}
}

// benchSolve times solve and reports the metrics of BenchmarkVsEigsh.
func benchSolve(b *testing.B, solve func() (*eig.Result, error)) {
	b.ReportAllocs()
	b.ResetTimer()
	var res *eig.Result
	for b.Loop() {
		var err error
		if res, err = solve(); err != nil {
			b.Fatal(err)
		}
	}
	sink = res
	var worst float64
	for _, r := range res.Residuals {
		worst = math.Max(worst, r/(res.NormEstimate*eps))
	}
	conv := 0.0
	if res.Status == linalg.Converged {
		conv = 1
	}
	b.ReportMetric(float64(res.MatVecs), "matvecs/op")
	b.ReportMetric(float64(res.Solves), "solves/op")
	b.ReportMetric(worst, "relres/eps")
	b.ReportMetric(conv, "converged")
}

// BenchmarkSparseSolvers compares the solvers TopD chooses among on the
// sparse family of BenchmarkVsEigsh (the 10-NN graph Laplacian, largest d):
// TopD (Chebyshev here, at d = 20 and 50), ThickRestart and Block with
// default settings. It reports the products with A.
func BenchmarkSparseSolvers(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{200, 500, 1000, 2000} {
		knn := knnOperator(b, n)
		for _, d := range []int{20, 50} {
			for _, sv := range []struct {
				name  string
				solve func() (*eig.Result, error)
			}{
				{"topd", func() (*eig.Result, error) { return eig.TopD(ctx, knn, d, nil) }},
				{"thick-restart", func() (*eig.Result, error) { return eig.ThickRestart{}.Solve(ctx, knn, d, nil) }},
				{"block", func() (*eig.Result, error) { return eig.Block{}.Solve(ctx, knn, d, nil) }},
			} {
				b.Run(fmt.Sprintf("family=knn/n=%d/d=%d/solver=%s", n, d, sv.name), func(b *testing.B) {
					benchSolve(b, sv.solve)
				})
			}
		}
	}
}

// BenchmarkDenseTridiagonal prices the first step of a dense path for small
// matrices, the Householder reduction to tridiagonal form (gonum's Dsytrd,
// (4/3) n^3 flops), on the RBF kernels of BenchmarkVsEigsh: a dense solver
// would pay it before any eigenpair (BENCHMARKS.md compares it with the
// Krylov solves).
func BenchmarkDenseTridiagonal(b *testing.B) {
	var impl gonumlapack.Implementation
	for _, n := range []int{200, 500, 1000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			k, err := eigtest.KernelRBF(n, 1)
			if err != nil {
				b.Fatal(err)
			}
			a0 := k.RawSymmetric().Data
			a := make([]float64, len(a0))
			d, e, tau := make([]float64, n), make([]float64, n-1), make([]float64, n-1)
			work := make([]float64, 1)
			impl.Dsytrd(blas.Upper, n, a, n, d, e, tau, work, -1)
			work = make([]float64, int(work[0]))
			for b.Loop() {
				copy(a, a0)
				impl.Dsytrd(blas.Upper, n, a, n, d, e, tau, work, len(work))
			}
		})
	}
}
