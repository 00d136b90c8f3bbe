package eig

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// The operators of the shift-and-invert mode (shiftinvert.go): the
// factorized inverse (A - sigma I)^-1 and its deflation by converged pairs.

// deflated is the operator P B P with P = I - V Vᵀ, for the inverse B and
// the orthonormal columns V of the pairs already converged. The Lanczos
// iteration resolves the Ritz values of the inverse to about eps times
// its largest value: for the pairs of A farthest from sigma, whose values
// in the inverse are many orders of magnitude smaller, that is no relative
// accuracy at all. With the converged pairs projected out, the largest
// value is the first of the others, and they converge to working
// precision. Each application costs one solve and O(n k) for k locked
// vectors.
type deflated struct {
	inv *inverse
	v   *mat.Dense // n x k
	t   []float64
	c   []float64
}

func (f *deflated) Dims() (r, c int) { return f.inv.Dims() }

func (f *deflated) MulVecTo(dst, x []float64) {
	n, k := f.v.Dims()
	if f.t == nil {
		f.t, f.c = make([]float64, n), make([]float64, k)
	}
	copy(f.t, x)
	f.project(f.t)
	f.inv.MulVecTo(dst, f.t)
	f.project(dst)
}

// project sets x = (I - V Vᵀ) x, by classical Gram-Schmidt twice.
func (f *deflated) project(x []float64) {
	raw := f.v.RawMatrix()
	k := raw.Cols
	for pass := 0; pass < 2; pass++ {
		clear(f.c)
		for i, xi := range x {
			row := raw.Data[i*raw.Stride : i*raw.Stride+k]
			for j, vij := range row {
				f.c[j] += vij * xi
			}
		}
		for i := range x {
			row := raw.Data[i*raw.Stride : i*raw.Stride+k]
			var s float64
			for j, vij := range row {
				s += vij * f.c[j]
			}
			x[i] -= s
		}
	}
}

// axpy sets y += alpha x.
func axpy(alpha float64, x, y []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}

// inverse is the operator (A - sigma I)^-1 (or its negative's) of a
// factorization, counting its applications. It is used by one solve at a
// time.
type inverse struct {
	n      int
	solve  func(dst, x, work []float64)
	work   []float64
	solves int
}

func (v *inverse) Dims() (r, c int) { return v.n, v.n }

func (v *inverse) MulVecTo(dst, x []float64) {
	v.solves++
	v.solve(dst, x, v.work)
}

// factorShifted factorizes A - sigma I (or sigma I - A if negate) for the
// matrices ShiftInvert supports and returns the inverse operator and the
// Gershgorin bound of A.
func factorShifted(ctx context.Context, op string, a Operator, sigma float64, negate bool) (*inverse, float64, error) {
	m := a
	for range 64 {
		c, ok := m.(*Counter)
		if !ok {
			break
		}
		m = c.Op
	}
	n, _ := a.Dims()
	inv := &inverse{n: n, work: make([]float64, n)}
	var sp *linalg.CSR
	switch t := m.(type) {
	case *CSR:
		sp = t.a
	case *linalg.CSR:
		if _, err := NewCSR(t); err != nil {
			return nil, 0, linalg.Errorf(kindOf(err), op, "%w", err)
		}
		sp = t
	case *Dense:
		f, norm, err := denseCholesky(op, t, sigma, negate)
		if err != nil {
			return nil, 0, err
		}
		inv.solve = func(dst, x, _ []float64) {
			dv := mat.NewVecDense(n, dst)
			if err := f.SolveVecTo(dv, mat.NewVecDense(n, x)); err != nil {
				// Cannot happen: the factorization succeeded.
				panic("eig: internal error: " + err.Error())
			}
		}
		return inv, norm, nil
	default:
		return nil, 0, linalg.Errorf(linalg.ErrSettings, op,
			"shift-and-invert needs a matrix to factorize (*linalg.CSR, *eig.CSR or *eig.Dense), not %T", m)
	}
	norm := GershgorinBound(sp)
	if negate {
		sp = sp.Scaled(-1)
		sigma = -sigma
	}
	f, err := factorCSR(ctx, op, sp, sigma)
	if err != nil {
		return nil, 0, err
	}
	inv.solve = func(dst, x, work []float64) { f.solvePermuted(dst, x, work) }
	return inv, norm, nil
}

// denseCholesky factorizes A - sigma I (sigma I - A if negate) of a dense
// operator and returns the factorization and the Gershgorin bound of A.
func denseCholesky(op string, a *Dense, sigma float64, negate bool) (*mat.Cholesky, float64, error) {
	n := a.n
	s := mat.NewSymDense(n, nil)
	var norm float64
	for i := 0; i < n; i++ {
		var row float64
		for j := 0; j < n; j++ {
			v := a.a[i*n+j]
			row += math.Abs(v)
			if j < i {
				continue
			}
			if j == i {
				v -= sigma
			}
			if negate {
				v = -v
			}
			s.SetSym(i, j, v)
		}
		norm = math.Max(norm, row)
	}
	var f mat.Cholesky
	if !f.Factorize(s) {
		return nil, 0, linalg.Errorf(linalg.ErrNotPSD, op,
			"the shifted matrix (sigma = %g) is not positive definite: sigma is an eigenvalue of A or on the wrong side of one", sigma)
	}
	if f.Cond() > 1/(float64(n)*dlamchE) {
		return nil, 0, linalg.Errorf(linalg.ErrDegenerate, op,
			"the shifted matrix (sigma = %g) is singular to working precision (condition %.3g): sigma is an eigenvalue of A", sigma, f.Cond())
	}
	return &f, norm, nil
}
