package spectral

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
)

// DefaultZeroTol is the relative tolerance below which Order (Improved)
// takes an eigenvalue for zero when Order.ZeroTol is zero.
const DefaultZeroTol = 1e-8

// Order is the order-constrained graph kernel of Zhu, Kandola, Ghahramani
// and Lafferty (2004) as used in KDD'06 section 6.2: on a basis of the
// smallest Laplacian eigenpairs (ascending), the coefficients maximise the
// alignment under mu_1 >= mu_2 >= ... >= mu_d >= 0 (SKL with decay factor 1).
// With Improved set (Imp-Order) the coefficients of constant eigenvectors —
// those whose eigenvalue is at most ZeroTol·max(1, |lambda_max|) — are left
// out of the order chain and only kept non-negative. ZeroTol must be a finite
// value >= 0; zero means DefaultZeroTol.
//
// Order solves a fresh QP on every call, in O(l·d² + d³) at most, and is a
// value without state, safe for concurrent use. Its errors are those of SKL.
type Order struct {
	Improved bool
	ZeroTol  float64
}

var _ Design = Order{}

// Name implements Design.
func (o Order) Name() string {
	if o.Improved {
		return "Imp-Order"
	}
	return "Order"
}

// Coefficients implements Design.
func (o Order) Coefficients(ctx context.Context, dst []float64, b *Basis, labeled []int, target *mat.Dense) ([]float64, error) {
	const op = "spectral.Order.Coefficients"
	if err := begin(ctx, op, b); err != nil {
		return nil, err
	}
	if err := linalg.CheckTol(op, "ZeroTol", o.ZeroTol); err != nil {
		return nil, err
	}
	if err := checkTarget(op, labeled, target); err != nil {
		return nil, err
	}
	n, d := b.Dims()
	vl, err := b.rows(op, nil, labeled, make([]bool, n))
	if err != nil {
		return nil, err
	}
	prob, err := qp.NewSKL(vl, target, 1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	free := o.freeSet(b.Values)
	var res qp.Result
	if !o.Improved || len(free) == 0 {
		err = prob.Solve(ctx, nil, nil, &res)
	} else {
		err = qp.NewActiveSet(nil).Solve(ctx, o.improvedProblem(prob, free), nil, &res)
	}
	if err != nil {
		return nil, solveError(op, true, err)
	}
	if err := qpOutcome(op, &res); err != nil {
		return nil, err
	}
	dst = resize(dst, d)
	for i, v := range res.X {
		dst[i] = math.Max(v, 0)
	}
	return dst, normalise(op, dst, n)
}

// freeSet returns the indices of the constant eigenvectors.
func (o Order) freeSet(values []float64) map[int]bool {
	tol := o.ZeroTol
	if !(tol > 0) {
		tol = DefaultZeroTol
	}
	scale := 1.0
	for _, v := range values {
		scale = math.Max(scale, math.Abs(v))
	}
	free := map[int]bool{}
	for i, v := range values {
		if math.Abs(v) <= tol*scale {
			free[i] = true
		}
	}
	return free
}

// improvedProblem is the μ-space QP with the order chain over the
// non-constant eigenvectors only.
func (o Order) improvedProblem(prob *qp.SKL, free map[int]bool) *qp.Problem {
	d := prob.D()
	h := mat.NewSymDense(d, nil)
	h.ScaleSym(2, prob.H())
	var chain []int
	for i := 0; i < d; i++ {
		if !free[i] {
			chain = append(chain, i)
		}
	}
	p := &qp.Problem{
		H:     h,
		G:     make([]float64, d),
		Aeq:   mat.NewDense(1, d, append([]float64(nil), prob.A()...)),
		Beq:   []float64{1},
		Lower: make([]float64, d),
	}
	if len(chain) > 1 {
		p.Ain = mat.NewDense(len(chain)-1, d, nil)
		p.Bin = make([]float64, len(chain)-1)
		for k := 0; k+1 < len(chain); k++ {
			p.Ain.Set(k, chain[k], 1)
			p.Ain.Set(k, chain[k+1], -1)
		}
	}
	return p
}
