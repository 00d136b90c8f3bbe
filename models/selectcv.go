package models

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ukm/models/klr"
	"ukm/models/spectral"
	"ukm/models/svm"
)

// cvData is the labeled set and its folds, shared by every candidate.
type cvData struct {
	labeled, labels []int
	classes         int
	fold            []int // fold of each labeled position
	k               int
}

// split is one fold: the training and held-out positions in the labeled
// set, the training labels renumbered to the classes present (kept) and
// their number.
type split struct {
	train, test []int // positions in labeled
	trainIdx    []int // data rows of train
	testIdx     []int // data rows of test
	y           []int // compact training labels
	kept        []int // compact class -> original class
}

// splits returns the k folds' splits.
func (cv *cvData) splits() []split {
	out := make([]split, cv.k)
	for f := range out {
		out[f] = cv.split(f)
	}
	return out
}

func (cv *cvData) split(f int) split {
	var s split
	present := make([]int, cv.classes)
	for i := range present {
		present[i] = -1
	}
	for pos, g := range cv.fold {
		if g == f {
			s.test = append(s.test, pos)
			s.testIdx = append(s.testIdx, cv.labeled[pos])
			continue
		}
		s.train = append(s.train, pos)
		s.trainIdx = append(s.trainIdx, cv.labeled[pos])
		c := cv.labels[pos]
		if present[c] < 0 {
			present[c] = len(s.kept)
			s.kept = append(s.kept, c)
		}
		s.y = append(s.y, c)
	}
	// Renumber in class order so that the one-vs-all models are laid out as
	// in a fit on all classes.
	sort.Ints(s.kept)
	for i, c := range s.kept {
		present[c] = i
	}
	for i, c := range s.y {
		s.y[i] = present[c]
	}
	return s
}

// selectTol is the KLR gradient tolerance of the cross-validation fits:
// their predictions and true-class probabilities are settled long before
// the 1e-8 of a final fit.
const selectTol = 1e-6

// variant is one candidate of a design group: its position in the scores
// and its classifier settings.
type variant struct {
	i      int
	lambda float64
	bias   bool
}

// scoreGroup cross-validates the candidates members, which share the basis
// (or kernel) of pr, writing Accuracy, StdErr, Complexity or Skipped into
// scores. Candidates that differ only in lambda and intercept share each
// fold's design; the groups run in parallel.
func (cv *cvData) scoreGroup(ctx context.Context, pr *prep, res []resolved, members []int, scores []CandidateScore) error {
	byDesign := map[string][]variant{}
	var order []string
	for _, i := range members {
		r := res[i]
		key := designKey(&r.Options)
		if _, seen := byDesign[key]; !seen {
			order = append(order, key)
		}
		byDesign[key] = append(byDesign[key], variant{i: i, lambda: r.Lambda, bias: r.Bias})
	}
	var kll *mat.Dense
	if pr.basis == nil && pr.opt.Classifier != Spread {
		// Only the l x l labeled block: the folds never look further.
		var err error
		if kll, err = pr.crossNew(ctx, gatherRows(nil, pr.xs, cv.labeled), cv.labeled); err != nil {
			return err
		}
		symmetrise(kll)
	}
	splits := cv.splits()
	jobs := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(order)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ft klr.Fitter
			for key := range jobs {
				vs := byDesign[key]
				r := res[vs[0].i]
				right, prob, err := cv.scoreDesign(ctx, pr, &r, kll, splits, vs, &ft)
				for a, v := range vs {
					sc := &scores[v.i]
					if err != nil {
						sc.Skipped = err
						continue
					}
					sc.right = right[a]
					h := 0
					var ps float64
					for i, ok := range right[a] {
						if ok {
							h++
						}
						ps += prob[a][i]
					}
					l := float64(len(cv.labels))
					sc.Accuracy = float64(h) / l
					sc.Probability = ps / l
					sc.StdErr = math.Sqrt(sc.Accuracy * (1 - sc.Accuracy) / l)
					sc.Complexity = complexity(pr, &r, len(cv.labels))
				}
			}
		}()
	}
	for _, key := range order {
		if ctx.Err() != nil {
			break
		}
		jobs <- key
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("models: %w", err)
	}
	return nil
}

