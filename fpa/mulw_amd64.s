//go:build !purego

// Word kernels of the n-word paths on amd64 with BMI2 (MULX) and ADX
// (ADCX, ADOX): two carry chains, one through CF and one through OF, so
// a word product costs about four instructions (see mulw.go). Loops are
// counted in CX by LOOP and entered through JCXZQ, which leave the flags
// alone, so the chains run unbroken through a row.

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

// func mulShortADX(z, x, y []big.Word, c int)
//
// Row i (y[i]) adds x[s:]·y[i] into z[s+i:len(x)+i] and stores its carry
// in z[len(x)+i], s = max(0, c−i): every product of column c or higher.
// z (len(x)+len(y) words) must be zero on entry.
TEXT ·mulShortADX(SB), NOSPLIT, $0-80
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ y_base+48(FP), R10
	XORQ R12, R12 // i
	XORQ R11, R11 // zero

row:
	CMPQ R12, y_len+56(FP)
	JGE  done
	MOVQ c+72(FP), R13
	SUBQ R12, R13 // s = c − i
	JGE  haves
	XORQ R13, R13

haves:
	MOVQ x_len+32(FP), AX
	SUBQ R13, AX // words in the row
	JLE  next
	LEAQ (SI)(R13*8), R14 // &x[s]
	ADDQ R12, R13
	LEAQ (DI)(R13*8), BX  // &z[s+i]
	MOVQ AX, R13
	SHRQ $2, R13          // blocks of four
	ANDQ $3, AX
	MOVQ AX, CX           // single words
	MOVQ (R10)(R12*8), DX // y[i]
	XORQ R9, R9           // carry word; clears CF and OF
	JCXZQ m1done

m1:
	MULXQ 0(R14), AX, R8
	ADCXQ R9, AX
	ADOXQ 0(BX), AX
	MOVQ  AX, 0(BX)
	MOVQ  R8, R9
	LEAQ  8(R14), R14
	LEAQ  8(BX), BX
	LOOP  m1

m1done:
	MOVQ  R13, CX
	JCXZQ m4done

m4:
	MULXQ 0(R14), AX, R8
	ADCXQ R9, AX
	ADOXQ 0(BX), AX
	MOVQ  AX, 0(BX)
	MULXQ 8(R14), AX, R9
	ADCXQ R8, AX
	ADOXQ 8(BX), AX
	MOVQ  AX, 8(BX)
	MULXQ 16(R14), AX, R8
	ADCXQ R9, AX
	ADOXQ 16(BX), AX
	MOVQ  AX, 16(BX)
	MULXQ 24(R14), AX, R9
	ADCXQ R8, AX
	ADOXQ 24(BX), AX
	MOVQ  AX, 24(BX)
	LEAQ  32(R14), R14
	LEAQ  32(BX), BX
	LOOP  m4

m4done:
	ADCXQ R11, R9 // x·y + carry + z < β²: no carry out
	ADOXQ R11, R9
	MOVQ  R9, 0(BX)

next:
	INCQ R12
	JMP  row

done:
	RET

// func subMulADX(z, x []big.Word, y big.Word) big.Word
//
// z −= x[:len(z)]·y; returns the word to subtract above z. The products'
// carries run through CF (ADCX); the subtraction z − p = z + ¬p + 1 runs
// through OF (ADOX), which starts at 1 and holds 1 − borrow.
TEXT ·subMulADX(SB), NOSPLIT, $0-64
	MOVQ z_base+0(FP), BX
	MOVQ z_len+8(FP), R13
	MOVQ x_base+24(FP), R14
	MOVQ y+48(FP), DX
	MOVQ R13, R12
	ANDQ $3, R12  // single words
	SHRQ $2, R13  // blocks of four
	XORQ R11, R11 // zero; clears CF and OF
	XORQ R9, R9   // carry word
	MOVQ $-1, R10
	MOVQ $1, AX
	ADOXQ R10, AX // 1 + (2^64−1): OF = 1
	MOVQ R12, CX
	JCXZQ s1done

s1:
	MULXQ 0(R14), AX, R8
	ADCXQ R9, AX
	NOTQ  AX
	ADOXQ 0(BX), AX
	MOVQ  AX, 0(BX)
	MOVQ  R8, R9
	LEAQ  8(R14), R14
	LEAQ  8(BX), BX
	LOOP  s1

