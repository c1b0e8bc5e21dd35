//go:build amd64 && !noasm

#include "textflag.h"

// func packPanelAVX2(dst, src *float64, ld, k, w int, alpha float64)
// For each of k rows: w/4 groups of four, dst = alpha·src (VMULPD, one
// rounding as alpha*v in Go); rows of 24, 12 and 8 go in one pass.
TEXT ·packPanelAVX2(SB), NOSPLIT, $0-48
	MOVQ         dst+0(FP), DI
	MOVQ         src+8(FP), SI
	MOVQ         ld+16(FP), R8
	SHLQ         $3, R8
	MOVQ         k+24(FP), CX
	MOVQ         w+32(FP), R9
	VBROADCASTSD alpha+40(FP), Y15
	CMPQ         R9, $24
	JEQ          w24
	CMPQ         R9, $12
	JEQ          w12
	CMPQ         R9, $8
	JEQ          w8

rowany:
	MOVQ R9, DX
	MOVQ SI, R10

colany:
	VMULPD  (R10), Y15, Y0
	VMOVUPD Y0, (DI)
	ADDQ    $32, R10
	ADDQ    $32, DI
	SUBQ    $4, DX
	JNZ     colany
	ADDQ    R8, SI
	DECQ    CX
	JNZ     rowany
	VZEROUPPER
	RET

w24:
	VMULPD  (SI), Y15, Y0
	VMULPD  32(SI), Y15, Y1
	VMULPD  64(SI), Y15, Y2
	VMULPD  96(SI), Y15, Y3
	VMULPD  128(SI), Y15, Y4
	VMULPD  160(SI), Y15, Y5
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	ADDQ    R8, SI
	ADDQ    $192, DI
	DECQ    CX
	JNZ     w24
	VZEROUPPER
	RET

w12:
	VMULPD  (SI), Y15, Y0
	VMULPD  32(SI), Y15, Y1
	VMULPD  64(SI), Y15, Y2
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	ADDQ    R8, SI
	ADDQ    $96, DI
	DECQ    CX
	JNZ     w12
	VZEROUPPER
	RET

w8:
	VMULPD  (SI), Y15, Y0
	VMULPD  32(SI), Y15, Y1
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	ADDQ    R8, SI
	ADDQ    $64, DI
	DECQ    CX
	JNZ     w8
	VZEROUPPER
	RET
