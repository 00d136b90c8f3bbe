package models

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ukm/models/active"
	"ukm/models/klr"
)

// The steps of one active-learning round after the fit: scoring the pool,
// choosing the queries and adding their labels.

// evaluate computes decision values, probabilities and predictions over the
// unlabeled points; it returns the largest entropy and the accuracy (NaN
// without truth).
func (lp *loop) evaluate() (maxH, acc float64) {
	pr := lp.pr
	n, c := pr.n, pr.classes
	l := len(lp.lab)
	nm := len(lp.mm.Models)
	for k := range lp.mm.Models {
		m := &lp.mm.Models[k]
		f := lp.dec[k*n : (k+1)*n]
		if pr.basis != nil {
			// f = Phi w + b = V (sqrt(mu) .* w) + b over all n points.
			w := lp.w[:len(m.Coef)]
			for j, v := range m.Coef {
				w[j] = v * lp.smu[j]
			}
			gemvRows(f, pr.basis.V, w, m.Bias)
		} else {
			gemvRows(f, lp.kall.Slice(0, n, 0, l).(*mat.Dense), m.Coef, m.Bias)
		}
	}
	right := 0
	for a, i := range lp.unl {
		p := lp.probs[a*c : (a+1)*c]
		if nm == 1 {
			q := klr.Sigmoid(lp.dec[i])
			p[0], p[1] = 1-q, q
		} else {
			var sum float64
			for k := range p {
				p[k] = klr.Sigmoid(lp.dec[k*n+i])
				sum += p[k]
			}
			for k := range p {
				if sum > 0 {
					p[k] /= sum
				} else {
					p[k] = 1 / float64(c)
				}
			}
		}
		lp.pred[i] = lp.classAt(i)
		// p is normalised above, so the score cannot fail.
		h, _ := active.EntropyScore(p)
		maxH = math.Max(maxH, h)
		if lp.opt.Truth != nil && lp.pred[i] == lp.opt.Truth[i] {
			right++
		}
	}
	acc = math.NaN()
	if lp.opt.Truth != nil && len(lp.unl) > 0 {
		acc = float64(right) / float64(len(lp.unl))
	}
	return maxH, acc
}

// classAt returns the predicted class of point i from the decision values
// evaluate computed over all n points: the positive class of a binary
// model when its value is positive, otherwise the largest one-versus-all
// value (the lower class on a tie).
func (lp *loop) classAt(i int) int {
	n := lp.pr.n
	nm := len(lp.mm.Models)
	if nm == 1 {
		if lp.dec[i] > 0 {
			return 1
		}
		return 0
	}
	best := 0
	for k := 1; k < nm; k++ {
		if lp.dec[k*n+i] > lp.dec[best*n+i] {
			best = k
		}
	}
	return best
}

// holdout returns the predicted classes of the held-out points and their
// accuracy (NaN without truth).
func (lp *loop) holdout() ([]int, float64) {
	pred := make([]int, len(lp.opt.Holdout))
	right := 0
	for a, i := range lp.opt.Holdout {
		pred[a] = lp.classAt(i)
		if lp.opt.Truth != nil && pred[a] == lp.opt.Truth[i] {
			right++
		}
	}
	acc := math.NaN()
	if lp.opt.Truth != nil {
		acc = float64(right) / float64(len(pred))
	}
	return pred, acc
}

// unchanged reports whether the predictions on the current unlabeled points
// equal those of the previous round, and saves the current ones.
func (lp *loop) unchanged() bool {
	same := true
	for _, i := range lp.unl {
		if lp.pred[i] != lp.prevPred[i] {
			same = false
		}
	}
	copy(lp.prevPred, lp.pred)
	return same
}

// choose returns the k points to query in round r.
func (lp *loop) choose(r, k int) ([]int, error) {
	if r == 0 {
		copy(lp.prevPred, lp.pred)
	}
	c := lp.pr.classes
	u := len(lp.unl)
	var rows []int
	switch s := lp.opt.Selector.(type) {
	case active.Entropy:
		rows = lp.topEntropy(k)
	case active.Random:
		s.Round = uint64(r)
		var err error
		if rows, err = s.Select(lp.sel[:0], mat.NewDense(u, c, lp.probs[:u*c]), k); err != nil {
			return nil, fmt.Errorf("models: selection: %w", err)
		}
	case active.FeatureSelector:
		var err error
		if rows, err = s.SelectFeatures(lp.sel[:0], mat.NewDense(u, c, lp.probs[:u*c]), lp.poolFeatures(), k); err != nil {
			return nil, fmt.Errorf("models: selection: %w", err)
		}
	default:
		var err error
		if rows, err = s.Select(lp.sel[:0], mat.NewDense(u, c, lp.probs[:u*c]), k); err != nil {
			return nil, fmt.Errorf("models: selection: %w", err)
		}
	}
	if len(rows) == 0 || len(rows) > k {
		return nil, fmt.Errorf("models: selector returned %d points, want 1..%d", len(rows), k)
	}
	q := make([]int, len(rows))
	for a, row := range rows {
		if row < 0 || row >= u || slices.Contains(rows[:a], row) {
			return nil, fmt.Errorf("models: selector returned an invalid or repeated row %d", row)
		}
		q[a] = lp.unl[row]
	}
	return q, nil
}

