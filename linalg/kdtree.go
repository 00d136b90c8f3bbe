package linalg

import (
	"cmp"
	"context"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

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
	tolAbs float64   // absolute margin of the leaf tests: sqrt(p) 2^-536
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
	t := &kdTree{p: p, perm: make([]int, n), tolAbs: math.Sqrt(float64(p)) * 0x1p-536}
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
			if !(nrm >= 0x1p-1000 && nrm <= 0x1p1000) {
				// The squares left the normal range (a leaf of tiny or
				// huge spread): divide by the largest component first,
				// so that u stays a unit vector.
				big := maxAbsOf(tmp)
				if big == 0 {
					break
				}
				nrm = 0
				for d, x := range tmp {
					tmp[d] = x / big
					nrm += tmp[d] * tmp[d]
				}
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
			// sqDist (each about (p+2)u relative) for any p below 1e6;
			// the absolute term t.tolAbs covers squares that underflow
			// (each loses less than 2^-1074, so sqrt(p) 2^-537 bounds
			// what that does to a distance).
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
			tol := 1e-9*(r+sw+t.rmax[v]) + t.tolAbs
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
