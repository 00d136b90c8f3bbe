package eig

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The restart driver of the Krylov engine (krylov.go): the main loop,
// thick restarts that keep the most wanted Ritz vectors, and the
// multiplicity check.

// run is the main loop. It returns the number of complete basis vectors,
// the final status and an error.
func (k *krylov) run(ctx context.Context) (int, linalg.Status, error) {
	cfg := k.cfg
	d, p, m := cfg.d, k.p, k.m
	// Start block: the user's vector (or a random one) and random others.
	init := mat.NewDense(p, k.n, nil)
	for r := 0; r < p; r++ {
		if r == 0 && cfg.start != nil {
			copy(init.RawRowView(0), cfg.start)
			continue
		}
		k.randomRow(init.RawRowView(r))
	}
	var lbuf [64 * 64]float64
	k.orthonormalize(init, 0, nil, lbuf[:p*p], nil)

	c := 0
	verifying := false
	verified := false // a check found nothing: the next convergence ends
	verifyEnd := 0    // iteration count at which the check ends
	ref := make([]float64, d)
	// Length of the multiplicity check before its first look at the new
	// Ritz values: half a cycle of the restarted methods, but at least
	// (d+20)/2 vectors (restarting inside the check if the basis is
	// small); then every quarter of that until the new value is
	// resolved. (A whole cycle before the first look cost products at
	// large d, where Ritz values are computed only at the end of a cycle.)
	cycle := (max(m-d, d+20)/2 + p - 1) / p
	if !k.restart {
		cycle = (max(d, 20) + p - 1) / p
	}
	work := 0
	// Convergence forecast: the worst residual estimate (over the
	// tolerance) at the last two checks, and the step before which no
	// check is made.
	var fc forecast
	for {
		if err := ctx.Err(); err != nil {
			return c, linalg.Canceled, canceled(cfg.op, err)
		}
		if k.iters >= cfg.maxIter {
			return c, linalg.IterationLimit, nil
		}
		if err := k.stepLast(c, c+2*p > k.n); err != nil {
			return c, linalg.NumericalFailure, err
		}
		c += p
		work += 8 * k.n * c * p
		if k.blockOp {
			// A product of an operator with block products is priced as
			// that of a dense matrix: streaming the matrix from memory
			// once costs as much time as about 12 n^2 flops of the block
			// kernels, whatever the block size (up to about 6 vectors); a
			// matrix that stays in cache costs its flops. (The cost of
			// other operators' products is unknown and not counted.)
			if k.n*k.n >= cacheEntries {
				work += 2 * k.n * k.n * max(p, 6)
			} else {
				work += 2 * k.n * k.n * p
			}
		}
		// A basis of n-p vectors is completed to the whole space (exact
		// pairs) rather than restarted.
		full := c+p == k.n
		end := k.exhausted || (c+p > m && !full) || (verifying && k.iters >= verifyEnd && !full)
		if c < d || (!end && (work < ritzWork*c*c*c || k.iters < fc.next)) {
			continue
		}
		work = 0
		nw := d
		if verifying && c > d {
			nw = d + 1
		}
		// Values only unless a restart (or the end of the check) follows,
		// which needs the vectors.
		k.ritz(c, nw, end)
		nconv := 0
		worst := 0.0
		for a := 0; a < d; a++ {
			lim := k.limit(a)
			if k.res[a] <= lim {
				nconv++
			}
			worst = math.Max(worst, k.res[a]/lim)
		}
		if verifying || nconv == d {
			fc = forecast{}
		} else {
			fc.observe(k.iters, worst)
		}
		if verifying {
			// Values within win of each other count as copies (as for
			// Result.Repeated): a new copy of the boundary value, or one
			// that differs from it by rounding, improves nothing.
			win := math.Sqrt(cfg.tol) * k.normA
			improved := false
			for a := 0; a < d; a++ {
				if k.sign*(k.theta[k.order[a]]-ref[a]) > win {
					improved = true
				}
			}
			if improved {
				// A missed copy of a repeated eigenvalue: iterate on (and
				// check again once everything has converged).
				verifying = false
			} else {
				// The check ends once the most wanted Ritz value outside
				// the wanted set is resolved (residual below a hundredth
				// of its distance to the wanted set, or converged, or a
				// copy of the last wanted value within win): Lanczos
				// resolves the extreme eigenvalue of the deflated operator
				// first, and a missed copy would be that extreme.
				resolved := k.exhausted
				if nw > d && !resolved {
					gap := k.sign * (k.theta[k.order[d-1]] - k.theta[k.order[d]])
					resolved = k.res[d] <= k.limit(d) || (gap > 0 && k.res[d] <= 1e-2*gap) ||
						(gap <= win && k.res[d] <= win)
				}
				if !resolved {
					// Not resolved yet: the check goes on, however long
					// the deflated operator takes (or until MaxIter).
					// Accepting an unresolved check let a copy slip
					// through when its gap to the rest of the spectrum
					// was small.
					if k.iters >= verifyEnd {
						verifyEnd = k.iters + max(1, (cycle+3)/4)
					}
					if c+p > m && !full {
						// Basis full inside the check: restart and go on.
						kk := max(d, min(d+(c-d)/2, c-p))
						k.restartKeep(c, kk, false)
						c = kk
					}
					continue
				}
				verifying = false
				verified = true
			}
		}
		if nconv == d {
			if verified || !cfg.verify || d+p > m || !k.mayMissCopies(d) {
				return c, linalg.Converged, nil
			}
			// Lock the d converged pairs and look for missed copies of
			// repeated eigenvalues from fresh random vectors.
			for a := 0; a < d; a++ {
				ref[a] = k.theta[k.order[a]]
			}
			k.restartKeep(c, d, true)
			c = d
			// The recurrence first, unless a wanted value already
			// came twice: a repeated eigenvalue whose other copies the
			// single vector may have missed, which the recurrence would
			// find only to hand over to the check in the basis, which
			// then finds it again.
			if k.p == 1 && !cfg.relTol && repeated(ref, math.Sqrt(cfg.tol)*k.normA) < 2 {
				ok, err := k.screenCopies(ctx, d, ref, cycle, max(1, (cycle+3)/4))
				if err != nil {
					return c, linalg.Canceled, canceled(cfg.op, err)
				}
				if ok {
					return c, linalg.Converged, nil
				}
			}
			verifying = true
			verifyEnd = k.iters + cycle
			continue
		}
		if k.exhausted {
			return c, linalg.IterationLimit, nil // cannot happen: exact pairs converge
		}
		if c+p > m && !full {
			if !k.restart {
				return c, linalg.IterationLimit, nil
			}
			kk := d + (c-d)/2
			kk = max(d, min(kk, c-p))
			k.restartKeep(c, kk, false)
			c = kk
		}
	}
}

