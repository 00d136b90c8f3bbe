package klr

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
)

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

// Stats reports how a fit went. It is filled whenever the Newton iteration
// ran, whatever its outcome.
type Stats struct {
	// Status is the outcome: Converged (the relative gradient test was
	// met), IterationLimit (MaxIter Newton steps were taken), Stalled (the
	// line search found no decrease, or the Newton direction was not a
	// descent direction), NumericalFailure (the Newton matrix could not be
	// factorised, or the objective overflowed) or Canceled.
	Status linalg.Status
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

// Decision writes the decision values f = x Coef + Bias of the m rows of x
// into dst (grown if too short) and returns it. x is the m x l cross-kernel
// block between new points and the training points (KernelForm) or the m x d
// feature rows of the new points (FeatureForm).
//
// An unfitted model or a nil x is an error of kind linalg.ErrEmpty, a
// column count other than len(Coef) of kind linalg.ErrShape, a non-finite
// decision value of kind linalg.ErrNonFinite. Cost O(m len(Coef)).
func (m *Model) Decision(dst []float64, x mat.Matrix) ([]float64, error) {
	const op = "klr.Model.Decision"
	if m == nil || m.Form == 0 {
		return dst, linalg.Errorf(linalg.ErrEmpty, op, "model is not fitted")
	}
	if ova.IsNil(x) {
		return dst, linalg.Errorf(linalg.ErrEmpty, op, "nil input matrix")
	}
	r, c := x.Dims()
	if c != len(m.Coef) {
		what := "features"
		if m.Form == KernelForm {
			what = "training points (cross-kernel columns)"
		}
		return dst, linalg.Errorf(linalg.ErrShape, op, "input has %d columns, model has %d %s", c, len(m.Coef), what)
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
			return dst, linalg.Errorf(linalg.ErrNonFinite, op, "decision value %d is %v (non-finite input row?)", i, v)
		}
	}
	return dst, nil
}

// Prob writes p(y = +1 | x) = sigmoid(f(x)) for the rows of x into dst and
// returns it. See Decision for x and the errors.
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
