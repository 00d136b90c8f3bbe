package models

import (
	"context"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// BasisCache keeps the bases (eigenpairs, or kernels for the Standard
// design) that Select and Loop compute for one data matrix, keyed by
// everything they depend on (kernel, scaling, graph, tolerance, seed), so
// that later calls on the same x reuse them: the selections of other
// labeled sets, or the loops of several selectors from one labeled set.
// The bases do not depend on the labels, except that the copies of a
// repeated eigenvalue are put in the basis the labeled points single out
// (see the package documentation, step 4), which each call redoes for its
// own labeled set. A model fitted from a cached basis reports zero kernel
// and eigen times. It is safe for concurrent use; its memory is that of the
// bases it holds, n x d values each, with the scaled data. The zero value
// is ready to use; it binds to the first x it sees, and a later call with
// another x is an error.
type BasisCache struct {
	mu sync.Mutex
	x  *mat.Dense
	m  map[string]*prep
}

// reuse returns a copy of the basis cached under key for labeled, or nil
// when there is none or it holds fewer than the d pairs wanted (unless it
// was cut below the d it was computed for, by EnergyFraction or the
// round-off rule, and so holds all there is).
func (c *BasisCache) reuse(x *mat.Dense, key string, labeled []int, d ...int) (*prep, error) {
	c.mu.Lock()
	if c.x != nil && c.x != x {
		c.mu.Unlock()
		return nil, inputf(linalg.ErrSettings, "the basis cache belongs to another data matrix")
	}
	pr := c.m[key]
	c.mu.Unlock()
	// A cached prep is never modified, so the copy below (O(n d) for a
	// repeated eigenvalue) runs outside the lock.
	if pr == nil {
		return nil, nil
	}
	if pr.basis != nil {
		_, have := pr.basis.V.Dims()
		for _, want := range d {
			if have < want && have >= pr.opt.d {
				return nil, nil
			}
		}
	}
	q := *pr
	q.times = StageTimes{}
	q.basis = canonicalFor(pr.basis, labeled, copyRelTol(pr.opt.EigTol))
	return &q, nil
}

func (c *BasisCache) put(x *mat.Dense, key string, pr *prep) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*prep{}
	}
	c.x = x
	c.m[key] = pr
}

// cachedGroup is prepareGroup through the cache, if any. A cached basis
// needs a larger d than it holds only when the candidates changed; it is
// then recomputed.
func cachedGroup(ctx context.Context, c *BasisCache, sh *shared, x *mat.Dense, labeled, labels []int, res []resolved, members []int, key string) (*prep, error) {
	if c == nil {
		return prepareGroup(ctx, sh, x, labeled, labels, res, members)
	}
	d := make([]int, len(members))
	for a, i := range members {
		d[a] = res[i].d
	}
	pr, err := c.reuse(x, key, labeled, d...)
	if pr != nil || err != nil {
		return pr, err
	}
	pr, err = prepareGroup(ctx, sh, x, labeled, labels, res, members)
	if err == nil {
		c.put(x, key, pr)
	}
	return pr, err
}

// cachedPrepare is prepare through the cache, if any (for Loop).
func cachedPrepare(ctx context.Context, c *BasisCache, x *mat.Dense, labeled, labels []int, opt *Options) (*prep, error) {
	if c == nil {
		return prepare(ctx, x, labeled, labels, opt)
	}
	r, _, classes, err := resolveData(x, labeled, labels, opt)
	if err != nil {
		return nil, err
	}
	key := basisKey(&r)
	pr, err := c.reuse(x, key, labeled, r.d)
	if err != nil {
		return nil, err
	}
	if pr != nil {
		return pr.withOptions(r, classes), nil
	}
	if pr, err = prepare(ctx, x, labeled, labels, opt); err == nil {
		c.put(x, key, pr)
	}
	return pr, err
}
