package svm

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"

	"ukm/models/internal/ova"
)

// Defaults used when the corresponding Settings field is zero.
const (
	DefaultC   = 1.0
	DefaultTol = 1e-3
	// DefaultMaxIterPerPoint: the default iteration limit is
	// max(1e6, DefaultMaxIterPerPoint * l).
	DefaultMaxIterPerPoint = 1000
)

// tau replaces a non-positive curvature of a two-variable subproblem.
const tau = 1e-12

// Sentinel errors; returned errors wrap one of them.
var (
	// ErrShape reports inconsistent or empty dimensions.
	ErrShape = errors.New("svm: dimension mismatch")
	// ErrNotFinite reports a NaN or infinite value in the data.
	ErrNotFinite = errors.New("svm: non-finite value")
	// ErrLabels reports labels outside {-1,+1} (binary) or 0..c-1
	// (multi-class), or a missing class.
	ErrLabels = errors.New("svm: invalid labels")
	// ErrSettings reports an invalid setting, a nil Solver or a nil
	// context.
	ErrSettings = errors.New("svm: invalid settings")
	// ErrIterationLimit reports that SMO stopped at MaxIter iterations; the
	// returned alpha is feasible but not optimal to Tol.
	ErrIterationLimit = errors.New("svm: iteration limit reached")
)

// Settings configures training. The zero value means the defaults.
type Settings struct {
	// C is the box bound (soft-margin penalty). Zero means DefaultC (1);
	// negative or non-finite is an error. Pass 100 for the setting of the
	// max-margin kernel learning paper.
	C float64
	// Tol bounds the maximal KKT violation m(alpha) - M(alpha) at exit.
	// Zero means DefaultTol (1e-3).
	Tol float64
	// MaxIter bounds the SMO iterations; zero means max(1e6, 1000 l).
	MaxIter int
}

func (s *Settings) resolve(l int) (Settings, error) {
	var r Settings
	if s != nil {
		r = *s
	}
	switch {
	case math.IsNaN(r.C) || math.IsInf(r.C, 0) || r.C < 0:
		return r, fmt.Errorf("%w: C must be positive and finite, got %v", ErrSettings, r.C)
	case math.IsNaN(r.Tol) || math.IsInf(r.Tol, 0) || r.Tol < 0:
		return r, fmt.Errorf("%w: Tol must be >= 0 and finite, got %v", ErrSettings, r.Tol)
	case r.MaxIter < 0:
		return r, fmt.Errorf("%w: MaxIter must be >= 0, got %d", ErrSettings, r.MaxIter)
	}
	if r.C == 0 {
		r.C = DefaultC
	}
	if r.Tol == 0 {
		r.Tol = DefaultTol
	}
	if r.MaxIter == 0 {
		r.MaxIter = max(1_000_000, DefaultMaxIterPerPoint*l)
	}
	return r, nil
}

// Status is the outcome of training.
type Status int

// Training outcomes.
const (
	// NotRun: nothing has been trained (the zero value).
	NotRun Status = iota
	// Converged: maximal violation <= Tol.
	Converged
	// IterationLimit: MaxIter iterations done.
	IterationLimit
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
	case Cancelled:
		return "cancelled"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Stats reports how training went.
type Stats struct {
	Status Status
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
func (m *Model) Decision(dst []float64, x mat.Matrix) ([]float64, error) {
	if m == nil || len(m.Alpha) == 0 {
		return dst, fmt.Errorf("%w: model is not trained", ErrShape)
	}
	if len(m.Y) != len(m.Alpha) {
		return dst, fmt.Errorf("%w: model has %d alphas but %d labels", ErrShape, len(m.Alpha), len(m.Y))
	}
	if ova.IsNil(x) {
		return dst, fmt.Errorf("%w: nil cross-kernel block", ErrShape)
	}
	r, c := x.Dims()
	if c != len(m.Alpha) {
		return dst, fmt.Errorf("%w: cross-kernel block has %d columns, model has %d training points", ErrShape, c, len(m.Alpha))
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
			return dst, fmt.Errorf("%w: decision value %d is %v (non-finite cross-kernel row?)", ErrNotFinite, i, s)
		}
		dst[i] = s
	}
	return dst, nil
}

// Predict writes sign(f(x)) in {-1, +1} (+1 for f = 0) for the rows of x.
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

// Solver trains models with a reusable workspace. The zero value is ready.
type Solver struct {
	// Settings used by the Solver's methods.
	Settings Settings

	k    []float64 // full l x l copy of the kernel
	diag []float64
	g    []float64 // gradient of 1/2 a^T Q a - sum a
	yb   []float64
}

// Train trains a binary C-SVM on the l x l kernel block k with labels y in
// {-1, +1} (both present). See Solver.Train.
func Train(ctx context.Context, k mat.Matrix, y []float64, s *Settings) (*Model, error) {
	sv := Solver{}
	if s != nil {
		sv.Settings = *s
	}
	m := &Model{}
	err := sv.Train(ctx, m, k, y, false)
	if len(m.Alpha) == 0 {
		return nil, err
	}
	return m, err
}

// Train trains into m, reusing its storage.
//
// k must be symmetric (to a relative 1e-12) and finite; it is copied into the
// Solver's workspace. If warm is true and len(m.Alpha) == l, SMO starts from
// m.Alpha clipped to [0, C]; if the clipped start violates sum y alpha = 0 the
// alphas of the heavier class are scaled down to restore it. Otherwise it
// starts from alpha = 0.
//
// On an iteration limit or a cancelled context m holds the last (feasible)
// iterate with its bias and dual value, and the error says why. On an input
// error m is unchanged.
func (sv *Solver) Train(ctx context.Context, m *Model, k mat.Matrix, y []float64, warm bool) error {
	if sv == nil {
		return fmt.Errorf("%w: nil Solver", ErrSettings)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrSettings)
	}
	if m == nil {
		return fmt.Errorf("%w: nil model", ErrShape)
	}
	s, err := sv.Settings.resolve(len(y))
	if err != nil {
		return err
	}
	if err := sv.loadKernel(k, len(y)); err != nil {
		return err
	}
	if err := checkBinary(y); err != nil {
		return err
	}
	return sv.solve(ctx, m, y, s, warm)
}

