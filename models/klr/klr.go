package klr

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"ukm/models/internal/ova"
)

// Defaults used when the corresponding Settings field is zero.
const (
	DefaultLambda  = 1e-2
	DefaultMaxIter = 100
	DefaultTol     = 1e-8
)

// Sentinel errors. Errors returned by the package wrap one of these, so
// callers can branch with errors.Is.
var (
	// ErrShape reports inconsistent dimensions (non-square kernel, len(y)
	// different from the number of rows, empty data, ...).
	ErrShape = errors.New("klr: dimension mismatch")
	// ErrNotFinite reports a NaN or infinite value in the data.
	ErrNotFinite = errors.New("klr: non-finite value")
	// ErrLabels reports invalid labels: not in {-1,+1} (binary), out of
	// range (multi-class), or a class without examples.
	ErrLabels = errors.New("klr: invalid labels")
	// ErrSettings reports an invalid setting (negative lambda, ...), a nil
	// Fitter or a nil context.
	ErrSettings = errors.New("klr: invalid settings")
	// ErrNotPSD reports a kernel block that is not positive semidefinite
	// (the Newton system could not be factorised).
	ErrNotPSD = errors.New("klr: kernel block is not positive semidefinite")
	// ErrIterationLimit reports that Newton's method stopped at
	// Settings.MaxIter iterations before the gradient test was met. The
	// returned model holds the best iterate found.
	ErrIterationLimit = errors.New("klr: iteration limit reached")
	// ErrStalled reports that the line search could not decrease the
	// objective any further before the gradient test was met (usually a
	// tolerance below what rounding allows). The model holds the best iterate.
	ErrStalled = errors.New("klr: line search stalled")
)

// Settings configures a fit. The zero value means the documented defaults.
type Settings struct {
	// Lambda is the regularisation weight lambda > 0 of eq. 17.
	// Zero means DefaultLambda (1e-2); negative or non-finite is an error.
	Lambda float64
	// Bias adds an unpenalised constant term b to f. The zero value (false)
	// follows the paper, which omits it.
	Bias bool
	// MaxIter bounds the Newton iterations. Zero means DefaultMaxIter (100).
	MaxIter int
	// Tol is the relative gradient tolerance: Newton stops when
	// ||grad J||_inf <= Tol * ||grad J at the zero model||_inf.
	// Zero means DefaultTol (1e-8).
	Tol float64
}

func (s *Settings) resolve() (Settings, error) {
	var r Settings
	if s != nil {
		r = *s
	}
	switch {
	case math.IsNaN(r.Lambda) || math.IsInf(r.Lambda, 0) || r.Lambda < 0:
		return r, fmt.Errorf("%w: lambda must be positive and finite, got %v", ErrSettings, r.Lambda)
	case r.MaxIter < 0:
		return r, fmt.Errorf("%w: MaxIter must be >= 0, got %d", ErrSettings, r.MaxIter)
	case math.IsNaN(r.Tol) || math.IsInf(r.Tol, 0) || r.Tol < 0:
		return r, fmt.Errorf("%w: Tol must be >= 0 and finite, got %v", ErrSettings, r.Tol)
	}
	if r.Lambda == 0 {
		r.Lambda = DefaultLambda
	}
	if r.MaxIter == 0 {
		r.MaxIter = DefaultMaxIter
	}
	if r.Tol == 0 {
		r.Tol = DefaultTol
	}
	return r, nil
}

// Form tells which parametrisation a Model uses.
type Form int

// Parametrisations of a Model.
const (
	// KernelForm: f = K alpha + b; Model.Coef is alpha (length l).
	KernelForm Form = iota + 1
	// FeatureForm: f = Phi w + b; Model.Coef is w (length d).
	FeatureForm
)

// String returns the name of the form: "kernel" or "features".
func (f Form) String() string {
	switch f {
	case KernelForm:
		return "kernel"
	case FeatureForm:
		return "features"
	}
	return fmt.Sprintf("Form(%d)", int(f))
}

