package qp

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// qta sets w = Qᵀ a_id.
func (a *ActiveSet) qta(id int, w []float64) {
	N := a.dim
	k, j := a.kind(id)
	if k >= 2 {
		sg := 1.0
		if k == 3 {
			sg = -1
		}
		for i := range w[:N] {
			w[i] = sg * a.q[i*N+j]
		}
		return
	}
	row, sc := a.generalRow(k, j)
	nnz := 0
	for _, v := range row {
		if v != 0 {
			nnz++
		}
	}
	wv := blas64.Vector{N: N, Data: w, Inc: 1}
	if 4*nnz < len(row) {
		// sparse rows (the SKL decay rows have two entries): O(nnz·N)
		for i := range w[:N] {
			w[i] = 0
		}
		for c, v := range row {
			if v != 0 {
				blas64.Axpy(v, blas64.Vector{N: N, Data: a.q[c:], Inc: N}, wv)
			}
		}
	} else {
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: N, Cols: a.n, Stride: N, Data: a.q}, blas64.Vector{N: a.n, Data: row, Inc: 1}, 0, wv)
	}
	if a.phase1 && sc != 0 {
		blas64.Axpy(sc, blas64.Vector{N: N, Data: a.q[a.n:], Inc: N}, wv)
	}
}

// nullMul sets p = sign·Σ_t Z_t·w_t, where Z_t = Q[:, N−1−t] (factor order).
func (a *ActiveSet) nullMul(w, p []float64, sign float64) {
	N := a.dim
	p = p[:N]
	for i := range p {
		p[i] = 0
	}
	pv := blas64.Vector{N: N, Data: p, Inc: 1}
	for t, v := range w {
		if v != 0 {
			blas64.Axpy(sign*v, blas64.Vector{N: N, Data: a.q[(N-1-t)*N : (N-t)*N], Inc: 1}, pv)
		}
	}
}

// hmul sets dst = H v (0 in phase 1, whose objective is linear).
func (a *ActiveSet) hmul(v, dst []float64) {
	N := a.dim
	if a.phase1 || a.p.H == nil {
		for i := range dst[:N] {
			dst[i] = 0
		}
		return
	}
	// full copy of H: the asm-backed Gemv is several times faster than Symv
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: a.n, Cols: a.n, Stride: a.n, Data: a.hf}, blas64.Vector{N: a.n, Data: v, Inc: 1}, 0, blas64.Vector{N: a.n, Data: dst, Inc: 1})
}

func (a *ActiveSet) reset() {
	N := a.dim
	for i := range a.q[:N*N] {
		a.q[i] = 0
	}
	for i := 0; i < N; i++ {
		a.q[i*N+i] = 1
	}
	a.m = 0
	for i := range a.inWS {
		a.inWS[i] = false
	}
	a.clearSkip()
	a.singular, a.atMin = false, false
}

// clearSkip forgets the rows skipped as dependent on the working set: once a
// constraint leaves the working set they may no longer be.
func (a *ActiveSet) clearSkip() {
	if a.nskip == 0 {
		return
	}
	for i := range a.skip {
		a.skip[i] = false
	}
	a.nskip = 0
}

// add puts constraint id into the working set; it returns false if its row is
// (numerically) dependent on the working set.
func (a *ActiveSet) add(id int, updFactor bool) bool {
	N, m := a.dim, a.m
	w := a.w[:N]
	a.qta(id, w)
	nrm := 0.0
	for i := m; i < N; i++ {
		nrm = math.Hypot(nrm, w[i])
	}
	if nrm <= a.depTol()*a.rownorm(id) {
		return false
	}
	nz := N - m
	for i := N - 1; i > m; i-- {
		if w[i] == 0 {
			continue
		}
		c, s, rr, _ := blas64.Rotg(w[i-1], w[i])
		w[i-1], w[i] = rr, 0
		rotRows(a.q[(i-1)*N:i*N], a.q[i*N:(i+1)*N], c, s)
		if updFactor {
			k := N - 1 - i // factor index of column i; column i-1 is k+1
			rz := a.rz
			rz[(k+1)*N+k] = 0 // below the diagonal: not stored
			for row := 0; row <= k+1; row++ {
				fa, fb := rz[row*N+k+1], rz[row*N+k]
				rz[row*N+k+1] = c*fa + s*fb
				rz[row*N+k] = -s*fa + c*fb
			}
			// restore triangularity: zero rz[k+1][k]
			c2, s2, r2, _ := blas64.Rotg(rz[k*N+k], rz[(k+1)*N+k])
			rz[k*N+k], rz[(k+1)*N+k] = r2, 0
			for col := k + 1; col < nz; col++ {
				ta, tb := rz[k*N+col], rz[(k+1)*N+col]
				rz[k*N+col] = c2*ta + s2*tb
				rz[(k+1)*N+col] = -s2*ta + c2*tb
			}
		}
	}
	for i := 0; i <= m; i++ {
		a.r[i*N+m] = w[i]
	}
	a.work[m] = id
	a.inWS[id] = true
	a.m++
	a.refined = false
	return true
}

