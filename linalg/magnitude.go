package linalg

import (
	"fmt"
	"math"
	"math/bits"

	"gonum.org/v1/gonum/mat"
)

// Squares of float64 values leave the normal range beyond magnitudes of
// about 2^±511 (1e±154): they overflow to +Inf above it and lose precision
// (down to 0) below it. The functions that square data (distances, RBF
// kernels, variances, bandwidths) therefore look at the largest magnitude
// M of their input, which the finiteness scan already visits, and when the
// sums of squares they form could overflow, or M is below 2^-100, they
// work on the data multiplied by the power of two that brings M just below
// the largest safe magnitude (see rangeScale). Multiplying by a power of
// two is exact for every entry that stays a normal number, so the scaled
// squared distances are the original ones times a power of two: their
// order and their ties are those of the data, and the answer is converted
// back (math.Ldexp, one rounding) only where it is returned. Scaling to the
// top of the safe range, rather than to 1, keeps the small differences of
// data whose magnitudes are mixed (a tight cluster and a far outlier).
// Data inside the window are used as they are, with no copy and no extra
// work.

// rangeScale returns the exponent e such that the data, multiplied by
// 2^-e, have their largest magnitude M' in [2^(top-1), 2^top), where top is
// the largest exponent for which 4 terms M'^2 stays below 2^1020: a sum of
// terms squared differences of entries (each at most 2M') cannot overflow.
// It returns 0, meaning use the data as they are, when maxAbs is 0 or lies
// in [2^-100, 2^top): there only differences below 2^-437 maxAbs square to
// nothing; in scaled data, only those below 2^-1044 maxAbs. For subnormal
// data e is -1022 at least, so that 2^-e is a representable float64 (M' is
// then 2^-52 or more). terms is 4p for squared distances and the Gram
// expansion ||x||^2 + ||z||^2 - 2 x.z of p-dimensional data.
func rangeScale(maxAbs float64, terms int) int {
	top := (1018 - bits.Len(uint(terms))) / 2
	if maxAbs == 0 || (maxAbs >= 0x1p-100 && maxAbs < math.Ldexp(1, top)) {
		return 0
	}
	_, e := math.Frexp(maxAbs) // 2^(e-1) <= maxAbs < 2^e
	return max(e-top, -1022)
}

// checkDataMax is checkData that also returns the largest magnitude of an
// entry of x, found in the same scan.
func checkDataMax(op string, x *mat.Dense) (n, p int, maxAbs float64, err error) {
	if x == nil || x.IsEmpty() {
		n, p, err = checkData(op, x)
		return n, p, 0, err
	}
	n, p = x.Dims()
	raw := x.RawMatrix()
	var mag uint64
	for i := 0; i < n; i++ {
		for _, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			mag = max(mag, math.Float64bits(v)&^(1<<63))
		}
	}
	if mag >= infBits {
		_, _, err = checkData(op, x)
		return 0, 0, 0, err
	}
	return n, p, math.Float64frombits(mag), nil
}

// scaledCopy returns x multiplied by 2^-e, entry by entry (exact for every
// result that is a normal number).
func scaledCopy(x *mat.Dense, e int) *mat.Dense {
	n, p := x.Dims()
	f := math.Ldexp(1, -e)
	raw := x.RawMatrix()
	out := make([]float64, n*p)
	for i := 0; i < n; i++ {
		row := out[i*p : (i+1)*p]
		for d, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
			row[d] = v * f
		}
	}
	return mat.NewDense(n, p, out)
}

// maxAbsOf returns the largest magnitude in v (v finite).
func maxAbsOf(v []float64) float64 {
	var mag uint64
	for _, x := range v {
		mag = max(mag, math.Float64bits(x)&^(1<<63))
	}
	return math.Float64frombits(mag)
}

// fmtPow2 formats m * 2^e in the %.3g style even when the value lies
// outside the float64 range (for error messages).
func fmtPow2(m float64, e int) string {
	if v := math.Ldexp(m, e); m == 0 || (math.Abs(v) >= 0x1p-1022 && !math.IsInf(v, 0)) {
		return fmt.Sprintf("%.3g", v)
	}
	l := math.Log10(math.Abs(m)) + float64(e)*math.Log10(2)
	x := math.Floor(l)
	s := fmt.Sprintf("%.3ge%+d", math.Pow(10, l-x), int(x))
	if m < 0 {
		s = "-" + s
	}
	return s
}
