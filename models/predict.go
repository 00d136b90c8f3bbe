package models

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// PredictRows gives the transductive predictions: it writes the predicted
// class of the training rows idx (rows of the x given to Fit, typically the
// unlabeled ones) into dst, grown if needed, and returns it. The rows are
// classified through their rows of the learned feature map, with no
// extension step, and it works for every design, the graph designs
// included.
//
// A point in a component of the kNN graph without labeled points has no
// feature a labeled point informs; KLR without an intercept gives it the
// most frequent labeled class (and ProbaRows the labels' class shares), as
// the Spread classifier does, rather than a class decided by rounding. A
// committee (see VoteSoft) predicts the class of largest mean probability
// over its members (see Proba).
func (m *Model) PredictRows(dst []int, idx []int) ([]int, error) {
	if m != nil && len(m.voters) > 0 {
		_, dst, err := m.voteRows(nil, dst, idx)
		return dst, err
	}
	x, err := m.inputs(idx)
	if err != nil {
		return dst, err
	}
	dst, err = m.predict(dst, x)
	if err == nil {
		priorRows(dst, nil, m.unreached(idx), m.labels, m.classes)
	}
	return dst, err
}

// ProbaRows is Proba for the training rows idx (see PredictRows).
func (m *Model) ProbaRows(dst *mat.Dense, idx []int) (*mat.Dense, error) {
	if m != nil && len(m.voters) > 0 {
		dst, _, err := m.voteRows(dst, nil, idx)
		return dst, err
	}
	x, err := m.inputs(idx)
	if err != nil {
		return dst, err
	}
	dst, err = m.proba(dst, x)
	if err == nil {
		priorRows(nil, dst, m.unreached(idx), m.labels, m.classes)
	}
	return dst, err
}

// Predict writes the predicted class (0..Classes()-1; ClassNames maps it to
// the user's label) of every row of x, new points with the raw features as
// given to Fit, into dst, grown if needed, and returns it. The fitted scaler
// and cosine normalisation are applied, then the Nyström extension of the
// eigenvectors gives the feature map (see Features); for Design Standard
// the kernel with the labeled points is evaluated directly, for the Spread
// classifier the scores of the graph neighbours are averaged. KLR predicts
// the class of maximal one-versus-all probability (KDD'06 section 6.1), the
// SVM that of maximal decision value. The graph-Laplacian designs have no
// kernel function for new points and return ErrNoOutOfSample: use
// PredictRows for their training rows. As in PredictRows, KLR without an
// intercept gives a new point whose graph neighbours (of positive weight)
// all lie in components without labeled points the most frequent labeled
// class. A committee (see VoteSoft) predicts the class of largest mean
// probability over its members (see Proba); every member must then predict
// new points.
func (m *Model) Predict(dst []int, x *mat.Dense) ([]int, error) {
	if m != nil && len(m.voters) > 0 {
		_, dst, err := m.voteNew(nil, dst, x)
		return dst, err
	}
	in, unreached, err := m.inputsNew(x)
	if err != nil {
		return dst, err
	}
	dst, err = m.predict(dst, in)
	if err == nil {
		priorRows(dst, nil, unreached, m.labels, m.classes)
	}
	return dst, err
}

// Proba returns the x.Rows x Classes() matrix of class probabilities of
// new points (see Predict): the one-versus-all KLR probabilities, each row
// normalised to sum to one (for two classes, (1-p, p)). dst is used when it
// has that shape (nil allocates). An SVM model returns ErrNoProbability. A
// committee (see VoteSoft) returns the mean of its members' probabilities,
// an SVM member's being one for the class it predicts.
func (m *Model) Proba(dst *mat.Dense, x *mat.Dense) (*mat.Dense, error) {
	if m != nil && len(m.voters) > 0 {
		dst, _, err := m.voteNew(dst, nil, x)
		return dst, err
	}
	in, unreached, err := m.inputsNew(x)
	if err != nil {
		return dst, err
	}
	dst, err = m.proba(dst, in)
	if err == nil {
		priorRows(nil, dst, unreached, m.labels, m.classes)
	}
	return dst, err
}

// Features returns the learned feature map Phi(x) = v(x) diag(sqrt(mu))
// of new points, where v(x) = K0(x, X) V diag(1/lambda) is the Nyström
// extension of the eigenvectors: for a training point it reproduces the row
// of V (exactly when lambda is an exact eigenvalue, otherwise up to the
// eigensolver's residual divided by lambda). Coordinates whose eigenvalue is
// below 1e-10 times the largest are set to zero. It fails for Design
// Standard (there is no feature map) and the graph designs.
func (m *Model) Features(x *mat.Dense) (*mat.Dense, error) {
	if err := m.ready(); err != nil {
		return nil, err
	}
	if m.pr.opt.Design.graph() {
		return nil, fmt.Errorf("%w (%v)", ErrNoOutOfSample, m.pr.opt.Design)
	}
	if m.pr.basis == nil {
		return nil, inputf(linalg.ErrSettings, "the Standard design has no low-rank feature map")
	}
	z, err := m.scaleNew(x)
	if err != nil {
		return nil, err
	}
	f, err := m.extend(context.Background(), z)
	if err != nil {
		return nil, err
	}
	scaleColumns(f, f, sqrtMu(nil, m.mu))
	return f, nil
}

// Score returns the accuracy of Predict on the new points x against their
// classes y (0..Classes()-1, one per row).
func (m *Model) Score(x *mat.Dense, y []int) (float64, error) {
	pred, err := m.Predict(nil, x)
	if err != nil {
		return 0, err
	}
	return scoreOf(pred, y)
}

// ScoreRows returns the accuracy of PredictRows on the training rows idx
// against their classes y (one per index).
func (m *Model) ScoreRows(idx []int, y []int) (float64, error) {
	pred, err := m.PredictRows(nil, idx)
	if err != nil {
		return 0, err
	}
	return scoreOf(pred, y)
}

func scoreOf(pred, y []int) (float64, error) {
	if len(y) != len(pred) {
		return 0, inputf(linalg.ErrShape, "%d classes for %d points", len(y), len(pred))
	}
	hit := 0
	for i, c := range pred {
		if c == y[i] {
			hit++
		}
	}
	return float64(hit) / float64(len(pred)), nil
}

// voteRows is the committee's vote on the training rows idx.
func (m *Model) voteRows(dst *mat.Dense, pred []int, idx []int) (*mat.Dense, []int, error) {
	return m.vote(dst, pred,
		func(v *Model, p *mat.Dense) (*mat.Dense, error) { return v.ProbaRows(p, idx) },
		func(v *Model, c []int) ([]int, error) { return v.PredictRows(c, idx) })
}

// voteNew is the committee's vote on new points x.
func (m *Model) voteNew(dst *mat.Dense, pred []int, x *mat.Dense) (*mat.Dense, []int, error) {
	return m.vote(dst, pred,
		func(v *Model, p *mat.Dense) (*mat.Dense, error) { return v.Proba(p, x) },
		func(v *Model, c []int) ([]int, error) { return v.Predict(c, x) })
}
