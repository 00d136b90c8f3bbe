package eig

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// One expansion step of the Krylov engine (krylov.go): the operator
// applied to the current block, the block three-term recurrence, and the
// new block appended to the basis with its couplings in T.

// recurrence removes from the images W = A V[c:c+p] their components along
// the blocks they are coupled to: the older vectors, whose couplings T
// already holds (T is symmetric, so V_iᵀ A V_c is the stored coupling of
// V_c to V_i: the previous block after a step, every kept vector after a
// restart), and the block itself, whose couplings are computed. It adds
// the coefficients to coef. This is the block three-term recurrence; the
// full Gram-Schmidt pass of orthonormalize that follows removes what it
// leaves (rounding), so that a second full pass is needed only when that
// pass shrinks a row by more than the DGKS factor. A full pass first would
// shrink every row (the images lie mostly in the basis) and always take
// two, reading the whole basis twice more per step.
func (k *krylov) recurrence(c int, coef []float64) {
	p, ld := k.p, k.ldt
	lo := c
	for r := 0; r < p; r++ {
		row := k.t[(c+r)*ld : (c+r)*ld+c]
		for i, tv := range row[:lo] {
			if tv != 0 {
				lo = i
				break
			}
		}
	}
	if lo < c {
		h := k.h[:(c-lo)*p]
		for i := lo; i < c; i++ {
			for r := 0; r < p; r++ {
				h[(i-lo)*p+r] = k.t[(c+r)*ld+i]
			}
		}
		copy(coef[lo*p:c*p], h)
		k.oj = orthJob{olo: lo, olen: c - lo, ox: k.w, q: p}
		k.team.run(k.team.jobs[1], 2*(c-lo)*p*k.n)
	}
	k.project(k.w, c, p, coef[c*p:(c+p)*p])
}

// step applies the operator to the block V[c:c+p], orthogonalizes the images
// and appends the new block at V[c+p:c+2p], updating T.
func (k *krylov) step(c int) error {
	return k.stepLast(c, false)
}

// stepLast is step; if last is true the basis V[0:c+p] already spans the
// whole space, so the images are only projected (completing T) and no new
// block is formed.
func (k *krylov) stepLast(c int, last bool) error {
	k.ritzC = -1
	p := k.p
	x := k.v.Slice(c, c+p, 0, k.n).(*mat.Dense)
	k.apply(k.w, x)
	k.iters++
	var raw [maxBlock]float64 // norms of the images
	for r := 0; r < p; r++ {
		row := k.w.RawRowView(r)
		nr := normEst(row)
		if math.IsNaN(nr) || math.IsInf(nr, 0) {
			return linalg.Errorf(linalg.ErrNonFinite, k.cfg.op, "operator produced NaN or Inf (after %d operator applications)", k.matvecs)
		}
		k.normA = math.Max(k.normA, nr)
		raw[r] = nr
	}
	base := c + p
	coef := k.coefBuf[:base*p]
	for i := range coef {
		coef[i] = 0
	}
	var lbuf [64 * 64]float64
	l := lbuf[:p*p]
	if last {
		k.project(k.w, 0, base, coef)
		k.project(k.w, 0, base, coef)
		k.exhausted = true
	} else {
		k.recurrence(c, coef)
		k.orthonormalize(k.w, base, coef, l, raw[:p])
	}
	ld := k.ldt
	// Symmetry: the coefficients against older vectors must reproduce the
	// couplings stored when those vectors were created. A locked pair's
	// coupling was dropped at a fresh restart; it is at most that pair's
	// residual, tol ||A||, so the check allows that much (twice, as ||A||
	// is an estimate that grows).
	tolSym := math.Max(1e-6, 2*k.cfg.tol) * math.Max(k.normA, math.SmallestNonzeroFloat64)
	for r := 0; r < p; r++ {
		for i := 0; i < c; i++ {
			if math.Abs(coef[i*p+r]-k.t[(c+r)*ld+i]) > tolSym {
				return linalg.Errorf(ErrNotSymmetric, k.cfg.op, "Krylov coefficient (%d,%d) is %.3g but its transpose is %.3g",
					i, c+r, coef[i*p+r], k.t[(c+r)*ld+i])
			}
		}
	}
	for r := 0; r < p; r++ {
		for i := 0; i < c; i++ {
			k.t[i*ld+c+r] = coef[i*p+r]
			k.t[(c+r)*ld+i] = coef[i*p+r]
		}
	}
	for r := 0; r < p; r++ {
		for i := 0; i <= r; i++ {
			a, b := coef[(c+i)*p+r], coef[(c+r)*p+i]
			if math.Abs(a-b) > tolSym {
				return linalg.Errorf(ErrNotSymmetric, k.cfg.op, "block coefficients (%d,%d) = %.3g and (%d,%d) = %.3g differ",
					c+i, c+r, a, c+r, c+i, b)
			}
			s := (a + b) / 2
			k.t[(c+i)*ld+c+r] = s
			k.t[(c+r)*ld+c+i] = s
		}
	}
	for r := 0; r < p && !last; r++ {
		for i := 0; i < p; i++ {
			v := l[r*p+i] // zero above the diagonal
			k.t[(base+i)*ld+c+r] = v
			k.t[(c+r)*ld+base+i] = v
		}
	}
	return nil
}
