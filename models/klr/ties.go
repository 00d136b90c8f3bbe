package klr

import (
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ukm/models/internal/ova"
)

// A point can be exactly undecided: two copies of one row with different
// labels, alone in a component of a kNN graph, give the other copies a
// decision value of zero in exact arithmetic. Computed, it is a rounding
// error whose sign depends on how the features were computed (an
// eigensolver's start vector, the order of a sum), and it would decide the
// class. Predict and PredictPrior take decision values that agree to within
// TieTol of their size as tied.

// TieTol is the relative difference below which two classes' decision
// values are tied: far above rounding and the error of eigenvectors
// computed to a residual of 1e-10, far below a margin that means anything.
// The size of f_c = x w_c + b_c for a row x is bounded by
// ||x|| ||w_c|| + |b_c|, which also bounds the terms whose rounding makes
// f_c; two values are tied when they differ by at most TieTol times the
// sum of their bounds.
const TieTol = 1e-8

// PredictPrior is Predict, except that a row whose largest decision values
// tie (see TieTol) gets, among the tied classes, the one most frequent in
// labels (the training labels, typically; the lower index on equal counts
// or with nil labels).
//
// minNorm, if positive, is a floor on the row norms ||x|| of the tie test,
// for rows known only to an absolute accuracy: the feature rows
// V diag(sqrt(mu)) of computed eigenvectors, whose entries are accurate
// relative to their columns' norms, have errors of the size of
// ||sqrt(mu)|| times the eigenvectors' however small the row (a point whose
// features a design weighted to zero has a decision value made of them
// alone). Errors as for Decision.
func (mm *Multi) PredictPrior(dst []int, x mat.Matrix, labels []int, minNorm float64) ([]int, error) {
	dec, err := mm.Decision(nil, x)
	if err != nil {
		return dst, err
	}
	binary := mm.Classes == 2
	dst = ova.Classify(dst, dec, binary, func(f float64) bool { return f > 0 })
	size := make([]float64, len(mm.Models)) // ||w_c||
	for c := range mm.Models {
		size[c] = floats.Norm(mm.Models[c].Coef, 2)
	}
	counts := make([]int, mm.Classes)
	for _, c := range labels {
		if c >= 0 && c < len(counts) {
			counts[c]++
		}
	}
	xd, dense := x.(*mat.Dense)
	var xi []float64
	tied := make([]int, 0, mm.Classes)
	for i := range dst {
		if dense {
			xi = xd.RawRowView(i)
		} else {
			xi = mat.Row(xi, i, x)
		}
		xn := math.Max(floats.Norm(xi, 2), minNorm)
		bound := func(c int) float64 { return xn*size[c] + math.Abs(mm.Models[c].Bias) }
		row := dec.RawRowView(i)
		tied = tied[:0]
		if binary {
			if math.Abs(row[0]) <= TieTol*bound(0) {
				tied = append(tied, 0, 1)
			}
		} else {
			top := dst[i]
			for c, f := range row {
				if row[top]-f <= TieTol*(bound(top)+bound(c)) {
					tied = append(tied, c)
				}
			}
		}
		if len(tied) < 2 {
			continue
		}
		best := tied[0]
		for _, c := range tied[1:] {
			if counts[c] > counts[best] {
				best = c
			}
		}
		dst[i] = best
	}
	return dst, nil
}
