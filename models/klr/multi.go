package klr

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/models/internal/ova"
)

// Multi is a one-versus-all multi-class KLR model for classes 0..Classes-1.
//
// With Classes == 2 it holds a single binary model whose positive class is
// class 1. Otherwise Models[c] separates class c (+1) from all others (-1).
type Multi struct {
	Classes int
	Models  []Model
}

// FitMultiKernel fits a one-versus-all kernel-form model on the l x l kernel
// block k with integer labels in 0..classes-1 (classes >= 2, every class
// present). All binary problems share s.
func FitMultiKernel(ctx context.Context, k mat.Matrix, labels []int, classes int, s *Settings) (*Multi, error) {
	ft := Fitter{}
	if s != nil {
		ft.Settings = *s
	}
	mm := &Multi{}
	err := ft.FitMultiKernel(ctx, mm, k, labels, classes, false)
	if mm.Classes == 0 {
		return nil, err
	}
	return mm, err
}

// FitMultiFeatures is FitMultiKernel for the feature form (phi is l x d).
func FitMultiFeatures(ctx context.Context, phi mat.Matrix, labels []int, classes int, s *Settings) (*Multi, error) {
	ft := Fitter{}
	if s != nil {
		ft.Settings = *s
	}
	mm := &Multi{}
	err := ft.FitMultiFeatures(ctx, mm, phi, labels, classes, false)
	if mm.Classes == 0 {
		return nil, err
	}
	return mm, err
}

// FitMultiKernel fits mm in place, reusing its storage; with warm = true each
// binary model starts from the matching model already in mm (see
// Fitter.FitKernel). If some binary fit ends with ErrIterationLimit or
// ErrStalled the others are still fitted and the first such error is returned
// (mm is usable); a cancelled context stops at once.
func (ft *Fitter) FitMultiKernel(ctx context.Context, mm *Multi, k mat.Matrix, labels []int, classes int, warm bool) error {
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
	if mm == nil {
		return fmt.Errorf("%w: nil model", ErrShape)
	}
	kr, err := ft.kernelView(k, len(labels))
	if err != nil {
		return err
	}
	if err := checkMulti(labels, classes); err != nil {
		return err
	}
	l := len(labels)
	return ft.fitMulti(ctx, mm, labels, classes, warm, func(m *Model, y []float64, warm bool) error {
		if warm && (m.Form != KernelForm || len(m.Coef) > l) {
			warm = false
		}
		return ft.ws.run(ctx, m, problem{form: KernelForm, l: l, n: l, k: kr, y: y}, s, warm)
	})
}

// FitMultiFeatures is Fitter.FitMultiKernel for the feature form.
func (ft *Fitter) FitMultiFeatures(ctx context.Context, mm *Multi, phi mat.Matrix, labels []int, classes int, warm bool) error {
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
	if mm == nil {
		return fmt.Errorf("%w: nil model", ErrShape)
	}
	pr, err := ft.featureView(phi, len(labels))
	if err != nil {
		return err
	}
	if err := checkMulti(labels, classes); err != nil {
		return err
	}
	return ft.fitMulti(ctx, mm, labels, classes, warm, func(m *Model, y []float64, warm bool) error {
		if warm && (m.Form != FeatureForm || len(m.Coef) != pr.Cols) {
			warm = false
		}
		return ft.ws.run(ctx, m, problem{form: FeatureForm, l: len(y), n: pr.Cols, phi: pr, y: y}, s, warm)
	})
}

func (ft *Fitter) fitMulti(ctx context.Context, mm *Multi, labels []int, classes int, warm bool, fit func(*Model, []float64, bool) error) error {
	warm = warm && mm.Classes == classes && len(mm.Models) == ova.Problems(classes)
	mm.Classes = classes
	ft.yb = grow(ft.yb, len(labels))
	return ova.Fit("klr", &mm.Models, labels, classes, ft.yb,
		func(m *Model, y []float64) error { return fit(m, y, warm) },
		func(err error) bool { return errors.Is(err, ErrIterationLimit) || errors.Is(err, ErrStalled) })
}

func checkMulti(labels []int, classes int) error {
	if classes >= 2 && len(labels) == 0 {
		return fmt.Errorf("%w: no labels", ErrShape)
	}
	return ova.CheckLabels(labels, classes, ErrLabels)
}

