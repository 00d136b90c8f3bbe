package active

import (
	"slices"
)

// Choosing the batch from the optimal distribution q.

// batch appends to dst[:0] the k candidates of largest q (ties to the larger
// gain, then the lower position), passing over exact duplicates of chosen
// candidates while distinct ones remain (see Fisher).
func (pb *fisherProblem) batch(dst []int, res *FisherResult, k int) []int {
	k = min(k, pb.n)
	// Mass below FisherSupportTol of the largest is what the optimisation
	// had not yet drained from candidates outside the support: it counts
	// as zero, so those candidates are ranked by gain, not by how far the
	// iteration got.
	floor := FisherSupportTol * slices.Max(res.Q)
	mass := func(i int) float64 {
		if res.Q[i] < floor {
			return 0
		}
		return res.Q[i]
	}
	before := func(i, j int) bool {
		if qi, qj := mass(i), mass(j); qi != qj {
			return qi > qj
		}
		if res.Gain[i] != res.Gain[j] {
			return res.Gain[i] > res.Gain[j]
		}
		return i < j
	}
	// Rank only as many candidates as needed: the top m, doubled when
	// duplicates leave the batch short.
	dst = dst[:0]
	for m := min(2*k, pb.n); ; m = min(2*m, pb.n) {
		order := topOrder(pb.n, m, before)
		dst = dst[:0]
		var dups []int
		for _, i := range order {
			if len(dst) == k {
				break
			}
			if pb.duplicateOf(i, dst) {
				dups = append(dups, i)
				continue
			}
			dst = append(dst, i)
		}
		if len(dst) == k {
			return dst
		}
		if m == pb.n {
			return append(dst, dups[:k-len(dst)]...)
		}
	}
}

// topOrder returns the m first indices of 0..n-1 in the order before,
// without sorting all n when m is small.
func topOrder(n, m int, before func(i, j int) bool) []int {
	if m >= n || m > topInsertMax {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(i, j int) int { return cmpBefore(before, i, j) })
		return idx[:min(m, n)]
	}
	// A bounded insertion list; O(n m) in the worst case, O(n) when few
	// candidates beat the current m-th.
	top := make([]int, 0, m)
	for i := range n {
		if len(top) == m && !before(i, top[m-1]) {
			continue
		}
		if len(top) < m {
			top = append(top, i)
		} else {
			top[m-1] = i
		}
		for j := len(top) - 1; j > 0 && before(top[j], top[j-1]); j-- {
			top[j], top[j-1] = top[j-1], top[j]
		}
	}
	return top
}

// topInsertMax is the largest m for which topOrder keeps a bounded
// insertion list: O(n + m² log(n/m)) on a pool in random order, O(n m) at
// worst (a pool in increasing order); above it, a sort (O(n log n)).
const topInsertMax = 1024

func cmpBefore(before func(i, j int) bool, i, j int) int {
	switch {
	case before(i, j):
		return -1
	case before(j, i):
		return 1
	}
	return 0
}

// duplicateOf reports whether candidate i has the same feature row and
// probability row as one of the chosen candidates.
func (pb *fisherProblem) duplicateOf(i int, chosen []int) bool {
	xi := pb.x.RawRowView(i)
	_, c := pb.probs.Dims()
	for _, j := range chosen {
		if !slices.Equal(xi, pb.x.RawRowView(j)) {
			continue
		}
		same := true
		for col := 0; col < c && same; col++ {
			same = pb.probs.At(i, col) == pb.probs.At(j, col)
		}
		if same {
			return true
		}
	}
	return false
}
