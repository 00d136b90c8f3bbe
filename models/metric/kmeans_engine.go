package metric

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"ukm/linalg"
)

// space is where k-means measures distances: points with coordinates, or a
// kernel's feature space. Centres are means of points (or single points
// after seeding).
type space interface {
	size() int
	// dist returns the squared distance between points i and j.
	dist(i, j int) float64
	// reset prepares k centres.
	reset(k int)
	// setPoint makes centre c the point i.
	setPoint(c, i int)
	// update makes every centre the mean of its points; clusters without
	// points keep their centre.
	update(labels []int)
	// costs fills dst[i*k+c] with the squared distance of point i to
	// centre c.
	costs(dst []float64)
}

// problem is the constrained k-means problem: units of points that must
// share a cluster and the cannot-link graph between units.
type problem struct {
	k      int
	units  [][]int // chunklets first (numbered as Chunklets), then free points
	unitOf []int
	adj    [][]int // cannot-link neighbours of each unit (chunklets only)
	order  []int   // chunklets with neighbours, assigned by DSatur
	cons   Constraints
}

func cluster(op string, ctx context.Context, sp space, k int, c Constraints, s *KMeansSettings) (*Clustering, error) {
	// A context that has ended is seen by the first round (Status Canceled).
	if err := linalg.CheckContext(op, ctx); err != nil {
		return nil, err
	}
	st, err := s.resolve(op)
	if err != nil {
		return nil, err
	}
	n := sp.size()
	if k < 1 || k > n {
		return nil, linalg.Errorf(linalg.ErrSettings, op, "k = %d, want 1 <= k <= %d", k, n)
	}
	ch, err := newChunklets(op, n, c)
	if err != nil {
		return nil, err
	}
	pr := &problem{k: k, units: ch.Groups, unitOf: make([]int, n), adj: ch.Discriminative, cons: c}
	for i, j := range ch.Of {
		if j < 0 {
			j = len(pr.units)
			pr.units = append(pr.units, []int{i})
		}
		pr.unitOf[i] = j
	}
	for j, d := range pr.adj {
		if len(d) > 0 {
			pr.order = append(pr.order, j)
		}
	}
	var best *Clustering
	for start := 0; start < st.Restarts; start++ {
		rng := rand.New(rand.NewPCG(st.Seed, uint64(start)+0x6b6d))
		res, err := pr.run(ctx, sp, rng, st.MaxIter)
		if err != nil {
			if best == nil {
				best = &Clustering{}
			}
			best.Status = linalg.Canceled
			return best, fmt.Errorf("%s: %w", op, err)
		}
		if best == nil || len(res.Violated) < len(best.Violated) ||
			(len(res.Violated) == len(best.Violated) && res.Objective < best.Objective) {
			best = res
		}
	}
	return best, nil
}

// run is one start: k-means++ seeding, then rounds until the assignment
// repeats.
func (pr *problem) run(ctx context.Context, sp space, rng *rand.Rand, maxIter int) (*Clustering, error) {
	n, k := sp.size(), pr.k
	sp.reset(k)
	// k-means++: the first centre uniformly, then each next one with
	// probability proportional to the squared distance to the nearest.
	d2 := make([]float64, n)
	first := rng.IntN(n)
	sp.setPoint(0, first)
	for i := range d2 {
		d2[i] = sp.dist(i, first)
	}
	for c := 1; c < k; c++ {
		var tot float64
		for _, v := range d2 {
			tot += v
		}
		pick := rng.IntN(n)
		if tot > 0 {
			r := rng.Float64() * tot
			for i, v := range d2 {
				r -= v
				if r < 0 || i == n-1 {
					pick = i
					break
				}
			}
		}
		sp.setPoint(c, pick)
		for i := range d2 {
			d2[i] = math.Min(d2[i], sp.dist(i, pick))
		}
	}
	rank := rng.Perm(len(pr.units)) // tie-break of the assignment order
	cost := make([]float64, n*k)
	labels := make([]int, n)
	prev := make([]int, n)
	for i := range prev {
		prev[i] = -1
	}
	res := &Clustering{Status: linalg.IterationLimit}
	for it := 1; it <= maxIter; it++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sp.costs(cost)
		obj, far := pr.assign(cost, rank, labels)
		res.Iterations, res.Objective = it, obj
		same := true
		for i := range labels {
			same = same && labels[i] == prev[i]
		}
		if same {
			res.Status = linalg.Converged
			break
		}
		copy(prev, labels)
		sp.update(labels)
		// An empty cluster takes the point farthest from its centre, when
		// there are units enough to fill every cluster.
		if len(pr.units) >= k {
			count := make([]int, k)
			for _, l := range labels {
				count[l]++
			}
			for c, m := range count {
				if m == 0 && far >= 0 {
					sp.setPoint(c, far)
					far = -1
				}
			}
		}
	}
	res.Labels = labels
	for q, p := range pr.cons.Dissimilar {
		if labels[p.I] == labels[p.J] {
			res.Violated = append(res.Violated, q)
		}
	}
	if len(res.Violated) > 0 {
		res.Status = linalg.Infeasible
	}
	return res, nil
}

