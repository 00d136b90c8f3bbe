package models

import (
	"errors"

	"ukm/linalg"
)

// The package's own errors. Bad input and settings are reported with the
// module's vocabulary instead: errors wrapping linalg.ErrInvalid through its
// kinds (linalg.ErrShape, ErrNonFinite, ErrLabels, ErrSettings, ...).
var (
	// ErrNotFitted is returned by the methods of a nil or zero Model, one
	// not returned by Fit, FitLabels, Select or Loop.
	ErrNotFitted = errors.New("models: the model is not fitted (use a Model returned by Fit, FitLabels, Select or Loop)")
	// ErrNoOutOfSample reports that the model has no kernel function for new
	// points: the graph-Laplacian designs (Order, ImpOrder, Diffusion,
	// GaussianField) define the kernel only on the n points of the graph.
	ErrNoOutOfSample = errors.New("models: no out-of-sample extension for a graph-Laplacian design")
	// ErrNoProbability reports that the classifier (an SVM) has no class
	// probabilities.
	ErrNoProbability = errors.New("models: the SVM classifier gives no class probabilities")
	// ErrNoCandidates reports an active-learning loop without unlabeled
	// points to query; it is a kind of linalg.ErrSettings (errors.Is finds
	// both, and linalg.ErrInvalid).
	ErrNoCandidates = linalg.NewKind("no unlabeled candidates", linalg.ErrSettings)
)

// inputf returns an input error of the given kind (a linalg.ErrInvalid kind).
func inputf(kind error, format string, args ...any) error {
	return linalg.Errorf(kind, "models", format, args...)
}
