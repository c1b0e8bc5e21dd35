//go:build amd64 && !noasm

#include "textflag.h"

// func scaledDiffSumAVX512(dst, x *float64, d int, orb, c *float64, n int)
TEXT ·scaledDiffSumAVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ d+16(FP), CX
	MOVQ orb+24(FP), R8
	MOVQ c+32(FP), DX
	MOVQ n+40(FP), BX

	// K1: the low min(d, 8) lanes, K2: the next max(d − 8, 0).
	MOVQ     $1, AX
	SHLQ     CX, AX
	DECQ     AX
	KMOVW    AX, K1
	KSHIFTRW $8, K1, K2

	VMOVUPD.Z (SI), K1, Z2
	VMOVUPD.Z 64(SI), K2, Z3
	VPXORQ    Z0, Z0, Z0
	VPXORQ    Z1, Z1, Z1
	SHLQ      $3, CX         // the orbit's row stride in bytes

loop:
	TESTQ        BX, BX
	JZ           done
	VBROADCASTSD (DX), Z4
	VMOVUPD.Z    (R8), K1, Z5
	VMOVUPD.Z    64(R8), K2, Z6
	VSUBPD       Z5, Z2, Z5
	VSUBPD       Z6, Z3, Z6
	VMULPD       Z5, Z4, Z5
	VMULPD       Z6, Z4, Z6
	VADDPD       Z5, Z0, Z0
	VADDPD       Z6, Z1, Z1
	ADDQ         CX, R8
	ADDQ         $8, DX
	DECQ         BX
	JMP          loop

done:
	VMOVUPD Z0, K1, (DI)
	VMOVUPD Z1, K2, 64(DI)
	VZEROUPPER
	RET