func checkBinary(y []float64) error { return ova.CheckBinary(y, ErrLabels) }

// loadKernel validates k and copies it into sv.k (full, row-major).
func (sv *Solver) loadKernel(k mat.Matrix, l int) error {
	if err := ova.CheckKernel(k, l, ErrShape); err != nil {
		return err
	}
	sv.k = grow(sv.k, l*l)
	kk := sv.k
	switch t := k.(type) {
	case *mat.SymDense:
		raw := t.RawSymmetric()
		for i := 0; i < l; i++ {
			for j := i; j < l; j++ {
				var v float64
				if raw.Uplo == blas.Upper {
					v = raw.Data[i*raw.Stride+j]
				} else {
					v = raw.Data[j*raw.Stride+i]
				}
				kk[i*l+j], kk[j*l+i] = v, v
			}
		}
	case *mat.Dense:
		raw := t.RawMatrix()
		for i := 0; i < l; i++ {
			copy(kk[i*l:i*l+l], raw.Data[i*raw.Stride:i*raw.Stride+l])
		}
	default:
		for i := 0; i < l; i++ {
			for j := 0; j < l; j++ {
				kk[i*l+j] = k.At(i, j)
			}
		}
	}
	for i := 0; i < l; i++ {
		for j := i; j < l; j++ {
			a, b := kk[i*l+j], kk[j*l+i]
			if math.IsNaN(a) || math.IsInf(a, 0) || math.IsNaN(b) || math.IsInf(b, 0) {
				return fmt.Errorf("%w: kernel block entries (%d,%d), (%d,%d) are %v, %v", ErrNotFinite, i, j, j, i, a, b)
			}
			if a != b {
				if math.Abs(a-b) > 1e-12*(math.Abs(a)+math.Abs(b)) {
					return fmt.Errorf("%w: kernel block is not symmetric: K[%d,%d]=%v, K[%d,%d]=%v", ErrShape, i, j, a, j, i, b)
				}
				v := (a + b) / 2
				kk[i*l+j], kk[j*l+i] = v, v
			}
		}
	}
	sv.diag = grow(sv.diag, l)
	for i := range sv.diag {
		sv.diag[i] = kk[i*l+i]
	}
	return nil
}

