//go:build amd64 && !noasm

#include "textflag.h"

// Constant table (R15), 64 bytes per constant:
//   0 magic 1.5·2⁵², 64 log₂e, 128 −ln2hi, 192 −ln2lo, 256 −746, 320 710,
//   384 … 1216 Horner coefficients 1/13! … 1/0!, 1280 int 2048,
//   1344 int 2047, 1408 int 1, 1472 0.0, 1536 sign bit, 1600 −0.5.

// EXP computes A = Exp(A) (see exp.go) with temporaries N, V, P. R is the
// macro works for zmm and ymm operands alike.
#define EXP(A, N, V, P) \
	VMOVUPD     256(R15), V \
	VMAXPD      A, V, A \
	VMOVUPD     320(R15), V \
	VMINPD      A, V, A \
	VMOVUPD     0(R15), V \
	VFMADD231PD 64(R15), A, V \
	VSUBPD      0(R15), V, N \
	VFMADD231PD 128(R15), N, A \
	VFMADD231PD 192(R15), N, A \
	VMOVUPD     384(R15), P \
	VFMADD213PD 448(R15), A, P \
	VFMADD213PD 512(R15), A, P \
	VFMADD213PD 576(R15), A, P \
	VFMADD213PD 640(R15), A, P \
	VFMADD213PD 704(R15), A, P \
	VFMADD213PD 768(R15), A, P \
	VFMADD213PD 832(R15), A, P \
	VFMADD213PD 896(R15), A, P \
	VFMADD213PD 960(R15), A, P \
	VFMADD213PD 1024(R15), A, P \
	VFMADD213PD 1088(R15), A, P \
	VFMADD213PD 1152(R15), A, P \
	VFMADD213PD 1216(R15), A, P \
	VPSUBQ      0(R15), V, V \
	VPADDQ      1280(R15), V, N \
	VPSRLQ      $1, N, N \
	VPADDQ      1344(R15), V, V \
	VPSUBQ      N, V, V \
	VPSLLQ      $52, V, V \
	VPSUBQ      1408(R15), N, N \
	VPSLLQ      $52, N, N \
	VMULPD      N, P, P \
	VMULPD      V, P, A

