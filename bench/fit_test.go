package bench

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat"
)

func TestLogLogFitExact(t *testing.T) {
	// Exact power laws: the slope and intercept are recovered to rounding
	// (1e-12 allows for the logarithms and sums of a few terms) and R² = 1.
	for _, tc := range []struct {
		name  string
		coef  float64
		slope float64
		x     []float64
	}{
		{"quadratic", 3e-9, 2, []float64{250, 500, 1000, 2000, 4000}},
		{"cubic", 1, 3, []float64{10, 20, 50, 100}},
		{"flat", 42, 0, []float64{1, 2, 3}},
		{"decreasing", 5, -1, []float64{1, 10}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			y := make([]float64, len(tc.x))
			for i, x := range tc.x {
				y[i] = tc.coef * math.Pow(x, tc.slope)
			}
			f, err := LogLogFit(tc.x, y)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(f.Slope-tc.slope) > 1e-12 || math.Abs(f.Intercept-math.Log(tc.coef)) > 1e-12*max(1, math.Abs(math.Log(tc.coef))) {
				t.Errorf("slope %v intercept %v, want %v %v", f.Slope, f.Intercept, tc.slope, math.Log(tc.coef))
			}
			if math.Abs(f.R2-1) > 1e-12 || f.MaxResid > 1e-12 || f.Points != len(tc.x) {
				t.Errorf("R2 %v max residual %v points %d", f.R2, f.MaxResid, f.Points)
			}
			if got := f.Eval(tc.x[0]); math.Abs(got-y[0]) > 1e-12*y[0] {
				t.Errorf("Eval(%v) = %v, want %v", tc.x[0], got, y[0])
			}
		})
	}
}

// TestLogLogFitNoisy compares with gonum's stat.LinearRegression and
// stat.RSquared on the logarithms (an independent implementation), and the
// slope's standard error with its textbook formula computed from the
// residuals directly.
func TestLogLogFitNoisy(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := range 5 {
		m := 3 + trial*2
		x := make([]float64, m)
		y := make([]float64, m)
		lx := make([]float64, m)
		ly := make([]float64, m)
		for i := range x {
			x[i] = 100 * math.Pow(2, float64(i))
			// noise of about 10% on a slope-1.7 power law
			y[i] = 1e-3 * math.Pow(x[i], 1.7) * math.Exp(0.1*rng.NormFloat64())
			lx[i], ly[i] = math.Log(x[i]), math.Log(y[i])
		}
		f, err := LogLogFit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		alpha, beta := stat.LinearRegression(lx, ly, nil, false)
		r2 := stat.RSquared(lx, ly, nil, alpha, beta)
		// 1e-10: two summation orders of a few well-scaled terms
		if math.Abs(f.Slope-beta) > 1e-10 || math.Abs(f.Intercept-alpha) > 1e-10*math.Abs(alpha) || math.Abs(f.R2-r2) > 1e-10 {
			t.Errorf("m=%d: fit %+v, gonum slope %v intercept %v R2 %v", m, f, beta, alpha, r2)
		}
		var rss, sxx, worst float64
		mx := stat.Mean(lx, nil)
		for i := range lx {
			r := ly[i] - alpha - beta*lx[i]
			rss += r * r
			worst = max(worst, math.Abs(r))
			sxx += (lx[i] - mx) * (lx[i] - mx)
		}
		se := math.Sqrt(rss / float64(m-2) / sxx)
		if math.Abs(f.SlopeErr-se) > 1e-10*se || math.Abs(f.MaxResid-worst) > 1e-10 {
			t.Errorf("m=%d: slope error %v max residual %v, want %v %v", m, f.SlopeErr, f.MaxResid, se, worst)
		}
		// The noise is small: the fitted slope must be near 1.7 (0.3 is
		// many standard errors for 10% noise over a factor 4 or more in x).
		if math.Abs(f.Slope-1.7) > 0.3 {
			t.Errorf("m=%d: slope %v far from 1.7", m, f.Slope)
		}
	}
}

func TestLogLogFitErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		x, y []float64
	}{
		{"lengths differ", []float64{1, 2}, []float64{1}},
		{"one point", []float64{1}, []float64{1}},
		{"no points", nil, nil},
		{"zero x", []float64{0, 2}, []float64{1, 2}},
		{"negative y", []float64{1, 2}, []float64{1, -2}},
		{"NaN", []float64{1, math.NaN()}, []float64{1, 2}},
		{"Inf", []float64{1, 2}, []float64{1, math.Inf(1)}},
		{"equal x", []float64{3, 3, 3}, []float64{1, 2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := LogLogFit(tc.x, tc.y); !errors.Is(err, ErrData) {
				t.Errorf("error %v, want ErrData", err)
			}
		})
	}
}
