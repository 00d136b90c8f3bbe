//go:build amd64 && !purego

package cpu

// cpuid executes the CPUID instruction with the given EAX and ECX inputs.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv0 reads the extended control register XCR0.
func xgetbv0() (eax, edx uint32)

func init() {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		popcnt  = 1 << 23
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(osxsave|avx) != osxsave|avx {
		return
	}
	// XCR0 bits 1 and 2: the OS saves SSE and AVX (YMM) state.
	xcr0, _ := xgetbv0()
	if xcr0&6 != 6 {
		return
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const (
		avx2     = 1 << 5
		avx512f  = 1 << 16
		avx512vl = 1 << 31
		// XCR0 bits 5, 6 and 7: opmask registers, upper halves of ZMM0-15,
		// ZMM16-31.
		zmmState = 0xe0
	)
	AVX2 = ebx7&avx2 != 0
	FMA = AVX2 && ecx1&fma != 0
	POPCNT = AVX2 && ecx1&popcnt != 0
	AVX512 = AVX2 && ebx7&(avx512f|avx512vl) == avx512f|avx512vl && xcr0&zmmState == zmmState
}