// remove deletes the working-set entry at position pos and borders the reduced
// Hessian factor with the new null-space direction.
func (a *ActiveSet) remove(pos int) {
	N, m := a.dim, a.m
	r := a.r
	a.inWS[a.work[pos]] = false
	for t := pos; t < m-1; t++ {
		a.work[t] = a.work[t+1]
		for i := 0; i <= t+1; i++ {
			r[i*N+t] = r[i*N+t+1]
		}
	}
	for t := pos; t < m-1; t++ {
		c, s, rr, _ := blas64.Rotg(r[t*N+t], r[(t+1)*N+t])
		r[t*N+t], r[(t+1)*N+t] = rr, 0
		for k := t + 1; k < m-1; k++ {
			ta, tb := r[t*N+k], r[(t+1)*N+k]
			r[t*N+k] = c*ta + s*tb
			r[(t+1)*N+k] = -s*ta + c*tb
		}
		rotRows(a.q[t*N:(t+1)*N], a.q[(t+1)*N:(t+2)*N], c, s)
	}
	a.m--
	a.refined = false
	a.clearSkip()
	a.border()
}

// border extends the reduced Hessian factor by the null-space column Q[:, m].
func (a *ActiveSet) border() {
	N, m := a.dim, a.m
	nzOld := N - m - 1
	z, u := a.v[:N], a.hz[:N]
	copy(z, a.q[m*N:(m+1)*N])
	a.hmul(z, u)
	rz := a.rz
	col := nzOld
	for k := 0; k < nzOld; k++ {
		// (Z column N-1-k)ᵀ u
		s := dot(a.q[(N-1-k)*N:(N-k)*N], u)
		// forward substitution with Rzᵀ
		for t := 0; t < k; t++ {
			s -= rz[t*N+k] * rz[t*N+col]
		}
		rz[k*N+col] = s / rz[k*N+k]
	}
	d := 0.0
	for i := 0; i < N; i++ {
		d += z[i] * u[i]
	}
	for k := 0; k < nzOld; k++ {
		d -= rz[k*N+col] * rz[k*N+col]
	}
	if d > a.curvTol() {
		rz[col*N+col] = math.Sqrt(d)
		a.singular = false
	} else {
		rz[col*N+col] = 0
		a.singular = true
	}
}

// depTol returns the relative size of the null-space component below which a
// row is treated as linearly dependent on the working set. Phase 2 uses
// ratioTol, small enough for rows that are independent only through tiny
// components (the SKL decay chain with δ^(i-1) ≈ 1e12); phase 1 uses
// phase1DepTol, because its s column can make nearly dependent rows look
// independent (duplicated and redundant rows with different violations),
// and a working set of such rows has multipliers near 1/phase1DepTol that
// no certificate survives. A blocking row found dependent is skipped (see
// run); phase 1's box and the check of its end point keep the steps along
// which a skipped row could drift short.
func (a *ActiveSet) depTol() float64 {
	if a.phase1 {
		return phase1DepTol
	}
	return ratioTol
}

// phase1DepTol is depTol in phase 1.
const phase1DepTol = 1e-9

// ratioTol is the relative size of aᵀp, against ‖a‖·‖p‖∞, below which the
// ratio test takes a row for parallel to the step (rounding of aᵀp).
const ratioTol = 1e-13

func (a *ActiveSet) curvTol() float64 { return 1e-11 * a.hnorm }

// buildFactor forms ZᵀHZ and its Cholesky factor; it returns false if it is not
// numerically positive definite.
func (a *ActiveSet) buildFactor() bool {
	N, m := a.dim, a.m
	nz := N - m
	if nz == 0 {
		return true
	}
	if a.hnorm == 0 || (!a.phase1 && a.p.H == nil) {
		return false
	}
	rz := a.rz
	for k := 0; k < nz; k++ {
		z, u := a.v[:N], a.hz[:N]
		copy(z, a.q[(N-1-k)*N:(N-k)*N])
		a.hmul(z, u)
		for l := k; l < nz; l++ {
			s := dot(a.q[(N-1-l)*N:(N-l)*N], u)
			rz[k*N+l] = s
		}
	}
	// in-place upper Cholesky
	for k := 0; k < nz; k++ {
		d := rz[k*N+k]
		for t := 0; t < k; t++ {
			d -= rz[t*N+k] * rz[t*N+k]
		}
		if d <= a.curvTol() {
			return false
		}
		d = math.Sqrt(d)
		rz[k*N+k] = d
		for l := k + 1; l < nz; l++ {
			s := rz[k*N+l]
			for t := 0; t < k; t++ {
				s -= rz[t*N+k] * rz[t*N+l]
			}
			rz[k*N+l] = s / d
		}
	}
	return true
}

