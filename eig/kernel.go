package eig

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
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
// bandwidth rather than by arithmetic (with AVX-512, products of a streamed
// matrix with eight vectors or more use 3 x 8 tiles; see dotsTiles). Otherwise
// (and for a single vector)
// it uses gonum's kernels. It panics if the slices are too short (an
// internal error).
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

// tileChunk is the column chunk of dotsTiles for a streamed matrix: three
// rows of 128 entries (3 KiB) stay in the first-level cache while every
// group of vectors is applied to them, and so do the chunks of eight
// vectors (8 KiB) while they are applied to a panel of rows. The size was
// chosen by timing block products and solves on large dense kernels.
const tileChunk = 128

// tilePanel is the number of row triples in a panel of dotsTiles for a
// streamed matrix: each chunk of the vectors is applied to every triple of
// the panel before the next chunk, so that the vectors are read from the
// first-level cache four times per chunk instead of once. The size was
// chosen, with tileChunk, by timing solves on large dense kernels.
const tilePanel = 4

// tileGroups is the number of groups of four vectors dotsTiles handles in
// one sweep over the rows (larger counts take several sweeps).
const tileGroups = 16

// dotsTiles is dotsNT with the assembly kernel. For each panel of row
// triples of a (one triple when the matrix comes from cache) it walks
// along the columns in chunks of tileChunk and applies every group of
// vectors to each triple's chunk before moving on: the first group loads
// the chunk from memory (while the prefetches of the next chunks are in
// flight) and the others find it in the first-level cache, so the
// arithmetic of the later groups overlaps the memory traffic instead of
// following it.
func dotsTiles(c []float64, ci, cv int, a []float64, lda, rows int, x []float64, ldx, nx, n int) {
	if nx > 4*tileGroups {
		for v0 := 0; v0 < nx; v0 += 4 * tileGroups {
			nv := min(4*tileGroups, nx-v0)
			dotsTiles(c[v0*cv:], ci, cv, a, lda, rows, x[v0*ldx:], ldx, nv, n)
		}
		return
	}
	// Two vectors, or one or two left after groups of four when the rows
	// come from cache (a second sweep then costs no memory traffic): the
	// six-row kernel, which wastes no arithmetic on repeated vectors.
	if r := nx % 4; nx == 2 || (nx > 4 && (r == 1 || r == 2) && rows*n < cacheEntries) {
		if nx > 2 {
			dotsTiles(c, ci, cv, a, lda, rows, x, ldx, nx-r, n)
		}
		dots6x2(c[(nx-r)*cv:], ci, cv, a, lda, rows, x[(nx-r)*ldx:], ldx, r, n)
		return
	}
	n4 := n &^ 3
	streamed := rows*n >= cacheEntries
	chunk, panel := tileChunk, tilePanel
	if !streamed {
		// The rows come from cache anyway: one chunk, fewer calls.
		chunk, panel = max(n4, 1), 1
	}
	// The groups of vectors applied to each chunk: four at a time with
	// dot3x4, and with AVX-512, for a streamed matrix, eight at a time with
	// dot3x8y (the same 3-row tile for eight vectors, whose 24 accumulators
	// need the 32 registers of AVX-512 VL), which reads each entry of a
	// once per eight vectors, then fours for the rest. With the matrix (or
	// basis) in cache the eight-vector tile is slower, so those products
	// stay with dot3x4.
	var gs [4 * tileGroups]int8 // group sizes: 4 (dot3x4) or 8 (dot3x8y)
	ng := 0
	v0 := 0
	if hasAVX512 && streamed {
		for ; nx-v0 >= 8; v0 += 8 {
			gs[ng], ng = 8, ng+1
		}
	}
	for ; v0 < nx; v0 += 4 {
		gs[ng], ng = 4, ng+1
	}
	// Accumulators: a block of group g holds the sums of its vectors for
	// three rows (layout of its kernel); vector v is entry gv[v] of group
	// gi[v] for row 0, and the rows follow at strides of the group size.
	var gi, gv [4 * tileGroups]int
	var gstart [4 * tileGroups]int
	for g, v0 := 0, 0; g < ng; g++ {
		gstart[g] = v0
		for t := 0; t < int(gs[g]) && v0+t < nx; t++ {
			gi[v0+t], gv[v0+t] = g, t
		}
		v0 += int(gs[g])
	}
	var vi [tileGroups * 4]int
	for v := 0; v < (nx+3)&^3; v++ {
		// A partial tile repeats its last row (or vector) and discards
		// the duplicate results: one kernel shape serves every size.
		vi[v] = min(v, nx-1) * ldx
	}
	// Accumulators of triple t of the panel: acc[t*ng : (t+1)*ng], one
	// block per group; ri[t] holds the offsets of the triple's rows.
	var acc [tilePanel * tileGroups][24]float64
	var ri [tilePanel][3]int
	for p0 := 0; p0 < rows; p0 += 3 * panel {
		nt := min(panel, (rows-p0+2)/3)
		for t := range nt {
			for r := range 3 {
				ri[t][r] = min(p0+3*t+r, rows-1) * lda
			}
		}
		clear(acc[:nt*ng])
		for j0 := 0; j0 < n4; j0 += chunk {
			w := min(chunk, n4-j0)
			for t := range nt {
				a0, a1, a2 := &a[ri[t][0]+j0], &a[ri[t][1]+j0], &a[ri[t][2]+j0]
				at := acc[t*ng : (t+1)*ng]
				for g, nv := range gs[:ng] {
					v0 := gstart[g]
					if nv == 8 {
						dot3x8y(a0, a1, a2, &x[vi[v0]+j0], ldx, w, &at[g])
					} else {
						v := vi[v0 : v0+4]
						dot3x4(a0, a1, a2, &x[v[0]+j0], &x[v[1]+j0], &x[v[2]+j0], &x[v[3]+j0], w, (*[12]float64)(at[g][:12]))
					}
				}
			}
		}
		for t := range nt {
			i0 := p0 + 3*t
			at := acc[t*ng : (t+1)*ng]
			for r := 0; r < 3 && i0+r < rows; r++ {
				ar := a[ri[t][r]:]
				for v := 0; v < nx; v++ {
					s := at[gi[v]][int(gs[gi[v]])*r+gv[v]]
					xv := x[vi[v]:]
					for j := n4; j < n; j++ {
						s += ar[j] * xv[j]
					}
					c[(i0+r)*ci+v*cv] = s
				}
			}
		}
	}
}

