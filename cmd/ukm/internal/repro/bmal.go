package repro

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"ukm/models"
	"ukm/models/active"
)

// The learning curves of batch-mode active learning by Fisher information
// (Hoi's thesis, chapter 4) against the selectors that score each point on
// its own. A table row is a number of labels (20 at the start, then +10 per
// round), a column a selector on one kernel; a cell is the metric on the
// points still unlabeled after that round (thesis-bmal) or on held-out
// points (thesis-bmal-test), over the trials. The whole
// curve of a trial is one run of models.Loop: the first row runs it, the
// later rows read its rounds.

// The protocol: 20 labels at the start, 10 rounds of batches of 10.
const (
	bmalInitial = 20
	bmalBatch   = 10
	bmalRounds  = 10
)

// bmalSets are the data sets of the table: the four of KDD'06 Table 3 and
// three of the SSL benchmark and USPS collection.
var bmalSets = []string{"heart", "ionosphere", "sonar", "wine", "ssl_text", "usps", "ssl_digit1"}

// bmalSelectors are the columns' query strategies, Fisher first: on the
// whole pool as in the thesis; with the batch drawn from the 5k most
// uncertain candidates (the shortlist of the k-centers baseline); and with
// those 5k candidates as the pool too (their own I_p).
var bmalSelectors = []struct {
	name string
	make func(seed uint64) active.Selector
}{
	{"BMAL", func(uint64) active.Selector { return active.Fisher{} }},
	{"BMAL-5k", func(uint64) active.Selector { return active.Fisher{Shortlist: active.DefaultKCenterFactor} }},
	{"BMAL-5k-pool", func(uint64) active.Selector {
		return active.Fisher{Shortlist: active.DefaultKCenterFactor, ShortlistPool: true}
	}},
	{"Entropy", func(uint64) active.Selector { return active.Entropy{} }},
	{"Margin", func(uint64) active.Selector { return active.Margin{} }},
	{"KCenter", func(uint64) active.Selector { return active.KCenter{} }},
	{"Random", func(seed uint64) active.Selector { return active.Random{Seed: seed} }},
}

// bmalKernels: KLR on the learned kernel (SKL re-learned every round, the
// UKLR loop) and on the base kernel in the same spectral form (the RBF
// kernel's top d eigenpairs with their own eigenvalues, the Truncated
// design, fixed), so that every selector sees a feature map
// Phi = V diag(sqrt(mu)) and the two columns differ only in mu.
var bmalKernels = []string{"SKL", "RBF"}

func init() {
	registry["thesis-bmal"] = bmalTable("thesis-bmal", bmalSets, false)
	registry["thesis-bmal-test"] = bmalTable("thesis-bmal-test", bmalSets, true)
}

// bmalTable builds the table over the given data sets. Without heldOut
// every round is measured on the points still unlabeled (KDD'06 section
// 6.1); with it, on a held-out third of the points that no selector may
// query (see bmalHoldout), the same points for every column of a trial.
func bmalTable(name string, sets []string, heldOut bool) *Table {
	sizes := make([]int, bmalRounds+1)
	for r := range sizes {
		sizes[r] = bmalInitial + r*bmalBatch
	}
	measured := "measured on the points still unlabeled"
	if heldOut {
		measured = "measured on a held-out third of the points, never queried"
	}
	return &Table{
		Name: name,
		Title: "Hoi's thesis, chapter 4: batch-mode active learning by Fisher information (BMAL on the whole pool; BMAL-5k from the 5k most uncertain; BMAL-5k-pool on the 5k most uncertain as its pool) against top-k entropy, " +
			"top-k margin, k-centers on the 5k most uncertain, and random; KLR on the learned kernel (SKL re-learned every round) " +
			"and on the base RBF kernel (its top 20 eigenpairs as they are, mu = lambda); l = labels after each round of 10; accuracy (%), or F1 (%) of the minority class on a " +
			"binary set whose minority class holds under 40% of the points (ionosphere here), " + measured,
		Datasets: sets,
		Sizes:    sizes,
		Methods: func(base *models.Options) []Method {
			var ms []Method
			for _, k := range bmalKernels {
				for _, s := range bmalSelectors {
					ms = append(ms, bmalMethod(s.name+"/"+k, base, k == "SKL", heldOut, s.make))
				}
			}
			return ms
		},
		Claim: bmalClaim,
	}
}

