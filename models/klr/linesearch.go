package klr

import "math"

// Armijo constant and the number of step halvings tried by the line search.
const (
	armijoC     = 1e-4
	maxHalvings = 60
)

// lineSearch backtracks from the full Newton step (w.dir, db) until the
// Armijo condition holds for the objective obj and directional derivative
// slope < 0 at the current point. On success the accepted point is in
// w.trial, w.btrial and w.ftrial and its objective is returned; evals counts
// the objective evaluations. ok is false when maxHalvings halvings found no
// decrease.
func (w *newton) lineSearch(p *problem, obj, slope, db float64) (objT float64, evals int, ok bool) {
	// Allow an increase of a few ulps of J so that steps in the rounding
	// regime near the optimum are not rejected.
	slack := 8 * 0x1p-52 * math.Abs(obj)
	step := 1.0
	for range maxHalvings {
		for i, c := range w.coef {
			w.trial[i] = c + step*w.dir[i]
		}
		w.btrial = w.b + step*db
		w.predict(p, w.ftrial, w.trial, w.btrial)
		objT = w.objective(p, w.ftrial, w.trial, w.btrial)
		evals++
		if objT <= obj+armijoC*step*slope+slack {
			return objT, evals, true
		}
		step /= 2
	}
	return objT, evals, false
}
