package eig

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// symEig is the workspace of the dense symmetric eigensolver used for the
// projected matrices (order up to a few hundred). It reduces the matrix to
// tridiagonal form by Householder reflectors on full storage (each step a
// matrix-vector product and two rank-one updates in gonum's vectorized
// kernels, where gonum's Dsytrd spends its time in unvectorized symmetric
// kernels), then runs implicit QL iterations with Wilkinson shifts on the
// tridiagonal matrix. The rotations are accumulated into the rows of Qᵀ,
// which are contiguous, instead of the columns of Q (gonum's Dsteqr with
// Dlasr walks the columns of a row-major matrix with a stride), which makes
// it several times faster than gonum's Dsyev on the projected problems of
// a solve.
type symEig struct {
	d, e, tau []float64
	p, w      []float64 // work vectors of the tridiagonal reduction
	zt        []float64 // c x c, row j = eigenvector j
	orig      []float64 // c x c copy of the input, for the fallback
	work      []float64 // workspace of the fallback (allocated on first use)
}

func newSymEig(nmax int) *symEig {
	return &symEig{
		d:    make([]float64, nmax),
		e:    make([]float64, nmax),
		tau:  make([]float64, nmax),
		p:    make([]float64, nmax),
		w:    make([]float64, nmax),
		zt:   make([]float64, nmax*nmax),
		orig: make([]float64, nmax*nmax),
	}
}

// fallback computes the eigenpairs of the n x n matrix a with gonum's
// Dsyev (same output convention as factorize).
func (s *symEig) fallback(n int, a, w []float64) bool {
	sym := blas64.Symmetric{N: n, Stride: n, Data: a[:n*n], Uplo: blas.Upper}
	q := []float64{0}
	lapack64.Syev(lapack.EVCompute, sym, w[:n], q, -1)
	if len(s.work) < int(q[0]) {
		s.work = make([]float64, int(q[0]))
	}
	return lapack64.Syev(lapack.EVCompute, sym, w[:n], s.work, len(s.work))
}

// tridiagonalize reduces the symmetric n x n matrix a (full row-major
// storage, destroyed) to tridiagonal form T = Qᵀ A Q by Householder
// reflectors H_k = I - tau_k v_k v_kᵀ (LAPACK's Dsytd2 with uplo = L, but
// on full storage so that every step is a matrix-vector product and two
// rank-one updates by gonum's vectorized kernels), storing the diagonal in
// d, the off-diagonal in e[0:n-1] and Qᵀ in zt.
func (s *symEig) tridiagonalize(n int, a, d, e, zt []float64) {
	s.reduce(n, a, d, e)
	s.accumulate(n, a, zt)
}

// reduce is the reduction of tridiagonalize: d, e and the reflectors (row
// k of a right of the diagonal holds v_k, tau_k is in s.tau).
func (s *symEig) reduce(n int, a, d, e []float64) {
	impl := blas64.Implementation()
	lp := gonum.Implementation{}
	tau := s.tau[:n]
	for k := 0; k < n-2; k++ {
		m := n - k - 1
		// Column k below the diagonal is row k right of it.
		x := a[k*n+k+1 : k*n+n]
		beta, t := lp.Dlarfg(m, x[0], x[1:], 1)
		d[k], e[k], tau[k] = a[k*n+k], beta, t
		// x now holds v with v[0] = 1 implied.
		x[0] = 1
		if t == 0 {
			continue
		}
		b := a[(k+1)*n+k+1:]
		p, w := s.p[:m], s.w[:m]
		// p = tau B v, w = p - (tau/2)(pᵀv) v, B -= v wᵀ + w vᵀ.
		impl.Dgemv(blas.NoTrans, m, m, t, b, n, x, 1, 0, p, 1)
		alpha := -0.5 * t * impl.Ddot(m, p, 1, x, 1)
		copy(w, p)
		impl.Daxpy(m, alpha, x, 1, w, 1)
		impl.Dger(m, m, -1, x, 1, w, 1, b, n)
		impl.Dger(m, m, -1, w, 1, x, 1, b, n)
	}
	d[n-2], d[n-1] = a[(n-2)*n+n-2], a[(n-1)*n+n-1]
	e[n-2] = a[(n-1)*n+n-2]
}

