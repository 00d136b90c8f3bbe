package linalg

import (
	"context"
	"math"
	"slices"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// SquaredDistances sets dst to the n x n matrix of squared Euclidean
// distances ||x_i - x_j||^2 between the rows of x, both triangles stored
// and a zero diagonal. Each distance is summed directly over the
// coordinate differences, so it has no cancellation (unlike the
// ||x||^2 + ||z||^2 - 2 x.z identity the RBF Gram matrix uses) and is
// bitwise the value MedianGamma ranks. Rows are split across goroutines.
// An empty dst is resized; otherwise it must be n x n and must not share
// storage with x.
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
	n, p, err := checkData(op, x)
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
	raw := x.RawMatrix()
	out := dst.RawSymmetric()
	err = parallelFor(ctx, n, 16, func() struct{} { return struct{}{} }, func(_ struct{}, lo, hi int) {
		for i := lo; i < hi; i++ {
			row := out.Data[i*out.Stride : i*out.Stride+n]
			row[i] = 0
			if i < n-1 {
				pairDists(row[i+1:], raw.Data[i*raw.Stride:i*raw.Stride+p], raw.Data[(i+1)*raw.Stride:], raw.Stride, p)
			}
		}
	})
	if err != nil {
		return ctxErr(op, err)
	}
	mirrorLowerParallel(out.Data, out.Stride, n)
	return nil
}

// MedianGammaOf returns 1/median of the strict upper triangle of a
// squared-distance matrix d (as SquaredDistances computes it): the exact
// median heuristic of MedianGamma, without recomputing the distances. It
// needs n(n-1)/2 values of scratch. The entries must be finite and
// non-negative; a zero median (too many duplicate points) or one that gives
// no finite gamma is an ErrDegenerate error, as for MedianGamma.
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
		return medianGamma(op, v)
	}
	if med == 0 {
		return 0, newErr(ErrDegenerate, op, "median squared distance is 0 (too many duplicate points)")
	}
	return gammaOf(op, med)
}

// bracketMedian finds the median of the m values in rows (the mean of the
// two middle values for even m) without copying them all:
// two bounds read off a sorted strided sample bracket the middle closely,
// one pass counts the values below the bracket (keeping their maximum) and
// gathers those inside it, and the middle is selected among the few
// gathered. It reports false when the bracket misses the middle or there
// are too few values for sampling to pay; the caller then selects over a
// full copy. The result is exactly the median either way. valid is false
// if the pass met a negative, infinite or NaN value (the caller then
// reports it).
func bracketMedian(rows [][]float64, m int) (med float64, ok, valid bool) {
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
	slices.Sort(sample[:s])
	k := m / 2
	r := int(int64(k) * int64(s) / int64(m))
	plo, phi := sample[max(r-margin, 0)], sample[min(r+margin, s-1)]
	if !(plo >= 0 && phi <= math.MaxFloat64) {
		return 0, false, false
	}
	below := 0
	maxBelow := math.Inf(-1)
	mid := make([]float64, 0, 4*m/ns*margin)
	for _, row := range rows {
		for _, x := range row {
			// Every branch also validates: x < plo must be >= 0, and
			// anything above phi must be finite (NaN fails every test).
			switch {
			case x < plo:
				if x < 0 {
					return 0, false, false
				}
				below++
				if x > maxBelow {
					maxBelow = x
				}
			case x <= phi:
				mid = append(mid, x)
			case !(x <= math.MaxFloat64):
				return 0, false, false
			}
		}
	}
	kk := k - below
	if kk < 0 || kk >= len(mid) {
		return 0, false, true
	}
	selectFloat(mid, kk)
	med = mid[kk]
	if m%2 == 0 {
		lower := maxBelow
		if kk > 0 {
			lower = slices.Max(mid[:kk])
		}
		med = 0.5 * (lower + med)
	}
	return med, true, true
}

// RBFFromDistances sets dst to the RBF kernel exp(-gamma d_ij) of the
// squared distances d (dst may be d itself: the update is in place). The
// diagonal is set to exactly 1. An empty dst is resized.
func RBFFromDistances(dst, d *mat.SymDense, gamma float64) error {
	const op = "RBFFromDistances"
	if d == nil || d.IsEmpty() {
		return newErr(ErrEmpty, op, "distance matrix is empty")
	}
	if dst == nil {
		return newErr(ErrShape, op, "destination is nil")
	}
	if !(gamma > 0) || math.IsInf(gamma, 0) {
		return newErr(ErrParam, op, "gamma must be positive and finite, got %v", gamma)
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
	// Validate everything before writing anything: dst may be d. Rows are
	// checked in parallel; the first bad row found is reported.
	var bad atomic.Int64
	bad.Store(-1)
	_ = parallelFor(context.Background(), n, 32, func() struct{} { return struct{}{} }, func(_ struct{}, lo, hi int) {
		for i := lo; i < hi; i++ {
			for _, v := range src.Data[i*src.Stride+i+1 : i*src.Stride+n] {
				if !(v >= 0 && v <= math.MaxFloat64) {
					bad.CompareAndSwap(-1, int64(i))
					return
				}
			}
		}
	})
	if i := int(bad.Load()); i >= 0 {
		for j, v := range src.Data[i*src.Stride+i+1 : i*src.Stride+n] {
			if !(v >= 0 && v <= math.MaxFloat64) {
				return newErr(ErrNonFinite, op, "entry (%d,%d) is %v, want a finite squared distance", i, i+1+j, v)
			}
		}
	}
	err := parallelFor(context.Background(), n, 16, func() struct{} { return struct{}{} }, func(_ struct{}, lo, hi int) {
		for i := lo; i < hi; i++ {
			s := src.Data[i*src.Stride+i+1 : i*src.Stride+n]
			o := out.Data[i*out.Stride+i+1 : i*out.Stride+n]
			for j, v := range s {
				o[j] = math.Exp(-gamma * v)
			}
			out.Data[i*out.Stride+i] = 1
		}
	})
	if err != nil {
		return ctxErr(op, err)
	}
	mirrorLowerParallel(out.Data, out.Stride, n)
	return nil
}
