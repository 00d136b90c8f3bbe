package eig

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"ukm/internal/jacobi"
)

// maxRefine is the largest number of pairs the final refinement handles;
// its projected problem has twice as many rows and is solved by Jacobi
// rotations, whose cost grows with the cube of that size.
const maxRefine = 128

// refinePasses bounds the refinement steps; refineFloor is the residual
// (relative to ||A||, in units of 2^-52) below which a pair needs no more.
const (
	refinePasses = 3
	refineFloor  = 2
)

// refineAll applies refine until every residual is at most the floor
// max(Tol, refineFloor units of round-off) times ||A|| (pairs that meet
// the requested tolerance are left as they are), a step stops helping (the
// largest residual must fall by a third), or refinePasses steps are done.
// A second step is needed when a wanted eigenvalue lies close to an
// unwanted one: the first step then resolves only part of the error along
// the unwanted eigenvector. It returns false if no step improved on the input.
// The steps work in w; ynew is one of its buffers, valid until w is used
// again.
func (k *krylov) refineAll(y, ay *mat.Dense, w *refineWork) (values, resid []float64, ynew *mat.Dense, ok bool) {
	floor := refineTarget(k.cfg.tol, k.normA)
	worst := math.Inf(1)
	for pass := 0; pass < refinePasses; pass++ {
		// Every step takes only the residuals above the floor: the
		// couplings among all the pairs, which the step also corrects,
		// come from the residuals' components along Y and cost no
		// product. Taking every residual in the first step would lower
		// the worst residual only slightly, for several times the
		// products.
		v, r, yn, ayn, done := k.refine(y, ay, floor, w, pass%2)
		if !done {
			break
		}
		w := 0.0
		for _, x := range r {
			w = math.Max(w, x)
		}
		improved := w < worst*2/3
		values, resid, ynew, ok = v, r, yn, true
		y, ay, worst = yn, ayn, w
		if w <= floor || !improved {
			break
		}
	}
	return values, resid, ynew, ok
}

// refineTarget is the residual norm the refinement takes a pair below:
// max(tol, refineFloor units of round-off) times norm, the estimate of
// ||A||.
func refineTarget(tol, norm float64) float64 {
	return math.Max(refineFloor*2*dlamchE, tol) * norm
}

// refineWork holds the n-long buffers of the refinement steps of one
// solve, allocated by the first step that needs them: a row for the
// residual norms, the stacked basis and its images (nw rows and the
// residuals that join), the residuals, and two pairs of output vectors and images, used
// alternately so that a step that fails leaves the previous step's output
// intact. Without it every step would allocate O(n d) anew; kept by the
// Krylov engine's pooled workspace and by Chebyshev's (chebWork), it lets
// the steps of later solves of the same size allocate nothing.
type refineWork struct {
	row           []float64
	basis, img, r *mat.Dense
	out           [2][2]*mat.Dense
}

// firstRows returns the first r rows of *m, (re)allocating *m with r rows
// of length n if it is nil, has fewer rows or rows of another length.
func firstRows(m **mat.Dense, r, n int) *mat.Dense {
	if *m == nil || (*m).RawMatrix().Rows < r || (*m).RawMatrix().Cols != n {
		*m = mat.NewDense(r, n, nil)
	}
	return (*m).Slice(0, r, 0, n).(*mat.Dense)
}

