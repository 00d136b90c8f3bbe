package metric

import (
	"math/rand/v2"
	"sort"

	"ukm/linalg"
)

// SampleConstraints draws side information from class labels, as the
// thesis's experiments do (section 5.5.2): similar distinct pairs drawn
// uniformly without replacement from the pairs of points with the same
// label, and dissimilar ones from the pairs with different labels. Pairs
// are returned with I < J, in the order drawn; the same arguments always
// give the same pairs.
//
// Errors wrap linalg.ErrInvalid: linalg.ErrEmpty for no labels,
// linalg.ErrLabels for a negative label, and linalg.ErrSettings for a
// negative count or more pairs of a kind than the labels have. Cost:
// O(n log n + (similar + dissimilar) log² n) time and O(n + similar +
// dissimilar) memory: pairs are drawn by their rank, never enumerated.
func SampleConstraints(y []int, similar, dissimilar int, seed uint64) (Constraints, error) {
	const op = "metric.SampleConstraints"
	n := len(y)
	if n == 0 {
		return Constraints{}, linalg.Errorf(linalg.ErrEmpty, op, "no labels")
	}
	if similar < 0 || dissimilar < 0 {
		return Constraints{}, linalg.Errorf(linalg.ErrSettings, op, "negative count (%d similar, %d dissimilar)", similar, dissimilar)
	}
	members := map[int][]int{}
	for i, c := range y {
		if c < 0 {
			return Constraints{}, linalg.Errorf(linalg.ErrLabels, op, "label %d of point %d is negative", c, i)
		}
		members[c] = append(members[c], i)
	}
	// pos[i] is the position of i in its class's (increasing) member list.
	pos := make([]int, n)
	for _, m := range members {
		for k, i := range m {
			pos[i] = k
		}
	}
	// Row i owns the pairs (i, j), j > i: same[i] of them with y_j = y_i
	// and diff[i] with y_j != y_i. Prefix sums rank the pairs of each kind.
	sameCum := make([]uint64, n+1)
	diffCum := make([]uint64, n+1)
	for i := 0; i < n; i++ {
		s := uint64(len(members[y[i]]) - 1 - pos[i])
		sameCum[i+1] = sameCum[i] + s
		diffCum[i+1] = diffCum[i] + uint64(n-1-i) - s
	}
	if uint64(similar) > sameCum[n] {
		return Constraints{}, linalg.Errorf(linalg.ErrSettings, op, "%d similar pairs asked, the labels have %d", similar, sameCum[n])
	}
	if uint64(dissimilar) > diffCum[n] {
		return Constraints{}, linalg.Errorf(linalg.ErrSettings, op, "%d dissimilar pairs asked, the labels have %d", dissimilar, diffCum[n])
	}
	rng := rand.New(rand.NewPCG(seed, 0xc0175))
	var c Constraints
	for _, r := range floyd(rng, sameCum[n], similar) {
		i := row(sameCum, r)
		t := int(r - sameCum[i])
		c.Similar = append(c.Similar, Pair{i, members[y[i]][pos[i]+1+t]})
	}
	for _, r := range floyd(rng, diffCum[n], dissimilar) {
		i := row(diffCum, r)
		t := int(r - diffCum[i])
		m := members[y[i]]
		// The t-th j > i outside i's class: the smallest j whose count
		// (j - i) - #{class members in (i, j]} exceeds t.
		j := i + 1 + sort.Search(n-1-i, func(k int) bool {
			j := i + 1 + k
			same := sort.SearchInts(m, j+1) - pos[i] - 1
			return j-i-same > t
		})
		c.Dissimilar = append(c.Dissimilar, Pair{i, j})
	}
	return c, nil
}

// row returns the row i with cum[i] <= r < cum[i+1].
func row(cum []uint64, r uint64) int {
	return sort.Search(len(cum)-1, func(i int) bool { return cum[i+1] > r })
}

// floyd draws k distinct integers from [0, n) uniformly (Floyd's
// algorithm), in a deterministic order.
func floyd(rng *rand.Rand, n uint64, k int) []uint64 {
	out := make([]uint64, 0, k)
	seen := make(map[uint64]bool, k)
	for j := n - uint64(k); j < n; j++ {
		t := rng.Uint64N(j + 1)
		if seen[t] {
			t = j
		}
		seen[t] = true
		out = append(out, t)
	}
	// Floyd's order is biased towards large values at the end; shuffle.
	rng.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	return out
}