s1done:
	MOVQ  R13, CX
	JCXZQ s4done

s4:
	MULXQ 0(R14), AX, R8
	ADCXQ R9, AX
	NOTQ  AX
	ADOXQ 0(BX), AX
	MOVQ  AX, 0(BX)
	MULXQ 8(R14), AX, R9
	ADCXQ R8, AX
	NOTQ  AX
	ADOXQ 8(BX), AX
	MOVQ  AX, 8(BX)
	MULXQ 16(R14), AX, R8
	ADCXQ R9, AX
	NOTQ  AX
	ADOXQ 16(BX), AX
	MOVQ  AX, 16(BX)
	MULXQ 24(R14), AX, R9
	ADCXQ R8, AX
	NOTQ  AX
	ADOXQ 24(BX), AX
	MOVQ  AX, 24(BX)
	LEAQ  32(R14), R14
	LEAQ  32(BX), BX
	LOOP  s4

s4done:
	ADCXQ R11, R9 // the last carry word plus CF
	MOVQ  R11, AX
	ADOXQ R11, AX // AX = OF = 1 − borrow
	INCQ  R9
	SUBQ  AX, R9
	MOVQ  R9, ret+56(FP)
	RET

// func divShortADX(q, u, v []big.Word, P int)
//
// divShortGo in one call: per quotient word, q̂ from u's top three words
// by v's top two (DIVQ and Knuth's test, the exact 3-by-2 quotient, or
// 2^64−1 when u's top two words are not below v's), then u −= q̂·v from
// word max(j, P) up (subMulADX's loop) and v added back while the top
// word borrows. Needs len(v) ≥ 2, 0 ≤ P ≤ len(v)−2, len(u) = len(q)+len(v).
TEXT ·divShortADX(SB), NOSPLIT, $0-80
	MOVQ u_base+24(FP), SI
	MOVQ v_base+48(FP), DI
	MOVQ q_len+8(FP), R12 // j+1

step:
	SUBQ $1, R12
	JLT  done
	MOVQ v_len+56(FP), R13   // n
	LEAQ (R12)(R13*1), BX    // t = j+n
	MOVQ (SI)(BX*8), R8      // u2
	MOVQ -8(SI)(BX*8), R9    // u1
	MOVQ -16(SI)(BX*8), R10  // u0
	MOVQ -8(DI)(R13*8), R11  // vh
	MOVQ -16(DI)(R13*8), R14 // vl
	MOVQ $-1, CX             // q̂
	CMPQ R8, R11
	JHI  qdone
	JCS  qdiv
	CMPQ R9, R14
	JCC  qdone               // (u2, u1) ≥ (vh, vl)
	MOVQ R9, R8
	ADDQ R11, R8             // u2 = vh: q̂ = 2^64−1, r̂ = u1 + vh
	JCS  qdone
	JMP  qtest

qdiv:
	MOVQ R9, AX
	MOVQ R8, DX
	DIVQ R11
	MOVQ AX, CX // q̂
	MOVQ DX, R8 // r̂

qtest: // while q̂·vl > r̂·β + u0: q̂−1, r̂ + vh (until r̂ ≥ β)
	MOVQ CX, AX
	MULQ R14
	CMPQ DX, R8
	JCS  qdone
	JHI  qdec
	CMPQ AX, R10
	JLS  qdone

qdec:
	SUBQ $1, CX
	ADDQ R11, R8
	JCC  qtest

qdone:
	MOVQ P+72(FP), AX
	SUBQ R12, AX
	JGE  i0ok
	XORQ AX, AX

i0ok: // i0 = max(0, P−j)
	LEAQ (DI)(AX*8), R14 // &v[i0]
	SUBQ AX, R13         // n − i0 words
	ADDQ R12, AX
	LEAQ (SI)(AX*8), BX  // &u[j+i0]
	MOVQ CX, DX          // q̂
	MOVQ R13, CX
	ANDQ $3, CX
	SHRQ $2, R13
	XORQ R11, R11        // zero; clears CF and OF
	XORQ R9, R9
	MOVQ $-1, R10
	MOVQ $1, AX
	ADOXQ R10, AX        // OF = 1
	JCXZQ d1done

