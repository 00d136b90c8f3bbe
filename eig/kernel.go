package eig

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// dotsNT computes the dot products of the rows of a with the rows of x:
//
//	c[i*ci + v*cv] = sum_{j<n} a[i*lda+j] x[v*ldx+j]   (i < rows, v < nx)
//
// so c holds A Xᵀ (ci = nx, cv = 1) or X Aᵀ (ci = 1, cv = rows) or any other
// strided layout. With fast set (and the AVX2+FMA kernel available) the
// products run in 3 x 4 register tiles: each entry of a is loaded once per
// four rows of x and each entry of x once per three rows of a, so that a
// block product of a streamed matrix with a few vectors is bound by memory
// bandwidth rather than by arithmetic. Otherwise it runs portable loops.
// It panics if the slices are too short (an internal error).
func dotsNT(fast bool, c []float64, ci, cv int, a []float64, lda, rows int, x []float64, ldx, nx, n int) {
	if rows == 0 || nx == 0 {
		return
	}
	if len(a) < (rows-1)*lda+n || len(x) < (nx-1)*ldx+n || len(c) <= (rows-1)*ci+(nx-1)*cv {
		panic(fmt.Sprintf("eig: internal error: dotsNT slices too short (rows %d, nx %d, n %d)", rows, nx, n))
	}
	if n == 0 {
		for i := 0; i < rows; i++ {
			for v := 0; v < nx; v++ {
				c[i*ci+v*cv] = 0
			}
		}
		return
	}
	if nx == 1 {
		// One vector: gonum's matrix-vector kernel (four rows at a time).
		blas64.Implementation().Dgemv(blas.NoTrans, rows, n, 1, a, lda, x, 1, 0, c, ci)
		return
	}
	if !fast || !hasAVX2FMA {
		dotsNTGeneric(c, ci, cv, a, lda, rows, x, ldx, nx, n)
		return
	}
	dotsTiles(c, ci, cv, a, lda, rows, x, ldx, nx, n)
}

// dotsTiles is dotsNT with the assembly kernel.
func dotsTiles(c []float64, ci, cv int, a []float64, lda, rows int, x []float64, ldx, nx, n int) {
	n4 := n &^ 3
	var out [12]float64
	var ri [3]int
	var vi [4]int
	for i0 := 0; i0 < rows; i0 += 3 {
		// A partial tile repeats its last row (or vector) and discards
		// the duplicate results: one kernel shape serves every size.
		for r := range ri {
			ri[r] = min(i0+r, rows-1) * lda
		}
		for v0 := 0; v0 < nx; v0 += 4 {
			for v := range vi {
				vi[v] = min(v0+v, nx-1) * ldx
			}
			dot3x4(&a[ri[0]], &a[ri[1]], &a[ri[2]], &x[vi[0]], &x[vi[1]], &x[vi[2]], &x[vi[3]], n4, &out)
			for r := 0; r < 3 && i0+r < rows; r++ {
				ar := a[ri[r]:]
				for v := 0; v < 4 && v0+v < nx; v++ {
					s := out[4*r+v]
					xv := x[vi[v]:]
					for j := n4; j < n; j++ {
						s += ar[j] * xv[j]
					}
					c[(i0+r)*ci+(v0+v)*cv] = s
				}
			}
		}
	}
}

// dotsNTGeneric is the portable version of dotsNT.
func dotsNTGeneric(c []float64, ci, cv int, a []float64, lda, rows int, x []float64, ldx, nx, n int) {
	for i := 0; i < rows; i++ {
		ar := a[i*lda : i*lda+n]
		for v := 0; v < nx; v++ {
			xv := x[v*ldx : v*ldx+n]
			var s0, s1, s2, s3 float64
			j := 0
			for ; j+4 <= n; j += 4 {
				s0 += ar[j] * xv[j]
				s1 += ar[j+1] * xv[j+1]
				s2 += ar[j+2] * xv[j+2]
				s3 += ar[j+3] * xv[j+3]
			}
			for ; j < n; j++ {
				s0 += ar[j] * xv[j]
			}
			c[i*ci+v*cv] = (s0 + s1) + (s2 + s3)
		}
	}
}

// subTN subtracts Hᵀ V from X on the first n columns:
//
//	x[r*ldx+j] -= sum_{i<m} h[i*ldh+r] v[i*ldv+j]   (r < q, j < n)
//
// With fast set (and the AVX2+FMA kernel available) it works on tiles of 4
// rows of x by 8 columns, keeping the 8 x 4 partial sums in registers while
// the m rows of v pass by. Otherwise, and for leftover rows and columns, it
// runs portable loops.
func subTN(fast bool, x []float64, ldx, q int, h []float64, ldh int, v []float64, ldv, m, n int) {
	if q == 0 || m == 0 || n == 0 {
		return
	}
	if len(x) < (q-1)*ldx+n || len(v) < (m-1)*ldv+n || len(h) < (m-1)*ldh+q {
		panic(fmt.Sprintf("eig: internal error: subTN slices too short (q %d, m %d, n %d)", q, m, n))
	}
	if q == 1 {
		// One row: gonum's transposed matrix-vector kernel.
		blas64.Implementation().Dgemv(blas.Trans, m, n, -1, v, ldv, h, ldh, 1, x, 1)
		return
	}
	j0 := 0
	if fast && hasAVX2FMA {
		q4, n8 := q&^3, n&^7
		for j := 0; j < n8; j += 8 {
			for r := 0; r < q4; r += 4 {
				axpy4x8(&x[r*ldx+j], &x[(r+1)*ldx+j], &x[(r+2)*ldx+j], &x[(r+3)*ldx+j], &v[j], ldv, &h[r], ldh, m)
			}
		}
		// Leftover rows (all columns) and leftover columns (kernel rows).
		if q4 < q {
			subTNGeneric(x[q4*ldx:], ldx, q-q4, h[q4:], ldh, v, ldv, m, n)
		}
		j0, q = n8, q4
	}
	if j0 < n && q > 0 {
		subTNGeneric(x[j0:], ldx, q, h, ldh, v[j0:], ldv, m, n-j0)
	}
}

// subTNGeneric is the portable version of subTN.
func subTNGeneric(x []float64, ldx, q int, h []float64, ldh int, v []float64, ldv, m, n int) {
	for r := 0; r < q; r++ {
		xr := x[r*ldx : r*ldx+n]
		for i := 0; i < m; i++ {
			c := h[i*ldh+r]
			if c == 0 {
				continue
			}
			vi := v[i*ldv : i*ldv+n]
			for j, vv := range vi {
				xr[j] -= c * vv
			}
		}
	}
}
