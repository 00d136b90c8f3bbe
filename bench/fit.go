package bench

import (
	"fmt"
	"math"
)

// PowerFit is the least-squares line log y = Intercept + Slope·log x, the
// exponent of a power law y ≈ e^Intercept · x^Slope.
type PowerFit struct {
	// Slope is the fitted exponent.
	Slope float64
	// Intercept is the fitted log y at x = 1 (natural logarithms).
	Intercept float64
	// R2 is the coefficient of determination of the fit in log space,
	// 1 − Σ r_i² / Σ (log y_i − mean)²; 1 when the log y are all equal
	// (then the fit is exact).
	R2 float64
	// MaxResid is the largest |r_i| in natural-log units: the worst point
	// lies a factor e^MaxResid off the fitted power law.
	MaxResid float64
	// SlopeErr is the standard error of the slope (0 for two points, where
	// the line interpolates them).
	SlopeErr float64
	// Points is the number of points fitted.
	Points int
}

// LogLogFit fits a straight line to (log x, log y) by least squares. It
// needs at least two points with distinct x; every value must be finite and
// positive. Otherwise it returns an error wrapping ErrData.
func LogLogFit(x, y []float64) (PowerFit, error) {
	if len(x) != len(y) {
		return PowerFit{}, fmt.Errorf("%w: %d x values and %d y values", ErrData, len(x), len(y))
	}
	if len(x) < 2 {
		return PowerFit{}, fmt.Errorf("%w: a slope needs at least 2 points, got %d", ErrData, len(x))
	}
	n := float64(len(x))
	lx := make([]float64, len(x))
	ly := make([]float64, len(y))
	var mx, my float64
	for i := range x {
		if !(x[i] > 0) || !(y[i] > 0) || math.IsInf(x[i], 0) || math.IsInf(y[i], 0) {
			return PowerFit{}, fmt.Errorf("%w: point %d = (%v, %v) has no finite logarithm", ErrData, i, x[i], y[i])
		}
		lx[i], ly[i] = math.Log(x[i]), math.Log(y[i])
		mx += lx[i]
		my += ly[i]
	}
	mx /= n
	my /= n
	// Centred sums: numerically safer than the raw normal equations.
	var sxx, sxy, syy float64
	for i := range lx {
		dx, dy := lx[i]-mx, ly[i]-my
		sxx += dx * dx
		sxy += dx * dy
		syy += dy * dy
	}
	if sxx == 0 {
		return PowerFit{}, fmt.Errorf("%w: all x values are equal (%v); no slope", ErrData, x[0])
	}
	f := PowerFit{Slope: sxy / sxx, Points: len(x)}
	f.Intercept = my - f.Slope*mx
	var rss float64
	for i := range lx {
		r := ly[i] - (f.Intercept + f.Slope*lx[i])
		rss += r * r
		f.MaxResid = max(f.MaxResid, math.Abs(r))
	}
	f.R2 = 1
	if syy > 0 {
		f.R2 = 1 - rss/syy
	}
	if len(x) > 2 {
		f.SlopeErr = math.Sqrt(rss / (n - 2) / sxx)
	}
	return f, nil
}

// Eval returns the fitted y at x.
func (f PowerFit) Eval(x float64) float64 {
	return math.Exp(f.Intercept + f.Slope*math.Log(x))
}
