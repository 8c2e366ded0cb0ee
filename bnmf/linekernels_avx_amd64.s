//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// The AVX forms of the kernels of linekernels_amd64.s, with the same
// numbers bit for bit for every result that is not a NaN. (Where two NaNs
// meet, the operands' order decides which payload comes out, and some
// products and sums here take their operands in the other order; a NaN
// stops a chain with ErrNonFinite, so none is ever in a record.) A dot product keeps its four partial sums s0..s3
// (of the products of the elements with index 0, 1, 2, 3 mod 4) in the
// four lanes of one register where the SSE2 forms keep two pairs; the last
// len mod 4 products go into s0 in turn; the sum returned is
// (s0 + s2) + (s1 + s3). Every product and every sum is one rounded IEEE
// operation, as in SSE2; no product and sum is fused into an FMA.
// VZEROUPPER before each return spares the caller's SSE code the
// transition penalty.

// func lineDotsAVX(g, r []float64) (gg, gr float64)
TEXT ·lineDotsAVX(SB), NOSPLIT, $0-64
	MOVQ   g_base+0(FP), SI
	MOVQ   g_len+8(FP), CX
	MOVQ   r_base+24(FP), DI
	VXORPD Y4, Y4, Y4       // g.g: s0..s3
	VXORPD Y6, Y6, Y6       // g.r: s0..s3
	XORQ   AX, AX
	SUBQ   $4, CX
	JL     vdots_tail

vdots_loop:
	VMOVUPD (SI)(AX*8), Y0     // g[q..q+3]
	VMULPD  (DI)(AX*8), Y0, Y2 // g*r
	VMULPD  Y0, Y0, Y0         // g*g
	VADDPD  Y0, Y4, Y4
	VADDPD  Y2, Y6, Y6
	ADDQ    $4, AX
	SUBQ    $4, CX
	JGE     vdots_loop

vdots_tail:
	VEXTRACTF128 $1, Y4, X5 // s2, s3
	VEXTRACTF128 $1, Y6, X7
	ADDQ         $4, CX     // the last n mod 4 elements, into s0
	JLE          vdots_end

vdots_one:
	VMOVSD (SI)(AX*8), X0
	VMULSD (DI)(AX*8), X0, X2
	VMULSD X0, X0, X0
	VADDSD X0, X4, X4
	VADDSD X2, X6, X6
	INCQ   AX
	DECQ   CX
	JNZ    vdots_one

vdots_end:
	VADDPD    X5, X4, X4 // s0+s2, s1+s3
	VUNPCKHPD X4, X4, X0
	VADDSD    X0, X4, X4
	VMOVSD    X4, gg+48(FP)
	VADDPD    X7, X6, X6
	VUNPCKHPD X6, X6, X0
	VADDSD    X0, X6, X6
	VMOVSD    X6, gr+56(FP)
	VZEROUPPER
	RET

// func lineAxpyDotsAVX(r []float64, alpha float64, gk, gn []float64) (gg, gr float64)
TEXT ·lineAxpyDotsAVX(SB), NOSPLIT, $0-96
	MOVQ         r_base+0(FP), DI
	MOVQ         r_len+8(FP), CX
	VBROADCASTSD alpha+24(FP), Y8
	MOVQ         gk_base+32(FP), SI
	MOVQ         gn_base+56(FP), DX
	VXORPD       Y4, Y4, Y4         // gn.gn: s0..s3
	VXORPD       Y6, Y6, Y6         // gn.r: s0..s3
	XORQ         AX, AX
	SUBQ         $4, CX
	JL           vaxpy_tail

vaxpy_loop:
	VMULPD  (SI)(AX*8), Y8, Y0 // alpha*gk
	VADDPD  (DI)(AX*8), Y0, Y0 // r + alpha*gk
	VMOVUPD Y0, (DI)(AX*8)
	VMOVUPD (DX)(AX*8), Y2     // gn
	VMULPD  Y2, Y0, Y0         // gn*r
	VMULPD  Y2, Y2, Y2         // gn*gn
	VADDPD  Y2, Y4, Y4
	VADDPD  Y0, Y6, Y6
	ADDQ    $4, AX
	SUBQ    $4, CX
	JGE     vaxpy_loop

vaxpy_tail:
	VEXTRACTF128 $1, Y4, X5
	VEXTRACTF128 $1, Y6, X7
	ADDQ         $4, CX
	JLE          vaxpy_end

