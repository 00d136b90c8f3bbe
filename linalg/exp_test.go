package linalg

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"
)

// ulpDiff returns the distance between a and b in units in the last place
// (the number of doubles between them); both must be finite and of one sign.
func ulpDiff(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x > y {
		return x - y
	}
	return y - x
}

// expCases returns arguments that cover the kernel's range and its edges:
// uniform over [-745, 710], the RBF range [-40, 0], the thresholds of the
// fallback, the points where k changes, and special values.
func expCases(seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 11))
	var xs []float64
	for range 200000 {
		xs = append(xs, -745+755*rng.Float64(), -40*rng.Float64())
	}
	for k := -1030; k <= 1030; k++ {
		c := float64(k) * math.Ln2 / 2
		xs = append(xs, c, math.Nextafter(c, math.Inf(1)), math.Nextafter(c, math.Inf(-1)))
	}
	xs = append(xs, 0, math.Copysign(0, -1), 1e-300, -1e-300, -708, -708.0000001, -707.9999999,
		709, 709.0000001, 708.9999999, 709.8, 710, -745, -745.2, -746, -1e300, 1e300,
		math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64)
	return xs
}

// TestExpScaled checks the kernel against math.Exp on every path: within
// 2 units in the last place where it evaluates, exactly math.Exp where it
// falls back, for every length (tails) and in place.
func TestExpScaled(t *testing.T) {
	xs := expCases(1)
	for _, useAsm := range []bool{false, hasExpAVX2} {
		for _, s := range []float64{1, -1, -0.37} {
			src := make([]float64, len(xs))
			for i, x := range xs {
				src[i] = x / s // s src[i] rounds to about x
			}
			dst := make([]float64, len(src))
			expScaled(dst, src, s, useAsm)
			var worst uint64
			for i, v := range src {
				want := math.Exp(s * v)
				got := dst[i]
				if math.IsNaN(want) || math.IsInf(want, 0) || want == 0 || want < 0x1p-1022 {
					if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
						t.Fatalf("asm=%v s=%v: exp(%v) = %v, want %v", useAsm, s, s*v, got, want)
					}
					continue
				}
				if d := ulpDiff(got, want); d > worst {
					worst = d
					if d > 2 {
						t.Fatalf("asm=%v s=%v: exp(%v) = %v, want %v (%d ulps)", useAsm, s, s*v, got, want, d)
					}
				}
			}
			t.Logf("asm=%v s=%v: worst difference from math.Exp %d ulps over %d arguments", useAsm, s, worst, len(src))
		}
	}
	// Every length (tails) and in place.
	for n := 0; n <= 19; n++ {
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			src := make([]float64, n)
			for i := range src {
				src[i] = float64(i) * 3.7
			}
			if n > 5 {
				src[5] = 1000 // a fallback group in the middle
			}
			out := make([]float64, n+1)
			out[n] = 42
			expScaled(out, src, -0.5, hasExpAVX2)
			if out[n] != 42 {
				t.Fatalf("wrote past the end")
			}
			in := append([]float64(nil), src...)
			expScaled(in, in, -0.5, hasExpAVX2)
			for i, v := range src {
				want := math.Exp(-0.5 * v)
				if ulpDiff(out[i], want) > 2 || in[i] != out[i] {
					t.Fatalf("entry %d: %v (in place %v), want %v", i, out[i], in[i], want)
				}
			}
		})
	}
}

var (
	bigLn2Once sync.Once
	bigLn2     *big.Float
)

// bigExp returns exp(x) rounded to the nearest double, from a 256-bit
// evaluation: x = k ln 2 + r with |r| <= ln(2)/2, then the Taylor series of
// exp(r) to convergence (math/big has no exponential).
func bigExp(x float64) float64 {
	const prec = 256
	nf := func(v float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(v) }
	bigLn2Once.Do(func() {
		// ln 2 = sum_{j>=1} 1 / (j 2^j).
		bigLn2 = nf(0)
		for j := 1; j < 300; j++ {
			t := nf(1)
			t.SetMantExp(t, -j)
			bigLn2.Add(bigLn2, t.Quo(t, nf(float64(j))))
		}
	})
	ln2 := bigLn2
	k := math.Round(x / math.Ln2)
	r := nf(x)
	r.Sub(r, new(big.Float).SetPrec(prec).Mul(nf(k), ln2))
	sum, term := nf(1), nf(1)
	for j := 1; j < 80; j++ {
		term.Mul(term, r)
		term.Quo(term, nf(float64(j)))
		sum.Add(sum, term)
	}
	sum.SetMantExp(sum, int(k))
	v, _ := sum.Float64()
	return v
}

// TestExpScaledAccuracy measures the kernel against exp evaluated in 256
// bits and rounded: at most 2 units in the last place (the polynomial
// and the final rounding each contribute about half a unit of the value's
// binade, twice that for results just below a power of two).
func TestExpScaledAccuracy(t *testing.T) {
	if !hasExpAVX2 {
		t.Skip("no AVX2+FMA kernel on this machine")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	src := make([]float64, 20000)
	for i := range src {
		src[i] = -708 + 1417*rng.Float64()
		if i%2 == 0 {
			src[i] = -30 * rng.Float64() // the RBF range
		}
	}
	dst := make([]float64, len(src))
	expScaled(dst, src, 1, true)
	var worst, worstLib uint64
	for i, x := range src {
		want := bigExp(x)
		worst = max(worst, ulpDiff(dst[i], want))
		worstLib = max(worstLib, ulpDiff(math.Exp(x), want))
	}
	t.Logf("worst error %d ulps (math.Exp: %d) over %d arguments", worst, worstLib, len(src))
	if worst > 2 {
		t.Fatalf("worst error %d ulps, want at most 2", worst)
	}
}

// BenchmarkExp compares the kernel with math.Exp on 4096 arguments of the
// RBF range.
func BenchmarkExp(b *testing.B) {
	src := make([]float64, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range src {
		src[i] = 40 * rng.Float64()
	}
	dst := make([]float64, len(src))
	for _, v := range []struct {
		name string
		asm  bool
	}{{"math", false}, {"avx2", true}} {
		if v.asm && !hasExpAVX2 {
			continue
		}
		b.Run("impl="+v.name, func(b *testing.B) {
			b.SetBytes(8 * int64(len(src)))
			for b.Loop() {
				expScaled(dst, src, -1, v.asm)
			}
		})
	}
}
