package linalg

import (
	"math"
	"slices"
)

// LaplacianKind selects the graph Laplacian.
type LaplacianKind int

const (
	// Combinatorial is L = D - W.
	Combinatorial LaplacianKind = iota
	// Normalized is the symmetric normalised Laplacian
	// L = I - D^{-1/2} W D^{-1/2}. The row and column of an isolated vertex
	// (degree 0) are entirely zero, including the diagonal, so the
	// multiplicity of the eigenvalue 0 equals the number of connected
	// components (isolated vertices included) for both kinds.
	Normalized
)

// Degrees returns the row sums d_i = sum_j w_ij of w, nil for a nil w. w
// must be a valid CSR matrix (see CSR.Validate); Degrees may panic on
// inconsistent fields. A row sum beyond the float64 range is +Inf
// (Laplacian and NormalizedAffinity report it as an error where they
// return it).
func Degrees(w *CSR) []float64 {
	if w == nil {
		return nil
	}
	d := make([]float64, w.Rows)
	for i := range d {
		var s float64
		for _, v := range w.Val[w.RowPtr[i]:w.RowPtr[i+1]] {
			s += v
		}
		d[i] = s
	}
	return d
}

// Laplacian returns the graph Laplacian of the symmetric weight matrix w,
// which must be square, exactly symmetric and have non-negative entries.
// Self-loops are allowed (w_ii enters both D and W and cancels in D - W).
// The result has the pattern of w plus the full diagonal, which is always
// stored. Weights of any finite magnitude give the correct Normalized
// Laplacian (see NormalizedAffinity); the Combinatorial one fails with
// ErrDegenerate when a degree, its diagonal entry, overflows float64.
func Laplacian(w *CSR, kind LaplacianKind) (*CSR, error) {
	const op = "Laplacian"
	if w == nil {
		return nil, newErr(ErrEmpty, op, "weight matrix is nil")
	}
	if kind != Combinatorial && kind != Normalized {
		return nil, newErr(ErrSettings, op, "unknown Laplacian kind %d", kind)
	}
	if err := checkWeights(op, w); err != nil {
		return nil, err
	}
	n := w.Rows
	deg := Degrees(w)
	var aff affinity
	if kind == Normalized {
		aff = newAffinity(w, deg)
	} else if err := checkDegrees(op, deg); err != nil {
		return nil, err
	}
	// Count the diagonal entries missing from w.
	extra := 0
	for i := 0; i < n; i++ {
		cols := w.ColIdx[w.RowPtr[i]:w.RowPtr[i+1]]
		if _, ok := slices.BinarySearch(cols, i); !ok {
			extra++
		}
	}
	nnz := w.NNZ() + extra
	rowPtr := make([]int, n+1)
	colIdx := make([]int, 0, nnz)
	val := make([]float64, 0, nnz)
	for i := 0; i < n; i++ {
		diag := deg[i]
		if kind == Normalized {
			diag = 0
			if deg[i] > 0 {
				diag = 1
			}
		}
		placed := false
		for k := w.RowPtr[i]; k < w.RowPtr[i+1]; k++ {
			j, v := w.ColIdx[k], w.Val[k]
			if !placed && j >= i {
				if j == i {
					colIdx = append(colIdx, i)
					if kind == Normalized {
						val = append(val, diag-aff.entry(i, i, v))
					} else {
						val = append(val, diag-v)
					}
					placed = true
					continue
				}
				colIdx = append(colIdx, i)
				val = append(val, diag)
				placed = true
			}
			colIdx = append(colIdx, j)
			if kind == Normalized {
				val = append(val, -aff.entry(i, j, v))
			} else {
				val = append(val, -v)
			}
		}
		if !placed {
			colIdx = append(colIdx, i)
			val = append(val, diag)
		}
		rowPtr[i+1] = len(colIdx)
	}
	return &CSR{Rows: n, Cols: n, RowPtr: rowPtr, ColIdx: colIdx, Val: val}, nil
}

// checkWeights validates a weight matrix for Laplacian and
// NormalizedAffinity: a valid, square, exactly symmetric CSR matrix with
// non-negative entries.
func checkWeights(op string, w *CSR) error {
	if err := w.Validate(); err != nil {
		return newErr(ErrShape, op, "invalid weight matrix: %v", err)
	}
	if w.Rows != w.Cols {
		return newErr(ErrShape, op, "weight matrix is %dx%d, not square", w.Rows, w.Cols)
	}
	for k, v := range w.Val {
		if v < 0 {
			return newErr(ErrSettings, op, "weight matrix has a negative entry %v (stored entry %d)", v, k)
		}
	}
	if !w.IsSymmetric() {
		return newErr(ErrSettings, op, "weight matrix is not symmetric")
	}
	return nil
}

