package linalg

import (
	"cmp"
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Among equidistant points, k nearest neighbours are not defined: the
// search takes the lower indices, so the graph of data with copies of a row
// (categorical data often have hundreds) depends on the order of the rows.
// TiedNeighbors keeps every point as near as the k-th, which depends on the
// points alone.

// TieRelTol is the relative difference below which two squared distances
// count as equal in TiedNeighbors: far above the rounding of a distance
// (and of the scaling of the data, which moves equal distances apart by a
// few units in the last place), far below the differences of distinct
// distances in data.
const TieRelTol = 1e-12

// MaxTies caps the neighbours a list of TiedNeighbors takes beyond the k
// nearest (the lower indices win past it), so that a row with very many
// copies cannot make the lists quadratic in n.
const MaxTies = 256

// TieBound returns the largest squared distance tied with d (d times
// 1 + TieRelTol): the one definition of a tie for TiedNeighbors, TrimTies
// and a caller placing new points.
func TieBound(d float64) float64 { return d + d*TieRelTol }

// TiedNeighbors returns, for every row i of x, its neighbour list: the
// other rows whose squared distance to it is at most the k-th smallest
// times 1 + TieRelTol (its k nearest and every row tied with the k-th, at
// most MaxTies beyond the k), sorted by distance then index, as lists of
// varying length: the neighbours of row i are idx[ptr[i]:ptr[i+1]] with
// squared distances dist2[ptr[i]:ptr[i+1]]. The lists do not depend on the
// order of the rows (up to the cap), unlike NearestNeighbors', whose ties
// go to the lower index. A row without ties gets NearestNeighbors' list.
//
// method must be an exact one (KNNAuto, KNNTree or KNNBrute); the search
// runs for k+1 neighbours, and a row whose (k+1)-th is tied with its k-th
// is compared with every other row, O(n p) for each such row. Errors as for
// NearestNeighbors.
func TiedNeighbors(ctx context.Context, x *mat.Dense, k int, method KNNMethod) (ptr, idx []int, dist2 []float64, err error) {
	const op = "TiedNeighbors"
	if err := checkCtx(op, ctx); err != nil {
		return nil, nil, nil, err
	}
	n, p, maxAbs, err := checkDataMax(op, x)
	if err != nil {
		return nil, nil, nil, err
	}
	if k < 1 || k >= n {
		return nil, nil, nil, newErr(ErrSettings, op, "k = %d must satisfy 1 <= k <= n-1 = %d", k, n-1)
	}
	if method == KNNApprox {
		return nil, nil, nil, newErr(ErrSettings, op, "ties need an exact search, not KNNApprox")
	}
	kk := min(k+1, n-1)
	mode, err := searchMode(op, method, n, p, kk)
	if err != nil {
		return nil, nil, nil, err
	}
	id1, d1, e2, err := knnSearch(ctx, x, maxAbs, kk, mode, ApproxOptions{})
	if err != nil {
		return nil, nil, nil, ctxErr(op, err)
	}
	// Rows whose (k+1)-th neighbour ties with the k-th.
	var tied []int
	if kk > k {
		for i := 0; i < n; i++ {
			if d1[i*kk+k] <= TieBound(d1[i*kk+k-1]) {
				tied = append(tied, i)
			}
		}
	}
	lists := make([][]halfEdge, len(tied))
	if len(tied) > 0 {
		xs := x
		if e2 != 0 {
			xs = scaledCopy(x, e2/2) // the data knnSearch searched
		}
		raw := xs.RawMatrix()
		row := func(i int) []float64 { return raw.Data[i*raw.Stride : i*raw.Stride+p] }
		err = parallelFor(ctx, len(tied), 1, noState, func(_ struct{}, lo, hi int) {
			for t := lo; t < hi; t++ {
				i := tied[t]
				bound := TieBound(d1[i*kk+k-1])
				var l []halfEdge
				xi := row(i)
				for j := 0; j < n; j++ {
					if j == i {
						continue
					}
					if d := sqDist(xi, row(j)); d <= bound {
						l = append(l, halfEdge{j, d})
					}
				}
				slices.SortFunc(l, func(a, b halfEdge) int {
					if c := cmp.Compare(a.d, b.d); c != 0 {
						return c
					}
					return cmp.Compare(a.j, b.j)
				})
				lists[t] = l[:min(len(l), k+MaxTies)]
			}
		})
		if err != nil {
			return nil, nil, nil, ctxErr(op, err)
		}
	}
	ptr = make([]int, n+1)
	t := 0
	for i := 0; i < n; i++ {
		m := k
		if t < len(tied) && tied[t] == i {
			m = len(lists[t])
			t++
		}
		ptr[i+1] = ptr[i] + m
	}
	idx = make([]int, ptr[n])
	dist2 = make([]float64, ptr[n])
	t = 0
	for i := 0; i < n; i++ {
		if t < len(tied) && tied[t] == i {
			for a, h := range lists[t] {
				idx[ptr[i]+a], dist2[ptr[i]+a] = h.j, h.d
			}
			t++
			continue
		}
		copy(idx[ptr[i]:ptr[i+1]], id1[i*kk:])
		copy(dist2[ptr[i]:ptr[i+1]], d1[i*kk:])
	}
	if e2 != 0 {
		for a, v := range dist2 {
			if dist2[a] = math.Ldexp(v, e2); math.IsInf(dist2[a], 1) {
				return nil, nil, nil, newErr(ErrDegenerate, op,
					"a squared distance overflows float64 (entries up to %.3g); scale the data down", maxAbs)
			}
		}
	}
	return ptr, idx, dist2, nil
}

// TrimTies returns the lists TiedNeighbors gives for k from its lists for
// a larger k (or from any lists that hold, for every point, all of those):
// the prefix of each list within the tie bound of its k-th distance, at
// most k + MaxTies long. A list shorter than k is an error of kind
// ErrShape.
func TrimTies(ptr, idx []int, dist2 []float64, k int) (tptr, tidx []int, tdist2 []float64, err error) {
	const op = "TrimTies"
	n := len(ptr) - 1
	if n < 1 || k < 1 || ptr[0] != 0 || ptr[n] != len(idx) || len(dist2) != len(idx) {
		return nil, nil, nil, newErr(ErrShape, op, "%d offsets, %d indices, %d distances, k = %d", len(ptr), len(idx), len(dist2), k)
	}
	tptr = make([]int, n+1)
	for i := 0; i < n; i++ {
		l := dist2[ptr[i]:ptr[i+1]]
		if len(l) < k {
			return nil, nil, nil, newErr(ErrShape, op, "point %d has %d neighbours, fewer than k = %d", i, len(l), k)
		}
		m, bound := k, TieBound(l[k-1])
		for m < len(l) && m < k+MaxTies && l[m] <= bound {
			m++
		}
		tptr[i+1] = tptr[i] + m
	}
	tidx = make([]int, tptr[n])
	tdist2 = make([]float64, tptr[n])
	for i := 0; i < n; i++ {
		copy(tidx[tptr[i]:tptr[i+1]], idx[ptr[i]:])
		copy(tdist2[tptr[i]:tptr[i+1]], dist2[ptr[i]:])
	}
	return tptr, tidx, tdist2, nil
}
