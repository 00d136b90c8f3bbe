package mm

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/svm"
)

// point is one evaluation of J: the ray weights, the coefficients, the SVM
// solution of every problem, z = Vl^T (alpha∘y) per problem (P x q), and
// the per-ray terms a_k = sum_p alpha_p^T G_p(K_k) alpha_p (minus the
// gradient of J in theta).
type point struct {
	theta, mu, z, a []float64
	j, lower, upper float64
	m               []svm.Model
}

func (p *point) resize(q, np int) {
	p.theta = grow(p.theta, q)
	p.mu = grow(p.mu, q)
	p.z = grow(p.z, q*np)
	p.a = grow(p.a, q)
	if cap(p.m) < np {
		p.m = append(p.m[:cap(p.m)], make([]svm.Model, np-cap(p.m))...)
	}
	p.m = p.m[:np]
}

// eval computes J at p.theta: mu, the kernel block, the inner SVMs (a warm
// start from p.m[.].Alpha when warm), z, the ray terms a, and the bounds.
// The status is Converged when every inner solve met its tolerance and
// NumericalFailure when one stopped at its iteration limit (the point is
// still fully evaluated, with a feasible alpha). With an error it is Canceled
// for a cancelled context and NotRun for an input error of the inner solver
// (which validation should prevent).
func (lr *Learner) eval(ctx context.Context, p *point, warm bool, res *Result) (linalg.Status, error) {
	q := lr.q
	// mu_i = sum_{k>=i} theta_k c_{k,i}
	clear(p.mu)
	for k, th := range p.theta {
		if th == 0 {
			continue
		}
		row := lr.c[k*q : k*q+k+1]
		for i, c := range row {
			p.mu[i] += th * c
		}
	}
	lr.kernel(p.mu)
	p.j, p.upper, p.lower = 0, 0, 0
	clear(p.a)
	st := linalg.Converged
	for pi := range p.m {
		pst, err := lr.evalProblem(ctx, p, pi, warm, res)
		if err != nil {
			return pst, err
		}
		if pst != linalg.Converged {
			st = pst
		}
	}
	amax := math.Inf(-1)
	for _, a := range p.a {
		amax = math.Max(amax, a)
	}
	p.lower -= amax
	return st, nil
}

// evalProblem solves the SVM of problem pi on lr.kern and adds its terms to
// p (see addTerms). The status is as for eval.
func (lr *Learner) evalProblem(ctx context.Context, p *point, pi int, warm bool, res *Result) (linalg.Status, error) {
	l := len(lr.y) / lr.np
	y := lr.y[pi*l : (pi+1)*l]
	m := &p.m[pi]
	err := lr.solver.Train(ctx, m, &lr.kern, y, warm)
	res.Evaluations++
	res.SMOIterations += m.Stats.Iterations
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			return linalg.Canceled, fmt.Errorf("%s: cancelled in an inner SVM solve: %w", lr.op, err)
		}
		return linalg.NotRun, fmt.Errorf("%s: inner SVM solve: %w", lr.op, err)
	}
	lr.addTerms(p, pi, m, y)
	if m.Stats.Status != linalg.Converged {
		return linalg.NumericalFailure, nil
	}
	return linalg.Converged, nil
}

// kernel sets lr.kern = Vl diag(mu) Vl^T (exactly symmetric).
func (lr *Learner) kernel(mu []float64) {
	l, q := lr.vl.Dims()
	vl, vs, k := lr.vl.RawMatrix(), lr.vs.RawMatrix(), lr.kern.RawMatrix()
	for j := 0; j < l; j++ {
		src := vl.Data[j*vl.Stride : j*vl.Stride+q]
		dst := vs.Data[j*vs.Stride : j*vs.Stride+q]
		for i, v := range src {
			dst[i] = v * math.Sqrt(mu[i])
		}
	}
	for r := 0; r < l; r++ {
		a := vs.Data[r*vs.Stride : r*vs.Stride+q]
		for c := r; c < l; c++ {
			bb := vs.Data[c*vs.Stride : c*vs.Stride+q]
			var s float64
			for i, v := range a {
				s += v * bb[i]
			}
			k.Data[r*k.Stride+c] = s
			k.Data[c*k.Stride+r] = s
		}
	}
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

// reshape makes dst r x c, reusing its storage when large enough.
func reshape(dst *mat.Dense, r, c int) {
	if !dst.IsEmpty() {
		if rr, cc := dst.Dims(); rr == r && cc == c {
			return
		}
		if data := dst.RawMatrix().Data; cap(data) >= r*c {
			dst.SetRawMatrix(blas64.General{Rows: r, Cols: c, Stride: c, Data: data[:r*c]})
			return
		}
		dst.Reset()
	}
	dst.ReuseAs(r, c)
}
