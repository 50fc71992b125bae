//go:build !purego

// Radix-4 butterfly stages of the three-prime transform (ntt.go) on amd64:
// forward4Stage and inverse4Stage run one whole pair of stages, every
// block and every butterfly of it, with the data, the moduli and the
// butterfly's four values in registers and the block's six twiddle words
// in the frame (the Go loops of ntt_generic.go spill a dozen values per
// butterfly). The arithmetic is theirs, step for step: Shoup products
// q = ⌊y·w'/2^64⌋ (MULQ), r = y·w − q·p (IMULQ), lazy reduction by a
// conditional subtraction (CMOVQCC). Plain amd64: no BMI2 needed.

#include "textflag.h"

// The frame: the current block's twiddles and the block loop's state.
#define W1 0(SP)
#define W1P 8(SP)
#define W2 16(SP)
#define W2P 24(SP)
#define W3 32(SP)
#define W3P 40(SP)
#define KB 48(SP)
#define BASE 56(SP)

// SHOUP(y, w, wp) sets y = y·w mod p in [0, 2p) (p in R12); AX, DX clobbered.
#define SHOUP(y, w, wp) \
	MOVQ  y, AX; \
	MULQ  wp; \
	IMULQ w, y; \
	IMULQ R12, DX; \
	SUBQ  DX, y

// RED(x) maps x in [0, 4p) to [0, 2p) (2p in R13); R15 clobbered.
#define RED(x) \
	MOVQ    x, R15; \
	SUBQ    R13, R15; \
	CMOVQCC R15, x

// (Each block loads its twiddles w[k], wp[k], w2[2k], wp2[2k], w2[2k+1],
// wp2[2k+1] into the frame and advances KB.)

// QUARTERS points R8–R11 at the ends of the current block's four quarters
// of CX = qs words, advances BASE by a block and sets CX = −qs; AX, BX
// clobbered.
#define QUARTERS \
	MOVQ CX, BX; \
	SHLQ $3, BX; \
	MOVQ BASE, AX; \
	LEAQ (AX)(BX*1), R8; \
	LEAQ (R8)(BX*1), R9; \
	LEAQ (R9)(BX*1), R10; \
	LEAQ (R10)(BX*1), R11; \
	MOVQ R11, BASE; \
	NEGQ CX

// func forward4StageAsm(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64)
TEXT ·forward4StageAsm(SB), NOSPLIT, $64-144
	MOVQ p+136(FP), R12
	LEAQ (R12)(R12*1), R13
	MOVQ $0, KB
	MOVQ a_base+0(FP), AX
	MOVQ AX, BASE

fblock:
	MOVQ KB, CX
	CMPQ CX, blocks+120(FP)
	JGE  fdone
	MOVQ w_base+24(FP), AX
	MOVQ (AX)(CX*8), DX
	MOVQ DX, W1
	MOVQ wp_base+48(FP), AX
	MOVQ (AX)(CX*8), DX
	MOVQ DX, W1P
	LEAQ (CX)(CX*1), BX
	MOVQ w2_base+72(FP), AX
	MOVQ (AX)(BX*8), DX
	MOVQ DX, W2
	MOVQ 8(AX)(BX*8), DX
	MOVQ DX, W3
	MOVQ wp2_base+96(FP), AX
	MOVQ (AX)(BX*8), DX
	MOVQ DX, W2P
	MOVQ 8(AX)(BX*8), DX
	MOVQ DX, W3P
	INCQ CX
	MOVQ CX, KB
	MOVQ qs+128(FP), CX
	QUARTERS

