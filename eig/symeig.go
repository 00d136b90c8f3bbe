package eig

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// symEig is the workspace of the dense symmetric eigensolver used for the
// projected matrices (order up to a few hundred). It reduces the matrix to
// tridiagonal form with LAPACK's Dsytrd and Dorgtr (from gonum), then runs
// implicit QL iterations with Wilkinson shifts on the tridiagonal matrix.
// The rotations are accumulated into the rows of Qᵀ, which are contiguous,
// instead of the columns of Q (gonum's Dsteqr with Dlasr walks the columns
// of a row-major matrix with a stride): on the projected problems of a
// solve this is where most of the time of a general eigensolver goes.
type symEig struct {
	d, e, tau []float64
	work      []float64
	zt        []float64 // c x c, row j = eigenvector j
}

func newSymEig(nmax int) *symEig {
	s := &symEig{
		d:   make([]float64, nmax),
		e:   make([]float64, nmax),
		tau: make([]float64, nmax),
		zt:  make([]float64, nmax*nmax),
	}
	var impl gonum.Implementation
	q := make([]float64, 1)
	a := make([]float64, nmax*nmax)
	impl.Dsytrd(blas.Upper, nmax, a, nmax, s.d, s.e[:max(nmax-1, 0)], s.tau[:max(nmax-1, 0)], q, -1)
	lw := int(q[0])
	impl.Dorgtr(blas.Upper, nmax, a, nmax, s.tau[:max(nmax-1, 0)], q, -1)
	s.work = make([]float64, max(lw, int(q[0]), 1))
	return s
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
	var impl gonum.Implementation
	d, e, tau := s.d[:n], s.e[:n], s.tau[:n-1]
	impl.Dsytrd(blas.Upper, n, a, n, d, e[:n-1], tau, s.work, len(s.work))
	impl.Dorgtr(blas.Upper, n, a, n, tau, s.work, len(s.work))
	// zt = Qᵀ, so that a rotation of two columns of Q is an operation on
	// two contiguous rows of zt.
	zt := s.zt[:n*n]
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			zt[j*n+i] = a[i*n+j]
		}
	}
	e[n-1] = 0
	if !tridiagQL(n, d, e, zt) {
		return false
	}
	// Selection sort of the (few hundred at most) eigenvalues, swapping
	// rows of zt along.
	for i := 0; i < n-1; i++ {
		k := i
		for j := i + 1; j < n; j++ {
			if d[j] < d[k] {
				k = j
			}
		}
		if k != i {
			d[i], d[k] = d[k], d[i]
			ri, rk := zt[i*n:(i+1)*n], zt[k*n:(k+1)*n]
			for x := range ri {
				ri[x], rk[x] = rk[x], ri[x]
			}
		}
	}
	copy(w[:n], d)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a[i*n+j] = zt[j*n+i]
		}
	}
	return true
}

// tridiagQL computes the eigenvalues of the symmetric tridiagonal matrix
// with diagonal d and off-diagonal e (e[i] couples i and i+1, e[n-1] = 0)
// by implicit QL iterations with Wilkinson shifts, overwriting d with the
// eigenvalues (unsorted). Each rotation of coordinates i and i+1 is applied
// to rows i and i+1 of zt. It returns false if some eigenvalue needs more
// than 30 iterations (as in LAPACK's Dsteqr limit).
func tridiagQL(n int, d, e, zt []float64) bool {
	const epsm = 1.0 / (1 << 52)
	for l := 0; l < n; l++ {
		for iter := 0; ; iter++ {
			// Look for a negligible off-diagonal element to split off.
			m := l
			for ; m < n-1; m++ {
				if math.Abs(e[m]) <= epsm*(math.Abs(d[m])+math.Abs(d[m+1])) {
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
			r := math.Hypot(g, 1)
			g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
			sn, cs, p := 1.0, 1.0, 0.0
			i := m - 1
			deflated := false
			for ; i >= l; i-- {
				f := sn * e[i]
				b := cs * e[i]
				r = math.Hypot(f, g)
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
				rotRows(zt[i*n:(i+1)*n], zt[(i+1)*n:(i+2)*n], cs, sn)
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
