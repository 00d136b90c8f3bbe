//go:build amd64 && !purego

#include "textflag.h"

// tailmask holds three all-ones quadwords and three zeros: the four
// quadwords that start r quadwords before its fourth one select the first r
// lanes of a vector (r = 1, 2, 3).
DATA tailmask<>+0(SB)/8, $-1
DATA tailmask<>+8(SB)/8, $-1
DATA tailmask<>+16(SB)/8, $-1
DATA tailmask<>+24(SB)/8, $0
DATA tailmask<>+32(SB)/8, $0
DATA tailmask<>+40(SB)/8, $0
GLOBL tailmask<>(SB), RODATA|NOPTR, $48

// PREFETCH is the prefetch distance in bytes along the rows of a.
#define PREFETCH 2048

// func dot3x4(a0, a1, a2, x0, x1, x2, x3 *float64, n int, out *[12]float64)
//
// out[4r+v] += sum_{j<n} a_r[j] x_v[j] for r < 3, v < 4. n must be a
// non-negative multiple of 4. Accumulators: Y0-Y3 row 0, Y4-Y7 row 1,
// Y8-Y11 row 2 (one per vector); Y12-Y14 hold four entries of each row and
// Y15 four entries of the current vector.
TEXT ·dot3x4(SB), NOSPLIT, $0-72
	MOVQ a0+0(FP), SI
	MOVQ a1+8(FP), DI
	MOVQ a2+16(FP), R8
	MOVQ x0+24(FP), R9
	MOVQ x1+32(FP), R10
	MOVQ x2+40(FP), R11
	MOVQ x3+48(FP), R12
	MOVQ n+56(FP), CX
	MOVQ out+64(FP), DX

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

#define TILE4(off) \
	VMOVUPD     off(SI)(AX*8), Y12 \
	VMOVUPD     off(DI)(AX*8), Y13 \
	VMOVUPD     off(R8)(AX*8), Y14 \
	VMOVUPD     off(R9)(AX*8), Y15 \
	VFMADD231PD Y15, Y12, Y0       \
	VFMADD231PD Y15, Y13, Y4       \
	VFMADD231PD Y15, Y14, Y8       \
	VMOVUPD     off(R10)(AX*8), Y15 \
	VFMADD231PD Y15, Y12, Y1       \
	VFMADD231PD Y15, Y13, Y5       \
	VFMADD231PD Y15, Y14, Y9       \
	VMOVUPD     off(R11)(AX*8), Y15 \
	VFMADD231PD Y15, Y12, Y2       \
	VFMADD231PD Y15, Y13, Y6       \
	VFMADD231PD Y15, Y14, Y10      \
	VMOVUPD     off(R12)(AX*8), Y15 \
	VFMADD231PD Y15, Y12, Y3       \
	VFMADD231PD Y15, Y13, Y7       \
	VFMADD231PD Y15, Y14, Y11

	// Main loop: eight columns (one cache line of each row) per trip,
	// prefetching the rows of a PREFETCH bytes ahead.
	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-8, BX
	JZ   tail4

loop8:
	PREFETCHT1 PREFETCH(SI)(AX*8)
	PREFETCHT1 PREFETCH(DI)(AX*8)
	PREFETCHT1 PREFETCH(R8)(AX*8)
	TILE4(0)
	TILE4(32)
	ADDQ $8, AX
	CMPQ AX, BX
	JLT  loop8

tail4:
	CMPQ AX, CX
	JGE  reduce
	TILE4(0)

reduce:
	// Row 0: [s0 s1 s2 s3] from Y0..Y3.
	VHADDPD    Y1, Y0, Y0
	VHADDPD    Y3, Y2, Y2
	VPERM2F128 $0x21, Y2, Y0, Y12
	VBLENDPD   $0x0C, Y2, Y0, Y13
	VADDPD     Y12, Y13, Y13
	VADDPD     0(DX), Y13, Y13
	VMOVUPD    Y13, 0(DX)

	// Row 1.
	VHADDPD    Y5, Y4, Y4
	VHADDPD    Y7, Y6, Y6
	VPERM2F128 $0x21, Y6, Y4, Y12
	VBLENDPD   $0x0C, Y6, Y4, Y13
	VADDPD     Y12, Y13, Y13
	VADDPD     32(DX), Y13, Y13
	VMOVUPD    Y13, 32(DX)

	// Row 2.
	VHADDPD    Y9, Y8, Y8
	VHADDPD    Y11, Y10, Y10
	VPERM2F128 $0x21, Y10, Y8, Y12
	VBLENDPD   $0x0C, Y10, Y8, Y13
	VADDPD     Y12, Y13, Y13
	VADDPD     64(DX), Y13, Y13
	VMOVUPD    Y13, 64(DX)

	VZEROUPPER
	RET