// bcastChunk is the column chunk of dots8Bcast: the kernel's sums are
// added to the running ones every bcastChunk entries, so that no chain of
// roundings is longer than bcastChunk/2 terms (the kernel keeps separate
// sums for even and odd columns).
const bcastChunk = 128

// dots8Bcast is dotsNT for eight vectors with the AVX-512 kernel bcast12x8,
// for a matrix streamed from memory. It interleaves the vectors in xi (at
// least 8n entries): entry j of all eight in one register, so that each
// entry of a is the broadcast operand of one fused multiply-add and the
// products need no horizontal sums. Twelve rows at a time; the rows left
// over go to dotsNT. On a streamed matrix it is faster than dotsTiles' 3 x 8
// tiles, the interleaving included, and close to the time of reading the
// matrix once.
func dots8Bcast(c []float64, ci, cv int, a []float64, lda, rows int, x []float64, ldx, n int, xi []float64) {
	xi = xi[:8*n]
	x0, x1, x2, x3 := x[:n], x[ldx:ldx+n], x[2*ldx:2*ldx+n], x[3*ldx:3*ldx+n]
	x4, x5, x6, x7 := x[4*ldx:4*ldx+n], x[5*ldx:5*ldx+n], x[6*ldx:6*ldx+n], x[7*ldx:7*ldx+n]
	for j := range n {
		e := xi[8*j : 8*j+8 : 8*j+8]
		e[0], e[1], e[2], e[3] = x0[j], x1[j], x2[j], x3[j]
		e[4], e[5], e[6], e[7] = x4[j], x5[j], x6[j], x7[j]
	}
	n8 := n &^ 7
	var out [96]float64
	i := 0
	for ; i+12 <= rows; i += 12 {
		clear(out[:])
		for j0 := 0; j0 < n8; j0 += bcastChunk {
			bcast12x8(&a[i*lda+j0], lda, &xi[8*j0], min(bcastChunk, n8-j0), &out)
		}
		for r := range 12 {
			ar := a[(i+r)*lda : (i+r)*lda+n]
			for v := range 8 {
				s := out[8*r+v]
				for j := n8; j < n; j++ {
					s += ar[j] * xi[8*j+v]
				}
				c[(i+r)*ci+v*cv] = s
			}
		}
	}
	if i < rows {
		dotsNT(true, c[i*ci:], ci, cv, a[i*lda:], lda, rows-i, x, ldx, 8, n)
	}
}