// NormalizedAffinity returns S = D^-1/2 W D^-1/2 for the symmetric weight
// matrix w (square, exactly symmetric, non-negative entries), with the
// pattern of w, and the degrees d_i = sum_j w_ij. S = I - L for the
// Normalized Laplacian L: its eigenvalues lie in [-1, 1], the largest is 1
// with multiplicity the number of connected components, and its top
// eigenvectors are the smooth functions on the graph that spectral
// clustering and label spreading (Zhou et al., 2004) use. The row and
// column of an isolated vertex are zero. Time and memory O(nnz(w)).
//
// Weights of any finite magnitude, subnormal ones included, give S without
// overflow (its entries lie in [0, 1]); NormalizedAffinity fails with
// ErrDegenerate only when a degree it returns overflows float64.
func NormalizedAffinity(w *CSR) (s *CSR, deg []float64, err error) {
	const op = "NormalizedAffinity"
	if w == nil {
		return nil, nil, newErr(ErrEmpty, op, "weight matrix is nil")
	}
	if err := checkWeights(op, w); err != nil {
		return nil, nil, err
	}
	deg = Degrees(w)
	if err := checkDegrees(op, deg); err != nil {
		return nil, nil, err
	}
	aff := newAffinity(w, deg)
	val := make([]float64, len(w.Val))
	for i := 0; i < w.Rows; i++ {
		for k := w.RowPtr[i]; k < w.RowPtr[i+1]; k++ {
			val[k] = aff.entry(i, w.ColIdx[k], w.Val[k])
		}
	}
	s = &CSR{Rows: w.Rows, Cols: w.Cols, RowPtr: slices.Clone(w.RowPtr), ColIdx: slices.Clone(w.ColIdx), Val: val}
	return s, deg, nil
}

// checkDegrees fails with ErrDegenerate if a degree overflowed.
func checkDegrees(op string, deg []float64) error {
	for i, d := range deg {
		if math.IsInf(d, 1) {
			return newErr(ErrDegenerate, op, "the degree of vertex %d (its row sum of weights) overflows float64; scale the weights down", i)
		}
	}
	return nil
}

// affinity gives the entries w_ij / sqrt(d_i d_j) of D^-1/2 W D^-1/2 for
// weights of any finite magnitude.
type affinity struct {
	// isq holds 1/sqrt(d_i), or 0 for an isolated vertex; with half, the
	// same of the scaled degrees D_i, where d_i = D_i 4^half[i].
	isq  []float64
	half []int
}

// newAffinity prepares the entries of w, whose row sums are deg. When a
// degree overflowed, every row is summed again scaled by the power of four
// that brings its largest weight into [1/4, 1).
func newAffinity(w *CSR, deg []float64) affinity {
	a := affinity{isq: make([]float64, len(deg))}
	for i, d := range deg {
		if math.IsInf(d, 1) {
			a.half = make([]int, len(deg))
			break
		}
		if d > 0 {
			a.isq[i] = 1 / math.Sqrt(d)
		}
	}
	if a.half == nil {
		return a
	}
	for i := range deg {
		row := w.Val[w.RowPtr[i]:w.RowPtr[i+1]]
		m := maxAbsOf(row)
		if m == 0 {
			a.isq[i] = 0
			continue
		}
		_, e := math.Frexp(m)
		h := (e + 1) >> 1 // ceil(e/2): 4^h >= 2^e > m >= 4^h/4
		var s float64
		for _, v := range row {
			s += math.Ldexp(v, -2*h)
		}
		a.half[i], a.isq[i] = h, 1/math.Sqrt(s)
	}
	return a
}

// entry returns w_ij / sqrt(d_i d_j) for the weight v = w_ij; v <= d_i and
// v <= d_j, so no intermediate overflows.
func (a *affinity) entry(i, j int, v float64) float64 {
	if a.half == nil {
		if s := a.isq[i] * a.isq[j]; s >= 0x1p-1022 && s <= math.MaxFloat64 {
			return v * s
		}
		return v * a.isq[i] * a.isq[j]
	}
	return math.Ldexp(v, -(a.half[i]+a.half[j])) * a.isq[i] * a.isq[j]
}

// Components returns the number of connected components of the graph whose
// edges are the non-zero stored entries of w, and the component label of
// every vertex (labels 0..count-1, numbered in order of each component's
// smallest vertex). Edge directions are ignored, so for a non-symmetric w
// these are the weakly connected components. A nil w has no components.
// w must be a valid (see CSR.Validate) square matrix; Components panics
// otherwise (a programmer error).
func Components(w *CSR) (count int, label []int) {
	if w == nil {
		return 0, nil
	}
	if w.Rows != w.Cols {
		panic("linalg: Components: weight matrix is not square")
	}
	n := w.Rows
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for i := 0; i < n; i++ {
		for k := w.RowPtr[i]; k < w.RowPtr[i+1]; k++ {
			if w.Val[k] == 0 {
				continue
			}
			a, b := find(i), find(w.ColIdx[k])
			if a != b {
				if a < b {
					parent[b] = a
				} else {
					parent[a] = b
				}
			}
		}
	}
	label = make([]int, n)
	rootLabel := make([]int, n)
	for i := range rootLabel {
		rootLabel[i] = -1
	}
	for i := 0; i < n; i++ {
		r := find(i)
		if rootLabel[r] < 0 {
			rootLabel[r] = count
			count++
		}
		label[i] = rootLabel[r]
	}
	return count, label
}