// func axpy4x8(x0, x1, x2, x3 *float64, v *float64, ldv int, h *float64, ldh int, m int)
//
// x_r[0:8] -= sum_{i<m} h[i*ldh+r] v[i*ldv : i*ldv+8] for r < 4, m >= 1.
// Accumulators: Y0,Y1 row 0 ... Y6,Y7 row 3; Y8,Y9 hold v_i, Y10 the
// broadcast coefficient.
TEXT ·axpy4x8(SB), NOSPLIT, $0-72
	MOVQ v+32(FP), SI
	MOVQ ldv+40(FP), R8
	SHLQ $3, R8
	MOVQ h+48(FP), DX
	MOVQ ldh+56(FP), R9
	SHLQ $3, R9
	MOVQ m+64(FP), CX

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

axloop:
	PREFETCHT0   64(SI)
	VMOVUPD      0(SI), Y8
	VMOVUPD      32(SI), Y9
	VBROADCASTSD 0(DX), Y10
	VFMADD231PD  Y10, Y8, Y0
	VFMADD231PD  Y10, Y9, Y1
	VBROADCASTSD 8(DX), Y10
	VFMADD231PD  Y10, Y8, Y2
	VFMADD231PD  Y10, Y9, Y3
	VBROADCASTSD 16(DX), Y10
	VFMADD231PD  Y10, Y8, Y4
	VFMADD231PD  Y10, Y9, Y5
	VBROADCASTSD 24(DX), Y10
	VFMADD231PD  Y10, Y8, Y6
	VFMADD231PD  Y10, Y9, Y7
	ADDQ         R8, SI
	ADDQ         R9, DX
	DECQ         CX
	JNZ          axloop

	MOVQ    x0+0(FP), AX
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), Y9
	VSUBPD  Y0, Y8, Y8
	VSUBPD  Y1, Y9, Y9
	VMOVUPD Y8, 0(AX)
	VMOVUPD Y9, 32(AX)
	MOVQ    x1+8(FP), AX
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), Y9
	VSUBPD  Y2, Y8, Y8
	VSUBPD  Y3, Y9, Y9
	VMOVUPD Y8, 0(AX)
	VMOVUPD Y9, 32(AX)
	MOVQ    x2+16(FP), AX
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), Y9
	VSUBPD  Y4, Y8, Y8
	VSUBPD  Y5, Y9, Y9
	VMOVUPD Y8, 0(AX)
	VMOVUPD Y9, 32(AX)
	MOVQ    x3+24(FP), AX
	VMOVUPD 0(AX), Y8
	VMOVUPD 32(AX), Y9
	VSUBPD  Y6, Y8, Y8
	VSUBPD  Y7, Y9, Y9
	VMOVUPD Y8, 0(AX)
	VMOVUPD Y9, 32(AX)

	VZEROUPPER
	RET

// func rot4(x, y *float64, n int, c, s float64)
//
// (x, y) <- (c x - s y, s x + c y) on the first n entries (n a positive
// multiple of 4).
TEXT ·rot4(SB), NOSPLIT, $0-40
	MOVQ         x+0(FP), SI
	MOVQ         y+8(FP), DI
	MOVQ         n+16(FP), CX
	VBROADCASTSD c+24(FP), Y0
	VBROADCASTSD s+32(FP), Y1
	XORQ         AX, AX

rotloop:
	VMOVUPD      (SI)(AX*8), Y2
	VMOVUPD      (DI)(AX*8), Y3
	VMULPD       Y2, Y0, Y4
	VFNMADD231PD Y3, Y1, Y4
	VMULPD       Y2, Y1, Y5
	VFMADD231PD  Y3, Y0, Y5
	VMOVUPD      Y4, (SI)(AX*8)
	VMOVUPD      Y5, (DI)(AX*8)
	ADDQ         $4, AX
	CMPQ         AX, CX
	JLT          rotloop

	VZEROUPPER
	RET

