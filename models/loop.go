package models

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/active"
	"ukm/models/klr"
	"ukm/models/spectral"
)

// LoopOptions configures an active-learning loop (KDD'06 Fig. 6). The zero
// value means: the Options defaults, the kernel learned once from the
// initial labels and kept, entropy selection, one query per round and a
// budget of zero (a single fit).
type LoopOptions struct {
	Options
	// LearnKernel re-learns the spectral coefficients every round from the
	// grown labeled set (UKLR). When false the kernel is fixed: the initial
	// kernel for Design Standard (KLR+Active, KLR+Rand), otherwise the
	// design is applied once to the initial labels.
	LearnKernel bool
	// Selector picks the points to query from the class probabilities of
	// the unlabeled points. Nil means active.Entropy{} (KDD'06 eq. 19). An
	// active.Random selector gets the round index as its Round. An
	// active.FeatureSelector (active.Fisher, batch-mode active learning by
	// Fisher information; active.KCenter) also receives the unlabeled
	// points' feature vectors through SelectFeatures: their rows of the
	// learned feature map Phi = V diag(sqrt(mu)) of the round for the
	// spectral designs, their initial-kernel values K0(x, X_L) against the
	// labeled points for Design Standard — the space where the round's KLR
	// is linear (its intercept, with Options.Bias, is left out).
	Selector active.Selector
	// Batch is the number of points queried per round; zero means 1
	// (KDD'06 Table 3 uses 10).
	Batch int
	// Budget is the total number of queries.
	Budget int
	// EntropyStop, if positive, stops the loop once the largest entropy of
	// the predicted class distribution over the unlabeled points is below it.
	EntropyStop float64
	// StopUnchanged stops the loop when a round leaves every prediction on
	// the (remaining) unlabeled points as it was in the previous round.
	StopUnchanged bool
	// Truth, if not nil, holds the true class of all n points; each Round
	// then reports the accuracy on the points still unlabeled.
	Truth []int
	// Progress, if not nil, is called after every round.
	Progress func(Round)
	// Cache, if not nil, keeps the initial kernel's basis between loops on
	// the same x, for example the loops of several selectors from one
	// labeled set: the basis does not depend on the labels (see
	// BasisCache). Round 0 of a loop that reuses it reports zero kernel and
	// eigen times.
	Cache *BasisCache
	// Holdout, if not empty, lists points that are never queried: a test
	// set inside x, whose points still enter the kernel as unlabeled data.
	// Every round then reports their predicted classes (Round.Holdout),
	// and with Truth its Accuracy is measured on them instead of on the
	// points still unlabeled, so that selectors compared from one labeled
	// set are measured on the same points. They must be distinct and not
	// labeled, and leave at least one point to query.
	Holdout []int
}

// Round reports one round of an active-learning loop: the fit on Labeled
// points, then the queries.
type Round struct {
	// Index counts rounds from 0 (the fit on the initial labels).
	Index int
	// Labeled is the number of labeled points the round was fitted on.
	Labeled int
	// Alignment of the learned kernel's labeled block with the target.
	Alignment float64
	// MaxEntropy is the largest entropy (natural log) of the predicted class
	// distribution over the unlabeled points (0 if none remain).
	MaxEntropy float64
	// Accuracy on the unlabeled points (on LoopOptions.Holdout, when set),
	// NaN without LoopOptions.Truth.
	Accuracy float64
	// Holdout holds the predicted classes of the LoopOptions.Holdout
	// points, in their order (nil without a holdout).
	Holdout []int
	// Queried holds the points queried at the end of the round (empty in
	// the last round).
	Queried []int
	// Times of the round's stages (Kernel and Eig only in round 0).
	Times StageTimes
}

