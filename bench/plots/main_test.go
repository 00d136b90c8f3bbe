package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sampleOutput builds benchmark text with every benchmark the program
// draws: stage times following simple power laws of n and d, three
// eigensolvers, two QP solvers and the two paths of a whole fit, each run
// twice.
func sampleOutput() string {
	var b strings.Builder
	b.WriteString("goos: linux\npkg: ukm/bench\n")
	for run := range 2 {
		jitter := 1 + 0.01*float64(run) // a second run 1% slower
		for _, n := range []float64{250, 500, 1000} {
			fmt.Fprintf(&b, "BenchmarkScaling/stage=kernel/n=%v-2 10 %.0f ns/op 100 B/op 1 allocs/op\n", n, jitter*n*n)
			for _, d := range []float64{10, 20} {
				total := n * n
				for k, s := range []string{"eig", "qp", "klr", "select"} {
					v := jitter * math.Pow(n, float64(2-k/2)) * d
					total += v
					fmt.Fprintf(&b, "BenchmarkScaling/stage=%s/n=%v/d=%v-2 10 %.0f ns/op 160 matvecs/op 8 B/op 1 allocs/op\n", s, n, d, v)
				}
				fmt.Fprintf(&b, "BenchmarkScaling/stage=total/n=%v/d=%v-2 10 %.0f ns/op 50.5 peak-RSS-MiB 4000 B/op 9 allocs/op\n", n, d, total)
			}
		}
		for _, n := range []float64{500, 1000, 2000} {
			for k, s := range []string{"block", "thick-restart", "lanczos"} {
				fmt.Fprintf(&b, "BenchmarkVariants/eig=%s/n=%v/d=20-2 10 %.0f ns/op 100 matvecs/op\n", s, n, jitter*float64(k+1)*n*n)
			}
		}
		for _, d := range []float64{10, 20, 50} {
			fmt.Fprintf(&b, "BenchmarkVariants/qp=bounded/d=%v-2 1000 %.0f ns/op 0 B/op\n", d, jitter*d*d)
			fmt.Fprintf(&b, "BenchmarkVariants/qp=admm/d=%v-2 10 %.0f ns/op 0 B/op\n", d, jitter*d*d*d)
		}
		for _, n := range []float64{1000, 10000, 100000} {
			fmt.Fprintf(&b, "BenchmarkLargeN/path=large/n=%v-2 1 %.0f ns/op 95 acc%%\n", n, jitter*300*n)
			if n < 100000 {
				fmt.Fprintf(&b, "BenchmarkLargeN/path=exact/n=%v-2 1 %.0f ns/op 95 acc%%\n", n, jitter*n*n)
			}
		}
	}
	b.WriteString("PASS\n")
	return b.String()
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bench.txt")
	if err := os.WriteFile(in, []byte(sampleOutput()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	if err := run([]string{"-in", in, "-out", out, "-d", "20", "-n", "1000"}, nil, &stderr); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() > 0 {
		t.Errorf("complete input, yet notes: %s", stderr.String())
	}
	png := []byte("\x89PNG\r\n\x1a\n")
	for _, f := range []string{"eig_solvers.png", "stages.png", "stage_share.png", "qp_d.png", "large_n.png"} {
		data, err := os.ReadFile(filepath.Join(out, f))
		if err != nil {
			t.Error(err)
			continue
		}
		// a real chart is several kilobytes; the signature proves the format
		if !bytes.HasPrefix(data, png) || len(data) < 1000 {
			t.Errorf("%s: %d bytes, not a PNG chart", f, len(data))
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "tables.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"### Per-stage cost (d = 20)",
		"### Log-log slopes",
		"| thick-restart / block |",
		"| admm / bounded |",
		// lanczos is 3x block at every n, admm/bounded = d at d = 50
		"3.00 |",
		"50.00 |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("tables.md lacks %q:\n%s", want, md)
		}
	}
}

func TestRunPartialAndErrors(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "qp.txt")
	// only QP variants: the other charts and tables are skipped with notes
	text := "BenchmarkVariants/qp=bounded/d=10-2 10 100 ns/op\nBenchmarkVariants/qp=bounded/d=20-2 10 400 ns/op\n"
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if err := run([]string{"-in", in, "-out", filepath.Join(dir, "o")}, nil, &stderr); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "o", "qp_d.png")); err != nil {
		t.Error(err)
	}
	if !strings.Contains(stderr.String(), "skipping stages.png") {
		t.Errorf("no note for the missing stages: %q", stderr.String())
	}
	// standard input works as a source
	if err := run([]string{"-in", "-", "-out", filepath.Join(dir, "s")}, strings.NewReader(text), &stderr); err != nil {
		t.Error(err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no flags", nil},
		{"no output", []string{"-in", in}},
		{"missing file", []string{"-in", filepath.Join(dir, "absent"), "-out", dir}},
		{"bad d", []string{"-in", in, "-out", dir, "-d", "0"}},
		{"extra argument", []string{"-in", in, "-out", dir, "x"}},
	} {
		if err := run(tc.args, nil, &stderr); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte("PASS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-in", empty, "-out", dir}, nil, &stderr); err == nil {
		t.Error("input without results accepted")
	}
}
