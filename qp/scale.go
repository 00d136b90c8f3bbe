package qp

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Equilibration. A problem whose rows and columns differ in size by orders of
// magnitude (coefficients over 8 decades, variables in different units) is
// solved in scaled variables x = D·x̃ with scaled rows E·A·D x̃ ⋛ E·b and
// objective c·(½x̃ᵀDHDx̃ + (Dg)ᵀx̃). D, E and c are found by Ruiz's
// iteration on the KKT matrix [DHD (EAD)ᵀ; EAD 0] (every row and column
// divided by the square root of its largest entry until all are near 1),
// then rounded to powers of two, so that scaling and unscaling are exact.
// Without scaling, a direction p whose components span the column scales has
// rounding errors of order ε·‖p‖ in its small components, and the rows on the
// small variables can neither block nor be recognised as dependent.

const (
	// scaleIters bounds the Ruiz iterations; each costs O(n² + rows·n).
	scaleIters = 20
	// scaleSpread is the ratio of the largest to the smallest row or column
	// factor below which the problem is solved unscaled: random O(1) data
	// stay within it, and solving them scaled would only add work.
	scaleSpread = 64
)

// scaling holds the factors and the scaled copy of a problem.
type scaling struct {
	d, e    []float64 // column factors (n), row factors (meq + min)
	c       float64   // objective factor
	uniform bool      // rows and objective scaled only (all data of one size far from 1)
	cn, rn  []float64 // scratch: column and row norms
	h       mat.SymDense
	aeq     mat.Dense
	ain     mat.Dense
	p       Problem
	g       []float64
	beq     []float64
	bin     []float64
	lo, up  []float64
	x0      []float64
	start   Start
	working []int
}

// prepare computes the factors for p and, if the problem is badly scaled
// (factors spread beyond scaleSpread, or all beyond it from 1), builds the
// scaled problem in s.p and reports true. It costs O(scaleIters·(n² + rows·n)).
func (s *scaling) prepare(p *Problem, n, meq, min int) bool {
	m := meq + min
	s.d, s.e = grow(s.d, n), grow(s.e, m)
	s.cn, s.rn = grow(s.cn, n), grow(s.rn, m)
	fill(s.d, 1)
	fill(s.e, 1)
	row := func(i int) []float64 {
		if i < meq {
			return p.Aeq.RawRowView(i)
		}
		return p.Ain.RawRowView(i - meq)
	}
	var hraw []float64
	hs := 0
	if p.H != nil {
		r := p.H.RawSymmetric()
		hraw, hs = r.Data, r.Stride
	}
	for it := 0; it < scaleIters; it++ {
		fill(s.cn, 0)
		fill(s.rn, 0)
		if hraw != nil {
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					if v := math.Abs(hraw[i*hs+j]) * s.d[i] * s.d[j]; v != 0 {
						s.cn[i] = fmax(s.cn[i], v)
						s.cn[j] = fmax(s.cn[j], v)
					}
				}
			}
		}
		for i := 0; i < m; i++ {
			ei := s.e[i]
			for j, a := range row(i) {
				if a != 0 {
					v := math.Abs(a) * ei * s.d[j]
					s.rn[i] = fmax(s.rn[i], v)
					s.cn[j] = fmax(s.cn[j], v)
				}
			}
		}
		done := true
		for j, v := range s.cn {
			if v > 0 {
				done = done && v > 0.5 && v < 2
				s.d[j] /= math.Sqrt(v)
			}
		}
		for i, v := range s.rn {
			if v > 0 {
				done = done && v > 0.5 && v < 2
				s.e[i] /= math.Sqrt(v)
			}
		}
		if done {
			break
		}
	}
	s.uniform = false
	dlo, dhi := factorRange(s.d)
	elo, ehi := factorRange(s.e)
	if dhi/dlo <= scaleSpread && ehi/elo <= scaleSpread {
		if max(dhi, 1/dlo, ehi, 1/elo) <= scaleSpread {
			return false
		}
		// All the data of one size, far from 1 (every entry 1e-30, say):
		// the tolerances and residuals that add 1 to a scale would be
		// absolute, so that rows of size 1e-30 count as satisfied by any
		// point. Scale each row, and the objective, to entries near 1;
		// the variables keep their units.
		s.uniform = true
		fill(s.d, 1)
		for i := range s.e {
			m := 0.0
			for _, a := range row(i) {
				m = fmax(m, math.Abs(a))
			}
			s.e[i] = 1
			if m > 0 {
				s.e[i] = pow2(1 / m)
			}
		}
		s.build(p, n, meq, min)
		return true
	}
	for j := range s.d {
		s.d[j] = pow2(s.d[j])
	}
	for i := range s.e {
		s.e[i] = pow2(s.e[i])
	}
	s.build(p, n, meq, min)
	return true
}

