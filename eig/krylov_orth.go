package eig

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Orthogonalization of the Krylov engine (krylov.go): classical
// Gram-Schmidt passes against the basis, split over the column ranges of
// the team, with the DGKS test for a second pass, and the norms they use.

// orthJob describes the projection run by partCoef and partUpdate: the q
// rows of ox against the basis rows V[olo:olo+olen].
type orthJob struct {
	olo, olen int
	ox        *mat.Dense
	q         int
}

// partCoef computes the partial coefficients V[0:olen][:,lo:hi] * X[:,lo:hi]ᵀ
// into h[part].
func (k *krylov) partCoef(part, lo, hi int) {
	j := &k.oj
	sz := j.olen * j.q
	vr, xr := k.v.RawMatrix(), j.ox.RawMatrix()
	dotsNT(true, k.h[part*sz:(part+1)*sz], j.q, 1, vr.Data[j.olo*vr.Stride+lo:], vr.Stride, j.olen,
		xr.Data[lo:], xr.Stride, j.q, hi-lo)
}

// partUpdate subtracts h[0]ᵀ V[olo:olo+olen] from X on columns lo:hi.
func (k *krylov) partUpdate(_ int, lo, hi int) {
	j := &k.oj
	vr, xr := k.v.RawMatrix(), j.ox.RawMatrix()
	subTN(true, xr.Data[lo:], xr.Stride, j.q, k.h, j.q, vr.Data[j.olo*vr.Stride+lo:], vr.Stride, j.olen, hi-lo)
}

// project orthogonalizes the rows of x against V[olo:olo+olen] once
// (classical Gram-Schmidt) and adds the coefficients to coef (olen x q,
// row-major).
func (k *krylov) project(x *mat.Dense, olo, olen int, coef []float64) {
	if olen == 0 {
		return
	}
	q, _ := x.Dims()
	k.oj = orthJob{olo: olo, olen: olen, ox: x, q: q}
	work := 2 * olen * q * k.n
	k.team.run(k.team.jobs[0], work)
	sz, np := olen*q, k.team.parts(k.n, work)
	for pt := 1; pt < np; pt++ {
		hp := k.h[pt*sz : (pt+1)*sz]
		for i := range sz {
			k.h[i] += hp[i]
		}
	}
	k.team.run(k.team.jobs[1], work)
	for i := range sz {
		coef[i] += k.h[i]
	}
}

// rowNorm returns the Euclidean norm of x (gonum's Dnrm2, which scales to
// avoid overflow and underflow).
func rowNorm(x []float64) float64 {
	return blas64.Implementation().Dnrm2(len(x), x, 1)
}

// normEst returns the Euclidean norm of x: the square root of a plain sum
// of squares (gonum's vectorized dot product, several times faster than
// Dnrm2), when that sum is safely inside the floating-point range,
// else rowNorm. Its relative error is that of a dot product, a few units
// of round-off, so the steps use it for the DGKS test, the finiteness
// check, the norm estimate and the normalization of the new basis rows.
func normEst(x []float64) float64 {
	ss := blas64.Implementation().Ddot(len(x), x, 1, x, 1)
	// Squares above 2^900 may have overflowed and a sum below 2^-900 may
	// have lost its small terms to underflow; in between neither happened
	// to any term that matters.
	if ss < 0x1p-900 || ss > 0x1p900 || math.IsNaN(ss) {
		return rowNorm(x)
	}
	return math.Sqrt(ss)
}

// scaledNorm returns the Euclidean norm of the few entries of x. The plain
// sum of squares is used when no square can overflow or underflow; outside
// that range the entries are scaled by the largest first. (Unscaled, the
// residual estimates of an operator with ||A|| below about 1e-154
// underflowed to 0 and unconverged pairs were taken as converged; above
// about 1e154 they overflowed and nothing ever converged.)
func scaledNorm(x []float64) float64 {
	var big float64
	for _, v := range x {
		big = math.Max(big, math.Abs(v))
	}
	if big == 0 || math.IsNaN(big) || math.IsInf(big, 0) {
		return big
	}
	var ss float64
	if big > 0x1p-450 && big < 0x1p450 {
		for _, v := range x {
			ss += v * v
		}
		return math.Sqrt(ss)
	}
	for _, v := range x {
		u := v / big
		ss += u * u
	}
	return big * math.Sqrt(ss)
}

// eta is the DGKS constant: another Gram-Schmidt pass is made when a pass
// shrinks a vector's norm by more than this factor.
const eta = 0.7071067811865476

