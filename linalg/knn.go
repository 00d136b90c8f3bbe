package linalg

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// KNNMethod selects the exact nearest-neighbour search algorithm.
type KNNMethod int

const (
	// KNNAuto uses the k-d tree for at most MaxTreeDim features and the
	// blocked brute force otherwise.
	KNNAuto KNNMethod = iota
	// KNNTree forces the k-d tree.
	KNNTree
	// KNNBrute forces the blocked brute force.
	KNNBrute
	// KNNApprox runs the approximate search ApproxNearestNeighbors with
	// default options (seed 0): random-projection trees and NN-descent, in
	// time close to linear in n instead of quadratic, at the price of some
	// missed neighbours. It is exact for small inputs (ApproxExactMaxN).
	KNNApprox
)

// MaxTreeDim is the largest number of features for which KNNAuto uses the
// k-d tree. Above it the tree prunes too little to beat brute force.
const MaxTreeDim = 16

// sqDist returns the squared Euclidean distance between a and b, summed in
// index order. Every exact distance in this package goes through this
// function so that the tree and the brute-force search see bitwise identical
// values (which makes tie-breaking by index reproducible across methods).
// The explicit conversions forbid fused multiply-adds.
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s float64
	for i, v := range a {
		t := v - b[i]
		s += float64(t * t)
	}
	return s
}

// nbrHeap is a bounded max-heap of candidate neighbours ordered by
// (distance, index): the root is the worst candidate kept. It works on
// caller-owned slices so that it allocates nothing.
type nbrHeap struct {
	d   []float64
	j   []int
	len int
}

func nbrLess(d1 float64, j1 int, d2 float64, j2 int) bool {
	return d1 < d2 || (d1 == d2 && j1 < j2)
}

func (h *nbrHeap) reset(d []float64, j []int) { h.d, h.j, h.len = d, j, 0 }

func (h *nbrHeap) full() bool { return h.len == len(h.d) }

// worst returns the distance of the worst kept candidate; only valid when
// the heap is non-empty.
func (h *nbrHeap) worst() float64 { return h.d[0] }

// offer inserts (d, j) if the heap is not full or (d, j) precedes the worst
// kept candidate.
func (h *nbrHeap) offer(d float64, j int) {
	if h.len < len(h.d) {
		c := h.len
		h.len++
		for c > 0 {
			p := (c - 1) / 2
			if !nbrLess(h.d[p], h.j[p], d, j) {
				break
			}
			h.d[c], h.j[c] = h.d[p], h.j[p]
			c = p
		}
		h.d[c], h.j[c] = d, j
		return
	}
	if !nbrLess(d, j, h.d[0], h.j[0]) {
		return
	}
	h.siftDown(0, h.len, d, j)
}

// siftDown places (d, j) at position c of the heap of size m.
func (h *nbrHeap) siftDown(c, m int, d float64, j int) {
	for {
		l := 2*c + 1
		if l >= m {
			break
		}
		if r := l + 1; r < m && nbrLess(h.d[l], h.j[l], h.d[r], h.j[r]) {
			l = r
		}
		if !nbrLess(d, j, h.d[l], h.j[l]) {
			break
		}
		h.d[c], h.j[c] = h.d[l], h.j[l]
		c = l
	}
	h.d[c], h.j[c] = d, j
}

// sortAscending turns the full heap into a list sorted by (distance, index).
func (h *nbrHeap) sortAscending() {
	for m := h.len - 1; m > 0; m-- {
		d, j := h.d[m], h.j[m]
		h.d[m], h.j[m] = h.d[0], h.j[0]
		h.siftDown(0, m, d, j)
	}
}

