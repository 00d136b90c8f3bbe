//go:build amd64 && !purego

#include "textflag.h"

// expconst holds, four times each: log2(e), -Ln2Hi, -Ln2Lo (the split of
// ln 2 that math.Exp uses, so k Ln2Hi is exact), and the range [-708, 709]
// in which the result is a normal number reached by adding k to the
// exponent of the polynomial value.
DATA expconst<>+0(SB)/8, $0x3ff71547652b82fe
DATA expconst<>+8(SB)/8, $0x3ff71547652b82fe
DATA expconst<>+16(SB)/8, $0x3ff71547652b82fe
DATA expconst<>+24(SB)/8, $0x3ff71547652b82fe
DATA expconst<>+32(SB)/8, $0xbfe62e42fee00000
DATA expconst<>+40(SB)/8, $0xbfe62e42fee00000
DATA expconst<>+48(SB)/8, $0xbfe62e42fee00000
DATA expconst<>+56(SB)/8, $0xbfe62e42fee00000
DATA expconst<>+64(SB)/8, $0xbdea39ef35793c76
DATA expconst<>+72(SB)/8, $0xbdea39ef35793c76
DATA expconst<>+80(SB)/8, $0xbdea39ef35793c76
DATA expconst<>+88(SB)/8, $0xbdea39ef35793c76
DATA expconst<>+96(SB)/8, $0xc086200000000000
DATA expconst<>+104(SB)/8, $0xc086200000000000
DATA expconst<>+112(SB)/8, $0xc086200000000000
DATA expconst<>+120(SB)/8, $0xc086200000000000
DATA expconst<>+128(SB)/8, $0x4086280000000000
DATA expconst<>+136(SB)/8, $0x4086280000000000
DATA expconst<>+144(SB)/8, $0x4086280000000000
DATA expconst<>+152(SB)/8, $0x4086280000000000
GLOBL expconst<>(SB), RODATA|NOPTR, $160

// exptaylor holds 1/k! for k = 13 down to 0, four times each.
DATA exptaylor<>+0(SB)/8, $0x3de6124613a86d09
DATA exptaylor<>+8(SB)/8, $0x3de6124613a86d09
DATA exptaylor<>+16(SB)/8, $0x3de6124613a86d09
DATA exptaylor<>+24(SB)/8, $0x3de6124613a86d09
DATA exptaylor<>+32(SB)/8, $0x3e21eed8eff8d898
DATA exptaylor<>+40(SB)/8, $0x3e21eed8eff8d898
DATA exptaylor<>+48(SB)/8, $0x3e21eed8eff8d898
DATA exptaylor<>+56(SB)/8, $0x3e21eed8eff8d898
DATA exptaylor<>+64(SB)/8, $0x3e5ae64567f544e4
DATA exptaylor<>+72(SB)/8, $0x3e5ae64567f544e4
DATA exptaylor<>+80(SB)/8, $0x3e5ae64567f544e4
DATA exptaylor<>+88(SB)/8, $0x3e5ae64567f544e4
DATA exptaylor<>+96(SB)/8, $0x3e927e4fb7789f5c
DATA exptaylor<>+104(SB)/8, $0x3e927e4fb7789f5c
DATA exptaylor<>+112(SB)/8, $0x3e927e4fb7789f5c
DATA exptaylor<>+120(SB)/8, $0x3e927e4fb7789f5c
DATA exptaylor<>+128(SB)/8, $0x3ec71de3a556c734
DATA exptaylor<>+136(SB)/8, $0x3ec71de3a556c734
DATA exptaylor<>+144(SB)/8, $0x3ec71de3a556c734
DATA exptaylor<>+152(SB)/8, $0x3ec71de3a556c734
DATA exptaylor<>+160(SB)/8, $0x3efa01a01a01a01a
DATA exptaylor<>+168(SB)/8, $0x3efa01a01a01a01a
DATA exptaylor<>+176(SB)/8, $0x3efa01a01a01a01a
DATA exptaylor<>+184(SB)/8, $0x3efa01a01a01a01a
DATA exptaylor<>+192(SB)/8, $0x3f2a01a01a01a01a
DATA exptaylor<>+200(SB)/8, $0x3f2a01a01a01a01a
DATA exptaylor<>+208(SB)/8, $0x3f2a01a01a01a01a
DATA exptaylor<>+216(SB)/8, $0x3f2a01a01a01a01a
DATA exptaylor<>+224(SB)/8, $0x3f56c16c16c16c17
DATA exptaylor<>+232(SB)/8, $0x3f56c16c16c16c17
DATA exptaylor<>+240(SB)/8, $0x3f56c16c16c16c17
DATA exptaylor<>+248(SB)/8, $0x3f56c16c16c16c17
DATA exptaylor<>+256(SB)/8, $0x3f81111111111111
DATA exptaylor<>+264(SB)/8, $0x3f81111111111111
DATA exptaylor<>+272(SB)/8, $0x3f81111111111111
DATA exptaylor<>+280(SB)/8, $0x3f81111111111111
DATA exptaylor<>+288(SB)/8, $0x3fa5555555555555
DATA exptaylor<>+296(SB)/8, $0x3fa5555555555555
DATA exptaylor<>+304(SB)/8, $0x3fa5555555555555
DATA exptaylor<>+312(SB)/8, $0x3fa5555555555555
DATA exptaylor<>+320(SB)/8, $0x3fc5555555555555
DATA exptaylor<>+328(SB)/8, $0x3fc5555555555555
DATA exptaylor<>+336(SB)/8, $0x3fc5555555555555
DATA exptaylor<>+344(SB)/8, $0x3fc5555555555555
DATA exptaylor<>+352(SB)/8, $0x3fe0000000000000
DATA exptaylor<>+360(SB)/8, $0x3fe0000000000000
DATA exptaylor<>+368(SB)/8, $0x3fe0000000000000
DATA exptaylor<>+376(SB)/8, $0x3fe0000000000000
DATA exptaylor<>+384(SB)/8, $0x3ff0000000000000
DATA exptaylor<>+392(SB)/8, $0x3ff0000000000000
DATA exptaylor<>+400(SB)/8, $0x3ff0000000000000
DATA exptaylor<>+408(SB)/8, $0x3ff0000000000000
DATA exptaylor<>+416(SB)/8, $0x3ff0000000000000
DATA exptaylor<>+424(SB)/8, $0x3ff0000000000000
DATA exptaylor<>+432(SB)/8, $0x3ff0000000000000
DATA exptaylor<>+440(SB)/8, $0x3ff0000000000000
GLOBL exptaylor<>(SB), RODATA|NOPTR, $448