// Status is the outcome of a fit.
type Status int

// Fit outcomes.
const (
	// NotRun: no fit has been made (the zero value).
	NotRun Status = iota
	// Converged: the relative gradient test was met.
	Converged
	// IterationLimit: MaxIter Newton iterations were done.
	IterationLimit
	// Stalled: the line search found no decrease.
	Stalled
	// Cancelled: the context was cancelled.
	Cancelled
)

// String describes the status, for example "converged".
func (s Status) String() string {
	switch s {
	case NotRun:
		return "not run"
	case Converged:
		return "converged"
	case IterationLimit:
		return "iteration limit"
	case Stalled:
		return "stalled"
	case Cancelled:
		return "cancelled"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Stats reports how a fit went. It is filled even when the fit fails after
// validation.
type Stats struct {
	Status Status
	// Iterations is the number of Newton steps taken.
	Iterations int
	// Evaluations counts objective evaluations (including line-search trials).
	Evaluations int
	// Objective is J at the returned model.
	Objective float64
	// GradNorm is ||grad J||_inf at the returned model, and GradScale the
	// reference ||grad J||_inf at the zero model used by the stopping test.
	GradNorm, GradScale float64
}

// Model is a binary KLR model. Its decision value is f = X Coef + Bias where
// X is the cross-kernel block (KernelForm) or the feature rows (FeatureForm)
// of the points to classify, and p(y = +1 | x) = sigmoid(f).
type Model struct {
	Form Form
	// Coef is alpha (KernelForm, one per training point) or w (FeatureForm,
	// one per feature).
	Coef []float64
	// Bias is b; zero when fitted without bias.
	Bias float64
	// Lambda is the regularisation weight used.
	Lambda float64
	// Stats describes the fit that produced the model.
	Stats Stats
}

// Fitter holds reusable workspaces for repeated fits of similar size.
// The zero value is ready to use. A Fitter is not safe for concurrent use.
type Fitter struct {
	// Settings used by the methods of the Fitter.
	Settings Settings

	ws  newton
	yb  []float64 // +-1 labels for multi-class fits
	kcp []float64 // copy of a kernel block given as a general mat.Matrix
	pcp []float64 // copy of a feature matrix given as a general mat.Matrix
}

// FitKernel fits a binary kernel-form model on the l x l kernel block k
// (symmetric, positive semidefinite, possibly singular) with labels y in
// {-1, +1}. See Fitter.FitKernel.
func FitKernel(ctx context.Context, k mat.Matrix, y []float64, s *Settings) (*Model, error) {
	ft := Fitter{}
	if s != nil {
		ft.Settings = *s
	}
	m := &Model{}
	err := ft.FitKernel(ctx, m, k, y, false)
	if m.Form == 0 {
		return nil, err
	}
	return m, err
}

// FitFeatures fits a binary feature-form model on the l x d feature matrix
// phi with labels y in {-1, +1}. See Fitter.FitFeatures.
func FitFeatures(ctx context.Context, phi mat.Matrix, y []float64, s *Settings) (*Model, error) {
	ft := Fitter{}
	if s != nil {
		ft.Settings = *s
	}
	m := &Model{}
	err := ft.FitFeatures(ctx, m, phi, y, false)
	if m.Form == 0 {
		return nil, err
	}
	return m, err
}

// FitKernel fits a kernel-form model into m, reusing m.Coef's storage.
//
// k is the l x l labeled kernel block; a *mat.SymDense or *mat.Dense is read
// in place of a copy when possible. A general k must be symmetric to a relative
// 1e-12 (the upper triangle is used). y holds l labels in {-1, +1} with both
// classes present.
//
// If warm is true and m is a kernel-form model with len(m.Coef) <= l, Newton
// starts from (m.Coef padded with zeros, m.Bias): this suits the active
// learning loop where newly labeled points are appended to the labeled set.
// Otherwise it starts from zero.
//
// On return m holds the best iterate and m.Stats the outcome even when the
// error is ErrIterationLimit, ErrStalled or a cancelled context. On an input
// validation error m is left unchanged.
func (ft *Fitter) FitKernel(ctx context.Context, m *Model, k mat.Matrix, y []float64, warm bool) error {
	if ft == nil {
		return fmt.Errorf("%w: nil Fitter", ErrSettings)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrSettings)
	}
	s, err := ft.Settings.resolve()
	if err != nil {
		return err
	}
	if m == nil {
		return fmt.Errorf("%w: nil model", ErrShape)
	}
	kr, err := ft.kernelView(k, len(y))
	if err != nil {
		return err
	}
	if err := checkBinary(y); err != nil {
		return err
	}
	l := len(y)
	if warm && (m.Form != KernelForm || len(m.Coef) > l) {
		warm = false
	}
	return ft.ws.run(ctx, m, problem{form: KernelForm, l: l, n: l, k: kr, y: y}, s, warm)
}

// FitFeatures fits a feature-form model into m, reusing m.Coef's storage.
//
// phi is l x d (a *mat.Dense is used in place), y holds l labels in {-1, +1}
// with both classes present. If warm is true and m is a feature-form model
// with len(m.Coef) == d, Newton starts from (m.Coef, m.Bias); otherwise from
// zero. Errors and the state of m on return are as for FitKernel.
func (ft *Fitter) FitFeatures(ctx context.Context, m *Model, phi mat.Matrix, y []float64, warm bool) error {
	if ft == nil {
		return fmt.Errorf("%w: nil Fitter", ErrSettings)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrSettings)
	}
	s, err := ft.Settings.resolve()
	if err != nil {
		return err
	}
	if m == nil {
		return fmt.Errorf("%w: nil model", ErrShape)
	}
	pr, err := ft.featureView(phi, len(y))
	if err != nil {
		return err
	}
	if err := checkBinary(y); err != nil {
		return err
	}
	if warm && (m.Form != FeatureForm || len(m.Coef) != pr.Cols) {
		warm = false
	}
	return ft.ws.run(ctx, m, problem{form: FeatureForm, l: len(y), n: pr.Cols, phi: pr, y: y}, s, warm)
}

