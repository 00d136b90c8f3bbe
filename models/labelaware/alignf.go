package labelaware

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
)

// AlignfResult is the outcome of Alignf. It is returned, with the statistics
// filled in, also when the QP fails.
type AlignfResult struct {
	// Weights is the alignf combination mu = v / ||v||_2 (non-negative).
	Weights []float64
	// V is the QP solution v* in the scale of the given base vectors.
	V []float64
	// M and A are the QP data: M_ij = <K_i^c, K_j^c>_F and
	// a_i = <K_i^c, T>_F for the centred rank-one base kernels
	// K_i^c = H b_i b_iᵀ H on the block and the target T = Y Yᵀ.
	M *mat.SymDense
	A []float64
	// Alignment is the centred alignment of sum_i Weights_i b_i b_iᵀ with
	// T on the block: the largest over all non-negative weights.
	Alignment float64
	// Constant counts base vectors left out (weight 0) because they are
	// constant on the block, so that their centred kernel vanishes.
	Constant int
	// Status, Iterations and KKT report the QP solve (of the problem
	// rescaled to unit centred base vectors).
	Status     linalg.Status
	Iterations int
	KKT        qp.KKT
}

// constTol is the relative size below which a centred base vector counts
// as zero: ||H b|| <= constTol ||b|| happens only for vectors constant to
// within rounding, whose centred direction is noise.
const constTol = 1e-10

// Alignf computes the alignf weights of Cortes, Mohri and Rostamizadeh
// (ICML 2010) for rank-one base kernels K_i = b_i b_iᵀ on a block of l points
// (typically the labeled ones): with the centring H = I - 11ᵀ/l,
//
//	v* = argmin_{v >= 0} vᵀ M v - 2 vᵀ a,  M_ij = <H K_i H, H K_j H>_F = ((Hb_i)ᵀ(Hb_j))²,
//	a_i = <H K_i H, T>_F = ||Yᵀ H b_i||²,
//
// and mu = v*/||v*||, which maximises the centred alignment of sum_i mu_i K_i
// with the target T = Y Yᵀ over mu >= 0. base is l x r (column i is b_i),
// target is the l x t factor Y (for example the ±1 label column, or
// spectral.Target). Centring Y is not needed: H Y Yᵀ H and Y Yᵀ have the same
// inner product with a centred kernel.
//
// The QP (size r) is solved by qp.Bounded on the base vectors rescaled to
// unit centred norm, which leaves its solution unchanged up to that scaling
// and makes the tolerances scale-free. O(l r² + l r t) time plus the QP.
func Alignf(ctx context.Context, base, target *mat.Dense) (*AlignfResult, error) {
	if ctx == nil {
		return nil, inputf(linalg.ErrSettings, "nil context")
	}
	if err := checkBlock(base, target); err != nil {
		return nil, err
	}
	bc, norms, constant := centreColumns(base)
	_, r := base.Dims()
	res := &AlignfResult{Constant: constant, V: make([]float64, r), Weights: make([]float64, r), A: make([]float64, r), M: mat.NewSymDense(r, nil)}
	tn, err := targetNorm(target)
	if err != nil {
		return res, err
	}
	// Unit centred vectors: Mh_ij = (c_i·c_j)², ah_i = ||Yᵀ c_i||².
	gram := mat.NewSymDense(r, nil)
	gram.SymOuterK(1, bc.T())
	var yc mat.Dense
	yc.Mul(target.T(), bc) // t x r
	ah := make([]float64, r)
	for i := 0; i < r; i++ {
		if norms[i] == 0 {
			continue
		}
		col := mat.Col(nil, i, &yc)
		ah[i] = mat.Dot(mat.NewVecDense(len(col), col), mat.NewVecDense(len(col), col))
	}
	for i := 0; i < r; i++ {
		si := norms[i] * norms[i]
		res.A[i] = si * ah[i]
		for j := i; j < r; j++ {
			g := gram.At(i, j)
			res.M.SetSym(i, j, si*norms[j]*norms[j]*g*g)
		}
	}

	// The rescaled problem over the non-constant vectors.
	var free []int
	for i, s := range norms {
		if s > 0 {
			free = append(free, i)
		}
	}
	if len(free) == 0 {
		return res, inputf(linalg.ErrDegenerate, "every base vector is constant on the block")
	}
	f := len(free)
	h := mat.NewSymDense(f, nil)
	c := make([]float64, f)
	for a, i := range free {
		c[a] = -2 * ah[i]
		for b := a; b < f; b++ {
			g := gram.At(i, free[b])
			h.SetSym(a, b, 2*g*g)
		}
	}
	prob := &qp.Problem{H: h, G: c, Lower: make([]float64, f)}
	solver := qp.NewBounded(&qp.Settings{SkipPSDCheck: true})
	var qres qp.Result
	err = solver.Solve(ctx, prob, nil, &qres)
	res.Status, res.Iterations, res.KKT = qres.Status, qres.Iterations, qres.KKT
	if err != nil {
		if ctx.Err() != nil {
			return res, fmt.Errorf("labelaware: alignf: %w", err)
		}
		return res, fmt.Errorf("labelaware: alignf QP: %w", err)
	}
	if qres.Status != linalg.Optimal {
		return res, fmt.Errorf("labelaware: alignf QP ended with status %v (KKT residual %.2g): %w", qres.Status, qres.KKT.Max(), qres.Status.Err())
	}
	var vn float64
	for a, i := range free {
		v := math.Max(qres.X[a], 0) // v >= 0 holds to rounding
		res.V[i] = v / (norms[i] * norms[i])
		vn += res.V[i] * res.V[i]
	}
	if !(vn > 0) {
		return res, inputf(linalg.ErrDegenerate, "no base kernel is aligned with the target (alignf weights all zero)")
	}
	vn = math.Sqrt(vn)
	for i, v := range res.V {
		res.Weights[i] = v / vn
	}
	res.Alignment = alignmentFrom(norms, gram, ah, res.Weights, tn)
	return res, nil
}

