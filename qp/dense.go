package qp

import "math"

// rotRows applies the plane rotation [c s; −s c] to the pair (x, y).
func rotRows(x, y []float64, c, s float64) {
	y = y[:len(x)]
	for i, xa := range x {
		yb := y[i]
		x[i] = c*xa + s*yb
		y[i] = -s*xa + c*yb
	}
}

func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

func growInt(s []int, n int) []int {
	if cap(s) < n {
		return make([]int, n)
	}
	return s[:n]
}

func fill(s []float64, v float64) {
	for i := range s {
		s[i] = v
	}
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// fmax is max for non-NaN operands, cheaper than math.Max in inner loops.
func fmax(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

// cholUpper overwrites the upper triangle of the row-major n×n matrix a with its
// Cholesky factor R (a = RᵀR) and reports whether a is positive definite. It is
// a right-looking unblocked factorisation: unlike LAPACK's blocked Dpotrf (whose
// parallel matrix products allocate) it never allocates.
func cholUpper(a []float64, n int) bool {
	for k := 0; k < n; k++ {
		d := a[k*n+k]
		if !(d > 0) {
			return false
		}
		d = math.Sqrt(d)
		a[k*n+k] = d
		rk := a[k*n+k+1 : k*n+n]
		for j := range rk {
			rk[j] /= d
		}
		for i := k + 1; i < n; i++ {
			f := a[k*n+i]
			if f == 0 {
				continue
			}
			ri := a[i*n+i : i*n+n]
			for j := range ri {
				ri[j] -= f * rk[i-k-1+j]
			}
		}
	}
	return true
}

// dot returns the inner product of a and b (len(b) >= len(a)).
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
