package models

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
)

// graphBasis keeps what the KNN kernel's out-of-sample extension needs: the
// graph's rule (k, weights) and the training points' degrees and local
// scales.
type graphBasis struct {
	k      int
	weight linalg.GraphWeight
	deg    []float64     // degrees d_j of the training points
	sigma  []float64     // local scales s_j (LocalHeat only)
	s      *linalg.CSR   // the matrix decomposed (S) or spread over (Spread)
	copies *spreadGroups // Spread: the copy groups of s
}

// knnOperator builds the normalised affinity S = D^-1/2 W D^-1/2 of the
// symmetric kNN graph of the scaled data as a sparse operator. Its trace is
// zero (the graph has no self-loops).
func (pr *prep) knnOperator(ctx context.Context) (eig.Operator, float64, error) {
	if err := pr.buildGraph(ctx); err != nil {
		return nil, 0, err
	}
	op, err := eig.NewCSR(pr.graph.s)
	if err != nil {
		return nil, 0, fmt.Errorf("models: %w", err)
	}
	pr.affinity = true
	return op, 0, nil
}

// buildGraph sets pr.graph: the rule and degrees of the symmetric kNN
// graph, and the matrix spread over or decomposed (the directed graph of
// directedAffinity for the Spread classifier, S otherwise).
func (pr *prep) buildGraph(ctx context.Context) error {
	k := pr.opt.GraphK
	nb, err := pr.neighbors(ctx, k)
	if err != nil {
		return fmt.Errorf("models: kNN graph: %w", err)
	}
	g := &graphBasis{k: k, weight: linalg.Binary}
	if pr.opt.Kernel.LocalScale {
		g.weight = linalg.LocalHeat
		r := min(linalg.DefaultScaleNeighbor, k)
		g.sigma = make([]float64, pr.n)
		for i := range g.sigma {
			g.sigma[i] = math.Sqrt(nb.d2[nb.ptr[i]+r-1])
		}
	}
	w, err := linalg.GraphFromNeighborLists(pr.n, k, nb.ptr, nb.idx, nb.d2, &linalg.GraphOptions{Weight: g.weight})
	if err != nil {
		return fmt.Errorf("models: kNN graph: %w", err)
	}
	_, pr.comp = linalg.Components(w)
	g.s, g.deg, err = linalg.NormalizedAffinity(w)
	if err != nil {
		return fmt.Errorf("models: kNN graph: %w", err)
	}
	if pr.opt.Classifier == Spread {
		// Every point listens to its k nearest counting itself: its
		// k - 1 nearest others (and the points tied with the last).
		others, err := nb.trim(k - 1)
		if err != nil {
			return fmt.Errorf("models: kNN graph: %w", err)
		}
		var scale []float64
		g.s, scale = directedAffinity(pr.n, others)
		g.copies = copyGroups(g.s, scale)
	}
	pr.graph = g
	return nil
}

// extendGraph returns the graph's Nyström extension of the eigenvectors to
// the scaled new points z (m x d): a new point is joined to its k nearest
// training points with the graph's weights w_zj, and
// v(z) = sum_j w_zj / sqrt(d_z d_j) V_j diag(1/theta), d_z = sum_j w_zj.
// For a training point whose neighbours are those of the graph this is the
// eigenvector equation S V = V Theta read at one row. A new point whose
// weights are all zero (every neighbour a duplicate of another at a
// positive distance) gets the zero vector.
//
// With reach (one flag per training point) it also reports which new points
// have no neighbour of positive weight among the points reach marks (nil
// when there is none such or reach is nil).
func (pr *prep) extendGraph(ctx context.Context, z *mat.Dense, reach []bool) (*mat.Dense, []bool, error) {
	b := pr.basis
	_, d := b.V.Dims()
	inv := make([]float64, d)
	for i, l := range b.Values {
		if l > nystromRelTol*math.Abs(b.Values[0]) {
			inv[i] = 1 / l
		}
	}
	return pr.graphAverage(ctx, z, b.V, inv, reach)
}

