package linalg

import (
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// SquaredDistances sets dst to the n x n matrix of squared Euclidean
// distances ||x_i - x_j||^2 between the rows of x, both triangles stored
// and a zero diagonal. Each distance is summed directly over the
// coordinate differences, so it has no cancellation (unlike the
// ||x||^2 + ||z||^2 - 2 x.z identity the RBF Gram matrix uses) and is
// bitwise the value MedianGamma ranks (up to the power of two by which
// both scale data of extreme magnitude, see below). Rows are split across goroutines;
// on amd64 processors with AVX2 each instruction works on four pairs, every
// lane summing over the coordinates in the same order with no fused
// multiply-add, so the values are the same bits on every processor.
// An empty dst is resized; otherwise it must be n x n and must not share
// storage with x.
//
// Data whose largest entry is beyond about 1e150 or below about 1e-30 are
// squared after scaling by an exact power of two and each distance is
// scaled back with one rounding: a distance below the normal range is then
// the accurate sum rounded once to a subnormal (or 0), not a sum of
// underflowed squares.
// If a squared distance overflows float64, SquaredDistances fails with
// ErrDegenerate (scale the data) instead of storing +Inf; the contents of
// dst are then unspecified.
//
// Together with MedianGammaOf and RBFFromDistances it builds the RBF
// kernel with the median bandwidth from one pass over the pairs, which is
// what a caller that needs both wants: on the 351 x 34 ionosphere data it
// replaces the product kernel of Gram and the second pass of MedianGamma.
func SquaredDistances(ctx context.Context, dst *mat.SymDense, x *mat.Dense) error {
	const op = "SquaredDistances"
	if err := checkCtx(op, ctx); err != nil {
		return err
	}
	if dst == nil {
		return newErr(ErrShape, op, "destination is nil")
	}
	n, p, maxAbs, err := checkDataMax(op, x)
	if err != nil {
		return err
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	} else if dst.SymmetricDim() != n {
		return newErr(ErrShape, op, "destination is %dx%d, want %dx%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n)
	} else if overlaps(dst.RawSymmetric().Data, x.RawMatrix().Data) {
		return newErr(ErrShape, op, "destination shares storage with the data")
	}
	out := dst.RawSymmetric()
	e := rangeScale(maxAbs, 4*p)
	if e != 0 {
		x = scaledCopy(x, e)
	}
	if err := squaredDistancesInto(ctx, out.Data, out.Stride, x.RawMatrix(), hasPairsAVX2); err != nil {
		return ctxErr(op, err)
	}
	if e == 0 {
		return nil
	}
	for i := 0; i < n; i++ {
		row := out.Data[i*out.Stride : i*out.Stride+n]
		for j, v := range row {
			if row[j] = math.Ldexp(v, 2*e); math.IsInf(row[j], 1) {
				return newErr(ErrDegenerate, op,
					"the squared distance between rows %d and %d (about %s) overflows float64 (entries up to %.3g); scale the data down",
					i, j, fmtPow2(v, 2*e), maxAbs)
			}
		}
	}
	return nil
}

// MedianGammaOf returns 1/median of the strict upper triangle of a
// squared-distance matrix d (as SquaredDistances computes it): the exact
// median heuristic of MedianGamma, without recomputing the distances. It
// needs n(n-1)/2 values of scratch. The entries must be finite and
// non-negative; a zero median (too many duplicate points, or distances
// that underflowed) or one that gives no finite gamma is an ErrDegenerate
// error, as for MedianGamma.
func MedianGammaOf(d *mat.SymDense) (float64, error) {
	const op = "MedianGammaOf"
	if d == nil || d.IsEmpty() {
		return 0, newErr(ErrEmpty, op, "distance matrix is empty")
	}
	n := d.SymmetricDim()
	if n < 2 {
		return 0, newErr(ErrEmpty, op, "need at least 2 points, got %d", n)
	}
	raw := d.RawSymmetric()
	rows := make([][]float64, n-1) // the strict upper triangle, row by row
	for i := range rows {
		rows[i] = raw.Data[i*raw.Stride+i+1 : i*raw.Stride+n]
	}
	m := n * (n - 1) / 2
	med, ok, valid := bracketMedian(rows, m)
	if !ok || !valid {
		// Not validated by a complete pass: check, then select over a copy.
		for i, row := range rows {
			for j, x := range row {
				if !(x >= 0 && x <= math.MaxFloat64) {
					return 0, newErr(ErrNonFinite, op, "entry (%d,%d) is %v, want a finite squared distance", i, i+1+j, x)
				}
			}
		}
		v := make([]float64, 0, m)
		for _, row := range rows {
			v = append(v, row...)
		}
		return medianGamma(op, v, 0)
	}
	if med == 0 {
		return 0, newErr(ErrDegenerate, op,
			"the median squared distance is 0: more than half of the pairs of points coincide, "+
				"or their squared distances underflowed (MedianGamma, which works on the data, scales it first)")
	}
	return gammaScaled(op, "median", med, 0)
}

// bracketMedian finds the median of the m values in rows (the mean of the
// two middle values for even m) without copying them all:
// two bounds read off a strided sample bracket the middle closely,
// one pass counts the values below the bracket (keeping their maximum) and
// gathers those inside it, and the middle is selected among the few
// gathered. It reports false when the bracket misses the middle or there
// are too few values for sampling to pay; the caller then selects over a
// full copy. The result is exactly the median either way. valid is false
// if the pass met a value outside [+0, MaxFloat64] (negative, -0, infinite
// or NaN); the caller then checks the values itself.
//
// The pass has no branch to mispredict (about half the values fall below
// the bracket, at random): with AVX2 it compares four values at a time and
// packs those inside the bracket with a permutation; the portable loop
// compares bit patterns (for values in [+0, MaxFloat64] the order of the
// IEEE bits as unsigned integers is the order of the numbers, so every
// test is a subtraction and a shift). The sample's bounds are found by
// selection, not sorting.
func bracketMedian(rows [][]float64, m int) (med float64, ok, valid bool) {
	return bracketMedianPath(rows, m, hasPairsAVX2)
}

// bracketMedianPath is bracketMedian with the pass made by the AVX2 kernel
// bracketRow (useAsm, only when hasPairsAVX2) or by the portable loop.
// Both give the same median; they differ only in what they call valid
// (the kernel compares floats and lets -0 through).
func bracketMedianPath(rows [][]float64, m int, useAsm bool) (med float64, ok, valid bool) {
	const ns, margin = 1024, 48
	if m < 16*ns {
		return 0, false, true
	}
	var sample [ns]float64
	step := m / ns
	// Walk the rows to pick every step-th value.
	next, pos, s := 0, 0, 0
	for _, row := range rows {
		if s == ns {
			break
		}
		for next < pos+len(row) && s < ns {
			sample[s] = row[next-pos]
			s++
			next += step
		}
		pos += len(row)
	}
	var sampleMax uint64
	for _, v := range sample[:s] {
		sampleMax = max(sampleMax, math.Float64bits(v))
	}
	if sampleMax >= infBits {
		return 0, false, false
	}
	k := m / 2
	r := int(int64(k) * int64(s) / int64(m))
	ilo, ihi := max(r-margin, 0), min(r+margin, s-1)
	selectFloat(sample[:s], ihi)
	selectFloat(sample[:ihi], ilo) // the ihi smallest values come first
	plo, phi := sample[ilo], sample[ihi]
	lo, hi := math.Float64bits(plo), math.Float64bits(phi)

	var below int
	var maxBelow, all uint64 // bits of the largest value below lo; of any value
	// About 2 margin/ns of the values fall inside the bracket; room for
	// 25% more than that (the buffer grows in the rare case of more).
	mid := make([]float64, 5*m/ns*margin/2)
	cnt := 0
	for _, row := range rows {
		if cnt+len(row)+4 > len(mid) {
			// Many values inside the bracket (ties): make room for a row
			// and the four-value stores of the kernel.
			grown := make([]float64, 2*len(mid)+len(row)+4)
			copy(grown, mid[:cnt])
			mid = grown
		}
		if n4 := len(row) &^ 3; useAsm && n4 > 0 {
			b, mb, c, v := bracketRow(&row[0], n4, plo, phi, &mid[cnt])
			if v == 0 {
				return 0, false, false
			}
			below += b
			if mb > 0 { // not ±0: the bits then order as the values
				maxBelow = max(maxBelow, math.Float64bits(mb))
			}
			cnt += c
			row = row[n4:]
		}
		for _, x := range row {
			b := math.Float64bits(x)
			all = max(all, b)
			// With b, lo and hi below 1<<63, the top bit of b-lo is set
			// exactly when b < lo, and that of hi-b when b > hi.
			lt := (b - lo) >> 63
			gt := (hi - b) >> 63
			below += int(lt)
			maxBelow = max(maxBelow, b&-lt)
			mid[cnt] = x // kept only when inside: cnt advances by 0 or 1
			cnt += int(1 ^ (lt | gt))
		}
	}
	if all >= infBits {
		return 0, false, false
	}
	kk := k - below
	if kk < 0 || kk >= cnt {
		return 0, false, true
	}
	mid = mid[:cnt]
	selectFloat(mid, kk)
	med = mid[kk]
	if m%2 == 0 {
		// kk = 0 needs a value below the bracket: k >= 1 of them then.
		lower := math.Float64frombits(maxBelow)
		if kk > 0 {
			lower = slices.Max(mid[:kk])
		}
		med = 0.5 * (lower + med)
	}
	return med, true, true
}

// infBits is the bit pattern of +Inf: the bits of a float64 in
// [+0, MaxFloat64] are exactly the unsigned integers below it.
const infBits = 0x7ff0000000000000

// RBFFromDistances sets dst to the RBF kernel exp(-gamma d_ij) of the
// squared distances d (dst may be d itself: the update is in place). The
// diagonal is set to exactly 1. An empty dst is resized. With AVX2 and FMA
// the exponentials are evaluated four at a time (see GramTo); the entries
// may then differ from math.Exp(-gamma*d_ij) in the last two bits.
func RBFFromDistances(dst, d *mat.SymDense, gamma float64) error {
	const op = "RBFFromDistances"
	if d == nil || d.IsEmpty() {
		return newErr(ErrEmpty, op, "distance matrix is empty")
	}
	if dst == nil {
		return newErr(ErrShape, op, "destination is nil")
	}
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		return newErr(ErrSettings, op, "gamma must be positive and finite, got %v", gamma)
	}
	n := d.SymmetricDim()
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	} else if dst.SymmetricDim() != n {
		return newErr(ErrShape, op, "destination is %dx%d, want %dx%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n)
	}
	src, out := d.RawSymmetric(), dst.RawSymmetric()
	if &src.Data[0] != &out.Data[0] && overlaps(src.Data, out.Data) {
		return newErr(ErrShape, op, "destination overlaps the distances without being the same matrix")
	}
	// Validate everything before writing anything: dst may be d. A
	// branch-free scan finds whether any entry may be outside
	// [0, MaxFloat64]; only then are the entries tested one by one.
	if !allDistancesUpper(src.Data, src.Stride, n) {
		for i := 0; i < n-1; i++ {
			for j, v := range src.Data[i*src.Stride+i+1 : i*src.Stride+n] {
				if !(v >= 0 && v <= math.MaxFloat64) {
					return newErr(ErrNonFinite, op, "entry (%d,%d) is %v, want a finite squared distance", i, i+1+j, v)
				}
			}
		}
	}
	// Each kernel value goes to both triangles as it is computed; the
	// tiles keep the column writes of the lower triangle in cache. Row i
	// reads only entries right of the diagonal and writes the lower
	// triangle only below it, so d may be dst.
	const jb = 128
	err := parallelFor(context.Background(), n, 16, noState, func(_ struct{}, lo, hi int) {
		for i := lo; i < hi; i++ {
			out.Data[i*out.Stride+i] = 1
		}
		for j0 := lo + 1; j0 < n; j0 += jb {
			j1 := min(j0+jb, n)
			for i := lo; i < min(hi, j1-1); i++ {
				c0 := max(j0, i+1)
				s := src.Data[i*src.Stride+c0 : i*src.Stride+j1]
				o := out.Data[i*out.Stride+c0 : i*out.Stride+j1]
				low := out.Data[c0*out.Stride+i:]
				expScaled(o, s, -gamma, hasExpAVX2)
				for c, e := range o {
					low[c*out.Stride] = e
				}
			}
		}
	})
	if err != nil {
		return ctxErr(op, err)
	}
	return nil
}