// UKLR returns loop options for Unified Kernel Logistic Regression (KDD'06
// Fig. 6): the spectral kernel (opt.Design, SKL by default) is re-learned
// every round and the points of maximal entropy are queried, batch per
// round, budget in total. Setting the Selector of the result to
// active.Fisher{} makes it the unified loop of Hoi's thesis: the kernel is
// learned every round and each batch is chosen by Fisher information on
// that round's learned feature map.
func UKLR(opt Options, budget, batch int) *LoopOptions {
	return &LoopOptions{Options: opt, LearnKernel: true, Selector: active.Entropy{}, Budget: budget, Batch: batch}
}

// KLRActive returns loop options for the KLR+Active baseline of KDD'06
// section 6.3: KLR on the initial kernel (Design Standard), querying the
// points of maximal entropy. The spectral design's knobs of opt (Decay, D,
// EnergyFraction, Alpha, Sigma2, Eps, Custom) are dropped, so that one
// Options serves UKLR and its baselines.
func KLRActive(opt Options, budget, batch int) *LoopOptions {
	opt = standard(opt)
	return &LoopOptions{Options: opt, Selector: active.Entropy{}, Budget: budget, Batch: batch}
}

// KLRRand returns loop options for the KLR+Rand baseline of KDD'06 section
// 6.3: KLR on the initial kernel, querying random points (seeded by
// opt.Seed).
// Like KLRActive it drops the spectral design's knobs.
func KLRRand(opt Options, budget, batch int) *LoopOptions {
	opt = standard(opt)
	return &LoopOptions{Options: opt, Selector: active.Random{Seed: opt.Seed}, Budget: budget, Batch: batch}
}

// standard returns opt with the Standard design and no spectral knobs.
func standard(opt Options) Options {
	opt.Design = Standard
	opt.D, opt.EnergyFraction = 0, 0
	return opt.Trim()
}

// loop is the state of an active-learning run. Its buffers are sized once
// for the final labeled set so that rounds after the first do not allocate
// in proportion to n.
type loop struct {
	pr     *prep
	opt    *LoopOptions
	design spectral.Design
	ft     klr.Fitter
	mm     klr.Multi

	lab, ys []int  // labeled set, grows
	inL     []bool // n
	unl     []int  // unlabeled indices, ascending

	mu, smu []float64
	phiL    mat.Dense // l x d features of the labeled rows
	vl      []float64 // backing of phiL
	tbuf    []float64 // backing of the target factor
	tmat    mat.Dense // the target factor, a view of tbuf
	aw      alignWork
	kall    *mat.Dense
	kll     []float64

	dec, w   []float64 // decision values n x models, weight scratch
	feat     []float64 // features of the unlabeled points (FeatureSelector)
	probs    []float64 // |U| x c
	pred     []int     // n
	prevPred []int     // n
	sel      []int
	scores   []float64

	lambda       float64
	lambdaSource LambdaSource
	cv           *klr.CVResult
	alignment    float64
	fitted       bool
	times        StageTimes

	// done is the last completed fit, which model returns: a later fit
	// that fails may leave mu, the classifier and the labeled set changed.
	done struct {
		l  int       // labeled points it was fitted on
		mu []float64 // its coefficients (basis designs)
		mm klr.Multi // its classifier
	}
}

func (lo *LoopOptions) check(n int) error {
	if lo.Options.Classifier == Spread || lo.Options.Design == Auto {
		return inputf(linalg.ErrSettings, "the active-learning loop needs a trained classifier on a fixed design (not the Spread classifier or the Auto design)")
	}
	switch {
	case lo.Batch < 0:
		return inputf(linalg.ErrSettings, "batch size %d is negative", lo.Batch)
	case lo.Budget < 0:
		return inputf(linalg.ErrSettings, "budget %d is negative", lo.Budget)
	case math.IsNaN(lo.EntropyStop) || lo.EntropyStop < 0:
		return inputf(linalg.ErrSettings, "entropy threshold %v must be non-negative", lo.EntropyStop)
	case lo.Classifier != KLR:
		return inputf(linalg.ErrSettings, "active learning needs class probabilities: use the KLR classifier")
	case lo.Truth != nil && len(lo.Truth) != n:
		return inputf(linalg.ErrShape, "truth has %d labels for %d points", len(lo.Truth), n)
	}
	return nil
}

