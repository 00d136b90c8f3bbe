package eig

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The passes of the shift-and-invert mode (shiftinvert.go) and the Ritz
// vectors taken from their bases.

// passOut is the outcome of one pass of the iteration on the inverse.
type passOut struct {
	ritz            *mat.Dense // Ritz vectors (rows), the wanted first
	basis           *mat.Dense // the Krylov basis (rows), nil after the dense method
	beyond          ritzSet    // accurate Ritz vectors after the wanted ones (see beyondRitz)
	status          linalg.Status
	iters, restarts int
	exact           bool    // the dense method: exact pairs
	top             float64 // the largest Ritz value (a lower bound on the operator's largest eigenvalue)
}

// runPass runs thick-restart Lanczos with basis size m (the dense method
// when the problem is small) for the cfg.d largest pairs of the positive
// semidefinite operator op. The Ritz vectors after the wanted ones are
// measured against cut, or the d-th Ritz value if cut is 0 (see
// beyondRitz).
func runPass(ctx context.Context, op Operator, cfg *checked, m int, cut float64) (passOut, error) {
	if small(cfg, 1, m) {
		r, err := solveDense(ctx, op, cfg)
		out := passOut{status: r.Status, exact: true}
		if len(r.Values) > 0 {
			out.top = r.Values[0]
		}
		if r.Vectors != nil {
			out.ritz = mat.DenseCopyOf(r.Vectors.T())
		}
		return out, err
	}
	k, err := newKrylovFor(op, cfg, 1, m, true)
	if err != nil {
		return passOut{status: linalg.NotRun}, err
	}
	c, status, err := k.run(ctx)
	r := k.result(c, status, false)
	out := passOut{status: r.Status, iters: k.iters, restarts: k.restarts}
	if len(r.Values) > 0 {
		out.top = r.Values[0]
	}
	if r.Vectors != nil {
		out.ritz = mat.DenseCopyOf(r.Vectors.T())
	}
	if c > 0 {
		out.basis = k.v.Slice(0, c, 0, cfg.n).(*mat.Dense)
		if err == nil {
			out.beyond = beyondRitz(k, c, cut)
		}
	}
	return out, err
}

// beyondTol bounds the cosine of the angle between a Ritz vector the
// multiplicity check projects out and an eigenvector it looks for.
const beyondTol = 1e-2

// ritzSet holds Ritz vectors (rows), their values and residuals.
type ritzSet struct {
	v     *mat.Dense
	vals  []float64
	resid []float64
}

// beyondRitz returns the Ritz vectors of the basis after the cfg.d wanted
// ones whose residual r is at most beyondTol |cut - theta| (cut 0 standing
// for the d-th Ritz value): an eigenvector of a value on the other side of
// cut has a component of at most r / |cut - theta| along such a vector,
// the bound that lets the multiplicity check project it out.
func beyondRitz(k *krylov, c int, cut float64) ritzSet {
	d := k.cfg.d
	if c <= d {
		return ritzSet{}
	}
	k.ritz(c, c, true)
	if cut == 0 {
		cut = k.theta[k.order[d-1]]
	}
	var sel []int
	var out ritzSet
	for a := d; a < c; a++ {
		th := k.theta[k.order[a]]
		if k.res[a] <= beyondTol*math.Abs(cut-th) {
			sel = append(sel, a)
			out.vals = append(out.vals, th)
			out.resid = append(out.resid, k.res[a])
		}
	}
	if len(sel) == 0 {
		return ritzSet{}
	}
	out.v = mat.NewDense(len(sel), k.n, nil)
	for i, a := range sel {
		j := k.order[a]
		row := out.v.RawRowView(i)
		for l := 0; l < c; l++ {
			axpy(k.tc[l*c+j], k.v.RawRowView(l), row)
		}
	}
	return out
}

// stackRows returns the rows of x followed by those of y.
func stackRows(x, y *mat.Dense) *mat.Dense {
	rx, n := x.Dims()
	ry, _ := y.Dims()
	z := mat.NewDense(rx+ry, n, nil)
	z.Slice(0, rx, 0, n).(*mat.Dense).Copy(x)
	z.Slice(rx, rx+ry, 0, n).(*mat.Dense).Copy(y)
	return z
}

// appendOrthonormal returns orthonormal rows spanning those of q
// (orthonormal, kept as they are; nil for none) and of x: each row of x
// orthogonalized against the rows before it by classical Gram-Schmidt
// twice, and dropped if less than a 1e-8 part of it remains.
func appendOrthonormal(q, x *mat.Dense) *mat.Dense {
	rx, n := x.Dims()
	rq := 0
	if q != nil {
		rq, _ = q.Dims()
	}
	out := mat.NewDense(rq+rx, n, nil)
	if rq > 0 {
		out.Slice(0, rq, 0, n).(*mat.Dense).Copy(q)
	}
	k := rq
	raw := out.RawMatrix()
	bl := blas64.Implementation()
	c := make([]float64, rq+rx)
	for j := 0; j < rx; j++ {
		row := out.RawRowView(k)
		copy(row, x.RawRowView(j))
		nr0 := rowNorm(row)
		if nr0 == 0 {
			continue
		}
		for pass := 0; pass < 2 && k > 0; pass++ {
			bl.Dgemv(blas.NoTrans, k, n, 1, raw.Data, raw.Stride, row, 1, 0, c, 1)
			bl.Dgemv(blas.Trans, k, n, -1, raw.Data, raw.Stride, c[:k], 1, 1, row, 1)
		}
		if nr := rowNorm(row); nr > 1e-8*nr0 {
			bl.Dscal(n, 1/nr, row, 1)
			k++
		}
	}
	return out.Slice(0, k, 0, n).(*mat.Dense)
}

// ritzA returns (as rows) the cfg.d Ritz vectors of A from its wanted end
// on the span of the orthonormal rows of s, or nil if the projected
// eigenproblem fails. The products with A are counted in res. The
// projected matrix is formed in working precision (a matrix product); the
// Rayleigh-Ritz step that follows on the d vectors gives the values and
// residuals.
func (r *siRun) ritzA(res *Result, s *mat.Dense) *mat.Dense {
	k, n := s.Dims()
	d := r.cfg.d
	_, _, z, ok := projectRows(res, r.a, s, nil)
	if !ok {
		return nil
	}
	// Ascending from EigenSym; the wanted end first.
	sel := mat.NewDense(k, d, nil)
	for a := 0; a < d; a++ {
		j := a
		if r.cfg.which == Largest {
			j = k - 1 - a
		}
		for i := 0; i < k; i++ {
			sel.Set(i, a, z.At(i, j))
		}
	}
	out := mat.NewDense(d, n, nil)
	out.Mul(sel.T(), s)
	return out
}
