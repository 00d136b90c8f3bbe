package qptest

import (
	"math"

	"ukm/qp"
)

// certificate checks the Farkas certificate of an Infeasible result,
// measured here from the weights and the problem (not with qp's code): the
// lengths, the signs (Ineq, Lower, Upper >= 0, zero on infinite bounds), the
// residual of Aeqᵀ·Eq + Ainᵀ·Ineq + Lower − Upper relative to the size of its
// terms (at most the tolerance), the normalised gap (above it), and the
// Residual and Gap the solver reported against the measured ones.
func (r *run) certificate(name string, p *qp.Problem, res *qp.Result) {
	n, meq, min := dims(p)
	f := &res.Farkas
	if len(f.Eq) != meq || len(f.Ineq) != min || len(f.Lower) != n || len(f.Upper) != n {
		r.failf(name, "Infeasible with certificate lengths Eq %d Ineq %d Lower %d Upper %d, want %d %d %d %d",
			len(f.Eq), len(f.Ineq), len(f.Lower), len(f.Upper), meq, min, n, n)
		return
	}
	res0, gap := measureFarkas(p, f)
	if math.IsInf(res0, 1) {
		r.failf(name, "Infeasible with a certificate of wrong signs or NaN: %+v", *f)
		return
	}
	if res0 > r.tol {
		r.failf(name, "certificate residual %.1e above %.1e", res0, r.tol)
	}
	if !(gap > r.tol) {
		r.failf(name, "certificate gap %.1e not above %.1e", gap, r.tol)
	}
	if math.Abs(f.Gap-gap) > 1e-6*gap || f.Residual > math.Max(r.tol, 2*res0+1e-15) {
		r.failf(name, "reported certificate Residual %.1e Gap %.1e, measured %.1e %.1e", f.Residual, f.Gap, res0, gap)
	}
}

// measureFarkas returns the residual max_j |r_j|/S_j and the gap / W of the
// certificate f for p (see qp.Farkas), +Inf for wrong signs or non-finite
// weights.
func measureFarkas(p *qp.Problem, f *qp.Farkas) (residual, gap float64) {
	n, meq, min := dims(p)
	r, s := make([]float64, n), make([]float64, n)
	g, w := 0.0, 0.0
	add := func(a []float64, b, y float64) {
		for j, v := range a {
			r[j] += v * y
			s[j] += math.Abs(v * y)
		}
		g += y * b
		w += math.Abs(y) * (1 + math.Abs(b))
	}
	for i := 0; i < meq; i++ {
		if math.IsNaN(f.Eq[i]) || math.IsInf(f.Eq[i], 0) {
			return math.Inf(1), 0
		}
		add(p.Aeq.RawRowView(i), p.Beq[i], f.Eq[i])
	}
	for i := 0; i < min; i++ {
		if !(f.Ineq[i] >= 0) || math.IsInf(f.Ineq[i], 1) {
			return math.Inf(1), 0
		}
		add(p.Ain.RawRowView(i), p.Bin[i], f.Ineq[i])
	}
	for j := 0; j < n; j++ {
		lo, up := math.Inf(-1), math.Inf(1)
		if p.Lower != nil {
			lo = p.Lower[j]
		}
		if p.Upper != nil {
			up = p.Upper[j]
		}
		zl, zu := f.Lower[j], f.Upper[j]
		if !(zl >= 0) || !(zu >= 0) || math.IsInf(zl+zu, 1) || (zl > 0 && math.IsInf(lo, -1)) || (zu > 0 && math.IsInf(up, 1)) {
			return math.Inf(1), 0
		}
		if zl > 0 {
			r[j] += zl
			s[j] += zl
			g += zl * lo
			w += zl * (1 + math.Abs(lo))
		}
		if zu > 0 {
			r[j] -= zu
			s[j] += zu
			g -= zu * up
			w += zu * (1 + math.Abs(up))
		}
	}
	for j := range r {
		if r[j] != 0 {
			residual = math.Max(residual, math.Abs(r[j])/s[j])
		}
	}
	if w == 0 {
		return residual, 0
	}
	return residual, g / w
}
