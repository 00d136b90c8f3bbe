package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// ScaleMethod selects a per-feature scaling.
type ScaleMethod int

const (
	// ZScore maps each column to mean 0 and (population) standard
	// deviation 1.
	ZScore ScaleMethod = iota
	// MinMax maps each column's training range [min, max] to [0, 1].
	MinMax
)

// Scaler is a fitted per-column affine map x'_j = (x_j - Shift[j]) *
// Factor[j]. A constant training column gets Factor 0, so it maps to 0 for
// training and for new points alike (never NaN). Fit it on training data
// with FitScaler and apply it to any data with the same number of columns.
type Scaler struct {
	Method ScaleMethod
	Shift  []float64
	Factor []float64
}

// FitScaler fits a scaler of the given method to the columns of x.
// ZScore uses the mean and the population standard deviation (divisor n);
// MinMax uses the minimum and the range. A column whose range, mean or
// standard deviation overflows (entries near the float64 limit) fails with
// ErrDegenerate instead of silently becoming a constant or NaN column.
func FitScaler(x *mat.Dense, method ScaleMethod) (*Scaler, error) {
	const op = "FitScaler"
	if method != ZScore && method != MinMax {
		return nil, newErr(ErrSettings, op, "unknown scale method %d", method)
	}
	n, p, err := checkData(op, x)
	if err != nil {
		return nil, err
	}
	raw := x.RawMatrix()
	s := &Scaler{Method: method, Shift: make([]float64, p), Factor: make([]float64, p)}
	// The passes run along the rows (contiguous) with one accumulator per
	// column; each column's sums still add its entries in row order.
	lo, hi, sum := make([]float64, p), make([]float64, p), make([]float64, p)
	copy(lo, raw.Data[:p])
	copy(hi, raw.Data[:p])
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		l, h, sm := lo[:len(row)], hi[:len(row)], sum[:len(row)]
		for d, v := range row { // finite: no NaN rules needed
			if v < l[d] {
				l[d] = v
			}
			if v > h[d] {
				h[d] = v
			}
			sm[d] += v
		}
	}
	if method == MinMax {
		for d := 0; d < p; d++ {
			if lo[d] == hi[d] {
				s.Shift[d] = lo[d] // constant column: maps to 0
				continue
			}
			s.Shift[d] = lo[d]
			s.Factor[d] = 1 / (hi[d] - lo[d])
			if !isFinite(hi[d]-lo[d]) || s.Factor[d] == 0 {
				return nil, newErr(ErrDegenerate, op, "column %d: range [%v, %v] overflows float64; scale the data down", d, lo[d], hi[d])
			}
			if !isFinite(s.Factor[d]) {
				return nil, newErr(ErrDegenerate, op,
					"column %d: range %v is too small: its inverse, the scaling factor, overflows float64; scale the data up",
					d, hi[d]-lo[d])
			}
		}
		return s, nil
	}
	mean := sum // reused: sum[d] becomes the mean of column d
	for d := 0; d < p; d++ {
		if lo[d] == hi[d] {
			mean[d] = lo[d] // constant: maps to 0 below
			continue
		}
		if !isFinite(sum[d]) {
			// The plain sum overflowed (entries near the float64 limit):
			// sum the entries divided by n instead.
			var m float64
			for i := 0; i < n; i++ {
				m += raw.Data[i*raw.Stride+d] / float64(n)
			}
			mean[d] = m
			continue
		}
		mean[d] = sum[d] / float64(n)
	}
	// Standard deviation scaled by the largest deviation, so that the
	// squares neither underflow (a column of tiny but distinct values would
	// otherwise get sd 0 and be zeroed) nor overflow. The usual range takes
	// the plain formula, also along the rows.
	big, ss := make([]float64, p), make([]float64, p)
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+p]
		mn, bg, sq := mean[:len(row)], big[:len(row)], ss[:len(row)]
		for d, v := range row {
			c := v - mn[d]
			if a := math.Abs(c); a > bg[d] { // NaN (an infinite mean) fails later
				bg[d] = a
			}
			sq[d] += c * c
		}
	}
	for d := 0; d < p; d++ {
		if lo[d] == hi[d] {
			s.Shift[d] = lo[d] // constant column: maps to 0
			continue
		}
		var sd float64
		switch b := big[d]; {
		case b >= 1e-150 && b <= 1e150:
			sd = math.Sqrt(ss[d] / float64(n))
		case b > 0 && isFinite(b):
			var sc float64
			for i := 0; i < n; i++ {
				c := (raw.Data[i*raw.Stride+d] - mean[d]) / b
				sc += c * c
			}
			sd = b * math.Sqrt(sc/float64(n))
		default:
			sd = math.NaN() // deviations overflow
		}
		s.Shift[d] = mean[d]
		if !isFinite(mean[d]) || !isFinite(sd) {
			// The deviations from the mean overflow float64.
			return nil, newErr(ErrDegenerate, op, "column %d: mean or standard deviation overflows; rescale the data", d)
		}
		if sd > 0 {
			s.Factor[d] = 1 / sd
			if !isFinite(s.Factor[d]) {
				return nil, newErr(ErrDegenerate, op,
					"column %d: standard deviation %v is too small: its inverse, the scaling factor, overflows float64; scale the data up",
					d, sd)
			}
		}
	}
	return s, nil
}

