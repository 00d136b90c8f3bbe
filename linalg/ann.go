package linalg

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// ApproxOptions configures ApproxNearestNeighbors; the zero value (or nil)
// means every documented default.
type ApproxOptions struct {
	// Seed seeds all randomness (PCG streams of math/rand/v2).
	Seed uint64
	// Trees is the number of random-projection trees giving the initial
	// neighbours; 0 means DefaultApproxTrees. Data of high intrinsic
	// dimension need more trees and larger leaves for a high recall.
	Trees int
	// LeafSize (at most MaxApproxLeafSize) bounds the points of a leaf, all
	// pairs of which are compared; 0 means max(DefaultApproxLeafSize, k+1).
	LeafSize int
	// MaxIters caps the NN-descent iterations; 0 means DefaultApproxMaxIters.
	MaxIters int
	// Delta, in [0, 1], stops NN-descent after an iteration that changed
	// fewer than Delta*n*max(k, 10) entries; 0 means DefaultApproxDelta.
	Delta float64
	// Progress, if not nil, is called on the calling goroutine after the
	// trees, after each iteration and at the end with the stages done and
	// their planned number MaxIters+2 (on early convergence the last call
	// jumps to the total). The exact fallback does not call it.
	Progress func(done, total int)
}

const (
	// ApproxExactMaxN is the largest n for which ApproxNearestNeighbors
	// runs the exact search instead (about as fast there).
	ApproxExactMaxN = 2000
	// DefaultApproxTrees is the default number of trees: NN-descent repairs
	// most of what a few trees miss, and more trees mostly cost time.
	DefaultApproxTrees = 4
	// DefaultApproxLeafSize is the default leaf size (raised to k+1).
	DefaultApproxLeafSize = 32
	// MaxApproxLeafSize bounds LeafSize, whose cost is quadratic per leaf.
	MaxApproxLeafSize = 1024
	// DefaultApproxMaxIters is the default cap on NN-descent iterations.
	DefaultApproxMaxIters = 12
	// DefaultApproxDelta is the default Delta: stop below 0.1% changes.
	DefaultApproxDelta = 0.001
)

const (
	// Flags of the graph entries, in the two low bits of their indices:
	// annOld entries took part in a local join, annNew ones not yet,
	// annFresh ones were inserted by the running iteration.
	annOld = iota
	annNew
	annFresh
	// annMinK is the least number of neighbours kept per point (the k best
	// are returned): with fewer, NN-descent stalls.
	annMinK = 10
	// annMinCand is the least length of each sampled candidate list.
	annMinCand = 16
	// annMaxDepth bounds the depth of the projection splits.
	annMaxDepth = 64
	// Kinds of PCG streams, in the top bits of the second seed word.
	annStreamTree = 1 << 62
	annStreamFill = 2 << 62
	annStreamIter = 3 << 62
)

