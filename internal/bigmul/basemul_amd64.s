//go:build !purego

// Word kernels of the mid-size products (basemul.go) on amd64 with BMI2
// (MULX) and ADX (ADCX, ADOX): a row x·y_j is added into z with two carry
// chains, the product's high words through CF (ADCX) and z's words
// through OF (ADOX), about four instructions per word product. The loops
// count a negative index up to zero in CX with LEAQ and end on JCXZQ,
// neither of which touches the flags, so the chains run unbroken through
// a row; pointers address the rows' ends.

#include "textflag.h"

// func cpuADX() bool
TEXT ·cpuADX(SB), NOSPLIT, $0-1
	MOVL $0, AX
	CPUID
	CMPL AX, $7
	JLT  no
	MOVL $7, AX
	MOVL $0, CX
	CPUID
	ANDL $0x80100, BX // BMI2 (bit 8) and ADX (bit 19) of leaf 7's EBX
	CMPL BX, $0x80100
	JNE  no
	MOVB $1, ret+0(FP)
	RET

no:
	MOVB $0, ret+0(FP)
	RET

// func mulRowsADX(z, x, y []big.Word)
//
// For every j < len(y): z[j : j+len(x)] += x·y[j], and the row's carry
// word is stored (not added) in z[j+len(x)]. With z[:len(x)] zero on
// entry this leaves z[:len(x)+len(y)] = x·y (schoolbook product, rows
// of addmul_1). len(x) ≥ 1; the first n mod 4 words of a row are single
// steps, the rest blocks of four.
TEXT ·mulRowsADX(SB), NOSPLIT, $0-72
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), R13
	MOVQ y_base+48(FP), R10
	MOVQ y_len+56(FP), R12
	LEAQ (DI)(R13*8), BX  // &z[n]: the blocks' end in row 0
	LEAQ (SI)(R13*8), SI  // &x[n]
	MOVQ R13, AX
	ANDQ $7, AX           // r = n mod 8
	LEAQ (DI)(AX*8), DI   // &z[r]: the singles' end in row 0
	SUBQ AX, R13
	NEGQ R13              // −(n − r)
	LEAQ (SI)(R13*8), R11 // &x[r]

row:
	TESTQ R12, R12
	JZ    done
	MOVQ  (R10), DX // y[j]
	LEAQ  8(R10), R10
	MOVQ  x_len+32(FP), CX
	ANDQ  $7, CX
	NEGQ  CX        // −r
	XORQ  R9, R9    // carry word; clears CF and OF
	JCXZQ singlesdone

singles:
	MULXQ (R11)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ (DI)(CX*8), AX
	MOVQ  AX, (DI)(CX*8)
	MOVQ  R8, R9
	LEAQ  1(CX), CX
	JCXZQ singlesdone
	JMP   singles

singlesdone:
	MOVQ  R13, CX // −(n − r)
	JCXZQ noblocks // JCXZQ reaches only 127 bytes: jump on from here
	JMP   blocks

noblocks:
	LEAQ (CX), CX // not a bare jump, which the assembler would thread
	JMP  blocksdone

blocks:
	MULXQ (SI)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ (BX)(CX*8), AX
	MOVQ  AX, (BX)(CX*8)
	MULXQ 8(SI)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 8(BX)(CX*8), AX
	MOVQ  AX, 8(BX)(CX*8)
	MULXQ 16(SI)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 16(BX)(CX*8), AX
	MOVQ  AX, 16(BX)(CX*8)
	MULXQ 24(SI)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 24(BX)(CX*8), AX
	MOVQ  AX, 24(BX)(CX*8)
	MULXQ 32(SI)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 32(BX)(CX*8), AX
	MOVQ  AX, 32(BX)(CX*8)
	MULXQ 40(SI)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 40(BX)(CX*8), AX
	MOVQ  AX, 40(BX)(CX*8)
	MULXQ 48(SI)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 48(BX)(CX*8), AX
	MOVQ  AX, 48(BX)(CX*8)
	MULXQ 56(SI)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 56(BX)(CX*8), AX
	MOVQ  AX, 56(BX)(CX*8)
	LEAQ  8(CX), CX
	JCXZQ blocksdone
	JMP   blocks

