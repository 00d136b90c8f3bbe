package linalg

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// BandwidthOptions configures MedianGamma and MeanGamma. The zero value
// means: exact over all pairs when there are at most DefaultMaxPairs of
// them, otherwise a sample of DefaultMaxPairs pairs drawn with seed 0.
type BandwidthOptions struct {
	// MaxPairs is the largest number of distinct pairs i < j used exactly;
	// above it, MaxPairs pairs (i, j), i != j, are drawn uniformly with
	// replacement. Zero means DefaultMaxPairs; negative means always exact
	// (O(n^2) memory for the median). A sample takes up to 56 bytes a pair
	// while it is measured, beyond a copy of the data.
	MaxPairs int
	// Seed seeds the pair sampler (math/rand/v2 PCG).
	Seed uint64
}

// DefaultMaxPairs is the default pair budget of the bandwidth heuristics:
// exact for n up to 1448, and a sampling error of the median of roughly
// 1/sqrt(DefaultMaxPairs) ~ 0.1% in quantile otherwise.
const DefaultMaxPairs = 1 << 20

// MedianGamma returns gamma = 1/median of the squared pairwise distances
// ||x_i - x_j||^2 over pairs i < j (the median heuristic for the RBF width).
// It fails with ErrDegenerate if that median is 0 (more than half the pairs
// are duplicates).
//
// Data of any finite magnitude are handled: when the largest entry is
// beyond about 1e150 or below about 1e-30, the distances are computed on
// the data scaled by an exact power of two (a copy, O(n p)) and gamma is
// scaled back, so the median need not be representable, only gamma. When
// gamma itself leaves the float64 range (it would be 0 or +Inf: squared
// distances beyond about 1e308 or below about 1e-308), MedianGamma fails
// with ErrDegenerate saying so; scale the data. A gamma between 0 and the
// smallest normal float64 is returned as it is (subnormal, with fewer
// significant bits); Gram and Cross accept it.
func MedianGamma(ctx context.Context, x *mat.Dense, opt *BandwidthOptions) (float64, error) {
	return gammaHeuristic(ctx, "MedianGamma", x, opt, true)
}

// MeanGamma returns gamma = 1/mean of the squared pairwise distances over
// pairs i < j. The exact mean needs no pair storage: it equals
// 2n/(n-1) times the total variance (sum of column variances with divisor
// n); it is computed that way, in O(n p), whatever MaxPairs says. It fails
// with ErrDegenerate if all points coincide. Extreme magnitudes are handled
// as by MedianGamma.
func MeanGamma(ctx context.Context, x *mat.Dense, opt *BandwidthOptions) (float64, error) {
	return gammaHeuristic(ctx, "MeanGamma", x, opt, false)
}

func gammaHeuristic(ctx context.Context, op string, x *mat.Dense, opt *BandwidthOptions, median bool) (float64, error) {
	var o BandwidthOptions
	if opt != nil {
		o = *opt
	}
	if err := checkCtx(op, ctx); err != nil {
		return 0, err
	}
	n, p, maxAbs, err := checkDataMax(op, x)
	if err != nil {
		return 0, err
	}
	if n < 2 {
		return 0, newErr(ErrEmpty, op, "need at least 2 points, got %d", n)
	}
	// The sums of squares below have p terms (a distance) or n p (the
	// total variance).
	terms := 4 * p
	if !median {
		terms = n * p
	}
	e := rangeScale(maxAbs, terms)
	if e != 0 {
		x = scaledCopy(x, e)
	}
	raw := x.RawMatrix()
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+p] }
	if !median {
		mean := columnMean(raw, 1)
		var tv float64
		for i := 0; i < n; i++ {
			for d, v := range row(i) {
				c := v - mean[d]
				tv += c * c
			}
		}
		tv /= float64(n)
		m := 2 * float64(n) / float64(n-1) * tv
		if m == 0 {
			return 0, newErr(ErrDegenerate, op, "all points coincide")
		}
		return gammaScaled(op, "mean", m, 2*e)
	}
	maxPairs := o.MaxPairs
	if maxPairs == 0 {
		maxPairs = DefaultMaxPairs
	}
	total := n * (n - 1) / 2
	var d []float64
	if maxPairs < 0 || total <= maxPairs {
		d = make([]float64, total)
		// Rows in chunks across goroutines; pair (i, j), i < j, goes to
		// d[off(i) + j-i-1] so the array is the same whatever the split.
		err := parallelFor(ctx, n, 16, noState, func(_ struct{}, lo, hi int) {
			for i := lo; i < min(hi, n-1); i++ {
				off := i*n - i*(i+1)/2
				pairDists(d[off:off+n-i-1], row(i), raw.Data[(i+1)*raw.Stride:], raw.Stride, p)
			}
		})
		if err != nil {
			return 0, ctxErr(op, err)
		}
	} else {
		d = make([]float64, maxPairs)
		if err := sampledDists(ctx, d, raw, o.Seed, hasPairsAVX2); err != nil {
			return 0, ctxErr(op, err)
		}
	}
	return medianGamma(op, d, 2*e)
}

