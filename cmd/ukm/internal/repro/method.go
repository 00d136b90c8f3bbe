package repro

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"ukm/models"
)

// The columns most tables share: a fitted model, or an active-learning
// loop, scored on the points left unlabeled.

// accuracy returns the percentage of idx whose prediction equals truth.
func accuracy(pred []int, idx []int, truth []int) float64 {
	if len(idx) == 0 {
		return math.NaN()
	}
	ok := 0
	for i, j := range idx {
		if pred[i] == truth[j] {
			ok++
		}
	}
	return 100 * float64(ok) / float64(len(idx))
}

// complement returns the indices 0..n-1 not in idx, in order.
func complement(n int, idx []int) []int {
	in := make([]bool, n)
	for _, i := range idx {
		in[i] = true
	}
	out := make([]int, 0, n-len(idx))
	for i := 0; i < n; i++ {
		if !in[i] {
			out = append(out, i)
		}
	}
	return out
}

func labelsOf(y, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = y[j]
	}
	return out
}

// fitMethod returns a Method that fits one model with the given options on
// top of the run's base options and scores it on the unlabeled points.
func fitMethod(name string, base *models.Options, set func(o *models.Options)) Method {
	return Method{Name: name, Run: func(ctx context.Context, d *Data, labeled []int, seed uint64) (Trial, error) {
		o := *base
		o.Seed = seed
		set(&o)
		o = o.Trim() // the base's knobs reach the methods that use them
		m, err := models.Fit(ctx, d.X, labeled, labelsOf(d.Y, labeled), &o)
		return score(m, err, d, labeled)
	}}
}

// score scores a fitted model on the points left unlabeled; err is Fit's
// (a model with an error is scored and the error kept as a warning).
func score(m *models.Model, err error, d *Data, labeled []int) (Trial, error) {
	if err != nil && m == nil {
		return Trial{}, err
	}
	u := complement(len(d.Y), labeled)
	pred, perr := m.PredictRows(nil, u)
	if perr != nil {
		return Trial{}, perr
	}
	t := Trial{Accuracy: accuracy(pred, u, d.Y), Times: m.Timings(), Warning: err}
	if sel := m.Selection(); sel != nil {
		t.Times.Fit += sel.Elapsed
		t.Chosen = sel.Best().Name
	}
	return t, nil
}

// loopMethod returns a Method that runs an active-learning strategy with
// the given budget and batch and scores the final model on the points still
// unlabeled at the end.
func loopMethod(name string, base *models.Options, set func(o *models.Options), mk func(models.Options) *models.LoopOptions) Method {
	return Method{Name: name, Run: func(ctx context.Context, d *Data, labeled []int, seed uint64) (Trial, error) {
		o := *base
		o.Seed = seed
		set(&o)
		return runLoop(ctx, d, labeled, mk(o.Trim()))
	}}
}

// runLoop runs the active-learning loop lo from the labeled rows and
// returns the accuracy after its last round, with the stage times of all
// rounds.
func runLoop(ctx context.Context, d *Data, labeled []int, lo *models.LoopOptions) (Trial, error) {
	lo.Truth = d.Y
	_, rounds, err := models.Loop(ctx, d.X, labeled, labelsOf(d.Y, labeled), activeTruth(d.Y), lo)
	if err != nil {
		return Trial{}, err
	}
	if len(rounds) == 0 {
		return Trial{}, errors.New("repro: loop ran no round")
	}
	var t models.StageTimes
	for _, r := range rounds {
		t.Kernel += r.Times.Kernel
		t.Eig += r.Times.Eig
		t.Design += r.Times.Design
		t.Fit += r.Times.Fit
		t.Select += r.Times.Select
	}
	return Trial{Accuracy: 100 * rounds[len(rounds)-1].Accuracy, Times: t}, nil
}

// uklrClaim tests KDD'06 Table 3's claim, UKLR >= KLR+Active in at least
// 12 of 16 cells, for each kernel; qualifier (may be empty) says under
// which settings.
func uklrClaim(r *Result, qualifier string) string {
	var b strings.Builder
	for _, k := range []string{"Linear", "RBF"} {
		wins, cells := countAtLeast(r, "UKLR/"+k, "KLR+Active/"+k)
		verdict := "holds"
		if wins < 12*cells/16 {
			verdict = "does not hold"
		}
		fmt.Fprintf(&b, "- UKLR >= KLR+Active with the %s kernel%s in at least 12 of 16 cells: %d of %d — %s.\n", k, qualifier, wins, cells, verdict)
	}
	return b.String()
}