// rotate replaces V[0:kk] by the Ritz vectors order[0:kk] of T[0:c,0:c]
// (ritz must have been called with the same c).
func (k *krylov) rotate(c, kk int) {
	for a := 0; a < kk; a++ {
		j := k.order[a]
		for i := 0; i < c; i++ {
			k.g[i*kk+a] = -k.tc[i*c+j]
		}
	}
	k.gk = kk
	k.oj.olen = c
	k.team.run(k.team.jobs[2], 2*kk*c*k.n)
}

// partRotate sets V[0:gk][:, lo:hi] = G V[0:c][:, lo:hi] in place, with G
// the gk x c rotation, stored negated and transposed in k.g (entry (a, i)
// at k.g[i*gk+a]) so that subTN computes the product.
func (k *krylov) partRotate(part, lo, hi int) {
	c := k.oj.olen
	gk := k.gk
	buf := k.rot[part]
	if buf == nil {
		// Once per solve, and only if it restarts.
		buf = make([]float64, (k.m+k.p)*min(rotChunk, k.n))
		k.rot[part] = buf
	}
	vr := k.v.RawMatrix()
	combineRows(vr.Data, vr.Stride, k.g, gk, c, lo, hi, buf)
}

// restartKeep performs a thick restart: keeps the kk most wanted Ritz
// vectors, moves the residual block after them, and sets T to the Ritz
// values bordered by the transformed couplings. If fresh is true the
// residual block is replaced by random vectors and the couplings dropped
// (locking the kept vectors, which must have converged).
func (k *krylov) restartKeep(c, kk int, fresh bool) {
	p, ld := k.p, k.ldt
	coup := k.coup[:p*kk]
	k.ensureVectors(c)
	defer func() { k.ritzC = -1 }()
	if !fresh {
		for r := 0; r < p; r++ {
			row := k.t[(c+r)*ld : (c+r)*ld+c]
			for a := 0; a < kk; a++ {
				j := k.order[a]
				var s float64
				for i, tv := range row {
					s += tv * k.tc[i*c+j]
				}
				coup[r*kk+a] = s
			}
		}
	}
	k.rotate(c, kk)
	for i := range k.t {
		k.t[i] = 0
	}
	for a := 0; a < kk; a++ {
		k.t[a*ld+a] = k.theta[k.order[a]]
	}
	if fresh {
		for r := 0; r < p; r++ {
			k.randomUnit(k.v.RawRowView(kk+r), kk+r)
		}
	} else {
		for r := 0; r < p; r++ {
			copy(k.v.RawRowView(kk+r), k.v.RawRowView(c+r))
			for a := 0; a < kk; a++ {
				k.t[(kk+r)*ld+a] = coup[r*kk+a]
				k.t[a*ld+kk+r] = coup[r*kk+a]
			}
		}
	}
	k.restarts++
	if k.restarts%10 == 0 {
		// The rotations lose orthogonality slowly (about eps per restart);
		// re-orthonormalize the kept vectors now and then. The change is at
		// round-off level, so T stays valid to that level.
		gramSchmidtRows(k.v, kk)
	}
}