// poolFeatures returns the feature vectors of the unlabeled points, one row
// per point in the order of lp.unl, in the space where the classifier is
// linear: the rows of Phi = V diag(sqrt(mu)) for the spectral designs, the
// initial-kernel columns K0(x, X_L) of the labeled points for Design
// Standard (kernel KLR is linear in its coefficients on them). The buffer
// is reused between rounds.
func (lp *loop) poolFeatures() *mat.Dense {
	u := len(lp.unl)
	if basis := lp.pr.basis; basis != nil {
		_, d := basis.V.Dims()
		lp.feat = slices.Grow(lp.feat[:0], u*d)[:u*d]
		for a, i := range lp.unl {
			row := lp.feat[a*d : (a+1)*d]
			for j, v := range basis.V.RawRowView(i)[:d] {
				row[j] = v * lp.smu[j]
			}
		}
		return mat.NewDense(u, d, lp.feat)
	}
	l := len(lp.lab)
	lp.feat = slices.Grow(lp.feat[:0], u*l)[:u*l]
	for a, i := range lp.unl {
		copy(lp.feat[a*l:(a+1)*l], lp.kall.RawRowView(i)[:l])
	}
	return mat.NewDense(u, l, lp.feat)
}

// topEntropy returns the rows of the k largest entropies, largest first,
// ties to the lower row (as active.Entropy), without allocating.
func (lp *loop) topEntropy(k int) []int {
	c := lp.pr.classes
	sel, sc := lp.sel[:0], lp.scores[:0]
	for a := range lp.unl {
		// The rows of probs are normalised probabilities, so the score
		// cannot fail.
		h, _ := active.EntropyScore(lp.probs[a*c : (a+1)*c])
		if len(sel) == k && !(h > sc[k-1]) {
			continue
		}
		if len(sel) < k {
			sel, sc = append(sel, 0), append(sc, 0)
		}
		// Insert keeping sc descending; equal scores keep earlier rows first.
		j := len(sel) - 1
		for j > 0 && h > sc[j-1] {
			sel[j], sc[j] = sel[j-1], sc[j-1]
			j--
		}
		sel[j], sc[j] = a, h
	}
	lp.sel, lp.scores = sel, sc
	return sel
}

// add moves the queried points q with labels y to the labeled set.
func (lp *loop) add(ctx context.Context, q, y []int) error {
	lp.lab = append(lp.lab, q...)
	lp.ys = append(lp.ys, y...)
	for _, i := range q {
		lp.inL[i] = true
	}
	k := 0
	for _, i := range lp.unl {
		if !lp.inL[i] {
			lp.unl[k] = i
			k++
		}
	}
	lp.unl = lp.unl[:k]
	if lp.pr.basis == nil {
		return lp.appendColumns(ctx, q)
	}
	return nil
}

// model returns a Model of the last completed fit (nil before the first).
func (lp *loop) model() *Model {
	if !lp.fitted {
		return nil
	}
	// The last completed fit (see loop.done), not the state a failed one
	// may have left.
	done := &lp.done
	m := lp.pr.newModel(lp.lab[:done.l], lp.ys[:done.l])
	m.times = lp.times
	if lp.pr.basis != nil {
		m.mu = append([]float64(nil), done.mu...)
		m.setFeatures()
	} else {
		m.kxl = mat.DenseCopyOf(lp.kall.Slice(0, lp.pr.n, 0, done.l))
	}
	mm := &klr.Multi{Classes: done.mm.Classes, Models: make([]klr.Model, len(done.mm.Models))}
	for k, b := range done.mm.Models {
		b.Coef = append([]float64(nil), b.Coef...)
		mm.Models[k] = b
	}
	m.klr = mm
	m.lambda, m.lambdaSource, m.cv = lp.lambda, lp.lambdaSource, lp.cv
	m.alignment = m.computeAlignment()
	return m
}
