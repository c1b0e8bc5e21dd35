//go:build amd64 && !noasm

#include "textflag.h"

// Every kernel here keeps the operations of its generic specification
// (vec.go): partial sum l of an inner product takes the elements j with
// j mod 16 = l, in order, each with one VFMADD231PD (one rounding, as
// math.FMA); AddScaled is one VFMADD231PD per element.

// REDUCE16 adds the partial sums of Z0 (lanes 0–7) and Z1 (lanes 8–15)
// pairwise into X0 as reduceLanes does.
#define REDUCE16 \
	VADDPD        Z1, Z0, Z0 \
	VEXTRACTF64X4 $1, Z0, Y1 \
	VADDPD        Y1, Y0, Y0 \
	VEXTRACTF128  $1, Y0, X1 \
	VADDPD        X1, X0, X0 \
	VPERMILPD     $1, X0, X1 \
	VADDSD        X1, X0, X0

// TAILMASKS sets K1 to the low min(CX, 8) lanes and K2 to the next
// max(CX−8, 0), for 0 < CX < 16. Clobbers AX.
#define TAILMASKS \
	MOVQ     $1, AX \
	SHLQ     CX, AX \
	DECQ     AX \
	KMOVW    AX, K1 \
	KSHIFTRW $8, K1, K2

// func innerAVX512(x, y *float64, n int) float64
TEXT ·innerAVX512(SB), NOSPLIT, $0-32
	MOVQ   x+0(FP), SI
	MOVQ   y+8(FP), DI
	MOVQ   n+16(FP), CX
	VPXORQ Z0, Z0, Z0
	VPXORQ Z1, Z1, Z1

inner512loop:
	CMPQ        CX, $16
	JLT         inner512tail
	VMOVUPD     (SI), Z2
	VMOVUPD     64(SI), Z3
	VFMADD231PD (DI), Z2, Z0
	VFMADD231PD 64(DI), Z3, Z1
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX
	JMP         inner512loop

inner512tail:
	TESTQ       CX, CX
	JZ          inner512reduce
	TAILMASKS
	VMOVUPD.Z   (SI), K1, Z2
	VMOVUPD.Z   (DI), K1, Z4
	VFMADD231PD Z4, Z2, K1, Z0
	VMOVUPD.Z   64(SI), K2, Z3
	VMOVUPD.Z   64(DI), K2, Z5
	VFMADD231PD Z5, Z3, K2, Z1

inner512reduce:
	REDUCE16
	VZEROUPPER
	MOVSD X0, ret+24(FP)
	RET

