package models

import (
	"math/rand/v2"
	"slices"
	"testing"

	"ukm/dataset"
)

// circles returns the two-circles set, failing the test on error.
func circles(tb testing.TB, perClass int, noise float64, seed uint64) *dataset.Set {
	tb.Helper()
	s, err := dataset.TwoCircles(perClass, noise, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// pickLabeled draws l labeled points at random with every class present
// (KDD'06 section 6.1): one random point of each class, then the rest
// uniformly. It returns the indices (ascending), their labels and the
// remaining (unlabeled) indices.
func pickLabeled(y []int, l int, seed uint64) (lab, ys, unl []int) {
	rng := rand.New(rand.NewPCG(seed, 77))
	n := len(y)
	perm := rng.Perm(n)
	classes := slices.Max(y) + 1
	taken := make([]bool, n)
	for c := 0; c < classes; c++ {
		for _, i := range perm {
			if y[i] == c {
				taken[i] = true
				lab = append(lab, i)
				break
			}
		}
	}
	for _, i := range perm {
		if len(lab) == l {
			break
		}
		if !taken[i] {
			taken[i] = true
			lab = append(lab, i)
		}
	}
	slices.Sort(lab)
	for _, i := range lab {
		ys = append(ys, y[i])
	}
	for i := 0; i < n; i++ {
		if !taken[i] {
			unl = append(unl, i)
		}
	}
	return lab, ys, unl
}

// accuracy returns the fraction of pred equal to the truth of idx.
func accuracy(pred, idx, y []int) float64 {
	right := 0
	for a, i := range idx {
		if pred[a] == y[i] {
			right++
		}
	}
	return float64(right) / float64(len(idx))
}

// sortedLabeled returns the labeled rows idx in increasing order with their
// labels.
func sortedLabeled(idx, labels []int) (sidx, slabels []int) {
	order := make([]int, len(idx))
	for a := range order {
		order[a] = a
	}
	slices.SortFunc(order, func(a, b int) int { return idx[a] - idx[b] })
	sidx, slabels = make([]int, len(order)), make([]int, len(order))
	for a, b := range order {
		sidx[a], slabels[a] = idx[b], labels[b]
	}
	return sidx, slabels
}
