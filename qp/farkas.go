package qp

import (
	"math"

	"ukm/linalg"
)

// Farkas is a certificate that the constraints of a Problem admit no point: a
// weight for every constraint, Eq of either sign, Ineq, Lower and Upper
// nonnegative (Lower[j] and Upper[j] zero where that bound is infinite), such
// that
//
//	r = Aeqᵀ·Eq + Ainᵀ·Ineq + Lower − Upper = 0  and
//	gap = Beqᵀ·Eq + Binᵀ·Ineq + Σ_j Lower_j·lo_j − Σ_j Upper_j·up_j > 0.
//
// Adding up the constraints with these weights gives rᵀx >= gap for every
// feasible x, that is 0 >= gap > 0: no feasible x exists. (This is Farkas'
// lemma; the weights are the multipliers of a phase-1 problem, or of a dual
// ray, and bound weights are set to absorb the row combination wherever the
// bound exists.)
//
// In floating point r is never exactly zero, so the certificate carries two
// measures (Residual is invariant under scaling of the rows and columns; Gap
// is relative in the package's convention 1 + |b|, as KKT.PrimalFeas):
//
//   - Residual = max_j |r_j| / S_j, with S_j = Σ_i |a_ij·w_i| + Lower_j +
//     Upper_j the size of the terms of r_j (0/0 counts as 0): a relative
//     perturbation of the coefficients a_ij by at most Residual makes r
//     exactly zero. A weight of the wrong sign, or on an infinite bound,
//     makes it +Inf.
//   - Gap = gap / W, with W = Σ|w_i|·(1 + |b_i|) over the rows and
//     Σ w_j·(1 + |bound_j|) over the bounds: on the problem so perturbed,
//     every x violates some constraint i by at least Gap·(1 + |b_i|).
//
// A solver reports Infeasible only with a certificate whose Residual is at
// most its Settings.Tol and whose Gap exceeds it (see Result); Measure
// recomputes both from the weights for any problem.
type Farkas struct {
	Eq, Ineq, Lower, Upper []float64
	Residual               float64
	Gap                    float64
}

// Measure computes f.Residual and f.Gap for the constraints of p from the
// weights in f. Nil weight slices count as zero. It returns an error wrapping
// linalg.ErrInvalid for an invalid p or weights of the wrong lengths, costs
// O(n·rows) and allocates two slices of length n.
func (f *Farkas) Measure(p *Problem) error {
	const op = "qp.Farkas.Measure"
	n, meq, min, err := p.dims(op)
	if err != nil {
		return err
	}
	if f == nil {
		return linalg.Errorf(linalg.ErrEmpty, op, "nil certificate")
	}
	if (f.Eq != nil && len(f.Eq) != meq) || (f.Ineq != nil && len(f.Ineq) != min) ||
		(f.Lower != nil && len(f.Lower) != n) || (f.Upper != nil && len(f.Upper) != n) {
		return linalg.Errorf(linalg.ErrShape, op, "weight lengths do not match the problem")
	}
	r, s := make([]float64, n), make([]float64, n)
	f.Residual, f.Gap = f.measure(p, n, meq, min, r, s)
	return nil
}

// measure is Measure on a validated problem, with scratch r and s of length n.
func (f *Farkas) measure(p *Problem, n, meq, min int, r, s []float64) (residual, gap float64) {
	get := func(v []float64, i int) float64 {
		if v == nil {
			return 0
		}
		return v[i]
	}
	fill(r[:n], 0)
	fill(s[:n], 0)
	g, w := 0.0, 0.0
	rows := func(m int, y []float64, b []float64, row func(int) []float64, signed bool) bool {
		for i := 0; i < m; i++ {
			yi := get(y, i)
			if yi == 0 {
				continue
			}
			if !finite(yi) || (!signed && yi < 0) {
				return false
			}
			for j, a := range row(i) {
				if a != 0 {
					r[j] += a * yi
					s[j] += math.Abs(a * yi)
				}
			}
			g += yi * b[i]
			w += math.Abs(yi) * (1 + math.Abs(b[i]))
		}
		return true
	}
	ok := rows(meq, f.Eq, p.Beq, func(i int) []float64 { return p.Aeq.RawRowView(i) }, true) &&
		rows(min, f.Ineq, p.Bin, func(i int) []float64 { return p.Ain.RawRowView(i) }, false)
	for j := 0; ok && j < n; j++ {
		for side, z := range [2]float64{get(f.Lower, j), get(f.Upper, j)} {
			if z == 0 {
				continue
			}
			bnd := p.lo(j)
			if side == 1 {
				bnd, z = p.up(j), -z
			}
			if !finite(z) || z*float64(1-2*side) < 0 || math.IsInf(bnd, 0) {
				ok = false
				break
			}
			r[j] += z
			s[j] += math.Abs(z)
			g += z * bnd
			w += math.Abs(z) * (1 + math.Abs(bnd))
		}
	}
	if !ok {
		return math.Inf(1), 0
	}
	for j := 0; j < n; j++ {
		if r[j] != 0 {
			residual = fmax(residual, math.Abs(r[j])/s[j])
		}
	}
	if w == 0 {
		return residual, 0
	}
	return residual, g / w
}

