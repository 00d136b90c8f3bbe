package linalg

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
)

// pairColBlock returns how many columns of the transposed data (p rows of
// 8-byte values) one tile of the distance loop reads: about 24 KB, so that
// the tile stays in the first-level cache while a chunk of rows sweeps it.
func pairColBlock(p int) int {
	return max(64, (24<<10)/(8*p)) &^ 15
}

// transposeRows returns the transpose of the n x p data raw as p rows of
// stride ld >= n; columns n..ld-1 are zero.
func transposeRows(raw blas64.General, ld int) []float64 {
	n, p := raw.Rows, raw.Cols
	xt := make([]float64, ld*p)
	for j := 0; j < n; j++ {
		row := raw.Data[j*raw.Stride : j*raw.Stride+p]
		for k, v := range row {
			xt[k*ld+j] = v
		}
	}
	return xt
}

// pairPad is the number of zero columns after the last one in the
// transposed data: the kernel computes a last group of fewer than 16
// columns whole, reading up to 15 columns past the end.
const pairPad = 15

// pairDistsT sets dst[c] to the squared distance between a and column
// j0+c of the p x ld transposed data xt, bitwise equal to sqDist of the
// two rows.
func pairDistsT(dst, a, xt []float64, ld, p, j0 int) {
	if len(dst) == 0 {
		return
	}
	a = a[:p]
	_ = xt[(p-1)*ld+j0+(len(dst)+15)&^15-1] // every column read lies inside xt
	sqDistsT(&dst[0], &a[0], &xt[j0], ld, p, len(dst))
}

// squaredDistancesInto fills the n x n storage out (row stride stride)
// with the squared distances between the rows of raw, both triangles and a
// zero diagonal. useAsm selects the AVX2 kernel on a transposed copy (it
// must only be true when hasPairsAVX2 is); otherwise the portable pairDists
// runs on the rows. Both give the bits of sqDist.
func squaredDistancesInto(ctx context.Context, out []float64, stride int, raw blas64.General, useAsm bool) error {
	n, p := raw.Rows, raw.Cols
	if !useAsm {
		err := parallelFor(ctx, n, 16, noState, func(_ struct{}, lo, hi int) {
			for i := lo; i < hi; i++ {
				row := out[i*stride : i*stride+n]
				row[i] = 0
				if i < n-1 {
					pairDists(row[i+1:], raw.Data[i*raw.Stride:i*raw.Stride+p], raw.Data[(i+1)*raw.Stride:], raw.Stride, p)
				}
			}
		})
		if err != nil {
			return err
		}
		mirrorLowerParallel(out, stride, n)
		return nil
	}
	ld := n + pairPad
	xt := transposeRows(raw, ld)
	jb := pairColBlock(p)
	// A chunk of rows sweeps the columns right of its diagonal one tile
	// at a time; each row segment is also written down its column, and the
	// lower-triangle lines a tile touches stay in cache for the whole chunk.
	return parallelFor(ctx, n, 16, noState, func(_ struct{}, lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i*stride+i] = 0
		}
		for j0 := lo + 1; j0 < n; j0 += jb {
			j1 := min(j0+jb, n)
			for i := lo; i < min(hi, j1-1); i++ {
				c0 := max(j0, i+1)
				seg := out[i*stride+c0 : i*stride+j1]
				pairDistsT(seg, raw.Data[i*raw.Stride:i*raw.Stride+p], xt, ld, p, c0)
				for c, v := range seg {
					out[(c0+c)*stride+i] = v
				}
			}
		}
	})
}

// allDistancesUpper reports whether the strict upper triangle of the n x n
// storage data (row stride stride) lies in [0, MaxFloat64]. It may report
// false for -0 entries, which are valid (the caller then checks the
// entries one by one); it is exact otherwise. The scans are branch-free:
// the AVX2 kernel compares four values at a time, the portable loop keeps
// the largest bit pattern, which is below that of +Inf exactly when all
// values are in [+0, MaxFloat64].
func allDistancesUpper(data []float64, stride, n int) bool {
	return allDistancesUpperPath(data, stride, n, hasPairsAVX2)
}

// allDistancesUpperPath is allDistancesUpper with the AVX2 kernel (useAsm,
// only when hasPairsAVX2) or without it.
func allDistancesUpperPath(data []float64, stride, n int, useAsm bool) bool {
	var all uint64
	for i := 0; i < n-1; i++ {
		row := data[i*stride+i+1 : i*stride+n]
		if n4 := len(row) &^ 3; useAsm && n4 > 0 {
			if !allDistances(&row[0], n4) {
				return false
			}
			row = row[n4:]
		}
		for _, v := range row {
			all = max(all, math.Float64bits(v))
		}
	}
	return all < infBits
}
