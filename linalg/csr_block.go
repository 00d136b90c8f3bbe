package linalg

import "fmt"

// MulBlockTo sets dst = A X for a block of b vectors stored interleaved:
// x holds the Cols x b matrix X row by row (x[j*b+k] is entry j of vector
// k) and dst the Rows x b result likewise, overwritten. Each stored entry
// of A is read once for all b vectors and the b entries of X it multiplies
// lie side by side, so a block costs little more memory traffic than a
// single product: for a large sparse matrix, whose products are bound by
// memory, b vectors cost far less than b calls of MulVecTo. It panics if
// the lengths do not match (a programmer error); dst and x must not
// overlap. Parallel and safe for concurrent use as MulVecTo.
func (a *CSR) MulBlockTo(dst, x []float64, b int) {
	if b < 1 || len(x) != a.Cols*b || len(dst) != a.Rows*b {
		panic(fmt.Sprintf("linalg: CSR.MulBlockTo: %dx%d matrix, b=%d, len(x)=%d, len(dst)=%d", a.Rows, a.Cols, b, len(x), len(dst)))
	}
	a.ForRows(func(lo, hi int) {
		switch b {
		case 4:
			a.mulRows4(dst, x, lo, hi)
		case 8:
			a.mulRows8(dst, x, lo, hi)
		default:
			a.mulRowsB(dst, x, b, lo, hi)
		}
	})
}

func (a *CSR) mulRowsB(dst, x []float64, b, lo, hi int) {
	for i := lo; i < hi; i++ {
		out := dst[i*b : i*b+b]
		clear(out)
		vals := a.Val[a.RowPtr[i]:a.RowPtr[i+1]]
		for t, j := range a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]] {
			v := vals[t]
			for k, xv := range x[j*b : j*b+b] {
				out[k] += v * xv
			}
		}
	}
}

func (a *CSR) mulRows4(dst, x []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		var s0, s1, s2, s3 float64
		vals := a.Val[a.RowPtr[i]:a.RowPtr[i+1]]
		for t, j := range a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]] {
			v := vals[t]
			xr := x[j*4 : j*4+4 : j*4+4]
			s0 += v * xr[0]
			s1 += v * xr[1]
			s2 += v * xr[2]
			s3 += v * xr[3]
		}
		out := dst[i*4 : i*4+4 : i*4+4]
		out[0], out[1], out[2], out[3] = s0, s1, s2, s3
	}
}

func (a *CSR) mulRows8(dst, x []float64, lo, hi int) {
	for i := lo; i < hi; i++ {
		var s0, s1, s2, s3, s4, s5, s6, s7 float64
		vals := a.Val[a.RowPtr[i]:a.RowPtr[i+1]]
		for t, j := range a.ColIdx[a.RowPtr[i]:a.RowPtr[i+1]] {
			v := vals[t]
			xr := x[j*8 : j*8+8 : j*8+8]
			s0 += v * xr[0]
			s1 += v * xr[1]
			s2 += v * xr[2]
			s3 += v * xr[3]
			s4 += v * xr[4]
			s5 += v * xr[5]
			s6 += v * xr[6]
			s7 += v * xr[7]
		}
		out := dst[i*8 : i*8+8 : i*8+8]
		out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7] = s0, s1, s2, s3, s4, s5, s6, s7
	}
}