// complexity is CandidateScore.Complexity.
func complexity(pr *prep, r *resolved, l int) int {
	switch {
	case r.Classifier == Spread:
		return 1
	case pr.basis != nil:
		_, d := pr.basis.V.Dims()
		return min(r.d, d)
	case r.Kernel.Kind == Linear:
		return pr.xs.RawMatrix().Cols
	}
	return l
}

// scoreDesign returns, for each variant, which labeled points (by
// position) it predicts right when they are held out, and the probability
// it gives their true class (for the SVM, 1 when right and 0 otherwise).
func (cv *cvData) scoreDesign(ctx context.Context, pr *prep, r *resolved, kll *mat.Dense, splits []split, vs []variant, ft *klr.Fitter) ([][]bool, [][]float64, error) {
	// Walk lambda from large to small within each intercept setting, so
	// that every fit starts from the previous (smoother) solution.
	ord := make([]int, len(vs))
	for a := range ord {
		ord[a] = a
	}
	sort.SliceStable(ord, func(a, b int) bool {
		va, vb := vs[ord[a]], vs[ord[b]]
		if va.bias != vb.bias {
			return !va.bias
		}
		return va.lambda > vb.lambda
	})
	right := make([][]bool, len(vs))
	prob := make([][]float64, len(vs))
	for a := range right {
		right[a] = make([]bool, len(cv.labels))
		prob[a] = make([]float64, len(cv.labels))
	}
	var proba *mat.Dense
	var sub *spectral.Basis
	if pr.basis != nil {
		sub = truncate(pr.basis, r.d)
	}
	var mm klr.Multi
	pred := make([]int, 0, len(cv.labels))
	if r.Classifier == Spread {
		if err := cv.scoreSpread(ctx, pr, r, splits, vs, right, prob); err != nil {
			return nil, nil, err
		}
		return right, prob, nil
	}
	for _, s := range splits {
		if !cv.needsFit(s, len(vs), right, prob) {
			continue
		}
		train, test, floor, err := cv.inputs(ctx, pr, r, kll, sub, s)
		if err != nil {
			return nil, nil, err
		}
		if r.Classifier == SVM {
			p, err := svmPredict(ctx, train, test, s, r)
			if err != nil {
				return nil, nil, err
			}
			for a := range vs {
				cv.hits(right[a], p, s)
				for _, pos := range s.test {
					if right[a][pos] {
						prob[a][pos] = 1
					}
				}
			}
			continue
		}
		kernel := sub == nil
		warm := false
		// As PredictRows: held-out points no training point reaches get
		// the training labels' prior (KLR without an intercept).
		unreached := unreachedAt(reachedPoints(pr.comp, s.trainIdx), s.testIdx)
		for b, a := range ord {
			if b > 0 && vs[a].bias != vs[ord[b-1]].bias {
				warm = false
			}
			ft.Settings = klr.Settings{Lambda: vs[a].lambda, Bias: vs[a].bias, Tol: selectTol}
			if kernel {
				err = ft.FitMultiKernel(ctx, &mm, train, s.y, len(s.kept), warm)
			} else {
				err = ft.FitMultiFeatures(ctx, &mm, train, s.y, len(s.kept), warm)
			}
			if err != nil {
				return nil, nil, fmt.Errorf("models: KLR: %w", err)
			}
			warm = true
			if pred, err = mm.PredictPrior(pred[:0], test, s.y, floor); err != nil {
				return nil, nil, fmt.Errorf("models: KLR: %w", err)
			}
			if proba, err = mm.PredictProbaNormalized(reuseProba(proba, len(s.test), len(s.kept)), test); err != nil {
				return nil, nil, fmt.Errorf("models: KLR: %w", err)
			}
			if !vs[a].bias {
				priorRows(pred, proba, unreached, s.y, len(s.kept))
			}
			cv.hits(right[a], pred, s)
			cv.trueProb(prob[a], proba, s)
		}
	}
	return right, prob, nil
}