// Transform returns a scaled copy of x.
func (s *Scaler) Transform(x *mat.Dense) (*mat.Dense, error) {
	var dst mat.Dense
	if err := s.TransformTo(&dst, x); err != nil {
		return nil, err
	}
	return &dst, nil
}

// TransformTo stores the scaled x in dst, which may be x itself (in place),
// an empty matrix (allocated) or a matrix of the same shape; any other
// overlap of dst and x is handled through a temporary. A nil Scaler
// returns an error wrapping ErrSettings. A point far outside the training
// range can have a scaled value beyond the float64 range: TransformTo then
// fails with ErrDegenerate, before writing anything, rather than store
// Inf. The entries are checked one by one only when a bound from the
// largest entry of x and the scaler allows an overflow.
func (s *Scaler) TransformTo(dst, x *mat.Dense) error {
	const op = "Scaler.TransformTo"
	if s == nil {
		return newErr(ErrSettings, op, "scaler is nil")
	}
	if dst == nil {
		return newErr(ErrShape, op, "destination is nil")
	}
	n, p, maxAbs, err := checkDataMax(op, x)
	if err != nil {
		return err
	}
	if p != len(s.Shift) || p != len(s.Factor) {
		return newErr(ErrShape, op, "data has %d columns, scaler was fitted on %d", p, len(s.Shift))
	}
	safe := true
	for j := range s.Shift {
		if !isFinite(s.Shift[j]) || !isFinite(s.Factor[j]) {
			return newErr(ErrNonFinite, op, "scaler column %d has shift %v and factor %v", j, s.Shift[j], s.Factor[j])
		}
		// |(v - shift) factor| <= (max|x| + |shift|) |factor|.
		safe = safe && (maxAbs+math.Abs(s.Shift[j]))*math.Abs(s.Factor[j]) <= 0x1p1020
	}
	if !safe {
		raw := x.RawMatrix()
		for i := 0; i < n; i++ {
			for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+p] {
				if r := affine(v, s.Shift[j], s.Factor[j]); !isFinite(r) {
					return newErr(ErrDegenerate, op,
						"entry (%d,%d) = %v scales to (x - %v) * %v, beyond the float64 range: the point lies far outside the training range",
						i, j, v, s.Shift[j], s.Factor[j])
				}
			}
		}
	}
	if partialAlias(dst, x) {
		return viaTemp(op, dst, func(tmp *mat.Dense) error { return s.TransformTo(tmp, x) })
	}
	if dst.IsEmpty() {
		dst.ReuseAs(n, p)
	} else if r, c := dst.Dims(); r != n || c != p {
		return newErr(ErrShape, op, "destination is %dx%d, want %dx%d", r, c, n, p)
	}
	if !safe {
		s.applyAffine(dst.RawMatrix(), x.RawMatrix())
		return nil
	}
	s.apply(dst.RawMatrix(), x.RawMatrix())
	return nil
}

// affine returns (v - shift) factor, also when v - shift overflows but the
// product does not (then |factor| < 1 and both terms of
// v factor - shift factor are finite).
func affine(v, shift, factor float64) float64 {
	if r := (v - shift) * factor; isFinite(r) {
		return r
	}
	return v*factor - shift*factor
}

// applyAffine is apply through affine, for data whose scaled values were
// checked.
func (s *Scaler) applyAffine(out, in blas64.General) {
	p := in.Cols
	for i := 0; i < in.Rows; i++ {
		src := in.Data[i*in.Stride : i*in.Stride+p]
		d := out.Data[i*out.Stride : i*out.Stride+p]
		for j, v := range src {
			d[j] = affine(v, s.Shift[j], s.Factor[j])
		}
	}
}

// apply writes the scaled rows of in to out (same shape; out may be in).
func (s *Scaler) apply(out, in blas64.General) {
	p := in.Cols
	shift, factor := s.Shift[:p], s.Factor[:p]
	for i := 0; i < in.Rows; i++ {
		src := in.Data[i*in.Stride : i*in.Stride+p]
		d := out.Data[i*out.Stride : i*out.Stride+p]
		for j, v := range src {
			d[j] = (v - shift[j]) * factor[j]
		}
	}
}

// FitTransform fits a scaler to x and returns it with the scaled copy of x.
func FitTransform(x *mat.Dense, method ScaleMethod) (*mat.Dense, *Scaler, error) {
	s, err := FitScaler(x, method)
	if err != nil {
		return nil, nil, err
	}
	// x and s were validated by FitScaler.
	n, p := x.Dims()
	y := mat.NewDense(n, p, nil)
	s.apply(y.RawMatrix(), x.RawMatrix())
	return y, s, nil
}
