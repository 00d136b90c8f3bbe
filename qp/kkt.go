package qp

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// KKT holds relative KKT residuals measured at a point; see Residuals.
type KKT struct {
	Stationarity    float64 // max_j |(Hx + g − Aeqᵀ·Eq − Ainᵀ·Ineq − Lower + Upper)_j| / (1 + max(|g_j|, Σ_k|H_jk x_k|, |(Aeqᵀ·Eq + Ainᵀ·Ineq + Lower − Upper)_j|))
	PrimalFeas      float64 // max_i violation_i / (1 + max(|b_i|, |a_iᵀx|))
	DualFeas        float64 // largest wrongly signed multiplier (or multiplier of an infinite bound) / (1 + largest multiplier)
	Complementarity float64 // max_i |λ_i·slack_i| / ((1 + |λ_i|)(1 + Σ_k |a_ik x_k| + |b_i|))
}

// Max returns the largest of the four residuals.
func (k KKT) Max() float64 {
	return math.Max(math.Max(k.Stationarity, k.PrimalFeas), math.Max(k.DualFeas, k.Complementarity))
}

// Residuals measures the relative KKT residuals of (x, multipliers) for p, with the
// sign convention of Result. Nil multiplier slices count as zero. It is the oracle
// the tests use and works for any solver's output. Every scale has 1 added
// to it (so that zero data divide by nothing), which makes the residuals
// absolute where the data are far below 1: a problem whose entries are all of
// size 1e-30 is met by almost any point. The solvers scale such problems
// before solving them (see ActiveSet), but a residual of them certifies
// little. A non-finite x gives infinite residuals. It returns an error wrapping linalg.ErrInvalid for an
// invalid p or slices of the wrong lengths. Cost O(n² + n·rows).
func Residuals(p *Problem, x, eq, ineq, lower, upper []float64) (KKT, error) {
	n, meq, min, err := p.dims(opResiduals)
	if err != nil {
		return KKT{}, err
	}
	return residuals(p, n, meq, min, x, eq, ineq, lower, upper, make([]float64, n), make([]float64, n))
}

