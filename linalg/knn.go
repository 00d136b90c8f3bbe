package linalg

import (
	"cmp"
	"context"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

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
func NearestNeighbors(ctx context.Context, x *mat.Dense, k int, method KNNMethod) (idx []int, dist2 []float64, err error) {
	const op = "NearestNeighbors"
	if err := checkCtx(op, ctx); err != nil {
		return nil, nil, err
	}
	n, p, err := checkData(op, x)
	if err != nil {
		return nil, nil, err
	}
	if k < 1 || k >= n {
		return nil, nil, newErr(ErrParam, op, "k = %d must satisfy 1 <= k <= n-1 = %d", k, n-1)
	}
	useTree := false
	switch method {
	case KNNAuto:
		useTree = p <= MaxTreeDim
	case KNNTree:
		useTree = true
	case KNNBrute:
	case KNNApprox:
		return ApproxNearestNeighbors(ctx, x, k, nil)
	default:
		return nil, nil, newErr(ErrParam, op, "unknown method %d", method)
	}
	idx = make([]int, n*k)
	dist2 = make([]float64, n*k)
	if useTree {
		err = treeKNN(ctx, x, k, idx, dist2)
	} else {
		err = bruteKNN(ctx, x, k, idx, dist2)
	}
	if err != nil {
		return nil, nil, ctxErr(op, err)
	}
	return idx, dist2, nil
}

// noState is the newState of parallelFor loops without per-worker state.
func noState() struct{} { return struct{}{} }

// parallelFor runs body(lo, hi) over [0, n) in chunks handed out to
// GOMAXPROCS workers, checking ctx before each chunk. newState is called once
// per worker and its result passed to every body call of that worker. The
// calling goroutine is one of the workers: at the sizes where a loop takes
// a fraction of a millisecond, waiting for a second goroutine to be
// scheduled before any work starts would be a visible share of the time.
func parallelFor[S any](ctx context.Context, n, chunk int, newState func() S, body func(s S, lo, hi int)) error {
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	var next atomic.Int64
	var stop atomic.Bool
	work := func() {
		s := newState()
		for !stop.Load() {
			lo := int(next.Add(int64(chunk))) - chunk
			if lo >= n {
				return
			}
			if ctx.Err() != nil {
				stop.Store(true)
				return
			}
			body(s, lo, min(lo+chunk, n))
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
	return ctx.Err()
}

// kdTree is a k-d tree whose nodes store tight bounding boxes. The points
// are copied in tree order so that leaves are contiguous in memory.
type kdTree struct {
	p      int
	data   []float64 // point at tree position t is data[t*p:(t+1)*p]
	perm   []int     // tree position -> original row index
	nodes  []kdNode
	lo, hi []float64 // bounding box of node v is lo[v*p:(v+1)*p], hi[...]
	center []float64 // centre of leaf v is center[v*p:(v+1)*p]
	rad    []float64 // distance of the point at tree position t from its leaf centre
	axis   []float64 // unit principal direction of leaf v is axis[v*p:(v+1)*p]
	proj   []float64 // projection of the point at tree position t on its leaf axis
	rmax   []float64 // largest rad in leaf v
}

type kdNode struct {
	start, end  int
	left, right int     // child node indices, -1 for a leaf
	dim         int     // split dimension of an internal node
	split       float64 // points of the right child have x[dim] >= split
}

// kdLeafSize is the largest number of points in a leaf; small enough that a
// leaf scan is cheap, large enough that the tree overhead stays low.
const kdLeafSize = 32

func buildKDTree(x *mat.Dense) *kdTree {
	n, p := x.Dims()
	raw := x.RawMatrix()
	t := &kdTree{p: p, perm: make([]int, n)}
	for i := range t.perm {
		t.perm[i] = i
	}
	col := func(i, d int) float64 { return raw.Data[i*raw.Stride+d] }
	t.nodes = make([]kdNode, 0, 2*(n/kdLeafSize)+1)
	var build func(start, end int) int
	build = func(start, end int) int {
		v := len(t.nodes)
		t.nodes = append(t.nodes, kdNode{start: start, end: end, left: -1, right: -1})
		base := len(t.lo)
		for d := 0; d < p; d++ {
			mn, mx := col(t.perm[start], d), col(t.perm[start], d)
			for _, i := range t.perm[start+1 : end] {
				c := col(i, d)
				mn, mx = min(mn, c), max(mx, c)
			}
			t.lo = append(t.lo, mn)
			t.hi = append(t.hi, mx)
		}
		if end-start <= kdLeafSize {
			return v
		}
		// Split the dimension of largest spread at the median.
		best, spread := 0, -1.0
		for d := 0; d < p; d++ {
			if s := t.hi[base+d] - t.lo[base+d]; s > spread {
				best, spread = d, s
			}
		}
		if spread <= 0 {
			return v // all points coincide
		}
		mid := start + (end-start)/2
		selectKth(t.perm[start:end], mid-start, func(i int) float64 { return col(i, best) })
		split := col(t.perm[mid], best) // read before the children reorder perm
		l := build(start, mid)
		r := build(mid, end)
		t.nodes[v].left, t.nodes[v].right = l, r
		t.nodes[v].dim, t.nodes[v].split = best, split
		return v
	}
	t.lo = make([]float64, 0, p*cap(t.nodes))
	t.hi = make([]float64, 0, p*cap(t.nodes))
	build(0, n)
	t.data = make([]float64, n*p)
	t.center = make([]float64, len(t.nodes)*p)
	t.rad = make([]float64, n)
	type posRad struct {
		i       int
		r, proj float64
	}
	t.axis = make([]float64, len(t.nodes)*p)
	t.rmax = make([]float64, len(t.nodes))
	t.proj = make([]float64, n)
	var buf []posRad
	tmp := make([]float64, p)
	for v, nd := range t.nodes {
		if nd.left >= 0 {
			continue
		}
		// Leaf centre (mean) and the distance of every point from it;
		// points are stored by increasing distance so that the annulus
		// test in search selects a contiguous range.
		c := t.center[v*p : (v+1)*p]
		for _, i := range t.perm[nd.start:nd.end] {
			for d, x := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
				c[d] += x
			}
		}
		for d := range c {
			c[d] /= float64(nd.end - nd.start)
		}
		// Principal direction of the leaf by a few power iterations on
		// its scatter matrix, started from the first coordinate axis.
		u := t.axis[v*p : (v+1)*p]
		u[0] = 1
		for it := 0; it < 8; it++ {
			clear(tmp)
			for _, i := range t.perm[nd.start:nd.end] {
				z := raw.Data[i*raw.Stride : i*raw.Stride+p]
				var a float64
				for d := range u {
					a += (z[d] - c[d]) * u[d]
				}
				for d := range tmp {
					tmp[d] += a * (z[d] - c[d])
				}
			}
			var nrm float64
			for _, x := range tmp {
				nrm += x * x
			}
			if nrm == 0 {
				break
			}
			nrm = math.Sqrt(nrm)
			for d := range u {
				u[d] = tmp[d] / nrm
			}
		}
		buf = buf[:0]
		for _, i := range t.perm[nd.start:nd.end] {
			z := raw.Data[i*raw.Stride : i*raw.Stride+p]
			var a float64
			for d := range u {
				a += (z[d] - c[d]) * u[d]
			}
			buf = append(buf, posRad{i, math.Sqrt(sqDist(c, z)), a})
		}
		slices.SortFunc(buf, func(a, b posRad) int { return cmp.Compare(a.proj, b.proj) })
		for k, e := range buf {
			t.rmax[v] = max(t.rmax[v], e.r)
			t.perm[nd.start+k] = e.i
			t.rad[nd.start+k] = e.r
			t.proj[nd.start+k] = e.proj
		}
	}
	for pos, i := range t.perm {
		copy(t.data[pos*p:(pos+1)*p], raw.Data[i*raw.Stride:i*raw.Stride+p])
	}
	return t
}

// selectKth reorders a so that a[k] holds the element with the k-th smallest
// key, smaller-or-equal keys before it and larger-or-equal after it
// (quickselect with a median-of-three pivot: O(len(a)) expected).
func selectKth[T any](a []T, k int, key func(T) float64) {
	lo, hi := 0, len(a)-1
	for lo < hi {
		// Median of three as pivot.
		m := lo + (hi-lo)/2
		if key(a[m]) < key(a[lo]) {
			a[m], a[lo] = a[lo], a[m]
		}
		if key(a[hi]) < key(a[lo]) {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if key(a[hi]) < key(a[m]) {
			a[hi], a[m] = a[m], a[hi]
		}
		pv := key(a[m])
		i, j := lo, hi
		for i <= j {
			for key(a[i]) < pv {
				i++
			}
			for key(a[j]) > pv {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// boxWithin reports whether the lower bound on sqDist(q, z) over all z in
// the box of node v is at most bound. Because floating-point subtraction,
// squaring and summation of non-negative terms are monotone, the bound holds
// for the computed distances too, not only in exact arithmetic; the partial
// sum is compared to bound as it grows, which is valid for the same reason.
func (t *kdTree) boxWithin(v int, q []float64, bound float64) bool {
	lo := t.lo[v*t.p : (v+1)*t.p]
	hi := t.hi[v*t.p : (v+1)*t.p]
	lo = lo[:len(q)]
	hi = hi[:len(q)]
	var s float64
	for d, c := range q {
		var u float64
		if c < lo[d] {
			u = c - lo[d]
		} else if c > hi[d] {
			u = c - hi[d]
		} else {
			continue
		}
		s += float64(u * u)
		if s > bound {
			return false
		}
	}
	return true
}

// scanLeaf offers the points at tree positions [start, end) to the heap,
// skipping those whose distance from the leaf centre lies outside
// [rlo, rhi] (pass −Inf, +Inf to skip none). Once the heap is full,
// distances are accumulated as in sqDist (same order, so a completed sum is
// bitwise equal to it) and abandoned as soon as a partial sum exceeds the
// worst kept distance.
func (t *kdTree) scanLeaf(start, end int, q []float64, self int, h *nbrHeap, rlo, rhi float64) {
	p := t.p
	data := t.data
outer:
	for pos := start; pos < end; pos++ {
		if r := t.rad[pos]; r < rlo || r > rhi {
			continue
		}
		j := t.perm[pos]
		if j == self {
			continue
		}
		z := data[pos*p : pos*p+p]
		if !h.full() {
			h.offer(sqDist(q, z), j)
			continue
		}
		w := h.worst()
		z = z[:len(q)]
		var s float64
		d := 0
		for ; d+4 <= len(q); d += 4 {
			qq := q[d : d+4 : d+4]
			zz := z[d : d+4 : d+4]
			t0 := qq[0] - zz[0]
			t1 := qq[1] - zz[1]
			t2 := qq[2] - zz[2]
			t3 := qq[3] - zz[3]
			s += float64(t0 * t0)
			s += float64(t1 * t1)
			s += float64(t2 * t2)
			s += float64(t3 * t3)
			if s > w {
				continue outer
			}
		}
		for ; d < len(q); d++ {
			u := q[d] - z[d]
			s += float64(u * u)
		}
		if s <= w {
			h.offer(s, j)
		}
	}
}

// kdSearch is the per-worker state of a tree query.
type kdSearch struct {
	h   nbrHeap
	off []float64 // per-dimension distance from the query to the current cell
}

// pruneMargin makes cell pruning conservative: the incremental cell bound
// rd carries a relative rounding error of a few times depth*u (about 1e-14),
// and a computed distance may be below the true one by (p+1)u relative.
// Pruning only when rd*(1-pruneMargin) > worst keeps every point that could
// enter the heap, for any p below about 1e6.
const pruneMargin = 1e-10

// search visits node v for query q; rd is the squared distance from q to
// the cell of v accumulated from the split planes on the path (the
// incremental bound of Arya and Mount), s.off its per-dimension terms.
func (t *kdTree) search(v int, q []float64, self int, rd float64, s *kdSearch) {
	nd := &t.nodes[v]
	h := &s.h
	if nd.left < 0 {
		p := t.p
		start, end := nd.start, nd.end
		if h.full() {
			// The tight bounding box of the leaf prunes better than the
			// cell.
			w := h.worst()
			if !t.boxWithin(v, q, w) {
				return
			}
			// Two cheap necessary conditions for ||q - z|| <= sqrt(w):
			// the projections of q and z on the leaf's unit principal
			// axis differ by at most sqrt(w) (points are sorted by
			// projection, so this selects a contiguous range), and by
			// the triangle inequality their distances from the leaf
			// centre differ by at most sqrt(w) (the annulus test in
			// scanLeaf). The margin 1e-9 relative covers the
			// rounding of the projections, the radii, the axis norm and
			// sqDist (each about (p+2)u relative) for any p below 1e6.
			c := t.center[v*p : (v+1)*p]
			u := t.axis[v*p : (v+1)*p]
			var r2, qa float64
			for d, x := range q {
				e := x - c[d]
				r2 += e * e
				qa += e * u[d]
			}
			r := math.Sqrt(r2)
			sw := math.Sqrt(w)
			projs := t.proj[start:end]
			tol := 1e-9 * (r + sw + t.rmax[v])
			lo, hi := qa-sw-tol, qa+sw+tol
			a, b := 0, len(projs)
			for a < b && projs[a] < lo {
				a++
			}
			for b > a && projs[b-1] > hi {
				b--
			}
			t.scanLeaf(nd.start+a, nd.start+b, q, self, h, r-sw-tol, r+sw+tol)
			return
		}
		t.scanLeaf(start, end, q, self, h, math.Inf(-1), math.Inf(1))
		return
	}
	diff := q[nd.dim] - nd.split
	near, far := nd.left, nd.right
	if diff >= 0 {
		near, far = far, near
	}
	t.search(near, q, self, rd, s)
	old := s.off[nd.dim]
	rdFar := rd - float64(old*old) + float64(diff*diff)
	// A cell at exactly the worst distance may still hold a point that wins
	// the tie by a smaller index, so only strictly farther cells are pruned.
	if !h.full() || rdFar*(1-pruneMargin) <= h.worst() {
		s.off[nd.dim] = diff
		t.search(far, q, self, rdFar, s)
		s.off[nd.dim] = old
	}
}

func treeKNN(ctx context.Context, x *mat.Dense, k int, idx []int, dist2 []float64) error {
	t := buildKDTree(x)
	n := len(t.perm)
	p := t.p
	if err := ctx.Err(); err != nil {
		return err
	}
	return parallelFor(ctx, n, 256, func() *kdSearch { return &kdSearch{off: make([]float64, p)} },
		func(s *kdSearch, lo, hi int) {
			for pos := lo; pos < hi; pos++ {
				i := t.perm[pos]
				q := t.data[pos*p : (pos+1)*p]
				s.h.reset(dist2[i*k:(i+1)*k], idx[i*k:(i+1)*k])
				t.search(0, q, i, 0, s)
				s.h.sortAscending()
			}
		})
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
