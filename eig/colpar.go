package eig

// Column-parallel block kernels for the final stage of the Krylov solvers
// (Ritz vectors, re-orthonormalization, refinement): products of a few
// dozen rows of length n, split over the column ranges of a team so that
// both cores share them. A nil team runs them on the calling goroutine.

// each runs job on the column ranges of t, or on [0, n) if t is nil or the
// work (multiply-adds) is too small to be worth a second goroutine.
func (t *team) each(n int, job func(part, lo, hi int), work int) {
	if t == nil || t.n != n {
		job(0, 0, n)
		return
	}
	t.run(job, work)
}

// parts returns the number of column ranges each (and run, for the
// team's own n) splits n into for the given work: the number of partial
// results a job's parts leave to be summed.
func (t *team) parts(n, work int) int {
	if t == nil || t.n != n || work < 2*parallelMin {
		return 1
	}
	return t.np
}

// mulNT sets c (ra x rx, row-major) to A Xᵀ, where A and X are given by
// their rows (ra rows of a with stride lda, rx rows of x with stride ldx)
// over their first n entries.
func (t *team) mulNT(c []float64, a []float64, lda, ra int, x []float64, ldx, rx, n int) {
	work := ra * rx * n
	np := t.parts(n, work)
	sz := ra * rx
	buf := c[:sz]
	if np > 1 {
		buf = make([]float64, np*sz)
	}
	t.each(n, func(part, lo, hi int) {
		dotsNT(true, buf[part*sz:(part+1)*sz], rx, 1, a[lo:], lda, ra, x[lo:], ldx, rx, hi-lo)
	}, work)
	if np > 1 {
		copy(c[:sz], buf[:sz])
		for p := 1; p < np; p++ {
			for i, v := range buf[p*sz : (p+1)*sz] {
				c[i] += v
			}
		}
	}
}

// mulNN sets the r rows of dst (stride ldd) to G B over the first n
// columns, where G is r x m (row-major) and B is given by its m rows
// (stride ldb).
func (t *team) mulNN(dst []float64, ldd int, g []float64, r, m int, b []float64, ldb, n int) {
	t.updateNN(dst, ldd, g, r, m, b, ldb, n, -1, true)
}

// subNN subtracts G B from the r rows of x (stride ldx) over the first n
// columns, with G and B as for mulNN.
func (t *team) subNN(x []float64, ldx int, g []float64, r, m int, b []float64, ldb, n int) {
	t.updateNN(x, ldx, g, r, m, b, ldb, n, 1, false)
}

// updateNN sets x -= sign G B (after zeroing x if zero is set) with
// subTN, which subtracts Hᵀ B: H = sign Gᵀ (m x r).
func (t *team) updateNN(x []float64, ldx int, g []float64, r, m int, b []float64, ldb, n int, sign float64, zero bool) {
	h := make([]float64, m*r)
	for a := 0; a < r; a++ {
		for i := 0; i < m; i++ {
			h[i*r+a] = sign * g[a*m+i]
		}
	}
	t.each(n, func(_, lo, hi int) {
		if zero {
			for a := 0; a < r; a++ {
				clear(x[a*ldx+lo : a*ldx+hi])
			}
		}
		subTN(true, x[lo:], ldx, r, h, r, b[lo:], ldb, m, hi-lo)
	}, r*m*n)
}
