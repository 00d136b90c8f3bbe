package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

// symView gives fast access to the upper triangle of a symmetric matrix.
type symView struct {
	n      int
	data   []float64
	stride int
	sym    mat.Symmetric // fallback when there is no raw upper storage
}

func viewOf(a mat.Symmetric) symView {
	if s, ok := a.(*mat.SymDense); ok {
		r := s.RawSymmetric()
		if r.Uplo == blas.Upper {
			return symView{n: r.N, data: r.Data, stride: r.Stride}
		}
	}
	return symView{n: a.SymmetricDim(), sym: a}
}

// at returns a_ij for i <= j.
func (v symView) at(i, j int) float64 {
	if v.sym != nil {
		return v.sym.At(i, j)
	}
	return v.data[i*v.stride+j]
}

// checkSym validates a symmetric matrix argument.
func checkSym(op, name string, a mat.Symmetric) (symView, error) {
	if a == nil {
		return symView{}, newErr(ErrEmpty, op, "%s is nil", name)
	}
	if e, ok := a.(interface{ IsEmpty() bool }); ok && e.IsEmpty() {
		return symView{}, newErr(ErrEmpty, op, "%s is empty", name)
	}
	v := viewOf(a)
	if v.n == 0 {
		return symView{}, newErr(ErrEmpty, op, "%s is empty", name)
	}
	for i := 0; i < v.n; i++ {
		for j := i; j < v.n; j++ {
			if x := v.at(i, j); !isFinite(x) {
				return symView{}, newErr(ErrNonFinite, op, "%s(%d,%d) = %v is not finite", name, i, j, x)
			}
		}
	}
	return v, nil
}

// prepareDst sizes dst for an n x n result and returns raw upper access.
func prepareDst(op string, dst *mat.SymDense, n int) ([]float64, int, error) {
	if dst == nil {
		return nil, 0, newErr(ErrShape, op, "destination is nil")
	}
	if dst.IsEmpty() {
		dst.ReuseAsSym(n)
	} else if dst.SymmetricDim() != n {
		return nil, 0, newErr(ErrShape, op, "destination is %dx%d, want %dx%d", dst.SymmetricDim(), dst.SymmetricDim(), n, n)
	}
	r := dst.RawSymmetric()
	return r.Data, r.Stride, nil
}

// mirrorLower copies the upper triangle of the raw storage into the lower
// one so that both triangles hold the matrix.
func mirrorLower(data []float64, stride, n int) {
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			data[j*stride+i] = data[i*stride+j]
		}
	}
}

// CosineNormalize stores K_ij / sqrt(K_ii K_jj) in dst, which may be k
// itself, an empty matrix or an n x n matrix; the diagonal of the result is
// exactly 1. It fails with ErrDegenerate if some K_ii <= 0.
func CosineNormalize(dst *mat.SymDense, k mat.Symmetric) error {
	const op = "CosineNormalize"
	v, err := checkSym(op, "kernel matrix", k)
	if err != nil {
		return err
	}
	n := v.n
	s := make([]float64, n)
	for i := range s {
		d := v.at(i, i)
		if d <= 0 {
			return newErr(ErrDegenerate, op, "diagonal entry K(%d,%d) = %v is not positive", i, i, d)
		}
		s[i] = 1 / math.Sqrt(d)
	}
	data, stride, err := prepareDst(op, dst, n)
	if err != nil {
		return err
	}
	// Row i only reads entries (i, j >= i) before writing them, so dst may
	// alias k.
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			data[i*stride+j] = v.at(i, j) * s[i] * s[j]
		}
		data[i*stride+i] = 1
	}
	mirrorLower(data, stride, n)
	return nil
}

// Center stores the centred kernel matrix H K H, H = I - 11^T/n, in dst
// (which may be k itself, empty, or n x n):
// (HKH)_ij = K_ij - r_i - r_j + t with r the row means and t the overall
// mean of K. It takes O(n^2) time.
func Center(dst *mat.SymDense, k mat.Symmetric) error {
	const op = "Center"
	v, err := checkSym(op, "kernel matrix", k)
	if err != nil {
		return err
	}
	n := v.n
	r := make([]float64, n)
	for i := 0; i < n; i++ {
		r[i] += v.at(i, i)
		for j := i + 1; j < n; j++ {
			x := v.at(i, j)
			r[i] += x
			r[j] += x
		}
	}
	var t float64
	for i := range r {
		r[i] /= float64(n)
		t += r[i]
	}
	t /= float64(n)
	data, stride, err := prepareDst(op, dst, n)
	if err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			data[i*stride+j] = v.at(i, j) - r[i] - r[j] + t
		}
	}
	mirrorLower(data, stride, n)
	return nil
}
