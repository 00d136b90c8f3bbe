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
	// and sparse regions of the data get comparable weights. When s_i s_j is
	// zero (a point with ScaleNeighbor exact duplicates) the weight is 1 at
	// distance 0 and 0 otherwise.
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
	n, _, err := checkData(op, x)
	if err != nil {
		return nil, err
	}
	if k < 1 || k >= n {
		return nil, newErr(ErrSettings, op, "k = %d must satisfy 1 <= k <= n-1 = %d", k, n-1)
	}
	idx, d2, err := NearestNeighbors(ctx, x, k, o.Method)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, ctxErr(op, err)
	}
	return assembleGraph(n, k, idx, d2, o.Weight, graphScale(n, k, d2, &o), o.Mutual), nil
}

// GraphFromNeighbors builds the graph of KNNGraph from neighbour lists
// found elsewhere (for example by an approximate search): idx[i*k:(i+1)*k]
// are the k neighbours of point i and dist2 their squared distances in
// increasing order, as NearestNeighbors returns them. opt.Method is
// ignored. An index outside [0, n), a self-loop, a negative or non-finite
// distance or lists of the wrong length are errors. Time and memory O(n k).
func GraphFromNeighbors(n, k int, idx []int, dist2 []float64, opt *GraphOptions) (*CSR, error) {
	const op = "GraphFromNeighbors"
	o, err := graphOptions(op, opt)
	if err != nil {
		return nil, err
	}
	if n < 2 || k < 1 || k >= n {
		return nil, newErr(ErrSettings, op, "n = %d, k = %d: want n >= 2 and 1 <= k <= n-1", n, k)
	}
	if len(idx) != n*k || len(dist2) != n*k {
		return nil, newErr(ErrShape, op, "%d indices and %d distances for n*k = %d", len(idx), len(dist2), n*k)
	}
	for i := 0; i < n; i++ {
		for a := i * k; a < (i+1)*k; a++ {
			switch j, d := idx[a], dist2[a]; {
			case j < 0 || j >= n:
				return nil, newErr(ErrSettings, op, "neighbour %d of point %d is %d, outside [0, %d)", a-i*k, i, j, n)
			case j == i:
				return nil, newErr(ErrSettings, op, "point %d is listed as its own neighbour", i)
			case !isFinite(d) || d < 0:
				return nil, newErr(ErrNonFinite, op, "squared distance %v between points %d and %d", d, i, j)
			case a > i*k && d < dist2[a-1]:
				return nil, newErr(ErrSettings, op, "the neighbours of point %d are not sorted by distance", i)
			}
		}
	}
	return assembleGraph(n, k, idx, dist2, o.Weight, graphScale(n, k, dist2, &o), o.Mutual), nil
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

// graphScale returns the per-point scales of the weights: nil for Binary;
// for Heat one value, t; for LocalHeat the distances s_i to the
// ScaleNeighbor-th neighbour.
func graphScale(n, k int, d2 []float64, o *GraphOptions) []float64 {
	switch o.Weight {
	case Heat:
		t := o.T
		if t == 0 {
			var s float64
			for i := 0; i < n; i++ {
				s += d2[i*k+k-1]
			}
			t = s / float64(n)
			if t == 0 {
				t = 1
			}
		}
		return []float64{t}
	case LocalHeat:
		r := min(o.ScaleNeighbor, k)
		s := make([]float64, n)
		for i := range s {
			s[i] = math.Sqrt(d2[i*k+r-1])
		}
		return s
	}
	return nil
}

// edgeWeight is the weight of edge (i, j) at squared distance d.
func edgeWeight(wk GraphWeight, scale []float64, i, j int, d float64) float64 {
	switch wk {
	case Heat:
		return math.Exp(-d / scale[0])
	case LocalHeat:
		if d == 0 {
			return 1
		}
		s := scale[i] * scale[j]
		if s == 0 {
			return 0
		}
		return math.Exp(-d / s)
	}
	return 1
}

type halfEdge struct {
	j int
	d float64
}

// assembleGraph symmetrises the directed kNN relation. Every directed pair
// (i, j) is entered in row i and row j; after sorting a row by column, a
// column that appears twice is a mutual pair.
func assembleGraph(n, k int, idx []int, d2 []float64, wk GraphWeight, scale []float64, mutual bool) *CSR {
	cnt := make([]int, n+1)
	for i := 0; i < n; i++ {
		cnt[i+1] += k
		for _, j := range idx[i*k : (i+1)*k] {
			cnt[j+1]++
		}
	}
	for i := 0; i < n; i++ {
		cnt[i+1] += cnt[i]
	}
	ed := make([]halfEdge, cnt[n])
	next := slices.Clone(cnt[:n])
	for i := 0; i < n; i++ {
		for a, j := range idx[i*k : (i+1)*k] {
			d := d2[i*k+a]
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
				val[w] = edgeWeight(wk, scale, i, row[a].j, row[a].d)
				w++
			}
			a = b
		}
	}
	return &CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: colIdx, Val: val}
}