fbfly:
	MOVQ (R8)(CX*8), BX  // A
	RED(BX)
	MOVQ (R9)(CX*8), SI  // B
	RED(SI)
	MOVQ (R10)(CX*8), DI // C
	SHOUP(DI, W1, W1P)
	MOVQ (R11)(CX*8), R14 // D
	SHOUP(R14, W1, W1P)

	// A, C = A + w1·C, A − w1·C + 2p; B, D likewise.
	LEAQ (BX)(R13*1), R15
	SUBQ DI, R15
	ADDQ DI, BX
	MOVQ R15, DI
	LEAQ (SI)(R13*1), R15
	SUBQ R14, R15
	ADDQ R14, SI
	MOVQ R15, R14
	RED(BX)
	RED(DI)

	SHOUP(SI, W2, W2P)
	SHOUP(R14, W3, W3P)
	LEAQ (BX)(SI*1), AX
	MOVQ AX, (R8)(CX*8)
	LEAQ (BX)(R13*1), AX
	SUBQ SI, AX
	MOVQ AX, (R9)(CX*8)
	LEAQ (DI)(R14*1), AX
	MOVQ AX, (R10)(CX*8)
	LEAQ (DI)(R13*1), AX
	SUBQ R14, AX
	MOVQ AX, (R11)(CX*8)

	INCQ CX
	JNZ  fbfly
	JMP  fblock

fdone:
	RET

// func inverse4StageAsm(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64)
TEXT ·inverse4StageAsm(SB), NOSPLIT, $64-144
	MOVQ p+136(FP), R12
	LEAQ (R12)(R12*1), R13
	MOVQ $0, KB
	MOVQ a_base+0(FP), AX
	MOVQ AX, BASE

iblock:
	MOVQ KB, CX
	CMPQ CX, blocks+120(FP)
	JGE  idone
	MOVQ w_base+24(FP), AX
	MOVQ (AX)(CX*8), DX
	MOVQ DX, W1
	MOVQ wp_base+48(FP), AX
	MOVQ (AX)(CX*8), DX
	MOVQ DX, W1P
	LEAQ (CX)(CX*1), BX
	MOVQ w2_base+72(FP), AX
	MOVQ (AX)(BX*8), DX
	MOVQ DX, W2
	MOVQ 8(AX)(BX*8), DX
	MOVQ DX, W3
	MOVQ wp2_base+96(FP), AX
	MOVQ (AX)(BX*8), DX
	MOVQ DX, W2P
	MOVQ 8(AX)(BX*8), DX
	MOVQ DX, W3P
	INCQ CX
	MOVQ CX, KB
	MOVQ qs+128(FP), CX
	QUARTERS

ibfly:
	MOVQ (R8)(CX*8), BX   // A
	MOVQ (R9)(CX*8), SI   // B
	MOVQ (R10)(CX*8), DI  // C
	MOVQ (R11)(CX*8), R14 // D

	// A, B = A + B, (A − B + 2p)·w2; C, D = C + D, (C − D + 2p)·w3.
	LEAQ (BX)(R13*1), R15
	SUBQ SI, R15
	ADDQ SI, BX
	MOVQ R15, SI
	RED(BX)
	SHOUP(SI, W2, W2P)
	LEAQ (DI)(R13*1), R15
	SUBQ R14, R15
	ADDQ R14, DI
	MOVQ R15, R14
	RED(DI)
	SHOUP(R14, W3, W3P)

	// A, C = A + C, (A − C + 2p)·w1; B, D = B + D, (B − D + 2p)·w1.
	LEAQ (BX)(R13*1), R15
	SUBQ DI, R15
	ADDQ DI, BX
	MOVQ R15, DI
	RED(BX)
	MOVQ BX, (R8)(CX*8)
	SHOUP(DI, W1, W1P)
	MOVQ DI, (R10)(CX*8)
	LEAQ (SI)(R13*1), R15
	SUBQ R14, R15
	ADDQ R14, SI
	MOVQ R15, R14
	RED(SI)
	MOVQ SI, (R9)(CX*8)
	SHOUP(R14, W1, W1P)
	MOVQ R14, (R11)(CX*8)

	INCQ CX
	JNZ  ibfly
	JMP  iblock

idone:
	RET
