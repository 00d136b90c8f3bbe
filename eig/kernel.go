package eig

import "fmt"

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
	if !fast || !hasAVX2FMA {
		dotsNTGeneric(c, ci, cv, a, lda, rows, x, ldx, nx, n)
		return
	}
	// Column chunks: the chunk of x (nx * dotChunk * 8 bytes) stays in
	// the first-level cache while every row of a passes by, so each entry
	// of x is loaded from L2 once per chunk, not once per three rows.
	for c0 := 0; c0 < n; c0 += dotChunk {
		w := min(dotChunk, n-c0)
		dotsTiles(c, ci, cv, a[c0:], lda, rows, x[c0:], ldx, nx, w, c0 > 0)
	}
}

// dotChunk is the column chunk of dotsNT: 8 vectors of 256 entries fill
// 16 KiB, half the first-level data cache.
const dotChunk = 1 << 30

// dotsTiles is dotsNT on one column chunk with the assembly kernel; it adds
// to c if acc is set.
func dotsTiles(c []float64, ci, cv int, a []float64, lda, rows int, x []float64, ldx, nx, n int, acc bool) {
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
					if acc {
						c[(i0+r)*ci+(v0+v)*cv] += s
					} else {
						c[(i0+r)*ci+(v0+v)*cv] = s
					}
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
