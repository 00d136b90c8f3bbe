//go:build amd64 && !purego

package linalg

import "ukm/internal/cpu"

// expScaledAVX2 sets dst[i] = exp(s src[i]) for i < n (n a non-negative
// multiple of 4) with AVX2 and FMA, within 2 units in the last place of
// math.Exp. It stops before the first group of four with an argument
// outside [-708, 709] (or NaN) and returns the number of entries set. dst
// may be src.
//
//go:noescape
func expScaledAVX2(dst, src *float64, n int, s float64) int

// hasExpAVX2 is true when the processor has AVX2 and FMA3 and the operating
// system saves the YMM registers.
var hasExpAVX2 = cpu.AVX2 && cpu.FMA
