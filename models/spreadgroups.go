package models

import (
	"hash/maphash"
	"slices"

	"ukm/linalg"
)

// Copies of a row listen to the same points (the neighbour lists keep
// every point tied with the k-th, and copies are all tied), so a group of
// m copies makes about m² entries of the Spread graph, and label
// spreading's iteration would spend most of its time there: a clique of 241
// copies is 58,000 of flare-solar's 110,000 entries. The graph's weights
// are products, entry (i, j) = c_i c_j with c_i = 1/sqrt(din_i), so rows
// that list the same points share one sum, Σ_j c_j f_j, up to their own
// factor c_i: spreadScores sums each group once per step.

// copyGroup is a set of rows of the Spread graph that list the same
// points: either each the others and the same further points (closed: the
// row plus its own index is set), or exactly set (open).
type copyGroup struct {
	members []int // ascending
	set     []int // ascending
	pos     []int // closed: the position of each member in set
	closed  bool
}

// spreadGroups are the copy groups of a Spread graph with the factors of
// its weights.
type spreadGroups struct {
	scale  []float64 // c_i: entry (i, j) of the graph is c_i c_j
	groups []copyGroup
}

// copyGroups finds the rows of s (rows of more than one entry) that list
// the same points, closed groups first: candidates share a hash, and every
// group is verified. A row in no group of two or more is summed through its
// own row. O(nnz) expected time.
func copyGroups(s *linalg.CSR, scale []float64) *spreadGroups {
	seed := maphash.MakeSeed()
	key := func(i int, closed bool) uint64 {
		var h maphash.Hash
		h.SetSeed(seed)
		maphash.WriteComparable(&h, closed)
		self := !closed
		for _, j := range s.ColIdx[s.RowPtr[i]:s.RowPtr[i+1]] {
			if !self && j > i {
				maphash.WriteComparable(&h, i)
				self = true
			}
			maphash.WriteComparable(&h, j)
		}
		if !self {
			maphash.WriteComparable(&h, i)
		}
		return h.Sum64()
	}
	grouped := make([]bool, s.Rows)
	out := &spreadGroups{scale: scale}
	for _, closed := range []bool{true, false} {
		buckets := map[uint64][]int{}
		for i := 0; i < s.Rows; i++ {
			if !grouped[i] && s.RowPtr[i+1]-s.RowPtr[i] > 1 {
				k := key(i, closed)
				buckets[k] = append(buckets[k], i)
			}
		}
		for _, rows := range buckets {
			for _, g := range splitSame(s, rows, closed) {
				for _, i := range g.members {
					grouped[i] = true
				}
				out.groups = append(out.groups, g)
			}
		}
	}
	slices.SortFunc(out.groups, func(a, b copyGroup) int { return a.members[0] - b.members[0] })
	return out
}

// splitSame returns the groups of two or more rows (ascending) of a
// bucket whose sets are equal.
func splitSame(s *linalg.CSR, rows []int, closed bool) []copyGroup {
	if len(rows) < 2 {
		return nil
	}
	setOf := func(i int) []int {
		l := s.ColIdx[s.RowPtr[i]:s.RowPtr[i+1]]
		if !closed {
			return l
		}
		at, _ := slices.BinarySearch(l, i)
		return slices.Insert(slices.Clone(l), at, i)
	}
	var out []copyGroup
	left := slices.Clone(rows)
	for len(left) >= 2 {
		set := setOf(left[0])
		g := copyGroup{set: slices.Clone(set), closed: closed}
		var rest []int
		for _, i := range left {
			if slices.Equal(setOf(i), set) {
				g.members = append(g.members, i)
			} else {
				rest = append(rest, i)
			}
		}
		if len(g.members) >= 2 {
			slices.Sort(g.members)
			if closed {
				for _, i := range g.members {
					p, _ := slices.BinarySearch(g.set, i)
					g.pos = append(g.pos, p)
				}
			}
			out = append(out, g)
		}
		left = rest
	}
	return out
}

// spreadGroup sets the rows of the members of g in next to one step of the
// iteration from f (rows of classes scores; y the labels' rows; c the
// weights' factors) and reports whether one changed by more than spreadTol
// of its largest score (see rowChanged). A closed group's member excludes
// itself from the sum as a prefix plus a suffix sum, so that every term
// stays non-negative and the sums keep their relative accuracy. work holds (2 len(set) + 2) classes
// values.
func spreadGroup(g copyGroup, c []float64, alpha float64, y, f, next, work []float64, classes int) bool {
	q := len(g.set)
	pre := work[:(q+1)*classes] // pre[t]: the terms of set[:t]; pre[q] the whole sum
	clear(pre[:classes])
	for t, j := range g.set {
		for k := 0; k < classes; k++ {
			pre[(t+1)*classes+k] = pre[t*classes+k] + c[j]*f[j*classes+k]
		}
	}
	var suf []float64 // suf[t]: the terms of set[t:]
	if g.closed {
		suf = work[(q+1)*classes : (2*q+2)*classes]
		clear(suf[q*classes:])
		for t := q - 1; t >= 0; t-- {
			j := g.set[t]
			for k := 0; k < classes; k++ {
				suf[t*classes+k] = suf[(t+1)*classes+k] + c[j]*f[j*classes+k]
			}
		}
	}
	changed := false
	for a, i := range g.members {
		row := next[i*classes : (i+1)*classes]
		w := alpha * c[i]
		for k := range row {
			sum := pre[q*classes+k]
			if g.closed {
				p := g.pos[a]
				sum = pre[p*classes+k] + suf[(p+1)*classes+k]
			}
			row[k] = y[i*classes+k] + w*sum
		}
		if !changed {
			changed = rowChanged(row, f[i*classes:(i+1)*classes])
		}
	}
	return changed
}