// ApproxNearestNeighbors returns approximate k nearest neighbours of every
// row of x with the output contract of NearestNeighbors: idx[i*k:(i+1)*k]
// and dist2[i*k:(i+1)*k] hold the neighbours of row i and their squared
// distances (bitwise as NearestNeighbors computes them), sorted by
// increasing distance with ties broken by the smaller index; a row is never
// its own neighbour, but its duplicates are. Unlike NearestNeighbors, a true
// neighbour may be missed and a farther point returned in its place.
//
// The points are renumbered in the leaf order of a random-projection tree,
// for cache locality, on a copy of x. Then Trees such trees (each node split
// by the bisector of two of its points drawn at random) give the initial
// neighbours: the pairs within each leaf. NN-descent (Dong, Moses
// and Li, 2011) then refines the graph of the K = max(k, 10) best
// neighbours: each iteration samples for every point up to c = max(k, 16)
// new and c old neighbours, forward and reverse, compares the new ones with
// each other and with the old ones and keeps the K best per point, until
// fewer than Delta*n*K entries change or MaxIters iterations ran. With T
// trees of leaf size L and I iterations the time is
// O(T n p (log n + L) + I n c^2 p) and the memory O(n (K + c + p)).
//
// For n <= ApproxExactMaxN, or 32 k^2 > n (where NN-descent would compare
// about as many pairs), the exact search of NearestNeighbors with KNNAuto
// runs instead, after the options are validated.
//
// The work is spread over GOMAXPROCS goroutines, yet the result depends
// only on x, k and the options: each iteration keeps, for every point, the
// K best of a candidate set fixed before it starts, whatever the order of
// the insertions. ctx is checked every few milliseconds of work; on
// cancellation the error wraps ctx.Err(). x is only read, so concurrent
// calls are safe. Data of extreme magnitude are handled, and squared
// distances beyond the float64 range reported, as in NearestNeighbors.
func ApproxNearestNeighbors(ctx context.Context, x *mat.Dense, k int, opt *ApproxOptions) (idx []int, dist2 []float64, err error) {
	const op = "ApproxNearestNeighbors"
	if err := checkCtx(op, ctx); err != nil {
		return nil, nil, err
	}
	var o ApproxOptions
	if opt != nil {
		o = *opt
	}
	switch {
	case o.Trees < 0:
		return nil, nil, newErr(ErrSettings, op, "Trees = %d is negative", o.Trees)
	case o.LeafSize < 0 || o.LeafSize > MaxApproxLeafSize:
		return nil, nil, newErr(ErrSettings, op, "LeafSize = %d is outside [0, %d]", o.LeafSize, MaxApproxLeafSize)
	case o.MaxIters < 0:
		return nil, nil, newErr(ErrSettings, op, "MaxIters = %d is negative", o.MaxIters)
	case !(o.Delta >= 0 && o.Delta <= 1):
		return nil, nil, newErr(ErrSettings, op, "Delta = %v is outside [0, 1]", o.Delta)
	}
	n, p, maxAbs, err := checkDataMax(op, x)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case k < 1 || k >= n:
		return nil, nil, newErr(ErrSettings, op, "k = %d must satisfy 1 <= k <= n-1 = %d", k, n-1)
	case n > math.MaxInt32:
		return nil, nil, newErr(ErrSettings, op, "n = %d exceeds %d rows", n, math.MaxInt32)
	}
	mode, _ := searchMode(op, KNNApprox, n, p, k)
	idx, dist2, e2, err := knnSearch(ctx, x, maxAbs, k, mode, o)
	if err != nil {
		return nil, nil, ctxErr(op, err)
	}
	if err := unscaleDist2(op, idx, dist2, k, e2, maxAbs); err != nil {
		return nil, nil, err
	}
	return idx, dist2, nil
}

// annNode is the state of a point shared between goroutines: mu guards its
// graph row; worst holds the bits of the row's largest distance once full
// (+Inf before), read without the lock to skip hopeless pairs.
type annNode struct {
	mu    sync.Mutex
	worst atomic.Uint64
	cnt   int32    // entries in the graph row
	nCand [2]int32 // entries in the old and new candidate lists
}

// annState is the neighbour graph under construction, on the renumbered
// points. Row v is the slot range [v*k, (v+1)*k) of d and j (see push); the
// old and new candidate lists of v (see candPush) are the slots
// [(2v+s)*c, (2v+s+1)*c) of cand for s = 0, 1.
type annState struct {
	ctx                  context.Context
	data                 []float64 // renumbered copy of x (row stride p)
	perm                 []int32   // point number -> row of x
	p, n, k, c, leafSize int
	seed                 uint64
	node                 []annNode
	d                    []float64
	j                    []int
	cand                 []uint64
}

func (s *annState) row(i int) []float64 { return s.data[i*s.p : (i+1)*s.p : (i+1)*s.p] }

func (s *annState) worst(i int) float64 { return math.Float64frombits(s.node[i].worst.Load()) }