blocksdone:
	MOVQ  $0, AX
	ADCXQ AX, R9 // x·y_j + carry + z < β^(n+1): no carry out
	ADOXQ AX, R9
	MOVQ  R9, (BX) // z[j+n]
	LEAQ  8(DI), DI
	LEAQ  8(BX), BX
	DECQ  R12
	JMP   row

done:
	RET

// func addVVAsm(z, x, y []big.Word) big.Word
//
// z = x + y over len(z) words (len(x), len(y) ≥ len(z)); returns the
// carry. One ADCQ chain; the loop control (LEAQ, JCXZQ) keeps CF.
TEXT ·addVVAsm(SB), NOSPLIT, $0-80
	MOVQ z_base+0(FP), DI
	MOVQ z_len+8(FP), R13
	MOVQ x_base+24(FP), SI
	MOVQ y_base+48(FP), R10
	MOVQ R13, R12
	ANDQ $3, R12           // r = n mod 4
	LEAQ (DI)(R12*8), R9   // &z[r]
	LEAQ (SI)(R12*8), R11  // &x[r]
	LEAQ (R10)(R12*8), R14 // &y[r]
	LEAQ (DI)(R13*8), DI   // &z[n]
	LEAQ (SI)(R13*8), SI   // &x[n]
	LEAQ (R10)(R13*8), R10 // &y[n]
	SUBQ R12, R13
	NEGQ R13               // −(n − r)
	NEGQ R12               // −r
	MOVQ R12, CX
	XORQ AX, AX            // clears CF
	JCXZQ addsdone

adds:
	MOVQ  (R11)(CX*8), AX
	ADCQ  (R14)(CX*8), AX
	MOVQ  AX, (R9)(CX*8)
	LEAQ  1(CX), CX
	JCXZQ addsdone
	JMP   adds

addsdone:
	MOVQ  R13, CX
	JCXZQ addbdone

addb:
	MOVQ  (SI)(CX*8), AX
	ADCQ  (R10)(CX*8), AX
	MOVQ  AX, (DI)(CX*8)
	MOVQ  8(SI)(CX*8), AX
	ADCQ  8(R10)(CX*8), AX
	MOVQ  AX, 8(DI)(CX*8)
	MOVQ  16(SI)(CX*8), AX
	ADCQ  16(R10)(CX*8), AX
	MOVQ  AX, 16(DI)(CX*8)
	MOVQ  24(SI)(CX*8), AX
	ADCQ  24(R10)(CX*8), AX
	MOVQ  AX, 24(DI)(CX*8)
	LEAQ  4(CX), CX
	JCXZQ addbdone
	JMP   addb

addbdone:
	MOVQ  $0, AX
	ADCQ  $0, AX
	MOVQ  AX, ret+72(FP)
	RET

// func subVVAsm(z, x, y []big.Word) big.Word
//
// z = x − y over len(z) words; returns the borrow. As addVVAsm.
TEXT ·subVVAsm(SB), NOSPLIT, $0-80
	MOVQ z_base+0(FP), DI
	MOVQ z_len+8(FP), R13
	MOVQ x_base+24(FP), SI
	MOVQ y_base+48(FP), R10
	MOVQ R13, R12
	ANDQ $3, R12
	LEAQ (DI)(R12*8), R9
	LEAQ (SI)(R12*8), R11
	LEAQ (R10)(R12*8), R14
	LEAQ (DI)(R13*8), DI
	LEAQ (SI)(R13*8), SI
	LEAQ (R10)(R13*8), R10
	SUBQ R12, R13
	NEGQ R13
	NEGQ R12
	MOVQ R12, CX
	XORQ AX, AX
	JCXZQ subsdone

subs:
	MOVQ  (R11)(CX*8), AX
	SBBQ  (R14)(CX*8), AX
	MOVQ  AX, (R9)(CX*8)
	LEAQ  1(CX), CX
	JCXZQ subsdone
	JMP   subs

subsdone:
	MOVQ  R13, CX
	JCXZQ subbdone

