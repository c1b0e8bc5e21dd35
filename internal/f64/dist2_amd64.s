//go:build amd64 && !noasm

#include "textflag.h"

// Register use: DI dst, SI x, R9 d, AX orbit pointer, BX wide blocks
// left, CX narrow blocks left, R13 x pointer at k, R12 coordinates left.

// func dist2AVX512(dst, x *float64, d int, orb *float64, nw, nt int)
TEXT ·dist2AVX512(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ x+8(FP), SI
	MOVQ d+16(FP), R9
	MOVQ orb+24(FP), AX
	MOVQ nw+32(FP), BX
	MOVQ nt+40(FP), CX

wide:
	TESTQ  BX, BX
	JZ     narrow
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	MOVQ   SI, R13
	MOVQ   R9, R12

widek:
	VBROADCASTSD (R13), Z4
	VSUBPD       0(AX), Z4, Z5
	VSUBPD       64(AX), Z4, Z6
	VSUBPD       128(AX), Z4, Z7
	VSUBPD       192(AX), Z4, Z8
	VMULPD       Z5, Z5, Z5
	VMULPD       Z6, Z6, Z6
	VMULPD       Z7, Z7, Z7
	VMULPD       Z8, Z8, Z8
	VADDPD       Z5, Z0, Z0
	VADDPD       Z6, Z1, Z1
	VADDPD       Z7, Z2, Z2
	VADDPD       Z8, Z3, Z3
	ADDQ         $256, AX
	ADDQ         $8, R13
	DECQ         R12
	JNZ          widek
	VMOVUPD      Z0, 0(DI)
	VMOVUPD      Z1, 64(DI)
	VMOVUPD      Z2, 128(DI)
	VMOVUPD      Z3, 192(DI)
	ADDQ         $256, DI
	DECQ         BX
	JMP          wide

narrow:
	TESTQ  CX, CX
	JZ     done
	VXORPD Z0, Z0, Z0
	MOVQ   SI, R13
	MOVQ   R9, R12

narrowk:
	VBROADCASTSD (R13), Z4
	VSUBPD       0(AX), Z4, Z5
	VMULPD       Z5, Z5, Z5
	VADDPD       Z5, Z0, Z0
	ADDQ         $64, AX
	ADDQ         $8, R13
	DECQ         R12
	JNZ          narrowk
	VMOVUPD      Z0, 0(DI)
	ADDQ         $64, DI
	DECQ         CX
	JMP          narrow

done:
	VZEROUPPER
	RET
