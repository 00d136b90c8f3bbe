package models

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// sharedDistMax is the largest n for which Select keeps the n x n squared
// distances between its RBF bases (8 n^2 bytes: 200 MB at n = 5,000).
const sharedDistMax = 5000

// shared holds the label-independent work that several bases of one
// Select reuse, by scaling: the median RBF width (and, for n up to
// sharedDistMax, the squared distances it came from, from which every RBF
// width's kernel is one exp per entry) and the nearest-neighbour lists of
// the largest k any kNN candidate needs, whose prefixes are the lists of
// the smaller k (the search is exact, ties broken by index). release drops
// the large parts once the selection is done.
type shared struct {
	mu    sync.Mutex
	maxK  int
	gamma map[Scaling]float64
	dist  map[Scaling]*mat.SymDense
	nbrs  map[Scaling]neighbors
}

type neighbors struct {
	k   int
	idx []int
	d2  []float64
}

func newShared(maxK int) *shared {
	return &shared{maxK: maxK, gamma: map[Scaling]float64{}, dist: map[Scaling]*mat.SymDense{}, nbrs: map[Scaling]neighbors{}}
}

func (s *shared) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dist, s.nbrs = map[Scaling]*mat.SymDense{}, map[Scaling]neighbors{}
}

// medianGamma returns the median-heuristic width of pr's scaled data.
func (s *shared) medianGamma(ctx context.Context, pr *prep) (float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := pr.opt.Scale
	if g, ok := s.gamma[sc]; ok {
		return g, nil
	}
	var g float64
	var err error
	if pr.n <= sharedDistMax && pr.n*(pr.n-1)/2 <= linalg.DefaultMaxPairs {
		d := mat.NewSymDense(pr.n, nil)
		if err = linalg.SquaredDistances(ctx, d, pr.xs); err == nil {
			g, err = linalg.MedianGammaOf(d)
			s.dist[sc] = d
		}
	} else {
		g, err = linalg.MedianGamma(ctx, pr.xs, &linalg.BandwidthOptions{Seed: pr.opt.Seed})
	}
	if errors.Is(err, linalg.ErrDegenerate) {
		return 0, fmt.Errorf("%w: RBF bandwidth: %w", ErrInput, err)
	}
	if err != nil {
		return 0, fmt.Errorf("models: RBF bandwidth: %w", err)
	}
	s.gamma[sc] = g
	return g, nil
}

// distances returns the kept squared distances of pr's scaled data, or nil.
func (s *shared) distances(pr *prep) *mat.SymDense {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dist[pr.opt.Scale]
}

// neighbors returns the k nearest neighbours of every point of pr's scaled
// data, as linalg.NearestNeighbors would.
func (s *shared) neighbors(ctx context.Context, pr *prep, k int) ([]int, []float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	nb, ok := s.nbrs[pr.opt.Scale]
	if !ok || nb.k < k {
		kk := min(max(k, s.maxK), pr.n-1)
		var idx []int
		var d2 []float64
		var err error
		if pr.opt.large(pr.n) {
			idx, d2, err = linalg.ApproxNearestNeighbors(ctx, pr.xs, kk, &linalg.ApproxOptions{Seed: pr.opt.Seed})
		} else {
			idx, d2, err = linalg.NearestNeighbors(ctx, pr.xs, kk, linalg.KNNAuto)
		}
		if err != nil {
			return nil, nil, err
		}
		nb = neighbors{kk, idx, d2}
		s.nbrs[pr.opt.Scale] = nb
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