// LaplacianKind selects the graph Laplacian.
type LaplacianKind int

const (
	// Combinatorial is L = D - W.
	Combinatorial LaplacianKind = iota
	// Normalized is the symmetric normalised Laplacian
	// L = I - D^{-1/2} W D^{-1/2}. The row and column of an isolated vertex
	// (degree 0) are entirely zero, including the diagonal, so the
	// multiplicity of the eigenvalue 0 equals the number of connected
	// components (isolated vertices included) for both kinds.
	Normalized
)

// Degrees returns the row sums d_i = sum_j w_ij of w, nil for a nil w. w
// must be a valid CSR matrix (see CSR.Validate); Degrees may panic on
// inconsistent fields.
func Degrees(w *CSR) []float64 {
	if w == nil {
		return nil
	}
	d := make([]float64, w.Rows)
	for i := range d {
		var s float64
		for _, v := range w.Val[w.RowPtr[i]:w.RowPtr[i+1]] {
			s += v
		}
		d[i] = s
	}
	return d
}

// Laplacian returns the graph Laplacian of the symmetric weight matrix w,
// which must be square, exactly symmetric and have non-negative entries.
// Self-loops are allowed (w_ii enters both D and W and cancels in D - W).
// The result has the pattern of w plus the full diagonal, which is always
// stored.
func Laplacian(w *CSR, kind LaplacianKind) (*CSR, error) {
	const op = "Laplacian"
	if w == nil {
		return nil, newErr(ErrEmpty, op, "weight matrix is nil")
	}
	if kind != Combinatorial && kind != Normalized {
		return nil, newErr(ErrSettings, op, "unknown Laplacian kind %d", kind)
	}
	if err := checkWeights(op, w); err != nil {
		return nil, err
	}
	n := w.Rows
	deg := Degrees(w)
	var isq []float64
	if kind == Normalized {
		isq = make([]float64, n)
		for i, d := range deg {
			if d > 0 {
				isq[i] = 1 / math.Sqrt(d)
			}
		}
	}
	// Count the diagonal entries missing from w.
	extra := 0
	for i := 0; i < n; i++ {
		cols := w.ColIdx[w.RowPtr[i]:w.RowPtr[i+1]]
		if _, ok := slices.BinarySearch(cols, i); !ok {
			extra++
		}
	}
	nnz := w.NNZ() + extra
	rowPtr := make([]int, n+1)
	colIdx := make([]int, 0, nnz)
	val := make([]float64, 0, nnz)
	for i := 0; i < n; i++ {
		diag := deg[i]
		if kind == Normalized {
			diag = 0
			if deg[i] > 0 {
				diag = 1
			}
		}
		placed := false
		for k := w.RowPtr[i]; k < w.RowPtr[i+1]; k++ {
			j, v := w.ColIdx[k], w.Val[k]
			if !placed && j >= i {
				if j == i {
					colIdx = append(colIdx, i)
					if kind == Normalized {
						val = append(val, diag-v*(isq[i]*isq[i]))
					} else {
						val = append(val, diag-v)
					}
					placed = true
					continue
				}
				colIdx = append(colIdx, i)
				val = append(val, diag)
				placed = true
			}
			colIdx = append(colIdx, j)
			if kind == Normalized {
				val = append(val, -v*(isq[i]*isq[j]))
			} else {
				val = append(val, -v)
			}
		}
		if !placed {
			colIdx = append(colIdx, i)
			val = append(val, diag)
		}
		rowPtr[i+1] = len(colIdx)
	}
	return &CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: colIdx, Val: val}, nil
}

