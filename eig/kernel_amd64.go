//go:build amd64 && !purego

package eig

// cpuid executes the CPUID instruction with the given EAX and ECX inputs.
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv0 reads the extended control register XCR0.
func xgetbv0() (eax, edx uint32)

// dot3x4 sets out[4r+v] to the dot product of rows a_r and x_v over their
// first n entries (n a non-negative multiple of 4) with AVX2 and FMA.
//
//go:noescape
func dot3x4(a0, a1, a2, x0, x1, x2, x3 *float64, n int, out *[12]float64)

// hasAVX2FMA is true when the processor has AVX2 and FMA3 and the operating
// system saves the YMM registers. It is set once at start-up and only read.
var hasAVX2FMA = detectAVX2FMA()

func detectAVX2FMA() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	// XCR0 bits 1 and 2: the OS saves SSE and AVX (YMM) state.
	if xcr0, _ := xgetbv0(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	const avx2 = 1 << 5
	return ebx7&avx2 != 0
}

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
