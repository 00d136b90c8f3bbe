//go:build !amd64 || purego

package linalg

// hasPairsAVX2 is false without the assembly kernels.
const hasPairsAVX2 = false

// sqDistsT is never called when hasPairsAVX2 is false; it exists so that
// the package builds without assembly.
func sqDistsT(dst, a, xt *float64, ld, p, m int) {
	panic("linalg: internal error: sqDistsT without assembly support")
}

// bracketRow is never called when hasPairsAVX2 is false.
func bracketRow(x *float64, n int, lo, hi float64, mid *float64) (below int, maxBelow float64, cnt int, valid int) {
	panic("linalg: internal error: bracketRow without assembly support")
}

// allDistances is never called when hasPairsAVX2 is false.
func allDistances(x *float64, n int) bool {
	panic("linalg: internal error: allDistances without assembly support")
}