// checkWeights validates a weight matrix for Laplacian and
// NormalizedAffinity: a valid, square, exactly symmetric CSR matrix with
// non-negative entries.
func checkWeights(op string, w *CSR) error {
	if err := w.Validate(); err != nil {
		return newErr(ErrShape, op, "invalid weight matrix: %v", err)
	}
	if w.Rows != w.Cols {
		return newErr(ErrShape, op, "weight matrix is %dx%d, not square", w.Rows, w.Cols)
	}
	for k, v := range w.Val {
		if v < 0 {
			return newErr(ErrSettings, op, "weight matrix has a negative entry %v (stored entry %d)", v, k)
		}
	}
	if !w.IsSymmetric() {
		return newErr(ErrSettings, op, "weight matrix is not symmetric")
	}
	return nil
}

// NormalizedAffinity returns S = D^-1/2 W D^-1/2 for the symmetric weight
// matrix w (square, exactly symmetric, non-negative entries), with the
// pattern of w, and the degrees d_i = sum_j w_ij. S = I - L for the
// Normalized Laplacian L: its eigenvalues lie in [-1, 1], the largest is 1
// with multiplicity the number of connected components, and its top
// eigenvectors are the smooth functions on the graph that spectral
// clustering and label spreading (Zhou et al., 2004) use. The row and
// column of an isolated vertex are zero. Time and memory O(nnz(w)).
func NormalizedAffinity(w *CSR) (s *CSR, deg []float64, err error) {
	const op = "NormalizedAffinity"
	if w == nil {
		return nil, nil, newErr(ErrEmpty, op, "weight matrix is nil")
	}
	if err := checkWeights(op, w); err != nil {
		return nil, nil, err
	}
	deg = Degrees(w)
	isq := make([]float64, len(deg))
	for i, d := range deg {
		if d > 0 {
			isq[i] = 1 / math.Sqrt(d)
		}
	}
	val := make([]float64, len(w.Val))
	for i := 0; i < w.Rows; i++ {
		for k := w.RowPtr[i]; k < w.RowPtr[i+1]; k++ {
			val[k] = w.Val[k] * (isq[i] * isq[w.ColIdx[k]])
		}
	}
	s = &CSR{Rows: w.Rows, Cols: w.Cols, RowPtr: slices.Clone(w.RowPtr), ColIdx: slices.Clone(w.ColIdx), Val: val}
	return s, deg, nil
}

// Components returns the number of connected components of the graph whose
// edges are the non-zero stored entries of w, and the component label of
// every vertex (labels 0..count-1, numbered in order of each component's
// smallest vertex). Edge directions are ignored, so for a non-symmetric w
// these are the weakly connected components. A nil w has no components.
// w must be a valid (see CSR.Validate) square matrix; Components panics
// otherwise (a programmer error).
func Components(w *CSR) (count int, label []int) {
	if w == nil {
		return 0, nil
	}
	if w.Rows != w.Cols {
		panic("linalg: Components: weight matrix is not square")
	}
	n := w.Rows
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := 0; i < n; i++ {
		for k := w.RowPtr[i]; k < w.RowPtr[i+1]; k++ {
			if w.Val[k] == 0 {
				continue
			}
			a, b := find(i), find(w.ColIdx[k])
			if a != b {
				if a < b {
					parent[b] = a
				} else {
					parent[a] = b
				}
			}
		}
	}
	label = make([]int, n)
	rootLabel := make([]int, n)
	for i := range rootLabel {
		rootLabel[i] = -1
	}
	for i := 0; i < n; i++ {
		r := find(i)
		if rootLabel[r] < 0 {
			rootLabel[r] = count
			count++
		}
		label[i] = rootLabel[r]
	}
	return count, label
}
