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

// math.Exp's amd64 FMA path on 4 lanes, for AVX2 and FMA: the operations
// of mathExpAVX512 above, on the first 32 bytes of each constant, with
// its masked moves as VPCMPGTQ/VCMPPD/VPCMPEQQ masks and VBLENDVPD in the
// same order (a "not less than" mask as the complement's blend).
//
// Registers: Y0 x, Y1 the scalar code's X0, Y2 its X1, X3 its BX
// (int32), Y4 BX + 0x3FF (int64), Y5–Y7 temporaries, Y8 the result, Y9
// +Inf, Y10 zero, Y11 a mask, Y12 a constant.

// func mathExpAVX2(dst, x *float64, n int, consts *float64)
TEXT ·mathExpAVX2(SB), NOSPLIT, $0-32
	MOVQ    dst+0(FP), DI
	MOVQ    x+8(FP), SI
	MOVQ    n+16(FP), CX
	MOVQ    consts+24(FP), R15
	VMOVUPD 960(R15), Y9
	VPXOR   Y10, Y10, Y10

mexp2loop:
	VMOVUPD (SI), Y0

	// BX = int32(round(LOG2E·x)), X1 = float64(BX)
	VMULPD     0(R15), Y0, Y2
	VCVTPD2DQY Y2, X3
	VCVTDQ2PD  X3, Y2

	// X0 = x − X1·LN2U − X1·LN2L (fused), then X0 /= 16
	VMOVAPD      Y0, Y1
	VFNMADD231PD 64(R15), Y2, Y1
	VFNMADD231PD 128(R15), Y2, Y1
	VMULPD       192(R15), Y1, Y1

	// Taylor series: X1 = ((c8·X0 + c7)·X0 + …)·X0 + 1, X0 *= X1
	VMOVUPD     256(R15), Y2
	VFMADD213PD 320(R15), Y1, Y2
	VFMADD213PD 384(R15), Y1, Y2
	VFMADD213PD 448(R15), Y1, Y2
	VFMADD213PD 512(R15), Y1, Y2
	VFMADD213PD 576(R15), Y1, Y2
	VFMADD213PD 640(R15), Y1, Y2
	VFMADD213PD 704(R15), Y1, Y2
	VMULPD      Y2, Y1, Y1

	// four squarings of (1 + X0): X0 = X0·(X0 + 2), three times, then
	// X0 = X0·(X0 + 2) + 1 fused
	VADDPD      768(R15), Y1, Y2
	VMULPD      Y2, Y1, Y1
	VADDPD      768(R15), Y1, Y2
	VMULPD      Y2, Y1, Y1
	VADDPD      768(R15), Y1, Y2
	VMULPD      Y2, Y1, Y1
	VADDPD      768(R15), Y1, Y2
	VFMADD213PD 704(R15), Y2, Y1

	// ldexp: b = BX + 0x3FF; b > 0: X0·2^(b−1023); −52 ≤ b ≤ 0:
	// X0·2^(b+0x3FE−1023)·2^−1022; b < −52: 0; b ≥ 0x7FF: +Inf.
	VPMOVSXDQ X3, Y4
	VPADDQ    1088(R15), Y4, Y4
	VMOVAPD   Y10, Y8
	VPADDQ    1280(R15), Y4, Y5
	VPSLLQ    $52, Y5, Y5
	VMULPD    Y5, Y1, Y7
	VMULPD    1344(R15), Y7, Y7
	VMOVDQU   1216(R15), Y12
	VPCMPGTQ  Y4, Y12, Y11      // −52 > b: keep
	VBLENDVPD Y11, Y8, Y7, Y8
	VPSLLQ    $52, Y4, Y5
	VMULPD    Y5, Y1, Y6
	VPCMPGTQ  Y10, Y4, Y11      // b > 0
	VBLENDVPD Y11, Y6, Y8, Y8
	VMOVDQU   1152(R15), Y12
	VPCMPGTQ  Y4, Y12, Y11      // 0x7FF > b: keep
	VBLENDVPD Y11, Y8, Y9, Y8

	// x > Overflow: +Inf; x not finite: x, but 0 for −Inf
	VCMPPD    $0x1e, 832(R15), Y0, Y11
	VBLENDVPD Y11, Y9, Y8, Y8
	VPAND     896(R15), Y0, Y5
	VPCMPGTQ  Y5, Y9, Y11       // +Inf > |x| (as integers): keep
	VBLENDVPD Y11, Y8, Y0, Y8
	VPCMPEQQ  1024(R15), Y0, Y11
	VBLENDVPD Y11, Y10, Y8, Y8

	VMOVUPD Y8, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $4, CX
	JNZ     mexp2loop
	VZEROUPPER
	RET
