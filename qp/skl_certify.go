package qp

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
)

// certify computes the μ-space multipliers of res.X given which ν are positive
// and stores them with the objective and the KKT residuals in res. If the
// multipliers have a wrong sign and the last positive ν can be moved to a later
// index that fixes them (retail), free is changed accordingly.
//
// With G the bidiagonal matrix of the rows (decay rows i < d, and μ_d >= 0 as
// row d), stationarity reads λ_i − δ·λ_{i−1} + L_i = r_i := (2Hμ − a·y)_i, L the
// multipliers of μ >= 0. Mapping z_ν = S·z_t back, or a forward recurrence,
// multiplies rounding errors by δ at every step; instead λ = 0 on rows whose ν
// is positive (complementarity) and the recurrence is run backwards from them,
// λ_{i−1} = (λ_i − r_i)/δ, which damps errors. After the last positive ν,
// μ = 0 and the choice between λ and L is made greedily (see multipliers).
func (s *SKL) certify(res *Result, free []bool) {
	d := s.d
	r := s.r
	blas64.Symv(1, s.h2.RawSymmetric(), blas64.Vector{N: d, Data: res.X, Inc: 1}, 0, blas64.Vector{N: d, Data: r, Inc: 1})
	y := res.Eq[0]
	quad := 0.0 // μᵀ(2H)μ
	for i := 0; i < d; i++ {
		quad += res.X[i] * r[i]
		r[i] -= s.a[i] * y
	}
	if !s.multipliers(res, free) {
		if f := s.lastFree(); s.retail(free) && !s.multipliers(res, free) {
			// no better: restore the pattern
			for i := f + 1; i < d; i++ {
				free[i] = false
			}
			free[f] = true
			s.multipliers(res, free)
		}
	}
	res.Obj = quad / 2 // g = 0
	res.KKT, _ = residuals(&s.muP, d, 1, d-1, res.X, res.Eq, res.Ineq, res.Lower, res.Upper, s.nuX, s.hm[:d])
}

// lastFree returns the largest i with free[i] set (−1 if none) and
// max |r_i| over i < len(free).
func lastFree(free []bool, r []float64) (last int, rmax float64) {
	last = -1
	for i, fr := range free {
		if fr {
			last = i
		}
		rmax = fmax(rmax, math.Abs(r[i]))
	}
	return last, rmax
}

// multipliers sets res.Ineq and res.Lower from s.r for the given pattern and
// reports whether all of them are nonnegative.
func (s *SKL) multipliers(res *Result, free []bool) bool {
	d, r := s.d, s.r
	last, rmax := lastFree(free[:d], r)
	lam := s.hm[:d]
	fill(res.Lower, 0)
	ok := true
	for i := d - 1; i >= 0; i-- {
		switch {
		case free[i]:
			lam[i] = 0
		case i < last:
			lam[i] = (lam[i+1] - r[i+1]) / s.decay
			ok = ok && lam[i] >= 0
		}
	}
	// Past the last positive ν every μ_i is 0 and both its decay row and its
	// bound are active: stationarity λ_i − δ·λ_{i−1} + L_i = r_i leaves a choice.
	// Put as much as possible into λ_i (it helps the next coordinates), up to
	// rmax/(δ−1): from there λ stays >= rmax/(δ−1) whatever the signs of r.
	capL := math.Inf(1)
	if s.decay > 1 {
		capL = rmax / (s.decay - 1)
	}
	prev := 0.0
	for i := last + 1; i < d; i++ {
		t := r[i] + s.decay*prev
		if i == d-1 || t < 0 {
			lam[i], res.Lower[i] = 0, t
			ok = ok && t >= 0
		} else {
			lam[i] = math.Min(t, capL)
			res.Lower[i] = t - lam[i]
		}
		prev = lam[i]
	}
	for i := 0; i < d-1; i++ {
		res.Ineq[i] = lam[i]
	}
	return ok
}

// retail moves the last positive ν (index f) to a later index f' whose μ-space
// certificate has multipliers of the right sign, using the residual s.r of the
// last certify; it reports whether it found one. This is the remedy for a
// ν-space answer whose last positive ν_f has μ_f below rounding of μ_1: the ν
// columns from f on agree to rounding, so the ν-space solve cannot tell which of
// them should carry the tail, but the μ-space multipliers can (μ is unchanged to
// rounding: the decay row of f becomes active at slack μ_f ≈ 0). The backward
// recurrence from f' down to f and the greedy forward pass after f' (as in
// certify) must stay nonnegative; the caller certifies the result.
func (s *SKL) retail(free []bool) bool {
	d, c, r := s.d, s.decay, s.r
	f, rmax := lastFree(free[:d], r)
	if f < 0 {
		return false
	}
	capL := math.Inf(1)
	if c > 1 {
		capL = rmax / (c - 1)
	}
next:
	for fp := f + 1; fp < d; fp++ {
		lam := 0.0
		for i := fp; i > f; i-- {
			if lam = (lam - r[i]) / c; lam < 0 {
				continue next
			}
		}
		lam = 0
		for i := fp + 1; i < d && lam < capL; i++ {
			t := r[i] + c*lam
			if t < 0 {
				continue next
			}
			lam = t
		}
		free[f], free[fp] = false, true
		return true
	}
	return false
}

// lastFree returns the index of the last true entry of s.free, or -1.
func (s *SKL) lastFree() int {
	for i := s.d - 1; i >= 0; i-- {
		if s.free[i] {
			return i
		}
	}
	return -1
}