// func dot6x2(a0, a1, a2, a3, a4, a5, x0, x1 *float64, n int, out *[12]float64)
//
// out[2r+v] = sum_{j<n} a_r[j] x_v[j] for r < 6, v < 2, n >= 0 (the last
// n mod 4 columns by masked loads). Accumulators: Y(2r+v); Y12, Y13 hold four
// entries of each vector and Y14 four entries of the current row. The
// shape for two vectors: 12 multiply-adds per 8 loads, where dot3x4 would
// spend half its arithmetic on a repeated vector.
TEXT ·dot6x2(SB), NOSPLIT, $0-80
	MOVQ a0+0(FP), SI
	MOVQ a1+8(FP), DI
	MOVQ a2+16(FP), R8
	MOVQ a3+24(FP), R9
	MOVQ a4+32(FP), R10
	MOVQ a5+40(FP), R11
	MOVQ x0+48(FP), R12
	MOVQ x1+56(FP), R13
	MOVQ n+64(FP), CX

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	VXORPD Y8, Y8, Y8
	VXORPD Y9, Y9, Y9
	VXORPD Y10, Y10, Y10
	VXORPD Y11, Y11, Y11

#define ROW2(ptr, acc0, acc1, off) \
	VMOVUPD     off(ptr)(AX*8), Y14 \
	VFMADD231PD Y12, Y14, acc0      \
	VFMADD231PD Y13, Y14, acc1

#define TILE2(off) \
	VMOVUPD off(R12)(AX*8), Y12 \
	VMOVUPD off(R13)(AX*8), Y13 \
	ROW2(SI, Y0, Y1, off)       \
	ROW2(DI, Y2, Y3, off)       \
	ROW2(R8, Y4, Y5, off)       \
	ROW2(R9, Y6, Y7, off)       \
	ROW2(R10, Y8, Y9, off)      \
	ROW2(R11, Y10, Y11, off)

	XORQ AX, AX
	MOVQ CX, BX
	ANDQ $-8, BX
	JZ   tail2

loop2:
	TILE2(0)
	TILE2(32)
	ADDQ $8, AX
	CMPQ AX, BX
	JLT  loop2

tail2:
	MOVQ CX, BX
	ANDQ $-4, BX
	CMPQ AX, BX
	JGE  mask2
	TILE2(0)
	ADDQ $4, AX

mask2:
	// One to three last columns: masked loads read zeros past the end
	// (and never touch memory there).
	MOVQ CX, BX
	ANDQ $3, BX
	JZ   reduce2
	NEGQ BX
	LEAQ tailmask<>+24(SB), DX
	VMOVUPD (DX)(BX*8), Y15
	VMASKMOVPD (R12)(AX*8), Y15, Y12
	VMASKMOVPD (R13)(AX*8), Y15, Y13

#define MROW2(ptr, acc0, acc1) \
	VMASKMOVPD  (ptr)(AX*8), Y15, Y14 \
	VFMADD231PD Y12, Y14, acc0        \
	VFMADD231PD Y13, Y14, acc1

	MROW2(SI, Y0, Y1)
	MROW2(DI, Y2, Y3)
	MROW2(R8, Y4, Y5)
	MROW2(R9, Y6, Y7)
	MROW2(R10, Y8, Y9)
	MROW2(R11, Y10, Y11)

reduce2:
	MOVQ out+72(FP), DX

#define PAIR(acc0, acc1, xacc0, off) \
	VHADDPD      acc1, acc0, acc0 \
	VEXTRACTF128 $1, acc0, X14    \
	VADDPD       X14, xacc0, X14  \
	VMOVUPD      X14, off(DX)

	PAIR(Y0, Y1, X0, 0)
	PAIR(Y2, Y3, X2, 16)
	PAIR(Y4, Y5, X4, 32)
	PAIR(Y6, Y7, X6, 48)
	PAIR(Y8, Y9, X8, 64)
	PAIR(Y10, Y11, X10, 80)

	VZEROUPPER
	RET

// func axpy2x16(x0, x1 *float64, v *float64, ldv int, h *float64, ldh int, m int)
//
// x_r[0:16] -= sum_{i<m} h[i*ldh+r] v[i*ldv : i*ldv+16] for r < 2, m >= 1.
// Accumulators: Y0-Y3 row 0, Y4-Y7 row 1; Y8-Y11 hold v_i, Y12 and Y13 the
// broadcast coefficients.
TEXT ·axpy2x16(SB), NOSPLIT, $0-56
	MOVQ v+16(FP), SI
	MOVQ ldv+24(FP), R8
	SHLQ $3, R8
	MOVQ h+32(FP), DX
	MOVQ ldh+40(FP), R9
	SHLQ $3, R9
	MOVQ m+48(FP), CX

	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7