// checkHoldout checks LoopOptions.Holdout against the n points and the
// labeled ones.
func checkHoldout(holdout, labeled []int, n int) error {
	if len(holdout) == 0 {
		return nil
	}
	seen := make([]bool, n)
	for _, i := range labeled {
		seen[i] = true
	}
	for _, i := range holdout {
		switch {
		case i < 0 || i >= n:
			return inputf(linalg.ErrShape, "held-out point %d outside the %d points", i, n)
		case seen[i]:
			return inputf(linalg.ErrSettings, "held-out point %d is labeled or listed twice", i)
		}
		seen[i] = true
	}
	if len(labeled)+len(holdout) == n {
		return inputf(ErrNoCandidates, "no unlabeled candidates: the %d labeled and %d held-out points leave none to query", len(labeled), len(holdout))
	}
	return nil
}

// Loop runs pool-based active learning (KDD'06 Fig. 6) from the labeled
// points of x, asking oracle for the labels of the points it selects, and
// returns the final model with one Round per fit.
//
// The initial kernel and its eigenpairs are computed once (the points do
// not change, only their labels), or taken from LoopOptions.Cache. Each
// round then: re-learns the spectral coefficients when LearnKernel is set
// (the SKL QP warm-started from the previous round), re-fits KLR
// warm-started from the previous round (lambda is chosen once, in round 0,
// by cross-validation when Options.Lambda is zero), computes the class
// probabilities of the unlabeled points, tests convergence (budget spent,
// entropy below EntropyStop, predictions unchanged, no candidates left)
// and otherwise queries a batch.
//
// There must be at least one unlabeled point (ErrNoCandidates otherwise).
// Labels returned by the oracle must be classes of the initial labeled set.
// On error the rounds completed so far are returned, with the model of the
// last completed fit when there is one.
func Loop(ctx context.Context, x *mat.Dense, labeled []int, labels []int, oracle active.Oracle, opt *LoopOptions) (*Model, []Round, error) {
	if opt == nil {
		opt = &LoopOptions{}
	}
	o := *opt
	if o.Batch == 0 {
		o.Batch = 1
	}
	if o.Selector == nil {
		o.Selector = active.Entropy{}
	}
	n, _, err := checkData(x, labeled, labels)
	if err != nil {
		return nil, nil, err
	}
	if err := o.check(n); err != nil {
		return nil, nil, err
	}
	if len(labeled) == n {
		return nil, nil, inputf(ErrNoCandidates, "no unlabeled candidates: all %d points are labeled", n)
	}
	if err := checkHoldout(o.Holdout, labeled, n); err != nil {
		return nil, nil, err
	}
	if oracle == nil && o.Budget > 0 {
		return nil, nil, inputf(linalg.ErrSettings, "nil oracle with a budget of %d queries", o.Budget)
	}
	pr, err := cachedPrepare(ctx, o.Cache, x, labeled, labels, &o.Options)
	if err != nil {
		return nil, nil, err
	}
	if o.Truth != nil {
		for i, y := range o.Truth {
			if y < 0 || y >= pr.classes {
				return nil, nil, inputf(linalg.ErrLabels, "truth label %d of point %d outside the %d classes", y, i, pr.classes)
			}
		}
	}
	lp := newLoop(pr, &o, labeled, labels)
	if pr.basis == nil {
		if err := lp.appendColumns(ctx, labeled); err != nil {
			return nil, nil, err
		}
	}
	var rounds []Round
	spent := 0
	for r := 0; ; r++ {
		if err := ctx.Err(); err != nil {
			return lp.model(), rounds, fmt.Errorf("models: loop cancelled in round %d: %w", r, err)
		}
		rd := Round{Index: r, Labeled: len(lp.lab)}
		if r == 0 {
			rd.Times = pr.times
		}
		if err := lp.fit(ctx, r, &rd.Times); err != nil {
			return lp.model(), rounds, err
		}
		lp.times = pr.times
		lp.times.Design, lp.times.Fit = rd.Times.Design, rd.Times.Fit
		t0 := time.Now()
		rd.Alignment = lp.alignment
		rd.MaxEntropy, rd.Accuracy = lp.evaluate()
		if len(o.Holdout) > 0 {
			rd.Holdout, rd.Accuracy = lp.holdout()
		}
		unchanged := r > 0 && lp.unchanged()
		stop := spent >= o.Budget || len(lp.unl) == 0 ||
			(o.EntropyStop > 0 && rd.MaxEntropy < o.EntropyStop) ||
			(o.StopUnchanged && unchanged)
		// A failure after the fit still reports the fitted round (without
		// queries), so the caller loses nothing that was computed.
		fail := func(err error) (*Model, []Round, error) {
			rd.Times.Select = time.Since(t0)
			return lp.model(), append(rounds, rd), err
		}
		if !stop {
			k := min(o.Batch, o.Budget-spent, len(lp.unl))
			q, err := lp.choose(r, k)
			if err != nil {
				return fail(err)
			}
			rd.Times.Select = time.Since(t0)
			got, err := oracle.Label(ctx, q)
			if err != nil {
				return fail(fmt.Errorf("models: oracle: %w", err))
			}
			if len(got) != len(q) {
				return fail(inputf(linalg.ErrShape, "oracle returned %d labels for %d points", len(got), len(q)))
			}
			for a, y := range got {
				if y < 0 || y >= pr.classes {
					return fail(inputf(linalg.ErrLabels, "oracle label %d for point %d outside the %d classes", y, q[a], pr.classes))
				}
			}
			if err := lp.add(ctx, q, got); err != nil {
				return fail(err)
			}
			spent += len(q)
			rd.Queried = q
		} else {
			rd.Times.Select = time.Since(t0)
		}
		rounds = append(rounds, rd)
		if o.Progress != nil {
			o.Progress(rd)
		}
		if stop {
			break
		}
	}
	return lp.model(), rounds, nil
}