// bmalHoldout returns the held-out points of a trial: a third (rounded
// down) of the points outside the initial labeled set, drawn uniformly
// with the trial's seed, ascending.
func bmalHoldout(n int, labeled []int, seed uint64) []int {
	rest := complement(n, labeled)
	rng := rand.New(rand.NewPCG(seed, 0x401d0))
	rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	held := rest[:len(rest)/3]
	slices.Sort(held)
	return held
}

// bmalState holds the curves of one method on one data set, by trial, and
// how many trials each later row has read.
type bmalState struct {
	curves []bmalCurve
	reads  map[int]int
}

// bmalCurve is one trial's learning curve: the metric and stage times of
// every round.
type bmalCurve struct {
	metric []float64
	times  []models.StageTimes
	err    error // the loop's error, if it failed
}

func bmalMethod(name string, base *models.Options, learned, heldOut bool, mk func(uint64) active.Selector) Method {
	return Method{Name: name, Run: func(ctx context.Context, d *Data, labeled []int, seed uint64) (Trial, error) {
		v, err := d.memoize("bmal/"+name, func() (any, error) { return &bmalState{reads: map[int]int{}}, nil })
		if err != nil {
			return Trial{}, err
		}
		st := v.(*bmalState)
		r := (len(labeled) - bmalInitial) / bmalBatch
		if r == 0 {
			b, err := d.memoize("bmal/bases", func() (any, error) { return &bmalBases{}, nil })
			if err != nil {
				return Trial{}, err
			}
			bases := b.(*bmalBases)
			c, err := bmalRun(ctx, d, labeled, seed, base, learned, heldOut, mk(seed), bases.forTrial(seed))
			if err == nil {
				bases.account(&c.times[0])
			}
			// A failed loop keeps its place, so that the later rows read
			// the curves of their own trials, and fails them too.
			c.err = err
			st.curves = append(st.curves, c)
			if err != nil {
				return Trial{}, err
			}
			return Trial{Accuracy: c.metric[0], Times: c.times[0]}, nil
		}
		t := st.reads[r]
		st.reads[r]++
		if t >= len(st.curves) {
			return Trial{}, fatalError{errors.New("repro: a learning-curve row was asked before its first row ran (run the table without -sizes)")}
		}
		c := st.curves[t]
		if c.err != nil {
			return Trial{}, fmt.Errorf("repro: the loop of this trial failed: %w", c.err)
		}
		if r >= len(c.metric) {
			return Trial{}, fmt.Errorf("repro: the loop stopped after %d rounds", len(c.metric)-1)
		}
		return Trial{Accuracy: c.metric[r], Times: c.times[r]}, nil
	}}
}

// bmalBases shares the base kernel's eigenpairs between the loops of one
// trial: every column starts from the same labeled set with the same seed,
// so each would compute the same basis. A new trial (a new seed) starts a
// new cache, so that one trial's basis is held at a time.
type bmalBases struct {
	seed  uint64
	cache *models.BasisCache
	// kernel and eig are what the trial's basis cost the loop that
	// computed it.
	kernel, eig time.Duration
}

func (b *bmalBases) forTrial(seed uint64) *models.BasisCache {
	if b.cache == nil || b.seed != seed {
		b.seed, b.cache = seed, &models.BasisCache{}
		b.kernel, b.eig = 0, 0
	}
	return b.cache
}

// account records the basis's cost from the round-0 times t of the loop
// that computed it, and gives it to the loops that took the basis from the
// cache (which report none), so that every column's times are what it
// would cost run alone.
func (b *bmalBases) account(t *models.StageTimes) {
	if t.Kernel != 0 || t.Eig != 0 {
		b.kernel, b.eig = t.Kernel, t.Eig
		return
	}
	t.Kernel, t.Eig = b.kernel, b.eig
}