// kernelView validates k against l labels and returns a square row-major
// view of it (the upper triangle is what the solver reads).
func (ft *Fitter) kernelView(k mat.Matrix, l int) (blas64.Symmetric, error) {
	if err := ova.CheckKernel(k, l, ErrShape); err != nil {
		return blas64.Symmetric{}, err
	}
	r := l // CheckKernel made sure k is l x l
	var v blas64.Symmetric
	switch kk := k.(type) {
	case *mat.SymDense:
		raw := kk.RawSymmetric()
		v = raw
		if raw.Uplo != blas.Upper {
			ft.kcp = copySym(ft.kcp, k, r)
			v = blas64.Symmetric{N: r, Stride: r, Data: ft.kcp, Uplo: blas.Upper}
		}
	case *mat.Dense:
		raw := kk.RawMatrix()
		v = blas64.Symmetric{N: r, Stride: raw.Stride, Data: raw.Data, Uplo: blas.Upper}
		if err := checkSymmetric(k, r); err != nil {
			return blas64.Symmetric{}, err
		}
	default:
		if _, ok := k.(mat.Symmetric); !ok {
			if err := checkSymmetric(k, r); err != nil {
				return blas64.Symmetric{}, err
			}
		}
		ft.kcp = copySym(ft.kcp, k, r)
		v = blas64.Symmetric{N: r, Stride: r, Data: ft.kcp, Uplo: blas.Upper}
	}
	for i := 0; i < r; i++ {
		row := v.Data[i*v.Stride+i : i*v.Stride+r]
		for j, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return blas64.Symmetric{}, fmt.Errorf("%w: kernel block entry (%d,%d) is %v", ErrNotFinite, i, i+j, x)
			}
		}
	}
	return v, nil
}

