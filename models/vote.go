package models

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// VoteMode says whether Select returns the chosen candidate alone or a
// committee of candidates that vote.
type VoteMode int

// Vote modes.
const (
	// VoteAuto is VoteSoft with the default candidates and VoteNone with
	// a caller's list (whose first candidate need not be a default).
	VoteAuto VoteMode = iota
	// VoteNone returns the chosen candidate alone.
	VoteNone
	// VoteSoft returns a committee of up to CommitteeSize candidates: the
	// chosen one and the best scored others (the highest cross-validated
	// accuracy, ties to the higher mean probability of the true class,
	// then to the earlier candidate) among those the cross-validation
	// cannot tell from it: the chosen candidate does not beat them by more
	// than one paired standard error over the held-out labeled points (the
	// test of the one-standard-error rule) and that give class
	// probabilities (not the SVM, whose vote would be a certainty). Each is
	// fitted on all labeled points; the committee predicts the class of
	// largest mean probability over its members (a soft vote; see
	// Model.Voters), a chosen SVM counting as probability one for the class
	// it predicts. When every other candidate is clearly worse, the chosen
	// one stands alone.
	VoteSoft
)

// CommitteeSize is the largest number of members of a VoteSoft committee
// (fewer when fewer candidates are within one standard error of the chosen
// one).
//
// Why a committee: with 10 or 20 labels the cross-validated scores of the
// best candidates differ by less than their noise, so the chosen candidate
// is one of several that the labels cannot tell apart; their mean loses
// less to an unlucky choice than any one of them. Why nine: the head-to-head
// table of REPRODUCTION.md measures sizes 1 to 20 and all candidates within
// one standard error; accuracy rises to about seven members and is flat
// from there to twenty, and falls when every such candidate votes.
const CommitteeSize = 9

// voting reports whether the mode builds a committee; defaults says whether
// the candidates are the default ones.
func (v VoteMode) voting(defaults bool) bool {
	return v == VoteSoft || (v == VoteAuto && defaults)
}

// committee returns the indexes in scores of the candidates that join the
// chosen one (see VoteSoft).
func committee(scores []CandidateScore, chosen int) []int {
	var order []int
	for i, s := range scores {
		if s.Skipped == nil && i != chosen && s.Options.Classifier != SVM && pairedWithin(scores[chosen].right, s.right) {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		sa, sb := &scores[a], &scores[b]
		return cmp.Or(cmp.Compare(sb.Accuracy, sa.Accuracy), cmp.Compare(sb.Probability, sa.Probability))
	})
	return order[:min(len(order), CommitteeSize-1)]
}

// Voters returns the other members of a committee (see VoteSoft): the
// models of the candidates Selection.Voters lists, in that order; nil for a
// single model. A committee's accessors (Kernel, Features, Design, Lambda,
// CV, Alignment, EigenValues, Unreached, Timings) describe its chosen
// member, m itself; Predict, Proba, PredictRows, ProbaRows and the Scores
// give the committee's vote, and Status the first member that did not
// converge.
func (m *Model) Voters() []*Model {
	if m == nil || len(m.voters) == 0 {
		return nil
	}
	return slices.Clone(m.voters)
}

// alone returns m without its voters: the chosen member as a single model.
func (m *Model) alone() *Model {
	if len(m.voters) == 0 {
		return m
	}
	c := *m
	c.voters = nil
	return &c
}

// vote returns the committee's mean class probabilities and the class of
// largest mean (ties to the lower class): proba and predict give a member's
// probabilities and predictions of the rows in question (reusing their
// first argument). A member without probabilities (the SVM) votes with
// probability one for the class it predicts. dst is used when it has the
// right shape.
func (m *Model) vote(dst *mat.Dense, pred []int, proba func(*Model, *mat.Dense) (*mat.Dense, error), predict func(*Model, []int) ([]int, error)) (*mat.Dense, []int, error) {
	members := append([]*Model{m.alone()}, m.voters...)
	var sum, p *mat.Dense
	var labels []int
	for _, v := range members {
		var err error
		p, err = proba(v, p)
		if errors.Is(err, ErrNoProbability) {
			if labels, err = predict(v, labels); err != nil {
				return dst, pred, err
			}
			if sum == nil {
				sum = mat.NewDense(len(labels), m.classes, nil)
			}
			for i, c := range labels {
				sum.Set(i, c, sum.At(i, c)+1)
			}
			continue
		}
		if err != nil {
			return dst, pred, err
		}
		if sum == nil {
			r, _ := p.Dims()
			sum = mat.NewDense(r, m.classes, nil)
		}
		sum.Add(sum, p)
	}
	sum.Scale(1/float64(len(members)), sum)
	if dst != nil {
		r, c := sum.Dims()
		if dr, dc := dst.Dims(); dr != r || dc != c {
			return dst, pred, inputf(linalg.ErrShape, "dst is %d x %d, want %d x %d", dr, dc, r, c)
		}
		dst.Copy(sum)
	} else {
		dst = sum
	}
	return dst, argmaxRows(pred, dst), nil
}

// checkVoters checks a loaded committee: its voters are models of the same
// data, classes and labels, and share only points of their own scaling.
func (m *Model) checkVoters() error {
	for i, v := range m.voters {
		switch {
		case v.classes != m.classes, v.pr.n != m.pr.n:
			return fmt.Errorf("voter %d has %d classes and %d points, the model %d and %d", i, v.classes, v.pr.n, m.classes, m.pr.n)
		case !slices.Equal(v.labeled, m.labeled) || !slices.Equal(v.labels, m.labels):
			return fmt.Errorf("voter %d was fitted on other labels", i)
		case v.pr.xs == m.pr.xs && v.pr.opt.Scale != m.pr.opt.Scale:
			return fmt.Errorf("voter %d shares the points of another scaling", i)
		}
	}
	return nil
}