ax2loop:
	VMOVUPD      0(SI), Y8
	VMOVUPD      32(SI), Y9
	VMOVUPD      64(SI), Y10
	VMOVUPD      96(SI), Y11
	VBROADCASTSD 0(DX), Y12
	VBROADCASTSD 8(DX), Y13
	VFMADD231PD  Y12, Y8, Y0
	VFMADD231PD  Y12, Y9, Y1
	VFMADD231PD  Y12, Y10, Y2
	VFMADD231PD  Y12, Y11, Y3
	VFMADD231PD  Y13, Y8, Y4
	VFMADD231PD  Y13, Y9, Y5
	VFMADD231PD  Y13, Y10, Y6
	VFMADD231PD  Y13, Y11, Y7
	ADDQ         R8, SI
	ADDQ         R9, DX
	DECQ         CX
	JNZ          ax2loop

#define LOAD16(ptr) \
	VMOVUPD 0(ptr), Y8   \
	VMOVUPD 32(ptr), Y9  \
	VMOVUPD 64(ptr), Y10 \
	VMOVUPD 96(ptr), Y11

	MOVQ    x0+0(FP), AX
	LOAD16(AX)
	VSUBPD  Y0, Y8, Y8
	VSUBPD  Y1, Y9, Y9
	VSUBPD  Y2, Y10, Y10
	VSUBPD  Y3, Y11, Y11
	VMOVUPD Y8, 0(AX)
	VMOVUPD Y9, 32(AX)
	VMOVUPD Y10, 64(AX)
	VMOVUPD Y11, 96(AX)
	MOVQ    x1+8(FP), AX
	LOAD16(AX)
	VSUBPD  Y4, Y8, Y8
	VSUBPD  Y5, Y9, Y9
	VSUBPD  Y6, Y10, Y10
	VSUBPD  Y7, Y11, Y11
	VMOVUPD Y8, 0(AX)
	VMOVUPD Y9, 32(AX)
	VMOVUPD Y10, 64(AX)
	VMOVUPD Y11, 96(AX)

	VZEROUPPER
	RET

// STRIDES sets R11, R12 and R13 to 3, 5 and 7 times the stride in R10:
// with R10*1, *2, *4 and *8 they address the rows (or vectors) one to
// eight strides from a base pointer.
#define STRIDES \
	LEAQ (R10)(R10*2), R11 \
	LEAQ (R10)(R10*4), R12 \
	LEAQ (R11)(R10*4), R13

// ZERO4 clears four vector registers (EVEX, so any of the 32).
#define ZERO4(a, b, c, d) \
	VPXORQ a, a, a \
	VPXORQ b, b, b \
	VPXORQ c, c, c \
	VPXORQ d, d, d

// func dot3x8y(a0, a1, a2, x *float64, ldx, n int, out *[24]float64)
//
// out[8r+v] += sum_{j<n} a_r[j] x[v*ldx+j] for r < 3, v < 8, n a
// non-negative multiple of 4, with AVX-512 VL: dot3x4's tile for eight
// vectors, whose 24 accumulators need the 32 vector registers, prefetching
// the rows of a as dot3x4 does. Accumulators: Y(8r+v); Y24-Y26 hold four
// entries of each row, Y27-Y30 entries of the vectors, which are
// addressed from one base pointer (R9) and the multiples 1 to 7 of the
// stride (R10, R10*2, R11, R10*4, R12, R11*2, R13), so every pointer
// advances with one addition.
TEXT ·dot3x8y(SB), NOSPLIT, $0-56
	MOVQ a0+0(FP), SI
	MOVQ a1+8(FP), DI
	MOVQ a2+16(FP), R8
	MOVQ x+24(FP), R9
	MOVQ ldx+32(FP), R10
	SHLQ $3, R10
	STRIDES
	MOVQ n+40(FP), CX

	ZERO4(Y0, Y1, Y2, Y3)
	ZERO4(Y4, Y5, Y6, Y7)
	ZERO4(Y8, Y9, Y10, Y11)
	ZERO4(Y12, Y13, Y14, Y15)
	ZERO4(Y16, Y17, Y18, Y19)
	ZERO4(Y20, Y21, Y22, Y23)

#define YVEC(mem, xr, c0, c1, c2) \
	VMOVUPD     mem, xr            \
	VFMADD231PD xr, Y24, c0        \
	VFMADD231PD xr, Y25, c1        \
	VFMADD231PD xr, Y26, c2