// accumulate sets zt = Qᵀ from the reflectors reduce left in a.
func (s *symEig) accumulate(n int, a, zt []float64) {
	impl := blas64.Implementation()
	tau := s.tau[:n]
	// Q = H_0 H_1 ... H_{n-3}, accumulated from the right end so that each
	// reflector touches only the trailing block (Q is the identity
	// elsewhere); then zt = Qᵀ.
	q := a // the reflectors are in rows k, columns k+1:n; Q goes to zt
	for i := range zt {
		zt[i] = 0
	}
	for i := 0; i < n; i++ {
		zt[i*n+i] = 1
	}
	for k := n - 3; k >= 0; k-- {
		m := n - k - 1
		v := q[k*n+k+1 : k*n+n]
		t := tau[k]
		if t == 0 {
			continue
		}
		blk := zt[(k+1)*n+k+1:]
		// blk = H_k blk: blk -= tau v (vᵀ blk).
		u := s.p[:m]
		impl.Dgemv(blas.Trans, m, m, 1, blk, n, v, 1, 0, u, 1)
		impl.Dger(m, m, -t, v, 1, u, 1, blk, n)
	}
	// zt holds Q; transpose in place.
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			zt[i*n+j], zt[j*n+i] = zt[j*n+i], zt[i*n+j]
		}
	}
}

// factorize computes all eigenpairs of the symmetric n x n matrix in a
// (row-major, upper triangle used). On return w holds the eigenvalues in
// ascending order and column j of a the eigenvector of w[j], as with
// LAPACK's Dsyev. It returns false if the QL iteration did not converge.
func (s *symEig) factorize(n int, a []float64, w []float64) bool {
	if n == 0 {
		return true
	}
	if n == 1 {
		w[0] = a[0]
		a[0] = 1
		return true
	}
	d, e := s.d[:n], s.e[:n]
	zt := s.zt[:n*n]
	orig := s.orig[:n*n]
	copy(orig, a)
	s.tridiagonalize(n, a, d, e, zt)
	e[n-1] = 0
	if !tridiagQL(n, d, e, zt) {
		// Not converged within the iteration limit: LAPACK's Dsyev (from
		// gonum), with its scaling and choice of QL or QR, on the saved
		// input.
		copy(a, orig)
		return s.fallback(n, a, w)
	}
	sortWithRows(n, n, d, zt)
	copy(w[:n], d)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a[i*n+j] = zt[j*n+i]
		}
	}
	return true
}

// valuesLast computes the eigenvalues of the symmetric n x n matrix in a
// (row-major, destroyed) in ascending order into w, and only the last p
// components of each eigenvector: last[j*p+t] is component n-p+t of the
// eigenvector of w[j]. It is factorize for a convergence test, which needs
// no more: the reduction is the same (so are the eigenvalues, bit for bit),
// but only the last p rows of Q are formed (O(p n^2) instead of O(n^3))
// and the QL rotations act on p columns instead of n. It returns false if
// the QL iteration does not converge.
func (s *symEig) valuesLast(n, p int, a, w, last []float64) bool {
	if n <= 2 || p >= n {
		return false
	}
	d, e := s.d[:n], s.e[:n]
	s.reduce(n, a, d, e)
	// X = (last p rows of Q) = E_pᵀ H_0 H_1 ... H_{n-3}, one reflector
	// at a time from the left end: X -= tau (X v) vᵀ on columns k+1:n.
	x := s.zt[:p*n]
	clear(x)
	for t := 0; t < p; t++ {
		x[t*n+n-p+t] = 1
	}
	tau := s.tau[:n]
	for k := 0; k < n-2; k++ {
		t := tau[k]
		if t == 0 {
			continue
		}
		v := a[k*n+k+1 : k*n+n] // v[0] = 1 stored
		for r := 0; r < p; r++ {
			xr := x[r*n+k+1 : r*n+n]
			var dot float64
			for i, vi := range v {
				dot += xr[i] * vi
			}
			dot *= t
			for i, vi := range v {
				xr[i] -= dot * vi
			}
		}
	}
	// zt (n x p): row i holds component i of Q's last p rows, the layout
	// the rotations of tridiagQL act on.
	zt := s.orig[:n*p]
	for i := 0; i < n; i++ {
		for t := 0; t < p; t++ {
			zt[i*p+t] = x[t*n+i]
		}
	}
	e[n-1] = 0
	if !tridiagQLCols(n, p, d, e, zt) {
		return false
	}
	sortWithRows(n, p, d, zt)
	copy(w[:n], d)
	copy(last[:n*p], zt)
	return true
}

