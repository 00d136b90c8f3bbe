package klr

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"

	"ukm/linalg"
)

// problem describes one binary fit.
type problem struct {
	op   string // the exported operation, for errors
	form Form
	l, n int // number of points, number of coefficients
	k    blas64.Symmetric
	phi  blas64.General
	y    []float64
}

// newton is the workspace of the Newton solver.
type newton struct {
	coef, trial   []float64 // current and trial coefficients
	f, ftrial     []float64 // decision values
	r, s          []float64 // dloss/df / l ... see fill; sqrt of the weights
	u, g, dir     []float64
	z1, z2, rhs   []float64
	a             []float64 // Newton matrix
	ps            []float64 // S Phi
	ah            []float64 // A^-1 h of the dual feature direction
	lambda        float64
	bias          bool
	b, btrial, gb float64
}

// resize prepares the workspace for problem p.
func (w *newton) resize(p *problem) {
	l, n := p.l, p.n
	w.coef = grow(w.coef, n)
	w.trial = grow(w.trial, n)
	w.g = grow(w.g, n)
	w.dir = grow(w.dir, n)
	w.u = grow(w.u, l)
	w.f = grow(w.f, l)
	w.ftrial = grow(w.ftrial, l)
	w.r = grow(w.r, l)
	w.s = grow(w.s, l)
	w.z1 = grow(w.z1, l)
	w.z2 = grow(w.z2, l)
	w.rhs = grow(w.rhs, n+1)
	if p.form == KernelForm {
		w.a = grow(w.a, l*l)
	} else {
		w.a = grow(w.a, (n+1)*(n+1))
		w.ps = grow(w.ps, l*n)
		w.ah = grow(w.ah, n)
	}
}

// predict computes f = X coef + b.
func (w *newton) predict(p *problem, f, coef []float64, b float64) {
	for i := range f {
		f[i] = b
	}
	if p.form == KernelForm {
		blas64.Symv(1, p.k, vec(coef), 1, vec(f))
	} else {
		blas64.Gemv(blas.NoTrans, 1, p.phi, vec(coef), 1, vec(f))
	}
}

func vec(x []float64) blas64.Vector { return blas64.Vector{N: len(x), Inc: 1, Data: x} }

// objective returns J for the decision values f of coefficients coef.
func (w *newton) objective(p *problem, f, coef []float64, b float64) float64 {
	var loss float64
	for i, fi := range f {
		loss += logLoss(p.y[i] * fi)
	}
	var pen float64
	if p.form == KernelForm {
		// alpha^T K alpha = alpha . (f - b).
		for i, a := range coef {
			pen += a * (f[i] - b)
		}
		pen = math.Max(pen, 0) // rounding on a PSD form
	} else {
		for _, a := range coef {
			pen += a * a
		}
	}
	return loss/float64(p.l) + 0.5*w.lambda*pen
}

// gradient fills r (per-point loss derivative), s (sqrt of the Hessian
// weights), g (coefficient gradient) and gb (bias gradient) at w.coef, w.f.
// It returns ||grad||_inf.
func (w *newton) gradient(p *problem) float64 {
	l := float64(p.l)
	var sr float64
	for i, fi := range w.f {
		yi := p.y[i]
		q := Sigmoid(-yi * fi) // probability of the wrong label
		w.r[i] = -yi * q
		sr += w.r[i]
		w.s[i] = math.Sqrt(q * (1 - q))
	}
	if p.form == KernelForm {
		for i := range w.u {
			w.u[i] = w.r[i]/l + w.lambda*w.coef[i]
		}
		blas64.Symv(1, p.k, vec(w.u), 0, vec(w.g))
	} else {
		copy(w.g, w.coef)
		blas64.Gemv(blas.Trans, 1/l, p.phi, vec(w.r), w.lambda, vec(w.g))
	}
	w.gb = 0
	if w.bias {
		w.gb = sr / l
	}
	return infNorm(w.g, w.gb)
}