// BlockAlignment returns the centred alignment, on a block of l points, of
// the kernel sum_i w_i b_i b_iᵀ (b_i the columns of base, l x r) with the
// target Y Yᵀ (target is the l x t factor Y): <HKH, HYYᵀH>_F /
// (||HKH||_F ||HYYᵀH||_F). It costs O(l r² + l r t) and never forms an
// l x l matrix. It fails with ErrDegenerate if the centred kernel or target
// is zero. With weights of both signs the terms of ||HKH||_F² can cancel,
// and the relative rounding error then grows as the square of
// sum_i |w_i| ||b_i||² / ||HKH||_F; the result is kept in [-1, 1].
func BlockAlignment(base, target *mat.Dense, w []float64) (float64, error) {
	if err := checkBlock(base, target); err != nil {
		return 0, err
	}
	_, r := base.Dims()
	if len(w) != r {
		return 0, inputf(linalg.ErrShape, "%d weights for %d base vectors", len(w), r)
	}
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, inputf(linalg.ErrNonFinite, "weight %d is %v", i, v)
		}
	}
	tn, err := targetNorm(target)
	if err != nil {
		return 0, err
	}
	bc, norms, _ := centreColumns(base)
	gram := mat.NewSymDense(r, nil)
	gram.SymOuterK(1, bc.T())
	var yc mat.Dense
	yc.Mul(target.T(), bc)
	ah := make([]float64, r)
	for i := 0; i < r; i++ {
		col := mat.Col(nil, i, &yc)
		for _, v := range col {
			ah[i] += v * v
		}
	}
	a := alignmentFrom(norms, gram, ah, w, tn)
	if math.IsNaN(a) {
		return 0, inputf(linalg.ErrDegenerate, "the centred kernel is zero on the block")
	}
	return a, nil
}

