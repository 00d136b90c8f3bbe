package linalg

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// pairsData returns an n x p view (row stride p+3) of data chosen so that
// a fused multiply-add or a changed summation order would change low bits:
// normal coordinates around a large common offset in some columns (the
// differences then carry few significant bits and their squares round),
// values spread over many binades, and a few repeated rows (zero
// distances).
func pairsData(seed uint64, n, p int) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 0xd15))
	full := mat.NewDense(n, p+3, nil)
	for i := 0; i < n; i++ {
		for k := 0; k < p; k++ {
			v := rng.NormFloat64()
			switch k % 3 {
			case 1:
				v = 1e6 + v
			case 2:
				v *= math.Ldexp(1, rng.IntN(40)-20)
			}
			full.Set(i, k+1, v)
		}
	}
	x := full.Slice(0, n, 1, p+1).(*mat.Dense)
	for c := 0; c < n/5; c++ { // about a fifth of the rows repeat another
		x.SetRow(rng.IntN(n), x.RawRowView(rng.IntN(n))[:p])
	}
	return x
}

// TestSquaredDistancesPaths runs the portable and (where the processor has
// AVX2) the assembly distance loops on the same data and requires both
// triangles of both to be bitwise the scalar sqDist of the two rows, and
// the paths to agree with each other, over odd sizes that exercise every
// remainder of the four- and sixteen-column groups and views whose row
// stride exceeds p. The storage also has a stride larger than n, and a
// sentinel in the extra columns checks that nothing is written outside the
// matrix.
func TestSquaredDistancesPaths(t *testing.T) {
	ctx := context.Background()
	paths := []bool{false}
	if hasPairsAVX2 {
		paths = append(paths, true)
	} else {
		t.Log("no AVX2 kernel on this build or processor: portable path only")
	}
	for _, n := range []int{1, 2, 3, 5, 17, 351} {
		for _, p := range []int{1, 2, 3, 7, 34} {
			x := pairsData(uint64(100*n+p), n, p)
			raw := x.RawMatrix()
			stride := n + 2
			var results [][]float64
			for _, useAsm := range paths {
				out := make([]float64, n*stride)
				for i := range out {
					out[i] = math.NaN() // every entry of the matrix must be written
				}
				if err := squaredDistancesInto(ctx, out, stride, raw, useAsm); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < n; i++ {
					for j := 0; j < stride; j++ {
						got := out[i*stride+j]
						if j >= n {
							if !math.IsNaN(got) {
								t.Fatalf("n=%d p=%d asm=%v: wrote %v outside the matrix at (%d,%d)", n, p, useAsm, got, i, j)
							}
							continue
						}
						want := sqDist(x.RawRowView(min(i, j))[:p], x.RawRowView(max(i, j))[:p])
						if math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("n=%d p=%d asm=%v: d(%d,%d) = %v, want %v (bitwise)", n, p, useAsm, i, j, got, want)
						}
					}
				}
				results = append(results, out)
			}
			if len(results) == 2 && !slices.EqualFunc(results[0], results[1], func(a, b float64) bool {
				return math.Float64bits(a) == math.Float64bits(b)
			}) {
				t.Fatalf("n=%d p=%d: assembly and portable paths differ", n, p)
			}
		}
	}
}

// TestPairDistsT checks the assembly kernel wrapper alone against a plain
// scalar loop over the same transposed data, bitwise, for every start
// column and length up to 40 (so 16-column groups, 4-column groups and the
// one-to-three column remainder all occur at every alignment).
func TestPairDistsT(t *testing.T) {
	if !hasPairsAVX2 {
		t.Skip("no AVX2 kernel on this build or processor")
	}
	for _, p := range []int{1, 2, 5, 34} {
		n := 45 // start columns 0..44 with lengths to 40: all alignments and remainders
		x := pairsData(uint64(p), n, p)
		raw := x.RawMatrix()
		ld := n + pairPad
		xt := transposeRows(raw, ld)
		a := pairsData(uint64(p)+7, 1, p).RawRowView(0)[:p]
		for j0 := 0; j0 < n; j0++ {
			for m := 0; j0+m <= n && m <= 40; m++ {
				dst := make([]float64, m+1)
				dst[m] = -1 // sentinel after the end
				pairDistsT(dst[:m], a, xt, ld, p, j0)
				for c := 0; c < m; c++ {
					want := sqDist(a, x.RawRowView(j0 + c)[:p])
					if math.Float64bits(dst[c]) != math.Float64bits(want) {
						t.Fatalf("p=%d j0=%d m=%d: column %d = %v, want %v", p, j0, m, c, dst[c], want)
					}
				}
				if dst[m] != -1 {
					t.Fatalf("p=%d j0=%d m=%d: wrote past the end", p, j0, m)
				}
			}
		}
	}
}

