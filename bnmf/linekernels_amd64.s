//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// Both functions keep, for each dot product, the partial sums (s0, s1) in
// one register and (s2, s3) in another, of the products of the elements
// with index 0, 1, 2, 3 mod 4, add the last len mod 4 products to s0 in
// turn and return (s0 + s2) + (s1 + s3): the order of gonum's DotUnitary on
// amd64, so that the sums are the same bit for bit.

// func lineDotsSSE2(g, r []float64) (gg, gr float64)
TEXT ·lineDotsSSE2(SB), NOSPLIT, $0-64
	MOVQ  g_base+0(FP), SI
	MOVQ  g_len+8(FP), CX
	MOVQ  r_base+24(FP), DI
	XORPD X4, X4           // g.g: s0, s1
	XORPD X5, X5           // g.g: s2, s3
	XORPD X6, X6           // g.r: s0, s1
	XORPD X7, X7           // g.r: s2, s3
	XORQ  AX, AX           // q = 0
	SUBQ  $4, CX           // n -= 4
	JL    dots_tail

dots_loop:
	MOVUPD (SI)(AX*8), X0   // g[q], g[q+1]
	MOVUPD 16(SI)(AX*8), X1 // g[q+2], g[q+3]
	MOVUPD (DI)(AX*8), X2   // r[q], r[q+1]
	MOVUPD 16(DI)(AX*8), X3 // r[q+2], r[q+3]
	MULPD  X0, X2           // g*r
	MULPD  X1, X3
	MULPD  X0, X0           // g*g
	MULPD  X1, X1
	ADDPD  X0, X4
	ADDPD  X1, X5
	ADDPD  X2, X6
	ADDPD  X3, X7
	ADDQ   $4, AX
	SUBQ   $4, CX
	JGE    dots_loop

dots_tail:
	ADDQ $4, CX // the last n mod 4 elements, into s0
	JLE  dots_end

dots_one:
	MOVSD (SI)(AX*8), X0
	MOVSD (DI)(AX*8), X2
	MULSD X0, X2
	MULSD X0, X0
	ADDSD X0, X4
	ADDSD X2, X6
	INCQ  AX
	DECQ  CX
	JNZ   dots_one

dots_end:
	ADDPD    X5, X4 // s0+s2, s1+s3
	MOVAPD   X4, X0
	UNPCKHPD X4, X4
	ADDSD    X0, X4
	MOVSD    X4, gg+48(FP)
	ADDPD    X7, X6
	MOVAPD   X6, X0
	UNPCKHPD X6, X6
	ADDSD    X0, X6
	MOVSD    X6, gr+56(FP)
	RET

// func lineAxpyDotsSSE2(r []float64, alpha float64, gk, gn []float64) (gg, gr float64)
TEXT ·lineAxpyDotsSSE2(SB), NOSPLIT, $0-96
	MOVQ   r_base+0(FP), DI
	MOVQ   r_len+8(FP), CX
	MOVSD  alpha+24(FP), X8
	SHUFPD $0, X8, X8       // alpha, alpha
	MOVQ   gk_base+32(FP), SI
	MOVQ   gn_base+56(FP), DX
	XORPD  X4, X4           // gn.gn: s0, s1
	XORPD  X5, X5           // gn.gn: s2, s3
	XORPD  X6, X6           // gn.r: s0, s1
	XORPD  X7, X7           // gn.r: s2, s3
	XORQ   AX, AX
	SUBQ   $4, CX
	JL     axpy_tail

axpy_loop:
	MOVUPD (SI)(AX*8), X0   // gk[q], gk[q+1]
	MOVUPD 16(SI)(AX*8), X1
	MULPD  X8, X0           // alpha*gk
	MULPD  X8, X1
	MOVUPD (DI)(AX*8), X2   // r[q], r[q+1]
	MOVUPD 16(DI)(AX*8), X3
	ADDPD  X2, X0           // r + alpha*gk
	ADDPD  X3, X1
	MOVUPD X0, (DI)(AX*8)
	MOVUPD X1, 16(DI)(AX*8)
	MOVUPD (DX)(AX*8), X2   // gn[q], gn[q+1]
	MOVUPD 16(DX)(AX*8), X3
	MULPD  X2, X0           // gn*r
	MULPD  X3, X1
	MULPD  X2, X2           // gn*gn
	MULPD  X3, X3
	ADDPD  X2, X4
	ADDPD  X3, X5
	ADDPD  X0, X6
	ADDPD  X1, X7
	ADDQ   $4, AX
	SUBQ   $4, CX
	JGE    axpy_loop

axpy_tail:
	ADDQ $4, CX
	JLE  axpy_end

