package eig

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// missFailure bounds the probability that the multiplicity check of the
// shift-and-invert mode ends while a value above the wanted set is there
// to be found (see missedCopy).
const missFailure = 1e-4

// copyCheck is the outcome of missedCopy.
type copyCheck struct {
	found  bool
	extra  *mat.Dense // if found, the Ritz vectors above the wanted set (rows)
	thetaD float64    // the d-th wanted value of the inverse
	winB   float64    // the window of copies below it (see missedCopy)
	steps  int        // applications of the inverse
	status linalg.Status
}

// missedCopy is the multiplicity check of the shift-and-invert mode. A
// Lanczos iteration from one start vector finds one vector of each
// eigenspace, so the other copies of a repeated eigenvalue can be missing
// from the pairs of res. The check runs Lanczos from a random start on the
// inverse compressed to the orthogonal complement of the returned vectors
// and of the Ritz vectors in known whose residual bounds their component
// along any eigenvector of a value above the wanted set by beyondTol (see
// beyondRitz): a missing copy is an eigenvector of that compression (up to
// those components) with a value above the wanted set, and the largest
// value of the compression is otherwise the first one no pass resolved,
// below the wanted set.
//
// With m Lanczos steps, the tridiagonal T of order m, its Ritz values
// tau_j and off-diagonal entries (and final residual norm) beta_i, the
// vector beta_1 ... beta_m times the next basis vector is chi(C) w, chi
// the characteristic polynomial of T, C the compression and w the start:
// an eigenvector x of C with a value theta above every tau_j therefore has
// |x'w| |chi(theta)| <= prod beta_i, and |chi(theta)| >= prod (lam - tau_j)
// for theta >= lam. For w uniform on the unit sphere of the compression's
// range, of dimension n', P(|x'w| <= g) <= g sqrt(2 n'/pi). The check ends
// when that probability, for lam the top of the window of copies of the
// d-th wanted value theta_d of the inverse (values of A within sqrt(Tol)
// ||A|| of the d-th count as its copies, as for Result.Repeated), is below
// missFailure; or when the largest Ritz value is a copy of theta_d with a
// residual below the window (the engine's rule); or when the Ritz values
// are exact (an invariant subspace). A Ritz value above the window proves
// a value above the wanted set (it is a lower bound of the largest value
// of the compression): the check then returns the Ritz vectors above it.
// At most MaxIter steps; the status is IterationLimit if they end the
// check.
func (r *siRun) missedCopy(res *Result, known []ritzSet, round int) (copyCheck, error) {
	cfg := r.cfg
	n, d := cfg.n, cfg.d
	out := copyCheck{status: linalg.Converged}
	thetaD := 1 / math.Abs(res.Values[d-1]-r.sigma)
	winB := thetaD - 1/(1/thetaD+math.Sqrt(cfg.tol)*r.norm)
	out.thetaD, out.winB = thetaD, winB
	// Q: orthonormal rows spanning the returned vectors and the accurate
	// Ritz vectors of values below the window.
	q := mat.DenseCopyOf(res.Vectors.T())
	for _, b := range known {
		for i, v := range b.vals {
			if v < thetaD-winB && b.resid[i] <= beyondTol*(thetaD-winB-v) {
				q = appendOrthonormal(q, b.v.Slice(i, i+1, 0, n).(*mat.Dense))
			}
		}
	}
	k0, _ := q.Dims()
	room := n - k0
	if room <= 0 {
		return out, nil
	}
	qr := q.RawMatrix()
	bl := blas64.Implementation()
	cq := make([]float64, k0)
	var w [][]float64 // the check's basis
	var alpha, beta, cw []float64
	// project removes from y its components along Q and the check's
	// basis (classical Gram-Schmidt, twice) and returns the sum of the
	// coefficients along the last basis vector.
	project := func(y []float64) float64 {
		var last float64
		for pass := 0; pass < 2; pass++ {
			bl.Dgemv(blas.NoTrans, k0, n, 1, qr.Data, qr.Stride, y, 1, 0, cq, 1)
			bl.Dgemv(blas.Trans, k0, n, -1, qr.Data, qr.Stride, cq, 1, 1, y, 1)
			cw = cw[:0]
			for _, wj := range w {
				cw = append(cw, bl.Ddot(n, wj, 1, y, 1))
			}
			for j, wj := range w {
				bl.Daxpy(n, -cw[j], wj, 1, y, 1)
			}
			if len(w) > 0 {
				last += cw[len(w)-1]
			}
		}
		return last
	}
	// A new random vector for each round of the check.
	rng := rand.New(rand.NewPCG(cfg.seed, 0x6d756c7469706c65+uint64(round)))
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	project(x)
	nx := rowNorm(x)
	if nx == 0 {
		return out, nil
	}
	bl.Dscal(n, 1/nx, x, 1)
	w = append(w, x)
	logScale := 0.5 * math.Log(2*float64(room)/math.Pi)
	var scale float64 // a lower bound of ||T||
	for k := 0; k < min(room, cfg.maxIter); k++ {
		if err := r.ctx.Err(); err != nil {
			out.status = linalg.Canceled
			return out, canceled(cfg.op, err)
		}
		y := make([]float64, n)
		r.inv.MulVecTo(y, w[k])
		out.steps++
		alpha = append(alpha, project(y))
		b := rowNorm(y)
		if math.IsNaN(b) || math.IsInf(b, 0) {
			out.status = linalg.NumericalFailure
			return out, linalg.Errorf(linalg.ErrNonFinite, cfg.op, "operator produced NaN or Inf (the multiplicity check, after %d applications of the inverse)", r.inv.solves)
		}
		beta = append(beta, b)
		scale = math.Max(scale, math.Abs(alpha[k])+b)
		// An invariant subspace, or the whole complement: exact values.
		exhausted := b <= relFloor*dlamchE*scale || k+1 == room
		if r.decide(&out, w, alpha, beta, logScale, exhausted) || exhausted {
			return out, nil
		}
		bl.Dscal(n, 1/b, y, 1)
		w = append(w, y)
	}
	out.status = linalg.IterationLimit
	return out, nil
}

