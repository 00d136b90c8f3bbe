package mm

import (
	"context"
	"fmt"
	"math"

	"ukm/linalg"
	"ukm/models/spectral"
)

// Objective returns J(mu), the optimal value of the SVM dual
// 2 alpha^T e - alpha^T D(y) Kbar_ll D(y) alpha on the labeled block of
// Kbar = V diag(mu) V^T, and writes its gradient dJ/dmu_i =
// -(sum_j alpha_j y_j phi_i(x_j))² into grad (grown if needed). mu need not
// lie in the cone, only be non-negative and finite. Only s.C, s.InnerTol
// and s.InnerMaxIter are used.
//
// Errors: invalid input as for Learn (wrapping linalg.ErrInvalid; a mu of
// another length is of kind ErrShape, a non-finite entry ErrNonFinite, a
// negative one ErrSettings) and a cancelled context. Having no status to
// report, Objective returns the value and gradient together with an error
// wrapping linalg.ErrNumerical when the inner SVM solve stopped at its
// iteration limit. Cost: one SVM solve on l points plus O(l^2 q).
func Objective(ctx context.Context, b *spectral.Basis, labeled []int, y, mu []float64, s *Settings, grad []float64) (float64, []float64, error) {
	const op = "mm.Objective"
	if err := linalg.CheckContext(op, ctx); err != nil {
		return 0, grad, err
	}
	var lr Learner
	if s != nil {
		lr.Settings = *s
	}
	if err := lr.setup(op, b, labeled, [][]float64{y}); err != nil {
		return 0, grad, err
	}
	if len(mu) != lr.q {
		return 0, grad, linalg.Errorf(linalg.ErrShape, op, "%d coefficients for %d basis vectors", len(mu), lr.q)
	}
	for i, v := range mu {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, grad, linalg.Errorf(linalg.ErrNonFinite, op, "coefficient %d is %v", i, v)
		}
		if v < 0 {
			return 0, grad, linalg.Errorf(linalg.ErrSettings, op, "coefficient %d is %v, want >= 0", i, v)
		}
	}
	p := &lr.p0
	copy(p.mu, mu)
	lr.kernel(p.mu)
	p.j, p.upper, p.lower = 0, 0, 0
	clear(p.a)
	var res Result
	st, err := lr.evalProblem(ctx, p, 0, false, &res)
	if err != nil {
		return 0, grad, err
	}
	grad = grow(grad, lr.q)
	for i, z := range p.z[:lr.q] {
		grad[i] = -z * z
	}
	if st != linalg.Converged {
		err = fmt.Errorf("%s: the inner SVM solve ended with status %v: %w", op, st, st.Err())
	}
	return p.j, grad, err
}
