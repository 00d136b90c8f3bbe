package bench

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// sample is `go test -bench` output of two packages with -count 3 on one
// benchmark and 2 on another, test log lines and a benchmark name inside a
// log sentence.
const sample = `goos: linux
goarch: amd64
pkg: ukm/bench
cpu: AMD EPYC
BenchmarkScaling/stage=kernel/n=250-2         	      10	   1000 ns/op	  800 B/op	  3 allocs/op
BenchmarkScaling/stage=kernel/n=250-2         	      10	   3000 ns/op	  800 B/op	  3 allocs/op
BenchmarkScaling/stage=kernel/n=250-2         	      10	   2000 ns/op	  800 B/op	  3 allocs/op
    bench_test.go:12: BenchmarkScaling is slow
BenchmarkScaling/stage=eig/n=250/d=20-2       	       3	   1357555 ns/op	  90.00 matvecs/op	  27.16 peak-RSS-MiB	  677261 B/op	      79 allocs/op
BenchmarkScaling/stage=eig/n=250/d=20-2       	       3	   1357565 ns/op	  92.00 matvecs/op	  27.16 peak-RSS-MiB	  677261 B/op	      79 allocs/op
PASS
ok  	ukm/bench	0.341s
pkg: ukm/qp
BenchmarkSKL/solver=bounded/d=10	 1000	 1690 ns/op
`

func TestParse(t *testing.T) {
	rep, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(rep.Results); got != 6 {
		t.Fatalf("%d results, want 6", got)
	}
	if rep.Config["cpu"] != "AMD EPYC" || rep.Config["pkg"] != "ukm/qp" {
		t.Errorf("config %v: want cpu AMD EPYC and the last pkg ukm/qp", rep.Config)
	}
	r := rep.Results[3]
	if r.Name != "BenchmarkScaling/stage=eig/n=250/d=20" || r.Procs != 2 || r.Iterations != 3 {
		t.Errorf("result 3: %+v", r)
	}
	want := map[string]float64{"ns/op": 1357555, "matvecs/op": 90, "peak-RSS-MiB": 27.16, "B/op": 677261, "allocs/op": 79}
	for u, v := range want {
		if r.Values[u] != v {
			t.Errorf("%s = %v, want %v", u, r.Values[u], v)
		}
	}
	if last := rep.Results[5]; last.Name != "BenchmarkSKL/solver=bounded/d=10" || last.Procs != 0 {
		t.Errorf("a name without a procs suffix: %+v", last)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"no iteration count", "BenchmarkX-2 fast 12 ns/op\n"},
		{"negative count", "BenchmarkX-2 -1 12 ns/op\n"},
		{"unpaired value", "BenchmarkX-2 10 12 ns/op 7\n"},
		{"value not a number", "BenchmarkX-2 10 twelve ns/op\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(tc.in))
			if !errors.Is(err, ErrFormat) {
				t.Errorf("error %v, want ErrFormat", err)
			}
			if err != nil && !strings.Contains(err.Error(), "line 1") {
				t.Errorf("error %q does not give the line", err)
			}
		})
	}
	// Lines that merely look similar are not results.
	rep, err := Parse(strings.NewReader("Benchmarks: none\nBenchmarking\nBenchmark\n"))
	if err != nil || len(rep.Results) != 0 {
		t.Errorf("non-result lines: %v results, error %v", len(rep.Results), err)
	}
}

func TestSplitProcs(t *testing.T) {
	for _, tc := range []struct {
		in    string
		name  string
		procs int
	}{
		{"BenchmarkA-8", "BenchmarkA", 8},
		{"BenchmarkA/n=10-16", "BenchmarkA/n=10", 16},
		{"BenchmarkA/x=-1", "BenchmarkA/x=-1", 0}, // a negative value, no suffix
		{"BenchmarkA/s=thick-restart", "BenchmarkA/s=thick-restart", 0},
		{"BenchmarkA/s=thick-restart/n=5-2", "BenchmarkA/s=thick-restart/n=5", 2},
		{"BenchmarkA-", "BenchmarkA-", 0},
		{"BenchmarkA-0", "BenchmarkA-0", 0},
	} {
		name, procs := splitProcs(tc.in)
		if name != tc.name || procs != tc.procs {
			t.Errorf("splitProcs(%q) = %q, %d; want %q, %d", tc.in, name, procs, tc.name, tc.procs)
		}
	}
}

