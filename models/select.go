package models

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/spectral"
)

// Model selection on the labeled set.
//
// Select scores every candidate configuration by cross-validation on the
// labeled points only (the unlabeled points enter the bases, never the
// scores), then fits the chosen one on all labeled points. The eigenpairs
// are computed once per basis, at the largest d any candidate of that basis
// asks for, and shared by all its candidates and folds; what varies per
// fold is only the design (the SKL QP, microseconds) and the classifier.

// Fold rule of Select when SelectOptions.Folds is zero: leave-one-out up
// to LeaveOneOutMax labeled points, stratified SmallSelectFolds-fold
// cross-validation up to SmallSelectMax points, and stratified
// DefaultSelectFolds-fold above. Small sets need many folds, or the
// training parts lose too large a share of the labels; large sets give
// every fold enough held-out points, and fewer folds cost fewer fits.
const (
	LeaveOneOutMax     = 10
	SmallSelectFolds   = 10
	SmallSelectMax     = 50
	DefaultSelectFolds = 5
)

// Candidate is one configuration that Select scores.
type Candidate struct {
	// Name identifies the candidate in reports, for example
	// "kNN(k=10)/LabelSpreading/d=20/lambda=0.01".
	Name    string
	Options Options
}

// CandidateScore is the outcome of one candidate.
type CandidateScore struct {
	Candidate
	// Accuracy is the fraction of held-out labeled points classified
	// correctly, each labeled point held out once.
	Accuracy float64
	// StdErr is the binomial standard error sqrt(a (1 - a) / l) of
	// Accuracy.
	StdErr float64
	// Probability is the mean probability the candidate gives the true
	// class of a held-out point (KLR; for the SVM 1 when right, 0 when
	// wrong): the tie-break between equal accuracies, smoother than they.
	Probability float64
	// Complexity is the dimension of what the classifier is trained on:
	// d for a spectral design, the number of features for the Standard
	// linear kernel, and the number of labeled points for another Standard
	// kernel (a kernel machine on the labeled block).
	Complexity int
	// Skipped says why the candidate was not scored (nil if it was).
	Skipped error
	right   []bool // which labeled points (by position) were predicted right
}

// Selection reports a Select run.
type Selection struct {
	// Scores lists every candidate in the order given.
	Scores []CandidateScore
	// Chosen indexes the winner in Scores. When no fold could be formed
	// (Folds is 0 and Rule says why) it is the first candidate that fits,
	// unscored.
	Chosen int
	// Folds is the number of folds (the labeled count for leave-one-out;
	// 0 when no cross-validation was possible).
	Folds int
	// Rule says how the folds were formed, or why there were none.
	Rule string
	// Prior reports that RulePrior kept the default (the first scored
	// candidate) over a candidate with a higher cross-validated accuracy
	// that did not beat it by more than one paired standard error.
	Prior bool
	// Voters indexes in Scores the candidates that vote with the chosen
	// one (see VoteSoft), in the order of Model.Voters; nil when the model
	// is the chosen candidate alone.
	Voters []int
	// Elapsed is the wall time of the cross-validation.
	Elapsed time.Duration
}

// Best returns the chosen candidate's score (the zero value for a nil
// Selection).
func (s *Selection) Best() CandidateScore {
	if s == nil || s.Chosen < 0 || s.Chosen >= len(s.Scores) {
		return CandidateScore{}
	}
	return s.Scores[s.Chosen]
}

// SelectOptions configures Select. The zero value (or nil) scores
// DefaultCandidates of the zero Options.
type SelectOptions struct {
	// Base supplies what every default candidate shares: Scale, Seed,
	// Classifier, SVMC and EigTol, and for the candidates on a kNN graph
	// GraphDims and GraphFeatures. Its kernel, design, D, C, Lambda, Bias
	// and GraphK are set by the candidates. Base.Design must not be Auto.
	Base Options
	// Candidates, if not empty, replaces DefaultCandidates(&Base).
	Candidates []Candidate
	// Folds forces the number of folds (at least 2, at most the labeled
	// count; it is capped at the smallest class count for stratification);
	// zero applies the rule of LeaveOneOutMax.
	Folds int
	// Progress, if set, is called after each basis with the number of
	// candidates scored and the total.
	Progress func(done, total int)
	// Cache, if not nil, keeps the bases between calls on the same x (for
	// example one Select per labeled draw of an experiment).
	Cache *BasisCache
	// Rule says how the scores choose; the zero value RuleAuto is
	// RulePrior with the default candidates and RuleBest with a caller's
	// list.
	Rule SelectRule
	// Vote says whether the model is the chosen candidate alone or a
	// committee; the zero value VoteAuto is a committee (VoteSoft) with
	// the default candidates and the chosen candidate alone with a
	// caller's list.
	Vote VoteMode
}