// NearestNeighbors returns, for every row i of x, the k nearest other rows
// in Euclidean distance: idx[i*k:(i+1)*k] holds their indices and
// dist2[i*k:(i+1)*k] the squared distances, sorted by increasing distance.
// The search is exact. Ties are broken by the smaller index, so the result
// is deterministic and the same for every method; a point never counts as
// its own neighbour, but duplicates of it (distance 0) do.
//
// Data of any finite magnitude are searched correctly: when the largest
// entry is beyond about 1e150 or below about 1e-30, the search runs on the
// data multiplied by an exact power of two (a copy, O(n p)), which keeps
// the order and the ties of the distances, and dist2 is converted back.
// dist2 then holds the squared distances rounded once to float64: for
// distinct points closer than about 1e-154 that value is subnormal or 0,
// but the neighbours and their order are still the true ones, found on the
// scaled distances (only distances below about 1e-130 times the largest
// entry vanish even then, and tie). If a returned squared distance exceeds
// the float64 range (points farther apart than about 1.3e154),
// NearestNeighbors fails with ErrDegenerate rather than return +Inf: scale
// the data, or use KNNGraph, which does not need the distances themselves.
func NearestNeighbors(ctx context.Context, x *mat.Dense, k int, method KNNMethod) (idx []int, dist2 []float64, err error) {
	const op = "NearestNeighbors"
	if err := checkCtx(op, ctx); err != nil {
		return nil, nil, err
	}
	n, p, maxAbs, err := checkDataMax(op, x)
	if err != nil {
		return nil, nil, err
	}
	if k < 1 || k >= n {
		return nil, nil, newErr(ErrSettings, op, "k = %d must satisfy 1 <= k <= n-1 = %d", k, n-1)
	}
	if method == KNNApprox {
		return ApproxNearestNeighbors(ctx, x, k, nil)
	}
	mode, err := searchMode(op, method, n, p, k)
	if err != nil {
		return nil, nil, err
	}
	idx, dist2, e2, err := knnSearch(ctx, x, maxAbs, k, mode, ApproxOptions{})
	if err != nil {
		return nil, nil, ctxErr(op, err)
	}
	if err := unscaleDist2(op, idx, dist2, k, e2, maxAbs); err != nil {
		return nil, nil, err
	}
	return idx, dist2, nil
}

// knnMode is the search knnSearch runs.
type knnMode int

const (
	searchBrute knnMode = iota
	searchTree
	searchApprox
)

// searchMode returns the search that method runs for n points in p
// dimensions; KNNApprox runs approxKNN only where ApproxNearestNeighbors
// does.
func searchMode(op string, method KNNMethod, n, p, k int) (knnMode, error) {
	switch method {
	case KNNAuto:
	case KNNTree:
		return searchTree, nil
	case KNNBrute:
		return searchBrute, nil
	case KNNApprox:
		if n > ApproxExactMaxN && 32*float64(k)*float64(k) <= float64(n) {
			return searchApprox, nil
		}
	default:
		return 0, newErr(ErrSettings, op, "unknown method %d", method)
	}
	if p <= MaxTreeDim {
		return searchTree, nil
	}
	return searchBrute, nil
}

// knnSearch runs the search mode on x (validated; its largest magnitude is
// maxAbs) and returns the neighbours with their squared distances divided
// by 2^e2: the data are multiplied by 2^(-e2/2) first when rangeScale asks
// for it (e2 is 0 otherwise).
func knnSearch(ctx context.Context, x *mat.Dense, maxAbs float64, k int, mode knnMode, o ApproxOptions) (idx []int, d2 []float64, e2 int, err error) {
	n, p := x.Dims()
	e := rangeScale(maxAbs, 4*p)
	if e != 0 {
		x = scaledCopy(x, e)
	}
	idx, d2 = make([]int, n*k), make([]float64, n*k)
	switch mode {
	case searchTree:
		err = treeKNN(ctx, x, k, idx, d2)
	case searchApprox:
		err = approxKNN(ctx, x, k, o, idx, d2)
	default:
		err = bruteKNN(ctx, x, k, idx, d2)
	}
	return idx, d2, 2 * e, err
}

// unscaleDist2 multiplies the squared distances d2 (k per row) by 2^e2,
// or fails with ErrDegenerate when one of them then overflows.
func unscaleDist2(op string, idx []int, d2 []float64, k, e2 int, maxAbs float64) error {
	if e2 == 0 {
		return nil
	}
	for a, v := range d2 {
		if d2[a] = math.Ldexp(v, e2); math.IsInf(d2[a], 1) {
			return newErr(ErrDegenerate, op,
				"the squared distance between rows %d and %d (about %s) overflows float64 (entries up to %.3g); "+
					"scale the data down, or use KNNGraph, which does not return distances",
				a/k, idx[a], fmtPow2(v, e2), maxAbs)
		}
	}
	return nil
}

