package models

import (
	"context"
	"fmt"
	"math"

	"ukm/eig"
	"ukm/linalg"
	"ukm/models/spectral"
)

// The large-n path. Above DefaultLargeN points (or when Options.Large asks
// for it) no n x n matrix is formed: a kernel basis comes from Nyström
// landmarks (eig.Nystrom: the kernel block K(X, L) streamed in row blocks,
// an m x m eigenproblem, the one-shot orthonormalisation, so the vectors are
// orthonormal), and a graph basis from an approximate kNN search
// (linalg.ApproxNearestNeighbors) and the sparse eigensolver. Memory is
// O(n (d + k) + n m) with the n x m block cached only up to
// eig.DefaultNystromCache entries (O(m^2 + n d) beyond).

// LargeMode selects the exact or the large-n path.
type LargeMode int

const (
	// LargeAuto takes the large-n path above DefaultLargeN points (the
	// zero value).
	LargeAuto LargeMode = iota
	// LargeOff always takes the exact path (dense n x n kernels, exact kNN).
	LargeOff
	// LargeOn always takes the large-n path.
	LargeOn
)

const (
	// DefaultLargeN is the size above which LargeAuto takes the large-n
	// path: the exact path's n x n kernel takes 8 n^2 bytes (800 MB at
	// n = 10,000) and its exact kNN search O(n^2 p) time.
	DefaultLargeN = 10000
	// DefaultLandmarks is the Nyström landmark count m when
	// Options.Landmarks is zero (capped at n).
	DefaultLandmarks = 1000
	// DefaultMaxMemory is the memory budget of one fit when
	// Options.MaxMemory is zero: a request whose estimate exceeds it is
	// refused before anything large is allocated.
	DefaultMaxMemory = 8 << 30
)

// large reports whether r takes the large-n path for n points.
func (r *resolved) large(n int) bool {
	switch r.Large {
	case LargeOn:
		return true
	case LargeOff:
		return false
	}
	return n > DefaultLargeN
}

// memoryEstimate returns the bytes the largest allocations of a fit with r
// on n x p data need: the n x n kernel (twice for the fused RBF path, whose
// distances and kernel coexist briefly) on the exact path, the cached
// Nyström block on the large-n path, plus the scaled data and the basis.
func (r *resolved) memoryEstimate(n, p, l int) float64 {
	fn, fp := float64(n), float64(p)
	est := 8*fn*fp + 8*fn*float64(r.d)*2
	switch {
	case r.Design == Standard:
		est += 8 * fn * float64(l) // the n x l kernel block
	case r.GraphFeatures != nil && (r.Design.graph() || r.Kernel.Kind == KNN || r.Classifier == Spread):
		q, _ := r.GraphFeatures.Len(p)
		if dims := r.graphDims(n, q); dims > 0 {
			// Projected: the descriptors are computed graphBlock rows at a time.
			est += 8*fn*float64(dims) + 8*float64(min(n, graphBlock)*q)
		} else {
			est += 8 * fn * float64(q)
		}
		est += 8 * fn * float64(r.GraphK) * 4
	case r.large(n):
		m := float64(min(r.landmarks(), n))
		est += 8 * math.Min(fn*m, eig.DefaultNystromCache)
		est += 8 * fn * float64(r.GraphK) * 4
	case r.Design.graph() || r.Kernel.Kind == KNN:
		est += 8 * fn * float64(r.GraphK) * 4
	default:
		est += 2 * 8 * fn * fn
	}
	return est
}

func (r *resolved) landmarks() int {
	if r.Landmarks > 0 {
		return r.Landmarks
	}
	return DefaultLandmarks
}

// checkMemory refuses a request whose estimate exceeds the budget, naming
// the options that lower it.
func (r *resolved) checkMemory(n, p, l int) error {
	budget := float64(r.MaxMemory)
	if budget == 0 {
		budget = DefaultMaxMemory
	}
	if est := r.memoryEstimate(n, p, l); est > budget {
		hint := "take the large-n path (Options.Large = LargeOn) or use fewer points"
		if r.large(n) {
			hint = "lower Options.Landmarks, D or GraphK"
		}
		return inputf(linalg.ErrSettings, "the fit needs about %.1f GB, above the %.1f GB budget (Options.MaxMemory): %s",
			est/(1<<30), budget/(1<<30), hint)
	}
	return nil
}