// TestBracketMedian compares the bracketed median with a full sort,
// bitwise, on value sets that stress it: continuous values, heavy ties
// (a few distinct values, so the bracket holds many equal values and its
// buffer must grow), a single repeated value, odd and even counts, rows of
// uneven length (every remainder of the four-value groups), and -0 entries
// (a pass may leave those to the caller's exact path by calling them not
// valid; if it accepts them, it must still find the median), on both
// passes.
func TestBracketMedian(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	gens := []struct {
		name string
		gen  func() float64
	}{
		{"continuous", func() float64 { return rng.ExpFloat64() }},
		{"ties", func() float64 { return float64(rng.IntN(7)) }},
		{"constant", func() float64 { return 2.5 }},
		{"zeros and ones", func() float64 { return float64(rng.IntN(2)) }},
		{"signed zeros and more", func() float64 {
			if rng.IntN(4) == 0 {
				return math.Copysign(0, -1)
			}
			return 1 + rng.Float64()
		}},
	}
	paths := []bool{false}
	if hasPairsAVX2 {
		paths = append(paths, true)
	}
	for _, g := range gens {
		// 16384 = 16 x 1024 is the smallest count bracketed (below it the
		// caller selects directly); odd and even counts on both sizes.
		for _, m := range []int{16384, 16385, 40000, 40001} {
			v := make([]float64, m)
			for i := range v {
				v[i] = g.gen()
			}
			// Split into rows of decreasing length, like a strict upper
			// triangle, the last row taking what is left.
			var rows [][]float64
			for off, l := 0, 300; off < m; off, l = off+l, max(l-1, 1) {
				rows = append(rows, v[off:min(off+l, m)])
			}
			s := slices.Clone(v)
			slices.Sort(s)
			want := s[m/2]
			if m%2 == 0 {
				want = 0.5 * (s[m/2-1] + s[m/2])
			}
			negZero := slices.ContainsFunc(v, func(x float64) bool { return x == 0 && math.Signbit(x) })
			for _, useAsm := range paths {
				med, ok, valid := bracketMedianPath(rows, m, useAsm)
				switch {
				case !valid && !negZero:
					t.Fatalf("%s m=%d asm=%v: valid data reported invalid", g.name, m, useAsm)
				case ok && valid && med != want: // numeric: -0 == +0
					t.Fatalf("%s m=%d asm=%v: median %v, want %v", g.name, m, useAsm, med, want)
				case !ok && valid && g.name != "constant":
					// The bracket is three standard deviations of the
					// sample quantile wide on each side: missing it on
					// these draws would mean a broken bracket. (All
					// values equal put the middle below nothing and
					// inside the bracket; that is fine too.)
					t.Errorf("%s m=%d asm=%v: bracket missed", g.name, m, useAsm)
				}
			}
			// medianGamma (the MedianGamma path) on the same values.
			if want > 0 {
				gm, err := medianGamma("test", slices.Clone(v), 0)
				if err != nil || gm != 1/want {
					t.Errorf("%s m=%d: medianGamma %v (%v), want %v", g.name, m, gm, err, 1/want)
				}
			}
		}
	}
}

// TestBracketRowInvalid: both passes flag NaN, infinities and negative
// values wherever they sit in a row (inside a four-value group of the
// kernel or in the remainder).
func TestBracketRowInvalid(t *testing.T) {
	paths := []bool{false}
	if hasPairsAVX2 {
		paths = append(paths, true)
	}
	const m = 16384 + 3 // bracketed (at least 16 x 1024 values), odd
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -math.SmallestNonzeroFloat64} {
		for _, at := range []int{0, 1, 2, 3, 5, 8190, m - 2, m - 1} {
			v := make([]float64, m)
			for i := range v {
				v[i] = float64(i % 101)
			}
			v[at] = bad
			rows := [][]float64{v[:8191], v[8191:]} // 8191 = 4*2047 + 3
			for _, useAsm := range paths {
				if _, _, valid := bracketMedianPath(rows, m, useAsm); valid {
					t.Errorf("%v at %d asm=%v: not flagged", bad, at, useAsm)
				}
			}
		}
	}
}