func copySym(buf []float64, k mat.Matrix, n int) []float64 {
	buf = grow(buf, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			buf[i*n+j] = k.At(i, j)
		}
	}
	return buf
}

func checkSymmetric(k mat.Matrix, n int) error {
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := k.At(i, j), k.At(j, i)
			if math.IsNaN(a) || math.IsInf(a, 0) || math.IsNaN(b) || math.IsInf(b, 0) {
				return fmt.Errorf("%w: kernel block entries (%d,%d), (%d,%d) are %v, %v", ErrNotFinite, i, j, j, i, a, b)
			}
			if math.Abs(a-b) > 1e-12*(math.Abs(a)+math.Abs(b)) {
				return fmt.Errorf("%w: kernel block is not symmetric: K[%d,%d]=%v, K[%d,%d]=%v", ErrShape, i, j, a, j, i, b)
			}
		}
	}
	return nil
}

// featureView validates phi against l labels and returns a row-major view.
func (ft *Fitter) featureView(phi mat.Matrix, l int) (blas64.General, error) {
	if ova.IsNil(phi) {
		return blas64.General{}, fmt.Errorf("%w: nil feature matrix", ErrShape)
	}
	r, c := phi.Dims()
	if r == 0 || c == 0 {
		return blas64.General{}, fmt.Errorf("%w: empty feature matrix (%d x %d)", ErrShape, r, c)
	}
	if r != l {
		return blas64.General{}, fmt.Errorf("%w: feature matrix has %d rows but there are %d labels", ErrShape, r, l)
	}
	var g blas64.General
	if d, ok := phi.(*mat.Dense); ok {
		g = d.RawMatrix()
	} else {
		ft.pcp = grow(ft.pcp, r*c)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				ft.pcp[i*c+j] = phi.At(i, j)
			}
		}
		g = blas64.General{Rows: r, Cols: c, Stride: c, Data: ft.pcp}
	}
	for i := 0; i < r; i++ {
		for j, x := range g.Data[i*g.Stride : i*g.Stride+c] {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return blas64.General{}, fmt.Errorf("%w: feature matrix entry (%d,%d) is %v", ErrNotFinite, i, j, x)
			}
		}
	}
	return g, nil
}

func checkBinary(y []float64) error {
	if len(y) == 0 {
		return fmt.Errorf("%w: no labels", ErrShape)
	}
	return ova.CheckBinary(y, ErrLabels)
}

// Decision writes the decision values f = x Coef + Bias of the m rows of x
// into dst (grown if too short) and returns it. x is the m x l cross-kernel
// block between new points and the training points (KernelForm) or the m x d
// feature rows of the new points (FeatureForm).
func (m *Model) Decision(dst []float64, x mat.Matrix) ([]float64, error) {
	if m == nil || m.Form == 0 {
		return dst, fmt.Errorf("%w: model is not fitted", ErrShape)
	}
	if ova.IsNil(x) {
		return dst, fmt.Errorf("%w: nil input matrix", ErrShape)
	}
	r, c := x.Dims()
	if c != len(m.Coef) {
		what := "features"
		if m.Form == KernelForm {
			what = "training points (cross-kernel columns)"
		}
		return dst, fmt.Errorf("%w: input has %d columns, model has %d %s", ErrShape, c, len(m.Coef), what)
	}
	dst = grow(dst, r)
	if d, ok := x.(*mat.Dense); ok && r > 0 {
		raw := d.RawMatrix()
		for i := range dst {
			dst[i] = m.Bias
		}
		blas64.Gemv(blas.NoTrans, 1, raw, blas64.Vector{N: c, Inc: 1, Data: m.Coef}, 1, blas64.Vector{N: r, Inc: 1, Data: dst})
	} else {
		for i := 0; i < r; i++ {
			s := m.Bias
			for j, a := range m.Coef {
				s += x.At(i, j) * a
			}
			dst[i] = s
		}
	}
	for i, v := range dst {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return dst, fmt.Errorf("%w: decision value %d is %v (non-finite input row?)", ErrNotFinite, i, v)
		}
	}
	return dst, nil
}

