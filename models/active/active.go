package active

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/mat"

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

// Label returns the stored labels of idx. An index outside the known labels,
// a nil or a cancelled context is an error.
func (g GroundTruth) Label(ctx context.Context, idx []int) ([]int, error) {
	if ctx == nil {
		return nil, errors.New("active: nil context")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]int, len(idx))
	for i, j := range idx {
		if j < 0 || j >= len(g) {
			return nil, fmt.Errorf("active: index %d outside the %d known labels", j, len(g))
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
	return topK(dst, probs, k, EntropyScore)
}

// Margin selects the candidates with the smallest difference between the two
// largest class probabilities.
type Margin struct{}

// Select implements Selector.
func (Margin) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	return topK(dst, probs, k, func(p []float64) float64 { return -MarginScore(p) })
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
	m, err := checkProbs(probs, k)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(r.Seed, r.Round))
	perm := rng.Perm(m)
	return append(dst[:0], perm[:min(k, m)]...), nil
}

// EntropyScore returns the Shannon entropy (natural log) of the distribution
// p. A single value is read as the binary distribution (p, 1-p).
func EntropyScore(p []float64) float64 {
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

// MarginScore returns the difference between the two largest probabilities
// of p (for a single value p, |2p - 1|).
func MarginScore(p []float64) float64 {
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

func checkProbs(probs mat.Matrix, k int) (int, error) {
	if ova.IsNil(probs) {
		return 0, errors.New("active: nil probability matrix")
	}
	if k < 1 {
		return 0, fmt.Errorf("active: batch size %d, want at least 1", k)
	}
	m, c := probs.Dims()
	if m == 0 {
		return 0, errors.New("active: no candidates to select from")
	}
	if c == 0 {
		return 0, errors.New("active: probability matrix has no columns")
	}
	for i := 0; i < m; i++ {
		for j := 0; j < c; j++ {
			if v := probs.At(i, j); !(v >= 0 && v <= 1) {
				return 0, fmt.Errorf("active: probability (%d,%d) = %v is not in [0,1]", i, j, v)
			}
		}
	}
	return m, nil
}

// topK returns the k rows with the largest score, ties by row index.
func topK(dst []int, probs mat.Matrix, k int, score func([]float64) float64) ([]int, error) {
	m, err := checkProbs(probs, k)
	if err != nil {
		return nil, err
	}
	_, c := probs.Dims()
	row := make([]float64, c)
	scores := make([]float64, m)
	idx := make([]int, m)
	for i := range m {
		for j := range c {
			row[j] = probs.At(i, j)
		}
		scores[i] = score(row)
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	return append(dst[:0], idx[:min(k, m)]...), nil
}