func infNorm(g []float64, gb float64) float64 {
	m := math.Abs(gb)
	for _, v := range g {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// gradScale returns ||grad J||_inf at the zero model, the reference of the
// relative stopping test (1 if that gradient is exactly zero).
func (w *newton) gradScale(p *problem) float64 {
	// At zero, r_i = -y_i / 2.
	l := float64(p.l)
	var sy float64
	for i, yi := range p.y {
		w.r[i] = -yi / 2
		sy += w.r[i]
	}
	if p.form == KernelForm {
		blas64.Symv(1/l, p.k, vec(w.r), 0, vec(w.g))
	} else {
		blas64.Gemv(blas.Trans, 1/l, p.phi, vec(w.r), 0, vec(w.g))
	}
	gb := 0.0
	if w.bias {
		gb = sy / l
	}
	sc := infNorm(w.g, gb)
	if sc == 0 {
		return 1
	}
	return sc
}

// gradFloor returns the rounding level of the data term of the gradient:
// 16 u (u = 2^-53) times the largest sum of its terms, max_j sum_i |x_ij| / l
// (every |r_i| is at most 1), and 16 u for the bias. A gradient below it is
// zero to working precision: at the zero model when Xᵀy vanishes in exact
// arithmetic, the relative test alone (Tol times a gradient scale that is
// itself rounding) could never be met, and Newton steps on a rounding-level
// gradient only wander along the kernel's null space.
func (w *newton) gradFloor(p *problem) float64 {
	l := float64(p.l)
	var t float64
	if p.form == KernelForm {
		for j := 0; j < p.n; j++ {
			var s float64
			for i := 0; i < p.l; i++ {
				// the upper triangle holds the block
				s += math.Abs(p.k.Data[min(i, j)*p.k.Stride+max(i, j)])
			}
			t = math.Max(t, s/l)
		}
	} else {
		for j := 0; j < p.n; j++ {
			var s float64
			for i := 0; i < p.l; i++ {
				s += math.Abs(p.phi.Data[i*p.phi.Stride+j])
			}
			t = math.Max(t, s/l)
		}
	}
	if w.bias {
		t = math.Max(t, 1)
	}
	return 16 * 0x1p-53 * t
}

// start sets the first iterate: a warm start from m (its coefficients
// padded with zeros, its bias if the fit has one) or zero, and returns the
// objective and gradient norm there.
func (w *newton) start(p *problem, m *Model, warm bool) (obj, gn float64) {
	clear(w.coef)
	w.b = 0
	if warm {
		copy(w.coef, m.Coef)
		if w.bias {
			w.b = m.Bias
		}
	}
	w.predict(p, w.f, w.coef, w.b)
	return w.objective(p, w.f, w.coef, w.b), w.gradient(p)
}

// run performs the Newton iteration and writes the result into m.
func (w *newton) run(ctx context.Context, m *Model, p problem, s Settings, warm bool) error {
	w.lambda = s.Lambda
	w.bias = s.Bias
	w.resize(&p)
	var st Stats
	st.GradScale = w.gradScale(&p)
	floor := w.gradFloor(&p)
	warm = warm && m.Form == p.form && (len(m.Coef) == p.n || p.form == KernelForm && len(m.Coef) < p.n)
	obj, gn := w.start(&p, m, warm)
	st.Evaluations++
	if warm && !(isFinite(obj) && isFinite(gn)) {
		// A warm start that overflows (or holds NaN) is no start at all.
		obj, gn = w.start(&p, m, false)
		st.Evaluations++
	}
	var err error
	for {
		st.Objective, st.GradNorm = obj, gn
		if !isFinite(obj) || !isFinite(gn) {
			st.Status = linalg.NumericalFailure
			break
		}
		if gn <= s.Tol*st.GradScale || gn <= floor {
			st.Status = linalg.Converged
			break
		}
		if st.Iterations >= s.MaxIter {
			st.Status = linalg.IterationLimit
			break
		}
		if cerr := ctx.Err(); cerr != nil {
			st.Status = linalg.Canceled
			err = fmt.Errorf("%s: cancelled after %d iterations: %w", p.op, st.Iterations, cerr)
			break
		}
		db, ok := w.direction(&p)
		if !ok {
			st.Status = linalg.NumericalFailure
			if p.form == KernelForm {
				err = linalg.Errorf(linalg.ErrNotPSD, p.op, "Cholesky of lambda I + S K S / l failed: the kernel block is not positive semidefinite (or lambda = %g is below its rounding)", w.lambda)
			}
			break
		}
		slope := w.gb * db
		for i, g := range w.g {
			slope += g * w.dir[i]
		}
		if !(slope < 0) {
			// Not a descent direction: rounding has taken over.
			st.Status = linalg.Stalled
			break
		}
		objT, evals, ok := w.lineSearch(&p, obj, slope, db)
		st.Evaluations += evals
		if !ok {
			st.Status = linalg.Stalled
			break
		}
		w.coef, w.trial = w.trial, w.coef
		w.f, w.ftrial = w.ftrial, w.f
		w.b = w.btrial
		obj = objT
		st.Iterations++
		gn = w.gradient(&p)
	}
	m.Form = p.form
	m.Coef = grow(m.Coef, p.n)
	copy(m.Coef, w.coef)
	m.Bias = w.b
	m.Lambda = s.Lambda
	m.Stats = st
	return err
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
