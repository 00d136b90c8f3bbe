package eig

import "math"

// Convergence checks of the Krylov engine (krylov.go): the Ritz pairs of
// the projected matrix with their residual estimates, the spacing of the
// checks, and the test for missed copies of repeated eigenvalues.

// ritz computes the Ritz pairs of T[0:c,0:c], orders them from most to least
// wanted and estimates the residual norms of the first nw of them. It
// returns how many of the first nw meet the tolerance. With vectors false
// (a convergence test) it forms only the Ritz values and the last p
// components of the vectors, all the estimates need, when T has the
// structure that allows it (the residual block coupled only to the last
// block); tc is then not valid, and ensureVectors forms it if a restart or
// the result needs it.
func (k *krylov) ritz(c, nw int, vectors bool) int {
	k.ritzC, k.ritzNW = c, nw
	ld, p := k.ldt, k.p
	if !vectors && c > p+2 && !k.exhausted {
		// The couplings of the residual block to all but the last block
		// must be zero (they are, after a step; a restart without a step
		// since leaves them elsewhere).
		for r := 0; r < p && !vectors; r++ {
			for _, tv := range k.t[(c+r)*ld : (c+r)*ld+c-p] {
				if tv != 0 {
					vectors = true
					break
				}
			}
		}
	} else {
		vectors = true
	}
	for i := 0; i < c; i++ {
		copy(k.tc[i*c:(i+1)*c], k.t[i*ld:i*ld+c])
	}
	if !vectors && !k.se.valuesLast(c, p, k.tc[:c*c], k.theta[:c], k.last[:c*p]) {
		// Not converged: the full factorization has a fallback.
		vectors = true
		for i := 0; i < c; i++ {
			copy(k.tc[i*c:(i+1)*c], k.t[i*ld:i*ld+c])
		}
	}
	k.ritzVecs = vectors
	if vectors && !k.se.factorize(c, k.tc[:c*c], k.theta[:c]) {
		// The QR iteration failed; treat as no progress.
		for i := range k.res[:c] {
			k.res[i] = math.Inf(1)
		}
		return 0
	}
	for i := 0; i < c; i++ {
		if k.sign > 0 {
			k.order[i] = c - 1 - i
		} else {
			k.order[i] = i
		}
	}
	k.normA = math.Max(k.normA, math.Max(math.Abs(k.theta[0]), math.Abs(k.theta[c-1])))
	nconv := 0
	for a := 0; a < nw && a < c; a++ {
		j := k.order[a]
		if k.exhausted {
			// The basis spans the space: Ritz pairs are exact.
			k.res[a] = 0
			nconv++
			continue
		}
		var sv [maxBlock]float64
		for r := 0; r < p; r++ {
			var s float64
			if vectors {
				row := k.t[(c+r)*ld : (c+r)*ld+c]
				for i, tv := range row {
					s += tv * k.tc[i*c+j]
				}
			} else {
				row := k.t[(c+r)*ld+c-p : (c+r)*ld+c]
				for i, tv := range row {
					s += tv * k.last[j*p+i]
				}
			}
			sv[r] = s
		}
		k.res[a] = scaledNorm(sv[:p])
		if k.res[a] <= k.limit(a) {
			nconv++
		}
	}
	return nconv
}

// limit returns the residual bound of the a-th most wanted Ritz pair (ritz
// must have ordered them): Tol ||A||, or Tol |theta| in the relative mode
// of shift-and-invert.
func (k *krylov) limit(a int) float64 {
	if k.cfg.relTol {
		return math.Max(k.cfg.tol*math.Abs(k.theta[k.order[a]]), relFloor*dlamchE*k.normA)
	}
	return k.cfg.tol * k.normA
}

// relFloor bounds the relative tolerance from below, in units of
// round-off times ||A||: the projected eigensolver resolves the Ritz
// pairs to about eps ||T||, so a residual estimate below that is noise.
const relFloor = 16

// ensureVectors repeats the last call of ritz with the vectors if it
// formed only the values (which come out the same, bit for bit, so the
// decisions taken on them stand).
func (k *krylov) ensureVectors(c int) {
	if !k.ritzVecs || k.ritzC != c {
		k.ritz(c, k.ritzNW, true)
	}
}

// forecast spaces the convergence checks of a solve whose checks cost a
// noticeable part of a step (a large basis): from the fall of the worst
// residual estimate between the last two checks it predicts the steps left
// and skips a third of them (at most three steps), so that checks stay
// dense near convergence, where the residuals fall fastest, and at most
// a fraction of a step is spent after convergence.
type forecast struct {
	it   int     // step of the last check (0: none)
	w    float64 // worst residual estimate over the tolerance there
	next int     // no check before this step
}

// observe records a check at step it with worst ratio w (above 1).
func (f *forecast) observe(it int, w float64) {
	prevIt, prevW := f.it, f.w
	f.it, f.w, f.next = it, w, 0
	if prevIt == 0 || it <= prevIt || !(w < prevW) || !(w > 1) || math.IsInf(prevW, 0) {
		return
	}
	rate := math.Log(prevW/w) / float64(it-prevIt) // log fall per step
	if skip := int(math.Log(w) / rate / 3); skip > 1 {
		f.next = it + min(skip, 3)
	}
}

// mayMissCopies reports whether some of the d wanted Ritz values (ordered)
// could be an eigenvalue whose multiplicity exceeds what the Krylov space
// can hold. A block space of block size p holds up to p copies of an
// eigenvalue (exactly, in exact arithmetic), so copies can only be missing
// if some value appears p or more times among the converged values, within
// sqrt(Tol) ||A||. With p = 1 every value qualifies.
func (k *krylov) mayMissCopies(d int) bool {
	if k.p == 1 {
		return true
	}
	win := math.Sqrt(k.cfg.tol) * k.normA
	run := 1
	for a := 1; a < d; a++ {
		if math.Abs(k.theta[k.order[a]]-k.theta[k.order[a-1]]) <= win {
			run++
		} else {
			run = 1
		}
		if run >= k.p {
			return true
		}
	}
	return false
}

// acceptTol returns the residual bound used to count converged pairs after
// the explicit check: the tolerance, but never below the round-off level
// 8 sqrt(n) eps of a product with the operator.
func acceptTol(tol float64, n int) float64 {
	return math.Max(tol, 8*math.Sqrt(float64(n))*2*dlamchE)
}

// ritzWork sets how often the iteration stops to solve the projected
// problem: only after work of ritzWork c^3 flop-equivalents of the product
// kernels since the last solve (counting a pass over a large dense matrix
// at its memory time), or at a restart. The projected eigensolver needs
// about 9 c^3 flops at roughly an eighth of the speed of the product
// kernels, so a check then costs about as much time as the work it
// follows, and at most one such interval is spent after convergence. On a
// large dense matrix every block step qualifies; on a small one (in cache)
// the checks fall to the restarts.
const ritzWork = 72