// inputs returns the classifier's training and held-out inputs of one
// split: kernel blocks for Standard, feature maps Phi = V diag(sqrt(mu))
// with mu designed on the training part otherwise; and the floor of the
// KLR tie test (see Model.featureFloor).
func (cv *cvData) inputs(ctx context.Context, pr *prep, r *resolved, kll *mat.Dense, sub *spectral.Basis, s split) (train, test *mat.Dense, floor float64, err error) {
	if sub == nil {
		train = mat.NewDense(len(s.train), len(s.train), nil)
		test = mat.NewDense(len(s.test), len(s.train), nil)
		for a, i := range s.train {
			for b, j := range s.train {
				train.Set(a, b, kll.At(i, j))
			}
		}
		for a, i := range s.test {
			for b, j := range s.train {
				test.Set(a, b, kll.At(i, j))
			}
		}
		return train, test, 0, nil
	}
	target, err := spectral.Target(s.y, len(s.kept))
	if err != nil {
		return nil, nil, 0, fmt.Errorf("models: %w", err)
	}
	mu, err := designFor(r).Coefficients(ctx, nil, sub, s.trainIdx, target)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("models: %v design: %w", r.Design, err)
	}
	w := sqrtMu(nil, mu)
	train = gatherRows(nil, sub.V, s.trainIdx)
	test = gatherRows(nil, sub.V, s.testIdx)
	scaleColumns(train, train, w)
	scaleColumns(test, test, w)
	if r.Classifier == SVM {
		var kt, kx mat.Dense
		kt.Mul(train, train.T())
		symmetrise(&kt)
		kx.Mul(test, train.T())
		return &kt, &kx, 0, nil
	}
	return train, test, muFloor(mu), nil
}

// svmPredict trains the SVM on a training kernel block and predicts the
// held-out rows.
func svmPredict(ctx context.Context, train, test *mat.Dense, s split, r *resolved) ([]int, error) {
	mm, err := svm.TrainMulti(ctx, train, s.y, len(s.kept), &svm.Settings{C: r.C})
	if err != nil {
		return nil, fmt.Errorf("models: SVM: %w", err)
	}
	p, err := mm.Predict(nil, test)
	if err != nil {
		return nil, fmt.Errorf("models: SVM: %w", err)
	}
	return p, nil
}

// needsFit reports whether split s has held-out points and at least two
// classes to train on; a split with a single class is scored here (see
// oneClass).
func (cv *cvData) needsFit(s split, variants int, right [][]bool, prob [][]float64) bool {
	if len(s.test) > 0 && len(s.kept) < 2 {
		cv.oneClass(s, variants, right, prob)
	}
	return s.fits()
}

// fits reports whether s has held-out points and at least two classes to
// train on.
func (s split) fits() bool { return len(s.test) > 0 && len(s.kept) >= 2 }

// oneClass scores a split whose training part holds one class: every
// variant predicts it, with certainty.
func (cv *cvData) oneClass(s split, variants int, right [][]bool, prob [][]float64) {
	for a := 0; a < variants; a++ {
		for _, pos := range s.test {
			right[a][pos] = cv.labels[pos] == s.kept[0]
			if right[a][pos] {
				prob[a][pos] = 1
			}
		}
	}
}