// toVertex adds temporary bounds until the null space is empty.
func (a *ActiveSet) toVertex() {
	for j := 0; j < a.dim && a.m < a.dim; j++ {
		id := a.nrow + 2*a.dim + j
		a.tempX[j] = a.x[j]
		a.add(id, false)
	}
}

// startWorking builds the working set from candidate ids (equalities first) and
// the reduced Hessian factor.
func (a *ActiveSet) startWorking(cands []int, tol float64, boundsFirst bool) {
	a.reset()
	for i := 0; i < a.meq; i++ {
		a.add(i, false)
	}
	// With boundsFirst, bounds are added before general rows: where both are
	// active (degenerate points such as the tail μ_i = 0 of an SKL decay
	// chain) the unit rows give a well-conditioned working set and the
	// dependent general rows are rejected; the other order can close long
	// chains μ_i = δ·μ_{i+1} with a single bound, whose multipliers grow like
	// δ^length. It is not the default because at a start point far from the
	// optimum the general rows are the ones that stay active (the SKL chain
	// rows), and starting from bounds costs several times more iterations.
	for pass := 0; pass < 2; pass++ {
		for _, id := range cands {
			if id < a.meq || id >= a.nrow+2*a.dim || a.inWS[id] || (boundsFirst && (id >= a.nrow) != (pass == 0)) || (!boundsFirst && pass == 1) {
				continue
			}
			if math.Abs(a.dot(id, a.x)-a.rhs(id)) <= tol*(1+math.Abs(a.rhs(id))) {
				a.add(id, false)
			}
		}
	}
	if !a.buildFactor() {
		a.toVertex()
	}
	a.atMin = a.m == a.dim
}

// multipliers computes λ with g = Σ λ_k a_{work[k]} (valid at a subspace minimizer).
func (a *ActiveSet) multipliers() {
	a.solveMult(a.g, a.lam[:a.m])
}

// solveMult sets out (length m) to R⁻¹Q₁ᵀv, the least-squares combination of
// the working-set normals closest to v.
func (a *ActiveSet) solveMult(v, out []float64) {
	N, m := a.dim, a.m
	if m > 0 {
		blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: m, Cols: N, Stride: N, Data: a.q}, blas64.Vector{N: N, Data: v, Inc: 1}, 0, blas64.Vector{N: m, Data: out, Inc: 1})
	}
	for k := m - 1; k >= 0; k-- {
		s := out[k]
		for t := k + 1; t < m; t++ {
			s -= a.r[k*N+t] * out[t]
		}
		out[k] = s / a.r[k*N+k]
	}
}

// factorOK reports whether the reduced Hessian factor has nonzero diagonal.
func (a *ActiveSet) factorOK() bool {
	N := a.dim
	for k := 0; k < N-a.m; k++ {
		if a.rz[k*N+k] == 0 {
			return false
		}
	}
	return true
}

// newtonDir sets p = −Z(ZᵀHZ)⁻¹Zᵀg, the step to the minimizer of the model on
// the current working set (the reduced Hessian factor must be positive
// definite). It uses a.hz and a.v as scratch.
func (a *ActiveSet) newtonDir(p []float64) {
	N, m := a.dim, a.m
	nz := N - m
	// Qᵀg for the null-space columns, then reversed into factor order
	qtg := a.hz[:nz]
	blas64.Gemv(blas.NoTrans, 1, blas64.General{Rows: nz, Cols: N, Stride: N, Data: a.q[m*N:]}, blas64.Vector{N: N, Data: a.g, Inc: 1}, 0, blas64.Vector{N: nz, Data: qtg, Inc: 1})
	gz := a.v[:nz]
	for k := 0; k < nz; k++ {
		gz[k] = qtg[nz-1-k]
	}
	// Rzᵀ t = gz, Rz y = t
	for k := 0; k < nz; k++ {
		s := gz[k]
		for t := 0; t < k; t++ {
			s -= a.rz[t*N+k] * gz[t]
		}
		gz[k] = s / a.rz[k*N+k]
	}
	for k := nz - 1; k >= 0; k-- {
		s := gz[k]
		for t := k + 1; t < nz; t++ {
			s -= a.rz[k*N+t] * gz[t]
		}
		gz[k] = s / a.rz[k*N+k]
	}
	a.nullMul(gz, p, -1)
}