// Select chooses a configuration by cross-validation on the labeled points
// and returns the model fitted with it on all of them; Model.Selection
// reports every candidate's score. x, labeled and labels are as for Fit.
//
// Folds: leave-one-out when there are at most LeaveOneOutMax labeled
// points, otherwise stratified folds, SmallSelectFolds of them up to
// SmallSelectMax points and DefaultSelectFolds above (the members of each
// class shuffled with Base.Seed and dealt round-robin; the members are
// taken in the order labeled lists them and the classes in their order, so
// the same labeled set listed in another order, or with its classes
// numbered otherwise, gets other folds, as with scikit-learn's
// StratifiedKFold, and may get another choice). A class absent from
// a training part cannot be predicted there: its held-out points count as
// errors for every candidate alike. With a single labeled point per class
// no fold can train on every class; Select then fits the first candidate
// that fits the data (Selection.Folds is 0 and Rule says why).
//
// Choice: the best cross-validated accuracy, ties broken by the higher
// mean probability of the true class, then by the earlier candidate. Then
// the one-standard-error rule along the winner's regularisation path:
// among the candidates of the same basis and design (they differ only in d
// and lambda) whose accuracy is not below the winner's by more than the
// standard error of the paired difference (the mean of
// right_best(i) - right_cand(i) over the labeled points against its
// sd/sqrt(l)), the one of least d wins, then the one of largest lambda.
// The rule is applied within a family, where "simpler" is unambiguous, and
// not across bases and designs, whose sizes are not comparable. That is
// RuleBest; under RulePrior (the default with the default candidates, see
// SelectRule) its choice must also beat the first scored candidate by more
// than the same paired standard error, or the first is kept
// (Selection.Prior says when that overruled a higher score).
//
// Committee: with the default candidates (VoteAuto) the model returned is
// a committee of the chosen candidate and up to CommitteeSize-1 best
// scored others with class probabilities that it does not beat by more
// than one paired standard error (see VoteSoft); its members share the
// bases computed for the scores, and Model.Voters and Selection.Voters
// list the others.
//
// A candidate that fails (a basis that cannot be built, an infeasible
// design, a d or k too large for n) is skipped with the reason recorded in
// its score; if every candidate fails the error of the first is returned.
// Cost: one eigen-decomposition per basis, then per fold and candidate one
// design and one classifier fit on the training part, then one fit on all
// labeled points per member of the committee. The bases share one scaled
// copy of the data per scaling.
func Select(ctx context.Context, x *mat.Dense, labeled, labels []int, so *SelectOptions) (*Model, error) {
	if ctx == nil {
		return nil, inputf(linalg.ErrSettings, "nil context")
	}
	n, classes, err := checkData(x, labeled, labels)
	if err != nil {
		return nil, err
	}
	var o SelectOptions
	if so != nil {
		o = *so
	}
	if o.Base.Design == Auto {
		return nil, inputf(linalg.ErrSettings, "SelectOptions.Base.Design is Auto; the candidates set the design")
	}
	if o.Folds < 0 || o.Folds == 1 || o.Folds > len(labeled) {
		return nil, inputf(linalg.ErrSettings, "folds = %d, want 0 (the rule) or 2..%d", o.Folds, len(labeled))
	}
	if o.Rule < RuleAuto || o.Rule > RulePrior {
		return nil, inputf(linalg.ErrSettings, "unknown selection rule %d", int(o.Rule))
	}
	if o.Vote < VoteAuto || o.Vote > VoteSoft {
		return nil, inputf(linalg.ErrSettings, "unknown vote mode %d", int(o.Vote))
	}
	cands := o.Candidates
	if len(cands) == 0 {
		// The default candidates set every design knob: a base that sets
		// one would be ignored.
		auto := resolved{Options: o.Base}
		auto.Design = Auto
		if err := auto.checkKnobs(); err != nil {
			return nil, err
		}
		// Settings that every kNN candidate would fail on are the
		// caller's error, not 58 skipped candidates.
		if h := o.Base.GraphFeatures; h != nil {
			if o.Base.Scale != NoScaling {
				return nil, inputf(linalg.ErrSettings, "GraphFeatures (HOG descriptors) need the images as given: set Scale to NoScaling")
			}
			if _, err := h.Resolve(x.RawMatrix().Cols); err != nil {
				return nil, fmt.Errorf("models: GraphFeatures: %w", err)
			}
		}
		cands = DefaultCandidates(&o.Base)
	}
	t0 := time.Now()
	sel := &Selection{Scores: make([]CandidateScore, len(cands)), Chosen: -1}
	res := make([]resolved, len(cands))
	for i, c := range cands {
		sel.Scores[i].Candidate = c
		if c.Options.Design == Auto {
			sel.Scores[i].Skipped = inputf(linalg.ErrSettings, "a candidate cannot be Auto")
			continue
		}
		res[i], sel.Scores[i].Skipped = c.Options.resolve(n)
		if sel.Scores[i].Skipped == nil {
			sel.Scores[i].Skipped = res[i].resolveImages(x.RawMatrix().Cols)
		}
	}
	fold, k, rule, ok := selectFolds(labels, classes, o.Folds, o.Base.Seed)
	sel.Folds, sel.Rule = k, rule
	if !ok {
		return fitFirst(ctx, x, labeled, labels, sel)
	}
	// Group the candidates by basis, in order of first appearance.
	groups := map[string][]int{}
	var keys []string
	for i := range cands {
		if sel.Scores[i].Skipped != nil {
			continue
		}
		key := basisKey(&res[i])
		if _, seen := groups[key]; !seen {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], i)
	}
	cv := &cvData{labeled: labeled, labels: labels, classes: classes, fold: fold, k: k}
	maxK := 0
	for i := range cands {
		if sel.Scores[i].Skipped == nil && res[i].Kernel.Kind == KNN {
			maxK = max(maxK, res[i].GraphK)
		}
	}
	sh := newShared(maxK)
	defer sh.release()
	preps, err := scoreGroups(ctx, &o, sh, cv, x, labeled, labels, res, groups, keys, sel.Scores, len(cands))
	if err != nil {
		return nil, err
	}
	sel.Elapsed = time.Since(t0)
	sel.Chosen = oneSE(sel.Scores)
	if o.Rule.prior(len(o.Candidates) == 0) {
		sel.Chosen, sel.Prior = priorRule(sel.Scores, sel.Chosen)
	}
	if sel.Chosen < 0 {
		return nil, firstSkip(sel)
	}
	fit := func(c int) (*Model, error) {
		return fitPrepared(ctx, preps[basisKey(&res[c])].withOptions(res[c], classes), labeled, labels)
	}
	m, err := fit(sel.Chosen)
	if m == nil {
		return nil, err
	}
	m.selection = sel
	if err != nil || !o.Vote.voting(len(o.Candidates) == 0) {
		return m, err
	}
	for _, c := range committee(sel.Scores, sel.Chosen) {
		v, err := fit(c)
		if err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			// A member that fails to fit on all labeled points (it fitted
			// on every fold) is left out.
			continue
		}
		m.voters = append(m.voters, v)
		sel.Voters = append(sel.Voters, c)
	}
	return m, nil
}

