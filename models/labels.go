package models

import (
	"context"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"ukm/dataset"
	"ukm/linalg"
)

// Unlabeled marks a row without a label in the labels given to FitLabels.
const Unlabeled = ""

// FitLabels is Fit with one label per row of x, in the manner of
// scikit-learn's semi-supervised estimators: y[i] is the class name of row
// i, or Unlabeled for an unlabeled row. The classes are the distinct names,
// in numeric order when every name is a number (so "-1" < "1" < "10") and in
// lexicographic order otherwise; the Model keeps them, and ClassNames and
// PredictLabels speak them. Fit's other rules apply: at least two classes,
// and a point of every class labeled.
func FitLabels(ctx context.Context, x *mat.Dense, y []string, opt *Options) (*Model, error) {
	if x != nil {
		if r, _ := x.Dims(); r != len(y) {
			return nil, inputf(linalg.ErrShape, "%d labels for %d rows", len(y), r)
		}
	}
	names, labeled, classes := encodeLabels(y)
	m, err := Fit(ctx, x, labeled, classes, opt)
	if err != nil {
		return nil, err
	}
	m.names = names
	return m, nil
}

// encodeLabels maps the names in y to classes 0..c-1 in the order of
// dataset.Index (the rule described at FitLabels) and returns the names,
// the labeled rows and their classes.
func encodeLabels(y []string) (names []string, labeled, classes []int) {
	var raw []string
	for i, s := range y {
		if s != Unlabeled {
			labeled = append(labeled, i)
			raw = append(raw, s)
		}
	}
	if len(raw) == 0 {
		return nil, nil, nil
	}
	names, classes = dataset.Index(raw)
	return names, labeled, classes
}

// ClassNames returns the name of every class, indexed by class: the labels
// given to FitLabels, or "0", "1", ... for a model fitted with class
// indices.
func (m *Model) ClassNames() []string {
	if m == nil {
		return nil
	}
	if m.names != nil {
		return slices.Clone(m.names)
	}
	names := make([]string, m.classes)
	for k := range names {
		names[k] = strconv.Itoa(k)
	}
	return names
}

// PredictLabels is Predict returning the class names (see ClassNames).
func (m *Model) PredictLabels(x *mat.Dense) ([]string, error) {
	pred, err := m.Predict(nil, x)
	if err != nil {
		return nil, err
	}
	names := m.ClassNames()
	out := make([]string, len(pred))
	for i, c := range pred {
		out[i] = names[c]
	}
	return out, nil
}
