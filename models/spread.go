package models

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/models/spectral"
)

// Label spreading on the whole graph (the Spread classifier): no
// truncation to d eigenvectors and no training. The scores of Zhou et al.
// (2004), F = (I - alpha S)^-1 Y with Y the one-hot labels of the labeled
// rows (zero rows elsewhere), are summed as the series of the iteration
// F <- alpha S F + Y from F = Y, as Zhou et al. compute them. Every term is
// non-negative, so even the tiny scores of points many edges away from any
// label are computed to full relative accuracy, and their argmax (the class
// that reaches them most strongly) is meaningful; a Krylov solver's
// residual would swamp them. The iteration stops when no row's scores
// changed by more than spreadTol of the row's largest score (what the
// row's argmax and probabilities depend on; a far row's scores are all
// small, and the test is relative to them), or after spreadMaxIter steps
// (the remaining terms are then below alpha^spreadMaxIter / (1 - alpha) of
// the scores: 4e-3 at alpha = 0.99). Cost O(t nnz(S) c) for t steps and c
// classes.

const (
	spreadTol     = 1e-4
	spreadMaxIter = 1000
)

// spreadScores returns the n x classes matrix F = (I - alpha S)^-1 Y.
// The rows of the copy groups (see copyGroups; nil: none) are summed group
// by group: the same terms, in another order.
func spreadScores(ctx context.Context, s *linalg.CSR, copies *spreadGroups, alpha float64, labeled, labels []int, classes int) (*mat.Dense, error) {
	n := s.Rows
	y := make([]float64, n*classes) // the n x classes matrices, row-major
	for a, i := range labeled {
		y[i*classes+labels[a]] = 1
	}
	f := slices.Clone(y)
	next := make([]float64, n*classes)
	as := make([]float64, len(s.Val)) // alpha S, the products the loop would form
	for k, v := range s.Val {
		as[k] = alpha * v
	}
	grouped := make([]bool, n)
	var groups []copyGroup
	var scale, work []float64
	if copies != nil {
		groups, scale = copies.groups, copies.scale
	}
	for _, g := range groups {
		for _, i := range g.members {
			grouped[i] = true
		}
		work = slices.Grow(work, (2*len(g.set)+2)*classes)
	}
	work = work[:cap(work)]
	for it := 0; it < spreadMaxIter; it++ {
		if it%16 == 15 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("models: label spreading: %w", err)
			}
		}
		changed := false
		for _, g := range groups {
			if spreadGroup(g, scale, alpha, y, f, next, work, classes) {
				changed = true
			}
		}
		for i := 0; i < n; i++ {
			if grouped[i] {
				continue
			}
			row := next[i*classes : (i+1)*classes]
			if classes == 2 { // the binary sets: two sums in registers, the same order of terms
				r0, r1 := y[2*i], y[2*i+1]
				for k := s.RowPtr[i]; k < s.RowPtr[i+1]; k++ {
					w, j := as[k], 2*s.ColIdx[k]
					r0 += w * f[j]
					r1 += w * f[j+1]
				}
				row[0], row[1] = r0, r1
			} else {
				copy(row, y[i*classes:])
				for k := s.RowPtr[i]; k < s.RowPtr[i+1]; k++ {
					w := as[k]
					src := f[s.ColIdx[k]*classes:][:classes]
					for c := range row {
						row[c] += w * src[c]
					}
				}
			}
			if !changed {
				changed = rowChanged(row, f[i*classes:(i+1)*classes])
			}
		}
		f, next = next, f
		if !changed {
			break
		}
	}
	return mat.NewDense(n, classes, f), nil
}

// rowChanged reports whether a row of scores moved by more than spreadTol
// of its largest score from its previous values prev.
func rowChanged(row, prev []float64) bool {
	top := 0.0
	for _, v := range row {
		top = max(top, v)
	}
	for c, v := range prev {
		if math.Abs(row[c]-v) > spreadTol*top {
			return true
		}
	}
	return false
}

// massNormalize scales each column c of the scores f (n x classes) by
// q_c / sum_i f_ic, q_c the share of class c among the labels, so that the
// classes' total scores are in the proportions of their labels (class mass
// normalisation). A column without mass is left as it is.
func massNormalize(f *mat.Dense, labels []int, classes int) {
	q := labelShares(labels, classes)
	raw := f.RawMatrix()
	mass := make([]float64, classes)
	for i := 0; i < raw.Rows; i++ {
		for c, v := range raw.Data[i*raw.Stride : i*raw.Stride+classes] {
			mass[c] += v
		}
	}
	for c := range q {
		if mass[c] > 0 {
			q[c] /= mass[c]
		} else {
			q[c] = 1
		}
	}
	for i := 0; i < raw.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+classes]
		for c := range row {
			row[c] *= q[c]
		}
	}
}

// priorUnreached gives the rows that no label reaches (every score zero: a
// component of the graph without a labeled point, such as a clique of
// duplicate rows) the share of each class among the labels, so that they
// are predicted as the labels' most frequent class (ties: the lower class)
// with the labels' class proportions as probabilities, rather than as
// class 0 with uniform probabilities. It returns how many rows it filled.
func priorUnreached(f *mat.Dense, labels []int, classes int) int {
	raw := f.RawMatrix()
	var unreached []bool
	filled := 0
	for i := 0; i < raw.Rows; i++ {
		if !slices.ContainsFunc(raw.Data[i*raw.Stride:i*raw.Stride+classes], func(v float64) bool { return v != 0 }) {
			if unreached == nil {
				unreached = make([]bool, raw.Rows)
			}
			unreached[i] = true
			filled++
		}
	}
	priorRows(nil, f, unreached, labels, classes)
	return filled
}

// labelShares returns the share of each class among the labels.
func labelShares(labels []int, classes int) []float64 {
	q := make([]float64, classes)
	for _, c := range labels {
		q[c]++
	}
	for c := range q {
		q[c] /= float64(len(labels))
	}
	return q
}

// spreadAlpha is the resolved alpha of the Spread classifier.
func (r *resolved) spreadAlpha() float64 {
	if r.Alpha > 0 {
		return r.Alpha
	}
	return spectral.DefaultAlpha
}

// argmaxRows writes the column of the largest entry of every row of f.
func argmaxRows(dst []int, f *mat.Dense) []int {
	rows, c := f.Dims()
	dst = append(dst[:0], make([]int, rows)...)
	for i := 0; i < rows; i++ {
		row := f.RawRowView(i)[:c]
		best := 0
		for j, v := range row {
			if v > row[best] {
				best = j
			}
		}
		dst[i] = best
	}
	return dst
}

// spreadProba normalises the positive parts of the rows of f to sum to one
// (a row with no positive score gets the uniform distribution).
func spreadProba(dst, f *mat.Dense) *mat.Dense {
	rows, c := f.Dims()
	if dst == nil {
		dst = mat.NewDense(rows, c, nil)
	}
	for i := 0; i < rows; i++ {
		var s float64
		for j := 0; j < c; j++ {
			s += math.Max(f.At(i, j), 0)
		}
		for j := 0; j < c; j++ {
			v := 1 / float64(c)
			if s > 0 {
				v = math.Max(f.At(i, j), 0) / s
			}
			dst.Set(i, j, v)
		}
	}
	return dst
}
