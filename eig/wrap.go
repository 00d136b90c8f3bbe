package eig

import (
	"sync/atomic"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// The wrappers below are BlockOperators whatever they wrap (a block product
// is passed on as one, or as single products if the wrapped operator has
// none); their Unwrap method lets TopD judge them by the wrapped operator.
var (
	_ BlockOperator = (*Shifted)(nil)
	_ BlockOperator = (*Negated)(nil)
	_ BlockOperator = (*Counter)(nil)
)

// Shifted is the operator A - Sigma I.
type Shifted struct {
	Op    Operator
	Sigma float64
}

// Shift returns the operator a - sigma I.
func Shift(a Operator, sigma float64) *Shifted { return &Shifted{Op: a, Sigma: sigma} }

// Dims returns the dimensions of the wrapped operator ((0, 0) if there is
// none).
func (s *Shifted) Dims() (r, c int) {
	if s == nil {
		return 0, 0
	}
	return opDims(s.Op)
}

// Unwrap returns the wrapped operator A.
func (s *Shifted) Unwrap() Operator {
	if s == nil {
		return nil
	}
	return s.Op
}

// MulVecTo sets dst = (A - Sigma I) x.
func (s *Shifted) MulVecTo(dst, x []float64) {
	s.Op.MulVecTo(dst, x)
	if s.Sigma != 0 {
		blas64.Implementation().Daxpy(len(x), -s.Sigma, x, 1, dst, 1)
	}
}

// MulVecsTo applies A - Sigma I to the rows of x.
func (s *Shifted) MulVecsTo(dst, x *mat.Dense) {
	mulVecs(s.Op, dst, x)
	if s.Sigma != 0 {
		r, _ := x.Dims()
		for k := 0; k < r; k++ {
			xr := x.RawRowView(k)
			blas64.Implementation().Daxpy(len(xr), -s.Sigma, xr, 1, dst.RawRowView(k), 1)
		}
	}
}

// Negated is the operator -A.
type Negated struct{ Op Operator }

// Negate returns the operator -a, whose largest eigenvalues are the
// negatives of the smallest eigenvalues of a.
func Negate(a Operator) *Negated { return &Negated{Op: a} }

// Dims returns the dimensions of the wrapped operator ((0, 0) if there is
// none).
func (g *Negated) Dims() (r, c int) {
	if g == nil {
		return 0, 0
	}
	return opDims(g.Op)
}

// Unwrap returns the wrapped operator A.
func (g *Negated) Unwrap() Operator {
	if g == nil {
		return nil
	}
	return g.Op
}

// MulVecTo sets dst = -A x.
func (g *Negated) MulVecTo(dst, x []float64) {
	g.Op.MulVecTo(dst, x)
	for i := range dst {
		dst[i] = -dst[i]
	}
}

// MulVecsTo applies -A to the rows of x.
func (g *Negated) MulVecsTo(dst, x *mat.Dense) {
	mulVecs(g.Op, dst, x)
	r, _ := dst.Dims()
	for k := 0; k < r; k++ {
		row := dst.RawRowView(k)
		for i := range row {
			row[i] = -row[i]
		}
	}
}

// Counter wraps an operator and counts the vectors it is applied to and the
// calls made (a block product of b vectors counts b vectors and one call).
// The counts are updated atomically, so a Counter may be shared.
type Counter struct {
	Op      Operator
	vectors atomic.Int64
	calls   atomic.Int64
}

// Dims returns the dimensions of the wrapped operator ((0, 0) if there is
// none).
func (c *Counter) Dims() (r, cols int) {
	if c == nil {
		return 0, 0
	}
	return opDims(c.Op)
}

// Unwrap returns the wrapped operator.
func (c *Counter) Unwrap() Operator {
	if c == nil {
		return nil
	}
	return c.Op
}

// MulVecTo applies the operator and counts one vector and one call.
func (c *Counter) MulVecTo(dst, x []float64) {
	c.vectors.Add(1)
	c.calls.Add(1)
	c.Op.MulVecTo(dst, x)
}

// MulVecsTo applies the operator to the rows of x and counts them.
func (c *Counter) MulVecsTo(dst, x *mat.Dense) {
	r, _ := x.Dims()
	c.vectors.Add(int64(r))
	c.calls.Add(1)
	mulVecs(c.Op, dst, x)
}

// Vectors returns the number of vectors the operator has been applied to.
func (c *Counter) Vectors() int64 { return c.vectors.Load() }

// Calls returns the number of MulVecTo and MulVecsTo calls.
func (c *Counter) Calls() int64 { return c.calls.Load() }
