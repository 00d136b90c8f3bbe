package klr

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
)

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

// newFitter returns a Fitter with the settings s (nil: the defaults).
func newFitter(s *Settings) *Fitter {
	ft := &Fitter{}
	if s != nil {
		ft.Settings = *s
	}
	return ft
}

// fitted returns m and err, or nil and err when m was not fitted (an input
// error rejected the call before the iteration ran).
func fitted[M any](m *M, ok bool, err error) (*M, error) {
	if !ok {
		return nil, err
	}
	return m, err
}

// FitKernel fits a binary kernel-form model on the l x l kernel block k
// (symmetric, positive semidefinite, possibly singular) with labels y in
// {-1, +1}. See Fitter.FitKernel; the model is nil on an input error.
func FitKernel(ctx context.Context, k mat.Matrix, y []float64, s *Settings) (*Model, error) {
	m := &Model{}
	err := newFitter(s).fitKernel("klr.FitKernel", ctx, m, k, y, false)
	return fitted(m, m.Form != 0, err)
}

// FitFeatures fits a binary feature-form model on the l x d feature matrix
// phi with labels y in {-1, +1}. See Fitter.FitFeatures; the model is nil on
// an input error.
func FitFeatures(ctx context.Context, phi mat.Matrix, y []float64, s *Settings) (*Model, error) {
	m := &Model{}
	err := newFitter(s).fitFeatures("klr.FitFeatures", ctx, m, phi, y, false)
	return fitted(m, m.Form != 0, err)
}

// FitKernel fits a kernel-form model into m, reusing m.Coef's storage.
//
// k is the l x l labeled kernel block; a *mat.SymDense or *mat.Dense is read
// in place of a copy when possible. A general k must be symmetric to a relative
// 1e-12 (the upper triangle is used). y holds l labels in {-1, +1} with both
// classes present.
//
// If warm is true and m is a kernel-form model with len(m.Coef) <= l, Newton
// makes a warm start from (m.Coef padded with zeros, m.Bias): this suits the
// active learning loop where newly labeled points are appended to the labeled
// set. Otherwise, or when the warm start's objective is not finite, it starts
// from zero.
//
// Stopping early is not an error: m holds the best iterate and m.Stats.Status
// says how the fit ended. Errors: invalid input (wrapping linalg.ErrInvalid:
// ErrEmpty, ErrShape, ErrNonFinite, ErrLabels, ErrSettings), with m left
// unchanged; a kernel block found indefinite during the iteration
// (linalg.ErrNotPSD, status NumericalFailure) and a cancelled context (the
// error wraps ctx.Err(), status Canceled), with m holding the last iterate.
// One Newton step costs O(l^3).
func (ft *Fitter) FitKernel(ctx context.Context, m *Model, k mat.Matrix, y []float64, warm bool) error {
	return ft.fitKernel("klr.Fitter.FitKernel", ctx, m, k, y, warm)
}

// FitFeatures fits a feature-form model into m, reusing m.Coef's storage.
//
// phi is l x d (a *mat.Dense is used in place), y holds l labels in {-1, +1}
// with both classes present. If warm is true and m is a feature-form model
// with len(m.Coef) == d, Newton makes a warm start from (m.Coef, m.Bias);
// otherwise it starts from zero. Outcomes, errors and the state of m on
// return are as for FitKernel, except that the feature-form Newton matrix is
// positive definite by construction (a failed factorisation is status
// NumericalFailure with a nil error). One Newton step costs O(l d^2 + d^3),
// or O(l^2 d + l^3) when d > 2l and lambda > 0 (the system is then solved
// through the l x l matrix l lambda I + S Phi Phi^T S).
func (ft *Fitter) FitFeatures(ctx context.Context, m *Model, phi mat.Matrix, y []float64, warm bool) error {
	return ft.fitFeatures("klr.Fitter.FitFeatures", ctx, m, phi, y, warm)
}

func (ft *Fitter) fitKernel(op string, ctx context.Context, m *Model, k mat.Matrix, y []float64, warm bool) error {
	p, s, err := ft.kernelProblem(op, ctx, m == nil, k, len(y))
	if err != nil {
		return err
	}
	return ft.fitBinary(ctx, m, p, y, s, warm)
}

func (ft *Fitter) fitFeatures(op string, ctx context.Context, m *Model, phi mat.Matrix, y []float64, warm bool) error {
	p, s, err := ft.featureProblem(op, ctx, m == nil, phi, len(y))
	if err != nil {
		return err
	}
	return ft.fitBinary(ctx, m, p, y, s, warm)
}

