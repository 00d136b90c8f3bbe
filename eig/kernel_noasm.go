//go:build !amd64 || purego

package eig

// hasAVX2FMA is false without the assembly kernels.
const hasAVX2FMA = false

// dot3x4 is never called when hasAVX2FMA is false; it exists so that the
// package builds without assembly.
func dot3x4(a0, a1, a2, x0, x1, x2, x3 *float64, n int, out *[12]float64) {
	panic("eig: internal error: dot3x4 without assembly support")
}

// axpy4x8 is never called when hasAVX2FMA is false.
func axpy4x8(x0, x1, x2, x3 *float64, v *float64, ldv int, h *float64, ldh int, m int) {
	panic("eig: internal error: axpy4x8 without assembly support")
}

// rot4 is never called when hasAVX2FMA is false.
func rot4(x, y *float64, n int, c, s float64) {
	panic("eig: internal error: rot4 without assembly support")
}

// dot6x2 is never called when hasAVX2FMA is false.
func dot6x2(a0, a1, a2, a3, a4, a5, x0, x1 *float64, n int, out *[12]float64) {
	panic("eig: internal error: dot6x2 without assembly support")
}

// axpy2x16 is never called when hasAVX2FMA is false.
func axpy2x16(x0, x1 *float64, v *float64, ldv int, h *float64, ldh int, m int) {
	panic("eig: internal error: axpy2x16 without assembly support")
}

// hasAVX512 is false without the assembly kernels.
const hasAVX512 = false

// setAVX512 does nothing without the assembly kernels.
func setAVX512(bool) bool { return false }

// dot3x8y is never called when hasAVX512 is false.
func dot3x8y(a0, a1, a2, x *float64, ldx, n int, out *[24]float64) {
	panic("eig: internal error: dot3x8y without assembly support")
}

// bcast12x8 is never called when hasAVX512 is false.
func bcast12x8(a *float64, lda int, x *float64, n int, out *[96]float64) {
	panic("eig: internal error: bcast12x8 without assembly support")
}