// scoreSpread scores the Spread variants (they differ in nothing the
// spreading uses) on every split: the scores of the held-out rows when only
// the training part's labels are spread.
//
// The scores are linear in the labels, so a split's scores are the sums,
// class by class, of the scores of its training points' indicators. When
// the splits would spread at least as many columns (one per class present
// in each) as there are labeled points — leave-one-out: about l x classes
// against l; k folds: up to k x classes against l, so ten folds of a
// binary problem at l = 20 — each labeled point's indicator is spread
// once, all columns in one pass over the graph per step, and the splits
// sum those columns (0.56 to 0.72 of the time at equal counts,
// BENCHMARKS.md). Every term of the series is non-negative, so a sum is at
// least as accurate as its parts.
func (cv *cvData) scoreSpread(ctx context.Context, pr *prep, r *resolved, splits []split, vs []variant, right [][]bool, prob [][]float64) error {
	cols := 0
	for _, s := range splits {
		if s.fits() {
			cols += len(s.kept)
		}
	}
	var each *mat.Dense
	if len(cv.labeled) <= cols {
		var err error
		if each, err = cv.spreadEach(ctx, pr, r); err != nil {
			return err
		}
	}
	return cv.scoreSpreadSplits(ctx, pr, r, splits, each, vs, right, prob)
}

// spreadEach returns the n x l scores of every labeled point's indicator
// spread alone (column a: labeled point a).
func (cv *cvData) spreadEach(ctx context.Context, pr *prep, r *resolved) (*mat.Dense, error) {
	l := len(cv.labeled)
	own := make([]int, l)
	for a := range own {
		own[a] = a
	}
	return spreadScores(ctx, pr.graph.s, pr.graph.copies, r.spreadAlpha(), cv.labeled, own, l)
}

// scoreSpreadSplits is scoreSpread given each (spreadEach's columns, or nil
// to spread every split's labels).
func (cv *cvData) scoreSpreadSplits(ctx context.Context, pr *prep, r *resolved, splits []split, each *mat.Dense, vs []variant, right [][]bool, prob [][]float64) error {
	var f *mat.Dense
	for _, s := range splits {
		if !cv.needsFit(s, len(vs), right, prob) {
			continue
		}
		var err error
		if each != nil {
			f = sumByClass(f, each, s)
		} else if f, err = spreadScores(ctx, pr.graph.s, pr.graph.copies, r.spreadAlpha(), s.trainIdx, s.y, len(s.kept)); err != nil {
			return err
		}
		massNormalize(f, s.y, len(s.kept))
		priorUnreached(f, s.y, len(s.kept))
		ft := gatherRows(nil, f, s.testIdx)
		pred := argmaxRows(nil, ft)
		pp := spreadProba(nil, ft)
		for a := range vs {
			cv.hits(right[a], pred, s)
			cv.trueProb(prob[a], pp, s)
		}
	}
	return nil
}

// sumByClass returns the scores of split s from the columns of each (one
// per labeled point): column s.y[t] of row i is the sum of each's entries
// (i, s.train[t]) over the training points t of that class, in the order
// of s.train. dst is reused when it has the right shape.
func sumByClass(dst, each *mat.Dense, s split) *mat.Dense {
	n, _ := each.Dims()
	c := len(s.kept)
	if dst == nil {
		dst = mat.NewDense(n, c, nil)
	} else if r, cc := dst.Dims(); r != n || cc != c {
		dst = mat.NewDense(n, c, nil)
	} else {
		dst.Zero()
	}
	for i := 0; i < n; i++ {
		src, row := each.RawRowView(i), dst.RawRowView(i)
		for t, pos := range s.train {
			row[s.y[t]] += src[pos]
		}
	}
	return dst
}

// reuseProba returns p when it is r x c, else nil (a new matrix).
func reuseProba(p *mat.Dense, r, c int) *mat.Dense {
	if p != nil {
		if pr, pc := p.Dims(); pr == r && pc == c {
			return p
		}
	}
	return nil
}

// trueProb records the probability each held-out point of s gets for its
// true class (0 when that class is absent from the training part).
func (cv *cvData) trueProb(dst []float64, proba *mat.Dense, s split) {
	for a, pos := range s.test {
		dst[pos] = 0
		for c, k := range s.kept {
			if k == cv.labels[pos] {
				dst[pos] = proba.At(a, c)
			}
		}
	}
}

// hits marks in right the held-out points of s whose compact prediction
// is right.
func (cv *cvData) hits(right []bool, pred []int, s split) {
	for a, pos := range s.test {
		right[pos] = s.kept[pred[a]] == cv.labels[pos]
	}
}
