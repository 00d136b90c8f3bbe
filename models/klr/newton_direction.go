package klr

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// direction computes the Newton direction (w.dir, returned db) at the current
// point; w.r, w.s, w.g, w.gb must be current. ok is false when the Newton
// matrix could not be factorised.
func (w *newton) direction(p *problem) (db float64, ok bool) {
	if p.form == KernelForm {
		return w.kernelDirection(p)
	}
	if p.n > 2*p.l && w.lambda > 0 {
		// Through the l x l matrix: faster once d exceeds about 2l
		// (BenchmarkFeatureDirection).
		return w.featureDirectionDual(p)
	}
	return w.featureDirection(p)
}

// kernelDirection solves the Newton system of the kernel form without
// inverting K. With M = D K / l + lambda I, the alpha block of the system
// reduces (after cancelling a factor K) to M dalpha + D 1 db / l = x with
// x = -(r/l + lambda alpha); M^{-1} is applied through the SPD matrix
// A = lambda I + S K S / l by the push-through identity
// M^{-1} v = (v - S A^{-1} S K v / l) / lambda.
func (w *newton) kernelDirection(p *problem) (float64, bool) {
	n := p.l
	lf := float64(n)
	lam := w.lambda
	a := w.a
	for i := 0; i < n; i++ {
		si := w.s[i] / lf
		row := p.k.Data[i*p.k.Stride : i*p.k.Stride+n]
		arow := a[i*n : i*n+n]
		for j := i; j < n; j++ {
			arow[j] = si * row[j] * w.s[j]
		}
		arow[i] += lam
	}
	_, ok := lapack64.Potrf(blas64.Symmetric{N: n, Stride: n, Data: a, Uplo: blas.Upper})
	if !ok {
		return 0, false
	}
	// x = -u; K x = -g; t1 = S K x / l.
	for i := range w.z1 {
		w.z1[i] = -w.s[i] * w.g[i] / lf
	}
	cholSolve(a, n, w.z1)
	for i := range w.dir {
		w.dir[i] = (-w.u[i] - w.s[i]*w.z1[i]) / lam
	}
	if !w.bias {
		return 0, true
	}
	copy(w.z2, w.s)
	cholSolve(a, n, w.z2)
	var sz1, sz2 float64
	for i, si := range w.s {
		sz1 += si * w.z1[i]
		sz2 += si * w.z2[i]
	}
	sigma := lam * sz2 / lf
	if !(sigma > 0) {
		return 0, true
	}
	db := (-w.gb - sz1) / sigma
	for i := range w.dir {
		w.dir[i] -= w.s[i] * w.z2[i] / lf * db
	}
	return db, true
}

// scaledFeatures sets w.ps = S Phi (l x d, row-major).
func (w *newton) scaledFeatures(p *problem) []float64 {
	d, l := p.n, p.l
	ps := w.ps[:l*d]
	for i := 0; i < l; i++ {
		si := w.s[i]
		src := p.phi.Data[i*p.phi.Stride : i*p.phi.Stride+d]
		dst := ps[i*d : i*d+d]
		for j, v := range src {
			dst[j] = si * v
		}
	}
	return ps
}

// featureDirection solves (Phi^T D Phi / l + lambda I) dw (+ bias row) = -g
// by Cholesky of the (d+1) x (d+1) Newton matrix.
func (w *newton) featureDirection(p *problem) (float64, bool) {
	d := p.n
	l := p.l
	lf := float64(l)
	n1 := d
	if w.bias {
		n1 = d + 1
	}
	ps := w.scaledFeatures(p)
	for ridge := 0.0; ; {
		a := w.a[:n1*n1]
		for i := range a {
			a[i] = 0
		}
		// Upper triangle of (S Phi)^T (S Phi) / l + lambda I, accumulated
		// row by row (for the small d of the learned kernels this beats the
		// general Syrk, whose per-call overhead dominates).
		i := 0
		for ; i+4 <= l; i += 4 {
			// Four rank-one updates at once: one pass over the triangle.
			r0, r1 := ps[i*d:i*d+d], ps[(i+1)*d:(i+1)*d+d]
			r2, r3 := ps[(i+2)*d:(i+2)*d+d], ps[(i+3)*d:(i+3)*d+d]
			for j := 0; j < d; j++ {
				v0, v1, v2, v3 := r0[j], r1[j], r2[j], r3[j]
				dst := a[j*n1+j : j*n1+d]
				s0, s1, s2, s3 := r0[j:d], r1[j:d], r2[j:d], r3[j:d]
				s0, s1, s2, s3 = s0[:len(dst)], s1[:len(dst)], s2[:len(dst)], s3[:len(dst)]
				for t := range dst {
					dst[t] += v0*s0[t] + v1*s1[t] + v2*s2[t] + v3*s3[t]
				}
			}
		}
		for ; i < l; i++ {
			row := ps[i*d : i*d+d]
			for j, v := range row {
				dst := a[j*n1+j : j*n1+d]
				src := row[j:d]
				src = src[:len(dst)]
				for t := range dst {
					dst[t] += v * src[t]
				}
			}
		}
		inv := 1 / lf
		for j := 0; j < d; j++ {
			dst := a[j*n1+j : j*n1+d]
			for t := range dst {
				dst[t] *= inv
			}
			a[j*n1+j] += w.lambda
		}
		if w.bias {
			// H_wb = (S Phi)^T s / l, H_bb = sum D / l.
			var hbb float64
			for _, si := range w.s {
				hbb += si * si
			}
			for j := 0; j < d; j++ {
				var v float64
				for i := 0; i < l; i++ {
					v += ps[i*d+j] * w.s[i]
				}
				a[j*n1+d] = v / lf
			}
			a[d*n1+d] = hbb/lf + ridge
		}
		copy(w.rhs[:d], w.g)
		if w.bias {
			w.rhs[d] = w.gb
		}
		rhs := w.rhs[:n1]
		for i := range rhs {
			rhs[i] = -rhs[i]
		}
		_, ok := lapack64.Potrf(blas64.Symmetric{N: n1, Stride: n1, Data: a, Uplo: blas.Upper})
		if ok {
			cholSolve(a, n1, rhs)
			copy(w.dir, rhs[:d])
			if w.bias {
				return rhs[d], true
			}
			return 0, true
		}
		if !w.bias || ridge > 0 {
			return 0, false
		}
		// The bias block can underflow when every margin is huge; retry with
		// a tiny ridge on it (it only changes the step length in b).
		ridge = 1e-12 * (1 + w.lambda)
	}
}

