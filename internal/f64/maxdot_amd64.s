//go:build amd64 && !noasm

#include "textflag.h"

// Register use (both functions):
//   DI best, CX rows left, SI x tile, R8 row stride (bytes), R14 3·R8,
//   R9 d, AX orbit pointer, BX block counter, R13 x pointer at k,
//   R12 k counter, R10 sub-block pointer, R11 sub-block counter (AVX2).

// MUL4 starts a row's four accumulators: acc = bcast(x) · o.
#define MUL4(src, a0, a1, a2, a3) \
	VBROADCASTSD src, Z4 \
	VMULPD       Z0, Z4, a0 \
	VMULPD       Z1, Z4, a1 \
	VMULPD       Z2, Z4, a2 \
	VMULPD       Z3, Z4, a3

// MADD4 adds a row's four products: acc = acc + bcast(x) · o.
#define MADD4(src, a0, a1, a2, a3) \
	VBROADCASTSD src, Z4 \
	VMULPD       Z0, Z4, Z5 \
	VMULPD       Z1, Z4, Z6 \
	VMULPD       Z2, Z4, Z7 \
	VMULPD       Z3, Z4, Z28 \
	VADDPD       Z5, a0, a0 \
	VADDPD       Z6, a1, a1 \
	VADDPD       Z7, a2, a2 \
	VADDPD       Z28, a3, a3

#define LOAD4 \
	VMOVUPD 0(AX), Z0 \
	VMOVUPD 64(AX), Z1 \
	VMOVUPD 128(AX), Z2 \
	VMOVUPD 192(AX), Z3

#define MAX4(b, a0, a1, a2, a3) \
	VMAXPD a0, a1, Z5 \
	VMAXPD a2, a3, Z6 \
	VMAXPD Z5, b, b \
	VMAXPD Z6, b, b

// HMAX stores the maximum of the lanes of zmm b to dst.
#define HMAX(b, dst) \
	VEXTRACTF64X4 $1, b, Y5 \
	VMOVAPD       b, Z6 \
	VMAXPD        Y5, Y6, Y5 \
	VEXTRACTF128  $1, Y5, X6 \
	VMAXPD        X6, X5, X5 \
	VPERMILPD     $1, X5, X6 \
	VMAXPD        X6, X5, X5 \
	VMOVSD        X5, dst