// verified reports whether the certificate proves infeasibility at tolerance
// tol: Residual <= tol < Gap.
func (f *Farkas) verified(tol float64) bool {
	return f.Residual <= tol && f.Gap > tol
}

// absorbBounds cleans the row weights of f and sets its bound weights from
// them. Weights whose contribution |w_i|·max(‖a_i‖∞, |b_i|) is at most drop
// times the
// largest one are rounding noise of the multipliers that produced them (a
// constraint in the working set with a zero multiplier) and are set to zero,
// wrongly signed ones included. Then, with c = Aeqᵀ·Eq + Ainᵀ·Ineq,
// Lower_j = max(−c_j, 0) where lo_j is finite and Upper_j = max(c_j, 0) where
// up_j is finite: the choice that cancels c_j wherever the needed bound
// exists. c is scratch of length n.
func (f *Farkas) absorbBounds(p *Problem, n, meq, min int, c []float64, drop float64) {
	size := func(row []float64, b, y float64) float64 {
		m := math.Abs(b)
		for _, a := range row {
			m = fmax(m, math.Abs(a))
		}
		return m * math.Abs(y)
	}
	big := 0.0
	for i := 0; i < meq; i++ {
		big = fmax(big, size(p.Aeq.RawRowView(i), p.Beq[i], f.Eq[i]))
	}
	for i := 0; i < min; i++ {
		big = fmax(big, size(p.Ain.RawRowView(i), p.Bin[i], f.Ineq[i]))
	}
	for i := 0; i < meq; i++ {
		if size(p.Aeq.RawRowView(i), p.Beq[i], f.Eq[i]) <= drop*big {
			f.Eq[i] = 0
		}
	}
	for i := 0; i < min; i++ {
		if size(p.Ain.RawRowView(i), p.Bin[i], f.Ineq[i]) <= drop*big {
			f.Ineq[i] = 0
		}
	}
	fill(c[:n], 0)
	for i := 0; i < meq; i++ {
		if y := f.Eq[i]; y != 0 {
			for j, a := range p.Aeq.RawRowView(i) {
				c[j] += a * y
			}
		}
	}
	for i := 0; i < min; i++ {
		if y := f.Ineq[i]; y != 0 {
			for j, a := range p.Ain.RawRowView(i) {
				c[j] += a * y
			}
		}
	}
	for j := 0; j < n; j++ {
		f.Lower[j], f.Upper[j] = 0, 0
		if c[j] < 0 && !math.IsInf(p.lo(j), -1) {
			f.Lower[j] = -c[j]
		} else if c[j] > 0 && !math.IsInf(p.up(j), 1) {
			f.Upper[j] = c[j]
		}
	}
}

// resetFarkas empties the certificate of res (every status but Infeasible).
func resetFarkas(res *Result) {
	f := &res.Farkas
	f.Eq, f.Ineq, f.Lower, f.Upper = f.Eq[:0], f.Ineq[:0], f.Lower[:0], f.Upper[:0]
	f.Residual, f.Gap = 0, 0
}

// growFarkas sizes the certificate of res for a problem of n variables, meq
// equalities and min inequalities, zeroed.
func growFarkas(res *Result, n, meq, min int) *Farkas {
	f := &res.Farkas
	f.Eq, f.Ineq = grow(f.Eq, meq), grow(f.Ineq, min)
	f.Lower, f.Upper = grow(f.Lower, n), grow(f.Upper, n)
	fill(f.Eq, 0)
	fill(f.Ineq, 0)
	fill(f.Lower, 0)
	fill(f.Upper, 0)
	f.Residual, f.Gap = 0, 0
	return f
}

// copyFarkas copies the certificate src into dst (growing dst's slices).
func copyFarkas(dst, src *Farkas) {
	dst.Eq = append(dst.Eq[:0], src.Eq...)
	dst.Ineq = append(dst.Ineq[:0], src.Ineq...)
	dst.Lower = append(dst.Lower[:0], src.Lower...)
	dst.Upper = append(dst.Upper[:0], src.Upper...)
	dst.Residual, dst.Gap = src.Residual, src.Gap
}