func approxKNN(ctx context.Context, x *mat.Dense, k int, o ApproxOptions, idx []int, dist2 []float64) error {
	n, p := x.Dims()
	trees := cmp.Or(o.Trees, DefaultApproxTrees)
	leaf := cmp.Or(o.LeafSize, min(max(DefaultApproxLeafSize, k+1), MaxApproxLeafSize))
	iters := cmp.Or(o.MaxIters, DefaultApproxMaxIters)
	delta := cmp.Or(o.Delta, DefaultApproxDelta)
	kk, c := max(k, annMinK), max(k, annMinCand)
	s := &annState{
		ctx: ctx, p: p, n: n, k: kk, c: c, seed: o.Seed, leafSize: leaf,
		node: make([]annNode, n), d: make([]float64, n*kk), j: make([]int, n*kk),
		cand: make([]uint64, 2*n*c),
	}
	progress := o.Progress
	if progress == nil {
		progress = func(int, int) {}
	}
	// Renumber the points in the leaf order of tree 0 (a cancelled tree
	// still returns a permutation) and copy the rows in that order.
	raw := x.RawMatrix()
	s.data = raw.Data
	s.perm = s.tree(0, raw.Stride, false)
	s.data = make([]float64, n*p)
	err := parallelFor(ctx, n, 4096, noState, func(_ struct{}, lo, hi int) {
		for i := lo; i < hi; i++ {
			copy(s.row(i), raw.Data[int(s.perm[i])*raw.Stride:][:p])
			s.node[i].worst.Store(math.Float64bits(math.Inf(1)))
		}
	})
	if err == nil {
		err = parallelFor(ctx, trees, 1, noState, func(_ struct{}, t, _ int) { s.tree(t+1, p, true) })
	}
	if err == nil {
		_, err = s.settle()
	}
	if err != nil {
		return err
	}
	progress(1, iters+2)
	for it := 0; it < iters; it++ {
		updates, err := s.iterate(it)
		if err != nil {
			return err
		}
		progress(it+2, iters+2)
		if float64(updates) < delta*float64(n)*float64(kk) {
			break
		}
	}
	if err := s.output(k, idx, dist2); err != nil {
		return err
	}
	progress(iters+2, iters+2)
	return nil
}

// annDist returns the squared distance of a and b (bitwise symmetric), or
// +Inf once a partial sum, which never exceeds the full one, exceeds thr.
func annDist(a, b []float64, thr float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		x, y := a[i:i+4:i+4], b[i:i+4:i+4]
		t0, t1, t2, t3 := x[0]-y[0], x[1]-y[1], x[2]-y[2], x[3]-y[3]
		s0 += t0 * t0
		s1 += t1 * t1
		s2 += t2 * t2
		s3 += t3 * t3
		if i&15 == 12 && (s0+s1)+(s2+s3) > thr {
			return math.Inf(1)
		}
	}
	for ; i < len(a); i++ {
		t := a[i] - b[i]
		s0 += t * t
	}
	return (s0 + s1) + (s2 + s3)
}

// push offers neighbour b of v at distance dist, flagged f, to the row of
// v, under its lock. Rows are nbrHeaps whose indices carry the flag in two
// low bits (the order is kept: a row never repeats an index). Whatever the
// order of the offers, a row ends with the k best distinct ones.
func (s *annState) push(v int, dist float64, b int, f int) {
	nd := &s.node[v]
	nd.mu.Lock()
	defer nd.mu.Unlock()
	h := nbrHeap{d: s.d[v*s.k : (v+1)*s.k], j: s.j[v*s.k : (v+1)*s.k], len: int(nd.cnt)}
	key := b<<2 | f
	if (h.full() && !nbrLess(dist, key, h.d[0], h.j[0])) ||
		slices.ContainsFunc(h.j[:h.len], func(x int) bool { return x>>2 == b }) {
		return
	}
	h.offer(dist, key)
	nd.cnt = int32(h.len)
	if h.full() {
		nd.worst.Store(math.Float64bits(h.d[0]))
	}
}

// join offers the pair (a, b), flagged f, to both rows. Worst distances
// only decrease, so the lock-free tests drop only pairs that push would
// reject too.
func (s *annState) join(a, b, f int) {
	wa, wb := s.worst(a), s.worst(b)
	d := annDist(s.row(a), s.row(b), max(wa, wb))
	if d <= wa {
		s.push(a, d, b, f)
	}
	if d <= wb {
		s.push(b, d, a, f)
	}
}

