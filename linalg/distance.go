package linalg

import (
	"context"
	"math"

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
	mirrorLower(out.Data, out.Stride, n)
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
	v := make([]float64, 0, n*(n-1)/2)
	for i := 0; i < n-1; i++ {
		v = append(v, raw.Data[i*raw.Stride+i+1:i*raw.Stride+n]...)
	}
	for k, x := range v {
		if !(x >= 0) || math.IsInf(x, 0) {
			return 0, newErr(ErrNonFinite, op, "entry %d of the upper triangle is %v, want a finite squared distance", k, x)
		}
	}
	return medianGamma(op, v)
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
	for i := 0; i < n; i++ {
		for j, v := range src.Data[i*src.Stride+i+1 : i*src.Stride+n] {
			if !(v >= 0) || math.IsInf(v, 0) {
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
	mirrorLower(out.Data, out.Stride, n)
	return nil
}