// groupDone is what a worker of scoreGroups reports for one basis.
type groupDone struct {
	key string
	pr  *prep
	err error // the basis could not be built: its candidates are skipped
	cv  error // the cross-validation failed (a cancelled context)
}

// scoreGroups builds the basis of every group of candidates (keys in
// order) and scores its members into scores, on min(GOMAXPROCS, groups)
// workers: a basis's eigenpairs are computed on one core at the sizes
// where selection is cheap, so two bases at once keep both cores busy. The
// scores do not depend on the order (each group writes its own members;
// the shared widths and neighbour lists are computed under a lock). It
// returns the prepared bases by key; Progress is called on the calling
// goroutine after each basis.
func scoreGroups(ctx context.Context, o *SelectOptions, sh *shared, cv *cvData, x *mat.Dense, labeled, labels []int,
	res []resolved, groups map[string][]int, keys []string, scores []CandidateScore, total int) (map[string]*prep, error) {
	next := make(chan string)
	results := make(chan groupDone)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(keys)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for key := range next {
				members := groups[key]
				pr, err := cachedGroup(ctx, o.Cache, sh, x, labeled, labels, res, members, key)
				d := groupDone{key: key, pr: pr, err: err}
				if err == nil {
					d.cv = cv.scoreGroup(ctx, pr, res, members, scores)
				}
				results <- d
			}
		}()
	}
	go func() {
		for _, key := range keys {
			next <- key
		}
		close(next)
		wg.Wait()
		close(results)
	}()
	preps := map[string]*prep{}
	done := 0
	var first error
	for d := range results { // drained to the end, so that no worker is left blocked
		switch {
		case d.cv != nil:
			first = cmp.Or(first, d.cv)
		case d.err != nil && ctx.Err() != nil:
			first = cmp.Or(first, fmt.Errorf("models: %w", ctx.Err()))
		case d.err != nil:
			for _, i := range groups[d.key] {
				scores[i].Skipped = d.err
			}
		default:
			preps[d.key] = d.pr
		}
		done += len(groups[d.key])
		if o.Progress != nil && first == nil {
			o.Progress(done, total)
		}
	}
	return preps, first
}

