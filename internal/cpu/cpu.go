// Package cpu reports the x86 instruction-set extensions the assembly
// kernels of eig and linalg need, detected once at start-up from CPUID and
// XCR0. On other architectures, and with the purego build tag, every
// feature is false and the kernels' pure-Go paths run.
package cpu

// The features below are set once at start-up and only read afterwards.
var (
	// AVX2 is true when the processor has AVX2 and the operating system
	// saves the YMM registers.
	AVX2 bool
	// FMA is true when the processor has FMA3 (and AVX2 is usable).
	FMA bool
	// POPCNT is true when the processor has the POPCNT instruction (and
	// AVX2 is usable).
	POPCNT bool
	// AVX512 is true when the processor has AVX-512 Foundation and Vector
	// Length extensions, the operating system saves the opmask and ZMM
	// registers, and AVX2 is usable.
	AVX512 bool
)