// orthonormalize orthogonalizes the q rows of x against V[0:base] and
// against each other, writing the resulting orthonormal rows to
// V[base:base+q]. Coefficients are added to coef (base x q, row-major, may be
// nil) and to l (q x q, lower triangular: x_r = ... + sum_i l[r][i] V[base+i]).
// A row that lies numerically in the span is replaced by a random unit vector
// orthogonal to everything, with a zero coefficient (deflation).
//
// raw, if not nil, holds the norms of the rows before the caller removed
// their known components (recurrence): a row is numerically in the span
// when it is small against those.
func (k *krylov) orthonormalize(x *mat.Dense, base int, coef, l, raw []float64) {
	q, _ := x.Dims()
	if coef == nil {
		coef = make([]float64, base*q)
	}
	var n0, n1 [64]float64 // q <= 64 is enforced by the callers
	for r := 0; r < q; r++ {
		n0[r] = normEst(x.RawRowView(r))
	}
	// Classical Gram-Schmidt against the basis; a second pass only if some
	// row lost more than a factor eta of its norm (the DGKS criterion, as
	// in ARPACK), since only then can round-off leave it non-orthogonal.
	k.project(x, 0, base, coef)
	k.fullPasses++
	again := false
	for r := 0; r < q; r++ {
		n1[r] = normEst(x.RawRowView(r))
		if n1[r] < eta*n0[r] {
			again = true
		}
	}
	if again {
		k.project(x, 0, base, coef)
		k.fullPasses++
		for r := 0; r < q; r++ {
			n1[r] = normEst(x.RawRowView(r))
		}
	}
	for r := 0; r < q && raw != nil; r++ {
		n0[r] = math.Max(n0[r], raw[r])
	}
	for i := range l[:q*q] {
		l[i] = 0
	}
	c1 := k.c1[:base+q]
	for r := 0; r < q; r++ {
		xr := x.RawRowView(r)
		// Within the block: one pass against the new rows (modified
		// Gram-Schmidt).
		for i := 0; i < r; i++ {
			vi := k.v.RawRowView(base + i)
			cf := blas64.Implementation().Ddot(k.n, vi, 1, xr, 1)
			blas64.Implementation().Daxpy(k.n, -cf, vi, 1, xr, 1)
			l[r*q+i] += cf
		}
		nr := normEst(xr)
		// If the norm collapsed (the DGKS test), the vector may have lost
		// orthogonality to the older basis too: full passes against
		// everything before it, the new rows included, until one keeps the
		// norm.
		for pass := 0; pass < 2 && nr < eta*n1[r] && nr > 0; pass++ {
			clear(c1)
			prev := nr
			k.rowView.SetRawMatrix(blas64.General{Rows: 1, Cols: k.n, Stride: k.n, Data: xr})
			k.project(&k.rowView, 0, base+r, c1)
			for i := 0; i < base; i++ {
				coef[i*q+r] += c1[i]
			}
			for i := 0; i < r; i++ {
				l[r*q+i] += c1[base+i]
			}
			nr = normEst(xr)
			if nr >= eta*prev {
				break
			}
		}
		dst := k.v.RawRowView(base + r)
		if nr <= 4*float64(base+q)*dlamchE*n0[r] || nr == 0 {
			// Numerically in the span: deflate and restart this direction
			// with a random vector.
			l[r*q+r] = 0
			k.randomUnit(dst, base+r)
			continue
		}
		l[r*q+r] = nr
		blas64.Implementation().Dscal(k.n, 1/nr, xr, 1)
		copy(dst, xr)
	}
}

// dlamchE is the unit round-off of float64.
const dlamchE = 1.0 / (1 << 53)

// randomUnit sets dst to a random unit vector orthogonal to V[0:olen].
func (k *krylov) randomUnit(dst []float64, olen int) {
	one := k.one
	xr := one.RawRowView(0)
	c := k.c1[:olen]
	for try := 0; try < 5; try++ {
		k.randomRow(xr)
		n0 := rowNorm(xr)
		k.project(one, 0, olen, c)
		k.project(one, 0, olen, c)
		if nr := rowNorm(xr); nr > 1e-3*n0 {
			blas64.Implementation().Dscal(k.n, 1/nr, xr, 1)
			copy(dst, xr)
			return
		}
	}
	// The basis spans the whole space (olen = n); callers prevent this.
	panic("eig: internal error: no direction orthogonal to the basis")
}

// gramSchmidtRows orthonormalizes rows 0:q of x in place by modified
// Gram-Schmidt, twice. Used only on nearly orthonormal rows.
func gramSchmidtRows(x *mat.Dense, q int) {
	impl := blas64.Implementation()
	for pass := 0; pass < 2; pass++ {
		for a := 0; a < q; a++ {
			ya := x.RawRowView(a)
			for b := 0; b < a; b++ {
				yb := x.RawRowView(b)
				impl.Daxpy(len(ya), -impl.Ddot(len(ya), yb, 1, ya, 1), yb, 1, ya, 1)
			}
			if nr := rowNorm(ya); nr > 0 {
				impl.Dscal(len(ya), 1/nr, ya, 1)
			}
		}
	}
}
