package qp

import (
	"context"
	"math"

	"ukm/linalg"
)

// Solve implements Solver. start is ignored.
func (g *GoldfarbIdnani) Solve(ctx context.Context, p *Problem, start *Start, res *Result) error {
	if g == nil {
		return linalg.Errorf(linalg.ErrSettings, opGoldfarb, "nil solver")
	}
	n, meq, min, err := checkSolve(ctx, opGoldfarb, p, res)
	if err != nil {
		return err
	}
	if p.H == nil {
		return linalg.Errorf(linalg.ErrNotPSD, opGoldfarb, "Goldfarb–Idnani needs a positive definite H (H is nil)")
	}
	if err := g.Settings.check(opGoldfarb); err != nil {
		return err
	}
	set := g.Settings.resolve(n, meq+min)
	ps := p
	scaled := g.scale.prepare(p, n, meq, min)
	if scaled {
		ps = &g.scale.p
	}
	g.alloc(n, meq, min)
	g.p = ps
	if k := g.factor(); k >= 0 {
		return linalg.Errorf(linalg.ErrNotPSD, opGoldfarb, "Goldfarb–Idnani needs a positive definite H (Cholesky pivot %d is not above n·ε·max H_ii)", k)
	}
	if ctx.Err() != nil {
		return canceled(ctx, opGoldfarb, res)
	}
	res.Status = linalg.NotRun
	res.X = grow(res.X, n)
	res.Ray = res.Ray[:0]
	res.Eq, res.Ineq = grow(res.Eq, meq), grow(res.Ineq, min)
	res.Lower, res.Upper = grow(res.Lower, n), grow(res.Upper, n)
	res.Iterations, res.Phase1Iterations, res.PolishIterations = 0, 0, 0
	res.Working = res.Working[:0]
	resetFarkas(res)
	for i := range g.inA {
		g.inA[i] = false
	}
	for id := 0; id < g.nrow; id++ {
		var a []float64
		if id < meq {
			a = ps.Aeq.RawRowView(id)
		} else {
			a = ps.Ain.RawRowView(id - meq)
		}
		g.rn[id] = math.Sqrt(dot(a, a))
	}
	st, q, err := g.run(ctx, set, res)
	res.Iterations = g.iter
	if err != nil {
		return canceled(ctx, opGoldfarb, res)
	}
	res.Status = st
	fill(res.Eq, 0)
	fill(res.Ineq, 0)
	fill(res.Lower, 0)
	fill(res.Upper, 0)
	if st != linalg.Optimal {
		fill(res.X, math.NaN())
		res.KKT = KKT{math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)}
		res.Obj = math.NaN()
		if st == linalg.Infeasible {
			g.finishCertificate(p, scaled, set, res)
		}
		return nil
	}
	copy(res.X, g.x[:n])
	for k := 0; k < q; k++ {
		id, u := g.act[k], g.u[k]
		res.Working = append(res.Working, id)
		switch {
		case id < meq:
			res.Eq[id] = g.sgn[k] * u
		case id < g.nrow:
			res.Ineq[id-meq] = u
		case id < g.nrow+n:
			res.Lower[id-g.nrow] = u
		default:
			res.Upper[id-g.nrow-n] = u
		}
	}
	if scaled {
		g.scale.unscale(res, meq)
	}
	res.Obj = objective(p, res.X, g.hx)
	res.KKT, _ = residuals(p, n, meq, min, res.X, res.Eq, res.Ineq, res.Lower, res.Upper, g.kktR, g.kktS)
	if res.KKT.Max() > optimalGuard {
		res.Status = linalg.NumericalFailure
	}
	return nil
}

// finishCertificate maps the certificate of an Infeasible outcome to p (from
// the scaled problem if scaled) and verifies it there; an Infeasible result
// without a verified certificate becomes NumericalFailure.
func (g *GoldfarbIdnani) finishCertificate(p *Problem, scaled bool, set Settings, res *Result) {
	n, meq, min := g.n, g.meq, g.min
	if scaled {
		g.scale.unscale(res, meq)
	}
	f := &res.Farkas
	f.absorbBounds(p, n, meq, min, g.kktR, 0) // cleaned in the engine's variables
	f.Residual, f.Gap = f.measure(p, n, meq, min, g.kktS, g.hx)
	if !f.verified(set.Tol) {
		res.Status = linalg.NumericalFailure
		resetFarkas(res)
	}
}

// certificate builds, in res.Farkas, the certificate of the violated
// constraint id (sign sg) that depends on the q active ones with nothing to
// release: with its normal n = Σ_k r_k·N_k (r = R⁻¹d₁ from the last jtn) and
// every inequality's r_k <= 0, the weights 1 on it and −r_k on the active
// constraints cancel, and their right-hand sides add up to its violation
// (see Farkas). r is refined once against the rows themselves first. It
// reports whether the certificate verifies on g's problem at tol; it uses d,
// z and hx as scratch and leaves r in g.rv.
func (g *GoldfarbIdnani) certificate(id int, sg float64, q int, tol float64, res *Result) bool {
	n := g.n
	rv, rho := g.rv, g.z[:n]
	for pass := 0; pass < certRefine; pass++ {
		// ρ = sg·n_id − Σ_k r_k·sgn_k·n_k, then r += R⁻¹(Jᵀρ)₁
		fill(rho, 0)
		g.addNormal(rho, id, sg)
		for k := 0; k < q; k++ {
			g.addNormal(rho, g.act[k], -rv[k]*g.sgn[k])
		}
		g.jtv(rho)
		d := g.d
		for k := q - 1; k >= 0; k-- {
			v := d[k]
			for t := k + 1; t < q; t++ {
				v -= g.r[k*n+t] * g.hx[t]
			}
			g.hx[k] = v / g.r[k*n+k]
		}
		for k := 0; k < q; k++ {
			rv[k] += g.hx[k]
		}
	}
	f := growFarkas(res, n, g.meq, g.min)
	put := func(id int, w float64) {
		switch {
		case id < g.meq:
			f.Eq[id] += w
		case id < g.nrow:
			f.Ineq[id-g.meq] += w
		case id < g.nrow+n:
			f.Lower[id-g.nrow] += w
		default:
			f.Upper[id-g.nrow-n] += w
		}
	}
	put(id, sg)
	for k := 0; k < q; k++ {
		w := -rv[k]
		if g.act[k] < g.meq {
			w *= g.sgn[k]
		}
		put(g.act[k], w)
	}
	f.absorbBounds(g.p, n, g.meq, g.min, g.hx, farkasDrop)
	f.Residual, f.Gap = f.measure(g.p, n, g.meq, g.min, g.z, g.hx)
	return f.verified(tol)
}

// addNormal adds w·n_id (the ">=" normal of constraint id) to v.
func (g *GoldfarbIdnani) addNormal(v []float64, id int, w float64) {
	switch {
	case id < g.meq:
		for j, a := range g.p.Aeq.RawRowView(id) {
			v[j] += w * a
		}
	case id < g.nrow:
		for j, a := range g.p.Ain.RawRowView(id - g.meq) {
			v[j] += w * a
		}
	case id < g.nrow+g.n:
		v[id-g.nrow] += w
	default:
		v[id-g.nrow-g.n] -= w
	}
}
