package mm

import (
	"context"
	"fmt"
	"math"
	"slices"

	"ukm/linalg"
)

// Line-search and step-length constants of the spectral projected gradient
// method: the sufficient-decrease fraction and the step-length bounds are
// those of Birgin, Martínez and Raydan (2000); 40 backtracking steps shrink
// the step by at least 2^40, far below any useful change of theta.
const (
	armijo       = 1e-4
	maxBacktrack = 40
	lambdaMin    = 1e-30
	lambdaMax    = 1e30
	// simplexTol bounds, per entry, the distance of the sum of a computed
	// projection from 1 that is put down to rounding; beyond it projectStep
	// recomputes the projection in a shifted form.
	simplexTol = 1e-12
)

// run is the spectral projected gradient method on the simplex of ray
// weights.
func (lr *Learner) run(ctx context.Context, res *Result) error {
	q, s := lr.q, lr.s
	cur, trial := &lr.p0, &lr.p1
	for k := range cur.theta {
		cur.theta[k] = 1 / float64(q)
	}
	res.History = res.History[:0]
	if cap(res.History) == 0 {
		res.History = make([]float64, 0, min(s.MaxIter+1, 512))
	}
	res.Iterations, res.Evaluations, res.SMOIterations = 0, 0, 0
	res.Status = linalg.NotRun

	finish := func(st linalg.Status, err error) error {
		res.Status = st
		lr.export(res, cur)
		return err
	}
	if err := ctx.Err(); err != nil {
		res.Status = linalg.Canceled
		return fmt.Errorf("%s: cancelled before the first iteration: %w", lr.op, err)
	}
	st, err := lr.eval(ctx, cur, false, res)
	if err != nil {
		// The first point has no complete evaluation to report.
		res.Status = st
		return err
	}
	res.History = append(res.History, cur.j)
	lower := cur.lower

	// Initial step length: the inverse sup-norm of the projected gradient
	// step with unit length.
	d := lr.dir
	lr.projectStep(d, cur, 1)
	lambda := 1.0
	if m := supNorm(d); m > 0 {
		lambda = clamp(1/m, lambdaMin, lambdaMax)
	}
	for {
		res.Lower, res.Gap = lower, relGap(cur.upper, lower)
		switch {
		case st != linalg.Converged:
			// An inner solve of the first point stopped early: J and its
			// bounds are not to be trusted.
			return finish(st, nil)
		case res.Gap <= s.Tol:
			return finish(linalg.Converged, nil)
		case res.Iterations >= s.MaxIter:
			return finish(linalg.IterationLimit, nil)
		}
		if err := ctx.Err(); err != nil {
			return finish(linalg.Canceled, fmt.Errorf("%s: cancelled after %d iterations: %w", lr.op, res.Iterations, err))
		}
		lr.projectStep(d, cur, lambda)
		var gd float64 // directional derivative g^T d, g = -a
		for k, v := range d {
			gd -= cur.a[k] * v
		}
		if !(gd < 0) {
			// The projected step vanished while the gap exceeds Tol.
			return finish(linalg.Stalled, nil)
		}
		step := 1.0
		for p := range trial.m {
			trial.m[p].Alpha = append(trial.m[p].Alpha[:0], cur.m[p].Alpha...)
		}
		for bt := 0; ; bt++ {
			for k := range trial.theta {
				trial.theta[k] = math.Max(cur.theta[k]+step*d[k], 0)
			}
			tst, err := lr.eval(ctx, trial, true, res)
			if err != nil || tst != linalg.Converged {
				// Keep the last point whose evaluation is complete.
				return finish(tst, err)
			}
			lower = math.Max(lower, trial.lower)
			// The test asks for a strict decrease as well: when
			// armijo step gd is below half an ulp of J, the Armijo
			// bound rounds to J itself and would accept an equal value
			// (History is strictly decreasing).
			if trial.j <= cur.j+armijo*step*gd && trial.j < cur.j {
				break
			}
			if bt >= maxBacktrack {
				res.Lower, res.Gap = lower, relGap(cur.upper, lower)
				return finish(linalg.Stalled, nil)
			}
			// Safeguarded minimiser of the quadratic through J(0), J'(0)
			// and J(step).
			den := 2 * (trial.j - cur.j - step*gd)
			next := 0.5 * step
			if den > 0 {
				next = clamp(-gd*step*step/den, 0.1*step, 0.5*step)
			}
			step = next
		}
		// Barzilai-Borwein step length from s = theta+ - theta and
		// y = g+ - g = a - a+.
		var ss, sy float64
		for k := range d {
			sk := trial.theta[k] - cur.theta[k]
			ss += sk * sk
			sy += sk * (cur.a[k] - trial.a[k])
		}
		if sy > 0 {
			lambda = clamp(ss/sy, lambdaMin, lambdaMax)
		} else {
			lambda = lambdaMax
		}
		cur, trial = trial, cur
		res.Iterations++
		res.History = append(res.History, cur.j)
	}
}

// projectStep sets d = P(theta + lambda a) - theta, P the projection onto
// the unit simplex (a = -gradient).
func (lr *Learner) projectStep(d []float64, p *point, lambda float64) {
	q := lr.q
	v, u := lr.tmp[:q], lr.tmp[q:2*q]
	for k := range v {
		v[k] = p.theta[k] + lambda*p.a[k]
	}
	projectSimplex(d, v, u)
	if sum := sumOf(d); !(math.Abs(sum-1) <= simplexTol*float64(q)) {
		// lambda a is so large (up to lambdaMax times the ray terms) that
		// the 1 of the simplex was lost to rounding, or it overflowed: the
		// output is off the simplex. The projection is invariant under
		// adding a constant to every entry, so project theta +
		// lambda (a - max a) instead: the largest entry is then at most 1,
		// the entries that can stay in the support are within 1 of it, and
		// an overflow gives -Inf, which projects to 0.
		amax := math.Inf(-1)
		for _, a := range p.a {
			amax = math.Max(amax, a)
		}
		for k := range v {
			v[k] = p.theta[k] + lambda*(p.a[k]-amax)
		}
		projectSimplex(d, v, u)
	}
	for k := range d {
		d[k] -= p.theta[k]
	}
}

// projectSimplex writes the Euclidean projection of v onto {x >= 0,
// sum x = 1} into dst, using u (len(v)) as scratch. It sorts a copy of v and
// finds the threshold tau with sum max(v - tau, 0) = 1.
func projectSimplex(dst, v, u []float64) {
	copy(u, v)
	slices.Sort(u)
	var sum, tau float64
	for j := len(u) - 1; j >= 0; j-- {
		sum += u[j]
		t := (sum - 1) / float64(len(u)-j)
		if u[j]-t > 0 {
			tau = t
		}
	}
	for k, x := range v {
		dst[k] = math.Max(x-tau, 0)
	}
}

func sumOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

func clamp(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

func supNorm(v []float64) float64 {
	var m float64
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}