// canonical reorders the full row of v by decreasing (distance, index),
// still a max-heap, so that the slot order depends only on the entries.
func (s *annState) canonical(v int) {
	h := nbrHeap{d: s.d[v*s.k : (v+1)*s.k], j: s.j[v*s.k : (v+1)*s.k], len: s.k}
	h.sortAscending()
	slices.Reverse(h.d)
	slices.Reverse(h.j)
}

// candPush offers key = priority<<32 | index to the candidate list ks[:m]
// of capacity len(ks) and returns its new length. The list keeps the
// smallest keys, one per index (the smaller one).
func candPush(ks []uint64, m int, key uint64) int {
	top := 0
	for q, x := range ks[:m] {
		if uint32(x) == uint32(key) {
			ks[q] = min(x, key)
			return m
		}
		if x > ks[top] {
			top = q
		}
	}
	if m < len(ks) {
		ks[m] = key
		return m + 1
	}
	ks[top] = min(ks[top], key)
	return m
}

// tree builds random-projection tree t on s.data (row stride ld), joins the
// pairs of each leaf if withLeaves, and returns the points in leaf order.
func (s *annState) tree(t, ld int, withLeaves bool) []int32 {
	rng := rand.New(rand.NewPCG(s.seed, annStreamTree|uint64(t)))
	perm, tmp, normal := make([]int32, s.n), make([]int32, s.n), make([]float64, s.p)
	for i := range perm {
		perm[i] = int32(i)
	}
	row := func(i int32) []float64 { return s.data[int(i)*ld : int(i)*ld+s.p] }
	type span struct{ lo, hi, depth int }
	stack := []span{{0, s.n, 0}}
	for visits := 0; len(stack) > 0; visits++ {
		sp := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		part := perm[sp.lo:sp.hi]
		if (visits%64 == 0 || len(part) > 1<<14) && s.ctx.Err() != nil {
			return perm
		}
		if len(part) <= s.leafSize {
			for a := 0; withLeaves && a < len(part); a++ {
				for _, v := range part[a+1:] {
					s.join(int(part[a]), int(v), annNew)
				}
			}
			continue
		}
		// Split by the bisector of two random points of part: lefts fill
		// tmp from the front, rights from the back; points on it (such as
		// duplicates) go to a random side. If a side stays empty, or the
		// node is too deep, split in the middle.
		m, nl := len(part), 0
		if sp.depth < annMaxDepth {
			a := rng.IntN(m)
			xa, xb := row(part[a]), row(part[(a+1+rng.IntN(m-1))%m])
			var off float64
			for d := range normal {
				normal[d] = xa[d] - xb[d]
				off += normal[d] * (xa[d] + xb[d]) / 2
			}
			nv := blas64.Vector{N: s.p, Inc: 1, Data: normal}
			for q, i := range part {
				mg := blas64.Dot(nv, blas64.Vector{N: s.p, Inc: 1, Data: row(i)}) - off
				if mg < 0 || (mg == 0 && rng.Uint64()&1 == 0) {
					tmp[nl], nl = i, nl+1
				} else {
					tmp[m-1-(q-nl)] = i
				}
			}
		}
		copy(part, tmp[:m])
		if nl == 0 || nl == m {
			nl = m / 2
		}
		mid := sp.lo + nl
		stack = append(stack, span{mid, sp.hi, sp.depth + 1}, span{sp.lo, mid, sp.depth + 1})
	}
	return perm
}