// refine improves converged Ritz pairs by one Rayleigh-Ritz step on
// span[Y, R], where the rows of y are the Ritz vectors, the rows of ay
// their images A y and R = A Y - Y Θ the residuals (Θ the Rayleigh
// quotients). It costs one product with the operator for the residual
// block.
//
// Why it helps: at convergence the Ritz vectors carry errors of a few units
// of round-off, and for a pair whose eigenvalue is far from the others (the
// top eigenvalue of a kernel matrix, often ten times the next) that error
// times the gap is the residual. Two things keep the error there. First,
// the projected eigenproblem of the iteration is solved with a backward
// error of eps·||A||, which moves the top vector by eps times a factor that
// grows with the basis size. Second, any Rayleigh-Ritz step that forms the
// projected matrix as Yᵀ(A Y) loses the small couplings to cancellation:
// (A y_a) is about θ_a y_a, so yᵀ_b(A y_a) is θ_a times a rounding error.
// Here the couplings come from the residuals instead (yᵀ_b A y_a =
// yᵀ_b r_a exactly when y_b ⊥ y_a), the Rayleigh quotients from
// compensated dot products, and the projected matrix, whose off-diagonal
// entries are tiny next to its diagonal, is diagonalised by Jacobi
// rotations, which compute the small rotation angles to high relative
// accuracy. This takes the residuals to about one unit of round-off
// (2^-52) times ||A||, evaluated in twice the working precision.
//
// Only the residuals of pairs above floor (an absolute residual norm) join
// the basis, so a repeated step costs products only for the pairs that
// still need them.
//
// On success it returns the refined values (in the wanted order), vectors
// and their images (rows), explicit residual norms (from the images, which
// are carried along), and true. It returns false, leaving y and ay
// unchanged, when the refined pairs are not better (largest residual), or
// the step cannot be formed.
//
// The buffers come from w; the output vectors and images from its pair
// slot.
func (k *krylov) refine(y, ay *mat.Dense, floor float64, w *refineWork, slot int) (values, resid []float64, ynew, aynew *mat.Dense, ok bool) {
	nw, n := y.Dims()
	if nw == 0 || nw > maxRefine || 2*nw > n {
		return nil, nil, nil, nil, false
	}
	bl := blas64.Implementation()
	tm := &k.team
	theta := make([]float64, nw)
	rn := make([]float64, nw) // residual norms
	old := 0.0
	// residual sets dst to the residual of pair a. The norms are taken in
	// one row and the residuals kept only when some norm is above the
	// floor, so a step with nothing to refine (the common case at the
	// default tolerance) costs no n x nw buffer.
	residual := func(dst []float64, a int) {
		copy(dst, ay.RawRowView(a))
		bl.Daxpy(n, -theta[a], y.RawRowView(a), 1, dst, 1)
	}
	if len(w.row) < n {
		w.row = make([]float64, n)
	}
	q0 := 0 // residuals above the floor
	for a := 0; a < nw; a++ {
		ya, aya := y.RawRowView(a), ay.RawRowView(a)
		theta[a] = dot2(ya, aya) / dot2(ya, ya)
		residual(w.row[:n], a)
		rn[a] = rowNorm(w.row[:n])
		old = math.Max(old, rn[a])
		if rn[a] != 0 && rn[a] > floor {
			q0++
		}
	}
	if old == 0 || math.IsNaN(old) || math.IsInf(old, 0) || q0 == 0 {
		return nil, nil, nil, nil, false
	}
	r := firstRows(&w.r, nw, n)
	for a := 0; a < nw; a++ {
		residual(r.RawRowView(a), a)
	}
	// Stacked basis [Y; R̂] and images [A Y; A R̂], with room for the q0
	// residuals that join.
	basis := firstRows(&w.basis, nw+q0, n)
	img := firstRows(&w.img, nw+q0, n)
	for a := 0; a < nw; a++ {
		copy(basis.RawRowView(a), y.RawRowView(a))
		copy(img.RawRowView(a), ay.RawRowView(a))
	}
	// R̂: the residuals, scaled to unit rows, made orthogonal to Y (twice)
	// and orthonormal among themselves; rows that vanish are dropped.
	rh := basis.Slice(nw, nw+q0, 0, n).(*mat.Dense)
	q := 0
	for a := 0; a < nw; a++ {
		nr := rn[a]
		if nr == 0 || nr <= floor {
			continue
		}
		dst := rh.RawRowView(q)
		copy(dst, r.RawRowView(a))
		bl.Dscal(n, 1/nr, dst, 1)
		q++
	}
	yr := y.RawMatrix()
	c := make([]float64, q*nw)
	for pass := 0; pass < 2; pass++ {
		rr := rh.RawMatrix()
		// C = R̂ Yᵀ, R̂ -= C Y.
		tm.mulNT(c, rr.Data, rr.Stride, q, yr.Data, yr.Stride, nw, n)
		tm.subNN(rr.Data, rr.Stride, c, q, nw, yr.Data, yr.Stride, n)
		// A row the projection left tiny was (numerically) in the span of
		// Y: what is left of it is rounding noise, which normalizing would
		// blow up into a unit row that is not orthogonal to Y. Drop it (on
		// a null space, where A y = 0, every residual is parallel to its
		// vector).
		if q = keepRows(rh, q, func(nr float64) bool { return nr > 1e-8 }); q == 0 {
			return nil, nil, nil, nil, false
		}
		rh = basis.Slice(nw, nw+q, 0, n).(*mat.Dense)
		orthonormalRows(tm, rh, q)
	}
	// Drop rows the orthonormalization could not keep at unit length
	// (residuals lying in the span of the others or of Y).
	if q = keepRows(rh, q, func(nr float64) bool { return math.Abs(nr-1) <= 1e-6 }); q == 0 {
		return nil, nil, nil, nil, false
	}
	rh = basis.Slice(nw, nw+q, 0, n).(*mat.Dense)
	kr := img.Slice(nw, nw+q, 0, n).(*mat.Dense)
	k.apply(kr, rh)
	// Projected matrix H on [Y; R̂], with couplings taken from the
	// residuals: H_ab = θ_a δ_ab + sym(y_a·r_b), H_a,j = r̂_j·r_a,
	// H_ij = sym(r̂_i·A r̂_j).
	m := nw + q
	h := make([]float64, m*m)
	rr, kw := rh.RawMatrix(), kr.RawMatrix()
	rm := r.RawMatrix()
	yrt := make([]float64, nw*nw)
	tm.mulNT(yrt, yr.Data, yr.Stride, nw, rm.Data, rm.Stride, nw, n)
	tm.mulNT(c, rr.Data, rr.Stride, q, rm.Data, rm.Stride, nw, n)
	rkr := make([]float64, q*q)
	tm.mulNT(rkr, rr.Data, rr.Stride, q, kw.Data, kw.Stride, q, n)
	for a := 0; a < nw; a++ {
		h[a*m+a] = theta[a]
		for b := a + 1; b < nw; b++ {
			v := 0.5 * (yrt[a*nw+b] + yrt[b*nw+a])
			h[a*m+b], h[b*m+a] = v, v
		}
		for j := 0; j < q; j++ {
			v := c[j*nw+a]
			h[a*m+nw+j], h[(nw+j)*m+a] = v, v
		}
	}
	for i := 0; i < q; i++ {
		for j := i; j < q; j++ {
			v := 0.5 * (rkr[i*q+j] + rkr[j*q+i])
			h[(nw+i)*m+nw+j], h[(nw+j)*m+nw+i] = v, v
		}
	}
	for _, v := range h {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, nil, nil, nil, false
		}
	}
	// Diagonalise the residual block first (its entries are not small,
	// and an absolute error of eps times its norm is harmless there), and
	// carry its eigenvectors vm into the couplings: the Jacobi sweeps then
	// only resolve the tiny couplings and settle in two or three sweeps
	// instead of about ten.
	vm := make([]float64, q*q)
	wm := make([]float64, q)
	for i := 0; i < q; i++ {
		copy(vm[i*q:(i+1)*q], h[(nw+i)*m+nw:(nw+i)*m+nw+q])
	}
	if !newSymEig(q).factorize(q, vm, wm) {
		return nil, nil, nil, nil, false
	}
	bv := make([]float64, nw*q)
	for a := 0; a < nw; a++ {
		for j := 0; j < q; j++ {
			var sum float64
			for i := 0; i < q; i++ {
				sum += h[a*m+nw+i] * vm[i*q+j]
			}
			bv[a*q+j] = sum
		}
	}
	for a := 0; a < nw; a++ {
		for j := 0; j < q; j++ {
			h[a*m+nw+j], h[(nw+j)*m+a] = bv[a*q+j], bv[a*q+j]
		}
	}
	for i := 0; i < q; i++ {
		for j := 0; j < q; j++ {
			h[(nw+i)*m+nw+j] = 0
		}
		h[(nw+i)*m+nw+i] = wm[i]
	}
	z := make([]float64, m*m)
	if !jacobi.Eigen(m, h, z) {
		return nil, nil, nil, nil, false
	}
	// Back to the R̂ coordinates: rows nw.. of z times vm.
	zr := make([]float64, q)
	for j := 0; j < m; j++ {
		for i := 0; i < q; i++ {
			var sum float64
			for l := 0; l < q; l++ {
				sum += vm[i*q+l] * z[(nw+l)*m+j]
			}
			zr[i] = sum
		}
		for i := 0; i < q; i++ {
			z[(nw+i)*m+j] = zr[i]
		}
	}
	// The nw wanted Ritz pairs of H, in the wanted order.
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		di, dj := k.sign*h[i*m+i], k.sign*h[j*m+j]
		switch {
		case di > dj:
			return -1
		case di < dj:
			return 1
		}
		return 0
	})
	// G (nw x m): row a holds the coefficients of refined vector a.
	g := make([]float64, nw*m)
	values = make([]float64, nw)
	for a := 0; a < nw; a++ {
		j := idx[a]
		values[a] = h[j*m+j]
		for i := 0; i < m; i++ {
			g[a*m+i] = z[i*m+j]
		}
	}
	ynew = firstRows(&w.out[slot][0], nw, n)
	aynew = firstRows(&w.out[slot][1], nw, n)
	br, ir := basis.RawMatrix(), img.RawMatrix()
	yn, an := ynew.RawMatrix(), aynew.RawMatrix()
	tm.mulNN(yn.Data, yn.Stride, g, nw, m, br.Data, br.Stride, n)
	tm.mulNN(an.Data, an.Stride, g, nw, m, ir.Data, ir.Stride, n)
	resid = make([]float64, nw)
	worst := 0.0
	for a := 0; a < nw; a++ {
		ra := r.RawRowView(a)
		copy(ra, aynew.RawRowView(a))
		bl.Daxpy(n, -values[a], ynew.RawRowView(a), 1, ra, 1)
		resid[a] = rowNorm(ra)
		worst = math.Max(worst, resid[a])
	}
	if !(worst < old) {
		return nil, nil, nil, nil, false
	}
	// The refined vectors must be orthonormal to working precision (G is
	// orthogonal and the basis orthonormal, unless something above lost
	// it, as rounding noise normalized into R̂ can): a last check, so that
	// a failure costs the refinement, not the answer. The input vectors
	// are orthonormal to a few units of round-off.
	gram := make([]float64, nw*nw)
	tm.mulNT(gram, yn.Data, yn.Stride, nw, yn.Data, yn.Stride, nw, n)
	for a := 0; a < nw; a++ {
		gram[a*nw+a]--
	}
	orthTol := 4 * float64(n) * dlamchE
	for _, v := range gram {
		if !(math.Abs(v) <= orthTol) {
			return nil, nil, nil, nil, false
		}
	}
	return values, resid, ynew, aynew, true
}

// keepRows moves the rows among the first q of x whose Euclidean norm
// satisfies keep to the front, in order, and returns how many there are.
func keepRows(x *mat.Dense, q int, keep func(norm float64) bool) int {
	k := 0
	for a := 0; a < q; a++ {
		row := x.RawRowView(a)
		if !keep(rowNorm(row)) {
			continue
		}
		if k != a {
			copy(x.RawRowView(k), row)
		}
		k++
	}
	return k
}

// dot2 returns the dot product of x and y computed in twice the working
// precision (the products split exactly with FMA, the sums compensated),
// then rounded: accurate to a unit of round-off unless the result cancels
// to far below the terms.
func dot2(x, y []float64) float64 {
	y = y[:len(x)]
	var s, c float64
	for i, xv := range x {
		p := xv * y[i]
		pe := math.FMA(xv, y[i], -p)
		t := s + p
		z := t - s
		c += (s - (t - z)) + (p - z) + pe
		s = t
	}
	return s + c
}
