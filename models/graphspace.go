package models

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The space a kNN graph is searched in: the scaled points, or their HOG
// descriptors (Options.GraphFeatures), either of them possibly projected
// onto their leading principal components (Options.GraphDims).

// spaceKey identifies the space a kNN graph is searched in: candidates of
// one selection with equal keys share their neighbour lists.
type spaceKey struct {
	scale Scaling
	dims  int
	hog   linalg.HOG // zero without GraphFeatures
}

func (r *resolved) graphSpaceKey() spaceKey {
	k := spaceKey{scale: r.Scale, dims: r.GraphDims}
	if h := r.GraphFeatures; h != nil {
		k.hog = *h
	}
	return k
}

// graphBlock is the number of rows described and projected at a time, so
// that the n x len(descriptor) matrix of a projected space is never held
// whole (70,000 HOG descriptors of Fashion-MNIST would take 247 MB).
const graphBlock = 4096

// graphSpace returns the training points in the space the kNN graph is
// searched in (see toGraphSpace); the projection is fitted on the first
// call (or known, in a loaded model) and the points kept in pr.xg for new
// points.
func (pr *prep) graphSpace(ctx context.Context) (*mat.Dense, error) {
	if pr.xg != nil {
		return pr.xg, nil
	}
	if pr.proj == nil {
		pc, err := pr.fitProjection(ctx)
		if err != nil {
			return nil, fmt.Errorf("models: principal components for the kNN graph: %w", err)
		}
		pr.proj = pc
	}
	xg, err := pr.toGraphSpace(ctx, pr.xs)
	if err != nil {
		return nil, err
	}
	if pr.opt.GraphFeatures != nil {
		pr.progress("describe")
	}
	if pr.proj != nil {
		pr.progress("project")
	}
	pr.xg = xg
	return xg, nil
}

// fitProjection fits the principal components of GraphDims, or returns nil
// when the graph is searched without a projection. On the scaled points it
// is linalg.FitPCA with its default sample; on HOG descriptors the
// components (and the mean, which shifts every projected point alike and
// so moves no distance) are fitted on the descriptors of a seeded sample
// of DefaultPCASample points, the only ones described whole.
func (pr *prep) fitProjection(ctx context.Context) (*linalg.PCA, error) {
	_, p := pr.xs.Dims()
	h := pr.opt.GraphFeatures
	width := p
	if h != nil {
		width, _ = h.Len(p) // resolved in prepareStages
	}
	q := pr.opt.graphDims(pr.n, width)
	if q == 0 {
		return nil, nil
	}
	if h == nil {
		return linalg.FitPCA(ctx, pr.xs, q, 0, pr.opt.Seed)
	}
	rows := rand.New(rand.NewPCG(pr.opt.Seed, 0x686f67)).Perm(pr.n)
	rows = rows[:min(pr.n, linalg.DefaultPCASample)]
	slices.Sort(rows)
	sample := mat.NewDense(len(rows), p, nil)
	for a, i := range rows {
		sample.SetRow(a, pr.xs.RawRowView(i))
	}
	f, err := h.Transform(ctx, sample)
	if err != nil {
		return nil, err
	}
	return linalg.FitPCA(ctx, f, q, -1, pr.opt.Seed)
}

// toGraphSpace maps points z (scaled, one per row) to the graph's space:
// z itself when there are neither descriptors nor a projection; otherwise
// described and projected graphBlock rows at a time.
func (pr *prep) toGraphSpace(ctx context.Context, z *mat.Dense) (*mat.Dense, error) {
	h := pr.opt.GraphFeatures
	if h == nil && pr.proj == nil {
		return z, nil
	}
	m, p := z.Dims()
	if h != nil && pr.proj == nil { // the descriptors themselves
		f, err := h.Transform(ctx, z)
		if err != nil {
			return nil, fmt.Errorf("models: GraphFeatures: %w", err)
		}
		return f, nil
	}
	_, q := pr.proj.Components.Dims()
	out := mat.NewDense(m, q, nil)
	for lo := 0; lo < m; lo += graphBlock {
		hi := min(lo+graphBlock, m)
		f := z.Slice(lo, hi, 0, p).(*mat.Dense)
		if h != nil {
			var err error
			if f, err = h.Transform(ctx, f); err != nil {
				return nil, fmt.Errorf("models: GraphFeatures: %w", err)
			}
		}
		g, err := pr.proj.Transform(f)
		if err != nil {
			return nil, fmt.Errorf("models: %w", err)
		}
		out.Slice(lo, hi, 0, q).(*mat.Dense).Copy(g)
	}
	return out, nil
}
