package metric

import (
	"slices"

	"ukm/linalg"
)

// Pair is an unordered pair of point indices (rows of the data matrix).
type Pair struct{ I, J int }

// Constraints are pairwise side information on n points: Similar pairs
// belong together (must-link, positive constraints) and Dissimilar pairs
// apart (cannot-link, negative constraints). Repeated pairs are allowed and
// count once.
type Constraints struct {
	Similar    []Pair
	Dissimilar []Pair
}

// Len returns the number of pairs, similar and dissimilar.
func (c Constraints) Len() int { return len(c.Similar) + len(c.Dissimilar) }

// Chunklets are the groups of points that the similar pairs join (the
// connected components of the must-link graph) and the discriminative sets
// that the dissimilar pairs put between them (thesis section 5.3.2).
//
// Every point named by some constraint belongs to exactly one chunklet; a
// point named only by dissimilar pairs is a chunklet of one point. Points
// named by no constraint belong to none.
type Chunklets struct {
	// Groups holds the points of every chunklet in increasing order;
	// chunklets are numbered in the order of their smallest point.
	Groups [][]int
	// Of gives the chunklet of every point, -1 for a point in none.
	Of []int
	// Discriminative holds D_j for every chunklet j: the chunklets linked
	// to j by at least one dissimilar pair, in increasing order.
	Discriminative [][]int
}

// NewChunklets checks the constraints on n points and groups them into
// chunklets. Errors wrap linalg.ErrInvalid: linalg.ErrSettings for n < 1,
// linalg.ErrLabels for an index outside [0, n) or a similar pair of a point
// with itself, and ErrContradictory for a dissimilar pair inside one
// chunklet. Cost: O(n + c α(n)) for c pairs (union-find), plus the sort of
// the discriminative sets.
func NewChunklets(n int, c Constraints) (*Chunklets, error) {
	return newChunklets("metric.NewChunklets", n, c)
}

func newChunklets(op string, n int, c Constraints) (*Chunklets, error) {
	if n < 1 {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "%d points, want at least 1", n)
	}
	if err := checkPairs(op, n, c); err != nil {
		return nil, err
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	used := make([]bool, n)
	for _, p := range c.Similar {
		used[p.I], used[p.J] = true, true
		a, b := find(p.I), find(p.J)
		if a != b {
			// The smaller root wins, so roots are smallest members.
			if a < b {
				parent[b] = a
			} else {
				parent[a] = b
			}
		}
	}
	for _, p := range c.Dissimilar {
		used[p.I], used[p.J] = true, true
	}
	ch := &Chunklets{Of: make([]int, n)}
	for i := range ch.Of {
		ch.Of[i] = -1
	}
	// Roots are the smallest members, so scanning in order numbers the
	// chunklets by their smallest point.
	for i := 0; i < n; i++ {
		if !used[i] {
			continue
		}
		r := find(i)
		if r == i {
			ch.Of[i] = len(ch.Groups)
			ch.Groups = append(ch.Groups, nil)
		} else {
			ch.Of[i] = ch.Of[r]
		}
		j := ch.Of[i]
		ch.Groups[j] = append(ch.Groups[j], i)
	}
	ch.Discriminative = make([][]int, len(ch.Groups))
	for k, p := range c.Dissimilar {
		a, b := ch.Of[p.I], ch.Of[p.J]
		if a == b {
			return nil, linalg.Errorf(ErrContradictory, op,
				"dissimilar pair %d (%d, %d) lies inside chunklet %d, whose points similar pairs join", k, p.I, p.J, a)
		}
		ch.Discriminative[a] = append(ch.Discriminative[a], b)
		ch.Discriminative[b] = append(ch.Discriminative[b], a)
	}
	for j, d := range ch.Discriminative {
		slices.Sort(d)
		ch.Discriminative[j] = slices.Compact(d)
	}
	return ch, nil
}

// checkPairs validates the indices of every pair.
func checkPairs(op string, n int, c Constraints) error {
	for k, p := range c.Similar {
		if p.I < 0 || p.I >= n || p.J < 0 || p.J >= n {
			return linalg.Errorf(linalg.ErrLabels, op, "similar pair %d (%d, %d) is outside [0, %d)", k, p.I, p.J, n)
		}
		if p.I == p.J {
			return linalg.Errorf(linalg.ErrLabels, op, "similar pair %d joins point %d with itself", k, p.I)
		}
	}
	for k, p := range c.Dissimilar {
		if p.I < 0 || p.I >= n || p.J < 0 || p.J >= n {
			return linalg.Errorf(linalg.ErrLabels, op, "dissimilar pair %d (%d, %d) is outside [0, %d)", k, p.I, p.J, n)
		}
		if p.I == p.J {
			return linalg.Errorf(ErrContradictory, op, "dissimilar pair %d separates point %d from itself", k, p.I)
		}
	}
	return nil
}

// pairs returns the distinct unordered pairs {a, b}, a < b, of chunklets
// that a dissimilar pair links, in increasing order of (a, b).
func (ch *Chunklets) pairs() [][2]int {
	var out [][2]int
	for a, d := range ch.Discriminative {
		for _, b := range d {
			if a < b {
				out = append(out, [2]int{a, b})
			}
		}
	}
	return out
}

// Points returns the number of points that belong to a chunklet.
func (ch *Chunklets) Points() int {
	k := 0
	for _, g := range ch.Groups {
		k += len(g)
	}
	return k
}