#define YTILE(off) \
	VMOVUPD off(SI), Y24                          \
	VMOVUPD off(DI), Y25                          \
	VMOVUPD off(R8), Y26                          \
	YVEC(off(R9), Y27, Y0, Y8, Y16)          \
	YVEC(off(R9)(R10*1), Y28, Y1, Y9, Y17)   \
	YVEC(off(R9)(R10*2), Y29, Y2, Y10, Y18)  \
	YVEC(off(R9)(R11*1), Y30, Y3, Y11, Y19)  \
	YVEC(off(R9)(R10*4), Y27, Y4, Y12, Y20)  \
	YVEC(off(R9)(R12*1), Y28, Y5, Y13, Y21)  \
	YVEC(off(R9)(R11*2), Y29, Y6, Y14, Y22)  \
	YVEC(off(R9)(R13*1), Y30, Y7, Y15, Y23)

	MOVQ CX, BX
	SHRQ $3, BX
	JZ   ytail

yloop:
	PREFETCHT1 PREFETCH(SI)
	PREFETCHT1 PREFETCH(DI)
	PREFETCHT1 PREFETCH(R8)
	YTILE(0)
	YTILE(32)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $64, R8
	ADDQ $64, R9
	DECQ BX
	JNZ  yloop

ytail:
	TESTQ $4, CX
	JZ    yreduce
	YTILE(0)

yreduce:
	MOVQ out+48(FP), DX

// SUM4 adds the four horizontal sums of ya..yd to off(DX), using yb and
// yd as scratch (VHADDPD, VPERM2F128 and VBLENDPD reach only Y0-Y15, so
// the third row is moved down first).
#define SUM4(ya, yb, yc, yd, off) \
	VHADDPD    yb, ya, ya        \
	VHADDPD    yd, yc, yc        \
	VPERM2F128 $0x21, yc, ya, yb \
	VBLENDPD   $0x0C, yc, ya, yd \
	VADDPD     yb, yd, yd        \
	VADDPD     off(DX), yd, yd   \
	VMOVUPD    yd, off(DX)

	SUM4(Y0, Y1, Y2, Y3, 0)
	SUM4(Y4, Y5, Y6, Y7, 32)
	SUM4(Y8, Y9, Y10, Y11, 64)
	SUM4(Y12, Y13, Y14, Y15, 96)
	VMOVAPD Y16, Y0
	VMOVAPD Y17, Y1
	VMOVAPD Y18, Y2
	VMOVAPD Y19, Y3
	VMOVAPD Y20, Y4
	VMOVAPD Y21, Y5
	VMOVAPD Y22, Y6
	VMOVAPD Y23, Y7
	SUM4(Y0, Y1, Y2, Y3, 128)
	SUM4(Y4, Y5, Y6, Y7, 160)

	// Leave the upper registers clean: with Z16-Z31 dirty, the SSE code
	// of gonum's kernels that runs next made the solve 5% slower.
	ZERO4(Z16, Z17, Z18, Z19)
	ZERO4(Z20, Z21, Z22, Z23)
	ZERO4(Z24, Z25, Z26, Z27)
	ZERO4(Z28, Z29, Z30, Z31)
	VZEROUPPER
	RET

// BPREFETCH is the prefetch distance in bytes along the rows of a in
// bcast12x8.
#define BPREFETCH 1024

// func bcast12x8(a *float64, lda int, x *float64, n int, out *[96]float64)
//
// out[8r+v] += sum_{j<n} a[r*lda+j] x[8j+v] for r < 12, v < 8, n a
// non-negative multiple of 8, with AVX-512: the eight vectors are
// interleaved (entry j of all of them in one register), so each entry of
// a is one broadcast operand of one fused multiply-add and no horizontal
// sums are needed. Accumulators: Z0-Z11 (rows 0-11) for the even columns
// and Z16-Z27 for the odd ones (shorter chains of rounding); Z12-Z15 hold
// the vectors' entries. Rows 0-8 are addressed from SI and the multiples of
// the stride R10 (R10*1, *2, R11 = 3, *4, R12 = 5, R11*2, R13 = 7, R10*8),
// rows 9-11 from DI = SI + 9 strides.
TEXT ·bcast12x8(SB), NOSPLIT, $0-40
	MOVQ a+0(FP), SI
	MOVQ lda+8(FP), R10
	SHLQ $3, R10
	MOVQ x+16(FP), R9
	MOVQ n+24(FP), CX
	STRIDES
	LEAQ (SI)(R10*8), DI
	ADDQ R10, DI

	ZERO4(Z0, Z1, Z2, Z3)
	ZERO4(Z4, Z5, Z6, Z7)
	ZERO4(Z8, Z9, Z10, Z11)
	ZERO4(Z16, Z17, Z18, Z19)
	ZERO4(Z20, Z21, Z22, Z23)
	ZERO4(Z24, Z25, Z26, Z27)

