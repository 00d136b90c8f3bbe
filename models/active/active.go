package active

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
)

// Selector picks up to k candidates to label. probs holds one row per
// candidate and one column per class (each row a probability distribution;
// a binary model may pass a single column p(y = +1)). Select appends the
// chosen row indices, most informative first, to dst[:0] and returns it.
type Selector interface {
	Select(dst []int, probs mat.Matrix, k int) ([]int, error)
}

// Oracle labels the examples with the given indices (into the full data
// set). It returns one class index per example.
type Oracle interface {
	Label(ctx context.Context, idx []int) ([]int, error)
}

// GroundTruth is an Oracle that answers from known labels, for experiments.
type GroundTruth []int

// Label returns the stored labels of idx. An index outside the known labels
// is an error of kind linalg.ErrLabels, a nil context of kind
// linalg.ErrSettings; a cancelled context gives an error wrapping ctx.Err().
func (g GroundTruth) Label(ctx context.Context, idx []int) ([]int, error) {
	const op = "active.GroundTruth.Label"
	if err := linalg.CheckContext(op, ctx); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	out := make([]int, len(idx))
	for i, j := range idx {
		if j < 0 || j >= len(g) {
			return nil, linalg.Errorf(linalg.ErrLabels, op, "index %d outside the %d known labels", j, len(g))
		}
		out[i] = g[j]
	}
	return out, nil
}

// Entropy selects the candidates whose predicted class distribution has the
// largest Shannon entropy -sum_c p_c log p_c (KDD'06 eq. 19).
type Entropy struct{}

// Select implements Selector.
func (Entropy) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	return topK("active.Entropy.Select", dst, probs, k, entropy)
}

// Margin selects the candidates with the smallest difference between the two
// largest class probabilities.
type Margin struct{}

// Select implements Selector.
func (Margin) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	return topK("active.Margin.Select", dst, probs, k, func(p []float64) float64 { return -margin(p) })
}

// Random selects candidates uniformly at random without replacement. Each
// call draws from a generator seeded by Seed and the call's Round, so a
// sequence of rounds is reproducible and the value is safe for concurrent use.
type Random struct {
	Seed  uint64
	Round uint64
}

// Select implements Selector.
func (r Random) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	m, err := checkProbs("active.Random.Select", probs, k)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(r.Seed, r.Round))
	perm := rng.Perm(m)
	return append(dst[:0], perm[:min(k, m)]...), nil
}

// EntropyScore returns the Shannon entropy (natural log) of the distribution
// p. A single value is read as the binary distribution (p, 1-p). An empty p
// is an error of kind linalg.ErrEmpty, a value outside [0, 1] (NaN
// included) of kind linalg.ErrSettings.
func EntropyScore(p []float64) (float64, error) {
	if err := checkDist("active.EntropyScore", p); err != nil {
		return 0, err
	}
	return entropy(p), nil
}

// MarginScore returns the difference between the two largest probabilities
// of p (for a single value p, |2p - 1|). Errors as for EntropyScore.
func MarginScore(p []float64) (float64, error) {
	if err := checkDist("active.MarginScore", p); err != nil {
		return 0, err
	}
	return margin(p), nil
}

func entropy(p []float64) float64 {
	if len(p) == 1 {
		return xlogx(p[0]) + xlogx(1-p[0])
	}
	var h float64
	for _, v := range p {
		h += xlogx(v)
	}
	return h
}

func xlogx(v float64) float64 {
	if v <= 0 {
		return 0
	}
	return -v * math.Log(v)
}

func margin(p []float64) float64 {
	if len(p) == 1 {
		return math.Abs(2*p[0] - 1)
	}
	a, b := math.Inf(-1), math.Inf(-1)
	for _, v := range p {
		switch {
		case v > a:
			a, b = v, a
		case v > b:
			b = v
		}
	}
	return a - b
}

// checkDist checks one row of probabilities: not empty, every value in
// [0, 1].
func checkDist(op string, p []float64) error {
	if len(p) == 0 {
		return linalg.Errorf(linalg.ErrEmpty, op, "no probabilities")
	}
	for j, v := range p {
		if !(v >= 0 && v <= 1) {
			return probErr(op, -1, j, v)
		}
	}
	return nil
}

// probErr reports a probability outside [0, 1] at (i, j) (i < 0: in a
// single row).
func probErr(op string, i, j int, v float64) error {
	name := fmt.Sprintf("probability %d", j)
	if i >= 0 {
		name = fmt.Sprintf("probability (%d,%d)", i, j)
	}
	return linalg.CheckIn(op, name, v, 0, 1)
}

// checkProbs validates a probability matrix and batch size and returns the
// number of candidates.
func checkProbs(op string, probs mat.Matrix, k int) (int, error) {
	if ova.IsNil(probs) {
		return 0, linalg.Errorf(linalg.ErrEmpty, op, "nil probability matrix")
	}
	if k < 1 {
		return 0, linalg.Errorf(linalg.ErrSettings, op, "batch size %d, want at least 1", k)
	}
	m, c := probs.Dims()
	if m == 0 || c == 0 {
		return 0, linalg.Errorf(linalg.ErrEmpty, op, "probability matrix is %d x %d, want a candidate and a class at least", m, c)
	}
	for i := 0; i < m; i++ {
		for j := 0; j < c; j++ {
			if v := probs.At(i, j); !(v >= 0 && v <= 1) {
				return 0, probErr(op, i, j, v)
			}
		}
	}
	return m, nil
}

// topK returns the k rows with the largest score, ties by row index.
func topK(op string, dst []int, probs mat.Matrix, k int, score func([]float64) float64) ([]int, error) {
	if _, err := checkProbs(op, probs, k); err != nil {
		return nil, err
	}
	return ranked(dst, probs, k, score), nil
}

// ranked is topK on probabilities already checked.
func ranked(dst []int, probs mat.Matrix, k int, score func([]float64) float64) []int {
	m, c := probs.Dims()
	row := make([]float64, c)
	scores := make([]float64, m)
	for i := range m {
		for j := range c {
			row[j] = probs.At(i, j)
		}
		scores[i] = score(row)
	}
	// A partial selection: O(m) when few candidates beat the current k-th,
	// rather than a sort of the whole pool.
	top := topOrder(m, min(k, m), func(i, j int) bool { return scores[i] > scores[j] || scores[i] == scores[j] && i < j })
	return append(dst[:0], top...)
}
