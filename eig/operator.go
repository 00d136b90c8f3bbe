package eig

import (
	"errors"
	"reflect"
	"sync"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// Operator is a symmetric linear operator A of order n, all the solvers see
// of a matrix. Dims returns (n, n) (an operator that is not square is
// rejected with linalg.ErrShape). MulVecTo sets dst = A x, overwriting dst
// (it never accumulates); dst and x have length n and do not overlap.
//
// The methods are gonum's (mat.Matrix's Dims, and the MulVecTo of its
// vectors), so *linalg.CSR and *linalg.LowRank are Operators as they are.
// Dense, CSR (which checks symmetry up front), Shift, Negate and Counter
// adapt or wrap other forms, and a matrix-free operator needs nothing more
// than the two methods (see the example of Operator). The solvers assume
// symmetry; the Krylov methods report an operator they find asymmetric (or
// whose products are not finite) with an error and Status
// linalg.NumericalFailure.
//
// Implementations must be safe for concurrent use if the operator is shared
// between concurrent solves.
type Operator interface {
	Dims() (r, c int)
	MulVecTo(dst, x []float64)
}

// BlockOperator is an Operator that can apply A to several vectors in one
// call, which lets a dense matrix be streamed from memory once per block
// instead of once per vector.
//
// MulVecsTo sets row k of dst to A times row k of x, for every row k. Both x
// and dst are b x n matrices: vectors are stored as rows so that each is
// contiguous in memory. dst is overwritten.
//
// The capability is what the default solver goes by: TopD uses the block
// method for any operator that implements BlockOperator, so implement it
// when a block product of b vectors costs much less than b products (a
// dense matrix read from memory), not merely as a loop over MulVecTo. An
// operator that wraps another and forwards MulVecsTo to it should also have
// a method Unwrap() Operator returning the wrapped operator (as Shifted,
// Negated and Counter do): it is then judged by the operator it wraps.
type BlockOperator interface {
	Operator
	MulVecsTo(dst, x *mat.Dense)
}

// blockCapable reports whether block products of a are worth having: a
// implements BlockOperator and, if it wraps another operator (a method
// Unwrap() Operator), so does the wrapped one, recursively. The default
// solver (TopD) and the Krylov methods' estimate of a product's cost both
// go by it.
func blockCapable(a Operator) bool {
	return walkWrapped(a, func(op Operator, last bool) (bool, bool) {
		if _, ok := op.(BlockOperator); !ok {
			return false, true
		}
		return true, last
	})
}

// walkWrapped calls visit on a and on the operators it wraps (through
// Unwrap() Operator), outermost first; last says that op wraps nothing.
// The walk stops with visit's value when visit says done, and with false
// at a nil or empty operator or after 64 levels (a bound against wrappers
// that wrap themselves).
func walkWrapped(a Operator, visit func(op Operator, last bool) (value, done bool)) bool {
	for range 64 {
		if isNilOrEmpty(a) {
			return false
		}
		w, ok := a.(interface{ Unwrap() Operator })
		if v, done := visit(a, !ok); done {
			return v
		}
		if !ok {
			return false
		}
		a = w.Unwrap()
	}
	return false
}

// calls returns the number of operator calls mulVecs makes for r vectors:
// one block product; for a CSR with its compact kernel one pass over the
// matrix per block of four and one per vector left over; otherwise one
// call per vector.
func calls(a Operator, r int) int {
	if _, ok := a.(BlockOperator); ok {
		return 1
	}
	if c, ok := a.(*CSR); ok && c.ptr != nil {
		return r/4 + r%4
	}
	return r
}

// mulVecs applies a to the rows of x, using the block product when a has
// one. A CSR with its compact kernel takes the rows four at a time,
// interleaved (one pass over the matrix for four vectors, the same sums in
// the same order as four vector products, so the same result bit for bit).
func mulVecs(a Operator, dst, x *mat.Dense) {
	if b, ok := a.(BlockOperator); ok {
		b.MulVecsTo(dst, x)
		return
	}
	r, n := x.Dims()
	k := 0
	if c, ok := a.(*CSR); ok && c.ptr != nil && r >= 4 {
		buf, _ := interleaved.Get().(*[]float64)
		if buf == nil || len(*buf) < 8*n {
			buf = new([]float64)
			*buf = make([]float64, 8*n)
		}
		defer interleaved.Put(buf)
		xi, yi := (*buf)[:4*n], (*buf)[4*n:8*n]
		for ; k+4 <= r; k += 4 {
			interleave(xi, x, k, 4)
			c.mulBlock(yi, xi, 4)
			deinterleave(dst, yi, k, 4)
		}
	}
	for ; k < r; k++ {
		a.MulVecTo(dst.RawRowView(k), x.RawRowView(k))
	}
}

// interleave stores rows from:from+b of x in xi interleaved, the layout
// of the block products: xi[j*b+v] = x[from+v][j].
func interleave(xi []float64, x *mat.Dense, from, b int) {
	_, n := x.Dims()
	for v := range b {
		for j, e := range x.RawRowView(from + v)[:n] {
			xi[j*b+v] = e
		}
	}
}

// deinterleave is interleave's inverse: dst[from+v][j] = xi[j*b+v].
func deinterleave(dst *mat.Dense, xi []float64, from, b int) {
	_, n := dst.Dims()
	for v := range b {
		row := dst.RawRowView(from + v)[:n]
		for j := range row {
			row[j] = xi[j*b+v]
		}
	}
}

// interleaved keeps mulVecs's buffers of four interleaved vectors and
// their images.
var interleaved sync.Pool

// opDims returns a.Dims(), or (0, 0) if a is nil or an interface holding a
// nil pointer (whose Dims would panic).
func opDims(a Operator) (r, c int) {
	if isNilOrEmpty(a) {
		return 0, 0
	}
	return a.Dims()
}

// isNilOrEmpty reports whether v is nil, an interface holding a nil pointer,
// or a gonum matrix that reports itself empty.
func isNilOrEmpty(v any) bool {
	if v == nil {
		return true
	}
	if r := reflect.ValueOf(v); r.Kind() == reflect.Pointer && r.IsNil() {
		return true
	}
	if e, ok := v.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return true
	}
	return false
}

// kindOf returns the linalg kind of err (the Kind of the *linalg.Error it
// holds), or linalg.ErrInvalid if it holds none.
func kindOf(err error) error {
	var le *linalg.Error
	if errors.As(err, &le) && le.Kind != nil {
		return le.Kind
	}
	return linalg.ErrInvalid
}
