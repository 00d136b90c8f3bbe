package models

import (
	"hash/maphash"
	"slices"

	"ukm/linalg"
)

// Copies of a row listen to each other and to the same other points with
// the same weights (the neighbour lists keep every point tied with the
// k-th, and the copies are all tied). A group of m copies makes m² entries
// of the Spread graph, and label spreading's iteration would spend most of
// its time there: a clique of 241 copies is 58,000 of flare-solar's 110,000
// entries. spreadScores instead sums each group's scores once per step.

// copyGroup is a set of rows of the Spread graph S whose closed rows
// (the row plus its own index) are the same set, every entry between two
// of them of one weight w, and the rest of their rows (ext, extW) the same
// columns with the same weights.
type copyGroup struct {
	members []int // ascending
	w       float64
	ext     []int
	extW    []float64
}

// copyGroups finds the copy groups of at least three rows in s; a row in
// none is summed through its own row. Candidates share a hash of their
// closed row; every group is verified entry by entry, so a collision or a
// row that differs costs nothing but the check. O(nnz) expected time.
func copyGroups(s *linalg.CSR) []copyGroup {
	seed := maphash.MakeSeed()
	byHash := map[uint64][]int{}
	var h maphash.Hash
	for i := 0; i < s.Rows; i++ {
		h.SetSeed(seed)
		cols := s.ColIdx[s.RowPtr[i]:s.RowPtr[i+1]]
		if len(cols) < 2 {
			continue
		}
		self := false
		for _, j := range cols {
			if !self && j > i {
				maphash.WriteComparable(&h, i)
				self = true
			}
			maphash.WriteComparable(&h, j)
		}
		if !self {
			maphash.WriteComparable(&h, i)
		}
		byHash[h.Sum64()] = append(byHash[h.Sum64()], i)
	}
	var groups []copyGroup
	for _, rows := range byHash {
		if len(rows) < 3 {
			continue
		}
		slices.Sort(rows)
		if g, ok := verifyGroup(s, rows); ok {
			groups = append(groups, g)
		}
	}
	slices.SortFunc(groups, func(a, b copyGroup) int { return a.members[0] - b.members[0] })
	return groups
}

// verifyGroup checks that rows (ascending) form a copy group of s and
// returns it.
func verifyGroup(s *linalg.CSR, rows []int) (copyGroup, bool) {
	g := copyGroup{members: rows, w: -1}
	in := func(j int) bool { _, ok := slices.BinarySearch(rows, j); return ok }
	for t, i := range rows {
		var ext int
		for k := s.RowPtr[i]; k < s.RowPtr[i+1]; k++ {
			j, v := s.ColIdx[k], s.Val[k]
			switch {
			case j == i:
				return copyGroup{}, false
			case in(j):
				if g.w < 0 {
					g.w = v
				}
				if v != g.w {
					return copyGroup{}, false
				}
			case t == 0:
				g.ext = append(g.ext, j)
				g.extW = append(g.extW, v)
			default:
				if ext >= len(g.ext) || g.ext[ext] != j || g.extW[ext] != v {
					return copyGroup{}, false
				}
				ext++
			}
		}
		if s.RowPtr[i+1]-s.RowPtr[i] != len(rows)-1+len(g.ext) || (t > 0 && ext != len(g.ext)) {
			return copyGroup{}, false
		}
	}
	return g, g.w >= 0
}
