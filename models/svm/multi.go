package svm

import (
	"context"

	"gonum.org/v1/gonum/mat"

	"ukm/models/internal/ova"
)

// Multi is a one-versus-all multi-class SVM for classes 0..Classes-1. With
// Classes == 2 it holds one binary model whose positive class is 1;
// otherwise Models[c] separates class c (+1) from the rest (-1). Each binary
// model's Stats.Status tells how its training ended.
type Multi struct {
	Classes int
	Models  []Model
}

// TrainMulti trains a one-versus-all SVM on the l x l kernel block k with
// labels in 0..classes-1 (classes >= 2, every class present). See
// Solver.TrainMulti; the model is nil on an input error.
func TrainMulti(ctx context.Context, k mat.Matrix, labels []int, classes int, s *Settings) (*Multi, error) {
	mm := &Multi{}
	err := newSolver(s).trainMulti("svm.TrainMulti", ctx, mm, k, labels, classes, false)
	if mm.Classes == 0 {
		return nil, err
	}
	return mm, err
}

// TrainMulti trains mm in place; with warm = true each binary machine makes
// a warm start from the matching one in mm (see Solver.Train). A binary
// problem that stops at the iteration limit does not stop the others (its
// status says so); an error (invalid input, wrapping linalg.ErrInvalid, or a
// cancelled context) stops at once. Labels out of range, a missing class or
// classes < 2 are errors of kind linalg.ErrLabels.
func (sv *Solver) TrainMulti(ctx context.Context, mm *Multi, k mat.Matrix, labels []int, classes int, warm bool) error {
	return sv.trainMulti("svm.Solver.TrainMulti", ctx, mm, k, labels, classes, warm)
}

func (sv *Solver) trainMulti(op string, ctx context.Context, mm *Multi, k mat.Matrix, labels []int, classes int, warm bool) error {
	s, err := sv.prepare(op, ctx, mm == nil, k, len(labels))
	if err != nil {
		return err
	}
	if err := ova.CheckLabels(op, labels, classes); err != nil {
		return err
	}
	warm = warm && mm.Classes == classes && len(mm.Models) == ova.Problems(classes)
	mm.Classes = classes
	sv.yb = grow(sv.yb, len(labels))
	return ova.Fit(&mm.Models, labels, classes, sv.yb, func(m *Model, y []float64) error {
		return sv.solve(op, ctx, m, y, s, warm)
	})
}

// Decision returns the m x len(Models) decision values for the m x l
// cross-kernel block x, written into dst when it has that shape. An
// untrained or inconsistent model, a nil or empty x, or a dst of another
// shape is an error wrapping linalg.ErrInvalid.
func (mm *Multi) Decision(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	if mm == nil {
		mm = &Multi{} // not trained: ova.Decision says so
	}
	return ova.Decision("svm.Multi.Decision", dst, mm.Classes, mm.Models, x, (*Model).Decision)
}

// Predict writes the predicted class of each row of x into dst (grown if
// needed): the class with the largest decision value (ties to the lower
// index); with two classes, class 1 when f >= 0. Errors as for Decision.
func (mm *Multi) Predict(dst []int, x mat.Matrix) ([]int, error) {
	dec, err := mm.Decision(nil, x)
	if err != nil {
		return dst, err
	}
	return ova.Classify(dst, dec, mm.Classes == 2, func(f float64) bool { return f >= 0 }), nil
}