func newLoop(pr *prep, o *LoopOptions, labeled, labels []int) *loop {
	n := pr.n
	lmax := len(labeled) + min(o.Budget, n-len(labeled))
	nm := pr.classes
	if nm == 2 {
		nm = 1
	}
	lp := &loop{pr: pr, opt: o,
		lab:      append(make([]int, 0, lmax), labeled...),
		ys:       append(make([]int, 0, lmax), labels...),
		inL:      make([]bool, n),
		unl:      make([]int, 0, n),
		dec:      make([]float64, n*nm),
		probs:    make([]float64, n*pr.classes),
		pred:     make([]int, n),
		prevPred: make([]int, n),
		scores:   make([]float64, 0, o.Batch),
		sel:      make([]int, 0, o.Batch),
		tbuf:     make([]float64, lmax*pr.classes),
	}
	for _, i := range labeled {
		lp.inL[i] = true
	}
	held := make([]bool, n)
	for _, i := range o.Holdout {
		held[i] = true
	}
	for i := 0; i < n; i++ {
		if !lp.inL[i] && !held[i] {
			lp.unl = append(lp.unl, i)
		}
	}
	if pr.basis != nil {
		lp.design = pr.newDesign()
		_, d := pr.basis.V.Dims()
		lp.vl = make([]float64, lmax*d)
		lp.w = make([]float64, d)
	} else {
		lp.kall = mat.NewDense(n, lmax, nil)
		lp.kll = make([]float64, lmax*lmax)
		lp.w = make([]float64, lmax)
	}
	return lp
}

// appendColumns stores K0(X, x_j) for the new labeled points idx (Standard
// design), in the columns after the current labeled ones.
func (lp *loop) appendColumns(ctx context.Context, idx []int) error {
	k, err := lp.pr.crossTrain(ctx, nil, idx)
	if err != nil {
		return err
	}
	off := len(lp.lab) - len(idx)
	for i := 0; i < lp.pr.n; i++ {
		copy(lp.kall.RawRowView(i)[off:off+len(idx)], k.RawRowView(i))
	}
	return nil
}