// factorRange returns the smallest and largest of positive factors (1, 1
// for none). Their ratio is the factors' spread; max(hi, 1/lo) is how far
// they are from 1 (factors that agree with each other but not with 1 belong
// to a problem whose data are all tiny or all huge; see prepare).
func factorRange(v []float64) (lo, hi float64) {
	lo = math.Inf(1)
	for _, x := range v {
		if x > 0 {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if hi == 0 {
		return 1, 1
	}
	return lo, hi
}

// pow2 rounds v > 0 to the nearest power of two (in the logarithm).
func pow2(v float64) float64 {
	return math.Ldexp(1, int(math.Round(math.Log2(v))))
}

// build writes the scaled problem into s.p.
func (s *scaling) build(p *Problem, n, meq, min int) {
	d, e := s.d, s.e
	s.p = Problem{}
	// objective factor: the scaled gradient terms near 1
	s.g = grow(s.g, n)
	big := 0.0
	for j := 0; j < n; j++ {
		s.g[j] = d[j] * p.G[j]
		big = fmax(big, math.Abs(s.g[j]))
	}
	if p.H != nil {
		raw := p.H.RawSymmetric()
		hm := 0.0
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				hm = fmax(hm, math.Abs(raw.Data[i*raw.Stride+j])*d[i]*d[j])
			}
		}
		big = fmax(big, hm)
	}
	s.c = 1
	if big > 0 && s.uniform {
		s.c = pow2(1 / big)
	} else if big > 0 {
		s.c = pow2(math.Min(math.Max(1/big, 1e-6), 1e6))
	}
	for j := range s.g {
		s.g[j] *= s.c
	}
	s.p.G = s.g
	if p.H != nil {
		s.h.Reset()
		s.h.ReuseAsSym(n)
		raw, dst := p.H.RawSymmetric(), s.h.RawSymmetric()
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				dst.Data[i*dst.Stride+j] = s.c * d[i] * raw.Data[i*raw.Stride+j] * d[j]
			}
		}
		s.p.H = &s.h
	}
	rows := func(dst *mat.Dense, src *mat.Dense, b, sb []float64, e []float64) ([]float64, *mat.Dense) {
		if src == nil {
			return sb[:0], nil
		}
		r, _ := src.Dims()
		dst.Reset()
		dst.ReuseAs(r, n)
		sb = grow(sb, r)
		for i := 0; i < r; i++ {
			out := dst.RawRowView(i)
			for j, a := range src.RawRowView(i) {
				out[j] = e[i] * a * d[j]
			}
			sb[i] = e[i] * b[i]
		}
		return sb, dst
	}
	s.beq, s.p.Aeq = rows(&s.aeq, p.Aeq, p.Beq, s.beq, e[:meq])
	s.bin, s.p.Ain = rows(&s.ain, p.Ain, p.Bin, s.bin, e[meq:])
	if p.Aeq != nil {
		s.p.Beq = s.beq
	}
	if p.Ain != nil {
		s.p.Bin = s.bin
	}
	if p.Lower != nil {
		s.lo = grow(s.lo, n)
		for j, v := range p.Lower {
			s.lo[j] = v / d[j]
		}
		s.p.Lower = s.lo
	}
	if p.Upper != nil {
		s.up = grow(s.up, n)
		for j, v := range p.Upper {
			s.up[j] = v / d[j]
		}
		s.p.Upper = s.up
	}
}

// scaleStart returns the warm start in scaled variables (nil for none).
func (s *scaling) scaleStart(st *Start) *Start {
	if st == nil || st.X == nil {
		if st == nil {
			return nil
		}
		s.start = Start{Working: st.Working}
		return &s.start
	}
	s.x0 = grow(s.x0, len(st.X))
	for j, v := range st.X {
		s.x0[j] = v / s.d[j]
	}
	s.start = Start{X: s.x0, Working: st.Working}
	return &s.start
}

// unscale maps a result of the scaled problem to the original variables:
// x = D·x̃, ray = D·r̃, row multipliers E·λ̃/c, bound multipliers z̃/(c·D), and
// the row weights of a certificate E·ỹ (the bound weights are recomputed by
// the caller). The objective and the KKT residuals are left to the caller.
func (s *scaling) unscale(res *Result, meq int) {
	d, e, c := s.d, s.e, s.c
	for j := range res.X {
		res.X[j] *= d[j]
	}
	for j := range res.Ray {
		res.Ray[j] *= d[j]
	}
	for i := range res.Eq {
		res.Eq[i] *= e[i] / c
	}
	for i := range res.Ineq {
		res.Ineq[i] *= e[meq+i] / c
	}
	for j := range res.Lower {
		res.Lower[j] /= c * d[j]
	}
	for j := range res.Upper {
		res.Upper[j] /= c * d[j]
	}
	f := &res.Farkas
	for i := range f.Eq {
		f.Eq[i] *= e[i]
	}
	for i := range f.Ineq {
		f.Ineq[i] *= e[meq+i]
	}
}
