package qp

import "math"

// reduce chooses the basis within F and computes C = E_B⁻¹ E_N by Gauss–Jordan
// elimination on a copy of E_F.
func (b *Bounded) reduce() {
	f, k, n := len(b.free), b.k, b.n
	ew := b.ew
	for r := 0; r < k; r++ {
		row := b.p.Aeq.RawRowView(r)
		for c, j := range b.free {
			ew[r*n+c] = row[j]
		}
	}
	b.rank = 0
	b.nonb = b.nonb[:0]
	used := 0 // rows [0,used) are pivot rows (after swaps)
	for c := 0; c < f; c++ {
		best, br := 0.0, -1
		cn := 0.0
		for r := 0; r < k; r++ {
			cn = math.Max(cn, math.Abs(b.p.Aeq.At(r, b.free[c])))
		}
		for r := used; r < k; r++ {
			if v := math.Abs(ew[r*n+c]); v > best {
				best, br = v, r
			}
		}
		if br < 0 || best <= 1e-12*cn || used == k {
			b.nonb = append(b.nonb, c)
			continue
		}
		if br != used {
			for cc := 0; cc < f; cc++ {
				ew[br*n+cc], ew[used*n+cc] = ew[used*n+cc], ew[br*n+cc]
			}
		}
		pv := ew[used*n+c]
		for cc := 0; cc < f; cc++ {
			ew[used*n+cc] /= pv
		}
		for r := 0; r < k; r++ {
			if r == used {
				continue
			}
			if m := ew[r*n+c]; m != 0 {
				for cc := 0; cc < f; cc++ {
					ew[r*n+cc] -= m * ew[used*n+cc]
				}
			}
		}
		b.basic[used] = c // position in F
		used++
	}
	b.rank = used
	for q := 0; q < used; q++ {
		for t, c := range b.nonb {
			b.cm[q*n+t] = ew[q*n+c]
		}
	}
}

// factor builds the reduced Hessian on the nonbasic free variables and factorises
// it in place. It returns the index of the first non-positive pivot, or -1.
func (b *Bounded) factor() int {
	n := b.n
	nz := len(b.nonb)
	if nz == 0 {
		return -1
	}
	if b.p.H == nil || b.hnorm == 0 {
		return 0
	}
	f := len(b.free)
	// u_t[i] = (H z_t)[F_i]
	for t, ct := range b.nonb {
		jt := b.free[ct]
		for i, fi := range b.free {
			s := b.h(fi, jt)
			for q := 0; q < b.rank; q++ {
				s -= b.cm[q*n+t] * b.h(fi, b.free[b.basic[q]])
			}
			b.u[t*n+i] = s
		}
		_ = f
	}
	for s, cs := range b.nonb {
		for t := s; t < nz; t++ {
			v := b.u[t*n+cs]
			for q := 0; q < b.rank; q++ {
				v -= b.cm[q*n+s] * b.u[t*n+b.basic[q]]
			}
			b.mz[s*n+t] = v
		}
	}
	tol := 1e-13 * b.hnorm
	mz := b.mz
	for kk := 0; kk < nz; kk++ {
		d := mz[kk*n+kk]
		for t := 0; t < kk; t++ {
			d -= mz[t*n+kk] * mz[t*n+kk]
		}
		if d <= tol {
			mz[kk*n+kk] = 0
			return kk
		}
		d = math.Sqrt(d)
		mz[kk*n+kk] = d
		for l := kk + 1; l < nz; l++ {
			s := mz[kk*n+l]
			for t := 0; t < kk; t++ {
				s -= mz[t*n+kk] * mz[t*n+l]
			}
			mz[kk*n+l] = s / d
		}
	}
	return -1
}

// expand sets p (full length) from the nonbasic step s.
func (b *Bounded) expand(s, p []float64) {
	n := b.n
	for i := range p {
		p[i] = 0
	}
	for t, ct := range b.nonb {
		p[b.free[ct]] = s[t]
	}
	for q := 0; q < b.rank; q++ {
		v := 0.0
		for t := range b.nonb {
			v -= b.cm[q*n+t] * s[t]
		}
		p[b.free[b.basic[q]]] = v
	}
}