// Prob writes p(y = +1 | x) = sigmoid(f(x)) for the rows of x into dst and
// returns it. See Decision for x.
func (m *Model) Prob(dst []float64, x mat.Matrix) ([]float64, error) {
	dst, err := m.Decision(dst, x)
	if err != nil {
		return dst, err
	}
	for i, f := range dst {
		dst[i] = Sigmoid(f)
	}
	return dst, nil
}

// Sigmoid returns 1/(1+exp(-t)) without overflow for any finite t.
func Sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + math.Exp(-t))
	}
	e := math.Exp(t)
	return e / (1 + e)
}

// logLoss returns ln(1 + exp(-m)) without overflow.
func logLoss(m float64) float64 {
	if m > 0 {
		return math.Log1p(math.Exp(-m))
	}
	return -m + math.Log1p(math.Exp(m))
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

// problem describes one binary fit.
type problem struct {
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
	lambda        float64
	bias          bool
	b, btrial, gb float64
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

// direction computes the Newton direction (w.dir, returned db) at the current
// point; w.r, w.s, w.g, w.gb must be current.
func (w *newton) direction(p *problem) (float64, error) {
	if p.form == KernelForm {
		return w.kernelDirection(p)
	}
	return w.featureDirection(p)
}

// kernelDirection solves the Newton system of the kernel form without
// inverting K. With M = D K / l + lambda I, the alpha block of the system
// reduces (after cancelling a factor K) to M dalpha + D 1 db / l = x with
// x = -(r/l + lambda alpha); M^{-1} is applied through the SPD matrix
// A = lambda I + S K S / l by the push-through identity
// M^{-1} v = (v - S A^{-1} S K v / l) / lambda.
func (w *newton) kernelDirection(p *problem) (float64, error) {
	n := p.l
	lf := float64(n)
	lam := w.lambda
	a := w.a
	for i := 0; i < n; i++ {
		si := w.s[i] / lf
		row := p.k.Data[i*p.k.Stride : i*p.k.Stride+n]
		arow := a[i*n : i*n+n]
		for j := i; j < n; j++ {
			arow[j] = si * row[j] * w.s[j]
		}
		arow[i] += lam
	}
	_, ok := lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Data: a, Uplo: blas.Upper})
	if !ok {
		return 0, fmt.Errorf("%w: Cholesky of lambda I + S K S / l failed", ErrNotPSD)
	}
	// x = -u; K x = -g; t1 = S K x / l.
	for i := range w.z1 {
		w.z1[i] = -w.s[i] * w.g[i] / lf
	}
	cholSolve(a, n, w.z1)
	for i := range w.dir {
		w.dir[i] = (-w.u[i] - w.s[i]*w.z1[i]) / lam
	}
	if !w.bias {
		return 0, nil
	}
	copy(w.z2, w.s)
	cholSolve(a, n, w.z2)
	var sz1, sz2 float64
	for i, si := range w.s {
		sz1 += si * w.z1[i]
		sz2 += si * w.z2[i]
	}
	sigma := lam * sz2 / lf
	if !(sigma > 0) {
		return 0, nil
	}
	db := (-w.gb - sz1) / sigma
	for i := range w.dir {
		w.dir[i] -= w.s[i] * w.z2[i] / lf * db
	}
	return db, nil
}