// fitFirst fits the first candidate that fits the data, for labeled sets
// that cannot be cross-validated.
func fitFirst(ctx context.Context, x *mat.Dense, labeled, labels []int, sel *Selection) (*Model, error) {
	for i := range sel.Scores {
		if sel.Scores[i].Skipped != nil {
			continue
		}
		m, err := Fit(ctx, x, labeled, labels, &sel.Scores[i].Options)
		if m != nil {
			sel.Chosen = i
			m.selection = sel
			return m, err
		}
		if ctx.Err() != nil {
			return nil, err
		}
		sel.Scores[i].Skipped = err
	}
	return nil, firstSkip(sel)
}

func firstSkip(sel *Selection) error {
	for _, s := range sel.Scores {
		if s.Skipped != nil {
			return fmt.Errorf("models: every candidate failed; the first (%s): %w", s.Name, s.Skipped)
		}
	}
	return inputf(linalg.ErrSettings, "no candidates")
}

// basisKey identifies the basis (or, for Standard, the kernel) a candidate
// needs: candidates with equal keys share one eigen-decomposition.
func basisKey(r *resolved) string {
	graphK := 0
	if r.Design.graph() || r.Kernel.Kind == KNN {
		graphK = r.GraphK
	}
	kind := "kernel"
	switch {
	case r.Classifier == Spread:
		kind = "spread"
	case r.Design == Standard:
		kind = "standard"
	case r.Design.graph():
		kind = "laplacian"
	}
	return fmt.Sprintf("%s|%+v|%d|%g|%g|%d|%d|%d|%+v", kind, r.Kernel, graphK, r.EigTol, r.EnergyFraction, r.Seed, r.Large, r.Landmarks, r.graphSpaceKey())
}

// prepareGroup computes the shared basis of the candidates members: their
// first's options with the largest d any of them asks for.
func prepareGroup(ctx context.Context, sh *shared, x *mat.Dense, labeled, labels []int, res []resolved, members []int) (*prep, error) {
	o := res[members[0]].Options
	if o.Classifier == Spread {
		return prepareShared(ctx, x, labeled, labels, &o, sh)
	}
	for _, i := range members {
		o.D = max(o.D, res[i].d)
	}
	if o.Design != Standard && !o.Design.graph() {
		// Any kernel design computes the same eigenpairs; Cluster has no
		// knob of its own.
		o.Design = Cluster
		o.Decay, o.Alpha, o.Custom = 0, 0, nil
		if o.Classifier != SVM {
			o.C = 0
		}
	}
	return prepareShared(ctx, x, labeled, labels, &o, sh)
}

// withOptions returns a shallow copy of pr that fits with r and the given
// number of classes: the basis truncated to r's d.
func (pr *prep) withOptions(r resolved, classes int) *prep {
	q := *pr
	q.opt = r
	q.classes = classes
	if pr.basis != nil {
		q.basis = truncate(pr.basis, r.d)
	}
	return &q
}

// truncate returns a view of the first d pairs of b (b itself when it has
// no more).
func truncate(b *spectral.Basis, d int) *spectral.Basis {
	n, c := b.V.Dims()
	if d >= c {
		return b
	}
	return &spectral.Basis{Values: b.Values[:d], V: b.V.Slice(0, n, 0, d).(*mat.Dense)}
}

// Selection returns the report of the model selection that chose this
// model (nil unless it came from Select or Fit with Design Auto).
func (m *Model) Selection() *Selection {
	if m == nil {
		return nil
	}
	return m.selection
}