// duals computes y (E_Bᵀ y = g_B over pivot rows) and returns it in b.y; the
// reduced cost of variable j is then g_j − E_jᵀ y.
func (b *Bounded) duals() {
	k, r := b.k, b.rank
	for i := range b.y {
		b.y[i] = 0
	}
	if r == 0 {
		return
	}
	// Solve Eᵀ_B y = g_B in the least-squares-free way: rows of E are those with
	// pivots; use the original E restricted to basic columns and all k rows via
	// normal equations only when r < k. With r == k solve directly.
	m := b.eb[:r*r]
	rhs := b.eb[r*r : r*r+r]
	_ = k
	// choose r independent rows: Gaussian elimination on E_Bᵀ (r × k) with row pivoting.
	// For the few equality rows of interest we simply use the first r rows that are
	// independent by solving the (k × r) system with QR-free elimination.
	rows := b.pivRow[:0]
	for row := 0; row < b.k && len(rows) < r; row++ {
		rows = append(rows, row)
		if !b.independent(rows) {
			rows = rows[:len(rows)-1]
		}
	}
	for a, row := range rows {
		for c := 0; c < r; c++ {
			m[c*r+a] = b.p.Aeq.At(row, b.free[b.basic[c]]) // transpose: (E_B)ᵀ
		}
	}
	for c := 0; c < r; c++ {
		rhs[c] = b.g[b.free[b.basic[c]]]
	}
	solveSmall(m, rhs, r)
	for a, row := range rows {
		b.y[row] = rhs[a]
	}
}

// independent reports whether the rows of E (restricted to basic columns) are
// linearly independent, by elimination on a scratch copy.
func (b *Bounded) independent(rows []int) bool {
	r := b.rank
	nr := len(rows)
	m := b.eb[:nr*r]
	for a, row := range rows {
		for c := 0; c < r; c++ {
			m[a*r+c] = b.p.Aeq.At(row, b.free[b.basic[c]])
		}
	}
	rk := 0
	for c := 0; c < r && rk < nr; c++ {
		best, br := 0.0, -1
		for a := rk; a < nr; a++ {
			if v := math.Abs(m[a*r+c]); v > best {
				best, br = v, a
			}
		}
		if best <= 1e-12 {
			continue
		}
		for cc := 0; cc < r; cc++ {
			m[br*r+cc], m[rk*r+cc] = m[rk*r+cc], m[br*r+cc]
		}
		for a := rk + 1; a < nr; a++ {
			f := m[a*r+c] / m[rk*r+c]
			for cc := c; cc < r; cc++ {
				m[a*r+cc] -= f * m[rk*r+cc]
			}
		}
		rk++
	}
	return rk == nr
}

// solveSmall solves the r×r system m x = rhs in place (partial pivoting).
func solveSmall(m, rhs []float64, r int) {
	for c := 0; c < r; c++ {
		br, best := c, math.Abs(m[c*r+c])
		for a := c + 1; a < r; a++ {
			if v := math.Abs(m[a*r+c]); v > best {
				br, best = a, v
			}
		}
		if br != c {
			for cc := 0; cc < r; cc++ {
				m[br*r+cc], m[c*r+cc] = m[c*r+cc], m[br*r+cc]
			}
			rhs[br], rhs[c] = rhs[c], rhs[br]
		}
		for a := c + 1; a < r; a++ {
			f := m[a*r+c] / m[c*r+c]
			for cc := c; cc < r; cc++ {
				m[a*r+cc] -= f * m[c*r+cc]
			}
			rhs[a] -= f * rhs[c]
		}
	}
	for c := r - 1; c >= 0; c-- {
		s := rhs[c]
		for cc := c + 1; cc < r; cc++ {
			s -= m[c*r+cc] * rhs[cc]
		}
		rhs[c] = s / m[c*r+c]
	}
}
