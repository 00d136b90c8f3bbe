package linalg

import (
	"context"
	"sort"
)

// BandwidthOrder returns a reverse Cuthill-McKee ordering of the square
// sparse matrix a (its pattern read as an undirected graph): perm[new] =
// old. Each connected component is walked breadth-first from a node of
// smallest degree, neighbours in order of increasing degree, and the whole
// order is reversed. Rows that are neighbours in the graph end up close
// together, so a product with the permuted matrix reads the vector from
// nearby memory instead of from random places: on a kNN graph over points
// stored in an arbitrary order that is most of the product's time. O(nnz
// log) time, O(n) memory beyond the result. a must be square and valid.
func BandwidthOrder(a *CSR) []int {
	n := a.Rows
	deg := make([]int, n)
	for i := range deg {
		deg[i] = a.RowPtr[i+1] - a.RowPtr[i]
	}
	// Start nodes: in order of increasing degree (ties by index), so each
	// component starts at a node of smallest degree.
	starts := make([]int, n)
	for i := range starts {
		starts[i] = i
	}
	sort.SliceStable(starts, func(x, y int) bool { return deg[starts[x]] < deg[starts[y]] })
	seen := make([]bool, n)
	perm := make([]int, 0, n)
	var nb []int
	for _, s := range starts {
		if seen[s] {
			continue
		}
		seen[s] = true
		head := len(perm)
		perm = append(perm, s)
		for head < len(perm) {
			v := perm[head]
			head++
			nb = nb[:0]
			for _, j := range a.ColIdx[a.RowPtr[v]:a.RowPtr[v+1]] {
				if !seen[j] {
					seen[j] = true
					nb = append(nb, j)
				}
			}
			sort.Slice(nb, func(x, y int) bool {
				if deg[nb[x]] != deg[nb[y]] {
					return deg[nb[x]] < deg[nb[y]]
				}
				return nb[x] < nb[y]
			})
			perm = append(perm, nb...)
		}
	}
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		perm[i], perm[j] = perm[j], perm[i]
	}
	return perm
}

// PermuteSym returns P A Pᵀ for the permutation perm (perm[new] = old): entry
// (i, j) of the result is a(perm[i], perm[j]). a must be square and valid
// and perm a permutation of 0..n-1. Column indices stay sorted within rows.
func PermuteSym(a *CSR, perm []int) *CSR {
	n := a.Rows
	inv := make([]int, n)
	for i, p := range perm {
		inv[p] = i
	}
	out := &CSR{Rows: n, Cols: n, RowPtr: make([]int, n+1), ColIdx: make([]int, a.NNZ()), Val: make([]float64, a.NNZ())}
	for i, p := range perm {
		out.RowPtr[i+1] = out.RowPtr[i] + a.RowPtr[p+1] - a.RowPtr[p]
	}
	_ = parallelFor(context.Background(), n, 4096, noState, func(_ struct{}, lo, hi int) {
		for i := lo; i < hi; i++ {
			p := perm[i]
			src := a.RowPtr[p]
			ci := out.ColIdx[out.RowPtr[i]:out.RowPtr[i+1]]
			cv := out.Val[out.RowPtr[i]:out.RowPtr[i+1]]
			for t := range ci {
				ci[t] = inv[a.ColIdx[src+t]]
				cv[t] = a.Val[src+t]
			}
			sort.Sort(rowSorter{c: ci, v: cv})
		}
	})
	return out
}