vaxpy_one:
	VMULSD (SI)(AX*8), X8, X0
	VADDSD (DI)(AX*8), X0, X0
	VMOVSD X0, (DI)(AX*8)
	VMOVSD (DX)(AX*8), X2
	VMULSD X2, X0, X0
	VMULSD X2, X2, X2
	VADDSD X2, X4, X4
	VADDSD X0, X6, X6
	INCQ   AX
	DECQ   CX
	JNZ    vaxpy_one

vaxpy_end:
	VADDPD    X5, X4, X4
	VUNPCKHPD X4, X4, X0
	VADDSD    X0, X4, X4
	VMOVSD    X4, gg+80(FP)
	VADDPD    X7, X6, X6
	VUNPCKHPD X6, X6, X0
	VADDSD    X0, X6, X6
	VMOVSD    X6, gr+88(FP)
	VZEROUPPER
	RET

// func lineAxpyAVX(r []float64, alpha float64, gk []float64)
//
// r[q] += alpha*gk[q]: the rounded product, then the rounded sum.
TEXT ·lineAxpyAVX(SB), NOSPLIT, $0-56
	MOVQ         r_base+0(FP), DI
	MOVQ         r_len+8(FP), CX
	VBROADCASTSD alpha+24(FP), Y8
	MOVQ         gk_base+32(FP), SI
	XORQ         AX, AX
	SUBQ         $8, CX
	JL           vline_tail

vline_loop:
	VMULPD  (SI)(AX*8), Y8, Y0
	VMULPD  32(SI)(AX*8), Y8, Y1
	VADDPD  (DI)(AX*8), Y0, Y0
	VADDPD  32(DI)(AX*8), Y1, Y1
	VMOVUPD Y0, (DI)(AX*8)
	VMOVUPD Y1, 32(DI)(AX*8)
	ADDQ    $8, AX
	SUBQ    $8, CX
	JGE     vline_loop

vline_tail:
	ADDQ $8, CX
	JLE  vline_end

vline_one:
	VMULSD (SI)(AX*8), X8, X0
	VADDSD (DI)(AX*8), X0, X0
	VMOVSD X0, (DI)(AX*8)
	INCQ   AX
	DECQ   CX
	JNZ    vline_one

vline_end:
	VZEROUPPER
	RET

// func scaledSumsAVX(num, den []float64, a, b float64, o []float64)
TEXT ·scaledSumsAVX(SB), NOSPLIT, $0-88
	MOVQ         num_base+0(FP), DI
	MOVQ         num_len+8(FP), CX
	MOVQ         den_base+24(FP), DX
	VBROADCASTSD a+48(FP), Y8
	VBROADCASTSD b+56(FP), Y9
	MOVQ         o_base+64(FP), SI
	XORQ         AX, AX
	SUBQ         $8, CX
	JL           vsums_tail

vsums_loop:
	VMOVUPD (SI)(AX*8), Y0      // o[i..i+3]
	VMOVUPD 32(SI)(AX*8), Y1    // o[i+4..i+7]
	VMULPD  Y8, Y0, Y2          // a*o
	VMULPD  Y8, Y1, Y3
	VADDPD  (DI)(AX*8), Y2, Y2  // num + a*o
	VADDPD  32(DI)(AX*8), Y3, Y3
	VMOVUPD Y2, (DI)(AX*8)
	VMOVUPD Y3, 32(DI)(AX*8)
	VMULPD  Y9, Y0, Y0          // b*o
	VMULPD  Y9, Y1, Y1
	VADDPD  (DX)(AX*8), Y0, Y0  // den + b*o
	VADDPD  32(DX)(AX*8), Y1, Y1
	VMOVUPD Y0, (DX)(AX*8)
	VMOVUPD Y1, 32(DX)(AX*8)
	ADDQ    $8, AX
	SUBQ    $8, CX
	JGE     vsums_loop

vsums_tail:
	ADDQ $8, CX
	JLE  vsums_end

vsums_one:
	VMOVSD (SI)(AX*8), X0
	VMULSD X8, X0, X2
	VMULSD X9, X0, X0
	VADDSD (DI)(AX*8), X2, X2
	VMOVSD X2, (DI)(AX*8)
	VADDSD (DX)(AX*8), X0, X0
	VMOVSD X0, (DX)(AX*8)
	INCQ   AX
	DECQ   CX
	JNZ    vsums_one

vsums_end:
	VZEROUPPER
	RET