// nbrLists are neighbour lists: the neighbours of point i are
// idx[ptr[i]:ptr[i+1]], with squared distances d2, in increasing order. On
// the exact path (tied) they are linalg.TiedNeighbors' (the k nearest and
// every point tied with the k-th, so that the graph of data with copies of
// a row does not depend on the order of the rows); on the large-n path the
// approximate search's k per point.
type nbrLists struct {
	k    int
	ptr  []int
	idx  []int
	d2   []float64
	tied bool
}

// trim returns the lists for a smaller k: TrimTies' prefixes, or the first
// k of each list. k = 0 gives empty lists.
func (l nbrLists) trim(k int) (nbrLists, error) {
	if k == l.k {
		return l, nil
	}
	n := len(l.ptr) - 1
	if k == 0 {
		return nbrLists{ptr: make([]int, n+1), tied: l.tied}, nil
	}
	if l.tied {
		ptr, idx, d2, err := linalg.TrimTies(l.ptr, l.idx, l.d2, k)
		return nbrLists{k, ptr, idx, d2, true}, err
	}
	out := nbrLists{k: k, ptr: make([]int, n+1), idx: make([]int, n*k), d2: make([]float64, n*k)}
	for i := 0; i < n; i++ {
		out.ptr[i+1] = (i + 1) * k
		copy(out.idx[i*k:(i+1)*k], l.idx[l.ptr[i]:])
		copy(out.d2[i*k:(i+1)*k], l.d2[l.ptr[i]:])
	}
	return out, nil
}

// neighbors returns the kNN lists of the scaled data, through the
// selection's shared lists when there are some.
func (pr *prep) neighbors(ctx context.Context, k int) (nbrLists, error) {
	if pr.sh != nil {
		return pr.sh.neighbors(ctx, pr, k)
	}
	return pr.searchNeighbors(ctx, k)
}

// graphDims returns the number of principal components the kNN graph is
// searched in, or 0 for the scaled features themselves.
func (r *resolved) graphDims(n, p int) int {
	q := r.GraphDims
	if q == 0 && r.large(n) && n > DefaultLargeN {
		q = DefaultGraphDims
	}
	if q <= 0 || q >= p {
		return 0
	}
	return q
}

// searchNeighbors searches the kNN lists of the scaled data (or of their
// projection, see graphSpace): exactly, with ties, on the exact path;
// approximately on the large-n path.
func (pr *prep) searchNeighbors(ctx context.Context, k int) (nbrLists, error) {
	x, err := pr.graphSpace(ctx)
	if err != nil {
		return nbrLists{}, err
	}
	if pr.opt.large(pr.n) {
		ao := &linalg.ApproxOptions{Seed: pr.opt.Seed}
		if p := pr.opt.Progress; p != nil {
			ao.Progress = func(done, total int) {
				if done < total {
					p("neighbors", done, total)
				}
			}
		}
		idx, d2, err := linalg.ApproxNearestNeighbors(ctx, x, k, ao)
		pr.progress("neighbors")
		if err != nil {
			return nbrLists{}, err
		}
		ptr := make([]int, pr.n+1)
		for i := range ptr {
			ptr[i] = i * k
		}
		return nbrLists{k, ptr, idx, d2, false}, nil
	}
	ptr, idx, d2, err := linalg.TiedNeighbors(ctx, x, k, linalg.KNNAuto)
	pr.progress("neighbors")
	return nbrLists{k, ptr, idx, d2, true}, err
}

// progress reports the end of a stage to Options.Progress, if set.
func (pr *prep) progress(stage string) {
	if p := pr.opt.Progress; p != nil {
		p(stage, 1, 1)
	}
}

// nystromBasis computes the top d eigenpairs of the initial kernel from
// m landmarks (the large-n path of the kernel designs).
func (pr *prep) nystromBasis(ctx context.Context, labeled []int) error {
	kern := pr.kern
	if pr.norm {
		// The Gram builders compute it by matrix products (the Gram matrix
		// that linalg.CosineNormalize would normalise is never formed).
		kern = linalg.Cosine{Kernel: pr.kern}
	}
	m := min(pr.opt.landmarks(), pr.n)
	d := min(pr.opt.d, m)
	res, err := eig.Nystrom(ctx, kern, pr.xs, m, d, &eig.NystromSettings{Seed: pr.opt.Seed})
	if err != nil {
		return fmt.Errorf("models: Nyström eigenpairs: %w", err)
	}
	vals, vecs := dropRoundoff(res.Values, res.Vectors)
	vals = append([]float64(nil), vals...)
	canonicalGroups(vals, vecs, labeled, copyRelTol(pr.opt.EigTol))
	pr.basis = &spectral.Basis{Values: vals, V: vecs}
	return nil
}
