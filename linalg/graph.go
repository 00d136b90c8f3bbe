package linalg

import (
	"cmp"
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// GraphWeight selects the edge weights of a k-nearest-neighbour graph.
type GraphWeight int

const (
	// Binary gives every edge weight 1.
	Binary GraphWeight = iota
	// Heat gives edge (i, j) the weight exp(-||xi-xj||^2 / t).
	Heat
	// LocalHeat gives edge (i, j) the weight exp(-||xi-xj||^2 / (s_i s_j)),
	// where s_i is the distance from x_i to its ScaleNeighbor-th nearest
	// neighbour (the local scaling of Zelnik-Manor and Perona, 2004): dense
	// and sparse regions of the data get comparable weights. When s_i or s_j
	// is zero (a point with ScaleNeighbor exact duplicates) the weight is 1
	// at distance 0 and 0 otherwise; a product s_i s_j that underflows is
	// not taken for zero.
	LocalHeat
)

// DefaultScaleNeighbor is the neighbour whose distance sets a point's local
// scale for LocalHeat weights when GraphOptions.ScaleNeighbor is zero (the
// value Zelnik-Manor and Perona recommend).
const DefaultScaleNeighbor = 7

// GraphOptions configures KNNGraph. The zero value gives an unweighted
// (Binary) symmetric kNN graph built with the automatic search method.
type GraphOptions struct {
	// Weight selects binary or heat-kernel weights.
	Weight GraphWeight
	// T is the heat-kernel width t (used only with Heat). Zero means the
	// mean, over all points, of the squared distance to the k-th nearest
	// neighbour (or 1 if that mean is 0, which happens only when every
	// point has k exact duplicates; then all weights are 1 anyway).
	T float64
	// ScaleNeighbor is the neighbour rank s (1-based) whose distance is a
	// point's local scale for LocalHeat weights; zero means
	// DefaultScaleNeighbor. Values above k are capped at k. Ignored by the
	// other weights.
	ScaleNeighbor int
	// Mutual selects the edge rule. false (the default): i ~ j if either is
	// among the other's k nearest neighbours, so every vertex has at least
	// k neighbours. true: i ~ j only if each is among the other's k
	// nearest; vertices may then become isolated.
	Mutual bool
	// Method selects the exact search algorithm; the zero value KNNAuto
	// picks a k-d tree in low dimension and brute force otherwise.
	Method KNNMethod
}

// KNNGraph returns the symmetric k-nearest-neighbour graph of the rows of x
// as a sparse weight matrix W with zero diagonal. The neighbour search is
// exact with ties broken by index (see NearestNeighbors), so the graph is
// deterministic; duplicate points are neighbours at distance 0. With Heat
// weights, an edge whose weight underflows to 0 is still stored (the
// pattern is the kNN relation) but counts as absent in Components.
//
// Data of any finite magnitude give the correct graph: the neighbours and
// the weights are computed on the data scaled by an exact power of two
// when the entries are beyond about 1e150 or below about 1e-30 (see
// NearestNeighbors), so squared distances that overflow or underflow
// float64 do not matter here; the Heat width T, when given, is compared
// with the true squared distances.
//
// opt may be nil for the defaults. k must satisfy 1 <= k <= n-1. The
// memory used is O(n k); no n x n matrix is formed.
func KNNGraph(ctx context.Context, x *mat.Dense, k int, opt *GraphOptions) (*CSR, error) {
	const op = "KNNGraph"
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	o, err := graphOptions(op, opt)
	if err != nil {
		return nil, err
	}
	n, p, maxAbs, err := checkDataMax(op, x)
	if err != nil {
		return nil, err
	}
	if k < 1 || k >= n {
		return nil, newErr(ErrSettings, op, "k = %d must satisfy 1 <= k <= n-1 = %d", k, n-1)
	}
	mode, err := searchMode(op, o.Method, n, p, k)
	if err != nil {
		return nil, err
	}
	idx, d2, e2, err := knnSearch(ctx, x, maxAbs, k, mode, ApproxOptions{})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, ctxErr(op, err)
	}
	ptr := fixedPtr(n, k)
	return assembleGraph(n, ptr, idx, d2, graphRule(n, k, ptr, d2, e2, &o), o.Mutual), nil
}

// fixedPtr returns the list offsets of k neighbours per point: i*k.
func fixedPtr(n, k int) []int {
	ptr := make([]int, n+1)
	for i := range ptr {
		ptr[i] = i * k
	}
	return ptr
}