axpy_one:
	MOVSD (SI)(AX*8), X0
	MULSD X8, X0
	ADDSD (DI)(AX*8), X0
	MOVSD X0, (DI)(AX*8)
	MOVSD (DX)(AX*8), X2
	MULSD X2, X0
	MULSD X2, X2
	ADDSD X2, X4
	ADDSD X0, X6
	INCQ  AX
	DECQ  CX
	JNZ   axpy_one

axpy_end:
	ADDPD    X5, X4
	MOVAPD   X4, X0
	UNPCKHPD X4, X4
	ADDSD    X0, X4
	MOVSD    X4, gg+80(FP)
	ADDPD    X7, X6
	MOVAPD   X6, X0
	UNPCKHPD X6, X6
	ADDSD    X0, X6
	MOVSD    X6, gr+88(FP)
	RET

// func residualsFromGatherSSE2(r, vals, g, x []float64)
//
// r[q] = vals[q] - sum_kk g[kk*n+q]*x[kk] for q < n = len(r), k = len(x),
// the dot product of each q summed as DotUnitary sums it (the partial sums
// of kk = 0, 1, 2, 3 mod 4, the last k mod 4 terms into s0), two entries at
// a time, one in each lane.
TEXT ·residualsFromGatherSSE2(SB), NOSPLIT, $0-96
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

res_pair:
	LEAQ 2(AX), R11
	CMPQ R11, CX
	JGT  res_single
	XORPD X0, X0            // s0 of entries q, q+1
	XORPD X1, X1            // s1
	XORPD X2, X2            // s2
	XORPD X3, X3            // s3
	LEAQ (SI)(AX*8), R12    // &g[q]
	XORQ R13, R13           // kk

res_pair4:
	CMPQ     R13, R10
	JGE      res_pair_tail
	MOVSD    (DX)(R13*8), X4
	UNPCKLPD X4, X4
	MOVUPD   (R12), X5
	MULPD    X4, X5
	ADDPD    X5, X0
	ADDQ     R9, R12
	MOVSD    8(DX)(R13*8), X4
	UNPCKLPD X4, X4
	MOVUPD   (R12), X5
	MULPD    X4, X5
	ADDPD    X5, X1
	ADDQ     R9, R12
	MOVSD    16(DX)(R13*8), X4
	UNPCKLPD X4, X4
	MOVUPD   (R12), X5
	MULPD    X4, X5
	ADDPD    X5, X2
	ADDQ     R9, R12
	MOVSD    24(DX)(R13*8), X4
	UNPCKLPD X4, X4
	MOVUPD   (R12), X5
	MULPD    X4, X5
	ADDPD    X5, X3
	ADDQ     R9, R12
	ADDQ     $4, R13
	JMP      res_pair4

res_pair_tail:
	CMPQ     R13, BX
	JGE      res_pair_end
	MOVSD    (DX)(R13*8), X4
	UNPCKLPD X4, X4
	MOVUPD   (R12), X5
	MULPD    X4, X5
	ADDPD    X5, X0
	ADDQ     R9, R12
	INCQ     R13
	JMP      res_pair_tail

res_pair_end:
	ADDPD  X2, X0           // s0+s2
	ADDPD  X3, X1           // s1+s3
	ADDPD  X1, X0
	MOVUPD (R8)(AX*8), X5
	SUBPD  X0, X5
	MOVUPD X5, (DI)(AX*8)
	ADDQ   $2, AX
	JMP    res_pair

res_single:
	CMPQ  AX, CX
	JGE   res_end
	XORPD X0, X0
	XORPD X1, X1
	XORPD X2, X2
	XORPD X3, X3
	LEAQ  (SI)(AX*8), R12
	XORQ  R13, R13

res_single4:
	CMPQ  R13, R10
	JGE   res_single_tail
	MOVSD (R12), X5
	MULSD (DX)(R13*8), X5
	ADDSD X5, X0
	ADDQ  R9, R12
	MOVSD (R12), X5
	MULSD 8(DX)(R13*8), X5
	ADDSD X5, X1
	ADDQ  R9, R12
	MOVSD (R12), X5
	MULSD 16(DX)(R13*8), X5
	ADDSD X5, X2
	ADDQ  R9, R12
	MOVSD (R12), X5
	MULSD 24(DX)(R13*8), X5
	ADDSD X5, X3
	ADDQ  R9, R12
	ADDQ  $4, R13
	JMP   res_single4

res_single_tail:
	CMPQ  R13, BX
	JGE   res_single_end
	MOVSD (R12), X5
	MULSD (DX)(R13*8), X5
	ADDSD X5, X0
	ADDQ  R9, R12
	INCQ  R13
	JMP   res_single_tail

res_single_end:
	ADDSD X2, X0
	ADDSD X3, X1
	ADDSD X1, X0
	MOVSD (R8)(AX*8), X5
	SUBSD X0, X5
	MOVSD X5, (DI)(AX*8)