// featureDirectionDual solves the system of featureDirection when there
// are far fewer labeled points than features (d > 2l, lambda > 0) through the
// l x l matrix B = l lambda I + (S Phi)(S Phi)^T instead of the d x d
// Newton matrix A = (S Phi)^T (S Phi) / l + lambda I, by the push-through
// identity A^-1 v = (v - (S Phi)^T B^-1 (S Phi) v) / lambda: O(l^2 d)
// instead of O(l d^2 + d^3). With the intercept, db comes from the Schur
// complement of the bias row: with h = (S Phi)^T s / l and c = s^T s / l,
// db = (-gb - h^T A^-1 (-g)) / (c - h^T A^-1 h), dw = A^-1 (-g) - A^-1 h db.
func (w *newton) featureDirectionDual(p *problem) (float64, bool) {
	d, l := p.n, p.l
	lf := float64(l)
	ps := w.scaledFeatures(p)
	b := w.a[:l*l]
	for i := 0; i < l; i++ {
		ri := ps[i*d : i*d+d]
		for j := i; j < l; j++ {
			rj := ps[j*d : j*d+d]
			var v float64
			for t, x := range ri {
				v += x * rj[t]
			}
			b[i*l+j] = v
		}
		b[i*l+i] += lf * w.lambda
	}
	if _, ok := lapack64.Potrf(blas64.Symmetric{N: l, Stride: l, Data: b, Uplo: blas.Upper}); !ok {
		return 0, false
	}
	// applyInv overwrites v (length d) with A^-1 v.
	t := w.z1[:l]
	applyInv := func(v []float64) {
		for i := 0; i < l; i++ {
			var x float64
			for j, pv := range ps[i*d : i*d+d] {
				x += pv * v[j]
			}
			t[i] = x
		}
		cholSolve(b, l, t)
		for i := 0; i < l; i++ {
			ti := t[i]
			for j, pv := range ps[i*d : i*d+d] {
				v[j] -= pv * ti
			}
		}
		for j := range v {
			v[j] /= w.lambda
		}
	}
	dir := w.dir[:d]
	for j, g := range w.g[:d] {
		dir[j] = -g
	}
	applyInv(dir)
	if !w.bias {
		return 0, true
	}
	h := w.ah[:d]
	for j := range h {
		h[j] = 0
	}
	var c float64
	for i, si := range w.s[:l] {
		c += si * si
		for j, pv := range ps[i*d : i*d+d] {
			h[j] += pv * si
		}
	}
	c /= lf
	var hdir float64
	for j := range h {
		h[j] /= lf
		hdir += h[j] * dir[j]
	}
	// Keep h (in rhs): applyInv overwrites it with A^-1 h.
	copy(w.rhs[:d], h)
	applyInv(h)
	var hah float64
	for j, v := range w.rhs[:d] {
		hah += v * h[j]
	}
	schur := c - hah
	if !(schur > 0) {
		// The bias block can underflow when every margin is huge (see
		// featureDirection): a tiny ridge on it.
		schur += 1e-12 * (1 + w.lambda)
		if !(schur > 0) {
			return 0, false
		}
	}
	db := (-w.gb - hdir) / schur
	for j, v := range h {
		dir[j] -= v * db
	}
	return db, true
}

// cholSolve overwrites b with A^{-1} b where the upper triangle of the n x n
// row-major a holds the Cholesky factor U of A = U^T U.
func cholSolve(a []float64, n int, b []float64) {
	b = b[:n]
	// U^T z = b (forward), row i of U^T is column i of U.
	for i := 0; i < n; i++ {
		v := b[i] / a[i*n+i]
		b[i] = v
		if v != 0 {
			row := a[i*n+i+1 : i*n+n]
			rest := b[i+1 : n]
			for t := range rest {
				rest[t] -= v * row[t]
			}
		}
	}
	// U x = z (backward).
	for i := n - 1; i >= 0; i-- {
		row := a[i*n+i+1 : i*n+n]
		v := b[i]
		for t, u := range row {
			v -= u * b[i+1+t]
		}
		b[i] = v / a[i*n+i]
	}
}