// func expScaledAVX2(dst, src *float64, n int, s float64) int
//
// dst[i] = exp(s src[i]) for i < n (n a multiple of 4), four at a time:
// x = s src[i] is split as k ln 2 + r with k = round(x log2(e)) and
// |r| <= ln(2)/2 (Cody-Waite, with FMA), exp(r) is the Taylor polynomial of
// degree 13 (truncation below 5e-18 relative) by Horner's rule with FMA,
// and k is added to the exponent. It stops before the first group of four
// with an x outside [-708, 709] (or NaN), which the caller evaluates with
// math.Exp, and returns the number of entries done. dst may be src.
TEXT ·expScaledAVX2(SB), NOSPLIT, $0-40
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD s+24(FP), Y15
	XORQ         AX, AX
	CMPQ         AX, CX
	JGE          expdone

exploop:
	VMULPD   (SI)(AX*8), Y15, Y0 // x
	// Range check: stop at any x with !(x >= -708) or !(x <= 709).
	VCMPPD   $0x09, expconst<>+96(SB), Y0, Y1
	VCMPPD   $0x06, expconst<>+128(SB), Y0, Y2
	VORPD    Y2, Y1, Y1
	VMOVMSKPD Y1, BX
	TESTQ    BX, BX
	JNZ      expdone
	VMULPD   expconst<>+0(SB), Y0, Y3
	VROUNDPD $0, Y3, Y3 // k, to nearest
	VMOVAPD  Y0, Y4
	VFMADD231PD expconst<>+32(SB), Y3, Y4 // r = x - k Ln2Hi (exact)
	VFMADD231PD expconst<>+64(SB), Y3, Y4 // r -= k Ln2Lo
	VMOVUPD  exptaylor<>+0(SB), Y5
	VFMADD213PD exptaylor<>+32(SB), Y4, Y5
	VFMADD213PD exptaylor<>+64(SB), Y4, Y5
	VFMADD213PD exptaylor<>+96(SB), Y4, Y5
	VFMADD213PD exptaylor<>+128(SB), Y4, Y5
	VFMADD213PD exptaylor<>+160(SB), Y4, Y5
	VFMADD213PD exptaylor<>+192(SB), Y4, Y5
	VFMADD213PD exptaylor<>+224(SB), Y4, Y5
	VFMADD213PD exptaylor<>+256(SB), Y4, Y5
	VFMADD213PD exptaylor<>+288(SB), Y4, Y5
	VFMADD213PD exptaylor<>+320(SB), Y4, Y5
	VFMADD213PD exptaylor<>+352(SB), Y4, Y5
	VFMADD213PD exptaylor<>+384(SB), Y4, Y5
	VFMADD213PD exptaylor<>+416(SB), Y4, Y5
	VCVTPD2DQY Y3, X6
	VPMOVSXDQ  X6, Y6
	VPSLLQ     $52, Y6, Y6
	VPADDQ     Y6, Y5, Y5 // times 2^k
	VMOVUPD    Y5, (DI)(AX*8)
	ADDQ       $4, AX
	CMPQ       AX, CX
	JLT        exploop

expdone:
	MOVQ AX, ret+32(FP)
	VZEROUPPER
	RET
