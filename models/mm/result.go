package mm

import (
	"math"

	"ukm/linalg"
	"ukm/models/spectral"
)

// Result is the outcome of Learn: the best point found, with status and
// statistics even when the method stopped before the gap met Tol.
type Result struct {
	// Mu holds the spectral coefficients (length q), with
	// sum_i Mu_i ||phi_i||² = Trace.
	Mu []float64
	// Theta holds the weights of the q extreme rays of the cone (the
	// simplex coordinates the method works in; see the package doc).
	Theta []float64
	// Problems is the number P of binary problems: 1 for Learn, the
	// number of label vectors for LearnSum.
	Problems int
	// Alpha holds the SVM dual variables of the labeled points, l per
	// problem: problem p in Alpha[p*l : (p+1)*l] (0 <= Alpha_j <= C,
	// sum_j y_j Alpha_j = 0). For Learn it has length l.
	Alpha []float64
	// Bias holds the SVM bias b of each problem (eq. 15 of the paper sets
	// b = 0; Decision adds it).
	Bias []float64
	// Coef holds, for problem p in Coef[p*q : (p+1)*q], the values
	// Mu_i sum_j Alpha_j y_j phi_i(x_j), so that the decision value of basis
	// row r is sum_i V[r,i] Coef_i + Bias[p].
	Coef []float64
	// Objective is J(Mu) = 2 sum(Alpha) - Alpha^T D(y) Kbar_ll D(y) Alpha,
	// the SVM dual optimum at Mu (twice the svm package's Model.Dual),
	// summed over the problems.
	Objective float64
	// Upper is the SVM primal value ||w||² + 2 C sum_j xi_j at Mu (with
	// the inner solution's w and b), summed over the problems: an upper
	// bound on J(Mu).
	Upper float64
	// Lower is the best lower bound on min J over the cone seen so far:
	// max over the visited Alpha of 2 sum(Alpha) - max over the extreme
	// rays of the ray's term (both summed over the problems).
	Lower float64
	// Gap is the relative duality gap (Upper - Lower) / Upper: Objective
	// is within Gap·Upper of the optimum (up to rounding).
	Gap float64
	// History holds the objective at the start and after every outer
	// iteration; it is strictly decreasing.
	History []float64
	// Iterations counts outer iterations; Evaluations counts inner SVM
	// solves (line-search trials included); SMOIterations sums their SMO
	// pair updates.
	Iterations, Evaluations, SMOIterations int
	// Status is the outcome: Converged (the relative gap is at most Tol),
	// IterationLimit (MaxIter outer iterations were done), Stalled (no
	// decrease was found while the gap exceeds Tol), NumericalFailure (an
	// inner SVM solve stopped at its iteration limit, so J and its bounds
	// are not accurate), Canceled, or NotRun.
	Status linalg.Status
}

// Decision writes the decision values f_p = sum_j y_j Alpha_j Kbar(x_j, .) +
// Bias[p] (eq. 15 of the paper, with the SVM bias) of all n rows of the
// basis b into dst (grown if needed) and returns it: n x P row-major, the
// value of row r for problem p at dst[r*P+p] (just n values for Learn). b
// must be the basis r was learned on (only its shape can be checked).
//
// A result without a learned model or a nil or empty basis is an error of
// kind linalg.ErrEmpty, a basis of another width of kind linalg.ErrShape, a
// non-finite decision value of kind linalg.ErrNonFinite. Cost O(n q P).
func (r *Result) Decision(dst []float64, b *spectral.Basis) ([]float64, error) {
	const op = "mm.Result.Decision"
	if r == nil || r.Problems == 0 || len(r.Bias) != r.Problems || len(r.Coef)%r.Problems != 0 || len(r.Coef) == 0 {
		return dst, linalg.Errorf(linalg.ErrEmpty, op, "result holds no learned model")
	}
	n, d := b.Dims()
	if n == 0 {
		return dst, linalg.Errorf(linalg.ErrEmpty, op, "empty basis")
	}
	np := r.Problems
	if q := len(r.Coef) / np; d != q {
		return dst, linalg.Errorf(linalg.ErrShape, op, "basis has %d vectors, result was learned on %d", d, q)
	}
	dst = grow(dst, n*np)
	for i := 0; i < n; i++ {
		row := b.V.RawRowView(i)
		for p := 0; p < np; p++ {
			s := r.Bias[p]
			for k, c := range r.Coef[p*d : (p+1)*d] {
				s += row[k] * c
			}
			if math.IsNaN(s) || math.IsInf(s, 0) {
				return dst, linalg.Errorf(linalg.ErrNonFinite, op, "decision value of row %d is %v (non-finite basis row?)", i, s)
			}
			dst[i*np+p] = s
		}
	}
	return dst, nil
}

// export copies the point p into res.
func (lr *Learner) export(res *Result, p *point) {
	q, np := lr.q, lr.np
	res.Problems = np
	res.Mu = append(res.Mu[:0], p.mu...)
	res.Theta = append(res.Theta[:0], p.theta...)
	res.Alpha = res.Alpha[:0]
	res.Bias = res.Bias[:0]
	for pi := range p.m {
		res.Alpha = append(res.Alpha, p.m[pi].Alpha...)
		res.Bias = append(res.Bias, p.m[pi].Bias)
	}
	res.Coef = grow(res.Coef, q*np)
	for pi := 0; pi < np; pi++ {
		for i, z := range p.z[pi*q : (pi+1)*q] {
			res.Coef[pi*q+i] = p.mu[i] * z
		}
	}
	res.Objective = p.j
	res.Upper = p.upper
}
