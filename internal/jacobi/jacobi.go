// Package jacobi diagonalises small dense symmetric matrices by cyclic
// Jacobi rotations. It is slower than a tridiagonal reduction (O(m³) per
// sweep) but needs no more than rotations, and it is accurate to high
// relative precision on matrices whose off-diagonal entries are small next
// to their diagonal. linalg's checked eigendecomposition falls back on it
// when gonum's fails; eig's refinement diagonalises its projected matrices
// with it.
package jacobi

import "math"

// eps is the unit round-off, 2^-53.
const eps = 0x1p-53

// maxSweeps bounds the sweeps; the convergence is quadratic once the
// off-diagonal entries are small, so a few dozen are far more than a
// settling matrix needs.
const maxSweeps = 60

// Eigen diagonalises the symmetric m x m matrix h (row-major, full storage)
// in place by cyclic Jacobi rotations and accumulates them in z (m x m,
// overwritten): on return h[j][j] is an eigenvalue, unsorted, and column j
// of z its unit eigenvector. A rotation is skipped when its angle would be
// below the round-off of the entries it changes (|h_pq| <= eps/32 |h_qq -
// h_pp|) or the entry is below eps² times the largest diagonal magnitude.
// It returns false if the sweeps do not settle.
func Eigen(m int, h, z []float64) bool {
	h, z = h[:m*m], z[:m*m]
	clear(z)
	scale := 0.0
	for i := 0; i < m; i++ {
		z[i*m+i] = 1
		scale = math.Max(scale, math.Abs(h[i*m+i]))
	}
	tiny := eps * eps * scale
	for range maxSweeps {
		rotated := false
		for p := 0; p < m; p++ {
			for r := p + 1; r < m; r++ {
				apr := h[p*m+r]
				app, arr := h[p*m+p], h[r*m+r]
				if math.Abs(apr) <= tiny || math.Abs(apr) <= eps/32*math.Abs(arr-app) {
					continue
				}
				rotated = true
				tau := (arr - app) / (2 * apr)
				t := 1 / (math.Abs(tau) + math.Sqrt(1+tau*tau))
				if tau < 0 {
					t = -t
				}
				cs := 1 / math.Sqrt(1+t*t)
				sn := t * cs
				for i := 0; i < m; i++ {
					hp, hr := h[i*m+p], h[i*m+r]
					h[i*m+p] = cs*hp - sn*hr
					h[i*m+r] = sn*hp + cs*hr
				}
				pr, rr := h[p*m:(p+1)*m], h[r*m:(r+1)*m]
				for i := range pr {
					hp, hr := pr[i], rr[i]
					pr[i] = cs*hp - sn*hr
					rr[i] = sn*hp + cs*hr
				}
				h[p*m+r], h[r*m+p] = 0, 0
				for i := 0; i < m; i++ {
					zp, zr := z[i*m+p], z[i*m+r]
					z[i*m+p] = cs*zp - sn*zr
					z[i*m+r] = sn*zp + cs*zr
				}
			}
		}
		if !rotated {
			return true
		}
	}
	return false
}