// sortWithRows sorts d[0:n] ascending by selection sort (a few hundred
// values at most), swapping the rows of zt (length cols) along.
func sortWithRows(n, cols int, d, zt []float64) {
	for i := 0; i < n-1; i++ {
		k := i
		for j := i + 1; j < n; j++ {
			if d[j] < d[k] {
				k = j
			}
		}
		if k != i {
			d[i], d[k] = d[k], d[i]
			ri, rk := zt[i*cols:(i+1)*cols], zt[k*cols:(k+1)*cols]
			for x := range ri {
				ri[x], rk[x] = rk[x], ri[x]
			}
		}
	}
}

// tridiagQL computes the eigenvalues of the symmetric tridiagonal matrix
// with diagonal d and off-diagonal e (e[i] couples i and i+1, e[n-1] = 0)
// by implicit QL iterations with Wilkinson shifts, overwriting d with the
// eigenvalues (unsorted). Each rotation of coordinates i and i+1 is applied
// to rows i and i+1 of zt (n x n). It returns false if some eigenvalue
// needs more than 30 iterations (as in LAPACK's Dsteqr limit).
func tridiagQL(n int, d, e, zt []float64) bool {
	return tridiagQLCols(n, n, d, e, zt)
}

// tridiagQLCols is tridiagQL with rows of zt of length cols.
func tridiagQLCols(n, cols int, d, e, zt []float64) bool {
	const epsm = 1.0 / (1 << 52)
	// An off-diagonal entry below eps ||T|| is negligible: dropping it is a
	// backward error of that size, the accuracy every step of the
	// reduction has anyway (and all a Ritz value needs). Without this
	// absolute test a graded block of entries near eps ||T|| (as a
	// low-rank operator leaves) may stall the iteration.
	var tnorm float64
	for i := 0; i < n; i++ {
		tnorm = math.Max(tnorm, math.Abs(d[i])+math.Abs(e[i]))
	}
	small := epsm * tnorm
	for l := 0; l < n; l++ {
		for iter := 0; ; iter++ {
			// Look for a negligible off-diagonal element to split off.
			m := l
			for ; m < n-1; m++ {
				if ae := math.Abs(e[m]); ae <= small || ae <= epsm*(math.Abs(d[m])+math.Abs(d[m+1])) {
					break
				}
			}
			if m == l {
				break
			}
			if iter == 30 {
				return false
			}
			// Wilkinson shift from the leading 2 x 2 block.
			g := (d[l+1] - d[l]) / (2 * e[l])
			r := hypot(g, 1)
			g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
			sn, cs, p := 1.0, 1.0, 0.0
			i := m - 1
			deflated := false
			for ; i >= l; i-- {
				f := sn * e[i]
				b := cs * e[i]
				r = hypot(f, g)
				e[i+1] = r
				if r == 0 {
					// Underflow: the matrix splits here.
					d[i+1] -= p
					e[m] = 0
					deflated = true
					break
				}
				sn, cs = f/r, g/r
				g = d[i+1] - p
				r = (d[i]-g)*sn + 2*cs*b
				p = sn * r
				d[i+1] = g + p
				g = cs*r - b
				rotRows(zt[i*cols:(i+1)*cols], zt[(i+1)*cols:(i+2)*cols], cs, sn)
			}
			if deflated {
				continue
			}
			d[l] -= p
			e[l] = g
			e[m] = 0
		}
	}
	return true
}

// rotRows applies a plane rotation to the rows x and y:
// (x, y) <- (c x - s y, s x + c y).
func rotRows(x, y []float64, c, s float64) {
	y = y[:len(x)]
	k0 := 0
	if n4 := len(x) &^ 3; hasAVX2FMA && n4 > 0 {
		rot4(&x[0], &y[0], n4, c, s)
		k0 = n4
	}
	for k := k0; k < len(x); k++ {
		xv := x[k]
		yv := y[k]
		x[k] = c*xv - s*yv
		y[k] = s*xv + c*yv
	}
}

// hypot returns sqrt(a^2 + b^2): directly when the squares can neither
// overflow nor lose accuracy to underflow, else with math.Hypot's scaling.
func hypot(a, b float64) float64 {
	aa, bb := math.Abs(a), math.Abs(b)
	if aa < 0x1p500 && bb < 0x1p500 && (aa > 0x1p-500 || bb > 0x1p-500) {
		return math.Sqrt(a*a + b*b)
	}
	return math.Hypot(a, b)
}
