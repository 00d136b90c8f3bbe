package linalg

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Alignments are ratios of inner products, unchanged when an argument is
// multiplied by a positive number. Each is computed first on the inputs as
// they are; if an inner product overflows, or a squared norm falls below
// 2^-1000 (where its terms lose precision to underflow, or vanish), it is
// computed again on copies of the inputs scaled by exact powers of two to a
// largest entry in [0.5, 1). Only a matrix that is zero, or whose nonzero
// entries (after centring) are all below about 1e-154 times its largest
// entry, then leaves the alignment undefined. Inputs in the ordinary range
// pay nothing for this.

// alignFault says why a ratio of inner products was not accepted.
type alignFault int

const (
	alignOK    alignFault = iota
	alignZero             // a norm is zero
	alignRange            // a value is not finite, or a norm is below 2^-1000
)

// alignRatio returns num / sqrt(n1 n2), clamped to [-1, 1].
func alignRatio(num, n1, n2 float64) (float64, alignFault) {
	if n1 <= 0 || n2 <= 0 {
		return 0, alignZero
	}
	if !isFinite(num) || !(n1 >= 0x1p-1000 && n1 <= math.MaxFloat64) || !(n2 >= 0x1p-1000 && n2 <= math.MaxFloat64) {
		return 0, alignRange
	}
	a := num / (math.Sqrt(n1) * math.Sqrt(n2))
	if !isFinite(a) {
		return 0, alignRange
	}
	// Rounding can push |a| a hair above 1 for (nearly) proportional
	// matrices; the Cauchy-Schwarz bound holds exactly.
	return max(-1, min(1, a)), alignOK
}

// alignOutcome returns the result of the second, scaled, attempt.
func alignOutcome(op string, a float64, f alignFault) (float64, error) {
	switch f {
	case alignOK:
		return a, nil
	case alignZero:
		return 0, newErr(ErrDegenerate, op,
			"alignment undefined: a matrix (centred, where the alignment centres) has zero Frobenius norm, "+
				"or is nonzero only below about 1e-154 times its largest entry")
	}
	return 0, newErr(ErrDegenerate, op, "alignment undefined: an inner product of the inputs scaled to unit size is not finite")
}

// innerOutcome returns f 2^e, an inner product computed on inputs scaled
// by 2^-e, or ErrDegenerate if it overflows.
func innerOutcome(op string, f float64, e int) (float64, error) {
	r := math.Ldexp(f, e)
	if !isFinite(r) {
		return 0, newErr(ErrDegenerate, op, "the inner product (about %s) overflows float64; scale the inputs down", fmtPow2(f, e))
	}
	return r, nil
}

// unitExp returns e such that m 2^-e lies in [0.5, 1), or in [2^-52, 0.5)
// for a subnormal m (2^-e is then still a float64); 0 for m = 0.
func unitExp(m float64) int {
	_, e := math.Frexp(m)
	return max(e, -1022)
}

// unitScaled returns a copy of the upper triangle of v multiplied by 2^-e,
// with e = unitExp of its largest magnitude.
func (v symView) unitScaled() (symView, int) {
	n := v.n
	var m float64
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			m = max(m, math.Abs(v.at(i, j)))
		}
	}
	e := unitExp(m)
	return v.scaledBy(e), e
}

// scaledBy returns a copy of the upper triangle of v multiplied by 2^-e
// (a power of two that is a float64).
func (v symView) scaledBy(e int) symView {
	n := v.n
	f := math.Ldexp(1, -e)
	data := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			data[i*n+j] = v.at(i, j) * f
		}
	}
	return symView{n: n, data: data, stride: n, max: v.max * f}
}

// unitScaledVec returns y multiplied by 2^-unitExp(max |y_i|).
func unitScaledVec(y []float64) []float64 {
	return scaledSlice(y, unitExp(maxAbsOf(y)))
}

// unitScaledDense returns y multiplied by 2^-unitExp(max |y_ij|).
func unitScaledDense(y *mat.Dense) *mat.Dense {
	r, c := y.Dims()
	var m float64
	for i := 0; i < r; i++ {
		m = max(m, maxAbsOf(y.RawRowView(i)[:c]))
	}
	return scaledCopy(y, unitExp(m))
}

// unitScaled returns V 2^-ev and Mu 2^-em scaled to unit size, and
// e = 2 ev + em: the kernel of the result is K 2^-e.
func (l *LowRank) unitScaled() (*LowRank, int) {
	n, d := l.V.Dims()
	var m float64
	for i := 0; i < n; i++ {
		m = max(m, maxAbsOf(l.V.RawRowView(i)[:d]))
	}
	ev, em := unitExp(m), unitExp(maxAbsOf(l.Mu))
	return &LowRank{V: scaledCopy(l.V, ev), Mu: scaledSlice(l.Mu, em)}, 2*ev + em
}

// meanOf returns the mean of the n values v(i), also when their sum
// overflows.
func meanOf(n int, v func(i int) float64) float64 {
	var s float64
	for i := 0; i < n; i++ {
		s += v(i)
	}
	if !math.IsInf(s, 0) && !math.IsNaN(s) {
		return s / float64(n)
	}
	s = 0
	for i := 0; i < n; i++ {
		s += v(i) / float64(n)
	}
	return s
}
