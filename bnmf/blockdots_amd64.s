//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func dots4SSE2(x, y []float64, stride int) (d0, d1, d2, d3 float64)
//
// d_r = x . y[r*stride : r*stride+n] for r = 0..3 and n = len(x), each
// summed as gonum's DotUnitary sums it: the partial sums (s0, s1) in one
// register and (s2, s3) in another, of the products of the elements with
// index 0, 1, 2, 3 mod 4, the last n mod 4 products added to s0 in turn,
// then (s0 + s2) + (s1 + s3). The four sums share the loads of x and run
// side by side, eight registers of partial sums.
TEXT ·dots4SSE2(SB), NOSPLIT, $0-88
	MOVQ  x_base+0(FP), SI
	MOVQ  x_len+8(FP), CX
	MOVQ  y_base+24(FP), DI
	MOVQ  stride+48(FP), R8
	SHLQ  $3, R8            // the stride in bytes
	LEAQ  (DI)(R8*1), R9    // &y[stride]
	LEAQ  (R9)(R8*1), R10   // &y[2 stride]
	LEAQ  (R10)(R8*1), R11  // &y[3 stride]
	XORPD X4, X4            // d0: s0, s1
	XORPD X5, X5            // d0: s2, s3
	XORPD X6, X6            // d1
	XORPD X7, X7
	XORPD X8, X8            // d2
	XORPD X9, X9
	XORPD X10, X10          // d3
	XORPD X11, X11
	XORQ  AX, AX            // q = 0
	SUBQ  $4, CX            // n -= 4
	JL    dots4_tail

dots4_loop:
	MOVUPD (SI)(AX*8), X0   // x[q], x[q+1]
	MOVUPD 16(SI)(AX*8), X1 // x[q+2], x[q+3]
	MOVUPD (DI)(AX*8), X2
	MOVUPD 16(DI)(AX*8), X3
	MULPD  X0, X2
	MULPD  X1, X3
	ADDPD  X2, X4
	ADDPD  X3, X5
	MOVUPD (R9)(AX*8), X2
	MOVUPD 16(R9)(AX*8), X3
	MULPD  X0, X2
	MULPD  X1, X3
	ADDPD  X2, X6
	ADDPD  X3, X7
	MOVUPD (R10)(AX*8), X2
	MOVUPD 16(R10)(AX*8), X3
	MULPD  X0, X2
	MULPD  X1, X3
	ADDPD  X2, X8
	ADDPD  X3, X9
	MOVUPD (R11)(AX*8), X2
	MOVUPD 16(R11)(AX*8), X3
	MULPD  X0, X2
	MULPD  X1, X3
	ADDPD  X2, X10
	ADDPD  X3, X11
	ADDQ   $4, AX
	SUBQ   $4, CX
	JGE    dots4_loop

dots4_tail:
	ADDQ $4, CX // the last n mod 4 elements, into s0
	JLE  dots4_end

dots4_one:
	MOVSD (SI)(AX*8), X0
	MOVSD (DI)(AX*8), X2
	MULSD X0, X2
	ADDSD X2, X4
	MOVSD (R9)(AX*8), X2
	MULSD X0, X2
	ADDSD X2, X6
	MOVSD (R10)(AX*8), X2
	MULSD X0, X2
	ADDSD X2, X8
	MOVSD (R11)(AX*8), X2
	MULSD X0, X2
	ADDSD X2, X10
	INCQ  AX
	DECQ  CX
	JNZ   dots4_one

dots4_end:
	ADDPD    X5, X4 // s0+s2, s1+s3
	MOVAPD   X4, X0
	UNPCKHPD X4, X4
	ADDSD    X0, X4
	MOVSD    X4, d0+56(FP)
	ADDPD    X7, X6
	MOVAPD   X6, X0
	UNPCKHPD X6, X6
	ADDSD    X0, X6
	MOVSD    X6, d1+64(FP)
	ADDPD    X9, X8
	MOVAPD   X8, X0
	UNPCKHPD X8, X8
	ADDSD    X0, X8
	MOVSD    X8, d2+72(FP)
	ADDPD    X11, X10
	MOVAPD   X10, X0
	UNPCKHPD X10, X10
	ADDSD    X0, X10
	MOVSD    X10, d3+80(FP)
	RET

// func dots2x4AVX(x, y []float64, n, stride int) (d00, d01, d02, d03, d10, d11, d12, d13 float64)
//
// d_rc = x[r*stride : r*stride+n] . y[c*stride : c*stride+n] for r = 0, 1
// and c = 0..3, each summed as dotsRows4AVX sums it (s0..s3 in the lanes of
// one register, no fused multiply-add). Eight sums side by side: each load
// of y serves two products, each load of x four, where dots4 loads x once
// for four. The last n mod 4 products go into s0 as a full register
// (p, 0, 0, 0): adding +0 leaves s1..s3 as they are, since a sum that
// starts at +0 is never -0.
TEXT ·dots2x4AVX(SB), NOSPLIT, $0-128
	MOVQ   x_base+0(FP), SI
	MOVQ   y_base+24(FP), DI
	MOVQ   n+48(FP), CX
	MOVQ   stride+56(FP), R8
	SHLQ   $3, R8             // the stride in bytes
	LEAQ   (SI)(R8*1), DX     // &x[stride]
	LEAQ   (DI)(R8*1), R9     // &y[stride]
	LEAQ   (R9)(R8*1), R10    // &y[2 stride]
	LEAQ   (R10)(R8*1), R11   // &y[3 stride]
	VXORPD Y4, Y4, Y4         // d00: s0..s3
	VXORPD Y5, Y5, Y5         // d01
	VXORPD Y6, Y6, Y6         // d02
	VXORPD Y7, Y7, Y7         // d03
	VXORPD Y8, Y8, Y8         // d10
	VXORPD Y9, Y9, Y9         // d11
	VXORPD Y10, Y10, Y10      // d12
	VXORPD Y11, Y11, Y11      // d13
	XORQ   AX, AX
	SUBQ   $4, CX
	JL     x24_tail

