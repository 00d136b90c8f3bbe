package models

import (
	"context"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// shared holds the label-independent work that several bases of one
// Select reuse: by scaling, the scaled data and the median RBF width; by
// the space the graph is searched in (spaceKey), the nearest-neighbour
// lists of the largest k any kNN candidate needs, whose prefixes are the
// lists of the smaller k (within the tie bound of the k-th distance on the
// exact path, see linalg.TrimTies). release drops the lists and its hold on
// the scaled data once the selection is done.
type shared struct {
	mu     sync.Mutex
	maxK   int
	gamma  map[Scaling]float64
	nbrs   map[spaceKey]nbrLists
	scaled map[Scaling]scaledData
}

// scaledData is the data scaled one way, with its scaler (nil for
// NoScaling). The bases of a selection read it and never write it, so they
// share one copy: on the large-n path that copy is n x p values.
type scaledData struct {
	xs     *mat.Dense
	scaler *linalg.Scaler
}

func newShared(maxK int) *shared {
	return &shared{maxK: maxK, gamma: map[Scaling]float64{}, nbrs: map[spaceKey]nbrLists{}, scaled: map[Scaling]scaledData{}}
}

// release drops the neighbour lists and the shared scaled data (the models
// fitted keep what they use).
func (s *shared) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nbrs = map[spaceKey]nbrLists{}
	s.scaled = map[Scaling]scaledData{}
}

// scale returns x scaled by method, computed once per method.
func (s *shared) scale(x *mat.Dense, method Scaling) (scaledData, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.scaled[method]; ok {
		return d, nil
	}
	d, err := scaleData(x, method)
	if err == nil {
		s.scaled[method] = d
	}
	return d, err
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