func TestSummarize(t *testing.T) {
	rep, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	sums := Summarize(rep.Results)
	if len(sums) != 3 {
		t.Fatalf("%d summaries, want 3", len(sums))
	}
	k := sums[0]
	// median of 1000, 3000, 2000
	if k.Runs != 3 || k.Median["ns/op"] != 2000 {
		t.Errorf("kernel: runs %d median %v, want 3 and 2000", k.Runs, k.Median["ns/op"])
	}
	e := sums[1]
	// even count: mean of the two middle values
	if e.Runs != 2 || e.Median["ns/op"] != 1357560 || e.Median["matvecs/op"] != 91 {
		t.Errorf("eig: %+v", e)
	}
	if v, ok := e.Get("stage"); !ok || v != "eig" {
		t.Errorf("stage = %q, %v", v, ok)
	}
	if d, ok := e.Float("d"); !ok || d != 20 {
		t.Errorf("d = %v, %v", d, ok)
	}
	if _, ok := k.Get("d"); ok {
		t.Error("the kernel stage has no d")
	}
}

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{5}, 5},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{7, 7, 1, 9, 7}, 7},
	} {
		in := append([]float64(nil), tc.in...)
		if got := Median(in); got != tc.want {
			t.Errorf("Median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		for i := range in {
			if in[i] != tc.in[i] {
				t.Errorf("Median modified its input: %v", in)
			}
		}
	}
	if !math.IsNaN(Median(nil)) {
		t.Error("Median of nothing is not NaN")
	}
}

func TestFilterAndSeries(t *testing.T) {
	sums := []Summary{
		{Name: "BenchmarkScaling/stage=eig/n=1000/d=20", Median: map[string]float64{"ns/op": 40}},
		{Name: "BenchmarkScaling/stage=eig/n=500/d=20", Median: map[string]float64{"ns/op": 10}},
		{Name: "BenchmarkScaling/stage=eig/n=500/d=10", Median: map[string]float64{"ns/op": 5}},
		{Name: "BenchmarkScaling/stage=kernel/n=500", Median: map[string]float64{"ns/op": 3}},
		{Name: "BenchmarkVariants/eig=block/n=500/d=20", Median: map[string]float64{"ns/op": 1}},
	}
	for i := range sums {
		sums[i].Params = Params(sums[i].Name)
	}
	for _, tc := range []struct {
		name string
		base string
		want map[string]string
		n    int
	}{
		{"by value", ScalingBench, map[string]string{"stage": "eig", "d": "20"}, 2},
		{"any value", "", map[string]string{"d": "*"}, 4},
		{"absent key", ScalingBench, map[string]string{"d": ""}, 1},
		{"other benchmark", VariantsBench, nil, 1},
		{"no match", ScalingBench, map[string]string{"stage": "qp"}, 0},
	} {
		if got := len(Filter(sums, tc.base, tc.want)); got != tc.n {
			t.Errorf("%s: %d matches, want %d", tc.name, got, tc.n)
		}
	}
	x, y, err := Series(Filter(sums, ScalingBench, map[string]string{"stage": "eig", "d": "20"}), "n", "ns/op")
	if err != nil {
		t.Fatal(err)
	}
	if len(x) != 2 || x[0] != 500 || x[1] != 1000 || y[0] != 10 || y[1] != 40 {
		t.Errorf("series %v %v, want sorted by n", x, y)
	}
	if _, _, err := Series(Filter(sums, ScalingBench, map[string]string{"stage": "eig"}), "n", "ns/op"); !errors.Is(err, ErrData) {
		t.Errorf("two points at n = 500: error %v, want ErrData", err)
	}
}