// func residualsFromGatherAVX(r, vals, g, x []float64)
//
// residualsFromGatherSSE2 four entries at a time, one in each lane, then
// the last len(r) mod 4 one at a time.
TEXT ·residualsFromGatherAVX(SB), NOSPLIT, $0-96
	MOVQ r_base+0(FP), DI
	MOVQ r_len+8(FP), CX    // n
	MOVQ vals_base+24(FP), R8
	MOVQ g_base+48(FP), SI
	MOVQ x_base+72(FP), DX
	MOVQ x_len+80(FP), BX   // k
	MOVQ CX, R9
	SHLQ $3, R9             // the stride of g between dimensions, in bytes
	MOVQ BX, R10
	ANDQ $-4, R10           // k rounded down to a multiple of 4
	XORQ AX, AX             // q

vres_quad:
	LEAQ   4(AX), R11
	CMPQ   R11, CX
	JGT    vres_single
	VXORPD Y0, Y0, Y0       // s0 of entries q..q+3
	VXORPD Y1, Y1, Y1       // s1
	VXORPD Y2, Y2, Y2       // s2
	VXORPD Y3, Y3, Y3       // s3
	LEAQ   (SI)(AX*8), R12  // &g[q]
	XORQ   R13, R13         // kk

vres_quad4:
	CMPQ         R13, R10
	JGE          vres_quad_tail
	VBROADCASTSD (DX)(R13*8), Y4
	VMULPD       (R12), Y4, Y5
	VADDPD       Y5, Y0, Y0
	ADDQ         R9, R12
	VBROADCASTSD 8(DX)(R13*8), Y4
	VMULPD       (R12), Y4, Y5
	VADDPD       Y5, Y1, Y1
	ADDQ         R9, R12
	VBROADCASTSD 16(DX)(R13*8), Y4
	VMULPD       (R12), Y4, Y5
	VADDPD       Y5, Y2, Y2
	ADDQ         R9, R12
	VBROADCASTSD 24(DX)(R13*8), Y4
	VMULPD       (R12), Y4, Y5
	VADDPD       Y5, Y3, Y3
	ADDQ         R9, R12
	ADDQ         $4, R13
	JMP          vres_quad4

vres_quad_tail:
	CMPQ         R13, BX
	JGE          vres_quad_end
	VBROADCASTSD (DX)(R13*8), Y4
	VMULPD       (R12), Y4, Y5
	VADDPD       Y5, Y0, Y0
	ADDQ         R9, R12
	INCQ         R13
	JMP          vres_quad_tail

vres_quad_end:
	VADDPD  Y2, Y0, Y0      // s0+s2
	VADDPD  Y3, Y1, Y1      // s1+s3
	VADDPD  Y1, Y0, Y0
	VMOVUPD (R8)(AX*8), Y5
	VSUBPD  Y0, Y5, Y5
	VMOVUPD Y5, (DI)(AX*8)
	ADDQ    $4, AX
	JMP     vres_quad

vres_single:
	CMPQ   AX, CX
	JGE    vres_end
	VXORPD X0, X0, X0
	VXORPD X1, X1, X1
	VXORPD X2, X2, X2
	VXORPD X3, X3, X3
	LEAQ   (SI)(AX*8), R12
	XORQ   R13, R13

vres_single4:
	CMPQ   R13, R10
	JGE    vres_single_tail
	VMOVSD (R12), X5
	VMULSD (DX)(R13*8), X5, X5
	VADDSD X5, X0, X0
	ADDQ   R9, R12
	VMOVSD (R12), X5
	VMULSD 8(DX)(R13*8), X5, X5
	VADDSD X5, X1, X1
	ADDQ   R9, R12
	VMOVSD (R12), X5
	VMULSD 16(DX)(R13*8), X5, X5
	VADDSD X5, X2, X2
	ADDQ   R9, R12
	VMOVSD (R12), X5
	VMULSD 24(DX)(R13*8), X5, X5
	VADDSD X5, X3, X3
	ADDQ   R9, R12
	ADDQ   $4, R13
	JMP    vres_single4

vres_single_tail:
	CMPQ   R13, BX
	JGE    vres_single_end
	VMOVSD (R12), X5
	VMULSD (DX)(R13*8), X5, X5
	VADDSD X5, X0, X0
	ADDQ   R9, R12
	INCQ   R13
	JMP    vres_single_tail

vres_single_end:
	VADDSD X2, X0, X0
	VADDSD X3, X1, X1
	VADDSD X1, X0, X0
	VMOVSD (R8)(AX*8), X5
	VSUBSD X0, X5, X5
	VMOVSD X5, (DI)(AX*8)
	INCQ   AX
	JMP    vres_single

vres_end:
	VZEROUPPER
	RET

// func dotAVX(x, y []float64) float64
//
// floats.Dot(x, y) for len(y) >= len(x), summed as DotUnitary sums it.
TEXT ·dotAVX(SB), NOSPLIT, $0-56
	MOVQ   x_base+0(FP), SI
	MOVQ   x_len+8(FP), CX
	MOVQ   y_base+24(FP), DI
	VXORPD Y4, Y4, Y4
	XORQ   AX, AX
	SUBQ   $4, CX
	JL     vdot_tail

