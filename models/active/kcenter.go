package active

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/internal/ova"
)

// DefaultKCenterFactor is the size of KCenter's uncertain shortlist, in
// batches: the 5k candidates of largest entropy.
const DefaultKCenterFactor = 5

// KCenter is a diversity baseline for batch selection: it shortlists the
// Factor·k candidates of largest entropy and picks k of them by greedy
// farthest-first traversal in feature space (the 2-approximation of the
// k-center problem), starting from the most uncertain. Each next point is
// the shortlisted candidate farthest (Euclidean) from the points already
// picked; ties go to the larger entropy, then the lower position. An exact
// duplicate of a picked point is at distance zero and is picked only when
// no other shortlisted candidate remains.
//
// Cost: O(n c) for the entropies and O(Factor k² d) for the traversal. A k
// above the number of candidates selects them all. Errors as for Fisher
// (probabilities, k, features, a negative Factor).
//
// The value holds no mutable state and is safe for concurrent use.
type KCenter struct {
	// Factor sets the shortlist to Factor·k candidates; zero means
	// DefaultKCenterFactor.
	Factor int
	// Features, if not nil, holds the candidates' feature vectors for
	// Select. SelectFeatures takes them as an argument instead.
	Features mat.Matrix
}

// Select implements Selector with the features held in c.Features.
func (kc KCenter) Select(dst []int, probs mat.Matrix, k int) ([]int, error) {
	const op = "active.KCenter.Select"
	if ova.IsNil(kc.Features) {
		return nil, linalg.Errorf(linalg.ErrEmpty, op, "no features: set KCenter.Features or call SelectFeatures")
	}
	return kc.selectBatch(op, dst, probs, kc.Features, k)
}

// SelectFeatures implements FeatureSelector.
func (kc KCenter) SelectFeatures(dst []int, probs, features mat.Matrix, k int) ([]int, error) {
	return kc.selectBatch("active.KCenter.SelectFeatures", dst, probs, features, k)
}

func (kc KCenter) selectBatch(op string, dst []int, probs, features mat.Matrix, k int) ([]int, error) {
	if err := linalg.CheckCount(op, "Factor", kc.Factor); err != nil {
		return nil, err
	}
	factor := kc.Factor
	if factor == 0 {
		factor = DefaultKCenterFactor
	}
	short, err := topK(op, nil, probs, shortlistSize(k, factor), entropy)
	if err != nil {
		return nil, err
	}
	m, _ := probs.Dims()
	x, err := checkFeatures(op, features, m)
	if err != nil {
		return nil, err
	}
	k = min(k, len(short))
	// dist[a] is the squared distance of short[a] to the nearest pick;
	// picked entries are marked with -1.
	dist := make([]float64, len(short))
	for a := range dist {
		dist[a] = math.Inf(1)
	}
	dst = dst[:0]
	next := 0 // the most uncertain first
	for len(dst) < k {
		i := short[next]
		dst = append(dst, i)
		dist[next] = -1
		xi := x.RawRowView(i)
		best := -1
		for a, j := range short {
			if dist[a] < 0 {
				continue
			}
			var d2 float64
			for t, v := range x.RawRowView(j) {
				diff := v - xi[t]
				d2 += diff * diff
			}
			dist[a] = math.Min(dist[a], d2)
			// The shortlist is in decreasing entropy, so a strict > keeps
			// ties with the more uncertain candidate.
			if best < 0 || dist[a] > dist[best] {
				best = a
			}
		}
		next = best
	}
	return dst, nil
}

// shortlistSize is the size factor·k of an entropy shortlist, math.MaxInt
// (every candidate) when that overflows; a k below 1 goes through as it
// is, for topK to reject.
func shortlistSize(k, factor int) int {
	if k < 1 {
		return k
	}
	if k > math.MaxInt/factor {
		return math.MaxInt
	}
	return factor * k
}