subb:
	MOVQ  (SI)(CX*8), AX
	SBBQ  (R10)(CX*8), AX
	MOVQ  AX, (DI)(CX*8)
	MOVQ  8(SI)(CX*8), AX
	SBBQ  8(R10)(CX*8), AX
	MOVQ  AX, 8(DI)(CX*8)
	MOVQ  16(SI)(CX*8), AX
	SBBQ  16(R10)(CX*8), AX
	MOVQ  AX, 16(DI)(CX*8)
	MOVQ  24(SI)(CX*8), AX
	SBBQ  24(R10)(CX*8), AX
	MOVQ  AX, 24(DI)(CX*8)
	LEAQ  4(CX), CX
	JCXZQ subbdone
	JMP   subb

subbdone:
	MOVQ  $0, AX
	ADCQ  $0, AX
	MOVQ  AX, ret+72(FP)
	RET

// func sqrRowsADX(z, x []big.Word)
//
// The triangle of a schoolbook square: for every i < len(x)−1,
// z[2i+1 : i+len(x)] += x[i+1:]·x[i] and the row's carry word is stored
// in z[i+len(x)]. z[:2·len(x)] must be zero on entry; the rows are
// mulRowsADX's, each row's length n−1−i split into n−1−i mod 8 single
// steps and blocks of eight. Locals: 0(SP) = −(blocks' words).
TEXT ·sqrRowsADX(SB), NOSPLIT, $8-48
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), R13
	XORQ R12, R12 // i

srow:
	MOVQ R13, AX
	SUBQ R12, AX
	SUBQ $1, AX           // L = n − 1 − i
	JLE  sdone
	MOVQ (SI)(R12*8), DX  // x[i]
	MOVQ AX, CX
	ANDQ $7, CX           // r
	SUBQ CX, AX           // q = L − r
	NEGQ AX
	MOVQ AX, 0(SP)        // −q
	LEAQ 8(SI)(R12*8), R10 // &x[i+1]
	LEAQ (R12)(R12*1), R11
	LEAQ 8(DI)(R11*8), R11 // &z[2i+1]
	LEAQ (R10)(CX*8), R10  // singles' ends: &x[i+1+r], &z[2i+1+r]
	LEAQ (R11)(CX*8), R11
	NEGQ AX
	LEAQ (R10)(AX*8), BX   // blocks' ends: &x[n], &z[i+n]
	LEAQ (R11)(AX*8), R14
	NEGQ CX                // −r
	XORQ R9, R9            // carry word; clears CF and OF
	JCXZQ ssinglesdone

ssingles:
	MULXQ (R10)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ (R11)(CX*8), AX
	MOVQ  AX, (R11)(CX*8)
	MOVQ  R8, R9
	LEAQ  1(CX), CX
	JCXZQ ssinglesdone
	JMP   ssingles

ssinglesdone:
	MOVQ  0(SP), CX // −q
	JCXZQ snoblocks
	JMP   sblocks

snoblocks:
	LEAQ (CX), CX // not a bare jump, which the assembler would thread
	JMP  sblocksdone

sblocks:
	MULXQ (BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ (R14)(CX*8), AX
	MOVQ  AX, (R14)(CX*8)
	MULXQ 8(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 8(R14)(CX*8), AX
	MOVQ  AX, 8(R14)(CX*8)
	MULXQ 16(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 16(R14)(CX*8), AX
	MOVQ  AX, 16(R14)(CX*8)
	MULXQ 24(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 24(R14)(CX*8), AX
	MOVQ  AX, 24(R14)(CX*8)
	MULXQ 32(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 32(R14)(CX*8), AX
	MOVQ  AX, 32(R14)(CX*8)
	MULXQ 40(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 40(R14)(CX*8), AX
	MOVQ  AX, 40(R14)(CX*8)
	MULXQ 48(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 48(R14)(CX*8), AX
	MOVQ  AX, 48(R14)(CX*8)
	MULXQ 56(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 56(R14)(CX*8), AX
	MOVQ  AX, 56(R14)(CX*8)
	LEAQ  8(CX), CX
	JCXZQ sblocksdone
	JMP   sblocks

sblocksdone:
	MOVQ  $0, AX
	ADCXQ AX, R9
	ADOXQ AX, R9
	MOVQ  R9, (R14) // z[i+n]
	INCQ  R12
	JMP   srow

sdone:
	RET