// residuals is Residuals on a validated problem with caller-provided scratch r and scale.
func residuals(p *Problem, n, meq, min int, x, eq, ineq, lower, upper, r, scale []float64) (KKT, error) {
	if len(x) != n {
		return KKT{}, linalg.Errorf(linalg.ErrShape, opResiduals, "len(x) = %d, want %d", len(x), n)
	}
	get := func(s []float64, i int) float64 {
		if s == nil {
			return 0
		}
		return s[i]
	}
	if (eq != nil && len(eq) != meq) || (ineq != nil && len(ineq) != min) ||
		(lower != nil && len(lower) != n) || (upper != nil && len(upper) != n) {
		return KKT{}, linalg.Errorf(linalg.ErrShape, opResiduals, "multiplier lengths do not match the problem")
	}
	for _, v := range x {
		if !finite(v) {
			inf := math.Inf(1)
			return KKT{inf, inf, inf, inf}, nil
		}
	}
	var k KKT
	for j := 0; j < n; j++ {
		r[j] = p.G[j]
		scale[j] = math.Abs(p.G[j])
	}
	if p.H != nil {
		// r holds g; scale holds |g|; add Hx using the upper triangle
		raw := p.H.RawSymmetric()
		for i := 0; i < n; i++ {
			s, sa := 0.0, 0.0
			row := raw.Data[i*raw.Stride : i*raw.Stride+n]
			for j := 0; j < i; j++ {
				t := raw.Data[j*raw.Stride+i] * x[j]
				s += t
				sa += math.Abs(t)
			}
			for j := i; j < n; j++ {
				t := row[j] * x[j]
				s += t
				sa += math.Abs(t)
			}
			r[i] += s
			scale[i] = fmax(scale[i], sa)
		}
	}
	maxMult := 0.0
	row := func(a *mat.Dense, b []float64, m int, mult []float64, isEq bool) {
		for i := 0; i < m; i++ {
			ax := 0.0
			lam := get(mult, i)
			arow := a.RawRowView(i)
			axa := 0.0
			for j := 0; j < n; j++ {
				aij := arow[j]
				if aij == 0 {
					continue // no contribution (sparse rows such as the SKL decay rows)
				}
				ax += aij * x[j]
				axa += math.Abs(aij * x[j])
			}
			rs := ax - b[i]
			// the computed row value, not Σ|a_ik x_k|: a huge x whose row sums
			// cancel must not make a violation look small
			den := 1 + fmax(math.Abs(b[i]), math.Abs(ax))
			if isEq {
				k.PrimalFeas = fmax(k.PrimalFeas, math.Abs(rs)/den)
			} else {
				k.PrimalFeas = fmax(k.PrimalFeas, fmax(0, -rs)/den)
				maxMult = fmax(maxMult, math.Abs(lam))
				k.Complementarity = fmax(k.Complementarity, math.Abs(lam*rs)/((1+math.Abs(lam))*(1+axa+math.Abs(b[i]))))
			}
		}
	}
	if meq > 0 {
		row(p.Aeq, p.Beq, meq, eq, true)
	}
	if min > 0 {
		row(p.Ain, p.Bin, min, ineq, false)
	}
	dual := 0.0
	for j := 0; j < n; j++ {
		for side := 0; side < 2; side++ {
			var lam, bnd, slack float64
			if side == 0 {
				lam, bnd = get(lower, j), p.lo(j)
				slack = x[j] - bnd
			} else {
				lam, bnd = get(upper, j), p.up(j)
				slack = bnd - x[j]
			}
			maxMult = fmax(maxMult, math.Abs(lam))
			if math.IsInf(bnd, 0) {
				dual = fmax(dual, math.Abs(lam))
				continue
			}
			k.PrimalFeas = fmax(k.PrimalFeas, fmax(0, -slack)/(1+math.Abs(bnd)))
			k.Complementarity = fmax(k.Complementarity, math.Abs(lam*slack)/((1+math.Abs(lam))*(1+math.Abs(x[j])+math.Abs(bnd))))
			dual = fmax(dual, -lam)
		}
	}
	for i := 0; i < min; i++ {
		dual = fmax(dual, -get(ineq, i))
	}
	k.DualFeas = fmax(0, dual) / (1 + maxMult)
	// r holds g + Hx; the multipliers' sum (Aᵀλ)_j is formed on its own
	// and subtracted once, and it is also their share of the scale, as
	// OSQP measures it, not their largest term: multipliers that cancel
	// each other (huge ones on dependent rows) must neither swamp g + Hx
	// in the sum nor make the residual look small beside them, or a point
	// that is not optimal would pass for one.
	var aeq, ain blas64.General
	if meq > 0 {
		aeq = p.Aeq.RawMatrix()
	}
	if min > 0 {
		ain = p.Ain.RawMatrix()
	}
	for j := 0; j < n; j++ {
		net := get(lower, j) - get(upper, j)
		for i := 0; i < meq; i++ {
			net += aeq.Data[i*aeq.Stride+j] * get(eq, i)
		}
		for i := 0; i < min; i++ {
			net += ain.Data[i*ain.Stride+j] * get(ineq, i)
		}
		k.Stationarity = fmax(k.Stationarity, math.Abs(r[j]-net)/(1+fmax(scale[j], math.Abs(net))))
	}
	return k, nil
}

// objective returns 1/2 xᵀHx + gᵀx.
func objective(p *Problem, x, hx []float64) float64 {
	n := len(x)
	s := 0.0
	if p.H != nil {
		blas64.Symv(1, p.H.RawSymmetric(), blas64.Vector{N: n, Data: x, Inc: 1}, 0, blas64.Vector{N: n, Data: hx, Inc: 1})
		for i := range x {
			s += 0.5 * x[i] * hx[i]
		}
	}
	for i := range x {
		s += p.G[i] * x[i]
	}
	return s
}

// optimalGuard is the relative KKT residual above which a solver that believes it
// has converged reports NumericalFailure instead of Optimal, so that Optimal is
// never attached to a point that fails the KKT check.
const optimalGuard = 1e-6