d1:
	MULXQ 0(R14), AX, R8
	ADCXQ R9, AX
	NOTQ  AX
	ADOXQ 0(BX), AX
	MOVQ  AX, 0(BX)
	MOVQ  R8, R9
	LEAQ  8(R14), R14
	LEAQ  8(BX), BX
	LOOP  d1

d1done:
	MOVQ  R13, CX
	JCXZQ d4done

d4:
	MULXQ 0(R14), AX, R8
	ADCXQ R9, AX
	NOTQ  AX
	ADOXQ 0(BX), AX
	MOVQ  AX, 0(BX)
	MULXQ 8(R14), AX, R9
	ADCXQ R8, AX
	NOTQ  AX
	ADOXQ 8(BX), AX
	MOVQ  AX, 8(BX)
	MULXQ 16(R14), AX, R8
	ADCXQ R9, AX
	NOTQ  AX
	ADOXQ 16(BX), AX
	MOVQ  AX, 16(BX)
	MULXQ 24(R14), AX, R9
	ADCXQ R8, AX
	NOTQ  AX
	ADOXQ 24(BX), AX
	MOVQ  AX, 24(BX)
	LEAQ  32(R14), R14
	LEAQ  32(BX), BX
	LOOP  d4

d4done:
	ADCXQ R11, R9
	MOVQ  R11, AX
	ADOXQ R11, AX
	INCQ  R9
	SUBQ  AX, R9    // the word to subtract from u[t]
	SUBQ  R9, 0(BX) // BX = &u[t]
	JCC   store

addback: // q̂ was too large: q̂−1, u[j+i0 : t+1] += v[i0:]
	SUBQ $1, DX
	MOVQ P+72(FP), AX
	SUBQ R12, AX
	JGE  i0ok2
	XORQ AX, AX

i0ok2:
	LEAQ (DI)(AX*8), R14
	MOVQ v_len+56(FP), CX
	SUBQ AX, CX
	ADDQ R12, AX
	LEAQ (SI)(AX*8), BX
	CLC
	JCXZQ abtop

ab:
	MOVQ 0(R14), AX
	ADCQ AX, 0(BX)
	LEAQ 8(R14), R14
	LEAQ 8(BX), BX
	LOOP ab

abtop:
	ADCQ $0, 0(BX)
	JCC  addback // no carry out of u[t]: still negative

store:
	MOVQ q_base+0(FP), AX
	MOVQ DX, (AX)(R12*8)
	JMP  step

done:
	RET

// func shlVUAsm(z, x []big.Word, s uint)
//
// shlVUGo with SHLQ's double shift: z[i] = x[i]<<s | x[i−1]>>(64−s),
// z[len(x)] = x[len(x)−1]>>(64−s); a shift by 0 moves nothing in.
TEXT ·shlVUAsm(SB), NOSPLIT, $0-56
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), BX
	MOVQ s+48(FP), CX
	XORQ R8, R8 // x[i−1]
	TESTQ BX, BX
	JZ   shltop

shlloop:
	MOVQ 0(SI), R9
	MOVQ R9, R10
	SHLQ CX, R8, R10
	MOVQ R10, 0(DI)
	MOVQ R9, R8
	LEAQ 8(SI), SI
	LEAQ 8(DI), DI
	SUBQ $1, BX
	JNZ  shlloop

shltop:
	XORQ R10, R10
	SHLQ CX, R8, R10
	MOVQ R10, 0(DI)
	RET

// func shrVUAsm(z, x []big.Word, s uint)
//
// shrVUGo with SHRQ's double shift: z[i] = x[i]>>s | x[i+1]<<(64−s) for
// i < len(z); each x[i+1] is read before z[i] is written.
TEXT ·shrVUAsm(SB), NOSPLIT, $0-56
	MOVQ z_base+0(FP), DI
	MOVQ z_len+8(FP), BX
	MOVQ x_base+24(FP), SI
	MOVQ s+48(FP), CX
	TESTQ BX, BX
	JZ   shrdone
	MOVQ 0(SI), R8

shrloop:
	MOVQ 8(SI), R9
	SHRQ CX, R9, R8
	MOVQ R8, 0(DI)
	MOVQ R9, R8
	LEAQ 8(SI), SI
	LEAQ 8(DI), DI
	SUBQ $1, BX
	JNZ  shrloop