// GraphFromNeighbors builds the graph of KNNGraph from neighbour lists
// found elsewhere (for example by an approximate search): idx[i*k:(i+1)*k]
// are the k neighbours of point i and dist2 their squared distances in
// increasing order, as NearestNeighbors returns them. opt.Method is
// ignored. An index outside [0, n), a self-loop, a negative or non-finite
// distance or lists of the wrong length are errors. Distances of any
// finite magnitude, subnormal ones included, give weights as accurate as
// the distances themselves: the weights are computed on the distances
// multiplied by an exact power of two when the largest is beyond about
// 1e270 or below about 1e-270. Time and memory O(n k).
func GraphFromNeighbors(n, k int, idx []int, dist2 []float64, opt *GraphOptions) (*CSR, error) {
	const op = "GraphFromNeighbors"
	if n < 2 || k < 1 || k >= n {
		return nil, newErr(ErrSettings, op, "n = %d, k = %d: want n >= 2 and 1 <= k <= n-1", n, k)
	}
	if len(idx) != n*k || len(dist2) != n*k {
		return nil, newErr(ErrShape, op, "%d indices and %d distances for n*k = %d", len(idx), len(dist2), n*k)
	}
	return graphFromLists(op, n, k, fixedPtr(n, k), idx, dist2, opt)
}

// GraphFromNeighborLists is GraphFromNeighbors for lists of varying length,
// as TiedNeighbors returns them: the neighbours of point i are
// idx[ptr[i]:ptr[i+1]], at least k of them, with squared distances
// dist2[ptr[i]:ptr[i+1]] in increasing order. k is the rank whose distance
// sets the Heat width and bounds ScaleNeighbor. Time and memory
// O(len(idx)).
func GraphFromNeighborLists(n, k int, ptr, idx []int, dist2 []float64, opt *GraphOptions) (*CSR, error) {
	const op = "GraphFromNeighborLists"
	if n < 2 || k < 1 || k >= n {
		return nil, newErr(ErrSettings, op, "n = %d, k = %d: want n >= 2 and 1 <= k <= n-1", n, k)
	}
	if len(ptr) != n+1 || ptr[0] != 0 || ptr[n] != len(idx) || len(dist2) != len(idx) {
		return nil, newErr(ErrShape, op, "%d offsets, %d indices and %d distances for %d points", len(ptr), len(idx), len(dist2), n)
	}
	for i := 0; i < n; i++ {
		if ptr[i+1]-ptr[i] < k {
			return nil, newErr(ErrShape, op, "point %d has %d neighbours, fewer than k = %d", i, ptr[i+1]-ptr[i], k)
		}
	}
	return graphFromLists(op, n, k, ptr, idx, dist2, opt)
}

// graphFromLists validates the lists (whose offsets are consistent) and
// builds the graph.
func graphFromLists(op string, n, k int, ptr, idx []int, dist2 []float64, opt *GraphOptions) (*CSR, error) {
	o, err := graphOptions(op, opt)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		for a := ptr[i]; a < ptr[i+1]; a++ {
			switch j, d := idx[a], dist2[a]; {
			case j < 0 || j >= n:
				return nil, newErr(ErrSettings, op, "neighbour %d of point %d is %d, outside [0, %d)", a-ptr[i], i, j, n)
			case j == i:
				return nil, newErr(ErrSettings, op, "point %d is listed as its own neighbour", i)
			case !isFinite(d) || d < 0:
				return nil, newErr(ErrNonFinite, op, "squared distance %v between points %d and %d", d, i, j)
			case a > ptr[i] && d < dist2[a-1]:
				return nil, newErr(ErrSettings, op, "the neighbours of point %d are not sorted by distance", i)
			}
		}
	}
	// Squared distances near the ends of the float64 range are scaled
	// (exactly) so that their mean does not overflow and their ratios keep
	// their precision.
	e2 := 0
	if o.Weight != Binary {
		if m := maxAbsOf(dist2); m != 0 && (m < 0x1p-900 || m > 0x1p900) {
			_, e2 = math.Frexp(m)
			e2 = max(e2, -1022)
			dist2 = scaledSlice(dist2, e2)
		}
	}
	return assembleGraph(n, ptr, idx, dist2, graphRule(n, k, ptr, dist2, e2, &o), o.Mutual), nil
}

// scaledSlice returns v multiplied by 2^-e (a power of two that is a
// float64).
func scaledSlice(v []float64, e int) []float64 {
	f := math.Ldexp(1, -e)
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x * f
	}
	return out
}

// graphOptions validates opt and returns a copy with defaults filled in.
func graphOptions(op string, opt *GraphOptions) (GraphOptions, error) {
	var o GraphOptions
	if opt != nil {
		o = *opt
	}
	if o.Weight != Binary && o.Weight != Heat && o.Weight != LocalHeat {
		return o, newErr(ErrSettings, op, "unknown weight kind %d", o.Weight)
	}
	if math.IsNaN(o.T) || math.IsInf(o.T, 0) || o.T < 0 {
		return o, newErr(ErrSettings, op, "heat width T = %v must be finite and >= 0", o.T)
	}
	if o.ScaleNeighbor < 0 {
		return o, newErr(ErrSettings, op, "scale neighbour %d is negative", o.ScaleNeighbor)
	}
	if o.ScaleNeighbor == 0 {
		o.ScaleNeighbor = DefaultScaleNeighbor
	}
	return o, nil
}