// featureDirection solves (Phi^T D Phi / l + lambda I) dw (+ bias row) = -g
// by Cholesky of the (d+1) x (d+1) Newton matrix.
func (w *newton) featureDirection(p *problem) (float64, error) {
	d := p.n
	l := p.l
	lf := float64(l)
	n1 := d
	if w.bias {
		n1 = d + 1
	}
	// ps = S Phi.
	ps := w.ps
	for i := 0; i < l; i++ {
		si := w.s[i]
		src := p.phi.Data[i*p.phi.Stride : i*p.phi.Stride+d]
		dst := ps[i*d : i*d+d]
		for j, v := range src {
			dst[j] = si * v
		}
	}
	for ridge := 0.0; ; {
		a := w.a[:n1*n1]
		for i := range a {
			a[i] = 0
		}
		// Upper triangle of (S Phi)^T (S Phi) / l + lambda I, accumulated
		// row by row (for the small d of the learned kernels this beats the
		// general Syrk, whose per-call overhead dominates).
		i := 0
		for ; i+4 <= l; i += 4 {
			// Four rank-one updates at once: one pass over the triangle.
			r0, r1 := ps[i*d:i*d+d], ps[(i+1)*d:(i+1)*d+d]
			r2, r3 := ps[(i+2)*d:(i+2)*d+d], ps[(i+3)*d:(i+3)*d+d]
			for j := 0; j < d; j++ {
				v0, v1, v2, v3 := r0[j], r1[j], r2[j], r3[j]
				dst := a[j*n1+j : j*n1+d]
				s0, s1, s2, s3 := r0[j:d], r1[j:d], r2[j:d], r3[j:d]
				s0, s1, s2, s3 = s0[:len(dst)], s1[:len(dst)], s2[:len(dst)], s3[:len(dst)]
				for t := range dst {
					dst[t] += v0*s0[t] + v1*s1[t] + v2*s2[t] + v3*s3[t]
				}
			}
		}
		for ; i < l; i++ {
			row := ps[i*d : i*d+d]
			for j, v := range row {
				dst := a[j*n1+j : j*n1+d]
				src := row[j:d]
				src = src[:len(dst)]
				for t := range dst {
					dst[t] += v * src[t]
				}
			}
		}
		inv := 1 / lf
		for j := 0; j < d; j++ {
			dst := a[j*n1+j : j*n1+d]
			for t := range dst {
				dst[t] *= inv
			}
			a[j*n1+j] += w.lambda
		}
		if w.bias {
			// H_wb = (S Phi)^T s / l, H_bb = sum D / l.
			var hbb float64
			for _, si := range w.s {
				hbb += si * si
			}
			for j := 0; j < d; j++ {
				var v float64
				for i := 0; i < l; i++ {
					v += ps[i*d+j] * w.s[i]
				}
				a[j*n1+d] = v / lf
			}
			a[d*n1+d] = hbb/lf + ridge
		}
		copy(w.rhs[:d], w.g)
		if w.bias {
			w.rhs[d] = w.gb
		}
		rhs := w.rhs[:n1]
		for i := range rhs {
			rhs[i] = -rhs[i]
		}
		_, ok := lapack64.Potrf(blas64.Symmetric{N: n1, Stride: n1, Data: a, Uplo: blas.Upper})
		if ok {
			cholSolve(a, n1, rhs)
			copy(w.dir, rhs[:d])
			if w.bias {
				return rhs[d], nil
			}
			return 0, nil
		}
		if !w.bias || ridge > 0 {
			return 0, fmt.Errorf("%w: Cholesky of the feature-form Newton matrix failed", ErrNotPSD)
		}
		// The bias block can underflow when every margin is huge; retry with
		// a tiny ridge on it (it only changes the step length in b).
		ridge = 1e-12 * (1 + w.lambda)
	}
}