// TestAllDistancesUpper: the validation scan of RBFFromDistances accepts
// valid triangles (whatever the diagonal and lower triangle hold) and
// rejects each kind of invalid entry at every position of a row (inside
// the kernel's four-value groups and in the remainder), on both paths.
func TestAllDistancesUpper(t *testing.T) {
	paths := []bool{false}
	if hasPairsAVX2 {
		paths = append(paths, true)
	}
	// Rows of the strict upper triangle hold 10 down to 1 values: every
	// remainder modulo 4, with and without whole four-value groups.
	const n, stride = 11, 13
	base := make([]float64, n*stride)
	for i := range base {
		base[i] = float64(i % 17)
	}
	for i := 0; i < n; i++ {
		base[i*stride+i] = math.NaN() // diagonal: not part of the check
		if i > 0 {
			base[i*stride] = -1 // lower triangle: not part of the check
		}
	}
	base[2*stride+5] = math.MaxFloat64
	for _, useAsm := range paths {
		if !allDistancesUpperPath(base, stride, n, useAsm) {
			t.Fatalf("asm=%v: valid triangle rejected", useAsm)
		}
		for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -math.SmallestNonzeroFloat64} {
			for i := 0; i < n-1; i++ {
				for j := i + 1; j < n; j++ {
					d := slices.Clone(base)
					d[i*stride+j] = bad
					if allDistancesUpperPath(d, stride, n, useAsm) {
						t.Fatalf("asm=%v: %v at (%d,%d) accepted", useAsm, bad, i, j)
					}
				}
			}
		}
	}
}

// TestMedianGammaOfNegativeZero: -0 entries are valid squared distances
// (-0 >= 0); the fast bit-pattern scans must not reject them.
func TestMedianGammaOfNegativeZero(t *testing.T) {
	for _, n := range []int{20, 200} { // below and above the bracketing threshold
		var d mat.SymDense
		if err := SquaredDistances(context.Background(), &d, randNormal(3, n, 2)); err != nil {
			t.Fatal(err)
		}
		g0, err := MedianGammaOf(&d)
		if err != nil {
			t.Fatal(err)
		}
		e := mat.NewSymDense(n, nil)
		e.CopySym(&d)
		e.SetSym(0, 1, math.Copysign(0, -1))
		f := mat.NewSymDense(n, nil)
		f.CopySym(&d)
		f.SetSym(0, 1, 0)
		gNeg, errNeg := MedianGammaOf(e)
		gPos, errPos := MedianGammaOf(f)
		if errNeg != nil || errPos != nil || gNeg != gPos || !(gNeg > 0) {
			t.Errorf("n=%d: with -0 %v (%v), with +0 %v (%v) (original %v)", n, gNeg, errNeg, gPos, errPos, g0)
		}
		if err := RBFFromDistances(e, e, g0); err != nil {
			t.Errorf("n=%d: RBFFromDistances rejects -0: %v", n, err)
		} else if e.At(0, 1) != 1 || e.RawSymmetric().Data[1*n+0] != 1 {
			t.Errorf("n=%d: exp(-g * -0) stored as %v, %v; want 1", n, e.At(0, 1), e.RawSymmetric().Data[n])
		}
	}
}

// TestRBFFromDistancesTriangles: both triangles hold the same value, within
// 2 units in the last place of math.Exp(-gamma d_ij), of the upper triangle
// of d (whatever d's lower triangle holds), in place and into another matrix, for sizes on both
// sides of the column tile; an invalid entry leaves an in-place d
// untouched, bit for bit.
func TestRBFFromDistancesTriangles(t *testing.T) {
	for _, n := range []int{1, 2, 3, 17, 130, 300} {
		var d mat.SymDense
		if err := SquaredDistances(context.Background(), &d, pairsData(uint64(n), n, 5)); err != nil {
			t.Fatal(err)
		}
		raw := d.RawSymmetric()
		for i := 1; i < n; i++ {
			raw.Data[i*raw.Stride] = -7 // lower triangle: never read
		}
		const gamma = 1e-6 // the data has a 1e6 offset in some columns
		for _, inPlace := range []bool{false, true} {
			src := mat.NewSymDense(n, nil)
			copy(src.RawSymmetric().Data, raw.Data)
			dst := src
			if !inPlace {
				dst = &mat.SymDense{}
			}
			if err := RBFFromDistances(dst, src, gamma); err != nil {
				t.Fatal(err)
			}
			out := dst.RawSymmetric()
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					want := 1.0
					if i != j {
						want = math.Exp(-gamma * raw.Data[min(i, j)*raw.Stride+max(i, j)])
					}
					got := out.Data[i*out.Stride+j]
					if ulpDiff(got, want) > 2 || math.Float64bits(got) != math.Float64bits(out.Data[j*out.Stride+i]) {
						t.Fatalf("n=%d in place=%v: K(%d,%d) = %v and K(%d,%d) = %v, want both %v (within 2 ulps)",
							n, inPlace, i, j, got, j, i, out.Data[j*out.Stride+i], want)
					}
				}
			}
		}
		if n < 2 {
			continue
		}
		for _, bad := range []float64{math.NaN(), -1, math.Inf(1)} {
			src := mat.NewSymDense(n, nil)
			copy(src.RawSymmetric().Data, raw.Data)
			src.SetSym(min(n/2, n-2), n-1, bad) // off the diagonal, which is not read
			before := slices.Clone(src.RawSymmetric().Data)
			err := RBFFromDistances(src, src, gamma)
			if !errors.Is(err, ErrNonFinite) {
				t.Fatalf("n=%d: %v entry: %v, want ErrNonFinite", n, bad, err)
			}
			if !slices.EqualFunc(before, src.RawSymmetric().Data, func(a, b float64) bool {
				return math.Float64bits(a) == math.Float64bits(b)
			}) {
				t.Fatalf("n=%d: failed in-place call modified d", n)
			}
		}
	}
}

