package linalg

import (
	"unsafe"

	"gonum.org/v1/gonum/mat"
)

// overlaps reports whether two float64 slices share memory.
func overlaps(a, b []float64) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0 := uintptr(unsafe.Pointer(unsafe.SliceData(a)))
	b0 := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	a1 := a0 + uintptr(len(a))*8
	b1 := b0 + uintptr(len(b))*8
	return a0 < b1 && b0 < a1
}

// denseData returns the backing storage of a non-empty Dense, nil otherwise.
func denseData(a *mat.Dense) []float64 {
	if a == nil || a.IsEmpty() {
		return nil
	}
	return a.RawMatrix().Data
}

// sameView reports whether a and b are the same view of the same storage
// (same first element, stride and shape), so that an element-wise
// operation may write a while reading b.
func sameView(a, b *mat.Dense) bool {
	da, db := denseData(a), denseData(b)
	if len(da) == 0 || len(db) == 0 {
		return false
	}
	ra, rb := a.RawMatrix(), b.RawMatrix()
	return unsafe.SliceData(da) == unsafe.SliceData(db) && ra.Stride == rb.Stride && ra.Rows == rb.Rows && ra.Cols == rb.Cols
}

// partialAlias reports whether dst shares storage with in without being
// the very same view of it: an element-wise in-place update is then not
// safe and the result must go through a temporary.
func partialAlias(dst, in *mat.Dense) bool {
	return overlaps(denseData(dst), denseData(in)) && !sameView(dst, in)
}

// viaTemp runs f on an empty temporary and copies the result into dst,
// which must be non-empty (it shares storage with an input) and of the
// result's shape.
func viaTemp(op string, dst *mat.Dense, f func(tmp *mat.Dense) error) error {
	var tmp mat.Dense
	if err := f(&tmp); err != nil {
		return err
	}
	r, c := tmp.Dims()
	if err := prepareDense(op, dst, r, c); err != nil {
		return err
	}
	dst.Copy(&tmp)
	return nil
}