// graphAverage returns, for each new point z_i, sum_j w_zj / sqrt(d_z d_j)
// f_j with the rows f_j of f at its graph neighbours, each column then
// multiplied by scale (nil: 1); with reach, also the flags of extendGraph.
func (pr *prep) graphAverage(ctx context.Context, z, f *mat.Dense, scale []float64, reach []bool) (*mat.Dense, []bool, error) {
	xg, err := pr.graphSpace(ctx)
	if err != nil {
		return nil, nil, err
	}
	if z, err = pr.toGraphSpace(ctx, z); err != nil {
		return nil, nil, err
	}
	m, _ := z.Dims()
	_, d := f.Dims()
	out := mat.NewDense(m, d, nil)
	var unreached []bool
	if reach != nil {
		unreached = make([]bool, m)
	}
	// The rows are independent: contiguous ranges on GOMAXPROCS goroutines
	// (the brute-force search is O(n p) per new point).
	workers := max(1, min(runtime.GOMAXPROCS(0), m/64))
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for wk := 0; wk < workers; wk++ {
		wg.Add(1)
		go func(wk int) {
			defer wg.Done()
			var ws nbrWork
			for i := wk * m / workers; i < (wk+1)*m/workers; i++ {
				if i%256 == 0 {
					if err := ctx.Err(); err != nil {
						errs[wk] = fmt.Errorf("models: %w", err)
						return
					}
				}
				pr.averageRow(out.RawRowView(i), z.RawRowView(i), xg, f, scale, &ws)
				if reach != nil {
					unreached[i] = !anyReached(ws.nb, ws.w, reach)
				}
			}
		}(wk)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	if !slices.Contains(unreached, true) {
		unreached = nil
	}
	return out, unreached, nil
}

// anyReached reports whether a neighbour nb[a] of positive weight w[a] is
// marked in reach (averageRow leaves the neighbours and weights of the last
// point in nb and w; a point without weight reaches nothing).
func anyReached(nb []int, w []float64, reach []bool) bool {
	for a, j := range nb {
		if w[a] > 0 && reach[j] {
			return true
		}
	}
	return false
}

// nbrWork holds a new point's neighbours, their squared distances and
// weights (averageRow's workspace and result).
type nbrWork struct {
	nb    []int
	nd, w []float64
}

// averageRow sets row to the graph average of f for the new point zi (see
// graphAverage), leaving its neighbours and their weights in ws. On the
// exact path the neighbours are the k nearest training points and those
// tied with the k-th, as in the training graph.
func (pr *prep) averageRow(row, zi []float64, xg, f *mat.Dense, scale []float64, ws *nbrWork) {
	g := pr.graph
	nearestTied(xg, zi, g.k, !pr.opt.large(pr.n), ws)
	nb, nd := ws.nb, ws.nd
	ws.w = slices.Grow(ws.w[:0], len(nb))[:len(nb)]
	w := ws.w
	var dz float64
	r := min(linalg.DefaultScaleNeighbor, g.k)
	sz := math.Sqrt(nd[r-1])
	for a, j := range nb {
		w[a] = 1
		if g.weight == linalg.LocalHeat && nd[a] > 0 {
			w[a] = 0
			if s := sz * g.sigma[j]; s > 0 {
				w[a] = math.Exp(-nd[a] / s)
			}
		}
		dz += w[a]
	}
	if !(dz > 0) {
		return
	}
	for a, j := range nb {
		c := w[a] / math.Sqrt(dz*g.deg[j])
		for t, v := range f.RawRowView(j)[:len(row)] {
			row[t] += c * v
		}
	}
	if scale != nil {
		for t := range row {
			row[t] *= scale[t]
		}
	}
}

// nearestTied sets ws.nb and ws.nd to the k nearest rows of x to q and,
// with ties, every other row tied with the k-th (linalg.TieBound, at most
// linalg.MaxTies more), sorted by distance then index.
func nearestTied(x *mat.Dense, q []float64, k int, ties bool, ws *nbrWork) {
	n, _ := x.Dims()
	m := k
	if ties && k < n {
		m = k + 1
	}
	ws.nb = slices.Grow(ws.nb[:0], m)[:m]
	ws.nd = slices.Grow(ws.nd[:0], m)[:m]
	nearest(x, q, ws.nb, ws.nd)
	if m == k {
		return
	}
	bound := linalg.TieBound(ws.nd[k-1])
	if ws.nd[k] > bound {
		ws.nb, ws.nd = ws.nb[:k], ws.nd[:k]
		return
	}
	// The tied rows are a prefix of the nearest k + MaxTies.
	m = min(k+linalg.MaxTies, n)
	ws.nb = slices.Grow(ws.nb[:0], m)[:m]
	ws.nd = slices.Grow(ws.nd[:0], m)[:m]
	nearest(x, q, ws.nb, ws.nd)
	t := k
	for t < m && ws.nd[t] <= bound {
		t++
	}
	ws.nb, ws.nd = ws.nb[:t], ws.nd[:t]
}

// nearest writes the len(nb) nearest rows of x to q (by squared distance,
// ties by index) into nb and their squared distances into nd, ascending.
// Brute force, O(n p) per query.
func nearest(x *mat.Dense, q []float64, nb []int, nd []float64) {
	n, p := x.Dims()
	k := len(nb)
	cnt := 0
	for j := 0; j < n; j++ {
		row := x.RawRowView(j)[:p]
		// Once k candidates are kept, a partial sum at or above the k-th
		// distance rejects the row: the full sum could only be larger. The
		// terms are added in index order either way, so a row kept is
		// kept with the same distance.
		full := cnt == k
		var bound float64
		if full {
			bound = nd[k-1]
		}
		var s float64
		t := 0
		for ; t+8 <= p; t += 8 {
			r, v := row[t:t+8:t+8], q[t:t+8:t+8]
			e0, e1, e2, e3 := r[0]-v[0], r[1]-v[1], r[2]-v[2], r[3]-v[3]
			e4, e5, e6, e7 := r[4]-v[4], r[5]-v[5], r[6]-v[6], r[7]-v[7]
			s += e0 * e0
			s += e1 * e1
			s += e2 * e2
			s += e3 * e3
			s += e4 * e4
			s += e5 * e5
			s += e6 * e6
			s += e7 * e7
			if full && s >= bound {
				break
			}
		}
		if full && s >= bound {
			continue
		}
		for ; t < p; t++ {
			e := row[t] - q[t]
			s += e * e
		}
		if full && s >= bound {
			continue
		}
		// Insertion into the sorted prefix (k is small).
		pos := min(cnt, k-1)
		for pos > 0 && nd[pos-1] > s {
			nd[pos], nb[pos] = nd[pos-1], nb[pos-1]
			pos--
		}
		nd[pos], nb[pos] = s, j
		cnt = min(cnt+1, k)
	}
}

// directedAffinity is the graph the Spread classifier spreads over, built
// as scikit-learn's LabelSpreading builds its kNN graph: every point
// listens to its k nearest points counting itself (its k - 1 nearest
// others, the lists nb), the weights normalised by the in-degrees,
// 1/sqrt(din_i din_j), and the self-loop dropped. One difference: din
// counts the self-loop, where scikit-learn's degrees (scipy's normalised
// Laplacian) leave it out; with label spreading at alpha = 0.99 on the
// head-to-head draws, counting it was 1.3 points more accurate on average
// over 38 cells, better in 26 and worse in 8 (REPRODUCTION.md). Unlike
// the symmetrised graph of the eigenbasis, a point is not pulled by the
// many points that list it (hubs), so the scores act like a smoothed vote
// of each point's own neighbours. It also returns the factors
// 1/sqrt(din_i) of the weights.
func directedAffinity(n int, nb nbrLists) (*linalg.CSR, []float64) {
	din := make([]float64, n)
	for i := 0; i < n; i++ {
		din[i]++
		for _, j := range nb.idx[nb.ptr[i]:nb.ptr[i+1]] {
			din[j]++
		}
	}
	rp := make([]int, n+1)
	ci := make([]int, 0, len(nb.idx))
	v := make([]float64, 0, len(nb.idx))
	var row []int
	for i := 0; i < n; i++ {
		row = append(row[:0], nb.idx[nb.ptr[i]:nb.ptr[i+1]]...)
		sort.Ints(row)
		for _, j := range row {
			ci = append(ci, j)
			v = append(v, 1/math.Sqrt(din[i]*din[j]))
		}
		rp[i+1] = len(ci)
	}
	scale := make([]float64, n)
	for i, d := range din {
		scale[i] = 1 / math.Sqrt(d)
	}
	return &linalg.CSR{Rows: n, Cols: n, RowPtr: rp, ColIdx: ci, Val: v}, scale
}