// dots6x2 is dotsNT for one or two vectors (nx <= 2) with the six-row
// assembly kernel; a partial tile repeats its last row (and a single vector
// is paired with itself) and discards the duplicate results.
func dots6x2(c []float64, ci, cv int, a []float64, lda, rows int, x []float64, ldx, nx, n int) {
	x1 := min(1, nx-1) * ldx
	var out [12]float64
	var ri [6]int
	for i0 := 0; i0 < rows; i0 += 6 {
		for r := range ri {
			ri[r] = min(i0+r, rows-1) * lda
		}
		dot6x2(&a[ri[0]], &a[ri[1]], &a[ri[2]], &a[ri[3]], &a[ri[4]], &a[ri[5]], &x[0], &x[x1], n, &out)
		for r := 0; r < 6 && i0+r < rows; r++ {
			for v := 0; v < nx; v++ {
				c[(i0+r)*ci+v*cv] = out[2*r+v]
			}
		}
	}
}

// dotsNTGeneric is the portable version of dotsNT: one dot product per
// pair with gonum's kernel.
func dotsNTGeneric(c []float64, ci, cv int, a []float64, lda, rows int, x []float64, ldx, nx, n int) {
	impl := blas64.Implementation()
	for i := 0; i < rows; i++ {
		ar := a[i*lda : i*lda+n]
		for v := 0; v < nx; v++ {
			c[i*ci+v*cv] = impl.Ddot(n, ar, 1, x[v*ldx:v*ldx+n], 1)
		}
	}
}

// subTN subtracts Hᵀ V from X on the first n columns:
//
//	x[r*ldx+j] -= sum_{i<m} h[i*ldh+r] v[i*ldv+j]   (r < q, j < n)
//
// With fast set (and the AVX2+FMA kernel available) it works on tiles of 4
// rows of x by 8 columns, keeping the 8 x 4 partial sums in registers while
// the m rows of v pass by, and on tiles of 2 rows by 16 columns for two
// leftover rows. Otherwise, and for the remaining rows and columns, it uses
// gonum's kernels.
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
	if !fast || !hasAVX2FMA {
		subTNGeneric(x, ldx, q, h, ldh, v, ldv, m, n)
		return
	}
	q4, n8 := q&^3, n&^7
	for j := 0; j < n8; j += 8 {
		for r := 0; r < q4; r += 4 {
			axpy4x8(&x[r*ldx+j], &x[(r+1)*ldx+j], &x[(r+2)*ldx+j], &x[(r+3)*ldx+j], &v[j], ldv, &h[r], ldh, m)
		}
	}
	if n8 < n && q4 > 0 {
		subTNGeneric(x[n8:], ldx, q4, h, ldh, v[n8:], ldv, m, n-n8)
	}
	r := q4
	if q-q4 >= 2 {
		// Two leftover rows: 2 x 16 tiles, so v is read once for both.
		n16 := n &^ 15
		for j := 0; j < n16; j += 16 {
			axpy2x16(&x[r*ldx+j], &x[(r+1)*ldx+j], &v[j], ldv, &h[r], ldh, m)
		}
		if n16 < n {
			subTNGeneric(x[r*ldx+n16:], ldx, 2, h[r:], ldh, v[n16:], ldv, m, n-n16)
		}
		r += 2
	}
	// A last leftover row: gonum's transposed matrix-vector kernel.
	for ; r < q; r++ {
		blas64.Implementation().Dgemv(blas.Trans, m, n, -1, v, ldv, h[r:], ldh, 1, x[r*ldx:], 1)
	}
}

// subTNGeneric is the portable version of subTN: one axpy per pair with
// gonum's kernel.
func subTNGeneric(x []float64, ldx, q int, h []float64, ldh int, v []float64, ldv, m, n int) {
	impl := blas64.Implementation()
	for r := 0; r < q; r++ {
		xr := x[r*ldx : r*ldx+n]
		for i := 0; i < m; i++ {
			if c := h[i*ldh+r]; c != 0 {
				impl.Daxpy(n, -c, v[i*ldv:i*ldv+n], 1, xr, 1)
			}
		}
	}
}