// iterate runs one NN-descent iteration and returns the number of graph
// entries it changed.
func (s *annState) iterate(it int) (int, error) {
	k, c := s.k, s.c
	// Sampling: entry (v, u) gets a random priority and goes, forward and
	// reverse, into the new or old lists of v and u, which keep the c
	// smallest priorities. Each goroutine scans the whole graph and fills
	// the lists of its own block of points, without locks.
	blocks := runtime.GOMAXPROCS(0)
	err := parallelFor(s.ctx, blocks, 1, noState, func(_ struct{}, b, _ int) {
		lo, hi := b*s.n/blocks, (b+1)*s.n/blocks
		for v := lo; v < hi; v++ {
			s.node[v].nCand = [2]int32{}
		}
		add := func(v, u int, pr uint32, flag int) { // flag is annOld or annNew
			cnt := &s.node[v].nCand[flag]
			*cnt = int32(candPush(s.cand[(2*v+flag)*c:(2*v+flag+1)*c], int(*cnt), uint64(pr)<<32|uint64(u)))
		}
		var pcg rand.PCG
		for v := 0; v < s.n; v++ {
			if v%4096 == 0 && s.ctx.Err() != nil {
				return
			}
			pcg.Seed(s.seed, annStreamIter|uint64(it)<<40|uint64(v))
			for _, e := range s.j[v*k : (v+1)*k] {
				pr, flag, u := uint32(pcg.Uint64()>>32), min(e&3, annNew), e>>2
				if lo <= v && v < hi {
					add(v, u, pr, flag)
				}
				if lo <= u && u < hi {
					add(u, v, pr, flag)
				}
			}
		}
	})
	if err != nil {
		return 0, err
	}
	// Local joins of the new candidates with each other and with the old
	// ones, after the entries sampled as new candidates of their row (v)
	// become old.
	err = parallelFor(s.ctx, s.n, 64, noState, func(_ struct{}, lo, hi int) {
		for v := lo; v < hi; v++ {
			oc := s.cand[2*v*c:][:s.node[v].nCand[annOld]]
			nc := s.cand[(2*v+1)*c:][:s.node[v].nCand[annNew]]
			s.node[v].mu.Lock()
			for q, e := range s.j[v*k : (v+1)*k] {
				if e&3 == annNew && slices.ContainsFunc(nc, func(x uint64) bool { return int(uint32(x)) == e>>2 }) {
					s.j[v*k+q] = e&^3 | annOld
				}
			}
			s.node[v].mu.Unlock()
			for x, a := range nc {
				for _, b := range nc[x+1:] {
					s.join(int(uint32(a)), int(uint32(b)), annFresh)
				}
				for _, b := range oc {
					if uint32(a) != uint32(b) {
						s.join(int(uint32(a)), int(uint32(b)), annFresh)
					}
				}
			}
		}
	})
	if err != nil {
		return 0, err
	}
	return s.settle()
}

// settle fills up the rows left short by the trees with random points,
// turns the annFresh entries to annNew and returns their number, and puts
// every row in canonical order.
func (s *annState) settle() (int, error) {
	var updates atomic.Int64
	err := parallelFor(s.ctx, s.n, 1024, noState, func(_ struct{}, lo, hi int) {
		var pcg rand.PCG
		cnt := 0
		for v := lo; v < hi; v++ {
			pcg.Seed(s.seed, annStreamFill|uint64(v))
			for int(s.node[v].cnt) < s.k {
				if u := int(pcg.Uint64() % uint64(s.n)); u != v {
					s.push(v, annDist(s.row(v), s.row(u), math.Inf(1)), u, annNew)
				}
			}
			for q, e := range s.j[v*s.k : (v+1)*s.k] {
				if e&3 == annFresh {
					s.j[v*s.k+q] = e&^3 | annNew
					cnt++
				}
			}
			s.canonical(v)
		}
		updates.Add(int64(cnt))
	})
	return int(updates.Load()), err
}

// output writes the k best entries of every row with exact distances
// (sqDist on the copied rows, which are bitwise those of x), sorted by
// (distance, row index of x).
func (s *annState) output(k int, idx []int, dist2 []float64) error {
	return parallelFor(s.ctx, s.n, 1024, noState, func(_ struct{}, lo, hi int) {
		for v := lo; v < hi; v++ {
			var h nbrHeap
			o := int(s.perm[v])
			h.reset(dist2[o*k:(o+1)*k], idx[o*k:(o+1)*k])
			for _, e := range s.j[v*s.k : (v+1)*s.k] {
				h.offer(sqDist(s.row(v), s.row(e>>2)), int(s.perm[e>>2]))
			}
			h.sortAscending()
		}
	})
}
