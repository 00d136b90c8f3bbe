package svm

import (
	"context"
	"errors"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/models/internal/ova"
)

// Multi is a one-versus-all multi-class SVM for classes 0..Classes-1. With
// Classes == 2 it holds one binary model whose positive class is 1;
// otherwise Models[c] separates class c (+1) from the rest (-1).
type Multi struct {
	Classes int
	Models  []Model
}

// TrainMulti trains a one-versus-all SVM on the l x l kernel block k with
// labels in 0..classes-1 (classes >= 2, every class present).
func TrainMulti(ctx context.Context, k mat.Matrix, labels []int, classes int, s *Settings) (*Multi, error) {
	sv := Solver{}
	if s != nil {
		sv.Settings = *s
	}
	mm := &Multi{}
	err := sv.TrainMulti(ctx, mm, k, labels, classes, false)
	if mm.Classes == 0 {
		return nil, err
	}
	return mm, err
}

// TrainMulti trains mm in place; with warm = true each binary machine starts
// from the matching one in mm (see Solver.Train). Binary problems that hit
// the iteration limit do not stop the others; the first such error is
// returned. A cancelled context stops at once.
func (sv *Solver) TrainMulti(ctx context.Context, mm *Multi, k mat.Matrix, labels []int, classes int, warm bool) error {
	if sv == nil {
		return fmt.Errorf("%w: nil Solver", ErrSettings)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrSettings)
	}
	if mm == nil {
		return fmt.Errorf("%w: nil model", ErrShape)
	}
	s, err := sv.Settings.resolve(len(labels))
	if err != nil {
		return err
	}
	if err := sv.loadKernel(k, len(labels)); err != nil {
		return err
	}
	if err := checkMulti(labels, classes); err != nil {
		return err
	}
	warm = warm && mm.Classes == classes && len(mm.Models) == ova.Problems(classes)
	mm.Classes = classes
	sv.yb = grow(sv.yb, len(labels))
	return ova.Fit("svm", &mm.Models, labels, classes, sv.yb,
		func(m *Model, y []float64) error { return sv.solve(ctx, m, y, s, warm) },
		func(err error) bool { return errors.Is(err, ErrIterationLimit) })
}

func checkMulti(labels []int, classes int) error { return ova.CheckLabels(labels, classes, ErrLabels) }

// Decision returns the m x len(Models) decision values for the m x l
// cross-kernel block x, written into dst when it has that shape.
func (mm *Multi) Decision(dst *mat.Dense, x mat.Matrix) (*mat.Dense, error) {
	if mm == nil {
		return dst, fmt.Errorf("%w: model is not trained", ErrShape)
	}
	if err := ova.CheckModels(mm.Classes, len(mm.Models), ErrShape); err != nil {
		return dst, err
	}
	if ova.IsNil(x) {
		return dst, fmt.Errorf("%w: nil cross-kernel block", ErrShape)
	}
	r, _ := x.Dims()
	if r == 0 {
		return dst, fmt.Errorf("%w: cross-kernel block has no rows", ErrShape)
	}
	nm := len(mm.Models)
	if dst == nil {
		dst = mat.NewDense(r, nm, nil)
	} else if dr, dc := dst.Dims(); dr != r || dc != nm {
		return dst, fmt.Errorf("%w: dst is %d x %d, want %d x %d", ErrShape, dr, dc, r, nm)
	}
	col := make([]float64, r)
	for c := range mm.Models {
		var err error
		col, err = mm.Models[c].Decision(col, x)
		if err != nil {
			return dst, err
		}
		dst.SetCol(c, col)
	}
	return dst, nil
}

// Predict writes the predicted class of each row of x into dst (grown if
// needed): the class with the largest decision value (ties to the lower
// index); with two classes, class 1 when f >= 0.
func (mm *Multi) Predict(dst []int, x mat.Matrix) ([]int, error) {
	dec, err := mm.Decision(nil, x)
	if err != nil {
		return dst, err
	}
	return ova.Classify(dst, dec, mm.Classes == 2, func(f float64) bool { return f >= 0 }), nil
}