// func expAVX512(dst, x *float64, n int, consts *float64)
TEXT ·expAVX512(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ consts+24(FP), R15

exp512loop:
	VMOVUPD (SI), Z0
	EXP(Z0, Z1, Z2, Z3)
	VMOVUPD Z0, (DI)
	ADDQ    $64, SI
	ADDQ    $64, DI
	SUBQ    $8, CX
	JNZ     exp512loop
	VZEROUPPER
	RET

// func expAVX2(dst, x *float64, n int, consts *float64)
TEXT ·expAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ consts+24(FP), R15

exp2loop:
	VMOVUPD (SI), Y0
	EXP(Y0, Y1, Y2, Y3)
	VMOVUPD Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	SUBQ    $4, CX
	JNZ     exp2loop
	VZEROUPPER
	RET

// Registers of sumKappa (zmm; the AVX2 version uses ymm pairs):
//   DI acc, SI x, R9 d, AX group pointer, CX groups left, R11 groups left
//   in the block, R8 ks (bytes), DX adv, R15 consts, BX rbf flag,
//   R10 orbit walk, R13 x walk, R12 k counter.
//   Z7 acc, Z8 nxy, Z9 inv2, Z10 zero, Z11 c, Z12 q1, Z13 q2.

// func sumKappaAVX512(acc *[8]float64, x *float64, d int, orb *float64, n, per, ks, adv int, params *[5]float64, rbf int, consts *float64)
TEXT ·sumKappaAVX512(SB), NOSPLIT, $0-88
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ d+16(FP), R9
	MOVQ orb+24(FP), AX
	MOVQ n+32(FP), CX
	MOVQ per+40(FP), R11
	MOVQ ks+48(FP), R8
	MOVQ adv+56(FP), DX
	MOVQ params+64(FP), R14
	MOVQ rbf+72(FP), BX
	MOVQ consts+80(FP), R15
	VMOVUPD      (DI), Z7
	VBROADCASTSD 0(R14), Z8
	VBROADCASTSD 8(R14), Z9
	VMOVUPD      1472(R15), Z10
	VBROADCASTSD 16(R14), Z11
	VBROADCASTSD 24(R14), Z12
	VBROADCASTSD 32(R14), Z13

sk512group:
	// s = x₀·o₀ + Σ x_k·o_k (separate roundings)
	MOVQ         AX, R10
	MOVQ         SI, R13
	VBROADCASTSD (R13), Z1
	VMULPD       (R10), Z1, Z0
	MOVQ         R9, R12
	DECQ         R12
	JZ           sk512dot

sk512k:
	ADDQ         R8, R10
	ADDQ         $8, R13
	VBROADCASTSD (R13), Z1
	VMULPD       (R10), Z1, Z2
	VADDPD       Z2, Z0, Z0
	DECQ         R12
	JNZ          sk512k

sk512dot:
	VADDPD Z0, Z0, Z0
	VSUBPD Z0, Z8, Z0
	VMAXPD Z10, Z0, Z0
	VMULPD Z9, Z0, Z0
	TESTQ  BX, BX
	JZ     sk512matern
	VMULPD 1600(R15), Z0, Z3
	EXP(Z3, Z4, Z5, Z6)
	JMP    sk512add

sk512matern:
	VSQRTPD Z0, Z0
	VMULPD  Z11, Z0, Z0
	VXORPD  1536(R15), Z0, Z3
	EXP(Z3, Z4, Z5, Z6)
	VMULPD      Z13, Z0, Z6
	VMULPD      Z12, Z0, Z5
	VFMADD213PD Z5, Z0, Z6
	VADDPD      1216(R15), Z6, Z6
	VMULPD      Z3, Z6, Z3

sk512add:
	VADDPD Z3, Z7, Z7
	ADDQ   $64, AX
	DECQ   R11
	JNZ    sk512next
	MOVQ   per+40(FP), R11
	ADDQ   DX, AX

sk512next:
	DECQ CX
	JNZ  sk512group
	VMOVUPD Z7, (DI)
	VZEROUPPER
	RET

// HALF2 computes one ymm half (lanes at byte offset off of each row) of a
// group's terms into T, using Y0…Y6 as temporaries; labels lm, la.
#define HALF2(off, T, lm, la, lk, ldot) \
	MOVQ         AX, R10 \
	MOVQ         SI, R13 \
	VBROADCASTSD (R13), Y1 \
	VMULPD       off(R10), Y1, Y0 \
	MOVQ         R9, R12 \
	DECQ         R12 \
	JZ           ldot \
lk: \
	ADDQ         R8, R10 \
	ADDQ         $8, R13 \
	VBROADCASTSD (R13), Y1 \
	VMULPD       off(R10), Y1, Y2 \
	VADDPD       Y2, Y0, Y0 \
	DECQ         R12 \
	JNZ          lk \
ldot: \
	VADDPD Y0, Y0, Y0 \
	VSUBPD Y0, Y8, Y0 \
	VMAXPD Y10, Y0, Y0 \
	VMULPD Y9, Y0, Y0 \
	TESTQ  BX, BX \
	JZ     lm \
	VMULPD 1600(R15), Y0, T \
	EXP(T, Y4, Y5, Y6) \
	JMP    la \
lm: \
	VSQRTPD Y0, Y0 \
	VMULPD  Y11, Y0, Y0 \
	VXORPD  1536(R15), Y0, T \
	EXP(T, Y4, Y5, Y6) \
	VMULPD      Y13, Y0, Y6 \
	VMULPD      Y12, Y0, Y5 \
	VFMADD213PD Y5, Y0, Y6 \
	VADDPD      1216(R15), Y6, Y6 \
	VMULPD      T, Y6, T \
la:

// func sumKappaAVX2(acc *[8]float64, x *float64, d int, orb *float64, n, per, ks, adv int, params *[5]float64, rbf int, consts *float64)
TEXT ·sumKappaAVX2(SB), NOSPLIT, $0-88
	MOVQ acc+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ d+16(FP), R9
	MOVQ orb+24(FP), AX
	MOVQ n+32(FP), CX
	MOVQ per+40(FP), R11
	MOVQ ks+48(FP), R8
	MOVQ adv+56(FP), DX
	MOVQ params+64(FP), R14
	MOVQ rbf+72(FP), BX
	MOVQ consts+80(FP), R15
	VMOVUPD      (DI), Y7
	VMOVUPD      32(DI), Y14
	VBROADCASTSD 0(R14), Y8
	VBROADCASTSD 8(R14), Y9
	VMOVUPD      1472(R15), Y10
	VBROADCASTSD 16(R14), Y11
	VBROADCASTSD 24(R14), Y12
	VBROADCASTSD 32(R14), Y13

sk2group:
	HALF2(0, Y3, sk2mlo, sk2lo, sk2klo, sk2dlo)
	VADDPD Y3, Y7, Y7
	HALF2(32, Y3, sk2mhi, sk2hi, sk2khi, sk2dhi)
	VADDPD Y3, Y14, Y14
	ADDQ   $64, AX
	DECQ   R11
	JNZ    sk2next
	MOVQ   per+40(FP), R11
	ADDQ   DX, AX

sk2next:
	DECQ CX
	JNZ  sk2group
	VMOVUPD Y7, (DI)
	VMOVUPD Y14, 32(DI)
	VZEROUPPER
	RET
