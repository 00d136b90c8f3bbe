package klr

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"ukm/models/internal/ova"
)

// Multi is a one-versus-all multi-class KLR model for classes 0..Classes-1.
//
// With Classes == 2 it holds a single binary model whose positive class is
// class 1. Otherwise Models[c] separates class c (+1) from all others (-1).
// Each binary model's Stats.Status tells how its fit ended.
type Multi struct {
	Classes int
	Models  []Model
}

// FitMultiKernel fits a one-versus-all kernel-form model on the l x l kernel
// block k with integer labels in 0..classes-1 (classes >= 2, every class
// present). All binary problems share s. See Fitter.FitMultiKernel; the
// model is nil on an input error.
func FitMultiKernel(ctx context.Context, k mat.Matrix, labels []int, classes int, s *Settings) (*Multi, error) {
	mm := &Multi{}
	err := newFitter(s).fitMultiKernel("klr.FitMultiKernel", ctx, mm, k, labels, classes, false)
	return fitted(mm, mm.Classes != 0, err)
}

// FitMultiFeatures is FitMultiKernel for the feature form (phi is l x d).
func FitMultiFeatures(ctx context.Context, phi mat.Matrix, labels []int, classes int, s *Settings) (*Multi, error) {
	mm := &Multi{}
	err := newFitter(s).fitMultiFeatures("klr.FitMultiFeatures", ctx, mm, phi, labels, classes, false)
	return fitted(mm, mm.Classes != 0, err)
}

// FitMultiKernel fits mm in place, reusing its storage; with warm = true each
// binary model makes a warm start from the matching model already in mm (see
// Fitter.FitKernel). A binary fit that stops early does not stop the others
// (its status says so); an error (invalid input, wrapping linalg.ErrInvalid,
// or a cancelled context) stops at once. Labels out of range, a missing
// class or classes < 2 are errors of kind linalg.ErrLabels.
func (ft *Fitter) FitMultiKernel(ctx context.Context, mm *Multi, k mat.Matrix, labels []int, classes int, warm bool) error {
	return ft.fitMultiKernel("klr.Fitter.FitMultiKernel", ctx, mm, k, labels, classes, warm)
}

// FitMultiFeatures is Fitter.FitMultiKernel for the feature form.
func (ft *Fitter) FitMultiFeatures(ctx context.Context, mm *Multi, phi mat.Matrix, labels []int, classes int, warm bool) error {
	return ft.fitMultiFeatures("klr.Fitter.FitMultiFeatures", ctx, mm, phi, labels, classes, warm)
}

func (ft *Fitter) fitMultiKernel(op string, ctx context.Context, mm *Multi, k mat.Matrix, labels []int, classes int, warm bool) error {
	p, s, err := ft.kernelProblem(op, ctx, mm == nil, k, len(labels))
	if err != nil {
		return err
	}
	return ft.fitMulti(ctx, mm, p, labels, classes, s, warm)
}

func (ft *Fitter) fitMultiFeatures(op string, ctx context.Context, mm *Multi, phi mat.Matrix, labels []int, classes int, warm bool) error {
	p, s, err := ft.featureProblem(op, ctx, mm == nil, phi, len(labels))
	if err != nil {
		return err
	}
	return ft.fitMulti(ctx, mm, p, labels, classes, s, warm)
}

// fitMulti checks the labels and fits the binary problems of p.
func (ft *Fitter) fitMulti(ctx context.Context, mm *Multi, p problem, labels []int, classes int, s Settings, warm bool) error {
	if err := ova.CheckLabels(p.op, labels, classes); err != nil {
		return err
	}
	warm = warm && mm.Classes == classes && len(mm.Models) == ova.Problems(classes)
	mm.Classes = classes
	ft.yb = grow(ft.yb, len(labels))
	return ova.Fit(&mm.Models, labels, classes, ft.yb, func(m *Model, y []float64) error {
		p.y = y
		return ft.ws.run(ctx, m, p, s, warm)
	})
}

// Decision returns the m x len(Models) matrix of decision values of the rows
// of x (see Model.Decision), written into dst when it has the right shape.
// An unfitted or inconsistent model, a nil or empty x, or a dst of the wrong
// shape is an error wrapping linalg.ErrInvalid.
func (mm *Multi) Decision(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	if mm == nil {
		mm = &Multi{} // not fitted: ova.Decision says so
	}
	return ova.Decision("klr.Multi.Decision", dst, mm.Classes, mm.Models, x, (*Model).Decision)
}

// PredictProba returns the m x Classes matrix of per-class probabilities of
// the rows of x. Entry (i, c) is the one-versus-all probability
// sigmoid(f_c(x_i)) of class c; for c > 2 these need not sum to one (see
// PredictProbaNormalized). With Classes == 2 the row is (1-p, p) with
// p = sigmoid(f), which sums to one. dst is reused when it is m x Classes.
// Errors as for Decision.
func (mm *Multi) PredictProba(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	const op = "klr.Multi.PredictProba"
	if mm == nil {
		mm = &Multi{} // not fitted: CheckPredict says so
	}
	r, err := ova.CheckPredict(op, mm.Classes, len(mm.Models), x)
	if err != nil {
		return dst, err
	}
	if dst, err = ova.Dst(op, dst, r, mm.Classes); err != nil {
		return dst, err
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
// (grown if too short) and returns it. Ties, decision values equal to
// within TieTol of their size, go to the lower class index (PredictPrior
// lets the labels decide them). Errors as for Decision.
func (mm *Multi) Predict(dst []int, x mat.Matrix) ([]int, error) {
	return mm.PredictPrior(dst, x, nil, 0)
}
