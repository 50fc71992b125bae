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

// func sqrDiagADX(z, x []big.Word)
//
// The diagonal of a schoolbook square: z[:2·len(x)] = 2·z +
// Σ x_i²·β^(2i), which must fit. The doubling runs through CF (ADCX of a
// word with itself shifts it left, the bit out into CF), the squares
// through OF (ADOX); len(z) ≥ 2·len(x).
TEXT ·sqrDiagADX(SB), NOSPLIT, $0-48
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), CX
	NEGQ CX
	XORQ AX, AX // clears CF and OF
	JCXZQ ddone

dloop:
	MOVQ  (SI), DX
	MULXQ DX, AX, BX // BX:AX = x_i²
	MOVQ  (DI), R8
	MOVQ  8(DI), R9
	ADCXQ R8, R8
	ADCXQ R9, R9
	ADOXQ AX, R8
	ADOXQ BX, R9
	MOVQ  R8, (DI)
	MOVQ  R9, 8(DI)
	LEAQ  8(SI), SI
	LEAQ  16(DI), DI
	LEAQ  1(CX), CX
	JCXZQ ddone
	JMP   dloop

ddone:
	RET

// func sqrRowsADX(z, x []big.Word)
//
// The triangle of a schoolbook square: z[:2·len(x)] = Σ_{i<j} x_i·x_j·
// β^(i+j), by rows: row 0 writes z[1 : len(x)+1] = x[1:]·x[0], row
// i ≥ 1 adds x[i+1:]·x[i] into z[2i+1 : i+len(x)] and stores its carry
// word in z[i+len(x)]; z[0] and z[2·len(x)−1] are zeroed (no word of z
// is read before it is written). A row of L words
// is ⌈L/8⌉ blocks of eight steps, the first entered at step 8⌈L/8⌉ − L
// (Duff's device: a branch tree on (L − 1) mod 8 picks one of eight
// stubs, which clears the carry word that step reads, and CF and OF).
TEXT ·sqrRowsADX(SB), NOSPLIT, $0-48
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), R13
	LEAQ (SI)(R13*8), BX  // &x[n]: every row's end in x
	LEAQ (DI)(R13*8), R14 // &z[i+n]: row i's end in z
	XORQ R12, R12         // i
	TESTQ R13, R13
	JZ   qdone
	MOVQ R12, (DI)        // z[0] = 0
	MOVQ R12, -8(R14)(R13*8) // z[2n−1] = 0
	MOVQ R13, AX
	SUBQ $1, AX           // row 0's length L = n − 1
	JLE  qdone

	// Row 0 writes z[1 : n+1] = x[1:]·x[0] (no words to add yet).
	MOVQ (SI), DX
	ADDQ $7, AX
	MOVQ AX, CX
	ANDQ $-8, CX
	NEGQ CX
	ANDQ $7, AX

	CMPQ AX, $3
	JHI  rd4567
	CMPQ AX, $1
	JHI  rd23
	JEQ  re1
	JMP  re0
rd23:
	CMPQ AX, $2
	JEQ  re2
	JMP  re3
rd4567:
	CMPQ AX, $5
	JHI  rd67
	JEQ  re5
	JMP  re4
rd67:
	CMPQ AX, $6
	JEQ  re6
	JMP  re7
re0:
	XORQ R8, R8 // clears CF
	JMP  rp7
re1:
	XORQ R9, R9 // clears CF
	JMP  rp6
re2:
	XORQ R8, R8 // clears CF
	JMP  rp5
re3:
	XORQ R9, R9 // clears CF
	JMP  rp4
re4:
	XORQ R8, R8 // clears CF
	JMP  rp3
re5:
	XORQ R9, R9 // clears CF
	JMP  rp2
re6:
	XORQ R8, R8 // clears CF
	JMP  rp1
re7:
	XORQ R9, R9 // clears CF
	JMP  rp0

rblocks:
rp0:
	MULXQ (BX)(CX*8), AX, R8
	ADCXQ R9, AX
	MOVQ  AX, (R14)(CX*8)
