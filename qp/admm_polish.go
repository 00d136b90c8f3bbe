package qp

import "math"

// polish solves the KKT system of the guessed active set and keeps the result if
// it has smaller KKT residuals.
func (s *ADMM) polish(p *Problem, n, meq, min int, res *Result) {
	act := s.act[:0]
	for i := 0; i < s.m; i++ {
		if s.lo[i] == s.up[i] || (s.z[i]-s.lo[i] < -s.y[i]) || (s.up[i]-s.z[i] < s.y[i]) {
			act = append(act, i)
		}
	}
	na := len(act)
	N := n + na
	const delta = 1e-9 // regularisation of the polish system
	k := s.kkt[:N*N]
	build := func(reg float64) {
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := 0.0
				if p.H != nil {
					v = p.H.At(i, j)
				}
				k[i*N+j] = v
			}
			k[i*N+i] += reg
		}
		for t, r := range act {
			row := s.a[r*n : r*n+n]
			for j := 0; j < n; j++ {
				k[(n+t)*N+j] = row[j]
				k[j*N+n+t] = row[j]
			}
			for u := 0; u < na; u++ {
				k[(n+t)*N+n+u] = 0
			}
			k[(n+t)*N+n+t] = -reg
		}
	}
	rhs := s.prhs[:N]
	for j := 0; j < n; j++ {
		rhs[j] = -p.G[j]
	}
	for t, r := range act {
		if s.y[r] > 0 || (s.lo[r] == s.up[r]) {
			rhs[n+t] = s.up[r]
			if s.y[r] <= 0 {
				rhs[n+t] = s.lo[r]
			}
		} else {
			rhs[n+t] = s.lo[r]
		}
	}
	build(delta)
	ipiv := s.ipiv[:N]
	if !luFactor(k, N, ipiv) {
		return
	}
	sol := s.psol[:N]
	copy(sol, rhs)
	luSolve(k, N, ipiv, sol)
	// iterative refinement against the unregularised system
	rs := s.pres[:N]
	for ref := 0; ref < 5; ref++ {
		for i := 0; i < N; i++ {
			v := rhs[i]
			if i < n {
				for j := 0; j < n; j++ {
					h := 0.0
					if p.H != nil {
						h = p.H.At(i, j)
					}
					v -= h * sol[j]
				}
				for t, r := range act {
					v -= s.a[r*n+i] * sol[n+t]
				}
			} else {
				r := act[i-n]
				for j := 0; j < n; j++ {
					v -= s.a[r*n+j] * sol[j]
				}
			}
			rs[i] = v
		}
		luSolve(k, N, ipiv, rs)
		for i := range sol {
			sol[i] += rs[i]
		}
	}
	// candidate x and y (OSQP sign: Hx + g + Aᵀy = 0, the system above uses +Aᵀλ = −g)
	yc := s.dy
	fill(yc, 0)
	for t, r := range act {
		yc[r] = sol[n+t]
	}
	for i := 0; i < s.m; i++ {
		// inactive or wrongly signed multipliers make the guess invalid
		if s.lo[i] != s.up[i] && ((yc[i] > 0 && math.IsInf(s.up[i], 1)) || (yc[i] < 0 && math.IsInf(s.lo[i], -1))) {
			return
		}
	}
	if s.eqv == nil || len(s.eqv) != meq || len(s.inv) != min || len(s.lov) != n {
		s.eqv, s.inv, s.lov, s.upv = make([]float64, meq), make([]float64, min), make([]float64, n), make([]float64, n)
	}
	s.multipliers(yc, s.eqv, s.inv, s.lov, s.upv)
	xp := s.px
	copy(xp, sol[:n])
	kk, err := residuals(p, n, meq, min, xp, s.eqv, s.inv, s.lov, s.upv, s.atyb, s.tmp[:n])
	if err != nil || kk.Max() >= res.KKT.Max() {
		return
	}
	res.KKT = kk
	copy(res.X, xp)
	copy(res.Eq, s.eqv)
	copy(res.Ineq, s.inv)
	copy(res.Lower, s.lov)
	copy(res.Upper, s.upv)
	copy(s.y, yc)
}

// luFactor computes an LU factorisation with partial pivoting of the row-major
// n×n matrix a in place (unblocked, allocation-free); it reports false on an
// exactly zero pivot.
func luFactor(a []float64, n int, piv []int) bool {
	for k := 0; k < n; k++ {
		p, best := k, math.Abs(a[k*n+k])
		for i := k + 1; i < n; i++ {
			if v := math.Abs(a[i*n+k]); v > best {
				p, best = i, v
			}
		}
		piv[k] = p
		if best == 0 {
			return false
		}
		if p != k {
			rk, rp := a[k*n:k*n+n], a[p*n:p*n+n]
			for j := range rk {
				rk[j], rp[j] = rp[j], rk[j]
			}
		}
		d := a[k*n+k]
		rk := a[k*n+k+1 : k*n+n]
		for i := k + 1; i < n; i++ {
			f := a[i*n+k] / d
			a[i*n+k] = f
			if f == 0 {
				continue
			}
			ri := a[i*n+k+1 : i*n+n]
			for j := range ri {
				ri[j] -= f * rk[j]
			}
		}
	}
	return true
}

// luSolve solves a x = b in place with the factorisation of luFactor.
func luSolve(a []float64, n int, piv []int, b []float64) {
	for k := 0; k < n; k++ {
		if p := piv[k]; p != k {
			b[k], b[p] = b[p], b[k]
		}
	}
	for i := 1; i < n; i++ {
		s := b[i]
		for j := 0; j < i; j++ {
			s -= a[i*n+j] * b[j]
		}
		b[i] = s
	}
	for i := n - 1; i >= 0; i-- {
		s := b[i]
		for j := i + 1; j < n; j++ {
			s -= a[i*n+j] * b[j]
		}
		b[i] = s / a[i*n+i]
	}
}