// sampledDists sets d[s] to the squared distance of the s-th pair (i, j),
// i != j, drawn uniformly with replacement from the rows of raw by the PCG
// sampler of seed. The pairs are drawn in order, so the values depend on
// the seed alone; they are bitwise sqDist's. When the pairs are not much
// fewer than all of them, every distance is computed by the tiled pass of
// SquaredDistances (AVX2 with useAsm) and the drawn ones read from it:
// that pass reuses each row from cache and is several times faster than
// one row pair at a time on high-dimensional data. Otherwise the drawn
// pairs are computed across goroutines.
func sampledDists(ctx context.Context, d []float64, raw blas64.General, seed uint64, useAsm bool) error {
	n, p := raw.Rows, raw.Cols
	rng := rand.New(rand.NewPCG(seed, 0x6a6d))
	pairs := make([]int, 2*len(d))
	for s := range d {
		i := rng.IntN(n)
		j := rng.IntN(n - 1)
		if j >= i {
			j++
		}
		pairs[2*s], pairs[2*s+1] = i, j
	}
	if total := n * (n - 1) / 2; total <= 2*len(d) {
		all := make([]float64, n*n)
		if err := squaredDistancesInto(ctx, all, n, raw, useAsm); err != nil {
			return err
		}
		for s := range d {
			d[s] = all[pairs[2*s]*n+pairs[2*s+1]]
		}
		return nil
	}
	row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+p] }
	return parallelFor(ctx, len(d), 1<<12, noState, func(_ struct{}, lo, hi int) {
		for s := lo; s < hi; s++ {
			d[s] = sqDist(row(pairs[2*s]), row(pairs[2*s+1]))
		}
	})
}

// medianGamma returns 1/(median 2^e2) for the values d (all finite or
// +Inf), which it may reorder: the squared distances of data scaled by
// 2^(-e2/2).
func medianGamma(op string, d []float64, e2 int) (float64, error) {
	med, ok, _ := bracketMedian([][]float64{d}, len(d))
	if !ok {
		// Too few values to sample, a missed bracket or an overflowed
		// distance: plain selection, O(m) expected rather than the
		// O(m log m) of a sort.
		m := len(d)
		selectFloat(d, m/2)
		med = d[m/2]
		if m%2 == 0 {
			// d[:m/2] now holds the m/2 smallest values; the lower middle is their maximum.
			med = 0.5 * (slices.Max(d[:m/2]) + med)
		}
	}
	if med == 0 {
		return 0, newErr(ErrDegenerate, op,
			"the median squared distance is 0: more than half of the pairs of points coincide "+
				"(or differ by less than about %s, whose squares underflow)", fmtPow2(1, e2/2-537))
	}
	return gammaScaled(op, "median", med, e2)
}

// gammaScaled returns gamma = 1/(m 2^e2) for a positive typical squared
// distance m 2^e2 (what says which: median or mean), or an ErrDegenerate
// error when gamma is 0 or beyond the float64 range, where the RBF kernel
// would be invalid. A subnormal gamma is returned.
func gammaScaled(op, what string, m float64, e2 int) (float64, error) {
	mm, me := math.Frexp(m) // m = mm 2^me, 1/mm in (1, 2]
	g := math.Ldexp(1/mm, -me-e2)
	if g > 0 && !math.IsInf(g, 1) && isFinite(m) {
		return g, nil
	}
	how := "overflows"
	if g == 0 || !isFinite(m) {
		how = "underflows to 0 in"
	}
	return 0, newErr(ErrDegenerate, op,
		"the %s squared distance is about %s, so gamma = 1/(that) %s float64; scale the data",
		what, fmtPow2(m, e2), how)
}

// pairDists sets dst[j] to the squared distance between a and the j-th row
// (stride apart, p columns) of rows. Four rows at a time run as independent
// sums, each in the order sqDist uses, so every value is bitwise that of
// sqDist but the additions no longer wait on one another.
func pairDists(dst, a, rows []float64, stride, p int) {
	a = a[:p]
	j := 0
	for ; j+4 <= len(dst); j += 4 {
		r0 := rows[j*stride : j*stride+p]
		r1 := rows[(j+1)*stride : (j+1)*stride+p]
		r2 := rows[(j+2)*stride : (j+2)*stride+p]
		r3 := rows[(j+3)*stride : (j+3)*stride+p]
		var s0, s1, s2, s3 float64
		for k, v := range a {
			t0, t1, t2, t3 := v-r0[k], v-r1[k], v-r2[k], v-r3[k]
			s0 += float64(t0 * t0)
			s1 += float64(t1 * t1)
			s2 += float64(t2 * t2)
			s3 += float64(t3 * t3)
		}
		dst[j], dst[j+1], dst[j+2], dst[j+3] = s0, s1, s2, s3
	}
	for ; j < len(dst); j++ {
		dst[j] = sqDist(a, rows[j*stride:j*stride+p])
	}
}

// selectFloat is selectKth for plain float64 values (no key function in
// the inner loops): quickselect with a median-of-three pivot.
func selectFloat(a []float64, k int) {
	lo, hi := 0, len(a)-1
	for lo < hi {
		m := lo + (hi-lo)/2
		if a[m] < a[lo] {
			a[m], a[lo] = a[lo], a[m]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[m] {
			a[hi], a[m] = a[m], a[hi]
		}
		pv := a[m]
		i, j := lo, hi
		for i <= j {
			for a[i] < pv {
				i++
			}
			for a[j] > pv {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