// alignmentFrom evaluates the centred alignment from the unit centred
// vectors: the kernel is sum_i w_i s_i² c_i c_iᵀ with s the centred norms.
// It returns NaN if that kernel is zero.
func alignmentFrom(norms []float64, gram *mat.SymDense, ah, w []float64, tn float64) float64 {
	r := len(w)
	// Effective weights on the unit vectors, up to a power of two: den is
	// of degree 4 in the norms and 2 in the weights, so it would underflow
	// (a kernel of entries below about 1e-150 would count as zero) or
	// overflow long before the alignment stops being representable. The
	// exact scalings by 2^-kw and 2^-ks leave the quotient unchanged.
	var wmax, smax float64
	for i, v := range w {
		wmax, smax = math.Max(wmax, math.Abs(v)), math.Max(smax, norms[i])
	}
	_, kw := math.Frexp(wmax)
	_, ks := math.Frexp(smax)
	e := make([]float64, r)
	for i := range e {
		si := math.Ldexp(norms[i], -ks)
		e[i] = math.Ldexp(w[i], -kw) * si * si
	}
	var num, den float64
	for i := 0; i < r; i++ {
		if e[i] == 0 {
			continue
		}
		num += e[i] * ah[i]
		for j := 0; j < r; j++ {
			g := gram.At(i, j)
			den += e[i] * e[j] * g * g
		}
	}
	if !(den > 0) {
		return math.NaN()
	}
	// A cosine, in [-1, 1] in exact arithmetic; with weights of both signs
	// den can cancel and its rounding push the quotient beyond.
	return math.Max(-1, math.Min(1, num/(math.Sqrt(den)*tn)))
}

// centreColumns returns the columns of b centred and scaled to unit norm,
// their centred norms (0 for columns constant to rounding, whose centred
// column is then left zero) and the number of such columns.
func centreColumns(b *mat.Dense) (*mat.Dense, []float64, int) {
	l, r := b.Dims()
	bc := mat.NewDense(l, r, nil)
	norms := make([]float64, r)
	constant := 0
	col := make([]float64, l)
	for j := 0; j < r; j++ {
		mat.Col(col, j, b)
		var mean, raw float64
		for _, v := range col {
			mean += v
			raw += v * v
		}
		mean /= float64(l)
		var s float64
		for i := range col {
			col[i] -= mean
			s += col[i] * col[i]
		}
		s = math.Sqrt(s)
		if !(s > constTol*math.Sqrt(raw)) {
			constant++
			continue
		}
		norms[j] = s
		for i, v := range col {
			bc.Set(i, j, v/s)
		}
	}
	return bc, norms, constant
}

// targetNorm returns ||H Y Yᵀ H||_F = ||(HY)ᵀ(HY)||_F, failing if it is zero
// (a constant target, such as a single class).
func targetNorm(y *mat.Dense) (float64, error) {
	l, t := y.Dims()
	yc := mat.DenseCopyOf(y)
	for j := 0; j < t; j++ {
		var mean float64
		for i := 0; i < l; i++ {
			mean += yc.At(i, j)
		}
		mean /= float64(l)
		for i := 0; i < l; i++ {
			yc.Set(i, j, yc.At(i, j)-mean)
		}
	}
	var g mat.Dense
	g.Mul(yc.T(), yc)
	n := mat.Norm(&g, 2) // the Frobenius norm for a matrix
	if !(n > 0) {
		return 0, inputf(linalg.ErrLabels, "the target is constant on the block (one class only?)")
	}
	return n, nil
}

// checkBlock validates the base vectors and the target factor of a block.
func checkBlock(base, target *mat.Dense) error {
	if base == nil || base.IsEmpty() {
		return inputf(linalg.ErrShape, "no base vectors")
	}
	if target == nil || target.IsEmpty() {
		return inputf(linalg.ErrShape, "no target")
	}
	l, _ := base.Dims()
	if lt, _ := target.Dims(); lt != l {
		return inputf(linalg.ErrShape, "target has %d rows, base vectors %d", lt, l)
	}
	if l < 2 {
		return inputf(linalg.ErrShape, "a block of %d point cannot be centred", l)
	}
	if err := finite(base, "base vector"); err != nil {
		return err
	}
	return finite(target, "target")
}

func finite(a *mat.Dense, what string) error {
	r, c := a.Dims()
	for i := 0; i < r; i++ {
		for j, v := range a.RawRowView(i)[:c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return inputf(linalg.ErrNonFinite, "%s entry (%d, %d) is %v", what, i, j, v)
			}
		}
	}
	return nil
}