// weightRule is what edgeWeight needs: the kind; for Heat the width t and
// a power of two, the weight being exp(-(d/t) 2^shift) for the stored
// squared distance d; for LocalHeat the local scales s_i.
type weightRule struct {
	kind  GraphWeight
	t     float64
	shift int
	s     []float64
}

// graphRule returns the weight rule of o for the squared distances d2 of
// the lists ptr (at least k per point), which are the true ones divided by
// 2^e2.
func graphRule(n, k int, ptr []int, d2 []float64, e2 int, o *GraphOptions) weightRule {
	r := weightRule{kind: o.Weight}
	switch o.Weight {
	case Heat:
		if o.T > 0 {
			// d 2^e2 / T, with T = tm 2^te and tm in [0.5, 1).
			r.t = o.T
			if e2 != 0 {
				tm, te := math.Frexp(o.T)
				r.t, r.shift = tm, e2-te
			}
			return r
		}
		// The mean of the k-th squared distances; the ratio d / t is the
		// same for the stored and the true distances.
		var s float64
		for i := 0; i < n; i++ {
			s += d2[ptr[i]+k-1]
		}
		if math.IsInf(s, 1) {
			s = 0
			for i := 0; i < n; i++ {
				s += d2[ptr[i]+k-1] / float64(n)
			}
			r.t = s
		} else {
			r.t = s / float64(n)
		}
		if r.t == 0 {
			r.t = 1
		}
	case LocalHeat:
		m := min(o.ScaleNeighbor, k)
		r.s = make([]float64, n)
		for i := range r.s {
			r.s[i] = math.Sqrt(d2[ptr[i]+m-1])
		}
	}
	return r
}

// edgeWeight is the weight of edge (i, j) at stored squared distance d.
func (r *weightRule) edgeWeight(i, j int, d float64) float64 {
	switch r.kind {
	case Heat:
		if r.shift != 0 {
			return math.Exp(-math.Ldexp(d/r.t, r.shift))
		}
		return math.Exp(-d / r.t)
	case LocalHeat:
		if d == 0 {
			return 1
		}
		si, sj := r.s[i], r.s[j]
		s := si * sj
		if s >= 0x1p-1022 {
			return math.Exp(-d / s)
		}
		if si == 0 || sj == 0 {
			return 0
		}
		// s_i s_j underflows although neither is 0.
		return math.Exp(-(d / si) / sj)
	}
	return 1
}

type halfEdge struct {
	j int
	d float64
}

// assembleGraph symmetrises the directed kNN relation given as lists (the
// neighbours of i are idx[ptr[i]:ptr[i+1]]). Every directed pair (i, j) is
// entered in row i and row j; after sorting a row by column, a column that
// appears twice is a mutual pair.
func assembleGraph(n int, ptr, idx []int, d2 []float64, rule weightRule, mutual bool) *CSR {
	cnt := make([]int, n+1)
	for i := 0; i < n; i++ {
		cnt[i+1] += ptr[i+1] - ptr[i]
		for _, j := range idx[ptr[i]:ptr[i+1]] {
			cnt[j+1]++
		}
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	ed := make([]halfEdge, cnt[n])
	next := slices.Clone(cnt[:n])
	for i := 0; i < n; i++ {
		for a := ptr[i]; a < ptr[i+1]; a++ {
			j, d := idx[a], d2[a]
			ed[next[i]] = halfEdge{j, d}
			next[i]++
			ed[next[j]] = halfEdge{i, d}
			next[j]++
		}
	}
	byCol := func(a, b halfEdge) int { return cmp.Compare(a.j, b.j) }
	rowPtr := make([]int, n+1)
	nnz := 0
	for i := 0; i < n; i++ {
		row := ed[cnt[i]:cnt[i+1]]
		slices.SortFunc(row, byCol)
		for a := 0; a < len(row); {
			b := a + 1
			for b < len(row) && row[b].j == row[a].j {
				b++
			}
			if !mutual || b-a >= 2 {
				nnz++
			}
			a = b
		}
		rowPtr[i+1] = nnz
	}
	colIdx := make([]int, nnz)
	val := make([]float64, nnz)
	w := 0
	for i := 0; i < n; i++ {
		row := ed[cnt[i]:cnt[i+1]]
		for a := 0; a < len(row); {
			b := a + 1
			for b < len(row) && row[b].j == row[a].j {
				b++
			}
			if !mutual || b-a >= 2 {
				colIdx[w] = row[a].j
				val[w] = rule.edgeWeight(i, row[a].j, row[a].d)
				w++
			}
			a = b
		}
	}
	return &CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
}
