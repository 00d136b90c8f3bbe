//go:build amd64 && !purego

package eig

import "ukm/internal/cpu"

// dot3x4 adds to out[4r+v] the dot product of rows a_r and x_v over their
// first n entries (n a non-negative multiple of 4) with AVX2 and FMA.
//
//go:noescape
func dot3x4(a0, a1, a2, x0, x1, x2, x3 *float64, n int, out *[12]float64)

// dot6x2 sets out[2r+v] to the dot product of rows a_r and x_v over their
// first n entries (n >= 0; no entry past them is read) with AVX2 and FMA.
//
//go:noescape
func dot6x2(a0, a1, a2, a3, a4, a5, x0, x1 *float64, n int, out *[12]float64)

// axpy2x16 subtracts from the first 16 entries of each row x_r (r < 2) the
// combination sum_{i<m} h[i*ldh+r] v_i, where v_i starts at v + i*ldv
// (m >= 1), with AVX2 and FMA.
//
//go:noescape
func axpy2x16(x0, x1 *float64, v *float64, ldv int, h *float64, ldh int, m int)

// hasAVX2FMA is true when the processor has AVX2 and FMA3 and the operating
// system saves the YMM registers.
var hasAVX2FMA = cpu.AVX2 && cpu.FMA

// axpy4x8 subtracts from the first 8 entries of each row x_r (r < 4) the
// combination sum_{i<m} h[i*ldh+r] v_i, where v_i starts at v + i*ldv
// (m >= 1), with AVX2 and FMA.
//
//go:noescape
func axpy4x8(x0, x1, x2, x3 *float64, v *float64, ldv int, h *float64, ldh int, m int)

// rot4 applies the plane rotation (x, y) <- (c x - s y, s x + c y) to the
// first n entries of x and y (n a positive multiple of 4).
//
//go:noescape
func rot4(x, y *float64, n int, c, s float64)

// hasAVX512 is true when the processor has AVX-512 F and VL (besides AVX2
// and FMA) and the operating system saves the ZMM registers.
var hasAVX512 = hasAVX2FMA && cpu.AVX512

// setAVX512 turns the AVX-512 kernel on or off (tests and benchmarks
// compare both paths); it cannot turn it on where the processor lacks it.
// It returns the previous setting.
func setAVX512(on bool) bool {
	old := hasAVX512
	hasAVX512 = on && hasAVX2FMA && cpu.AVX512
	return old
}

// dot3x8y adds to out[8r+v] the dot product of row a_r with vector v, which
// starts at x + v*ldx, over their first n entries (n a non-negative
// multiple of 4), with AVX-512 VL.
//
//go:noescape
func dot3x8y(a0, a1, a2, x *float64, ldx, n int, out *[24]float64)

// bcast12x8 adds to out[8r+v] the dot product of row r of a (rows lda
// apart, r < 12) with vector v over their first n entries (n a non-negative
// multiple of 8), the vectors interleaved: entry j of vector v is
// x[8j+v]. AVX-512 F.
//
//go:noescape
func bcast12x8(a *float64, lda int, x *float64, n int, out *[96]float64)
