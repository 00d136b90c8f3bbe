package qp

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The semidefiniteness test. H is accepted when its smallest eigenvalue is
// at least −PSDTol·‖H‖_F, which a Cholesky factorisation of
// H + PSDTol·‖H‖_F·I decides in O(n³/3). The tolerance is relative to ‖H‖_F
// because that is the scale of the rounding of H's own data: entries given to
// d significant decimal digits carry relative errors up to 5·10^−d, so the
// error matrix E satisfies ‖E‖₂ <= ‖E‖_F <= 5·10^−d·‖H‖_F, and by Weyl's
// inequality every eigenvalue of the exact matrix lies within that distance
// of the computed one. DefaultPSDTol = 1e-5 is twice the bound for d = 6
// significant digits, the precision of data written in the usual
// single-precision or "%g" formats: a matrix that close to semidefinite is
// convex up to the rounding of its own data, and is accepted.
//
// An H accepted only thanks to the tolerance (its smallest eigenvalue is
// below −regTol·‖H‖_F, beyond the rounding of the factorisation itself) is
// not given to the solvers as it is: along its negative curvature an
// active-set method can end at a local minimiser or report a false Unbounded.
// It is replaced by its nearest semidefinite matrix H₊ = H + Σ_{λ_i<0} |λ_i|·
// v_i·v_iᵀ (the negative eigenvalues clipped to 0; ‖H₊ − H‖₂ = −λ_min(H),
// within the data's rounding by the argument above), and the problem with H₊
// is solved: Result.HShift reports −λ_min, and Result.Obj and Result.KKT are
// those of that problem. The eigendecomposition costs O(n³) and allocates.

// regTol is the relative size −λ_min/‖H‖_F below which H is used as it is:
// the solvers' own curvature tolerances (1e-11·max|H_ij| in ActiveSet) treat
// such eigenvalues as zero curvature.
const regTol = 1e-10

// checkPSD reports whether H must be regularised (see above) and returns an
// error wrapping linalg.ErrNotPSD if it is not semidefinite within tol. work
// (len >= n²) is scratch.
func checkPSD(op string, h *mat.SymDense, tol float64, work []float64) (regularize bool, err error) {
	if h == nil {
		return false, nil
	}
	if cholShifted(h, math.Min(regTol, tol), work) {
		return false, nil
	}
	if tol > regTol && cholShifted(h, tol, work) {
		return true, nil
	}
	return false, linalg.Errorf(linalg.ErrNotPSD, op, "H has an eigenvalue below -%.1e·‖H‖_F (Settings.PSDTol)", tol)
}

// cholShifted reports whether H + tol·‖H‖_F·I has a Cholesky factorisation.
func cholShifted(h *mat.SymDense, tol float64, work []float64) bool {
	n := h.SymmetricDim()
	raw := h.RawSymmetric()
	fro := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := raw.Data[i*raw.Stride+j]
			if j < i {
				v = raw.Data[j*raw.Stride+i]
			}
			work[i*n+j] = v
			fro += v * v
		}
	}
	fro = math.Sqrt(fro)
	if fro == 0 {
		return true
	}
	for i := 0; i < n; i++ {
		work[i*n+i] += tol * fro
	}
	return cholUpper(work, n)
}

// regularizer holds H₊ and the problem that uses it.
type regularizer struct {
	h     mat.SymDense
	p     Problem
	eig   linalg.EigenSym
	vecs  mat.Dense
	shift float64
}

// apply returns a copy of p whose H is replaced by H₊ (see above) and sets
// r.shift = −λ_min(H). Should the eigendecomposition fail, H₊ = H + s·I with
// s = tol·‖H‖_F, the largest shift the test allows, and r.shift = s.
func (r *regularizer) apply(p *Problem, tol float64) *Problem {
	n := p.H.SymmetricDim()
	r.h.Reset()
	r.h.ReuseAsSym(n)
	r.h.CopySym(p.H)
	r.p = *p
	r.p.H = &r.h
	if r.eig.Factorize(p.H, true) {
		vals := r.eig.Values(nil)
		r.eig.VectorsTo(&r.vecs)
		r.shift = 0
		for i, l := range vals {
			if l < 0 {
				r.h.SymRankOne(&r.h, -l, r.vecs.ColView(i))
				r.shift = math.Max(r.shift, -l)
			}
		}
		return &r.p
	}
	raw := p.H.RawSymmetric()
	fro := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := raw.Data[min(i, j)*raw.Stride+max(i, j)]
			fro += v * v
		}
	}
	r.shift = tol * math.Sqrt(fro)
	for i := 0; i < n; i++ {
		r.h.SetSym(i, i, r.h.At(i, i)+r.shift)
	}
	return &r.p
}
