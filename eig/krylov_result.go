package eig

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Results of the Krylov engine (krylov.go): the Ritz vectors formed from
// the basis, explicit residuals, the final refinement (refine.go) and the
// count of converged pairs.

// result assembles the Result from the current basis: the nw most wanted
// Ritz pairs with explicit residuals (estimates if explicit is false).
func (k *krylov) result(c int, status linalg.Status, explicit bool) *Result {
	res := &Result{Status: status, Iterations: k.iters, Restarts: k.restarts}
	nw := min(k.cfg.d, c)
	if c == 0 || status == linalg.NumericalFailure {
		res.MatVecs, res.Products = k.matvecs, k.products
		res.NormEstimate = k.normA
		return res
	}
	if k.ritzC != c || k.ritzNW < nw || !k.ritzVecs {
		// Not already computed by the last convergence check.
		k.ritz(c, nw, true)
	}
	est := append([]float64(nil), k.res[:nw]...)
	// Ritz vectors y = G V, with G (nw x c) stored negated and transposed
	// as for a restart, computed by column ranges on the team.
	y := firstRows(&k.finY, nw, k.n)
	clear(y.RawMatrix().Data[:nw*k.n]) // partRitzVectors subtracts from it
	for a := 0; a < nw; a++ {
		j := k.order[a]
		for i := 0; i < c; i++ {
			k.g[i*nw+a] = -k.tc[i*c+j]
		}
	}
	k.gk, k.oj.olen, k.yout = nw, c, y
	k.team.run(k.team.jobs[3], 2*nw*c*k.n)
	k.yout = nil
	res.Values = make([]float64, nw)
	for a := 0; a < nw; a++ {
		res.Values[a] = k.theta[k.order[a]]
	}
	// Restore orthonormality to working precision; the residuals below are
	// computed for these final vectors.
	orthonormalRows(&k.team, y, nw)
	res.Residuals = est
	if explicit {
		ay := firstRows(&k.finAY, nw, k.n)
		k.apply(ay, y)
		refined := false
		if k.cfg.refine && status == linalg.Converged {
			if vals, resid, yr, ok := k.refineAll(y, ay, &k.fin); ok {
				res.Values, res.Residuals, y, refined = vals, resid, yr, true
			}
		}
		bl := blas64.Implementation()
		for a := 0; a < nw && !refined; a++ {
			// The Rayleigh quotient of the final (re-orthonormalised) unit
			// vector minimises ||A y - theta y|| over theta; it replaces the
			// projected Ritz value unless that would break the wanted order
			// (possible only within a cluster narrower than the residuals).
			// A full Rayleigh-Ritz step on span(y) was tried instead and
			// measured worse (its own rotation adds rounding).
			q := dot2(y.RawRowView(a), ay.RawRowView(a))
			if k.inOrder(res.Values, a, q) {
				res.Values[a] = q
			}
			r := ay.RawRowView(a)
			bl.Daxpy(k.n, -res.Values[a], y.RawRowView(a), 1, r, 1)
			res.Residuals[a] = rowNorm(r)
		}
	}
	res.MatVecs, res.Products = k.matvecs, k.products
	res.NormEstimate = k.normA
	res.Vectors = mat.NewDense(k.n, nw, nil)
	res.Vectors.Copy(y.T())
	return res
}

// partRitzVectors sets yout[:, lo:hi] = G V[0:c][:, lo:hi], with G the gk x
// c matrix stored negated and transposed in k.g (c = k.oj.olen).
func (k *krylov) partRitzVectors(_ int, lo, hi int) {
	vr, yr := k.v.RawMatrix(), k.yout.RawMatrix()
	subTN(true, yr.Data[lo:], yr.Stride, k.gk, k.g, k.gk, vr.Data[lo:], vr.Stride, k.oj.olen, hi-lo)
}

// inOrder reports whether replacing values[a] by q keeps values[:a+1] and
// the not yet refreshed values[a+1] in the wanted order (descending for the
// largest end, ascending for the smallest).
func (k *krylov) inOrder(values []float64, a int, q float64) bool {
	before := func(u, v float64) bool { // u may precede v
		if k.cfg.which == Smallest {
			return u <= v
		}
		return u >= v
	}
	if a > 0 && !before(values[a-1], q) {
		return false
	}
	return a+1 >= len(values) || before(q, values[a+1])
}

// finish turns the outcome of run into a Result and error. Pairs the
// iteration took as converged that fail the explicit residual check make
// the status IterationLimit (Converged says how many passed); stopping at
// the limit is not an error.
func finish(k *krylov, c int, status linalg.Status, err error) (*Result, error) {
	res := k.result(c, status, status != linalg.Canceled && status != linalg.NumericalFailure)
	lim := acceptTol(k.cfg.tol, k.n) * res.NormEstimate
	for _, r := range res.Residuals {
		if r <= lim {
			res.Converged++
		}
	}
	res.Repeated = repeated(res.Values, math.Sqrt(k.cfg.tol)*res.NormEstimate)
	if err != nil {
		return res, err
	}
	if status == linalg.Converged && res.Converged < len(res.Values) {
		res.Status = linalg.IterationLimit
	}
	return res, nil
}

// repeated returns the length of the longest run of ordered values whose
// neighbours differ by at most win (Result.Repeated).
func repeated(values []float64, win float64) int {
	best, run := min(len(values), 1), 1
	for a := 1; a < len(values); a++ {
		if math.Abs(values[a]-values[a-1]) <= win {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best
}
