package svm

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
)

// Stats reports how training went.
type Stats struct {
	// Status is the outcome: Converged (maximal violation <= Tol),
	// IterationLimit (MaxIter iterations were done; alpha is feasible but
	// not optimal to Tol) or Canceled.
	Status linalg.Status
	// Iterations counts SMO pair updates.
	Iterations int
	// Violation is the maximal KKT violation m(alpha) - M(alpha) at exit
	// (computed from a freshly recomputed gradient).
	Violation float64
	// FreeSV and BoundSV count support vectors with 0 < alpha < C and
	// alpha = C.
	FreeSV, BoundSV int
}

// Model is a trained binary C-SVM.
type Model struct {
	// Alpha holds the dual variables, one per training point.
	Alpha []float64
	// Y holds the training labels (+-1).
	Y []float64
	// Bias is b of the decision function.
	Bias float64
	// C is the box bound used.
	C float64
	// Dual is the dual objective sum(alpha) - 1/2 alpha^T Q alpha at Alpha.
	Dual  float64
	Stats Stats
}

// DualCoef writes beta_i = y_i alpha_i into dst (grown if needed) and returns
// it; f(x) = sum_i beta_i K(x, x_i) + b, and the derivative of the optimal
// dual value with respect to K_ij is -beta_i beta_j / 2.
//
// A nil Model, or one whose Y and Alpha differ in length (not trained by this
// package), gives an empty dst.
func (m *Model) DualCoef(dst []float64) []float64 {
	if m == nil || len(m.Y) != len(m.Alpha) {
		return dst[:0]
	}
	dst = grow(dst, len(m.Alpha))
	for i, a := range m.Alpha {
		dst[i] = a * m.Y[i]
	}
	return dst
}

// Decision writes f(x) for the rows of x, the m x l cross-kernel block
// between new points and the training points, into dst (grown if needed).
//
// An untrained model or a nil x is an error of kind linalg.ErrEmpty, a model
// whose Y and Alpha differ in length or an x without l columns of kind
// linalg.ErrShape, a non-finite decision value of kind linalg.ErrNonFinite.
// Cost O(m l).
func (m *Model) Decision(dst []float64, x mat.Matrix) ([]float64, error) {
	const op = "svm.Model.Decision"
	if m == nil || len(m.Alpha) == 0 {
		return dst, linalg.Errorf(linalg.ErrEmpty, op, "model is not trained")
	}
	if len(m.Y) != len(m.Alpha) {
		return dst, linalg.Errorf(linalg.ErrShape, op, "model has %d alphas but %d labels", len(m.Alpha), len(m.Y))
	}
	if ova.IsNil(x) {
		return dst, linalg.Errorf(linalg.ErrEmpty, op, "nil cross-kernel block")
	}
	r, c := x.Dims()
	if c != len(m.Alpha) {
		return dst, linalg.Errorf(linalg.ErrShape, op, "cross-kernel block has %d columns, model has %d training points", c, len(m.Alpha))
	}
	dst = grow(dst, r)
	for i := 0; i < r; i++ {
		s := m.Bias
		for j, a := range m.Alpha {
			if a != 0 {
				s += a * m.Y[j] * x.At(i, j)
			}
		}
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return dst, linalg.Errorf(linalg.ErrNonFinite, op, "decision value %d is %v (non-finite cross-kernel row?)", i, s)
		}
		dst[i] = s
	}
	return dst, nil
}

// Predict writes sign(f(x)) in {-1, +1} (+1 for f = 0) for the rows of x.
// Errors as for Decision.
func (m *Model) Predict(dst []float64, x mat.Matrix) ([]float64, error) {
	dst, err := m.Decision(dst, x)
	if err != nil {
		return dst, err
	}
	for i, f := range dst {
		if f >= 0 {
			dst[i] = 1
		} else {
			dst[i] = -1
		}
	}
	return dst, nil
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}
