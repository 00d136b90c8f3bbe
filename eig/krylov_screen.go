package eig

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// The multiplicity check of the single-vector methods on a three-term
// recurrence (krylov_restart.go runs it first).
//
// The check looks for an eigenvalue of the operator restricted to the
// complement of the d locked Ritz vectors that is better than the last
// wanted value: a missed copy. Run in the basis, it pays a Gram-Schmidt
// pass against every basis vector at each step and a restart when the
// basis fills up. None of that is needed to see the extreme Ritz value:
// plain Lanczos (Paige) computes it as accurately as Lanczos with full
// reorthogonalization until it converges, the Ritz values of the
// recurrence stay within the spectrum of the restricted operator (lost
// orthogonality only repeats converged values, it invents none), and its
// residual estimate beta_j |s_j| holds. Each step here costs the product,
// a pass against the d locked vectors (two when the DGKS test asks) and
// the recurrence. The rules
// are those of the check in the basis: the same length before the first
// look, the same spacing of looks, the same test for a better value and
// the same resolution test. When the screen cannot decide (a better value,
// no resolution within its budget, a breakdown) the caller runs the check
// in the basis, which handles those cases.

// screenCopies runs the check from V[d], a random unit vector orthogonal
// to the locked V[0:d], whose values are ref (restartKeep with fresh). It
// returns true if the most wanted value of the recurrence is resolved
// below the wanted set (or is a copy of its last value), false if the
// caller must run the check in the basis. Its steps count as iterations
// and products of the solve.
func (k *krylov) screenCopies(ctx context.Context, d int, ref []float64, first, every int) (bool, error) {
	n := k.n
	if k.scr == nil {
		k.scr = mat.NewDense(3, n, nil)
	}
	budget := min(k.cfg.maxIter-k.iters, max(4*first, screenSteps))
	if budget < first {
		return false, nil
	}
	// Rows ip and iq of scr hold the previous and the current vector, row
	// 2 the image.
	ip, iq := 0, 1
	clear(k.scr.RawRowView(ip))
	copy(k.scr.RawRowView(iq), k.v.RawRowView(d))
	w := k.scr.RawRowView(2)
	var wView, qView mat.Dense
	wView.SetRawMatrix(blas64.General{Rows: 1, Cols: n, Stride: n, Data: w})
	bl := blas64.Implementation()
	alpha, beta := k.scrA[:0], k.scrB[:0]
	defer func() { k.scrA, k.scrB = alpha, beta }()
	win := math.Sqrt(k.cfg.tol) * k.normA
	coef := k.c1[:d] // project's coefficients, not needed
	next := first
	for j := 1; j <= budget; j++ {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		prev, cur := k.scr.RawRowView(ip), k.scr.RawRowView(iq)
		qView.SetRawMatrix(blas64.General{Rows: 1, Cols: n, Stride: n, Data: cur})
		k.apply(&wView, &qView)
		k.iters++
		k.screened++
		a := bl.Ddot(n, cur, 1, w, 1)
		bl.Daxpy(n, -a, cur, 1, w, 1)
		if j > 1 {
			bl.Daxpy(n, -beta[j-2], prev, 1, w, 1)
		}
		// Against the locked vectors, a second time if the first pass
		// shrank the image by more than the DGKS factor: the recurrence
		// keeps its vectors orthogonal to each other only approximately,
		// but they must stay out of the locked space to the last digit,
		// or the locked values would come back as better ones.
		b0 := normEst(w)
		clear(coef)
		k.project(&wView, 0, d, coef)
		b := normEst(w)
		if b < eta*b0 {
			k.project(&wView, 0, d, coef)
			b = normEst(w)
		}
		alpha, beta = append(alpha, a), append(beta, b)
		if !(b > 4*float64(n)*dlamchE*k.normA) || math.IsInf(b, 0) {
			// A breakdown (an invariant subspace from a random start) or
			// a non-finite image: the check in the basis decides or
			// reports.
			return false, nil
		}
		for i, v := range w {
			prev[i] = v / b
		}
		ip, iq = iq, ip
		if j < next {
			continue
		}
		next = j + every
		theta, res, ok := k.screenTop(alpha, beta)
		if !ok || k.sign*(theta-ref[d-1]) > win {
			return false, nil // a better value (a missed copy), or a doubt
		}
		gap := k.sign * (ref[d-1] - theta)
		if res <= k.cfg.tol*k.normA || (gap > 0 && res <= 1e-2*gap) || (gap <= win && res <= win) {
			k.restarts++
			return true, nil
		}
	}
	return false, nil
}

// screenSteps is the least budget of screenCopies (steps of the
// recurrence before the check in the basis takes over).
const screenSteps = 200

// screenTop returns the most wanted eigenvalue of the tridiagonal matrix
// with diagonal alpha and off-diagonal beta[:j-1], and the residual
// estimate beta[j-1] |s_j| of its Ritz pair (s_j the last component of its
// unit eigenvector).
func (k *krylov) screenTop(alpha, beta []float64) (float64, float64, bool) {
	j := len(alpha)
	if cap(k.scrD) < 3*j {
		k.scrD = make([]float64, 3*j, 3*(j+64))
	}
	buf := k.scrD[:3*j]
	dg, e, z := buf[:j], buf[j:2*j], buf[2*j:]
	copy(dg, alpha)
	copy(e, beta[:j-1])
	e[j-1] = 0
	clear(z)
	z[j-1] = 1
	if !tridiagQLCols(j, 1, dg, e, z) {
		return 0, 0, false
	}
	best := 0
	for i := 1; i < j; i++ {
		if k.sign*(dg[i]-dg[best]) > 0 {
			best = i
		}
	}
	return dg[best], beta[j-1] * math.Abs(z[best]), true
}