// fitBinary checks the labels y of problem p and runs Newton's method.
func (ft *Fitter) fitBinary(ctx context.Context, m *Model, p problem, y []float64, s Settings, warm bool) error {
	if err := ova.CheckBinary(p.op, y); err != nil {
		return err
	}
	p.y = y
	return ft.ws.run(ctx, m, p, s, warm)
}

// prepare validates what every fit takes: the Fitter, the context, the
// destination (missing when nilDst) and the settings.
func (ft *Fitter) prepare(op string, ctx context.Context, nilDst bool) (Settings, error) {
	if ft == nil {
		return Settings{}, linalg.Errorf(linalg.ErrSettings, op, "nil Fitter")
	}
	if err := linalg.CheckContext(op, ctx); err != nil {
		return Settings{}, err
	}
	if nilDst {
		return Settings{}, linalg.Errorf(linalg.ErrEmpty, op, "nil model")
	}
	return ft.Settings.resolve(op)
}

// kernelProblem validates the call (see prepare) and the kernel block k
// against l labels, and returns the kernel-form problem without labels.
func (ft *Fitter) kernelProblem(op string, ctx context.Context, nilDst bool, k mat.Matrix, l int) (problem, Settings, error) {
	s, err := ft.prepare(op, ctx, nilDst)
	if err != nil {
		return problem{}, s, err
	}
	kr, err := ft.kernelView(op, k, l)
	return problem{op: op, form: KernelForm, l: l, n: l, k: kr}, s, err
}

// featureProblem is kernelProblem for a feature matrix phi.
func (ft *Fitter) featureProblem(op string, ctx context.Context, nilDst bool, phi mat.Matrix, l int) (problem, Settings, error) {
	s, err := ft.prepare(op, ctx, nilDst)
	if err != nil {
		return problem{}, s, err
	}
	pr, err := ft.featureView(op, phi, l)
	return problem{op: op, form: FeatureForm, l: l, n: pr.Cols, phi: pr}, s, err
}

// kernelView validates k against l labels and returns a square row-major
// view of it (the upper triangle is what the solver reads).
func (ft *Fitter) kernelView(op string, k mat.Matrix, l int) (blas64.Symmetric, error) {
	if err := ova.CheckKernel(op, k, l); err != nil {
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
		if err := checkSymmetric(op, k, r); err != nil {
			return blas64.Symmetric{}, err
		}
	default:
		if _, ok := k.(mat.Symmetric); !ok {
			if err := checkSymmetric(op, k, r); err != nil {
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
				return blas64.Symmetric{}, linalg.Errorf(linalg.ErrNonFinite, op, "kernel block entry (%d,%d) is %v", i, i+j, x)
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

// checkSymmetric checks that k is finite (linalg.ErrNonFinite) and
// symmetric to a relative 1e-12 (linalg.ErrShape).
func checkSymmetric(op string, k mat.Matrix, n int) error {
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := k.At(i, j), k.At(j, i)
			if math.IsNaN(a) || math.IsInf(a, 0) || math.IsNaN(b) || math.IsInf(b, 0) {
				return linalg.Errorf(linalg.ErrNonFinite, op, "kernel block entries (%d,%d), (%d,%d) are %v, %v", i, j, j, i, a, b)
			}
			if math.Abs(a-b) > 1e-12*(math.Abs(a)+math.Abs(b)) {
				return linalg.Errorf(linalg.ErrShape, op, "kernel block is not symmetric: K[%d,%d]=%v, K[%d,%d]=%v", i, j, a, j, i, b)
			}
		}
	}
	return nil
}

// featureView validates phi against l labels and returns a row-major view.
func (ft *Fitter) featureView(op string, phi mat.Matrix, l int) (blas64.General, error) {
	if ova.IsNil(phi) {
		return blas64.General{}, linalg.Errorf(linalg.ErrEmpty, op, "nil feature matrix")
	}
	r, c := phi.Dims()
	if r == 0 || c == 0 {
		return blas64.General{}, linalg.Errorf(linalg.ErrEmpty, op, "empty feature matrix (%d x %d)", r, c)
	}
	if r != l {
		return blas64.General{}, linalg.Errorf(linalg.ErrShape, op, "feature matrix has %d rows but there are %d labels", r, l)
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
				return blas64.General{}, linalg.Errorf(linalg.ErrNonFinite, op, "feature matrix entry (%d,%d) is %v", i, j, x)
			}
		}
	}
	return g, nil
}