// cholSolve overwrites b with A^{-1} b where the upper triangle of the n x n
// row-major a holds the Cholesky factor U of A = U^T U.
func cholSolve(a []float64, n int, b []float64) {
	b = b[:n]
	// U^T z = b (forward), row i of U^T is column i of U.
	for i := 0; i < n; i++ {
		v := b[i] / a[i*n+i]
		b[i] = v
		if v != 0 {
			row := a[i*n+i+1 : i*n+n]
			rest := b[i+1 : n]
			for t := range rest {
				rest[t] -= v * row[t]
			}
		}
	}
	// U x = z (backward).
	for i := n - 1; i >= 0; i-- {
		row := a[i*n+i+1 : i*n+n]
		v := b[i]
		for t, u := range row {
			v -= u * b[i+1+t]
		}
		b[i] = v / a[i*n+i]
	}
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
	}
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

// Armijo constant and the number of step halvings tried by the line search.
const (
	armijoC     = 1e-4
	maxHalvings = 60
)

// run performs the Newton iteration and writes the result into m.
func (w *newton) run(ctx context.Context, m *Model, p problem, s Settings, warm bool) error {
	w.lambda = s.Lambda
	w.bias = s.Bias
	w.resize(&p)
	scale := w.gradScale(&p)
	if warm {
		copy(w.coef, m.Coef)
		for i := len(m.Coef); i < p.n; i++ {
			w.coef[i] = 0
		}
		w.b = 0
		if s.Bias {
			w.b = m.Bias
		}
	} else {
		for i := range w.coef {
			w.coef[i] = 0
		}
		w.b = 0
	}
	var st Stats
	st.GradScale = scale
	w.predict(&p, w.f, w.coef, w.b)
	obj := w.objective(&p, w.f, w.coef, w.b)
	st.Evaluations++
	gn := w.gradient(&p)
	var err error
	for {
		st.Objective, st.GradNorm = obj, gn
		if math.IsNaN(obj) || math.IsNaN(gn) {
			st.Status = Stalled
			err = fmt.Errorf("%w: objective became NaN", ErrStalled)
			break
		}
		if gn <= s.Tol*scale {
			st.Status = Converged
			break
		}
		if st.Iterations >= s.MaxIter {
			st.Status = IterationLimit
			err = fmt.Errorf("%w: %d iterations, gradient %.3g > %.3g (Tol %.3g x scale %.3g)",
				ErrIterationLimit, st.Iterations, gn, s.Tol*scale, s.Tol, scale)
			break
		}
		if cerr := ctx.Err(); cerr != nil {
			st.Status = Cancelled
			err = fmt.Errorf("klr: fit cancelled after %d iterations: %w", st.Iterations, cerr)
			break
		}
		db, derr := w.direction(&p)
		if derr != nil {
			st.Status = Stalled
			err = derr
			break
		}
		slope := w.gb * db
		for i, g := range w.g {
			slope += g * w.dir[i]
		}
		if !(slope < 0) {
			st.Status = Stalled
			err = fmt.Errorf("%w: Newton direction is not a descent direction (slope %.3g)", ErrStalled, slope)
			break
		}
		// Backtracking: allow an increase of a few ulps of J so that steps
		// in the rounding regime near the optimum are not rejected.
		slack := 8 * 0x1p-52 * math.Abs(obj)
		step := 1.0
		accepted := false
		var objT float64
		for h := 0; h < maxHalvings; h++ {
			for i, c := range w.coef {
				w.trial[i] = c + step*w.dir[i]
			}
			w.btrial = w.b + step*db
			w.predict(&p, w.ftrial, w.trial, w.btrial)
			objT = w.objective(&p, w.ftrial, w.trial, w.btrial)
			st.Evaluations++
			if objT <= obj+armijoC*step*slope+slack {
				accepted = true
				break
			}
			step /= 2
		}
		if !accepted {
			st.Status = Stalled
			err = fmt.Errorf("%w: no decrease after %d halvings, gradient %.3g > %.3g", ErrStalled, maxHalvings, gn, s.Tol*scale)
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