rp1:
	MULXQ 8(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	MOVQ  AX, 8(R14)(CX*8)
rp2:
	MULXQ 16(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	MOVQ  AX, 16(R14)(CX*8)
rp3:
	MULXQ 24(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	MOVQ  AX, 24(R14)(CX*8)
rp4:
	MULXQ 32(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	MOVQ  AX, 32(R14)(CX*8)
rp5:
	MULXQ 40(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	MOVQ  AX, 40(R14)(CX*8)
rp6:
	MULXQ 48(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	MOVQ  AX, 48(R14)(CX*8)
rp7:
	MULXQ 56(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	MOVQ  AX, 56(R14)(CX*8)
	LEAQ  8(CX), CX
	JCXZQ rblocksdone
	JMP   rblocks

rblocksdone:
	MOVQ  $0, AX
	ADCXQ AX, R9
	MOVQ  R9, (R14) // z[n]
	INCQ  R12
	LEAQ  8(R14), R14

qrow:
	MOVQ R13, AX
	SUBQ R12, AX
	SUBQ $1, AX          // L = n − 1 − i
	JLE  qdone
	MOVQ (SI)(R12*8), DX // x[i]
	ADDQ $7, AX
	MOVQ AX, CX
	ANDQ $-8, CX
	NEGQ CX              // −8·⌈L/8⌉
	ANDQ $7, AX          // j = (L − 1) mod 8

	CMPQ AX, $3
	JHI  qd4567
	CMPQ AX, $1
	JHI  qd23
	JEQ  qe1
	JMP  qe0
qd23:
	CMPQ AX, $2
	JEQ  qe2
	JMP  qe3
qd4567:
	CMPQ AX, $5
	JHI  qd67
	JEQ  qe5
	JMP  qe4
qd67:
	CMPQ AX, $6
	JEQ  qe6
	JMP  qe7
qe0:
	XORQ R8, R8 // clears CF and OF
	JMP  qp7
qe1:
	XORQ R9, R9 // clears CF and OF
	JMP  qp6
qe2:
	XORQ R8, R8 // clears CF and OF
	JMP  qp5
qe3:
	XORQ R9, R9 // clears CF and OF
	JMP  qp4
qe4:
	XORQ R8, R8 // clears CF and OF
	JMP  qp3
qe5:
	XORQ R9, R9 // clears CF and OF
	JMP  qp2
qe6:
	XORQ R8, R8 // clears CF and OF
	JMP  qp1
qe7:
	XORQ R9, R9 // clears CF and OF
	JMP  qp0

qblocks:
qp0:
	MULXQ (BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ (R14)(CX*8), AX
	MOVQ  AX, (R14)(CX*8)
qp1:
	MULXQ 8(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 8(R14)(CX*8), AX
	MOVQ  AX, 8(R14)(CX*8)
qp2:
	MULXQ 16(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 16(R14)(CX*8), AX
	MOVQ  AX, 16(R14)(CX*8)
qp3:
	MULXQ 24(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 24(R14)(CX*8), AX
	MOVQ  AX, 24(R14)(CX*8)
qp4:
	MULXQ 32(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 32(R14)(CX*8), AX
	MOVQ  AX, 32(R14)(CX*8)
qp5:
	MULXQ 40(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 40(R14)(CX*8), AX
	MOVQ  AX, 40(R14)(CX*8)
qp6:
	MULXQ 48(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 48(R14)(CX*8), AX
	MOVQ  AX, 48(R14)(CX*8)
qp7:
	MULXQ 56(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 56(R14)(CX*8), AX
	MOVQ  AX, 56(R14)(CX*8)
	LEAQ  8(CX), CX
	JCXZQ qblocksdone
	JMP   qblocks

qblocksdone:
	MOVQ  $0, AX
	ADCXQ AX, R9
	ADOXQ AX, R9
	MOVQ  R9, (R14) // z[i+n]
	INCQ  R12
	LEAQ  8(R14), R14
	JMP   qrow

qdone:
	RET


// func mulRowsADX(z, x, y []big.Word)
//
// For every j < len(y): z[j : j+len(x)] += x·y[j], and the row's carry
// word is stored (not added) in z[j+len(x)]. With z[:len(x)] zero on
// entry this leaves z[:len(x)+len(y)] = x·y (schoolbook product, rows
// of addmul_1). len(x) ≥ 1; rows are entered into blocks of eight as in
// sqrRowsADX.
TEXT ·mulRowsADX(SB), NOSPLIT, $0-72
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), R13
	MOVQ y_base+48(FP), R10
	MOVQ y_len+56(FP), R12
	LEAQ (SI)(R13*8), BX  // &x[n]
	LEAQ (DI)(R13*8), R14 // &z[j+n]: row j's end in z
	LEAQ 7(R13), R11
	ANDQ $-8, R11
	NEGQ R11              // −8·⌈n/8⌉
	DECQ R13
	ANDQ $7, R13          // (n − 1) mod 8

mrow:
	TESTQ R12, R12
	JZ    mdone
	MOVQ  (R10), DX // y[j]
	LEAQ  8(R10), R10
	MOVQ  R11, CX
	MOVQ  R13, AX

	CMPQ AX, $3
	JHI  md4567
	CMPQ AX, $1
	JHI  md23
	JEQ  me1
	JMP  me0
md23:
	CMPQ AX, $2
	JEQ  me2
	JMP  me3
md4567:
	CMPQ AX, $5
	JHI  md67
	JEQ  me5
	JMP  me4
md67:
	CMPQ AX, $6
	JEQ  me6
	JMP  me7
me0:
	XORQ R8, R8 // clears CF and OF
	JMP  mp7
me1:
	XORQ R9, R9 // clears CF and OF
	JMP  mp6
me2:
	XORQ R8, R8 // clears CF and OF
	JMP  mp5
me3:
	XORQ R9, R9 // clears CF and OF
	JMP  mp4
me4:
	XORQ R8, R8 // clears CF and OF
	JMP  mp3
me5:
	XORQ R9, R9 // clears CF and OF
	JMP  mp2
me6:
	XORQ R8, R8 // clears CF and OF
	JMP  mp1
me7:
	XORQ R9, R9 // clears CF and OF
	JMP  mp0

mblocks:
mp0:
	MULXQ (BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ (R14)(CX*8), AX
	MOVQ  AX, (R14)(CX*8)
mp1:
	MULXQ 8(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 8(R14)(CX*8), AX
	MOVQ  AX, 8(R14)(CX*8)
mp2:
	MULXQ 16(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 16(R14)(CX*8), AX
	MOVQ  AX, 16(R14)(CX*8)
mp3:
	MULXQ 24(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 24(R14)(CX*8), AX
	MOVQ  AX, 24(R14)(CX*8)
mp4:
	MULXQ 32(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 32(R14)(CX*8), AX
	MOVQ  AX, 32(R14)(CX*8)
mp5:
	MULXQ 40(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 40(R14)(CX*8), AX
	MOVQ  AX, 40(R14)(CX*8)
mp6:
	MULXQ 48(BX)(CX*8), AX, R8
	ADCXQ R9, AX
	ADOXQ 48(R14)(CX*8), AX
	MOVQ  AX, 48(R14)(CX*8)
mp7:
	MULXQ 56(BX)(CX*8), AX, R9
	ADCXQ R8, AX
	ADOXQ 56(R14)(CX*8), AX
	MOVQ  AX, 56(R14)(CX*8)
	LEAQ  8(CX), CX
	JCXZQ mblocksdone
	JMP   mblocks

mblocksdone:
	MOVQ  $0, AX
	ADCXQ AX, R9
	ADOXQ AX, R9
	MOVQ  R9, (R14) // z[j+n]
	LEAQ  8(R14), R14
	DECQ  R12
	JMP   mrow

mdone:
	RET
