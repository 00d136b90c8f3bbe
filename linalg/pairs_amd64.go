//go:build amd64 && !purego

package linalg

import "ukm/internal/cpu"

// sqDistsT sets dst[c], c < m, to the squared distance between the p
// coordinates a[0:p] and column c of the p-row matrix xt (row stride ld),
// summed over k = 0..p-1 in order with separate subtract, multiply and add
// (no FMA): bitwise what sqDist returns. m and p must be positive; xt must
// have the columns up to the next multiple of 16 at or above m (they are read, and
// their results dropped). It uses AVX2.
//
//go:noescape
func sqDistsT(dst, a, xt *float64, ld, p, m int)

// hasPairsAVX2 is true when the processor has AVX2 and POPCNT and the
// operating system saves the YMM registers.
var hasPairsAVX2 = cpu.AVX2 && cpu.POPCNT

// bracketRow makes the pass of bracketMedian over the n values at x (n a
// positive multiple of 4), four at a time: below counts the values < lo
// and maxBelow is their maximum (+0 if none); the values in [lo, hi] are
// stored in order to mid[0:cnt], which must have room for cnt+4 values;
// valid is 1 if every value is in [0, MaxFloat64] (as floats: -0 passes,
// NaN fails), else 0. It uses AVX2 and POPCNT.
//
//go:noescape
func bracketRow(x *float64, n int, lo, hi float64, mid *float64) (below int, maxBelow float64, cnt int, valid int)

// allDistances reports whether the n values at x (n a positive multiple of
// 4) all lie in [0, MaxFloat64] as floats. It uses AVX2.
//
//go:noescape
func allDistances(x *float64, n int) bool