// solve runs SMO on the loaded kernel.
func (sv *Solver) solve(ctx context.Context, m *Model, y []float64, s Settings, warm bool) error {
	l := len(y)
	C := s.C
	kk := sv.k
	if !warm || len(m.Alpha) != l {
		warm = false
	}
	m.Alpha = grow(m.Alpha, l)
	m.Y = grow(m.Y, l)
	copy(m.Y, y)
	alpha := m.Alpha
	if warm {
		repairStart(alpha, y, C)
	} else {
		for i := range alpha {
			alpha[i] = 0
		}
	}
	sv.g = grow(sv.g, l)
	g := sv.g
	sv.gradient(alpha, y)

	var st Stats
	var err error
	for {
		// Working-set selection (second order).
		gmax, gmin := math.Inf(-1), math.Inf(1)
		ii := -1
		for t := 0; t < l; t++ {
			v := -y[t] * g[t]
			if up(alpha[t], y[t], C) && v > gmax {
				gmax, ii = v, t
			}
			if low(alpha[t], y[t], C) && v < gmin {
				gmin = v
			}
		}
		if ii < 0 || gmax-gmin <= s.Tol {
			st.Status = Converged
			break
		}
		if st.Iterations >= s.MaxIter {
			st.Status = IterationLimit
			err = fmt.Errorf("%w: %d iterations, violation %.3g > Tol %.3g", ErrIterationLimit, st.Iterations, gmax-gmin, s.Tol)
			break
		}
		if st.Iterations%256 == 0 {
			if cerr := ctx.Err(); cerr != nil {
				st.Status = Cancelled
				err = fmt.Errorf("svm: training cancelled after %d iterations: %w", st.Iterations, cerr)
				break
			}
		}
		ki := kk[ii*l : ii*l+l]
		kii := ki[ii]
		jj := -1
		best := math.Inf(1)
		var bj, aj float64
		for t := 0; t < l; t++ {
			if !low(alpha[t], y[t], C) {
				continue
			}
			v := -y[t] * g[t]
			b := gmax - v
			if b <= 0 {
				continue
			}
			a := kii + sv.diag[t] - 2*ki[t]
			if a <= 0 {
				a = tau
			}
			if sc := -b * b / a; sc < best {
				best, jj, bj, aj = sc, t, b, a
			}
		}
		if jj < 0 {
			// Cannot happen when gmax - gmin > Tol >= 0; guard anyway.
			st.Status = Converged
			break
		}
		// Move alpha_i by +y_i t and alpha_j by -y_j t, t in (0, bound].
		step := bj / aj
		var limI, limJ float64
		if y[ii] > 0 {
			limI = C - alpha[ii]
		} else {
			limI = alpha[ii]
		}
		if y[jj] > 0 {
			limJ = alpha[jj]
		} else {
			limJ = C - alpha[jj]
		}
		hitI, hitJ := false, false
		if limI <= step {
			step, hitI = limI, true
		}
		if limJ <= step {
			hitI = hitI && limJ == step
			step, hitJ = limJ, true
		}
		alpha[ii] += y[ii] * step
		alpha[jj] -= y[jj] * step
		// Put variables that reached a bound exactly onto it.
		if hitI {
			alpha[ii] = 0
			if y[ii] > 0 {
				alpha[ii] = C
			}
		}
		if hitJ {
			alpha[jj] = C
			if y[jj] > 0 {
				alpha[jj] = 0
			}
		}
		kj := kk[jj*l : jj*l+l]
		for t := 0; t < l; t++ {
			g[t] += y[t] * step * (ki[t] - kj[t])
		}
		st.Iterations++
	}
	// Recompute the gradient from scratch for the bias, the dual value and
	// the reported violation.
	sv.gradient(alpha, y)
	gmax, gmin := math.Inf(-1), math.Inf(1)
	var sumFree float64
	var dual float64
	for t := 0; t < l; t++ {
		v := -y[t] * g[t]
		if up(alpha[t], y[t], C) {
			gmax = math.Max(gmax, v)
		}
		if low(alpha[t], y[t], C) {
			gmin = math.Min(gmin, v)
		}
		if alpha[t] > 0 && alpha[t] < C {
			st.FreeSV++
			sumFree += v
		} else if alpha[t] == C {
			st.BoundSV++
		}
		dual += alpha[t] * (1 - g[t])
	}
	st.Violation = math.Max(gmax-gmin, 0)
	if math.IsInf(st.Violation, 0) {
		st.Violation = 0
	}
	switch {
	case st.FreeSV > 0:
		m.Bias = sumFree / float64(st.FreeSV)
	case math.IsInf(gmax, 0) && math.IsInf(gmin, 0):
		m.Bias = 0
	case math.IsInf(gmax, 0):
		m.Bias = gmin
	case math.IsInf(gmin, 0):
		m.Bias = gmax
	default:
		m.Bias = (gmax + gmin) / 2
	}
	m.Dual = dual / 2
	m.C = C
	m.Stats = st
	return err
}

// up reports whether alpha_t may increase along y_t (t in I_up).
func up(a, y, c float64) bool { return (y > 0 && a < c) || (y < 0 && a > 0) }

// low reports whether alpha_t may decrease along y_t (t in I_low).
func low(a, y, c float64) bool { return (y > 0 && a > 0) || (y < 0 && a < c) }

// gradient sets sv.g = Q alpha - 1 with Q_ij = y_i y_j K_ij.
func (sv *Solver) gradient(alpha, y []float64) {
	l := len(y)
	g := sv.g
	for i := range g {
		g[i] = -1
	}
	for j, a := range alpha {
		if a == 0 {
			continue
		}
		c := a * y[j]
		kj := sv.k[j*l : j*l+l]
		for i := range g {
			g[i] += y[i] * c * kj[i]
		}
	}
}

// repairStart clips alpha to [0, c] and restores sum y alpha = 0 by scaling
// down the alphas of the class with the larger sum.
func repairStart(alpha, y []float64, c float64) {
	var pos, neg float64
	for i, a := range alpha {
		if !(a > 0) { // also maps NaN to 0
			a = 0
		}
		a = math.Min(a, c)
		alpha[i] = a
		if y[i] > 0 {
			pos += a
		} else {
			neg += a
		}
	}
	if pos == neg {
		return
	}
	if pos > neg {
		f := neg / pos
		for i := range alpha {
			if y[i] > 0 {
				alpha[i] *= f
			}
		}
	} else {
		f := pos / neg
		for i := range alpha {
			if y[i] < 0 {
				alpha[i] *= f
			}
		}
	}
}

func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}