// target fills the target factor of the current labels (as spectral.Target)
// into a reused buffer.
func (lp *loop) target() *mat.Dense {
	c := lp.pr.classes
	l := len(lp.ys)
	t := &lp.tmat
	if c == 2 {
		t.SetRawMatrix(blasGeneral(l, 1, lp.tbuf))
		for i, y := range lp.ys {
			lp.tbuf[i] = float64(2*y - 1)
		}
		return t
	}
	cf := float64(c)
	s := math.Sqrt(cf / (cf - 1))
	t.SetRawMatrix(blasGeneral(l, c, lp.tbuf))
	for i, y := range lp.ys {
		row := t.RawRowView(i)
		for j := range row {
			v := -1 / cf
			if j == y {
				v++
			}
			row[j] = s * v
		}
	}
	return t
}

// fit learns the coefficients (when due) and the classifier of round r.
func (lp *loop) fit(ctx context.Context, r int, times *StageTimes) error {
	pr := lp.pr
	l := len(lp.lab)
	var x mat.Matrix
	kernel := pr.basis == nil
	target := lp.target()
	if !kernel {
		t0 := time.Now()
		if r == 0 || lp.opt.LearnKernel {
			var err error
			lp.mu, err = lp.design.Coefficients(ctx, lp.mu, pr.basis, lp.lab, target)
			if err != nil {
				return fmt.Errorf("models: round %d: %v design: %w", r, pr.opt.Design, err)
			}
			lp.smu = sqrtMu(lp.smu, lp.mu)
		}
		times.Design = time.Since(t0)
		_, d := pr.basis.V.Dims()
		lp.phiL.SetRawMatrix(blasGeneral(l, d, lp.vl))
		for a, i := range lp.lab {
			row := lp.phiL.RawRowView(a)
			for j, v := range pr.basis.V.RawRowView(i)[:d] {
				row[j] = v * lp.smu[j]
			}
		}
		x = &lp.phiL
		lp.alignment = lp.aw.features(&lp.phiL, target)
	} else {
		k := mat.NewDense(l, l, lp.kll[:l*l])
		for a, i := range lp.lab {
			copy(k.RawRowView(a), lp.kall.RawRowView(i)[:l])
		}
		symmetrise(k)
		x = k
		lp.alignment = alignKernel(k, target)
	}
	t0 := time.Now()
	defer func() { times.Fit = time.Since(t0) }()
	if r == 0 {
		var err error
		lp.lambda, lp.lambdaSource, lp.cv, err = chooseLambda(ctx, &pr.opt, x, kernel, lp.ys, pr.classes)
		if err != nil {
			return err
		}
		lp.ft.Settings = klr.Settings{Lambda: lp.lambda, Bias: pr.opt.Bias}
	}
	var err error
	if kernel {
		err = lp.ft.FitMultiKernel(ctx, &lp.mm, x, lp.ys, pr.classes, r > 0)
	} else {
		err = lp.ft.FitMultiFeatures(ctx, &lp.mm, x, lp.ys, pr.classes, r > 0)
	}
	if err != nil {
		return fmt.Errorf("models: round %d: KLR: %w", r, err)
	}
	lp.fitted = true
	lp.keep()
	return nil
}

// keep records the fit just completed as the one model returns, reusing
// the record's storage.
func (lp *loop) keep() {
	d := &lp.done
	d.l = len(lp.lab)
	d.mu = append(d.mu[:0], lp.mu...)
	d.mm.Classes = lp.mm.Classes
	if cap(d.mm.Models) < len(lp.mm.Models) {
		d.mm.Models = make([]klr.Model, len(lp.mm.Models))
	}
	d.mm.Models = d.mm.Models[:len(lp.mm.Models)]
	for k, b := range lp.mm.Models {
		coef := append(d.mm.Models[k].Coef[:0], b.Coef...)
		d.mm.Models[k] = b
		d.mm.Models[k].Coef = coef
	}
}
