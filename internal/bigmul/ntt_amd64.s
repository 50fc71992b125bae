//go:build !purego

// Radix-4 butterfly stages of the three-prime transform (ntt.go) on amd64:
// forward4Stage and inverse4Stage run one whole pair of stages, every
// block and every butterfly of it, with the data, the moduli and the
// butterfly's four values in registers and the block's six twiddle words
// in the frame (the Go loops of ntt_generic.go spill a dozen values per
// butterfly). The arithmetic is theirs, step for step: Shoup products
// q = ⌊y·w'/2^64⌋ (MULQ), r = y·w − q·p (IMULQ), lazy reduction by a
// conditional subtraction (CMOVQCC). Plain amd64: no BMI2 needed. Where
// the CPU has AVX-512 F and DQ, the stages whose quarters hold a multiple
// of 8 words run eight butterflies at a time (forward4StageAVX512 and
// inverse4StageAVX512, below).

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

// func cpuAVX512() bool
//
// AVX-512 F and DQ (CPUID leaf 7's EBX bits 16 and 17), with the OS
// saving the opmask and ZMM state (OSXSAVE, then XCR0 bits 1, 2, 5, 6, 7).
TEXT ·cpuAVX512(SB), NOSPLIT, $0-1
	MOVL $0, AX
	CPUID
	CMPL AX, $7
	JLT  no512
	MOVL $1, AX
	MOVL $0, CX
	CPUID
	ANDL $0x08000000, CX // OSXSAVE
	JZ   no512
	MOVL $0, CX
	BYTE $0x0f; BYTE $0x01; BYTE $0xd0 // XGETBV
	ANDL $0xe6, AX
	CMPL AX, $0xe6
	JNE  no512
	MOVL $7, AX
	MOVL $0, CX
	CPUID
	ANDL $0x30000, BX
	CMPL BX, $0x30000
	JNE  no512
	MOVB $1, ret+0(FP)
	RET

no512:
	MOVB $0, ret+0(FP)
	RET

// The AVX-512 stages run eight butterflies at once, lane j of a ZMM
// register holding word j of a quarter (qs a multiple of 8), with the
// scalar stages' arithmetic exactly: the high word of y·w' from four
// 32×32-bit products (VPMULUDQ), the low words of y·w and q·p by
// VPMULLQ, the conditional subtraction as an unsigned minimum.
// Z31 = p, Z30 = 2p, Z29 = 2^32 − 1; the block's twiddles w, w', w'>>32
// are broadcast into Z20–Z22 (w1), Z23–Z25 (w2), Z26–Z28 (w3).

// VMULMOD(y, w, wl, wh) sets y = y·w − ⌊y·w'/2^64⌋·p (low words), in
// [0, 2p); wl holds w' (its low halves serve), wh w'>>32; Z8–Z11 clobbered.
#define VMULMOD(y, w, wl, wh) \
	VPSRLQ   $32, y, Z8; \
	VPMULUDQ wl, y, Z9; \
	VPMULUDQ wh, y, Z10; \
	VPMULUDQ wl, Z8, Z11; \
	VPMULUDQ wh, Z8, Z8; \
	VPSRLQ   $32, Z9, Z9; \
	VPADDQ   Z9, Z10, Z10; \
	VPANDQ   Z29, Z10, Z9; \
	VPADDQ   Z9, Z11, Z11; \
	VPSRLQ   $32, Z10, Z10; \
	VPSRLQ   $32, Z11, Z11; \
	VPADDQ   Z10, Z8, Z8; \
	VPADDQ   Z11, Z8, Z8; \
	VPMULLQ  w, y, y; \
	VPMULLQ  Z31, Z8, Z8; \
	VPSUBQ   Z8, y, y

// VRED(x, t) maps x in [0, 4p) to [0, 2p): min(x, x − 2p) unsigned.
#define VRED(x, t) \
	VPSUBQ  Z30, x, t; \
	VPMINUQ t, x, x

// VTWIDDLES broadcasts block CX's twiddles (the tables w, wp, w2, wp2 at
// R13, R14, R15, SI) into Z20–Z28 and advances KB; BX, DX clobbered.
#define VTWIDDLES \
	MOVQ (R13)(CX*8), DX; \
	VPBROADCASTQ DX, Z20; \
	MOVQ (R14)(CX*8), DX; \
	VPBROADCASTQ DX, Z21; \
	SHRQ $32, DX; \
	VPBROADCASTQ DX, Z22; \
	LEAQ (CX)(CX*1), BX; \
	MOVQ (R15)(BX*8), DX; \
	VPBROADCASTQ DX, Z23; \
	MOVQ 8(R15)(BX*8), DX; \
	VPBROADCASTQ DX, Z26; \
	MOVQ (SI)(BX*8), DX; \
	VPBROADCASTQ DX, Z24; \
	SHRQ $32, DX; \
	VPBROADCASTQ DX, Z25; \
	MOVQ 8(SI)(BX*8), DX; \
	VPBROADCASTQ DX, Z27; \
	SHRQ $32, DX; \
	VPBROADCASTQ DX, Z28; \
	INCQ CX; \
	MOVQ CX, KB