// bmalRun runs one active-learning loop from the labeled set, with the
// trial's basis cache, and returns its learning curve.
func bmalRun(ctx context.Context, d *Data, labeled []int, seed uint64, base *models.Options, learned, heldOut bool, sel active.Selector, cache *models.BasisCache) (bmalCurve, error) {
	o := *base
	o.Seed = seed
	o.Kernel.Kind, o.Classifier = models.RBF, models.KLR
	var lo *models.LoopOptions
	if learned {
		o.Design = models.SKL
		lo = models.UKLR(o.Trim(), bmalRounds*bmalBatch, bmalBatch)
	} else {
		// The base kernel in the same spectral form: its top d eigenpairs
		// as they are (mu = lambda), fixed.
		o.Design = models.Truncated
		lo = &models.LoopOptions{Options: o.Trim(), Budget: bmalRounds * bmalBatch, Batch: bmalBatch}
	}
	rec := &recordingSelector{inner: sel}
	lo.Selector, lo.Cache = rec, cache
	lo.Truth = d.Y
	if heldOut {
		lo.Holdout = bmalHoldout(len(d.Y), labeled, seed)
	}
	m, rounds, err := models.Loop(ctx, d.X, labeled, labelsOf(d.Y, labeled), activeTruth(d.Y), lo)
	if err != nil {
		return bmalCurve{}, err
	}
	f1 := isImbalanced(d)
	c := bmalCurve{}
	taken := append([]int(nil), labeled...)
	for r, rd := range rounds {
		// Accuracy is the loop's own; F1 needs the predictions: the loop's
		// on the held-out points, or on the unlabeled ones those the
		// recorded probabilities give (the final model's in the last round).
		score := 100 * rd.Accuracy
		switch {
		case f1 && heldOut:
			score = minorityF1(rd.Holdout, lo.Holdout, d.Y, minorityClass(d))
		case f1:
			u := complement(len(d.Y), taken)
			var pred []int
			if r < len(rec.probs) {
				pred = argmaxRows(rec.probs[r])
			} else if pred, err = m.PredictRows(nil, u); err != nil {
				return bmalCurve{}, err
			}
			if len(pred) != len(u) {
				return bmalCurve{}, fmt.Errorf("repro: round %d scored %d points for %d unlabeled", r, len(pred), len(u))
			}
			score = minorityF1(pred, u, d.Y, minorityClass(d))
		}
		t := rd.Times
		if r < len(rec.elapsed) {
			t.Select = rec.elapsed[r]
		}
		c.metric = append(c.metric, score)
		c.times = append(c.times, t)
		taken = append(taken, rd.Queried...)
	}
	return c, nil
}

// recordingSelector wraps a selector: it keeps the class probabilities of
// every round's candidates (the unlabeled points, ascending), from which
// the round's predictions follow, and the time the selector took. It is a
// FeatureSelector, so the loop hands it the features, which it passes on
// to a selector that wants them; a Random selector gets the round as its
// Round, as the loop would give it.
type recordingSelector struct {
	inner   active.Selector
	probs   []*mat.Dense
	elapsed []time.Duration
}

func (r *recordingSelector) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	return r.SelectFeatures(dst, probs, nil, k)
}

func (r *recordingSelector) SelectFeatures(dst []int, probs, features mat.Matrix, k int) ([]int, error) {
	round := len(r.probs)
	r.probs = append(r.probs, mat.DenseCopyOf(probs))
	t0 := time.Now()
	defer func() { r.elapsed = append(r.elapsed, time.Since(t0)) }()
	switch s := r.inner.(type) {
	case active.Random:
		s.Round = uint64(round)
		return s.Select(dst, probs, k)
	case active.FeatureSelector:
		return s.SelectFeatures(dst, probs, features, k)
	default:
		return s.Select(dst, probs, k)
	}
}

// argmaxRows returns the most probable class of every row, ties to the
// lower class (the loop's own rule).
func argmaxRows(p *mat.Dense) []int {
	r, c := p.Dims()
	out := make([]int, r)
	for i := range r {
		row := p.RawRowView(i)
		best := 0
		for j := 1; j < c; j++ {
			if row[j] > row[best] {
				best = j
			}
		}
		out[i] = best
	}
	return out
}

// isImbalanced reports whether the data set is scored by F1: a binary set
// whose minority class holds less than 40% of the points.
func isImbalanced(d *Data) bool {
	if d.Classes != 2 {
		return false
	}
	minority, count := minorityClass(d), 0
	for _, y := range d.Y {
		if y == minority {
			count++
		}
	}
	return float64(count) < 0.4*float64(len(d.Y))
}

// minorityClass returns the class with the fewest points (the lower on a
// tie).
func minorityClass(d *Data) int {
	count := make([]int, d.Classes)
	for _, y := range d.Y {
		count[y]++
	}
	best := 0
	for c, k := range count {
		if k < count[best] {
			best = c
		}
	}
	return best
}

// minorityF1 returns the F1 score (percent) of class pos over the points
// idx, whose predictions are pred; 0 when there is no true positive.
func minorityF1(pred, idx, truth []int, pos int) float64 {
	var tp, fp, fn float64
	for a, i := range idx {
		switch {
		case pred[a] == pos && truth[i] == pos:
			tp++
		case pred[a] == pos:
			fp++
		case truth[i] == pos:
			fn++
		}
	}
	if tp == 0 {
		return 0
	}
	return 100 * 2 * tp / (2*tp + fp + fn)
}
