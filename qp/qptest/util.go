package qptest

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ukm/qp"
)

// dims returns the numbers of variables, equalities and inequalities of p.
func dims(p *qp.Problem) (n, meq, min int) {
	n = len(p.G)
	if p.Aeq != nil {
		meq, _ = p.Aeq.Dims()
	}
	if p.Ain != nil {
		min, _ = p.Ain.Dims()
	}
	return n, meq, min
}

// dot returns aᵀb.
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// relDiff returns max_j |x_j − y_j| / (1 + |y_j|), +Inf for lengths that
// differ or a NaN.
func relDiff(x, y []float64) float64 {
	if len(x) != len(y) {
		return math.Inf(1)
	}
	d := 0.0
	for j := range x {
		v := math.Abs(x[j]-y[j]) / (1 + math.Abs(y[j]))
		if math.IsNaN(v) {
			return math.Inf(1)
		}
		d = math.Max(d, v)
	}
	return d
}

// clone returns a deep copy of p.
func clone(p *qp.Problem) *qp.Problem {
	q := &qp.Problem{G: slices.Clone(p.G), Beq: slices.Clone(p.Beq), Bin: slices.Clone(p.Bin),
		Lower: slices.Clone(p.Lower), Upper: slices.Clone(p.Upper)}
	if p.H != nil {
		q.H = mat.NewSymDense(p.H.SymmetricDim(), nil)
		q.H.CopySym(p.H)
	}
	if p.Aeq != nil {
		q.Aeq = mat.DenseCopyOf(p.Aeq)
	}
	if p.Ain != nil {
		q.Ain = mat.DenseCopyOf(p.Ain)
	}
	return q
}

// same reports whether p and q hold the same data (bit for bit).
func same(p, q *qp.Problem) bool {
	eqm := func(a, b mat.Matrix) bool {
		if (a == nil) != (b == nil) {
			return false
		}
		return a == nil || mat.Equal(a, b)
	}
	var ph, qh, pa, qa, pi, qi mat.Matrix
	if p.H != nil {
		ph = p.H
	}
	if q.H != nil {
		qh = q.H
	}
	if p.Aeq != nil {
		pa = p.Aeq
	}
	if q.Aeq != nil {
		qa = q.Aeq
	}
	if p.Ain != nil {
		pi = p.Ain
	}
	if q.Ain != nil {
		qi = q.Ain
	}
	return slices.Equal(p.G, q.G) && slices.Equal(p.Beq, q.Beq) && slices.Equal(p.Bin, q.Bin) &&
		slices.Equal(p.Lower, q.Lower) && slices.Equal(p.Upper, q.Upper) &&
		eqm(ph, qh) && eqm(pa, qa) && eqm(pi, qi)
}