shrdone:
	RET

// func addShrADX(z, x, y []big.Word, s uint, cin big.Word) big.Word
//
// z[:len(x)] = x + (y >> s) + cin (0 < len(y) ≤ len(x), s < 64) and the
// carry out. y's words are shifted with SHRXQ and SHLXQ (BMI2), which
// leave the flags alone, so one ADCQ chain runs through the words;
// y[i+1] moves up by 1 then 63−s (0 when s = 0).
TEXT ·addShrADX(SB), NOSPLIT, $0-96
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), R12
	MOVQ y_base+48(FP), R8
	MOVQ y_len+56(FP), BX
	MOVQ s+72(FP), R9
	MOVQ $63, R10
	SUBQ R9, R10  // 63 − s
	SUBQ BX, R12  // words of x above y
	SUBQ $1, BX   // words with two of y's
	MOVQ BX, CX
	MOVQ cin+80(FP), AX
	NEGQ AX       // CF = cin
	JCXZQ apairdone

apair:
	MOVQ   8(R8), AX
	LEAQ   (AX)(AX*1), DX
	SHLXQ  R10, DX, DX
	SHRXQ  R9, 0(R8), R11
	LEAQ   (R11)(DX*1), R11 // disjoint bits: the sum is the or
	MOVQ   0(SI), AX
	ADCQ   R11, AX
	MOVQ   AX, 0(DI)
	LEAQ   8(R8), R8
	LEAQ   8(SI), SI
	LEAQ   8(DI), DI
	LOOP   apair

apairdone:
	SHRXQ R9, 0(R8), R11 // y's top word
	MOVQ  0(SI), AX
	ADCQ  R11, AX
	MOVQ  AX, 0(DI)
	LEAQ  8(SI), SI
	LEAQ  8(DI), DI
	MOVQ  R12, CX
	JCXZQ arestdone

arest:
	MOVQ 0(SI), AX
	ADCQ $0, AX
	MOVQ AX, 0(DI)
	LEAQ 8(SI), SI
	LEAQ 8(DI), DI
	LOOP arest

arestdone:
	SBBQ AX, AX
	NEGQ AX
	MOVQ AX, ret+88(FP)
	RET

// func subShrADX(z, x, y []big.Word, s uint, bin big.Word) big.Word
//
// addShrADX's subtraction: z[:len(x)] = x − (y >> s) − bin and the borrow
// out.
TEXT ·subShrADX(SB), NOSPLIT, $0-96
	MOVQ z_base+0(FP), DI
	MOVQ x_base+24(FP), SI
	MOVQ x_len+32(FP), R12
	MOVQ y_base+48(FP), R8
	MOVQ y_len+56(FP), BX
	MOVQ s+72(FP), R9
	MOVQ $63, R10
	SUBQ R9, R10
	SUBQ BX, R12
	SUBQ $1, BX
	MOVQ BX, CX
	MOVQ bin+80(FP), AX
	NEGQ AX       // CF = bin
	JCXZQ spairdone

spair:
	MOVQ   8(R8), AX
	LEAQ   (AX)(AX*1), DX
	SHLXQ  R10, DX, DX
	SHRXQ  R9, 0(R8), R11
	LEAQ   (R11)(DX*1), R11
	MOVQ   0(SI), AX
	SBBQ   R11, AX
	MOVQ   AX, 0(DI)
	LEAQ   8(R8), R8
	LEAQ   8(SI), SI
	LEAQ   8(DI), DI
	LOOP   spair

spairdone:
	SHRXQ R9, 0(R8), R11
	MOVQ  0(SI), AX
	SBBQ  R11, AX
	MOVQ  AX, 0(DI)
	LEAQ  8(SI), SI
	LEAQ  8(DI), DI
	MOVQ  R12, CX
	JCXZQ srestdone

srest:
	MOVQ 0(SI), AX
	SBBQ $0, AX
	MOVQ AX, 0(DI)
	LEAQ 8(SI), SI
	LEAQ 8(DI), DI
	LOOP srest

srestdone:
	SBBQ AX, AX
	NEGQ AX
	MOVQ AX, ret+88(FP)
	RET
