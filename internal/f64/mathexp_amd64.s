//go:build amd64 && !noasm

#include "textflag.h"

// math.Exp's amd64 FMA path (the standard library's exp_amd64.s, label
// avxfma) on 8 lanes; see mathexp.go. Constant table (R15), 64 bytes per
// constant:
//   0 LOG2E, 64 LN2U, 128 LN2L, 192 0.0625, 256 … 640 the Taylor
//   coefficients 1/8! … 1/2!, 704 1.0, 768 2.0, 832 Overflow, 896 |x|
//   mask, 960 +Inf, 1024 −Inf, 1088 int 0x3FF, 1152 int 0x7FF, 1216 int
//   −52, 1280 int 0x3FE, 1344 2^−1022, 1408 zero.
//
// Registers: Z0 x, Z1 the scalar code's X0, Z2 its X1, Y3 its BX (int32),
// Z4 BX + 0x3FF (int64), Z5–Z7 temporaries, Z8 the result, Z9 +Inf,
// Z10 zero.

// func mathExpAVX512(dst, x *float64, n int, consts *float64)
TEXT ·mathExpAVX512(SB), NOSPLIT, $0-32
	MOVQ    dst+0(FP), DI
	MOVQ    x+8(FP), SI
	MOVQ    n+16(FP), CX
	MOVQ    consts+24(FP), R15
	VMOVUPD 960(R15), Z9
	VPXORQ  Z10, Z10, Z10

mexploop:
	VMOVUPD (SI), Z0

	// BX = int32(round(LOG2E·x)), X1 = float64(BX)
	VMULPD    0(R15), Z0, Z2
	VCVTPD2DQ Z2, Y3
	VCVTDQ2PD Y3, Z2

	// X0 = x − X1·LN2U − X1·LN2L (fused), then X0 /= 16
	VMOVAPD      Z0, Z1
	VFNMADD231PD 64(R15), Z2, Z1
	VFNMADD231PD 128(R15), Z2, Z1
	VMULPD       192(R15), Z1, Z1

	// Taylor series: X1 = ((c8·X0 + c7)·X0 + …)·X0 + 1, X0 *= X1
	VMOVUPD     256(R15), Z2
	VFMADD213PD 320(R15), Z1, Z2
	VFMADD213PD 384(R15), Z1, Z2
	VFMADD213PD 448(R15), Z1, Z2
	VFMADD213PD 512(R15), Z1, Z2
	VFMADD213PD 576(R15), Z1, Z2
	VFMADD213PD 640(R15), Z1, Z2
	VFMADD213PD 704(R15), Z1, Z2
	VMULPD      Z2, Z1, Z1

	// four squarings of (1 + X0): X0 = X0·(X0 + 2), three times, then
	// X0 = X0·(X0 + 2) + 1 fused
	VADDPD      768(R15), Z1, Z2
	VMULPD      Z2, Z1, Z1
	VADDPD      768(R15), Z1, Z2
	VMULPD      Z2, Z1, Z1
	VADDPD      768(R15), Z1, Z2
	VMULPD      Z2, Z1, Z1
	VADDPD      768(R15), Z1, Z2
	VFMADD213PD 704(R15), Z2, Z1

	// ldexp: b = BX + 0x3FF; b > 0: X0·2^(b−1023); −52 ≤ b ≤ 0:
	// X0·2^(b+0x3FE−1023)·2^−1022; b < −52: 0; b ≥ 0x7FF: +Inf.
	VPMOVSXDQ Y3, Z4
	VPADDQ    1088(R15), Z4, Z4
	VMOVAPD   Z10, Z8
	VPADDQ    1280(R15), Z4, Z5
	VPSLLQ    $52, Z5, Z5
	VMULPD    Z5, Z1, Z7
	VMULPD    1344(R15), Z7, Z7
	VPCMPQ    $5, 1216(R15), Z4, K1
	VMOVAPD   Z7, K1, Z8
	VPSLLQ    $52, Z4, Z5
	VMULPD    Z5, Z1, Z6
	VPCMPQ    $6, 1408(R15), Z4, K2
	VMOVAPD   Z6, K2, Z8
	VPCMPQ    $5, 1152(R15), Z4, K3
	VMOVAPD   Z9, K3, Z8

	// x > Overflow: +Inf; x not finite: x, but 0 for −Inf
	VCMPPD  $0x1e, 832(R15), Z0, K4
	VMOVAPD Z9, K4, Z8
	VPANDQ  896(R15), Z0, Z5
	VPCMPQ  $5, 960(R15), Z5, K5
	VMOVAPD Z0, K5, Z8
	VPCMPQ  $0, 1024(R15), Z0, K6
	VMOVAPD Z10, K6, Z8

	VMOVUPD Z8, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $8, CX
	JNZ     mexploop
	VZEROUPPER
	RET
