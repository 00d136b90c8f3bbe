//go:build amd64 && !purego

package linalg

// pairsCPUID executes the CPUID instruction with the given EAX and ECX
// inputs.
func pairsCPUID(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// pairsXGETBV0 reads the extended control register XCR0.
func pairsXGETBV0() (eax, edx uint32)

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
// operating system saves the YMM registers. It is set once at start-up and
// only read.
var hasPairsAVX2 = detectPairsAVX2()

func detectPairsAVX2() bool {
	maxID, _, _, _ := pairsCPUID(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := pairsCPUID(1, 0)
	const (
		popcnt  = 1 << 23
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(popcnt|osxsave|avx) != popcnt|osxsave|avx {
		return false
	}
	// XCR0 bits 1 and 2: the OS saves SSE and AVX (YMM) state.
	if xcr0, _ := pairsXGETBV0(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := pairsCPUID(7, 0)
	const avx2 = 1 << 5
	return ebx7&avx2 != 0
}

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
