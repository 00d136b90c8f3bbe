package linalg

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestScaler(t *testing.T) {
	// Column 1 is constant, column 2 has one outlier.
	x := mat.NewDense(4, 3, []float64{
		1, 5, 0,
		2, 5, 0,
		3, 5, 0,
		4, 5, 100,
	})
	newPt := mat.NewDense(1, 3, []float64{5, 7, 50})
	for _, m := range []ScaleMethod{ZScore, MinMax} {
		y, s, err := FitTransform(x, m)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			col := mat.Col(nil, j, y)
			if j == 1 {
				if slices.Max(col) != 0 || slices.Min(col) != 0 {
					t.Fatalf("method %d: constant column not mapped to 0: %v", m, col)
				}
				continue
			}
			if m == MinMax {
				if slices.Min(col) != 0 || slices.Max(col) != 1 {
					t.Fatalf("minmax column %d range %v", j, col)
				}
				continue
			}
			mean, sd := stat.PopMeanStdDev(col, nil)
			// Standardised columns: mean 0, sd 1 up to rounding.
			if math.Abs(mean) > 1e-15 || math.Abs(sd-1) > 1e-15 {
				t.Fatalf("zscore column %d: mean %v sd %v", j, mean, sd)
			}
		}
		z, err := s.Transform(newPt)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 3; j++ {
			want := (newPt.At(0, j) - s.Shift[j]) * s.Factor[j]
			if v := z.At(0, j); math.IsNaN(v) || v != want {
				t.Fatalf("out-of-sample column %d: %v", j, v)
			}
		}
		if z.At(0, 1) != 0 {
			t.Fatal("out-of-sample constant column not 0")
		}
		if m == MinMax && z.At(0, 0) != 4.0/3 {
			t.Fatalf("minmax extrapolation %v, want 4/3", z.At(0, 0))
		}
	}
	s, _ := FitScaler(x, ZScore)
	if _, err := s.Transform(mat.NewDense(1, 2, nil)); !errors.Is(err, ErrShape) {
		t.Fatalf("column mismatch: got %v", err)
	}
	if _, err := FitScaler(x, 9); !errors.Is(err, ErrSettings) {
		t.Fatalf("bad method: got %v", err)
	}
	if _, err := FitScaler(&mat.Dense{}, ZScore); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty: got %v", err)
	}
}

func TestBandwidth(t *testing.T) {
	ctx := context.Background()
	x := randNormal(4, 90, 3)
	var d []float64
	for i := 0; i < 90; i++ {
		for j := i + 1; j < 90; j++ {
			d = append(d, naiveDist2(x.RawRowView(i), x.RawRowView(j)))
		}
	}
	slices.Sort(d)
	med := 0.5 * (d[len(d)/2-1] + d[len(d)/2]) // 4005 pairs: odd count
	if len(d)%2 == 1 {
		med = d[len(d)/2]
	}
	mean := stat.Mean(d, nil)
	g, err := MedianGamma(ctx, x, nil)
	if err != nil || math.Abs(g*med-1) > 1e-14 {
		t.Fatalf("median gamma %v, want %v (%v)", g, 1/med, err)
	}
	g, err = MeanGamma(ctx, x, nil)
	// The closed form and the pair average differ by rounding only.
	if err != nil || math.Abs(g*mean-1) > 1e-12 {
		t.Fatalf("mean gamma %v, want %v (%v)", g, 1/mean, err)
	}
	// Sampled median: 2000 pairs give the median quantile to within a few
	// percent; the distance distribution here makes that about 10%.
	g1, err := MedianGamma(ctx, x, &BandwidthOptions{MaxPairs: 2000, Seed: 7})
	if err != nil || math.Abs(g1*med-1) > 0.15 {
		t.Fatalf("sampled median gamma %v, want about %v", g1, 1/med)
	}
	g2, _ := MedianGamma(ctx, x, &BandwidthOptions{MaxPairs: 2000, Seed: 7})
	if g1 != g2 {
		t.Fatal("sampled median not reproducible with equal seeds")
	}
	dup := mat.NewDense(5, 2, []float64{1, 1, 1, 1, 1, 1, 1, 1, 2, 2})
	if _, err := MedianGamma(ctx, dup, nil); !errors.Is(err, ErrDegenerate) {
		t.Fatalf("duplicates: got %v", err)
	}
	if _, err := MeanGamma(ctx, mat.NewDense(3, 1, []float64{2, 2, 2}), nil); !errors.Is(err, ErrDegenerate) {
		t.Fatalf("constant: got %v", err)
	}
	if _, err := MeanGamma(ctx, mat.NewDense(1, 1, []float64{2}), nil); !errors.Is(err, ErrEmpty) {
		t.Fatalf("n=1: got %v", err)
	}
}

