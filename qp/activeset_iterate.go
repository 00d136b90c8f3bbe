package qp

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas/blas64"

	"ukm/linalg"
)

func (a *ActiveSet) grad() {
	if a.phase1 {
		// ∇s
		for i := 0; i < a.dim; i++ {
			a.g[i] = 0
		}
		a.g[a.n] = 1
		return
	}
	a.hmul(a.x, a.g)
	for i := 0; i < a.n; i++ {
		a.g[i] += a.p.G[i]
	}
}

// gradScale returns max(1, ‖g‖∞, ‖H‖max·‖x‖₁), a bound on the size of the
// terms of the gradient before cancellation (rounding in Hx is relative to it),
// used for the multiplier and slope tolerances.
func (a *ActiveSet) gradScale() float64 {
	gs, xs := 1.0, 0.0
	for i := 0; i < a.dim; i++ {
		xs += math.Abs(a.x[i])
		if !a.phase1 {
			gs = fmax(gs, math.Abs(a.p.G[i]))
		}
	}
	if !a.phase1 {
		gs = fmax(gs, a.hnorm*xs)
	}
	return gs
}

// refineSteps is the number of refinement steps of a candidate optimum (see
// refine): one step removes the drift of x out of the working set; a second
// one is taken only if the first still moved x by more than rounding.
const refineSteps = 2

// machEps is the float64 machine epsilon 2⁻⁵².
const machEps = 0x1p-52

// refine is one step of iterative refinement of x on the working set W at a
// subspace minimizer: the Newton step of the equality-constrained problem
//
//	minimize ½xᵀHx + gᵀx  subject to  a_kᵀx = b_k (k ∈ W),
//
// computed with the factorisations at hand, Δx = Yu − Z(ZᵀHZ)⁻¹Zᵀ(∇f + HYu) with
// Y = Q[:, :m] and Rᵀu = b_W − A_W x. The steps of the method keep x in the
// working set only up to rounding relative to ‖x‖; when the working-set
// matrix is ill-conditioned, as for a long chain of active SKL decay rows
// μ_i = δ·μ_{i+1} closed by a bound (condition number about δ^length), that
// drift is amplified into errors of x along the chain (at d = 50, δ = 2:
// μ_i ≈ 1e-7 where the optimum has 0, a relative stationarity residual of
// 1e-9). The correction u solves the triangular system with the residuals
// themselves, so it restores the working constraints to rounding of their own
// terms. It expects a.g = ∇f = Hx + g, and recomputes it. It reports the largest
// |Δx_j| relative to max(1, ‖x‖∞).
func (a *ActiveSet) refine() float64 {
	N, m := a.dim, a.m
	u := a.lam[:m]
	for k := 0; k < m; k++ {
		id := a.work[k]
		u[k] = a.rhs(id) - a.dot(id, a.x)
	}
	// Rᵀu = r (R upper triangular, column k = working constraint k)
	for k := 0; k < m; k++ {
		s := u[k]
		for t := 0; t < k; t++ {
			s -= a.r[t*N+k] * u[t]
		}
		u[k] = s / a.r[k*N+k]
	}
	dy := a.w[:N]
	fill(dy, 0)
	dyv := blas64.Vector{N: N, Data: dy, Inc: 1}
	for k, v := range u {
		if v != 0 {
			blas64.Axpy(v, blas64.Vector{N: N, Data: a.q[k*N : (k+1)*N], Inc: 1}, dyv)
		}
	}
	p := a.p_[:N]
	if m < N {
		a.hmul(dy, a.hz)
		for i := 0; i < N; i++ {
			a.g[i] += a.hz[i]
		}
		a.newtonDir(p)
	} else {
		fill(p, 0)
	}
	dmax, xmax := 0.0, 1.0
	for i := 0; i < N; i++ {
		d := dy[i] + p[i]
		a.x[i] += d
		dmax = fmax(dmax, math.Abs(d))
		xmax = fmax(xmax, math.Abs(a.x[i]))
	}
	a.grad()
	return dmax / xmax
}