x24_loop:
	VMOVUPD (SI)(AX*8), Y0    // x0[q..q+3]
	VMOVUPD (DX)(AX*8), Y1    // x1[q..q+3]
	VMOVUPD (DI)(AX*8), Y2    // y0
	VMULPD  Y2, Y0, Y3
	VADDPD  Y3, Y4, Y4
	VMULPD  Y2, Y1, Y3
	VADDPD  Y3, Y8, Y8
	VMOVUPD (R9)(AX*8), Y2    // y1
	VMULPD  Y2, Y0, Y3
	VADDPD  Y3, Y5, Y5
	VMULPD  Y2, Y1, Y3
	VADDPD  Y3, Y9, Y9
	VMOVUPD (R10)(AX*8), Y2   // y2
	VMULPD  Y2, Y0, Y3
	VADDPD  Y3, Y6, Y6
	VMULPD  Y2, Y1, Y3
	VADDPD  Y3, Y10, Y10
	VMOVUPD (R11)(AX*8), Y2   // y3
	VMULPD  Y2, Y0, Y3
	VADDPD  Y3, Y7, Y7
	VMULPD  Y2, Y1, Y3
	VADDPD  Y3, Y11, Y11
	ADDQ    $4, AX
	SUBQ    $4, CX
	JGE     x24_loop

x24_tail:
	ADDQ $4, CX
	JLE  x24_end

x24_one:
	VMOVSD  (SI)(AX*8), X0    // (x0[q], 0, 0, 0)
	VMOVSD  (DX)(AX*8), X1
	VMOVSD  (DI)(AX*8), X2
	VMULPD  Y2, Y0, Y3
	VADDPD  Y3, Y4, Y4
	VMULPD  Y2, Y1, Y3
	VADDPD  Y3, Y8, Y8
	VMOVSD  (R9)(AX*8), X2
	VMULPD  Y2, Y0, Y3
	VADDPD  Y3, Y5, Y5
	VMULPD  Y2, Y1, Y3
	VADDPD  Y3, Y9, Y9
	VMOVSD  (R10)(AX*8), X2
	VMULPD  Y2, Y0, Y3
	VADDPD  Y3, Y6, Y6
	VMULPD  Y2, Y1, Y3
	VADDPD  Y3, Y10, Y10
	VMOVSD  (R11)(AX*8), X2
	VMULPD  Y2, Y0, Y3
	VADDPD  Y3, Y7, Y7
	VMULPD  Y2, Y1, Y3
	VADDPD  Y3, Y11, Y11
	INCQ    AX
	DECQ    CX
	JNZ     x24_one

x24_end:
	VEXTRACTF128 $1, Y4, X0   // s2, s3
	VADDPD       X0, X4, X4   // s0+s2, s1+s3
	VUNPCKHPD    X4, X4, X0
	VADDSD       X4, X0, X0
	VMOVSD       X0, d00+64(FP)
	VEXTRACTF128 $1, Y5, X0
	VADDPD       X0, X5, X5
	VUNPCKHPD    X5, X5, X0
	VADDSD       X5, X0, X0
	VMOVSD       X0, d01+72(FP)
	VEXTRACTF128 $1, Y6, X0
	VADDPD       X0, X6, X6
	VUNPCKHPD    X6, X6, X0
	VADDSD       X6, X0, X0
	VMOVSD       X0, d02+80(FP)
	VEXTRACTF128 $1, Y7, X0
	VADDPD       X0, X7, X7
	VUNPCKHPD    X7, X7, X0
	VADDSD       X7, X0, X0
	VMOVSD       X0, d03+88(FP)
	VEXTRACTF128 $1, Y8, X0
	VADDPD       X0, X8, X8
	VUNPCKHPD    X8, X8, X0
	VADDSD       X8, X0, X0
	VMOVSD       X0, d10+96(FP)
	VEXTRACTF128 $1, Y9, X0
	VADDPD       X0, X9, X9
	VUNPCKHPD    X9, X9, X0
	VADDSD       X9, X0, X0
	VMOVSD       X0, d11+104(FP)
	VEXTRACTF128 $1, Y10, X0
	VADDPD       X0, X10, X10
	VUNPCKHPD    X10, X10, X0
	VADDSD       X10, X0, X0
	VMOVSD       X0, d12+112(FP)
	VEXTRACTF128 $1, Y11, X0
	VADDPD       X0, X11, X11
	VUNPCKHPD    X11, X11, X0
	VADDSD       X11, X0, X0
	VMOVSD       X0, d13+120(FP)
	VZEROUPPER
	RET
