package bench_test

import (
	"fmt"
	"strings"

	"ukm/bench"
)

// Example parses benchmark output of two runs, takes medians, fits the
// log-log slope of the eigensolver's time against n and renders it.
func Example() {
	out := `
BenchmarkScaling/stage=eig/n=500/d=20-2     10    2000000 ns/op    160 matvecs/op
BenchmarkScaling/stage=eig/n=500/d=20-2     10    2200000 ns/op    160 matvecs/op
BenchmarkScaling/stage=eig/n=1000/d=20-2     5    8100000 ns/op    160 matvecs/op
BenchmarkScaling/stage=eig/n=1000/d=20-2     5    7900000 ns/op    160 matvecs/op
BenchmarkScaling/stage=eig/n=2000/d=20-2     2   32000000 ns/op    168 matvecs/op
`
	rep, err := bench.Parse(strings.NewReader(out))
	if err != nil {
		fmt.Println(err)
		return
	}
	sums := bench.Summarize(rep.Results)
	for _, s := range sums {
		fmt.Printf("%s: %d runs, median %s\n", s.Name, s.Runs, bench.FormatNs(s.Median[bench.NsPerOp]))
	}
	x, y, err := bench.Series(bench.Filter(sums, bench.ScalingBench, map[string]string{"stage": "eig", "d": "20"}), "n", bench.NsPerOp)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := bench.LogLogFit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("time ~ n^%.2f (R² = %.3f)\n", f.Slope, f.R2)
	// Output:
	// BenchmarkScaling/stage=eig/n=500/d=20: 2 runs, median 2.10 ms
	// BenchmarkScaling/stage=eig/n=1000/d=20: 2 runs, median 8.00 ms
	// BenchmarkScaling/stage=eig/n=2000/d=20: 1 runs, median 32.0 ms
	// time ~ n^1.96 (R² = 1.000)
}