// VCONSTS sets Z31 = p, Z30 = 2p, Z29 = 2^32 − 1 from R12 = p.
#define VCONSTS \
	VPBROADCASTQ R12, Z31; \
	LEAQ (R12)(R12*1), AX; \
	VPBROADCASTQ AX, Z30; \
	MOVQ $0xffffffff, AX; \
	VPBROADCASTQ AX, Z29

// func forward4StageAVX512(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64)
TEXT ·forward4StageAVX512(SB), NOSPLIT, $64-144
	MOVQ p+136(FP), R12
	VCONSTS
	MOVQ w_base+24(FP), R13
	MOVQ wp_base+48(FP), R14
	MOVQ w2_base+72(FP), R15
	MOVQ wp2_base+96(FP), SI
	MOVQ $0, KB
	MOVQ a_base+0(FP), AX
	MOVQ AX, BASE

vfblock:
	MOVQ KB, CX
	CMPQ CX, blocks+120(FP)
	JGE  vfdone
	VTWIDDLES
	MOVQ qs+128(FP), CX
	QUARTERS

vfbfly:
	VMOVDQU64 (R8)(CX*8), Z0
	VRED(Z0, Z12)
	VMOVDQU64 (R9)(CX*8), Z1
	VRED(Z1, Z12)
	VMOVDQU64 (R10)(CX*8), Z2
	VMULMOD(Z2, Z20, Z21, Z22)
	VMOVDQU64 (R11)(CX*8), Z3
	VMULMOD(Z3, Z20, Z21, Z22)

	// C = A − w1·C + 2p in Z4, A += w1·C; D = B − w1·D + 2p in Z5, B += w1·D.
	VPADDQ Z30, Z0, Z4
	VPSUBQ Z2, Z4, Z4
	VPADDQ Z2, Z0, Z0
	VPADDQ Z30, Z1, Z5
	VPSUBQ Z3, Z5, Z5
	VPADDQ Z3, Z1, Z1
	VRED(Z0, Z12)
	VRED(Z4, Z12)

	VMULMOD(Z1, Z23, Z24, Z25)
	VMULMOD(Z5, Z26, Z27, Z28)
	VPADDQ    Z1, Z0, Z6
	VMOVDQU64 Z6, (R8)(CX*8)
	VPADDQ    Z30, Z0, Z6
	VPSUBQ    Z1, Z6, Z6
	VMOVDQU64 Z6, (R9)(CX*8)
	VPADDQ    Z5, Z4, Z6
	VMOVDQU64 Z6, (R10)(CX*8)
	VPADDQ    Z30, Z4, Z6
	VPSUBQ    Z5, Z6, Z6
	VMOVDQU64 Z6, (R11)(CX*8)

	ADDQ $8, CX
	JNZ  vfbfly
	JMP  vfblock

vfdone:
	VZEROUPPER
	RET

// func inverse4StageAVX512(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64)
TEXT ·inverse4StageAVX512(SB), NOSPLIT, $64-144
	MOVQ p+136(FP), R12
	VCONSTS
	MOVQ w_base+24(FP), R13
	MOVQ wp_base+48(FP), R14
	MOVQ w2_base+72(FP), R15
	MOVQ wp2_base+96(FP), SI
	MOVQ $0, KB
	MOVQ a_base+0(FP), AX
	MOVQ AX, BASE

viblock:
	MOVQ KB, CX
	CMPQ CX, blocks+120(FP)
	JGE  vidone
	VTWIDDLES
	MOVQ qs+128(FP), CX
	QUARTERS

vibfly:
	VMOVDQU64 (R8)(CX*8), Z0
	VMOVDQU64 (R9)(CX*8), Z1
	VMOVDQU64 (R10)(CX*8), Z2
	VMOVDQU64 (R11)(CX*8), Z3

	// B = (A − B + 2p)·w2 in Z4, A = A + B; D = (C − D + 2p)·w3 in Z5, C = C + D.
	VPADDQ Z30, Z0, Z4
	VPSUBQ Z1, Z4, Z4
	VPADDQ Z1, Z0, Z0
	VRED(Z0, Z12)
	VMULMOD(Z4, Z23, Z24, Z25)
	VPADDQ Z30, Z2, Z5
	VPSUBQ Z3, Z5, Z5
	VPADDQ Z3, Z2, Z2
	VRED(Z2, Z12)
	VMULMOD(Z5, Z26, Z27, Z28)

	// A, C = A + C, (A − C + 2p)·w1; B, D = B + D, (B − D + 2p)·w1.
	VPADDQ    Z30, Z0, Z6
	VPSUBQ    Z2, Z6, Z6
	VPADDQ    Z2, Z0, Z0
	VRED(Z0, Z12)
	VMOVDQU64 Z0, (R8)(CX*8)
	VMULMOD(Z6, Z20, Z21, Z22)
	VMOVDQU64 Z6, (R10)(CX*8)
	VPADDQ    Z30, Z4, Z7
	VPSUBQ    Z5, Z7, Z7
	VPADDQ    Z5, Z4, Z4
	VRED(Z4, Z12)
	VMOVDQU64 Z4, (R9)(CX*8)
	VMULMOD(Z7, Z20, Z21, Z22)
	VMOVDQU64 Z7, (R11)(CX*8)

	ADDQ $8, CX
	JNZ  vibfly
	JMP  viblock

vidone:
	VZEROUPPER
	RET