// BCOL applies column c (entries of the vectors in xr) to the twelve rows,
// accumulating into z0-z11.
#define BCOL(c, xr, z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, z10, z11) \
	VMOVUPD          (c*64)(R9), xr              \
	VFMADD231PD.BCST (c*8)(SI), xr, z0           \
	VFMADD231PD.BCST (c*8)(SI)(R10*1), xr, z1    \
	VFMADD231PD.BCST (c*8)(SI)(R10*2), xr, z2    \
	VFMADD231PD.BCST (c*8)(SI)(R11*1), xr, z3    \
	VFMADD231PD.BCST (c*8)(SI)(R10*4), xr, z4    \
	VFMADD231PD.BCST (c*8)(SI)(R12*1), xr, z5    \
	VFMADD231PD.BCST (c*8)(SI)(R11*2), xr, z6    \
	VFMADD231PD.BCST (c*8)(SI)(R13*1), xr, z7    \
	VFMADD231PD.BCST (c*8)(SI)(R10*8), xr, z8    \
	VFMADD231PD.BCST (c*8)(DI), xr, z9           \
	VFMADD231PD.BCST (c*8)(DI)(R10*1), xr, z10   \
	VFMADD231PD.BCST (c*8)(DI)(R10*2), xr, z11

#define BEVEN(c, xr) BCOL(c, xr, Z0, Z1, Z2, Z3, Z4, Z5, Z6, Z7, Z8, Z9, Z10, Z11)
#define BODD(c, xr) BCOL(c, xr, Z16, Z17, Z18, Z19, Z20, Z21, Z22, Z23, Z24, Z25, Z26, Z27)

	SHRQ $3, CX
	JZ   bsum

bloop:
	PREFETCHT1 BPREFETCH(SI)
	PREFETCHT1 BPREFETCH(SI)(R10*1)
	PREFETCHT1 BPREFETCH(SI)(R10*2)
	PREFETCHT1 BPREFETCH(SI)(R11*1)
	PREFETCHT1 BPREFETCH(SI)(R10*4)
	PREFETCHT1 BPREFETCH(SI)(R12*1)
	PREFETCHT1 BPREFETCH(SI)(R11*2)
	PREFETCHT1 BPREFETCH(SI)(R13*1)
	PREFETCHT1 BPREFETCH(SI)(R10*8)
	PREFETCHT1 BPREFETCH(DI)
	PREFETCHT1 BPREFETCH(DI)(R10*1)
	PREFETCHT1 BPREFETCH(DI)(R10*2)
	BEVEN(0, Z12)
	BODD(1, Z13)
	BEVEN(2, Z14)
	BODD(3, Z15)
	BEVEN(4, Z12)
	BODD(5, Z13)
	BEVEN(6, Z14)
	BODD(7, Z15)
	ADDQ $64, SI
	ADDQ $64, DI
	ADDQ $512, R9
	DECQ CX
	JNZ  bloop

bsum:
	MOVQ out+32(FP), DX

// BOUT adds the two accumulators of row r to its eight sums in out.
#define BOUT(r, ze, zo) \
	VADDPD  zo, ze, ze          \
	VADDPD  (r*64)(DX), ze, ze  \
	VMOVUPD ze, (r*64)(DX)

	BOUT(0, Z0, Z16)
	BOUT(1, Z1, Z17)
	BOUT(2, Z2, Z18)
	BOUT(3, Z3, Z19)
	BOUT(4, Z4, Z20)
	BOUT(5, Z5, Z21)
	BOUT(6, Z6, Z22)
	BOUT(7, Z7, Z23)
	BOUT(8, Z8, Z24)
	BOUT(9, Z9, Z25)
	BOUT(10, Z10, Z26)
	BOUT(11, Z11, Z27)

	// Leave the upper registers clean (see dot3x8y).
	ZERO4(Z16, Z17, Z18, Z19)
	ZERO4(Z20, Z21, Z22, Z23)
	ZERO4(Z24, Z25, Z26, Z27)
	VZEROUPPER
	RET