func TestSelectKth(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{1, 2, 3, 10, 101, 1000} {
		for _, ties := range []bool{false, true} {
			d := make([]float64, n)
			for i := range d {
				d[i] = rng.Float64()
				if ties {
					d[i] = float64(rng.IntN(4))
				}
			}
			sorted := append([]float64(nil), d...)
			slices.Sort(sorted)
			for _, k := range []int{0, n / 2, n - 1} {
				c := append([]float64(nil), d...)
				if selectKth(c, k, func(v float64) float64 { return v }); c[k] != sorted[k] {
					got := c[k]
					t.Fatalf("n=%d ties=%v k=%d: got %v, want %v", n, ties, k, got, sorted[k])
				}
				for i := 0; i < k; i++ {
					if c[i] > c[k] {
						t.Fatalf("n=%d k=%d: c[%d]=%v > c[k]=%v", n, k, i, c[i], c[k])
					}
				}
				for i := k + 1; i < n; i++ {
					if c[i] < c[k] {
						t.Fatalf("n=%d k=%d: c[%d]=%v < c[k]=%v", n, k, i, c[i], c[k])
					}
				}
			}
		}
	}
}

// TestMedianGammaExact checks the exact median against a sort of the pair
// distances, bitwise (the pairwise loop computes each distance with
// sqDist's summation order), on sizes that leave remainders in the
// four-pair loop, on even and odd pair counts, and on a column view whose
// stride exceeds its width.
func TestMedianGammaExact(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ n, p int }{{2, 1}, {3, 2}, {4, 3}, {7, 5}, {20, 1}, {66, 9}, {131, 34}} {
		full := randNormal(uint64(tc.n), tc.n, tc.p+3)
		x := full.Slice(0, tc.n, 1, tc.p+1).(*mat.Dense)
		var d []float64
		for i := 0; i < tc.n; i++ {
			for j := i + 1; j < tc.n; j++ {
				d = append(d, sqDist(x.RawRowView(i)[:tc.p], x.RawRowView(j)[:tc.p]))
			}
		}
		slices.Sort(d)
		med := d[len(d)/2]
		if len(d)%2 == 0 {
			med = 0.5 * (d[len(d)/2-1] + d[len(d)/2])
		}
		g, err := MedianGamma(ctx, x, nil)
		if err != nil || g != 1/med {
			t.Errorf("n=%d p=%d: gamma %v, want %v (%v)", tc.n, tc.p, g, 1/med, err)
		}
	}
}

// TestSampledDists checks the sampled pair distances, bitwise, against
// pairs drawn and measured one at a time with sqDist, through the tiled
// pass (AVX2 or portable) when the sample is not much smaller than all the
// pairs and through the parallel one otherwise, on a view whose stride
// exceeds its width; and the sampled median against the same reference.
func TestSampledDists(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ n, p, m int }{{2, 1, 5}, {9, 3, 20}, {40, 7, 500}, {40, 7, 100}, {300, 33, 5000}, {71, 130, 4000}} {
		full := randNormal(uint64(tc.n+tc.p), tc.n, tc.p+2)
		x := full.Slice(0, tc.n, 1, tc.p+1).(*mat.Dense)
		want := make([]float64, tc.m)
		rng := rand.New(rand.NewPCG(11, 0x6a6d))
		for s := range want {
			i := rng.IntN(tc.n)
			j := rng.IntN(tc.n - 1)
			if j >= i {
				j++
			}
			want[s] = sqDist(x.RawRowView(i)[:tc.p], x.RawRowView(j)[:tc.p])
		}
		for _, asm := range []bool{false, hasPairsAVX2} {
			got := make([]float64, tc.m)
			if err := sampledDists(ctx, got, x.RawMatrix(), 11, asm); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("n=%d p=%d m=%d asm=%v: the distances differ from sqDist's", tc.n, tc.p, tc.m, asm)
			}
		}
		if tc.m < tc.n*(tc.n-1)/2 {
			sorted := slices.Sorted(slices.Values(want))
			med := 0.5 * (sorted[tc.m/2-1+tc.m%2] + sorted[tc.m/2])
			g, err := MedianGamma(ctx, x, &BandwidthOptions{MaxPairs: tc.m, Seed: 11})
			if err != nil || g != 1/med {
				t.Errorf("n=%d p=%d m=%d: gamma %v, want %v (%v)", tc.n, tc.p, tc.m, g, 1/med, err)
			}
		}
	}
}

// TestSelectFloat checks the selection contract (a[k] is the k-th smallest,
// nothing larger before it, nothing smaller after it) against a sort, on
// sizes above and below the sampled three-way split, for k near the ends
// (outside the sample's bracket) and with many ties.
func TestSelectFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 7, 1000, 16 * 1024, 70001} {
		for _, ties := range []bool{false, true} {
			for _, k := range []int{0, n / 3, n / 2, n - 1} {
				a := make([]float64, n)
				for i := range a {
					a[i] = rng.NormFloat64()
					if ties {
						a[i] = math.Round(a[i] * 3)
					}
				}
				want := slices.Clone(a)
				slices.Sort(want)
				selectFloat(a, k)
				if a[k] != want[k] {
					t.Fatalf("n=%d k=%d ties=%v: a[k] = %v, want %v", n, k, ties, a[k], want[k])
				}
				if m := slices.Max(a[:k+1]); m != a[k] {
					t.Fatalf("n=%d k=%d: %v before the k-th value %v", n, k, m, a[k])
				}
				if m := slices.Min(a[k:]); m != a[k] {
					t.Fatalf("n=%d k=%d: %v after the k-th value %v", n, k, m, a[k])
				}
			}
		}
	}
}