// Block sizes of the brute-force search: a query block of bruteQ rows
// against a reference block of bruteR rows gives a 96 KiB distance tile,
// and gonum's Dgemm stays serial (allocation-free) for fewer than four
// 64x64 output blocks; the parallelism comes from the query blocks.
const (
	bruteQ = 64
	bruteR = 192
)

// bruteKNN finds exact neighbours by scanning all pairs. Distances of whole
// tiles are estimated with the Gram trick ||x||^2 + ||z||^2 - 2 x.z (one
// matrix product per tile, on column-centred data to limit cancellation);
// the estimate only filters candidates: a candidate is rejected when its
// estimate exceeds the worst kept distance by more than a rigorous rounding
// bound, and every candidate kept is ranked by its exact distance from
// sqDist. The result is therefore exact, not merely accurate.
func bruteKNN(ctx context.Context, x *mat.Dense, k int, idx []int, dist2 []float64) error {
	n, p := x.Dims()
	raw := x.RawMatrix()
	// Column-centred copy and its squared row norms.
	mean := make([]float64, p)
	for i := 0; i < n; i++ {
		for d, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			mean[d] += v
		}
	}
	for d := range mean {
		mean[d] /= float64(n)
	}
	xc := make([]float64, n*p)
	nrm := make([]float64, n)
	for i := 0; i < n; i++ {
		row := xc[i*p : (i+1)*p]
		var s float64
		for d, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			c := v - mean[d]
			row[d] = c
			s += c * c
		}
		nrm[i] = s
	}
	// Rounding bound. With u the unit roundoff, the Gram-trick estimate e of
	// a squared distance differs from the true value by at most about
	// (p+4)u(||x||^2+||z||^2) (dot product, norms, centring), and sqDist
	// differs from it by at most (p+1)u times the distance, which itself is
	// at most 2(||x||^2+||z||^2). The slack factor 8(p+4)u on
	// (||x||^2 + ||z||^2 + worst) covers both with a wide margin.
	const u = 1.0 / (1 << 53)
	slack := 8 * float64(p+4) * u
	type work struct {
		tile []float64
		h    nbrHeap
	}
	nq := (n + bruteQ - 1) / bruteQ
	return parallelFor(ctx, nq, 1, func() *work { return &work{tile: make([]float64, bruteQ*bruteR)} },
		func(w *work, blo, _ int) {
			q0 := blo * bruteQ
			q1 := min(q0+bruteQ, n)
			mq := q1 - q0
			qa := blas64.General{Rows: mq, Cols: p, Stride: p, Data: xc[q0*p : q1*p]}
			heaps := make([]nbrHeap, mq)
			for a := range heaps {
				i := q0 + a
				heaps[a].reset(dist2[i*k:(i+1)*k], idx[i*k:(i+1)*k])
			}
			for r0 := 0; r0 < n; r0 += bruteR {
				r1 := min(r0+bruteR, n)
				mr := r1 - r0
				rb := blas64.General{Rows: mr, Cols: p, Stride: p, Data: xc[r0*p : r1*p]}
				g := blas64.General{Rows: mq, Cols: mr, Stride: mr, Data: w.tile[:mq*mr]}
				blas64.Gemm(blas.NoTrans, blas.Trans, 1, qa, rb, 0, g)
				for a := 0; a < mq; a++ {
					i := q0 + a
					h := &heaps[a]
					xi := raw.Data[i*raw.Stride : i*raw.Stride+p]
					ni := nrm[i]
					grow := g.Data[a*mr : (a+1)*mr]
					for b, gv := range grow {
						j := r0 + b
						if j == i {
							continue
						}
						if h.full() {
							wd := h.worst()
							est := ni + nrm[j] - 2*gv
							if est-slack*(ni+nrm[j]+wd) > wd {
								continue
							}
							d := sqDist(xi, raw.Data[j*raw.Stride:j*raw.Stride+p])
							if d <= wd {
								h.offer(d, j)
							}
							continue
						}
						h.offer(sqDist(xi, raw.Data[j*raw.Stride:j*raw.Stride+p]), j)
					}
				}
			}
			for a := range heaps {
				heaps[a].sortAscending()
			}
		})
}
