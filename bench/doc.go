// Package bench is the scaling study of ukm and the small library that turns
// its output into tables.
//
// The benchmarks (in the package's test files) time the library's real code
// paths on seeded synthetic data: n standard-normal points in p = 10
// dimensions (internal/benchdata.RBFPoints), two classes split by a linear
// boundary, l = 20 labeled points.
//
//   - BenchmarkScaling/stage={kernel,eig,qp,klr,select,total}/n=.../d=...
//     times each stage of models.Fit (kernel build, eigensolver, SKL QP, KLR
//     fit, one active-learning selection) and the whole fit, for n from 250
//     to 4000 (8000 and 16000 with UKM_BENCH_LARGE=1) and d in {10, 20, 50,
//     100}. The kernel stage does not depend on d and has no d in its name.
//   - BenchmarkVariants/eig=<solver>/n=.../d=20 and
//     BenchmarkVariants/qp=<solver>/d=... time every eigensolver and every QP
//     solver in one run, so that their ratios are comparable.
//
// Every benchmark reports B/op and allocs/op; the eigensolver benchmarks
// report their operator products (matvecs/op), the memory-heavy ones the
// peak resident memory of the process (peak-RSS-MiB, from getrusage; it is
// process-wide and never decreases, so run the largest sizes in their own
// process to attribute it).
//
// The library reads `go test -bench` text (Parse), takes medians over -count
// runs (Summarize), fits log-log slopes of time against n or d (LogLogFit,
// ScalingSlopes) and renders markdown tables (StageTable, SlopeTable,
// VariantTable). The program in the plots directory, a module of its own so
// that the plotting library stays out of ukm's import graph, uses it to
// write the charts and tables of BENCHMARKS.md. README.md in this directory
// gives the commands, including the benchstat regression workflow.
package bench
