package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"ukm/linalg"
)

// folds assigns every labeled position a fold in [0, k) and returns k and
// the rule used. ok is false when no fold can be formed (every class has a
// single labeled point).
func selectFolds(labels []int, classes, want int, seed uint64) (fold []int, k int, rule string, ok bool) {
	l := len(labels)
	count := make([]int, classes)
	for _, y := range labels {
		count[y]++
	}
	maxCount := 0
	for _, c := range count {
		maxCount = max(maxCount, c)
	}
	if maxCount < 2 {
		return nil, 0, "no cross-validation: every class has a single labeled point", false
	}
	fold = make([]int, l)
	if want == 0 && l <= LeaveOneOutMax {
		for i := range fold {
			fold[i] = i
		}
		return fold, l, "leave-one-out", true
	}
	k = want
	switch {
	case k > 0:
	case l <= SmallSelectMax:
		k = SmallSelectFolds
	default:
		k = DefaultSelectFolds
	}
	k = min(k, maxCount)
	rng := rand.New(rand.NewPCG(seed, 0x5e1ec7))
	members := make([][]int, classes)
	for i, y := range labels {
		members[y] = append(members[y], i)
	}
	next := 0
	for _, m := range members {
		rng.Shuffle(len(m), func(a, b int) { m[a], m[b] = m[b], m[a] })
		for _, i := range m {
			fold[i] = next % k
			next++
		}
	}
	return fold, k, fmt.Sprintf("stratified %d-fold", k), true
}

// SelectRule says how Select chooses among scored candidates.
type SelectRule int

// Selection rules.
const (
	// RuleAuto is RulePrior with the default candidates (whose first is
	// label spreading on the 10-NN graph) and RuleBest with a caller's
	// list.
	RuleAuto SelectRule = iota
	// RuleBest takes the candidate of highest cross-validated accuracy
	// (ties: the higher mean probability of the true class), then the
	// simplest of its family within one paired standard error of it
	// (smallest d, then largest lambda).
	RuleBest
	// RulePrior takes the first scored candidate, the default, unless the
	// candidate RuleBest chooses beats it by more than one paired standard
	// error over the held-out labeled points. With 10 or 20 labels the
	// best of many noisy scores overstates its candidate (a standard error
	// of 10 points with 10 labels), and a strong default that has to be
	// beaten clearly gives up fewer lucky wins than it gains (the
	// head-to-head table of REPRODUCTION.md compares both rules).
	RulePrior
)

// prior reports whether the rule is RulePrior; defaults says whether the
// candidates are the default ones.
func (r SelectRule) prior(defaults bool) bool {
	return r == RulePrior || (r == RuleAuto && defaults)
}

// priorRule applies RulePrior: it returns best, or the first scored
// candidate when best does not beat it by more than one paired standard
// error, and whether the default was kept over a candidate with a higher
// score.
func priorRule(scores []CandidateScore, best int) (int, bool) {
	if best < 0 {
		return best, false
	}
	for i, s := range scores {
		if s.Skipped != nil {
			continue
		}
		if i != best && pairedWithin(scores[best].right, s.right) {
			return i, scores[best].Accuracy > s.Accuracy
		}
		return best, false
	}
	return best, false
}

// oneSE applies the selection rule to scored candidates.
func oneSE(scores []CandidateScore) int {
	best := -1
	for i, s := range scores {
		if s.Skipped != nil {
			continue
		}
		if best < 0 || s.Accuracy > scores[best].Accuracy ||
			(s.Accuracy == scores[best].Accuracy && s.Probability > scores[best].Probability) {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	fam := family(&scores[best].Options)
	idx := make([]int, 0, len(scores))
	for i, s := range scores {
		if s.Skipped == nil && family(&s.Options) == fam && pairedWithin(scores[best].right, s.right) {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		sa, sb := scores[idx[a]], scores[idx[b]]
		if sa.Complexity != sb.Complexity {
			return sa.Complexity < sb.Complexity
		}
		return sa.Options.Lambda > sb.Options.Lambda
	})
	return idx[0]
}

// family identifies a candidate's basis and design: the options without D
// and Lambda.
func family(o *Options) string {
	f := *o
	f.D, f.Lambda, f.Progress = 0, 0, nil
	return optionsKey(f)
}

// optionsKey prints options with GraphFeatures by value (the %+v of a
// pointer field would print its address).
func optionsKey(f Options) string {
	var hog linalg.HOG
	if f.GraphFeatures != nil {
		hog, f.GraphFeatures = *f.GraphFeatures, nil
	}
	return fmt.Sprintf("%+v|%+v", f, hog)
}

// designKey identifies what a candidate's design depends on: the options
// without the classifier's lambda and intercept, which candidates of one
// design group vary fold by fold without designing again.
func designKey(o *Options) string {
	f := *o
	f.Lambda, f.Bias, f.Progress = 0, false, nil
	return optionsKey(f)
}

// pairedWithin reports whether the mean of best(i) - c(i) is at most its
// standard error.
func pairedWithin(best, c []bool) bool {
	l := len(best)
	var sum, sq float64
	for i := range best {
		d := 0.0
		switch {
		case best[i] && !c[i]:
			d = 1
		case !best[i] && c[i]:
			d = -1
		}
		sum += d
		sq += d * d
	}
	mean := sum / float64(l)
	if mean <= 0 {
		return true
	}
	if l < 2 {
		return false
	}
	v := (sq - float64(l)*mean*mean) / float64(l-1)
	return mean <= math.Sqrt(v/float64(l))
}