vdot_loop:
	VMOVUPD (SI)(AX*8), Y0
	VMULPD  (DI)(AX*8), Y0, Y0
	VADDPD  Y0, Y4, Y4
	ADDQ    $4, AX
	SUBQ    $4, CX
	JGE     vdot_loop

vdot_tail:
	VEXTRACTF128 $1, Y4, X5
	ADDQ         $4, CX
	JLE          vdot_end

vdot_one:
	VMOVSD (SI)(AX*8), X0
	VMULSD (DI)(AX*8), X0, X0
	VADDSD X0, X4, X4
	INCQ   AX
	DECQ   CX
	JNZ    vdot_one

vdot_end:
	VADDPD    X5, X4, X4
	VUNPCKHPD X4, X4, X0
	VADDSD    X0, X4, X4
	VMOVSD    X4, ret+48(FP)
	VZEROUPPER
	RET

// func dotsRows4AVX(x, y []float64, o0, o1, o2, o3 int) (d0, d1, d2, d3 float64)
//
// The dot products of x with the four rows y[o:o+len(x)] for o = o0..o3,
// each summed as DotUnitary sums it, side by side: the loads of x are
// shared and the four chains of additions overlap.
TEXT ·dotsRows4AVX(SB), NOSPLIT, $0-112
	MOVQ   x_base+0(FP), SI
	MOVQ   x_len+8(FP), CX
	MOVQ   y_base+24(FP), DI
	MOVQ   o0+48(FP), R8
	LEAQ   (DI)(R8*8), R8
	MOVQ   o1+56(FP), R9
	LEAQ   (DI)(R9*8), R9
	MOVQ   o2+64(FP), R10
	LEAQ   (DI)(R10*8), R10
	MOVQ   o3+72(FP), R11
	LEAQ   (DI)(R11*8), R11
	VXORPD Y4, Y4, Y4          // row 0: s0..s3
	VXORPD Y5, Y5, Y5          // row 1
	VXORPD Y6, Y6, Y6          // row 2
	VXORPD Y7, Y7, Y7          // row 3
	XORQ   AX, AX
	SUBQ   $4, CX
	JL     vrows_tail

vrows_loop:
	VMOVUPD (SI)(AX*8), Y0
	VMULPD  (R8)(AX*8), Y0, Y1
	VADDPD  Y1, Y4, Y4
	VMULPD  (R9)(AX*8), Y0, Y2
	VADDPD  Y2, Y5, Y5
	VMULPD  (R10)(AX*8), Y0, Y3
	VADDPD  Y3, Y6, Y6
	VMULPD  (R11)(AX*8), Y0, Y1
	VADDPD  Y1, Y7, Y7
	ADDQ    $4, AX
	SUBQ    $4, CX
	JGE     vrows_loop

vrows_tail:
	VEXTRACTF128 $1, Y4, X8  // s2, s3 of each row
	VEXTRACTF128 $1, Y5, X9
	VEXTRACTF128 $1, Y6, X10
	VEXTRACTF128 $1, Y7, X11
	ADDQ         $4, CX
	JLE          vrows_end

vrows_one:
	VMOVSD (SI)(AX*8), X0
	VMULSD (R8)(AX*8), X0, X1
	VADDSD X1, X4, X4
	VMULSD (R9)(AX*8), X0, X2
	VADDSD X2, X5, X5
	VMULSD (R10)(AX*8), X0, X3
	VADDSD X3, X6, X6
	VMULSD (R11)(AX*8), X0, X1
	VADDSD X1, X7, X7
	INCQ   AX
	DECQ   CX
	JNZ    vrows_one

vrows_end:
	VADDPD    X8, X4, X4
	VUNPCKHPD X4, X4, X0
	VADDSD    X0, X4, X4
	VMOVSD    X4, d0+80(FP)
	VADDPD    X9, X5, X5
	VUNPCKHPD X5, X5, X0
	VADDSD    X0, X5, X5
	VMOVSD    X5, d1+88(FP)
	VADDPD    X10, X6, X6
	VUNPCKHPD X6, X6, X0
	VADDSD    X0, X6, X6
	VMOVSD    X6, d2+96(FP)
	VADDPD    X11, X7, X7
	VUNPCKHPD X7, X7, X0
	VADDSD    X0, X7, X7
	VMOVSD    X7, d3+104(FP)
	VZEROUPPER
	RET
