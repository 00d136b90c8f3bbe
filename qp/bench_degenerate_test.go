package qp_test

import (
	"context"
	"fmt"
	"testing"

	"ukm/qp"
	"ukm/qp/qptest"
)

// degenerateSizes are the sizes (variables, about rows) of BenchmarkDegenerate,
// the default -sizes of bench/peers/qpgen, which writes the same problems for
// the CVXOPT comparison (bench/peers/qp_degenerate.sh); degenerateSeeds is
// its default -seeds.
var degenerateSizes = [][2]int{{50, 100}, {100, 200}, {200, 300}, {400, 500}}

const degenerateSeeds = 3

var sinkDegenerate qp.Result

// BenchmarkDegenerate times the solvers on the degenerate LP-like families of
// qptest.DegenerateFamilies (every size of degenerateSizes, seeds 1..3):
// ActiveSet on all of them, GoldfarbIdnani on the strictly convex ones, ADMM
// at n = 50 only (beyond, a first-order method on these problems takes
// seconds each). The problems are built outside the timer, and each solver is
// reused across the runs of a problem, cold-started each time. Metrics: ok =
// 1 when the outcome is the one required of the strict solvers in
// TestDegenerateFamilies (Optimal within 1e-8 of the planted value with KKT
// residuals below 1e-9, or Infeasible with a verified certificate), else 0;
// iter = iterations.
func BenchmarkDegenerate(b *testing.B) {
	for _, sz := range degenerateSizes {
		for seed := uint64(1); seed <= degenerateSeeds; seed++ {
			for _, fam := range qptest.DegenerateFamilies(sz[0], sz[1], seed) {
				gen := qptest.Generate(fam.Spec)
				for _, solver := range []string{"activeset", "goldfarb-idnani", "admm"} {
					if (solver == "goldfarb-idnani" && fam.Spec.Curved < fam.Spec.N) || (solver == "admm" && sz[0] > 50) {
						continue
					}
					name := fmt.Sprintf("family=%s/n=%d/rows=%d/seed=%d/solver=%s", fam.Name, sz[0], sz[1], seed, solver)
					b.Run(name, func(b *testing.B) {
						var s qp.Solver
						switch solver {
						case "activeset":
							s = qp.NewActiveSet(nil)
						case "goldfarb-idnani":
							s = qp.NewGoldfarbIdnani(nil)
						default:
							s = qp.NewADMM(nil)
						}
						ctx := context.Background()
						if err := s.Solve(ctx, gen.Problem, nil, &sinkDegenerate); err != nil {
							b.Fatal(err)
						}
						ok := 0.0
						if checkOutcome(gen, &sinkDegenerate, true) == nil {
							ok = 1
						}
						b.ReportAllocs()
						b.ResetTimer()
						for i := 0; i < b.N; i++ {
							if err := s.Solve(ctx, gen.Problem, nil, &sinkDegenerate); err != nil {
								b.Fatal(err)
							}
						}
						b.ReportMetric(ok, "ok")
						b.ReportMetric(float64(sinkDegenerate.Iterations), "iter")
					})
				}
			}
		}
	}
}