// TestSquaredDistancesCancel: a cancelled context stops both paths.
func TestSquaredDistancesCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	x := randNormal(1, 100, 3)
	for _, useAsm := range []bool{false, hasPairsAVX2} {
		out := make([]float64, 100*100)
		err := squaredDistancesInto(ctx, out, 100, x.RawMatrix(), useAsm)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("asm=%v: %v, want context.Canceled", useAsm, err)
		}
	}
}

// BenchmarkSquaredDistances times the pairwise squared distances, the
// first step of the fused RBF kernel build (n = 351, p = 34 is the shape of
// the ionosphere data).
func BenchmarkSquaredDistances(b *testing.B) {
	for _, s := range []struct{ n, p int }{{351, 34}, {2000, 10}} {
		b.Run(fmt.Sprintf("n=%d/p=%d", s.n, s.p), func(b *testing.B) {
			x := randNormal(3, s.n, s.p)
			dst := mat.NewSymDense(s.n, nil)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := SquaredDistances(ctx, dst, x); err != nil {
					b.Fatal(err)
				}
			}
			sinkSym = dst
		})
	}
}

// BenchmarkRBFFromPairs times the three steps of the fused RBF kernel
// build separately and together: distances, median bandwidth, kernel in
// place.
func BenchmarkRBFFromPairs(b *testing.B) {
	for _, s := range []struct{ n, p int }{{351, 34}, {2000, 10}} {
		x := randNormal(3, s.n, s.p)
		ctx := context.Background()
		d := mat.NewSymDense(s.n, nil)
		if err := SquaredDistances(ctx, d, x); err != nil {
			b.Fatal(err)
		}
		g, err := MedianGammaOf(d)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("step=median/n=%d/p=%d", s.n, s.p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v, err := MedianGammaOf(d)
				if err != nil {
					b.Fatal(err)
				}
				sinkFloat = v
			}
		})
		b.Run(fmt.Sprintf("step=exp/n=%d/p=%d", s.n, s.p), func(b *testing.B) {
			k := mat.NewSymDense(s.n, nil)
			b.ReportAllocs()
			for b.Loop() {
				if err := RBFFromDistances(k, d, g); err != nil {
					b.Fatal(err)
				}
			}
			sinkSym = k
		})
		b.Run(fmt.Sprintf("step=all/n=%d/p=%d", s.n, s.p), func(b *testing.B) {
			k := mat.NewSymDense(s.n, nil)
			b.ReportAllocs()
			for b.Loop() {
				if err := SquaredDistances(ctx, k, x); err != nil {
					b.Fatal(err)
				}
				g, err := MedianGammaOf(k)
				if err != nil {
					b.Fatal(err)
				}
				if err := RBFFromDistances(k, k, g); err != nil {
					b.Fatal(err)
				}
			}
			sinkSym = k
		})
	}
}

// BenchmarkMedianGamma times the median heuristic where it samples pairs
// (more than DefaultMaxPairs of them): n = 1,500 at the widths of ssl_usps
// (p = 241) and ssl_text (p = 11,960), where the sample is read from the
// tiled pass over all pairs, and the 9,298 x 256 usps data, where the
// drawn pairs are measured one by one.
func BenchmarkMedianGamma(b *testing.B) {
	for _, s := range []struct{ n, p int }{{1500, 241}, {1500, 11960}, {9298, 256}} {
		b.Run(fmt.Sprintf("n=%d/p=%d", s.n, s.p), func(b *testing.B) {
			x := randNormal(3, s.n, s.p)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				g, err := MedianGamma(ctx, x, nil)
				if err != nil {
					b.Fatal(err)
				}
				sinkFloat = g
			}
		})
	}
}