// restoreViolated adds to the working set the row or bound outside it that
// the candidate optimum violates most by more than feasTol, and reports
// whether it did. The ratio test passes over a row whose decrease along a
// step is within rounding of the step's length; after a huge step (along a
// direction of nearly zero curvature) that rounding is a violation of the
// row itself. Once on the working set, the next refinement puts x back on
// the row, and the multipliers decide again. At most one addition per row,
// so the loop ends.
func (a *ActiveSet) restoreViolated() bool {
	if a.restored >= a.nrow+2*a.n {
		return false
	}
	worst, id := a.feasTol, -1
	for i := a.meq; i < a.nrow+2*a.n; i++ {
		if a.inWS[i] || a.skip[i] {
			continue
		}
		b := a.rhs(i)
		if math.IsInf(b, -1) {
			continue
		}
		if v := b - a.dot(i, a.x); v > worst {
			worst, id = v, i
		}
	}
	if id < 0 || !a.add(id, true) {
		return false
	}
	a.restored++
	a.refined = false
	return true
}

// run iterates from a feasible x with a prepared working set.
func (a *ActiveSet) run(ctx context.Context) (linalg.Status, error) {
	N := a.dim
	p, y := a.p_[:N], a.w[:N]
	for {
		if a.iter&15 == 0 {
			if err := ctx.Err(); err != nil {
				return linalg.NotRun, err
			}
		}
		if a.iter >= a.maxIter {
			return linalg.IterationLimit, nil
		}
		a.iter++
		a.grad()
		m := a.m
		nz := N - m
		if a.atMin {
			a.multipliers()
			gs := a.gradScale()
			tolL := 1e-12 * gs
			best, bestPos := 0.0, -1
			for k := 0; k < m; k++ {
				if kk, _ := a.kind(a.work[k]); kk == 4 {
					if l := math.Abs(a.lam[k]); l > 10*tolL && l > best {
						best, bestPos = l, k
					}
				}
			}
			if bestPos < 0 {
				for k := 0; k < m; k++ {
					id := a.work[k]
					if id < a.meq || id >= a.nrow+2*N {
						continue
					}
					if l := a.lam[k] / a.rownorm(id); l < -tolL {
						if bestPos < 0 || (!a.bland && l < best) || (a.bland && id < a.work[bestPos]) {
							best, bestPos = l, k
						}
					}
				}
			}
			if bestPos < 0 {
				if a.perturbed && !a.phase1 {
					// optimal for the perturbed constraints: restore them and
					// refine x onto the working set, then test again
					a.perturbed, a.refined = false, false
				}
				if a.phase1 {
					return linalg.Optimal, nil
				}
				if a.refined {
					if a.restoreViolated() {
						continue
					}
					return linalg.Optimal, nil
				}
				// candidate optimum: refine x on the working set, then test
				// the multipliers again at the refined point
				a.refined = true
				for k := 0; k < refineSteps; k++ {
					if a.refine() <= 4*machEps {
						break
					}
				}
				continue
			}
			a.remove(bestPos)
			a.atMin = false
			continue
		}
		// step direction
		var newton bool
		if a.singular {
			k := nz - 1
			wv := a.v[:nz]
			wv[k] = 1
			for i := k - 1; i >= 0; i-- {
				s := -a.rz[i*N+k]
				for t := i + 1; t < k; t++ {
					s -= a.rz[i*N+t] * wv[t]
				}
				wv[i] = s / a.rz[i*N+i]
			}
			a.nullMul(wv, p, 1)
			gp, pmax := 0.0, 0.0
			for i := 0; i < N; i++ {
				gp += a.g[i] * p[i]
				pmax = fmax(pmax, math.Abs(p[i]))
			}
			if math.Abs(gp) <= 1e-12*a.gradScale()*pmax {
				// zero curvature and zero slope: the objective is flat along p.
				// Hold the largest component of p by a temporary bound, which
				// removes the direction and restores a positive definite factor.
				j := 0
				for i := 1; i < N; i++ {
					if math.Abs(p[i]) > math.Abs(p[j]) {
						j = i
					}
				}
				a.tempX[j] = a.x[j]
				if !a.add(a.nrow+2*N+j, true) {
					return linalg.NumericalFailure, nil
				}
				a.singular = false
				if !a.factorOK() && !a.buildFactor() {
					return linalg.NumericalFailure, nil
				}
				a.atMin = a.m == N
				continue
			}
			if gp > 0 {
				for i := range p {
					p[i] = -p[i]
				}
			}
		} else {
			newton = true
			a.newtonDir(p)
		}
		alpha := math.Inf(1)
		if newton {
			alpha = 1
		} else {
			// curvature guard: a tiny positive curvature declared zero
			a.hmul(p, y)
			curv, gp, pp := 0.0, 0.0, 0.0
			for i := 0; i < N; i++ {
				curv += p[i] * y[i]
				gp += a.g[i] * p[i]
				pp += p[i] * p[i]
			}
			// only rounding-level curvature counts as zero here (the looser
			// factorisation tolerance would declare ill-conditioned problems unbounded)
			if curv > 1e-14*a.hnorm*pp {
				alpha = -gp / curv
			}
		}
		pn := 0.0
		for _, pi := range p {
			pn = math.Max(pn, math.Abs(pi))
		}
		block, bap := -1, 0.0
		for id := a.meq; id < a.nrow+2*N; id++ {
			if a.inWS[id] || a.skip[id] {
				continue
			}
			b := a.rhs(id)
			if math.IsInf(b, -1) {
				continue
			}
			ap := a.dot(id, p)
			if ap >= -2*ratioTol*pn*a.rownorm(id) && (!a.phase1 || id != a.nrow+a.n) {
				// no decrease beyond rounding of aᵀp; never for s >= 0 in
				// phase 1, where p_s = gᵀp < 0 is the descent itself
				continue
			}
			slack := math.Max(0, a.dot(id, a.x)-b)
			t := slack / -ap
			if t < alpha || (t == alpha && block >= 0 && ((a.bland && id < block) || (!a.bland && -ap > bap))) {
				alpha, block, bap = t, id, -ap
			}
		}
		if math.IsInf(alpha, 1) {
			copy(y, p)
			return linalg.Unbounded, nil
		}
		xmax := 1.0
		for i := 0; i < N; i++ {
			a.x[i] += alpha * p[i]
			xmax = fmax(xmax, math.Abs(a.x[i]))
		}
		// a step that does not move x (alpha = 0 at a degenerate point, or
		// p = 0 below rounding) makes no progress: it counts towards the
		// switch to Bland's rule like a zero step
		if alpha*pn <= 4*machEps*xmax {
			alpha = 0
		}
		if alpha == 0 {
			a.zeroSteps++
			if a.zeroSteps > 5 {
				if !a.perturbed {
					// a degenerate point: perturb the constraints apart
					// (see perturbation) before falling back on Bland's rule
					a.perturbed = true
					a.zeroSteps = 0
				} else {
					a.bland = true
				}
			}
		} else {
			a.zeroSteps = 0
			a.bland = false
		}
		if a.phase1 && block == a.nrow+a.n {
			// s reached 0: a feasible point, whatever the working set
			a.x[a.n] = 0
			return linalg.Optimal, nil
		}
		if block >= 0 && !a.add(block, true) {
			// The blocking row depends on the working set: in exact
			// arithmetic its slack is constant along every direction of the
			// null space, and it blocked only through rounding in aᵀp (badly
			// scaled rows, duplicated or ranged pairs). Skip it until a
			// constraint leaves the working set and go on from the point
			// reached.
			a.skip[block] = true
			a.nskip++
			a.atMin = false
			continue
		}
		if block >= 0 {
			{
				if a.singular {
					a.singular = false
					if !a.factorOK() && !a.buildFactor() {
						return linalg.NumericalFailure, nil
					}
				}
			}
			a.atMin = a.m == N
		} else if a.singular {
			// stopped at a curvature minimum along p: refactor
			if !a.buildFactor() {
				return linalg.NumericalFailure, nil
			}
			a.singular = false
			a.atMin = false
		} else {
			a.atMin = true
		}
	}
}
