package models

import (
	"context"
	"sync"

	"ukm/linalg"
)

// shared holds the label-independent work that several bases of one
// Select reuse: by scaling, the median RBF width; by the space the graph
// is searched in (spaceKey), the nearest-neighbour
// lists of the largest k any kNN candidate needs, whose prefixes are the
// lists of the smaller k (the exact search breaks ties by index, so a
// prefix is the smaller search's answer). release drops the lists once the
// selection is done.
type shared struct {
	mu    sync.Mutex
	maxK  int
	gamma map[Scaling]float64
	nbrs  map[spaceKey]neighbors
}

type neighbors struct {
	k   int
	idx []int
	d2  []float64
}

func newShared(maxK int) *shared {
	return &shared{maxK: maxK, gamma: map[Scaling]float64{}, nbrs: map[spaceKey]neighbors{}}
}

func (s *shared) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nbrs = map[spaceKey]neighbors{}
}

// medianGamma returns the median-heuristic width of pr's scaled data,
// computed once per scaling as a plain Fit computes it.
func (s *shared) medianGamma(ctx context.Context, pr *prep) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g, ok := s.gamma[pr.opt.Scale]; ok {
		return g, nil
	}
	g, err := linalg.MedianGamma(ctx, pr.xs, &linalg.BandwidthOptions{Seed: pr.opt.Seed})
	if err == nil {
		s.gamma[pr.opt.Scale] = g
	}
	return g, err
}

// neighbors returns the k nearest neighbours of every point of pr's scaled
// data, as pr.searchNeighbors would.
func (s *shared) neighbors(ctx context.Context, pr *prep, k int) ([]int, []float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := pr.opt.graphSpaceKey()
	nb, ok := s.nbrs[key]
	if !ok || nb.k < k {
		kk := min(max(k, s.maxK), pr.n-1)
		idx, d2, err := pr.searchNeighbors(ctx, kk)
		if err != nil {
			return nil, nil, err
		}
		nb = neighbors{kk, idx, d2}
		s.nbrs[key] = nb
	}
	if nb.k == k {
		return nb.idx, nb.d2, nil
	}
	idx := make([]int, pr.n*k)
	d2 := make([]float64, pr.n*k)
	for i := 0; i < pr.n; i++ {
		copy(idx[i*k:(i+1)*k], nb.idx[i*nb.k:])
		copy(d2[i*k:(i+1)*k], nb.d2[i*nb.k:])
	}
	return idx, d2, nil
}