// orthonormalRows orthonormalizes rows 0:q of x in place (nearly
// orthonormal rows, such as Ritz vectors of an orthonormal basis) by two
// passes of Cholesky QR: with the Gram matrix G = X Xᵀ = L Lᵀ, X becomes
// L⁻¹ X. One pass leaves an orthogonality error of about eps times the
// square of the condition number of X, which is near 1 here; the second
// brings it to round-off. Both the Gram matrix and the triangular
// transformation run in the block kernels. If a Gram matrix is not
// numerically positive definite it falls back to modified Gram-Schmidt.
//
// The products run on the column ranges of t (nil: on the calling
// goroutine).
func orthonormalRows(t *team, x *mat.Dense, q int) {
	if q == 0 {
		return
	}
	xr := x.RawMatrix()
	n := xr.Cols
	g := make([]float64, q*q)
	h := make([]float64, q*q)
	for pass := 0; pass < 2; pass++ {
		t.mulNT(g, xr.Data, xr.Stride, q, xr.Data, xr.Stride, q, n)
		if !cholInvLower(g, q) {
			gramSchmidtRows(x, q)
			return
		}
		// g now holds L⁻¹ (lower triangular); X = L⁻¹ X by column chunks
		// through a small buffer (subTN subtracts hᵀ X: h = -(L⁻¹)ᵀ), so
		// that no q x n copy is allocated (q x n is 16 MB for 20 rows of
		// 100,000).
		for a := 0; a < q; a++ {
			for i := 0; i < q; i++ {
				h[i*q+a] = -g[a*q+i]
			}
		}
		t.each(n, func(_, lo, hi int) {
			buf := make([]float64, q*min(rotChunk, hi-lo))
			combineRows(xr.Data, xr.Stride, h, q, q, lo, hi, buf)
		}, q*q*n)
	}
}

// rotChunk is the number of columns combineRows transforms at a time: a
// gk x rotChunk buffer of a few hundred KiB stays in cache.
const rotChunk = 256

// combineRows replaces rows 0:gk of x (stride ldx) on columns lo:hi by
// combinations of its rows 0:c, in place: row a becomes
// -sum_i h[i*gk+a] x_i (h is c x gk, the combination negated and
// transposed, as subTN takes it). It goes by chunks of rotChunk columns
// through buf (at least gk*min(rotChunk, hi-lo) entries).
func combineRows(x []float64, ldx int, h []float64, gk, c, lo, hi int, buf []float64) {
	for c0 := lo; c0 < hi; c0 += rotChunk {
		w := min(rotChunk, hi-c0)
		clear(buf[:gk*w])
		subTN(true, buf, w, gk, h, gk, x[c0:], ldx, c, w)
		for a := 0; a < gk; a++ {
			copy(x[a*ldx+c0:a*ldx+c0+w], buf[a*w:(a+1)*w])
		}
	}
}

// cholInvLower overwrites the symmetric positive definite q x q matrix g
// (row-major, full storage) with L⁻¹, where g = L Lᵀ, zero above the
// diagonal. It returns false if a pivot is not safely positive.
func cholInvLower(g []float64, q int) bool {
	// Cholesky, lower triangle in place.
	for j := 0; j < q; j++ {
		s := g[j*q+j]
		for k := 0; k < j; k++ {
			s -= g[j*q+k] * g[j*q+k]
		}
		// A pivot that lost more than half the digits of its diagonal
		// entry means rows far from orthonormal (condition above 1e4):
		// not what this routine is for.
		if !(s > 1e-8*g[j*q+j]) {
			return false
		}
		ljj := math.Sqrt(s)
		g[j*q+j] = ljj
		for i := j + 1; i < q; i++ {
			t := g[i*q+j]
			for k := 0; k < j; k++ {
				t -= g[i*q+k] * g[j*q+k]
			}
			g[i*q+j] = t / ljj
		}
	}
	// Inverse of L, column by column: with M = L⁻¹, M[j][j] = 1/L[j][j]
	// and M[i][j] = -(sum_{j<=k<i} L[i][k] M[k][j]) / L[i][i].
	inv := make([]float64, q*q)
	for j := 0; j < q; j++ {
		inv[j*q+j] = 1 / g[j*q+j]
		for i := j + 1; i < q; i++ {
			var t float64
			for k := j; k < i; k++ {
				t += g[i*q+k] * inv[k*q+j]
			}
			inv[i*q+j] = -t / g[i*q+i]
		}
	}
	copy(g, inv)
	return true
}