// func maxDotAVX512(best *float64, n int, x *float64, xs, d int, orb *float64, nw, nt int)
TEXT ·maxDotAVX512(SB), NOSPLIT, $0-64
	MOVQ best+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ x+16(FP), SI
	MOVQ xs+24(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R14
	MOVQ d+32(FP), R9
	MOVQ $0xfff0000000000000, AX
	VPBROADCASTQ AX, Z29         // −Inf

rows512:
	CMPQ CX, $4
	JLT  done512
	VMOVAPD Z29, Z24
	VMOVAPD Z29, Z25
	VMOVAPD Z29, Z26
	VMOVAPD Z29, Z27
	MOVQ orb+40(FP), AX
	MOVQ nw+48(FP), BX

wide512:
	TESTQ BX, BX
	JZ    narrowstart512
	MOVQ  SI, R13
	LOAD4
	MUL4((R13), Z8, Z9, Z10, Z11)
	MUL4((R13)(R8*1), Z12, Z13, Z14, Z15)
	MUL4((R13)(R8*2), Z16, Z17, Z18, Z19)
	MUL4((R13)(R14*1), Z20, Z21, Z22, Z23)
	ADDQ  $256, AX
	ADDQ  $8, R13
	MOVQ  R9, R12
	DECQ  R12
	JZ    widek512done

widek512:
	LOAD4
	MADD4((R13), Z8, Z9, Z10, Z11)
	MADD4((R13)(R8*1), Z12, Z13, Z14, Z15)
	MADD4((R13)(R8*2), Z16, Z17, Z18, Z19)
	MADD4((R13)(R14*1), Z20, Z21, Z22, Z23)
	ADDQ $256, AX
	ADDQ $8, R13
	DECQ R12
	JNZ  widek512

widek512done:
	MAX4(Z24, Z8, Z9, Z10, Z11)
	MAX4(Z25, Z12, Z13, Z14, Z15)
	MAX4(Z26, Z16, Z17, Z18, Z19)
	MAX4(Z27, Z20, Z21, Z22, Z23)
	DECQ BX
	JMP  wide512

narrowstart512:
	MOVQ nt+56(FP), BX

narrow512:
	TESTQ BX, BX
	JZ    store512
	MOVQ  SI, R13
	VMOVUPD (AX), Z0
	VBROADCASTSD (R13), Z4
	VMULPD Z0, Z4, Z8
	VBROADCASTSD (R13)(R8*1), Z4
	VMULPD Z0, Z4, Z12
	VBROADCASTSD (R13)(R8*2), Z4
	VMULPD Z0, Z4, Z16
	VBROADCASTSD (R13)(R14*1), Z4
	VMULPD Z0, Z4, Z20
	ADDQ  $64, AX
	ADDQ  $8, R13
	MOVQ  R9, R12
	DECQ  R12
	JZ    narrowk512done

narrowk512:
	VMOVUPD (AX), Z0
	VBROADCASTSD (R13), Z4
	VMULPD Z0, Z4, Z5
	VADDPD Z5, Z8, Z8
	VBROADCASTSD (R13)(R8*1), Z4
	VMULPD Z0, Z4, Z6
	VADDPD Z6, Z12, Z12
	VBROADCASTSD (R13)(R8*2), Z4
	VMULPD Z0, Z4, Z7
	VADDPD Z7, Z16, Z16
	VBROADCASTSD (R13)(R14*1), Z4
	VMULPD Z0, Z4, Z28
	VADDPD Z28, Z20, Z20
	ADDQ $64, AX
	ADDQ $8, R13
	DECQ R12
	JNZ  narrowk512

narrowk512done:
	VMAXPD Z8, Z24, Z24
	VMAXPD Z12, Z25, Z25
	VMAXPD Z16, Z26, Z26
	VMAXPD Z20, Z27, Z27
	DECQ BX
	JMP  narrow512

store512:
	HMAX(Z24, 0(DI))
	HMAX(Z25, 8(DI))
	HMAX(Z26, 16(DI))
	HMAX(Z27, 24(DI))
	ADDQ $32, DI
	LEAQ (SI)(R8*4), SI
	SUBQ $4, CX
	JMP  rows512

done512:
	VZEROUPPER
	RET

// YMUL2 starts a row's two accumulators (8 points).
#define YMUL2(src, a0, a1) \
	VBROADCASTSD src, Y2 \
	VMULPD       Y0, Y2, a0 \
	VMULPD       Y1, Y2, a1

#define YMADD2(src, a0, a1) \
	VBROADCASTSD src, Y2 \
	VMULPD       Y0, Y2, Y3 \
	VADDPD       Y3, a0, a0 \
	VMULPD       Y1, Y2, Y3 \
	VADDPD       Y3, a1, a1

#define YMAX2(b, a0, a1) \
	VMAXPD a0, a1, Y3 \
	VMAXPD Y3, b, b

#define YHMAX(b, bx, dst) \
	VEXTRACTF128 $1, b, X3 \
	VMAXPD       X3, bx, X3 \
	VPERMILPD    $1, X3, X2 \
	VMAXPD       X2, X3, X3 \
	VMOVSD       X3, dst

// TILE8 computes the 4×8 tile at R10 with k-stride ks into Y4…Y11 and
// folds it into Y12…Y15. Uses labels lbl and lbldone.
#define TILE8(ks, lbl, lbldone) \
	MOVQ    SI, R13 \
	VMOVUPD 0(R10), Y0 \
	VMOVUPD 32(R10), Y1 \
	YMUL2((R13), Y4, Y5) \
	YMUL2((R13)(R8*1), Y6, Y7) \
	YMUL2((R13)(R8*2), Y8, Y9) \
	YMUL2((R13)(R14*1), Y10, Y11) \
	ADDQ    ks, R10 \
	ADDQ    $8, R13 \
	MOVQ    R9, R12 \
	DECQ    R12 \
	JZ      lbldone \
lbl: \
	VMOVUPD 0(R10), Y0 \
	VMOVUPD 32(R10), Y1 \
	YMADD2((R13), Y4, Y5) \
	YMADD2((R13)(R8*1), Y6, Y7) \
	YMADD2((R13)(R8*2), Y8, Y9) \
	YMADD2((R13)(R14*1), Y10, Y11) \
	ADDQ    ks, R10 \
	ADDQ    $8, R13 \
	DECQ    R12 \
	JNZ     lbl \
lbldone: \
	YMAX2(Y12, Y4, Y5) \
	YMAX2(Y13, Y6, Y7) \
	YMAX2(Y14, Y8, Y9) \
	YMAX2(Y15, Y10, Y11)

// func maxDotAVX2(best *float64, n int, x *float64, xs, d int, orb *float64, nw, nt int)
TEXT ·maxDotAVX2(SB), NOSPLIT, $0-64
	MOVQ best+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ x+16(FP), SI
	MOVQ xs+24(FP), R8
	SHLQ $3, R8
	LEAQ (R8)(R8*2), R14
	MOVQ d+32(FP), R9

rows2:
	CMPQ CX, $4
	JLT  done2
	MOVQ $0xfff0000000000000, AX
	MOVQ AX, X12
	VBROADCASTSD X12, Y12
	VMOVAPD Y12, Y13
	VMOVAPD Y12, Y14
	VMOVAPD Y12, Y15
	MOVQ orb+40(FP), AX
	MOVQ nw+48(FP), BX

wide2:
	TESTQ BX, BX
	JZ    narrowstart2
	MOVQ  AX, DX
	MOVQ  $4, R11

sub2:
	MOVQ DX, R10
	TILE8($256, subk2, subk2done)
	ADDQ $64, DX
	DECQ R11
	JNZ  sub2
	// next wide block: AX += 256·d
	MOVQ R9, DX
	SHLQ $8, DX
	ADDQ DX, AX
	DECQ BX
	JMP  wide2

narrowstart2:
	MOVQ nt+56(FP), BX

narrow2:
	TESTQ BX, BX
	JZ    store2
	MOVQ  AX, R10
	TILE8($64, nk2, nk2done)
	MOVQ  R10, AX
	DECQ  BX
	JMP   narrow2

store2:
	YHMAX(Y12, X12, 0(DI))
	YHMAX(Y13, X13, 8(DI))
	YHMAX(Y14, X14, 16(DI))
	YHMAX(Y15, X15, 24(DI))
	ADDQ $32, DI
	LEAQ (SI)(R8*4), SI
	SUBQ $4, CX
	JMP  rows2

done2:
	VZEROUPPER
	RET
