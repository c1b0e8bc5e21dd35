//go:build amd64 && !noasm

#include "textflag.h"

// func maternArgsAVX512(a, o, u2 *float64, n int, c float64)
// a = √u2·c, o = −a, 8 lanes at a time (n a multiple of 8).
TEXT ·maternArgsAVX512(SB), NOSPLIT, $0-40
	MOVQ         a+0(FP), DI
	MOVQ         o+8(FP), SI
	MOVQ         u2+16(FP), DX
	MOVQ         n+24(FP), CX
	VBROADCASTSD c+32(FP), Z1
	MOVQ         $0x8000000000000000, AX
	VPBROADCASTQ AX, Z3              // the sign bit: −a flips it, as Go's negation

args:
	VSQRTPD (DX), Z0
	VMULPD  Z1, Z0, Z0
	VMOVUPD Z0, (DI)
	VXORPD  Z3, Z0, Z2
	VMOVUPD Z2, (SI)
	ADDQ    $64, DI
	ADDQ    $64, SI
	ADDQ    $64, DX
	SUBQ    $8, CX
	JNZ     args
	VZEROUPPER
	RET

// func maternPolyAVX512(o, a *float64, n int, q1, q2 float64)
// o = o·(fma(a·q2, a, a·q1) + 1) where o ≠ 0 (unordered counts as ≠, as
// Go's !=), 8 lanes at a time (n a multiple of 8).
TEXT ·maternPolyAVX512(SB), NOSPLIT, $0-40
	MOVQ         o+0(FP), DI
	MOVQ         a+8(FP), SI
	MOVQ         n+16(FP), CX
	VBROADCASTSD q1+24(FP), Z4
	VBROADCASTSD q2+32(FP), Z5
	MOVQ         $0x3ff0000000000000, AX
	VPBROADCASTQ AX, Z6              // 1.0
	VPXORQ       Z7, Z7, Z7          // 0.0

poly:
	VMOVUPD     (SI), Z0             // a
	VMOVUPD     (DI), Z1             // o
	VMULPD      Z5, Z0, Z2           // a·q2
	VMULPD      Z4, Z0, Z3           // a·q1
	VFMADD213PD Z3, Z0, Z2           // Z2 = Z2·a + a·q1, one rounding
	VADDPD      Z6, Z2, Z2           // + 1
	VCMPPD      $4, Z7, Z1, K1       // o ≠ 0 (NEQ_UQ)
	VMULPD      Z1, Z2, K1, Z1       // p·o in those lanes (a NaN from p first, as Go's o *= p), o elsewhere
	VMOVUPD     Z1, (DI)
	ADDQ        $64, DI
	ADDQ        $64, SI
	SUBQ        $8, CX
	JNZ         poly
	VZEROUPPER
	RET