// Decision returns the m x len(Models) matrix of decision values of the rows
// of x (see Model.Decision), written into dst when it has the right shape.
func (mm *Multi) Decision(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	if mm == nil {
		return dst, fmt.Errorf("%w: model is not fitted", ErrShape)
	}
	if err := ova.CheckModels(mm.Classes, len(mm.Models), ErrShape); err != nil {
		return dst, err
	}
	if ova.IsNil(x) {
		return dst, fmt.Errorf("%w: nil input matrix", ErrShape)
	}
	r, _ := x.Dims()
	nm := len(mm.Models)
	if r == 0 {
		return dst, fmt.Errorf("%w: input has no rows", ErrShape)
	}
	if dst == nil {
		dst = mat.NewDense(r, nm, nil)
	} else if dr, dc := dst.Dims(); dr != r || dc != nm {
		return dst, fmt.Errorf("%w: dst is %d x %d, want %d x %d", ErrShape, dr, dc, r, nm)
	}
	col := make([]float64, r)
	raw := dst.RawMatrix()
	for c := range mm.Models {
		var err error
		col, err = mm.Models[c].Decision(col, x)
		if err != nil {
			return dst, err
		}
		blas64.Copy(blas64.Vector{N: r, Inc: 1, Data: col}, blas64.Vector{N: r, Inc: raw.Stride, Data: raw.Data[c:]})
	}
	return dst, nil
}

// PredictProba returns the m x Classes matrix of per-class probabilities of
// the rows of x. Entry (i, c) is the one-versus-all probability
// sigmoid(f_c(x_i)) of class c; for c > 2 these need not sum to one (see
// PredictProbaNormalized). With Classes == 2 the row is (1-p, p) with
// p = sigmoid(f), which sums to one. dst is reused when it is m x Classes.
func (mm *Multi) PredictProba(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	if mm == nil {
		return dst, fmt.Errorf("%w: model is not fitted", ErrShape)
	}
	if err := ova.CheckModels(mm.Classes, len(mm.Models), ErrShape); err != nil {
		return dst, err
	}
	if ova.IsNil(x) {
		return dst, fmt.Errorf("%w: nil input matrix", ErrShape)
	}
	r, _ := x.Dims()
	if r == 0 {
		return dst, fmt.Errorf("%w: input has no rows", ErrShape)
	}
	if dst == nil {
		dst = mat.NewDense(r, mm.Classes, nil)
	} else if dr, dc := dst.Dims(); dr != r || dc != mm.Classes {
		return dst, fmt.Errorf("%w: dst is %d x %d, want %d x %d", ErrShape, dr, dc, r, mm.Classes)
	}
	if mm.Classes == 2 {
		f, err := mm.Models[0].Decision(nil, x)
		if err != nil {
			return dst, err
		}
		for i, v := range f {
			dst.Set(i, 0, Sigmoid(-v))
			dst.Set(i, 1, Sigmoid(v))
		}
		return dst, nil
	}
	if _, err := mm.Decision(dst, x); err != nil {
		return dst, err
	}
	raw := dst.RawMatrix()
	for i := 0; i < r; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+mm.Classes]
		for c, f := range row {
			row[c] = Sigmoid(f)
		}
	}
	return dst, nil
}

// PredictProbaNormalized is PredictProba with each row divided by its sum, so
// that rows are distributions over the classes (for example for the entropy
// criterion of active learning, KDD 2006 eq. 19). The argmax is unchanged.
func (mm *Multi) PredictProbaNormalized(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	dst, err := mm.PredictProba(dst, x)
	if err != nil {
		return dst, err
	}
	raw := dst.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
		var sum float64
		for _, v := range row {
			sum += v
		}
		if sum > 0 {
			for c := range row {
				row[c] /= sum
			}
		} else {
			// Every one-versus-all probability underflowed: fall back to
			// uniform, which is the honest answer at that precision.
			for c := range row {
				row[c] = 1 / float64(len(row))
			}
		}
	}
	return dst, nil
}

// Predict writes the class of maximal probability for each row of x into dst
// (grown if too short) and returns it. Ties go to the lower class index.
func (mm *Multi) Predict(dst []int, x mat.Matrix) ([]int, error) {
	dec, err := mm.Decision(nil, x)
	if err != nil {
		return dst, err
	}
	return ova.Classify(dst, dec, mm.Classes == 2, func(f float64) bool { return f > 0 }), nil
}
