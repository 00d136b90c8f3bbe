//go:build amd64 && !purego

#include "textflag.h"

// tailmask<>+8*(4-r) holds the VMASKMOVPD mask of the first r lanes,
// r = 1..3.
DATA tailmask<>+0(SB)/8, $-1
DATA tailmask<>+8(SB)/8, $-1
DATA tailmask<>+16(SB)/8, $-1
DATA tailmask<>+24(SB)/8, $-1
DATA tailmask<>+32(SB)/8, $0
DATA tailmask<>+40(SB)/8, $0
DATA tailmask<>+48(SB)/8, $0
DATA tailmask<>+56(SB)/8, $0
GLOBL tailmask<>(SB), RODATA, $64

// func sqDistsT(dst, a, xt *float64, ld, p, m int)
//
// dst[c] = sum_{k<p} (a[k] - xt[k*ld+c])^2 for c < m, each lane summing
// over k in order with VSUBPD, VMULPD, VADDPD (never fused), so every
// value is bitwise the scalar loop's. m >= 1, p >= 1. Columns go 16 at a
// time (accumulators Y0-Y3); the last group of 1 to 15 columns is computed
// whole, reading up to 15 columns past m (which must exist in xt), and
// stored lane-exactly. Y15 holds the broadcast a[k], Y4-Y7 the
// differences.
TEXT ·sqDistsT(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ xt+16(FP), DX
	MOVQ ld+24(FP), R8
	SHLQ $3, R8
	MOVQ p+32(FP), CX
	MOVQ m+40(FP), BX

block16:
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ   DX, R10
	MOVQ   SI, R11
	MOVQ   CX, R12

loop16:
	VBROADCASTSD 0(R11), Y15
	VSUBPD       0(R10), Y15, Y4
	VSUBPD       32(R10), Y15, Y5
	VSUBPD       64(R10), Y15, Y6
	VSUBPD       96(R10), Y15, Y7
	VMULPD       Y4, Y4, Y4
	VMULPD       Y5, Y5, Y5
	VMULPD       Y6, Y6, Y6
	VMULPD       Y7, Y7, Y7
	VADDPD       Y4, Y0, Y0
	VADDPD       Y5, Y1, Y1
	VADDPD       Y6, Y2, Y2
	VADDPD       Y7, Y3, Y3
	ADDQ         $8, R11
	ADDQ         R8, R10
	DECQ         R12
	JNZ          loop16

	CMPQ BX, $16
	JLT  partial
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	ADDQ    $128, DI
	ADDQ    $128, DX
	SUBQ    $16, BX
	JNZ     block16
	JMP     done

partial:
	// 1 <= BX <= 15 columns left: whole groups of four from Y0 on, then
	// a masked store of the last 1 to 3.
	LEAQ tailmask<>(SB), R9
	CMPQ BX, $4
	JLT  mask0
	VMOVUPD Y0, 0(DI)
	SUBQ    $4, BX
	JZ      done
	CMPQ    BX, $4
	JLT     mask1
	VMOVUPD Y1, 32(DI)
	SUBQ    $4, BX
	JZ      done
	CMPQ    BX, $4
	JLT     mask2
	VMOVUPD Y2, 64(DI)
	SUBQ    $4, BX
	JZ      done
	JMP     mask3

mask0:
	NEGQ       BX
	VMOVDQU    32(R9)(BX*8), Y8
	VMASKMOVPD Y0, Y8, 0(DI)
	JMP        done

mask1:
	NEGQ       BX
	VMOVDQU    32(R9)(BX*8), Y8
	VMASKMOVPD Y1, Y8, 32(DI)
	JMP        done

mask2:
	NEGQ       BX
	VMOVDQU    32(R9)(BX*8), Y8
	VMASKMOVPD Y2, Y8, 64(DI)
	JMP        done

mask3:
	NEGQ       BX
	VMOVDQU    32(R9)(BX*8), Y8
	VMASKMOVPD Y3, Y8, 96(DI)

done:
	VZEROUPPER
	RET

// compressidx<>+32*mask holds the VPERMPS indices that move the lanes set
// in the 4-bit mask to the front, in order (two 32-bit indices per lane).
DATA compressidx<>+0(SB)/8, $0x0000000000000000
DATA compressidx<>+8(SB)/8, $0x0000000000000000
DATA compressidx<>+16(SB)/8, $0x0000000000000000
DATA compressidx<>+24(SB)/8, $0x0000000000000000
DATA compressidx<>+32(SB)/8, $0x0000000100000000
DATA compressidx<>+40(SB)/8, $0x0000000000000000
DATA compressidx<>+48(SB)/8, $0x0000000000000000
DATA compressidx<>+56(SB)/8, $0x0000000000000000
DATA compressidx<>+64(SB)/8, $0x0000000300000002
DATA compressidx<>+72(SB)/8, $0x0000000000000000
DATA compressidx<>+80(SB)/8, $0x0000000000000000
DATA compressidx<>+88(SB)/8, $0x0000000000000000
DATA compressidx<>+96(SB)/8, $0x0000000100000000
DATA compressidx<>+104(SB)/8, $0x0000000300000002
DATA compressidx<>+112(SB)/8, $0x0000000000000000
DATA compressidx<>+120(SB)/8, $0x0000000000000000
DATA compressidx<>+128(SB)/8, $0x0000000500000004
DATA compressidx<>+136(SB)/8, $0x0000000000000000
DATA compressidx<>+144(SB)/8, $0x0000000000000000
DATA compressidx<>+152(SB)/8, $0x0000000000000000
DATA compressidx<>+160(SB)/8, $0x0000000100000000
DATA compressidx<>+168(SB)/8, $0x0000000500000004
DATA compressidx<>+176(SB)/8, $0x0000000000000000
DATA compressidx<>+184(SB)/8, $0x0000000000000000
DATA compressidx<>+192(SB)/8, $0x0000000300000002
DATA compressidx<>+200(SB)/8, $0x0000000500000004
DATA compressidx<>+208(SB)/8, $0x0000000000000000
DATA compressidx<>+216(SB)/8, $0x0000000000000000
DATA compressidx<>+224(SB)/8, $0x0000000100000000
DATA compressidx<>+232(SB)/8, $0x0000000300000002
DATA compressidx<>+240(SB)/8, $0x0000000500000004
DATA compressidx<>+248(SB)/8, $0x0000000000000000
DATA compressidx<>+256(SB)/8, $0x0000000700000006
DATA compressidx<>+264(SB)/8, $0x0000000000000000
DATA compressidx<>+272(SB)/8, $0x0000000000000000
DATA compressidx<>+280(SB)/8, $0x0000000000000000
DATA compressidx<>+288(SB)/8, $0x0000000100000000
DATA compressidx<>+296(SB)/8, $0x0000000700000006
DATA compressidx<>+304(SB)/8, $0x0000000000000000
DATA compressidx<>+312(SB)/8, $0x0000000000000000
DATA compressidx<>+320(SB)/8, $0x0000000300000002
DATA compressidx<>+328(SB)/8, $0x0000000700000006
DATA compressidx<>+336(SB)/8, $0x0000000000000000
DATA compressidx<>+344(SB)/8, $0x0000000000000000
DATA compressidx<>+352(SB)/8, $0x0000000100000000
DATA compressidx<>+360(SB)/8, $0x0000000300000002
DATA compressidx<>+368(SB)/8, $0x0000000700000006
DATA compressidx<>+376(SB)/8, $0x0000000000000000
DATA compressidx<>+384(SB)/8, $0x0000000500000004
DATA compressidx<>+392(SB)/8, $0x0000000700000006
DATA compressidx<>+400(SB)/8, $0x0000000000000000
DATA compressidx<>+408(SB)/8, $0x0000000000000000
DATA compressidx<>+416(SB)/8, $0x0000000100000000
DATA compressidx<>+424(SB)/8, $0x0000000500000004
DATA compressidx<>+432(SB)/8, $0x0000000700000006
DATA compressidx<>+440(SB)/8, $0x0000000000000000
DATA compressidx<>+448(SB)/8, $0x0000000300000002
DATA compressidx<>+456(SB)/8, $0x0000000500000004
DATA compressidx<>+464(SB)/8, $0x0000000700000006
DATA compressidx<>+472(SB)/8, $0x0000000000000000
DATA compressidx<>+480(SB)/8, $0x0000000100000000
DATA compressidx<>+488(SB)/8, $0x0000000300000002
DATA compressidx<>+496(SB)/8, $0x0000000500000004
DATA compressidx<>+504(SB)/8, $0x0000000700000006
GLOBL compressidx<>(SB), RODATA, $512

// MAXF64 is the bit pattern of math.MaxFloat64.
#define MAXF64 $0x7fefffffffffffff

// func bracketRow(x *float64, n int, lo, hi float64, mid *float64) (below int, maxBelow float64, cnt int, valid int)
//
// For the n values x[i] (n a positive multiple of 4): below counts those
// < lo and maxBelow is their maximum (+0 if none); those in [lo, hi] are
// stored to mid[0:cnt] in order (mid must have room for cnt+4 values);
// valid is 1 if every value is in [0, MaxFloat64] (comparisons as floats,
// so -0 passes and NaN fails), 0 otherwise.
// Y0 = lo, Y1 = hi, Y2 = 0, Y3 = MaxFloat64, Y4 = count below (int64
// lanes), Y5 = maximum below, Y6 = all valid so far (mask).
TEXT ·bracketRow(SB), NOSPLIT, $0-72
	MOVQ         x+0(FP), SI
	MOVQ         n+8(FP), CX
	VBROADCASTSD lo+16(FP), Y0
	VBROADCASTSD hi+24(FP), Y1
	MOVQ         mid+32(FP), DI
	VXORPD       Y2, Y2, Y2
	MOVQ         MAXF64, AX
	MOVQ         AX, X3
	VBROADCASTSD X3, Y3
	VPXOR        Y4, Y4, Y4
	VXORPD       Y5, Y5, Y5
	VPCMPEQQ     Y6, Y6, Y6
	XORQ         DX, DX                 // cnt
	LEAQ         compressidx<>(SB), R9

brloop:
	VMOVUPD  0(SI), Y7
	VCMPPD   $0x1d, Y2, Y7, Y8          // x >= 0
	VCMPPD   $0x12, Y3, Y7, Y9          // x <= MaxFloat64
	VANDPD   Y8, Y6, Y6
	VANDPD   Y9, Y6, Y6
	VCMPPD   $0x11, Y0, Y7, Y10         // x < lo
	VPSUBQ   Y10, Y4, Y4                // count: lanes of -1
	VANDPD   Y7, Y10, Y11               // x where below, else +0
	VMAXPD   Y11, Y5, Y5
	VCMPPD   $0x12, Y1, Y7, Y12         // x <= hi
	VANDNPD  Y12, Y10, Y12              // and not below
	VMOVMSKPD Y12, AX
	MOVQ     AX, BX
	SHLQ     $5, BX
	VMOVDQU  0(R9)(BX*1), Y13
	VPERMPS  Y7, Y13, Y14
	VMOVUPD  Y14, 0(DI)(DX*8)
	POPCNTQ  AX, AX
	ADDQ     AX, DX
	ADDQ     $32, SI
	SUBQ     $4, CX
	JNZ      brloop

	// Horizontal sum of the counts, maximum of the maxima.
	VEXTRACTI128 $1, Y4, X7
	VPADDQ       X7, X4, X4
	VPSHUFD      $0x4e, X4, X7
	VPADDQ       X7, X4, X4
	MOVQ         X4, AX
	MOVQ         AX, below+40(FP)
	VEXTRACTF128 $1, Y5, X7
	VMAXPD       X7, X5, X5
	VPERMILPD    $1, X5, X7
	VMAXPD       X7, X5, X5
	MOVSD        X5, maxBelow+48(FP)
	MOVQ         DX, cnt+56(FP)
	VMOVMSKPD    Y6, AX
	XORQ         BX, BX
	CMPQ         AX, $15
	SETEQ        BX
	MOVQ         BX, valid+64(FP)
	VZEROUPPER
	RET

// func allDistances(x *float64, n int) bool
//
// allDistances reports whether the n values x[i] (n a positive multiple of
// 4) all lie in [0, MaxFloat64] as floats (-0 passes, NaN fails).
TEXT ·allDistances(SB), NOSPLIT, $0-17
	MOVQ     x+0(FP), SI
	MOVQ     n+8(FP), CX
	VXORPD   Y2, Y2, Y2
	MOVQ     MAXF64, AX
	MOVQ     AX, X3
	VBROADCASTSD X3, Y3
	VPCMPEQQ Y6, Y6, Y6
	VPCMPEQQ Y7, Y7, Y7

adloop:
	VMOVUPD 0(SI), Y8
	VCMPPD  $0x1d, Y2, Y8, Y9
	VCMPPD  $0x12, Y3, Y8, Y10
	VANDPD  Y9, Y6, Y6
	VANDPD  Y10, Y7, Y7
	ADDQ    $32, SI
	SUBQ    $4, CX
	JNZ     adloop

	VANDPD    Y7, Y6, Y6
	VMOVMSKPD Y6, AX
	CMPQ      AX, $15
	SETEQ     ret+16(FP)
	VZEROUPPER
	RET
