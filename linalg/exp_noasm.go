//go:build !amd64 || purego

package linalg

// hasExpAVX2 is false without the assembly kernels.
const hasExpAVX2 = false

// expScaledAVX2 is never called when hasExpAVX2 is false.
func expScaledAVX2(dst, src *float64, n int, s float64) int {
	panic("linalg: internal error: expScaledAVX2 without assembly support")
}
