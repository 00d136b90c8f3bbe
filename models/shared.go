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
// lists of the smaller k (within the tie bound of the k-th distance on the
// exact path, see linalg.TrimTies). release drops the lists once the
// selection is done.
type shared struct {
	mu    sync.Mutex
	maxK  int
	gamma map[Scaling]float64
	nbrs  map[spaceKey]nbrLists
}

func newShared(maxK int) *shared {
	return &shared{maxK: maxK, gamma: map[Scaling]float64{}, nbrs: map[spaceKey]nbrLists{}}
}

func (s *shared) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nbrs = map[spaceKey]nbrLists{}
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
func (s *shared) neighbors(ctx context.Context, pr *prep, k int) (nbrLists, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	key := pr.opt.graphSpaceKey()
	nb, ok := s.nbrs[key]
	if !ok || nb.k < k {
		var err error
		if nb, err = pr.searchNeighbors(ctx, min(max(k, s.maxK), pr.n-1)); err != nil {
			return nbrLists{}, err
		}
		s.nbrs[key] = nb
	}
	return nb.trim(k)
}