// decide applies the rules of missedCopy to the check's basis w and
// Lanczos coefficients, with logScale the logarithm of sqrt(2 n'/pi), and
// reports whether the check is done (always if exhausted: exact values),
// setting out.found and out.extra.
func (r *siRun) decide(out *copyCheck, w [][]float64, alpha, beta []float64, logScale float64, exhausted bool) bool {
	n := r.cfg.n
	m := len(alpha)
	thetaD, winB := out.thetaD, out.winB
	// The Ritz pairs of T (values ascending, vectors in the columns of z).
	tv := append([]float64(nil), alpha...)
	te := append(append([]float64(nil), beta[:m-1]...), 0)
	z := make([]float64, m*m)
	if !(gonum.Implementation{}).Dsteqr(lapack.EVTridiag, m, tv, te, z, m, make([]float64, max(1, 2*m-2))) {
		return false // no decision at this step
	}
	tau := tv[m-1]
	if tau > thetaD+winB {
		// A value above the wanted set: the Ritz vectors above it.
		above := m - 1
		for above > 0 && tv[above-1] > thetaD+winB {
			above--
		}
		out.found = true
		out.extra = mat.NewDense(m-above, n, nil)
		for j := above; j < m; j++ {
			row := out.extra.RawRowView(j - above)
			for i, wi := range w {
				blas64.Implementation().Daxpy(n, z[i*m+j], wi, 1, row, 1)
			}
		}
		return true
	}
	if exhausted {
		return true
	}
	// A copy of theta_d, resolved.
	if resid := beta[m-1] * math.Abs(z[(m-1)*m+m-1]); thetaD-tau <= winB && resid <= winB {
		return true
	}
	// The bound on the component of the start along an eigenvector of a
	// value above lam, in logarithms.
	lam := thetaD + winB
	logG := logScale
	for i := 0; i < m; i++ {
		logG += math.Log(beta[i]) - math.Log(lam-tv[i])
	}
	return logG <= math.Log(missFailure)
}