res_end:
	RET

// func gatherQuadsSSE2(g []float64, idx []int32, other []float64, k int)
//
// gatherRows for the entries q < len(idx) rounded down to a multiple of 4:
// g[kk*n+q] = other[idx[q]*k+kk] with n = len(idx), four entries at a time,
// each of their K values stored as two pairs.
TEXT ·gatherQuadsSSE2(SB), NOSPLIT, $0-80
	MOVQ g_base+0(FP), DI
	MOVQ idx_base+24(FP), SI
	MOVQ idx_len+32(FP), CX   // n
	MOVQ other_base+48(FP), DX
	MOVQ k+72(FP), BX
	SHLQ $3, BX               // the length of a row of other, in bytes
	MOVQ CX, R9
	SHLQ $3, R9               // the stride of g between dimensions, in bytes
	XORQ AX, AX               // q

gather_quad:
	LEAQ    4(AX), R8
	CMPQ    R8, CX
	JGT     gather_end
	MOVLQSX (SI)(AX*4), R10
	IMULQ   BX, R10
	ADDQ    DX, R10           // &other[idx[q]*k]
	MOVLQSX 4(SI)(AX*4), R11
	IMULQ   BX, R11
	ADDQ    DX, R11
	MOVLQSX 8(SI)(AX*4), R12
	IMULQ   BX, R12
	ADDQ    DX, R12
	MOVLQSX 12(SI)(AX*4), R13
	IMULQ   BX, R13
	ADDQ    DX, R13
	LEAQ    (DI)(AX*8), R8    // &g[q]
	XORQ    SI, SI            // kk, in bytes

gather_dim:
	CMPQ   SI, BX
	JGE    gather_next
	MOVSD  (R10)(SI*1), X0
	MOVHPD (R11)(SI*1), X0
	MOVSD  (R12)(SI*1), X1
	MOVHPD (R13)(SI*1), X1
	MOVUPD X0, (R8)
	MOVUPD X1, 16(R8)
	ADDQ   R9, R8
	ADDQ   $8, SI
	JMP    gather_dim

gather_next:
	MOVQ idx_base+24(FP), SI
	ADDQ $4, AX
	JMP  gather_quad

gather_end:
	RET

// func scaledSumsSSE2(num, den []float64, a, b float64, o []float64)
//
// num[i] += a*o[i] and den[i] += b*o[i] for i < len(num), in one pass over
// o: per element the rounded product and then the rounded sum, as gonum's
// axpy, so each of num and den gets the numbers two axpys would give.
TEXT ·scaledSumsSSE2(SB), NOSPLIT, $0-88
	MOVQ   num_base+0(FP), DI
	MOVQ   num_len+8(FP), CX
	MOVQ   den_base+24(FP), DX
	MOVSD  a+48(FP), X8
	SHUFPD $0, X8, X8       // a, a
	MOVSD  b+56(FP), X9
	SHUFPD $0, X9, X9       // b, b
	MOVQ   o_base+64(FP), SI
	XORQ   AX, AX
	SUBQ   $4, CX
	JL     sums_tail

sums_loop:
	MOVUPD (SI)(AX*8), X0   // o[i], o[i+1]
	MOVUPD 16(SI)(AX*8), X1 // o[i+2], o[i+3]
	MOVAPD X0, X2
	MOVAPD X1, X3
	MULPD  X8, X0           // a*o
	MULPD  X8, X1
	MULPD  X9, X2           // b*o
	MULPD  X9, X3
	MOVUPD (DI)(AX*8), X4   // num
	MOVUPD 16(DI)(AX*8), X5
	ADDPD  X4, X0
	ADDPD  X5, X1
	MOVUPD X0, (DI)(AX*8)
	MOVUPD X1, 16(DI)(AX*8)
	MOVUPD (DX)(AX*8), X6   // den
	MOVUPD 16(DX)(AX*8), X7
	ADDPD  X6, X2
	ADDPD  X7, X3
	MOVUPD X2, (DX)(AX*8)
	MOVUPD X3, 16(DX)(AX*8)
	ADDQ   $4, AX
	SUBQ   $4, CX
	JGE    sums_loop

sums_tail:
	ADDQ $4, CX
	JLE  sums_end

sums_one:
	MOVSD  (SI)(AX*8), X0
	MOVAPD X0, X2
	MULSD  X8, X0
	MULSD  X9, X2
	ADDSD  (DI)(AX*8), X0
	MOVSD  X0, (DI)(AX*8)
	ADDSD  (DX)(AX*8), X2
	MOVSD  X2, (DX)(AX*8)
	INCQ   AX
	DECQ   CX
	JNZ    sums_one

sums_end:
	RET