// func innerAVX2(s *[16]float64, x, y *float64, n int)
TEXT ·innerAVX2(SB), NOSPLIT, $0-32
	MOVQ  s+0(FP), DX
	MOVQ  x+8(FP), SI
	MOVQ  y+16(FP), DI
	MOVQ  n+24(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3

inner2loop:
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD (DI), Y4, Y0
	VFMADD231PD 32(DI), Y5, Y1
	VFMADD231PD 64(DI), Y6, Y2
	VFMADD231PD 96(DI), Y7, Y3
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX
	JNZ         inner2loop
	VMOVUPD     Y0, (DX)
	VMOVUPD     Y1, 32(DX)
	VMOVUPD     Y2, 64(DX)
	VMOVUPD     Y3, 96(DX)
	VZEROUPPER
	RET

// func addScaledAVX512(y *float64, alpha float64, x *float64, n int)
TEXT ·addScaledAVX512(SB), NOSPLIT, $0-32
	MOVQ         y+0(FP), DI
	VBROADCASTSD alpha+8(FP), Z31
	MOVQ         x+16(FP), SI
	MOVQ         n+24(FP), CX

axpy512loop32:
	CMPQ        CX, $32
	JLT         axpy512loop8
	VMOVUPD     (DI), Z0
	VMOVUPD     64(DI), Z1
	VMOVUPD     128(DI), Z2
	VMOVUPD     192(DI), Z3
	VFMADD231PD (SI), Z31, Z0
	VFMADD231PD 64(SI), Z31, Z1
	VFMADD231PD 128(SI), Z31, Z2
	VFMADD231PD 192(SI), Z31, Z3
	VMOVUPD     Z0, (DI)
	VMOVUPD     Z1, 64(DI)
	VMOVUPD     Z2, 128(DI)
	VMOVUPD     Z3, 192(DI)
	ADDQ        $256, SI
	ADDQ        $256, DI
	SUBQ        $32, CX
	JMP         axpy512loop32

axpy512loop8:
	CMPQ        CX, $8
	JLT         axpy512tail
	VMOVUPD     (DI), Z0
	VFMADD231PD (SI), Z31, Z0
	VMOVUPD     Z0, (DI)
	ADDQ        $64, SI
	ADDQ        $64, DI
	SUBQ        $8, CX
	JMP         axpy512loop8

axpy512tail:
	TESTQ       CX, CX
	JZ          axpy512done
	MOVQ        $1, AX
	SHLQ        CX, AX
	DECQ        AX
	KMOVW       AX, K1
	VMOVUPD.Z   (DI), K1, Z0
	VMOVUPD.Z   (SI), K1, Z1
	VFMADD231PD Z1, Z31, Z0
	VMOVUPD     Z0, K1, (DI)

axpy512done:
	VZEROUPPER
	RET

// func addScaledAVX2(y *float64, alpha float64, x *float64, n int)
TEXT ·addScaledAVX2(SB), NOSPLIT, $0-32
	MOVQ         y+0(FP), DI
	VBROADCASTSD alpha+8(FP), Y15
	MOVQ         x+16(FP), SI
	MOVQ         n+24(FP), CX

axpy2loop16:
	CMPQ        CX, $16
	JLT         axpy2loop4
	VMOVUPD     (DI), Y0
	VMOVUPD     32(DI), Y1
	VMOVUPD     64(DI), Y2
	VMOVUPD     96(DI), Y3
	VFMADD231PD (SI), Y15, Y0
	VFMADD231PD 32(SI), Y15, Y1
	VFMADD231PD 64(SI), Y15, Y2
	VFMADD231PD 96(SI), Y15, Y3
	VMOVUPD     Y0, (DI)
	VMOVUPD     Y1, 32(DI)
	VMOVUPD     Y2, 64(DI)
	VMOVUPD     Y3, 96(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	SUBQ        $16, CX
	JMP         axpy2loop16

axpy2loop4:
	TESTQ       CX, CX
	JZ          axpy2done
	VMOVUPD     (DI), Y0
	VFMADD231PD (SI), Y15, Y0
	VMOVUPD     Y0, (DI)
	ADDQ        $32, SI
	ADDQ        $32, DI
	SUBQ        $4, CX
	JMP         axpy2loop4

axpy2done:
	VZEROUPPER
	RET

// func innerAddScaledAVX512(y *float64, alpha float64, a, x *float64, n int) float64
TEXT ·innerAddScaledAVX512(SB), NOSPLIT, $0-48
	MOVQ         y+0(FP), DI
	VBROADCASTSD alpha+8(FP), Z31
	MOVQ         a+16(FP), SI
	MOVQ         x+24(FP), R8
	MOVQ         n+32(FP), CX
	VPXORQ       Z0, Z0, Z0
	VPXORQ       Z1, Z1, Z1

ias512loop:
	CMPQ        CX, $16
	JLT         ias512tail
	VMOVUPD     (SI), Z2
	VMOVUPD     64(SI), Z3
	VMOVUPD     (DI), Z4
	VMOVUPD     64(DI), Z5
	VFMADD231PD (R8), Z2, Z0
	VFMADD231PD 64(R8), Z3, Z1
	VFMADD231PD Z2, Z31, Z4
	VFMADD231PD Z3, Z31, Z5
	VMOVUPD     Z4, (DI)
	VMOVUPD     Z5, 64(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	SUBQ        $16, CX
	JMP         ias512loop

ias512tail:
	TESTQ       CX, CX
	JZ          ias512reduce
	TAILMASKS
	VMOVUPD.Z   (SI), K1, Z2
	VMOVUPD.Z   (R8), K1, Z6
	VMOVUPD.Z   (DI), K1, Z4
	VFMADD231PD Z6, Z2, K1, Z0
	VFMADD231PD Z2, Z31, Z4
	VMOVUPD     Z4, K1, (DI)
	VMOVUPD.Z   64(SI), K2, Z3
	VMOVUPD.Z   64(R8), K2, Z7
	VMOVUPD.Z   64(DI), K2, Z5
	VFMADD231PD Z7, Z3, K2, Z1
	VFMADD231PD Z3, Z31, Z5
	VMOVUPD     Z5, K2, 64(DI)

ias512reduce:
	REDUCE16
	VZEROUPPER
	MOVSD X0, ret+40(FP)
	RET

// func innerAddScaledAVX2(s *[16]float64, y *float64, alpha float64, a, x *float64, n int)
TEXT ·innerAddScaledAVX2(SB), NOSPLIT, $0-48
	MOVQ         s+0(FP), DX
	MOVQ         y+8(FP), DI
	VBROADCASTSD alpha+16(FP), Y15
	MOVQ         a+24(FP), SI
	MOVQ         x+32(FP), R8
	MOVQ         n+40(FP), CX
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3

ias2loop:
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD (R8), Y4, Y0
	VFMADD231PD 32(R8), Y5, Y1
	VFMADD231PD 64(R8), Y6, Y2
	VFMADD231PD 96(R8), Y7, Y3
	VMOVUPD     (DI), Y8
	VMOVUPD     32(DI), Y9
	VMOVUPD     64(DI), Y10
	VMOVUPD     96(DI), Y11
	VFMADD231PD Y4, Y15, Y8
	VFMADD231PD Y5, Y15, Y9
	VFMADD231PD Y6, Y15, Y10
	VFMADD231PD Y7, Y15, Y11
	VMOVUPD     Y8, (DI)
	VMOVUPD     Y9, 32(DI)
	VMOVUPD     Y10, 64(DI)
	VMOVUPD     Y11, 96(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	SUBQ        $16, CX
	JNZ         ias2loop
	VMOVUPD     Y0, (DX)
	VMOVUPD     Y1, 32(DX)
	VMOVUPD     Y2, 64(DX)
	VMOVUPD     Y3, 96(DX)
	VZEROUPPER
	RET

// func innerAddScaledNextAVX512(y *float64, alpha float64, a, x *float64, n int, next *float64) float64
TEXT ·innerAddScaledNextAVX512(SB), NOSPLIT, $0-56
	MOVQ         y+0(FP), DI
	VBROADCASTSD alpha+8(FP), Z31
	MOVQ         a+16(FP), SI
	MOVQ         x+24(FP), R8
	MOVQ         n+32(FP), CX
	MOVQ         next+40(FP), R9
	VPXORQ       Z0, Z0, Z0
	VPXORQ       Z1, Z1, Z1

iasn512loop:
	CMPQ        CX, $16
	JLT         iasn512tail
	PREFETCHT1  (R9)
	PREFETCHT1  64(R9)
	ADDQ        $128, R9
	VMOVUPD     (SI), Z2
	VMOVUPD     64(SI), Z3
	VMOVUPD     (DI), Z4
	VMOVUPD     64(DI), Z5
	VFMADD231PD (R8), Z2, Z0
	VFMADD231PD 64(R8), Z3, Z1
	VFMADD231PD Z2, Z31, Z4
	VFMADD231PD Z3, Z31, Z5
	VMOVUPD     Z4, (DI)
	VMOVUPD     Z5, 64(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	SUBQ        $16, CX
	JMP         iasn512loop

iasn512tail:
	TESTQ       CX, CX
	JZ          iasn512reduce
	TAILMASKS
	VMOVUPD.Z   (SI), K1, Z2
	VMOVUPD.Z   (R8), K1, Z6
	VMOVUPD.Z   (DI), K1, Z4
	VFMADD231PD Z6, Z2, K1, Z0
	VFMADD231PD Z2, Z31, Z4
	VMOVUPD     Z4, K1, (DI)
	VMOVUPD.Z   64(SI), K2, Z3
	VMOVUPD.Z   64(R8), K2, Z7
	VMOVUPD.Z   64(DI), K2, Z5
	VFMADD231PD Z7, Z3, K2, Z1
	VFMADD231PD Z3, Z31, Z5
	VMOVUPD     Z5, K2, 64(DI)

iasn512reduce:
	REDUCE16
	VZEROUPPER
	MOVSD X0, ret+48(FP)
	RET

// func innerAddScaledNextAVX2(s *[16]float64, y *float64, alpha float64, a, x *float64, n int, next *float64)
TEXT ·innerAddScaledNextAVX2(SB), NOSPLIT, $0-56
	MOVQ         s+0(FP), DX
	MOVQ         y+8(FP), DI
	VBROADCASTSD alpha+16(FP), Y15
	MOVQ         a+24(FP), SI
	MOVQ         x+32(FP), R8
	MOVQ         n+40(FP), CX
	MOVQ         next+48(FP), R9
	VXORPD       Y0, Y0, Y0
	VXORPD       Y1, Y1, Y1
	VXORPD       Y2, Y2, Y2
	VXORPD       Y3, Y3, Y3

iasn2loop:
	PREFETCHT1  (R9)
	PREFETCHT1  64(R9)
	ADDQ        $128, R9
	VMOVUPD     (SI), Y4
	VMOVUPD     32(SI), Y5
	VMOVUPD     64(SI), Y6
	VMOVUPD     96(SI), Y7
	VFMADD231PD (R8), Y4, Y0
	VFMADD231PD 32(R8), Y5, Y1
	VFMADD231PD 64(R8), Y6, Y2
	VFMADD231PD 96(R8), Y7, Y3
	VMOVUPD     (DI), Y8
	VMOVUPD     32(DI), Y9
	VMOVUPD     64(DI), Y10
	VMOVUPD     96(DI), Y11
	VFMADD231PD Y4, Y15, Y8
	VFMADD231PD Y5, Y15, Y9
	VFMADD231PD Y6, Y15, Y10
	VFMADD231PD Y7, Y15, Y11
	VMOVUPD     Y8, (DI)
	VMOVUPD     Y9, 32(DI)
	VMOVUPD     Y10, 64(DI)
	VMOVUPD     Y11, 96(DI)
	ADDQ        $128, SI
	ADDQ        $128, DI
	ADDQ        $128, R8
	SUBQ        $16, CX
	JNZ         iasn2loop
	VMOVUPD     Y0, (DX)
	VMOVUPD     Y1, 32(DX)
	VMOVUPD     Y2, 64(DX)
	VMOVUPD     Y3, 96(DX)
	VZEROUPPER
	RET

// func addScaled4AVX512(y *float64, a *[4]float64, x0, x1, x2, x3 *float64, n int)
// y = fma(a3, x3, fma(a2, x2, fma(a1, x1, fma(a0, x0, y)))), per element.
TEXT ·addScaled4AVX512(SB), NOSPLIT, $0-56
	MOVQ         y+0(FP), DI
	MOVQ         a+8(FP), AX
	VBROADCASTSD 0(AX), Z28
	VBROADCASTSD 8(AX), Z29
	VBROADCASTSD 16(AX), Z30
	VBROADCASTSD 24(AX), Z31
	MOVQ         x0+16(FP), SI
	MOVQ         x1+24(FP), R8
	MOVQ         x2+32(FP), R9
	MOVQ         x3+40(FP), R10
	MOVQ         n+48(FP), CX

axpy4x512loop16:
	CMPQ        CX, $16
	JLT         axpy4x512loop8
	VMOVUPD     (DI), Z0
	VMOVUPD     64(DI), Z1
	VFMADD231PD (SI), Z28, Z0
	VFMADD231PD 64(SI), Z28, Z1
	VFMADD231PD (R8), Z29, Z0
	VFMADD231PD 64(R8), Z29, Z1
	VFMADD231PD (R9), Z30, Z0
	VFMADD231PD 64(R9), Z30, Z1
	VFMADD231PD (R10), Z31, Z0
	VFMADD231PD 64(R10), Z31, Z1
	VMOVUPD     Z0, (DI)
	VMOVUPD     Z1, 64(DI)
	ADDQ        $128, SI
	ADDQ        $128, R8
	ADDQ        $128, R9
	ADDQ        $128, R10
	ADDQ        $128, DI
	SUBQ        $16, CX
	JMP         axpy4x512loop16

axpy4x512loop8:
	CMPQ        CX, $8
	JLT         axpy4x512tail
	VMOVUPD     (DI), Z0
	VFMADD231PD (SI), Z28, Z0
	VFMADD231PD (R8), Z29, Z0
	VFMADD231PD (R9), Z30, Z0
	VFMADD231PD (R10), Z31, Z0
	VMOVUPD     Z0, (DI)
	ADDQ        $64, SI
	ADDQ        $64, R8
	ADDQ        $64, R9
	ADDQ        $64, R10
	ADDQ        $64, DI
	SUBQ        $8, CX
	JMP         axpy4x512loop8

axpy4x512tail:
	TESTQ       CX, CX
	JZ          axpy4x512done
	MOVQ        $1, AX
	SHLQ        CX, AX
	DECQ        AX
	KMOVW       AX, K1
	VMOVUPD.Z   (DI), K1, Z0
	VMOVUPD.Z   (SI), K1, Z1
	VFMADD231PD Z1, Z28, Z0
	VMOVUPD.Z   (R8), K1, Z1
	VFMADD231PD Z1, Z29, Z0
	VMOVUPD.Z   (R9), K1, Z1
	VFMADD231PD Z1, Z30, Z0
	VMOVUPD.Z   (R10), K1, Z1
	VFMADD231PD Z1, Z31, Z0
	VMOVUPD     Z0, K1, (DI)

axpy4x512done:
	VZEROUPPER
	RET

// func addScaled4AVX2(y *float64, a *[4]float64, x0, x1, x2, x3 *float64, n int)
// addScaled4AVX512 for n a multiple of 4.
TEXT ·addScaled4AVX2(SB), NOSPLIT, $0-56
	MOVQ         y+0(FP), DI
	MOVQ         a+8(FP), AX
	VBROADCASTSD 0(AX), Y12
	VBROADCASTSD 8(AX), Y13
	VBROADCASTSD 16(AX), Y14
	VBROADCASTSD 24(AX), Y15
	MOVQ         x0+16(FP), SI
	MOVQ         x1+24(FP), R8
	MOVQ         x2+32(FP), R9
	MOVQ         x3+40(FP), R10
	MOVQ         n+48(FP), CX

axpy4x2loop8:
	CMPQ        CX, $8
	JLT         axpy4x2loop4
	VMOVUPD     (DI), Y0
	VMOVUPD     32(DI), Y1
	VFMADD231PD (SI), Y12, Y0
	VFMADD231PD 32(SI), Y12, Y1
	VFMADD231PD (R8), Y13, Y0
	VFMADD231PD 32(R8), Y13, Y1
	VFMADD231PD (R9), Y14, Y0
	VFMADD231PD 32(R9), Y14, Y1
	VFMADD231PD (R10), Y15, Y0
	VFMADD231PD 32(R10), Y15, Y1
	VMOVUPD     Y0, (DI)
	VMOVUPD     Y1, 32(DI)
	ADDQ        $64, SI
	ADDQ        $64, R8
	ADDQ        $64, R9
	ADDQ        $64, R10
	ADDQ        $64, DI
	SUBQ        $8, CX
	JMP         axpy4x2loop8

axpy4x2loop4:
	TESTQ       CX, CX
	JZ          axpy4x2done
	VMOVUPD     (DI), Y0
	VFMADD231PD (SI), Y12, Y0
	VFMADD231PD (R8), Y13, Y0
	VFMADD231PD (R9), Y14, Y0
	VFMADD231PD (R10), Y15, Y0
	VMOVUPD     Y0, (DI)
	ADDQ        $32, SI
	ADDQ        $32, R8
	ADDQ        $32, R9
	ADDQ        $32, R10
	ADDQ        $32, DI
	SUBQ        $4, CX
	JMP         axpy4x2loop4

axpy4x2done:
	VZEROUPPER
	RET
