package linalg

import (
	"fmt"
	"math"
)

// Kernel is a positive semi-definite kernel function k(x, z) on feature
// vectors of equal length. Eval panics if the lengths differ (a programmer
// error). The Gram builders recognise Linear, Polynomial and RBF, and the
// Cosine normalisation of each, and compute them with matrix products; any
// other Kernel is evaluated entry by entry.
type Kernel interface {
	Eval(x, z []float64) float64
}

// Validator is implemented by kernels that can check their parameters. The
// Gram builders call Validate before any work.
type Validator interface {
	Validate() error
}

func validateKernel(op string, k Kernel) error {
	if IsNil(k) {
		return newErr(ErrSettings, op, "kernel is nil")
	}
	if v, ok := k.(Validator); ok {
		if err := v.Validate(); err != nil {
			return newErr(ErrSettings, op, "%v", err)
		}
	}
	return nil
}

func checkLen(x, z []float64) {
	if len(x) != len(z) {
		panic(fmt.Sprintf("linalg: kernel evaluated on vectors of lengths %d and %d", len(x), len(z)))
	}
}

func dot(x, z []float64) float64 {
	z = z[:len(x)]
	var s float64
	for i, v := range x {
		s += v * z[i]
	}
	return s
}

// Linear is the linear kernel k(x, z) = x.z. Its Eval, like Polynomial's,
// returns what float64 arithmetic gives (±Inf or NaN when the value
// overflows); the Gram builders report such overflows as errors.
type Linear struct{}

// Eval returns x.z.
func (Linear) Eval(x, z []float64) float64 {
	checkLen(x, z)
	return dot(x, z)
}

// Validate always succeeds.
func (Linear) Validate() error { return nil }

// String describes the kernel.
func (Linear) String() string { return "linear" }

// Polynomial is the kernel k(x, z) = (Scale*x.z + Offset)^Degree. Scale zero
// means 1. Degree must be at least 1, Scale and Offset non-negative and
// finite (so that the kernel is positive semi-definite).
type Polynomial struct {
	Degree int
	Scale  float64
	Offset float64
}

// Quadratic returns the quadratic kernel (x.z + 1)^2.
func Quadratic() Polynomial { return Polynomial{Degree: 2, Offset: 1} }

func (k Polynomial) scale() float64 {
	if k.Scale == 0 {
		return 1
	}
	return k.Scale
}

// Eval returns (Scale*x.z + Offset)^Degree.
func (k Polynomial) Eval(x, z []float64) float64 {
	checkLen(x, z)
	return ipow(k.scale()*dot(x, z)+k.Offset, k.Degree)
}

// Validate checks the parameters.
func (k Polynomial) Validate() error {
	switch {
	case k.Degree < 1:
		return fmt.Errorf("polynomial degree %d must be at least 1", k.Degree)
	case !isFinite(k.Scale) || k.Scale < 0:
		return fmt.Errorf("polynomial scale %v must be finite and >= 0", k.Scale)
	case !isFinite(k.Offset) || k.Offset < 0:
		return fmt.Errorf("polynomial offset %v must be finite and >= 0", k.Offset)
	}
	return nil
}

// String describes the kernel.
func (k Polynomial) String() string {
	return fmt.Sprintf("polynomial(degree=%d, scale=%g, offset=%g)", k.Degree, k.scale(), k.Offset)
}

// ipow returns b^e for e >= 1 by repeated squaring.
func ipow(b float64, e int) float64 {
	r := 1.0
	for e > 0 {
		if e&1 == 1 {
			r *= b
		}
		b *= b
		e >>= 1
	}
	return r
}

// RBF is the Gaussian kernel k(x, z) = exp(-Gamma ||x-z||^2), Gamma > 0.
type RBF struct {
	Gamma float64
}

// Eval returns exp(-Gamma ||x-z||^2). A squared distance that overflows
// or leaves the normal range is recomputed on x and z scaled by an exact
// power of two, so that the value is correct for any finite vectors.
func (k RBF) Eval(x, z []float64) float64 {
	checkLen(x, z)
	d := sqDist(x, z)
	if d == 0 || (d >= 0x1p-1000 && d <= 0x1p1000) {
		return math.Exp(-k.Gamma * d)
	}
	m := max(maxAbsOf(x), maxAbsOf(z))
	e := rangeScale(m, 4*len(x))
	if e == 0 || !(m <= math.MaxFloat64) {
		// Magnitudes in the safe range: d is as accurate as it gets.
		return math.Exp(-k.Gamma * d)
	}
	f := math.Ldexp(1, -e)
	var s float64
	for i, v := range x {
		t := v*f - z[i]*f
		s += t * t
	}
	gm, ge := math.Frexp(k.Gamma)
	return math.Exp(-math.Ldexp(s*gm, ge+2*e))
}

// Validate checks that Gamma is positive and finite.
func (k RBF) Validate() error {
	if !isFinite(k.Gamma) || k.Gamma <= 0 {
		return fmt.Errorf("RBF gamma %v must be finite and > 0", k.Gamma)
	}
	return nil
}

// String describes the kernel.
func (k RBF) String() string { return fmt.Sprintf("rbf(gamma=%g)", k.Gamma) }

// Cosine is the cosine-normalised kernel of Kernel, k(x, z) /
// sqrt(k(x, x) k(z, z)), whose diagonal is 1. The Gram builders compute it
// with one matrix product per tile when Kernel is Linear or Polynomial (the
// products, then the rows' own values), and as Kernel itself when that is
// RBF (k(x, x) = 1); another Kernel is evaluated entry by entry. A point
// with k(x, x) <= 0 makes them fail with ErrDegenerate.
type Cosine struct {
	Kernel Kernel
}

// Eval returns k(x, z) / sqrt(k(x, x) k(z, z)).
func (c Cosine) Eval(x, z []float64) float64 {
	return c.Kernel.Eval(x, z) / math.Sqrt(c.Kernel.Eval(x, x)*c.Kernel.Eval(z, z))
}

// Validate checks that Kernel is set, and Kernel's own parameters.
func (c Cosine) Validate() error {
	if IsNil(c.Kernel) {
		return fmt.Errorf("cosine normalisation of a nil kernel")
	}
	if v, ok := c.Kernel.(Validator); ok {
		return v.Validate()
	}
	return nil
}

// String describes the kernel.
func (c Cosine) String() string { return fmt.Sprintf("cosine(%v)", c.Kernel) }
