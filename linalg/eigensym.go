package linalg

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/internal/jacobi"
)

// EigenSym is gonum's mat.EigenSym with its result checked: gonum's Dsyev
// has been seen to return values far beyond the matrix's norm, with
// residuals as large, on matrices whose only nonzero entries form a
// rank-one block of equal values (1% of random such 24 x 24 matrices), and
// to panic inside Dsterf on others. Factorize checks every value against
// ||A||_F and, with vectors, every residual ||A v - λ v|| against
// sqrt(ε) ||A||_F; a result that fails, or a panic, is recomputed by
// cyclic Jacobi rotations (slower, O(n³) per sweep, and robust) and
// checked again. A result that passes is gonum's, bit for bit.
type EigenSym struct {
	values  []float64
	vectors *mat.Dense
}

// Factorize computes the eigenvalues (ascending) and, if vectors is true,
// the eigenvectors of a, and reports whether it succeeded: false when
// gonum's result and the Jacobi fallback's both fail the check.
func (e *EigenSym) Factorize(a mat.Symmetric, vectors bool) bool {
	e.values, e.vectors = nil, nil
	n := a.SymmetricDim()
	if n == 0 {
		e.values = []float64{}
		if vectors {
			e.vectors = &mat.Dense{}
		}
		return true
	}
	fro := mat.Norm(a, 2)
	var es mat.EigenSym
	if safeFactorize(&es, a, vectors) {
		vals := es.Values(nil)
		var vecs *mat.Dense
		if vectors {
			vecs = &mat.Dense{}
			es.VectorsTo(vecs)
		}
		// A matrix with NaN or Inf entries has no norm to check against:
		// gonum's result, as without the check (the caller sees its NaNs).
		if !isFinite(fro) || eigenPlausible(a, vals, vecs, fro) {
			e.values, e.vectors = vals, vecs
			return true
		}
	}
	if !isFinite(fro) {
		return false
	}
	vals, vecs, ok := jacobiEigenSym(a, n)
	if !ok || !eigenPlausible(a, vals, vecs, fro) {
		return false
	}
	e.values = vals
	if vectors {
		e.vectors = vecs
	}
	return true
}

// Values returns the eigenvalues in ascending order, in dst if it is long
// enough (as mat.EigenSym.Values).
func (e *EigenSym) Values(dst []float64) []float64 {
	if dst == nil {
		dst = make([]float64, len(e.values))
	}
	copy(dst, e.values)
	return dst[:len(e.values)]
}

// VectorsTo stores the eigenvectors as the columns of dst, in the order of
// Values (as mat.EigenSym.VectorsTo), reusing dst if it is n x n and
// resetting it if it has another size.
func (e *EigenSym) VectorsTo(dst *mat.Dense) {
	if e.vectors == nil {
		panic("linalg: EigenSym: vectors not computed")
	}
	if !dst.IsEmpty() {
		if r, c := dst.Dims(); r == len(e.values) && c == len(e.values) {
			dst.Copy(e.vectors) // reuse a workspace of the right size
			return
		}
		dst.Reset()
	}
	dst.CloneFrom(e.vectors)
}

// safeFactorize runs gonum's factorization and reports its success, or
// false if it panicked.
func safeFactorize(es *mat.EigenSym, a mat.Symmetric, vectors bool) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return es.Factorize(a, vectors)
}

// eigenPlausible reports whether every value lies within ||A||_F and,
// given vectors, every residual within sqrt(ε) ||A||_F: far above the
// rounding of a sound decomposition and far below the error of a failed
// one.
func eigenPlausible(a mat.Symmetric, vals []float64, vecs *mat.Dense, fro float64) bool {
	bound := fro*(1+1e-9) + math.SmallestNonzeroFloat64
	for _, v := range vals {
		if !(math.Abs(v) <= bound) {
			return false
		}
	}
	if vecs == nil {
		return true
	}
	var av mat.Dense
	av.Mul(a, vecs)
	n := len(vals)
	lim := math.Sqrt(0x1p-52)*fro + math.SmallestNonzeroFloat64
	for j := 0; j < n; j++ {
		var s float64
		for i := 0; i < n; i++ {
			r := av.At(i, j) - vals[j]*vecs.At(i, j)
			s += r * r
		}
		if !(math.Sqrt(s) <= lim) {
			return false
		}
	}
	return true
}

// jacobiEigenSym computes all eigenpairs of a by cyclic Jacobi rotations,
// the values ascending and the vectors as columns in that order.
func jacobiEigenSym(a mat.Symmetric, n int) ([]float64, *mat.Dense, bool) {
	h := make([]float64, n*n)
	z := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			h[i*n+j] = a.At(i, j)
		}
	}
	if !jacobi.Eigen(n, h, z) {
		return nil, nil, false
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sortByDiag(order, h, n)
	vals := make([]float64, n)
	vecs := mat.NewDense(n, n, nil)
	for k, j := range order {
		vals[k] = h[j*n+j]
		for i := 0; i < n; i++ {
			vecs.Set(i, k, z[i*n+j])
		}
	}
	return vals, vecs, true
}

// sortByDiag orders idx by the diagonal entries h[j][j], ascending.
func sortByDiag(idx []int, h []float64, n int) {
	for a := 1; a < len(idx); a++ {
		for b := a; b > 0 && h[idx[b]*n+idx[b]] < h[idx[b-1]*n+idx[b-1]]; b-- {
			idx[b], idx[b-1] = idx[b-1], idx[b]
		}
	}
}