// assign puts every unit in a cluster and returns the objective and the
// point farthest from its centre. Units without cannot-links go to their
// nearest centre. The others are assigned in DSatur order (the unit whose
// neighbours already use the most distinct clusters first, then the one
// with most neighbours, then the larger, then by the random rank), each to
// the nearest cluster none of its assigned neighbours uses, or to the
// nearest cluster when every cluster is used.
func (pr *problem) assign(cost []float64, rank []int, labels []int) (float64, int) {
	k := pr.k
	uc := make([]float64, k)
	unitCost := func(u int) []float64 {
		clear(uc)
		for _, i := range pr.units[u] {
			for c, v := range cost[i*k : (i+1)*k] {
				uc[c] += v
			}
		}
		return uc
	}
	label := make([]int, len(pr.units))
	for u := range label {
		label[u] = -1
	}
	var obj float64
	for u := range pr.units {
		if u < len(pr.adj) && len(pr.adj[u]) > 0 {
			continue
		}
		c := argmin(unitCost(u), nil)
		label[u] = c
		obj += uc[c]
	}
	used := make([]int, len(pr.adj)*k) // assigned neighbours per (unit, cluster)
	sat := make([]int, len(pr.adj))
	for range pr.order {
		pick := -1
		for _, u := range pr.order {
			if label[u] >= 0 {
				continue
			}
			if pick < 0 || better(u, pick, sat, pr, rank) {
				pick = u
			}
		}
		uc := unitCost(pick)
		c := argmin(uc, used[pick*k:(pick+1)*k])
		if c < 0 {
			c = argmin(uc, nil)
		}
		label[pick] = c
		obj += uc[c]
		for _, v := range pr.adj[pick] {
			if used[v*k+c] == 0 {
				sat[v]++
			}
			used[v*k+c]++
		}
	}
	far, farCost := -1, -1.0
	for u, g := range pr.units {
		for _, i := range g {
			labels[i] = label[u]
			if v := cost[i*k+label[u]]; v > farCost {
				far, farCost = i, v
			}
		}
	}
	return obj, far
}

// better reports whether unit a comes before unit b in DSatur order.
func better(a, b int, sat []int, pr *problem, rank []int) bool {
	if sat[a] != sat[b] {
		return sat[a] > sat[b]
	}
	if da, db := len(pr.adj[a]), len(pr.adj[b]); da != db {
		return da > db
	}
	if sa, sb := len(pr.units[a]), len(pr.units[b]); sa != sb {
		return sa > sb
	}
	return rank[a] < rank[b]
}

// argmin returns the index of the smallest v[c] among the clusters with
// used[c] == 0 (all when used is nil), or -1 if there is none.
func argmin(v []float64, used []int) int {
	best := -1
	for c, x := range v {
		if used != nil && used[c] > 0 {
			continue
		}
		if best < 0 || x < v[best] {
			best = c
		}
	}
	return best
}
