package bench

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestMarkdown(t *testing.T) {
	tb := &Table{
		Header: []string{"n", "time"},
		Right:  []bool{true},
		Rows:   [][]string{{"250", "1.00 ms"}, {"4000", "a|b"}, {"1"}},
	}
	want := "" +
		"|    n | time    |\n" +
		"| ---: | ------- |\n" +
		"|  250 | 1.00 ms |\n" +
		"| 4000 | a\\|b    |\n" +
		"|    1 |         |\n"
	if got := tb.Markdown(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{FormatNs(950), "950 ns"},
		{FormatNs(1234), "1.23 µs"},
		{FormatNs(45.6e6), "45.6 ms"},
		{FormatNs(2.314e9), "2.31 s"},
		{FormatNs(0), "0.00 ns"},
		{FormatNs(math.NaN()), "–"},
		{FormatBytes(512), "512 B"},
		{FormatBytes(1536), "1.50 KiB"},
		{FormatBytes(2 << 30), "2.00 GiB"},
		{FormatBytes(math.NaN()), "–"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// synthetic returns BenchmarkScaling summaries whose times follow exact
// power laws: stage s at (n, d) takes coef_s · n^a_s · d^b_s ns.
func synthetic() []Summary {
	type law struct{ coef, a, b float64 }
	laws := map[string]law{
		"kernel": {1, 2, 0},
		"eig":    {0.5, 2, 1},
		"qp":     {1000, 0, 2.5},
		"klr":    {500, 0, 2},
		"select": {10, 1, 1},
	}
	var res []Result
	for _, n := range []float64{250, 500, 1000, 2000} {
		for _, d := range []float64{10, 20, 50} {
			total := 0.0
			for _, s := range []string{"kernel", "eig", "qp", "klr", "select"} {
				l := laws[s]
				v := l.coef * math.Pow(n, l.a) * math.Pow(d, l.b)
				total += v
				if s == "kernel" {
					if d == 10 {
						res = append(res, Result{Name: fmt.Sprintf("%s/stage=kernel/n=%v", ScalingBench, n), Values: map[string]float64{NsPerOp: v}})
					}
					continue
				}
				vals := map[string]float64{NsPerOp: v}
				if s == "eig" {
					// products grow like d, flat in n
					vals[MatVecUnit] = 8 * d
				}
				res = append(res, Result{Name: fmt.Sprintf("%s/stage=%s/n=%v/d=%v", ScalingBench, s, n, d), Values: vals})
			}
			res = append(res, Result{Name: fmt.Sprintf("%s/stage=total/n=%v/d=%v", ScalingBench, n, d),
				Values: map[string]float64{NsPerOp: total, BytesPerOp: 16 * n * n, RSSUnit: 100}})
		}
	}
	return Summarize(res)
}

func TestStageTable(t *testing.T) {
	tb, err := StageTable(synthetic(), 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Rows) != 4 {
		t.Fatalf("%d rows, want one per n", len(tb.Rows))
	}
	row := tb.Rows[0] // n = 250, d = 20
	// kernel 250² = 62500 ns; eig 0.5·250²·20 = 625000 ns; their share of a
	// total that is exactly the sum of the stages
	total := 62500 + 625000 + 1000*math.Pow(20, 2.5) + 500*400 + 10*250*20
	wantKernel := fmt.Sprintf("62.5 µs (%.0f%%)", 100*62500/total)
	if row[0] != "250" || row[1] != wantKernel || row[6] != FormatNs(total) {
		t.Errorf("row %q: want kernel %q, total %q", row, wantKernel, FormatNs(total))
	}
	if row[7] != "1.00" {
		t.Errorf("stages / total = %q, want 1.00 (the total is their sum)", row[7])
	}
	if row[8] != FormatBytes(16*250*250) || row[9] != "100 MiB" {
		t.Errorf("memory cells %q %q", row[8], row[9])
	}
	if _, err := StageTable(synthetic(), 7); !errors.Is(err, ErrData) {
		t.Errorf("absent d: error %v, want ErrData", err)
	}
	if !strings.Contains(tb.Markdown(), "| stages / total |") {
		t.Error("header missing from the markdown")
	}
}

func TestScalingSlopes(t *testing.T) {
	rows := ScalingSlopes(synthetic(), 20, 1000)
	want := map[string]float64{
		"kernel/n": 2, "eig/n": 2, "eig per product/n": 2, "eig products/n": 0,
		"qp/n": 0, "klr/n": 0, "select/n": 1,
		"eig/d": 1, "qp/d": 2.5, "klr/d": 2, "select/d": 1,
	}
	seen := 0
	for _, r := range rows {
		key := r.Quantity + "/" + r.Against
		if r.Err != nil {
			t.Errorf("%s: %v", key, r.Err)
			continue
		}
		if r.Theory == "" {
			t.Errorf("%s: no theory", key)
		}
		w, ok := want[key]
		if !ok {
			continue // the totals mix laws: no single exponent
		}
		seen++
		// exact power laws: slopes to rounding
		if math.Abs(r.Fit.Slope-w) > 1e-9 || math.Abs(r.Fit.R2-1) > 1e-9 {
			t.Errorf("%s: slope %v R2 %v, want %v and 1", key, r.Fit.Slope, r.Fit.R2, w)
		}
	}
	if seen != len(want) {
		t.Errorf("checked %d of %d slopes", seen, len(want))
	}
	// Missing data gives a row with an error, rendered with dashes.
	rows = ScalingSlopes(synthetic(), 99, 99)
	tb := SlopeTable(rows)
	if len(tb.Rows) != len(rows) || rows[1].Err == nil || tb.Rows[1][3] != "–" {
		t.Errorf("d = 99 absent: rows %v", tb.Rows)
	}
}

func TestVariantTable(t *testing.T) {
	var res []Result
	for _, n := range []int{500, 1000} {
		for s, v := range map[string]float64{"block": 1, "lanczos": 3, "dense": 40} {
			if s == "dense" && n > 500 {
				continue
			}
			res = append(res, Result{Name: fmt.Sprintf("%s/eig=%s/n=%d/d=20", VariantsBench, s, n),
				Values: map[string]float64{NsPerOp: v * float64(n)}})
		}
	}
	sums := Summarize(res)
	tb, err := VariantTable(sums, "eig", "n", "block", map[string]string{"d": "20"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tb.Rows) != 2 || len(tb.Header) != 6 {
		t.Fatalf("header %q rows %q", tb.Header, tb.Rows)
	}
	ratio := map[string]string{}
	for j, h := range tb.Header {
		ratio[h] = tb.Rows[0][j]
	}
	if ratio["lanczos / block"] != "3.00" || ratio["dense / block"] != "40.00" {
		t.Errorf("ratios at n = 500: %v", ratio)
	}
	// dense is missing at n = 1000
	for j, h := range tb.Header {
		if h == "dense / block" && tb.Rows[1][j] != "–" {
			t.Errorf("missing variant rendered as %q", tb.Rows[1][j])
		}
	}
	if _, err := VariantTable(sums, "eig", "n", "none", nil); !errors.Is(err, ErrData) {
		t.Errorf("absent baseline: %v", err)
	}
	if _, err := VariantTable(sums, "qp", "d", "bounded", nil); !errors.Is(err, ErrData) {
		t.Errorf("no qp variants: %v", err)
	}
}

func TestScalingData(t *testing.T) {
	for _, n := range []int{21, 250, 1000} {
		s, err := newScalingData(n)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		c1 := 0
		for a, i := range s.labeled {
			if seen[i] || i < 0 || i >= n {
				t.Fatalf("n=%d: bad labeled index %d", n, i)
			}
			seen[i] = true
			c1 += s.labels[a]
		}
		if len(s.labeled) != scalingL || c1 == 0 || c1 == scalingL {
			t.Errorf("n=%d: %d labeled, %d in class 1", n, len(s.labeled), c1)
		}
		if len(s.unl)+len(s.labeled) != n {
			t.Errorf("n=%d: %d unlabeled", n, len(s.unl))
		}
		for _, i := range s.unl {
			if seen[i] {
				t.Errorf("n=%d: %d both labeled and unlabeled", n, i)
			}
		}
	}
	if _, err := newScalingData(scalingL); err == nil {
		t.Error("n = l accepted")
	}
}
