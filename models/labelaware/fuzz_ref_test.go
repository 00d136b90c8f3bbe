package labelaware

import (
	"errors"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// inVocabulary fails the test unless err is an input error or an outcome.
func inVocabulary(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, linalg.ErrInvalid) && !linalg.IsOutcome(err) {
		t.Fatalf("%s: an error of no kind of the vocabulary: %v", what, err)
	}
}

// refAlignment returns the centred alignment <HKH, HYYᵀH>_F /
// (||HKH||_F ||HYYᵀH||_F) of the kernel sum_c w_c b_c b_cᵀ (b_c the columns
// of b) with the target factor y, computed from dense l x l matrices, with
// ||HKH||_F and sum_c |w_c| ||b_c||², the size that sets its rounding.
func refAlignment(b *mat.Dense, w []float64, y *mat.Dense) (a, kcn, scale float64) {
	k := combine(b, w)
	_, r := b.Dims()
	for c := 0; c < r; c++ {
		nc := mat.Norm(b.ColView(c), 2)
		scale += math.Abs(w[c]) * nc * nc
	}
	// The alignment is scale-free: K / ||K||_inf keeps the sums of squares
	// below from underflowing when base vectors are tiny on the block.
	big := mat.Norm(k, math.Inf(1))
	if big > 0 {
		k.Scale(1/big, k)
	}
	num, nk, nt := centredInner(k, y)
	return num / (math.Sqrt(nk) * math.Sqrt(nt)), math.Sqrt(nk) * big, scale
}

// indicator returns the l x c class indicator matrix of y (labels outside
// 0..c-1 get a zero row).
func indicator(y []int, c int) *mat.Dense {
	z := mat.NewDense(len(y), c, nil)
	for i, k := range y {
		if k >= 0 && k < c {
			z.Set(i, k, 1)
		}
	}
	return z
}

// gramOf returns the kernel matrix of the rows of x.
func gramOf(kern linalg.Kernel, x *mat.Dense) *mat.SymDense {
	n, _ := x.Dims()
	g := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			g.SetSym(i, j, kern.Eval(x.RawRowView(i), x.RawRowView(j)))
		}
	}
	return g
}

// allClasses reports whether every class 0..c-1 occurs in y.
func allClasses(y []int, c int) bool {
	seen := make([]bool, c)
	for _, k := range y {
		if k >= 0 && k < c {
			seen[k] = true
		}
	}
	for _, s := range seen {
		if !s {
			return false
		}
	}
	return true
}

// constantRows reports whether all rows of a are equal.
func constantRows(a *mat.Dense) bool {
	r, _ := a.Dims()
	for i := 1; i < r; i++ {
		if !mat.Equal(a.RowView(i), a.RowView(0)) {
			return false
		}
	}
	return true
}

// centredNorm returns ||x - mean(x)|| and ||x||.
func centredNorm(x []float64) (cent, raw float64) {
	c := append([]float64(nil), x...)
	centre(c)
	return norm2(c), norm2(x)
}

func centre(x []float64) {
	var m float64
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for i := range x {
		x[i] -= m
	}
}

func norm2(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func allFinite(x []float64) bool {
	for _, v := range x {
		if !isFinite(v) {
			return false
		}
	}
	return true
}
