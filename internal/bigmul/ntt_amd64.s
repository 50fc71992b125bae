//go:build !purego

// Radix-4 butterfly stages of the three-prime transform (ntt.go) on amd64:
// forward4Stage and inverse4Stage run one whole pair of stages, every
// block and every butterfly of it, with the data, the moduli and the
// butterfly's four values in registers and the block's six twiddle words
// in the frame (the Go loops of ntt_generic.go spill a dozen values per
// butterfly). The arithmetic is theirs, step for step: Shoup products
// q = ⌊y·w'/2^64⌋ (MULQ), r = y·w − q·p (IMULQ), lazy reduction by a
// conditional subtraction (CMOVQCC). Plain amd64: no BMI2 needed. Where
// the CPU has AVX-512 F and DQ, the stages run eight butterflies at a time
// (forward4StageAVX512 and inverse4StageAVX512 where a quarter holds a
// multiple of 8 words; the …Stage1… and …Stage4… kernels for quarters of
// 1 and 4 words, below).

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

// The finest stages have quarters of 4 words (two blocks per step) or of
// 1 word (eight blocks per step): their A, B, C, D are gathered into
// Z0–Z3 by permutations, the twiddles into Z20–Z28 lane by lane, the
// butterflies are the stages' above (FWDCORE, INVCORE), and the
// permutations are undone on the way out. The permutation indices come
// from the idx argument (avx512Idx in ntt_amd64.go).

// FWDCORE runs forward butterflies on A, B, C, D = Z0–Z3 (in [0, 4p)),
// leaving A”, B”, C”, D” in Z0–Z3; Z4–Z12 clobbered.
#define FWDCORE \
	VRED(Z0, Z12); \
	VRED(Z1, Z12); \
	VMULMOD(Z2, Z20, Z21, Z22); \
	VMULMOD(Z3, Z20, Z21, Z22); \
	VPADDQ Z30, Z0, Z4; \
	VPSUBQ Z2, Z4, Z4; \
	VPADDQ Z2, Z0, Z0; \
	VPADDQ Z30, Z1, Z5; \
	VPSUBQ Z3, Z5, Z5; \
	VPADDQ Z3, Z1, Z1; \
	VRED(Z0, Z12); \
	VRED(Z4, Z12); \
	VMULMOD(Z1, Z23, Z24, Z25); \
	VMULMOD(Z5, Z26, Z27, Z28); \
	VPADDQ Z30, Z0, Z6; \
	VPSUBQ Z1, Z6, Z6; \
	VPADDQ Z1, Z0, Z0; \
	VMOVDQA64 Z6, Z1; \
	VPADDQ Z30, Z4, Z3; \
	VPSUBQ Z5, Z3, Z3; \
	VPADDQ Z5, Z4, Z2

// INVCORE runs inverse butterflies on Z0–Z3 (in [0, 2p)), leaving the
// results in Z0–Z3; Z4–Z12 clobbered.
#define INVCORE \
	VPADDQ Z30, Z0, Z4; \
	VPSUBQ Z1, Z4, Z4; \
	VPADDQ Z1, Z0, Z0; \
	VRED(Z0, Z12); \
	VMULMOD(Z4, Z23, Z24, Z25); \
	VPADDQ Z30, Z2, Z5; \
	VPSUBQ Z3, Z5, Z5; \
	VPADDQ Z3, Z2, Z2; \
	VRED(Z2, Z12); \
	VMULMOD(Z5, Z26, Z27, Z28); \
	VPADDQ Z30, Z0, Z6; \
	VPSUBQ Z2, Z6, Z6; \
	VPADDQ Z2, Z0, Z0; \
	VRED(Z0, Z12); \
	VMULMOD(Z6, Z20, Z21, Z22); \
	VPADDQ Z30, Z4, Z7; \
	VPSUBQ Z5, Z7, Z7; \
	VPADDQ Z5, Z4, Z1; \
	VRED(Z1, Z12); \
	VMULMOD(Z7, Z20, Z21, Z22); \
	VMOVDQA64 Z6, Z2; \
	VMOVDQA64 Z7, Z3

// LOAD1 gathers eight blocks of one word per quarter, 32 words at R8, into
// Z0–Z3 = their A, B, C, D (Z16 = [0 4 8 12 1 5 9 13], Z17 = [2 6 10 14
// 3 7 11 15] as indices into two registers); and the blocks' twiddles:
// w1 and w1' from R13 and R14, the interleaved pairs (w2, w3) from R10
// and (w2', w3') from R11, split by Z18 = evens, Z19 = odds.
#define LOAD1 \
	VMOVDQU64 (R8), Z4; \
	VMOVDQU64 64(R8), Z5; \
	VMOVDQU64 128(R8), Z6; \
	VMOVDQU64 192(R8), Z7; \
	VMOVDQA64 Z4, Z13; \
	VPERMT2Q  Z5, Z16, Z13; \
	VPERMT2Q  Z5, Z17, Z4; \
	VMOVDQA64 Z6, Z14; \
	VPERMT2Q  Z7, Z16, Z14; \
	VPERMT2Q  Z7, Z17, Z6; \
	VSHUFI64X2 $0x44, Z14, Z13, Z0; \
	VSHUFI64X2 $0xee, Z14, Z13, Z1; \
	VSHUFI64X2 $0x44, Z6, Z4, Z2; \
	VSHUFI64X2 $0xee, Z6, Z4, Z3; \
	VMOVDQU64 (R13), Z20; \
	VMOVDQU64 (R14), Z21; \
	VPSRLQ    $32, Z21, Z22; \
	VMOVDQU64 (R10), Z23; \
	VMOVDQU64 64(R10), Z13; \
	VMOVDQA64 Z23, Z26; \
	VPERMT2Q  Z13, Z18, Z23; \
	VPERMT2Q  Z13, Z19, Z26; \
	VMOVDQU64 (R11), Z24; \
	VMOVDQU64 64(R11), Z13; \
	VMOVDQA64 Z24, Z27; \
	VPERMT2Q  Z13, Z18, Z24; \
	VPERMT2Q  Z13, Z19, Z27; \
	VPSRLQ    $32, Z24, Z25; \
	VPSRLQ    $32, Z27, Z28

// STORE1 undoes LOAD1's gathering of Z0–Z3 and stores the 32 words at R8.
#define STORE1 \
	VSHUFI64X2 $0x44, Z1, Z0, Z4; \
	VSHUFI64X2 $0xee, Z1, Z0, Z5; \
	VSHUFI64X2 $0x44, Z3, Z2, Z6; \
	VSHUFI64X2 $0xee, Z3, Z2, Z7; \
	VMOVDQA64 Z4, Z13; \
	VPERMT2Q  Z6, Z16, Z13; \
	VPERMT2Q  Z6, Z17, Z4; \
	VMOVDQA64 Z5, Z14; \
	VPERMT2Q  Z7, Z16, Z14; \
	VPERMT2Q  Z7, Z17, Z5; \
	VMOVDQU64 Z13, (R8); \
	VMOVDQU64 Z4, 64(R8); \
	VMOVDQU64 Z14, 128(R8); \
	VMOVDQU64 Z5, 192(R8)

// LOAD4 gathers two blocks of four words per quarter, 32 words at R8,
// into Z0–Z3, and their twiddles: w1, w1' (two words at R13, R14) spread
// by Z16 = [0 0 0 0 1 1 1 1], the pairs (w2, w3) and (w2', w3') (four
// words at R10, R11) by Z17 = [0 0 0 0 2 2 2 2] and Z18 = [1 1 1 1 3 3 3 3].
#define LOAD4 \
	VMOVDQU64 (R8), Z4; \
	VMOVDQU64 64(R8), Z5; \
	VMOVDQU64 128(R8), Z6; \
	VMOVDQU64 192(R8), Z7; \
	VSHUFI64X2 $0x44, Z6, Z4, Z0; \
	VSHUFI64X2 $0xee, Z6, Z4, Z1; \
	VSHUFI64X2 $0x44, Z7, Z5, Z2; \
	VSHUFI64X2 $0xee, Z7, Z5, Z3; \
	VMOVDQU   (R13), X13; \
	VPERMQ    Z13, Z16, Z20; \
	VMOVDQU   (R14), X13; \
	VPERMQ    Z13, Z16, Z21; \
	VPSRLQ    $32, Z21, Z22; \
	VMOVDQU   (R10), Y13; \
	VPERMQ    Z13, Z17, Z23; \
	VPERMQ    Z13, Z18, Z26; \
	VMOVDQU   (R11), Y13; \
	VPERMQ    Z13, Z17, Z24; \
	VPERMQ    Z13, Z18, Z27; \
	VPSRLQ    $32, Z24, Z25; \
	VPSRLQ    $32, Z27, Z28

// STORE4 undoes LOAD4's gathering and stores the 32 words at R8.
#define STORE4 \
	VSHUFI64X2 $0x44, Z1, Z0, Z4; \
	VSHUFI64X2 $0x44, Z3, Z2, Z5; \
	VSHUFI64X2 $0xee, Z1, Z0, Z6; \
	VSHUFI64X2 $0xee, Z3, Z2, Z7; \
	VMOVDQU64 Z4, (R8); \
	VMOVDQU64 Z5, 64(R8); \
	VMOVDQU64 Z6, 128(R8); \
	VMOVDQU64 Z7, 192(R8)

// func forward4Stage1AVX512(a, w, wp, w2, wp2 []uint64, blocks int, p uint64, idx *[64]uint64)
TEXT ·forward4Stage1AVX512(SB), NOSPLIT, $0-144
	MOVQ p+128(FP), R12
	VCONSTS
	MOVQ a_base+0(FP), R8
	MOVQ w_base+24(FP), R13
	MOVQ wp_base+48(FP), R14
	MOVQ w2_base+72(FP), R10
	MOVQ wp2_base+96(FP), R11
	MOVQ idx+136(FP), AX
	VMOVDQU64 (AX), Z16
	VMOVDQU64 64(AX), Z17
	VMOVDQU64 128(AX), Z18
	VMOVDQU64 192(AX), Z19
	MOVQ blocks+120(FP), CX
	SHRQ $3, CX

f1loop:
	LOAD1
	FWDCORE
	STORE1
	ADDQ $256, R8
	ADDQ $64, R13
	ADDQ $64, R14
	ADDQ $128, R10
	ADDQ $128, R11
	DECQ CX
	JNZ  f1loop
	VZEROUPPER
	RET

// func inverse4Stage1AVX512(a, w, wp, w2, wp2 []uint64, blocks int, p uint64, idx *[64]uint64)
TEXT ·inverse4Stage1AVX512(SB), NOSPLIT, $0-144
	MOVQ p+128(FP), R12
	VCONSTS
	MOVQ a_base+0(FP), R8
	MOVQ w_base+24(FP), R13
	MOVQ wp_base+48(FP), R14
	MOVQ w2_base+72(FP), R10
	MOVQ wp2_base+96(FP), R11
	MOVQ idx+136(FP), AX
	VMOVDQU64 (AX), Z16
	VMOVDQU64 64(AX), Z17
	VMOVDQU64 128(AX), Z18
	VMOVDQU64 192(AX), Z19
	MOVQ blocks+120(FP), CX
	SHRQ $3, CX

i1loop:
	LOAD1
	INVCORE
	STORE1
	ADDQ $256, R8
	ADDQ $64, R13
	ADDQ $64, R14
	ADDQ $128, R10
	ADDQ $128, R11
	DECQ CX
	JNZ  i1loop
	VZEROUPPER
	RET

// func forward4Stage4AVX512(a, w, wp, w2, wp2 []uint64, blocks int, p uint64, idx *[64]uint64)
TEXT ·forward4Stage4AVX512(SB), NOSPLIT, $0-144
	MOVQ p+128(FP), R12
	VCONSTS
	MOVQ a_base+0(FP), R8
	MOVQ w_base+24(FP), R13
	MOVQ wp_base+48(FP), R14
	MOVQ w2_base+72(FP), R10
	MOVQ wp2_base+96(FP), R11
	MOVQ idx+136(FP), AX
	VMOVDQU64 256(AX), Z16
	VMOVDQU64 320(AX), Z17
	VMOVDQU64 384(AX), Z18
	MOVQ blocks+120(FP), CX
	SHRQ $1, CX

f4loop:
	LOAD4
	FWDCORE
	STORE4
	ADDQ $256, R8
	ADDQ $16, R13
	ADDQ $16, R14
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ CX
	JNZ  f4loop
	VZEROUPPER
	RET

// func inverse4Stage4AVX512(a, w, wp, w2, wp2 []uint64, blocks int, p uint64, idx *[64]uint64)
TEXT ·inverse4Stage4AVX512(SB), NOSPLIT, $0-144
	MOVQ p+128(FP), R12
	VCONSTS
	MOVQ a_base+0(FP), R8
	MOVQ w_base+24(FP), R13
	MOVQ wp_base+48(FP), R14
	MOVQ w2_base+72(FP), R10
	MOVQ wp2_base+96(FP), R11
	MOVQ idx+136(FP), AX
	VMOVDQU64 256(AX), Z16
	VMOVDQU64 320(AX), Z17
	VMOVDQU64 384(AX), Z18
	MOVQ blocks+120(FP), CX
	SHRQ $1, CX

i4loop:
	LOAD4
	INVCORE
	STORE4
	ADDQ $256, R8
	ADDQ $16, R13
	ADDQ $16, R14
	ADDQ $32, R10
	ADDQ $32, R11
	DECQ CX
	JNZ  i4loop
	VZEROUPPER
	RET

// func pointwiseAVX512(a, b []uint64, p, pinv uint64)
//
// For j < len(a) rounded down to a multiple of 8: a[j] = a[j]·b[j]·2^−64
// mod p in [0, p), a[j] and b[j] in [0, 4p) first reduced to [0, p)
// (prime.pointwise's Montgomery product, eight at a time: the high words
// of a·b and m·p from four 32-bit products each). b may be a (squares).
TEXT ·pointwiseAVX512(SB), NOSPLIT, $0-64
	MOVQ a_base+0(FP), DI
	MOVQ a_len+8(FP), CX
	MOVQ b_base+24(FP), SI
	MOVQ p+48(FP), R12
	VCONSTS
	MOVQ pinv+56(FP), AX
	VPBROADCASTQ AX, Z28
	MOVQ R12, AX
	SHRQ $32, AX
	VPBROADCASTQ AX, Z27
	SHRQ $3, CX
	JZ   pwdone

pwloop:
	VMOVDQU64 (DI), Z0
	VMOVDQU64 (SI), Z1
	VRED(Z0, Z12)
	VPSUBQ    Z31, Z0, Z12
	VPMINUQ   Z12, Z0, Z0
	VRED(Z1, Z12)
	VPSUBQ    Z31, Z1, Z12
	VPMINUQ   Z12, Z1, Z1

	// Z7 = high words of x·y, Z8 = low words.
	VPSRLQ   $32, Z0, Z2
	VPSRLQ   $32, Z1, Z3
	VPMULUDQ Z1, Z0, Z4
	VPMULUDQ Z3, Z0, Z5
	VPMULUDQ Z1, Z2, Z6
	VPMULUDQ Z3, Z2, Z7
	VPSRLQ   $32, Z4, Z4
	VPADDQ   Z4, Z5, Z5
	VPANDQ   Z29, Z5, Z4
	VPADDQ   Z4, Z6, Z6
	VPSRLQ   $32, Z5, Z5
	VPSRLQ   $32, Z6, Z6
	VPADDQ   Z5, Z7, Z7
	VPADDQ   Z6, Z7, Z7
	VPMULLQ  Z1, Z0, Z8

	// m = lo·p^−1; Z3 = high words of m·p.
	VPMULLQ  Z28, Z8, Z8
	VPSRLQ   $32, Z8, Z2
	VPMULUDQ Z31, Z8, Z4
	VPMULUDQ Z27, Z8, Z5
	VPMULUDQ Z31, Z2, Z6
	VPMULUDQ Z27, Z2, Z3
	VPSRLQ   $32, Z4, Z4
	VPADDQ   Z4, Z5, Z5
	VPANDQ   Z29, Z5, Z4
	VPADDQ   Z4, Z6, Z6
	VPSRLQ   $32, Z5, Z5
	VPSRLQ   $32, Z6, Z6
	VPADDQ   Z5, Z3, Z3
	VPADDQ   Z6, Z3, Z3

	// hi − high(m·p) in (−p, p), mapped to [0, p).
	VPSUBQ    Z3, Z7, Z7
	VPADDQ    Z31, Z7, Z7
	VPSUBQ    Z31, Z7, Z4
	VPMINUQ   Z4, Z7, Z7
	VMOVDQU64 Z7, (DI)

	ADDQ $64, DI
	ADDQ $64, SI
	DECQ CX
	JNZ  pwloop

pwdone:
	VZEROUPPER
	RET

// VMULMODM(y, w, wl, wh, p) is VMULMOD with the factor's three vectors in
// memory and the modulus in register p; Z8–Z11 clobbered.
#define VMULMODM(y, w, wl, wh, p) \
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
	VPMULLQ  p, Z8, Z8; \
	VPSUBQ   Z8, y, y

// VREDP(x, p) maps x in [0, 2p) to [0, p); Z12 clobbered.
#define VREDP(x, p) \
	VPSUBQ  p, x, Z12; \
	VPMINUQ Z12, x, x

// func garnerPrepAVX512(r1, r2, r3 []uint64, c *[22 * 8]uint64)
//
// For j < len(r1) (a multiple of 8), the first steps of assemble and
// garner, eight coefficients at a time: the residues scaled into
// x_i = r_i·s_i mod p_i in [0, p_i), then k2 = (x2 − x1)·p1^−1 mod p2
// and k3 = (x3 − x1 − p1·k2)·(p1·p2)^−1 mod p3; r1, r2, r3 become x1,
// k2, k3. c holds each constant replicated over 8 words (garnerTable).
TEXT ·garnerPrepAVX512(SB), NOSPLIT, $0-80
	MOVQ r1_base+0(FP), DI
	MOVQ r1_len+8(FP), CX
	MOVQ r2_base+24(FP), SI
	MOVQ r3_base+48(FP), DX
	MOVQ c+72(FP), AX
	MOVQ $0xffffffff, BX
	VPBROADCASTQ BX, Z29
	VMOVDQU64 0(AX), Z13   // p1
	VMOVDQU64 64(AX), Z14  // p2
	VMOVDQU64 128(AX), Z15 // p3
	SHRQ $3, CX
	JZ   gpdone

gploop:
	VMOVDQU64 (DI), Z0
	VMULMODM(Z0, 192(AX), 256(AX), 320(AX), Z13)
	VREDP(Z0, Z13) // x1
	VMOVDQU64 (SI), Z1
	VMULMODM(Z1, 384(AX), 448(AX), 512(AX), Z14)
	VREDP(Z1, Z14) // x2
	VMOVDQU64 (DX), Z2
	VMULMODM(Z2, 576(AX), 640(AX), 704(AX), Z15)
	VREDP(Z2, Z15) // x3

	// k2 = (x2 − x1 mod p2 + p2)·p1^−1 mod p2.
	VPSUBQ  Z14, Z0, Z3
	VPMINUQ Z3, Z0, Z3
	VPSUBQ  Z3, Z1, Z1
	VPADDQ  Z14, Z1, Z1
	VMULMODM(Z1, 768(AX), 832(AX), 896(AX), Z14)
	VREDP(Z1, Z14)

	// k3 = (x3 + 3p3 − x1 mod p3 − p1·k2 mod p3)·(p1·p2)^−1 mod p3.
	VPSUBQ    Z15, Z0, Z3
	VPMINUQ   Z3, Z0, Z3
	VMOVDQA64 Z1, Z4
	VMULMODM(Z4, 960(AX), 1024(AX), 1088(AX), Z15)
	VPADDQ    1344(AX), Z2, Z2
	VPSUBQ    Z3, Z2, Z2
	VPSUBQ    Z4, Z2, Z2
	VMULMODM(Z2, 1152(AX), 1216(AX), 1280(AX), Z15)
	VREDP(Z2, Z15)

	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, (SI)
	VMOVDQU64 Z2, (DX)
	ADDQ $64, DI
	ADDQ $64, SI
	ADDQ $64, DX
	DECQ CX
	JNZ  gploop

gpdone:
	VZEROUPPER
	RET

// VMONT(x, y, out) sets out = x·y·2^−64 mod p in [0, p) (prime.mulMont,
// for x·y < p·2^64), the high words of x·y and of m·p from 32-bit
// products; Z31 = p, Z28 = p^−1 mod 2^64, Z27 = p>>32, Z29 = 2^32 − 1;
// Z16–Z22 clobbered; out may be x or y.
#define VMONT(x, y, out) \
	VPSRLQ   $32, x, Z16; \
	VPSRLQ   $32, y, Z17; \
	VPMULUDQ y, x, Z18; \
	VPMULUDQ Z17, x, Z19; \
	VPMULUDQ y, Z16, Z20; \
	VPMULUDQ Z17, Z16, Z21; \
	VPSRLQ   $32, Z18, Z18; \
	VPADDQ   Z18, Z19, Z19; \
	VPANDQ   Z29, Z19, Z18; \
	VPADDQ   Z18, Z20, Z20; \
	VPSRLQ   $32, Z19, Z19; \
	VPSRLQ   $32, Z20, Z20; \
	VPADDQ   Z19, Z21, Z21; \
	VPADDQ   Z20, Z21, Z21; \
	VPMULLQ  y, x, Z22; \
	VPMULLQ  Z28, Z22, Z22; \
	VPSRLQ   $32, Z22, Z16; \
	VPMULUDQ Z31, Z22, Z18; \
	VPMULUDQ Z27, Z22, Z19; \
	VPMULUDQ Z31, Z16, Z20; \
	VPMULUDQ Z27, Z16, Z17; \
	VPSRLQ   $32, Z18, Z18; \
	VPADDQ   Z18, Z19, Z19; \
	VPANDQ   Z29, Z19, Z18; \
	VPADDQ   Z18, Z20, Z20; \
	VPSRLQ   $32, Z19, Z19; \
	VPSRLQ   $32, Z20, Z20; \
	VPADDQ   Z19, Z17, Z17; \
	VPADDQ   Z20, Z17, Z17; \
	VPSUBQ   Z17, Z21, out; \
	VPADDQ   Z31, out, out; \
	VPSUBQ   Z31, out, Z18; \
	VPMINUQ  Z18, out, out

// SPLITSETUP loads, from the table c (splitTable) at AX: Z31 = p, Z30 =
// 2p, Z29 = 2^32 − 1, Z28 = p^−1, Z27 = p>>32, Z26, Z25, Z24 = i, its
// Shoup quotient and the quotient>>32, Z23 = the lanes' first twist
// factors, Z15 = the step ζ^±8·2^64; and sets CX = CX/8.
#define SPLITSETUP \
	VMOVDQU64 0(AX), Z31; \
	VMOVDQU64 64(AX), Z30; \
	VMOVDQU64 128(AX), Z29; \
	VMOVDQU64 192(AX), Z28; \
	VMOVDQU64 256(AX), Z27; \
	VMOVDQU64 320(AX), Z26; \
	VMOVDQU64 384(AX), Z25; \
	VMOVDQU64 448(AX), Z24; \
	VMOVDQU64 512(AX), Z23; \
	VMOVDQU64 576(AX), Z15; \
	SHRQ $3, CX

// func splitFoldAVX512(lo, mid, hi []uint64, c *[12 * 8]uint64)
//
// prime.splitFold's loop, eight coefficients at a time (len(lo) a
// multiple of 8, mid and hi as long).
TEXT ·splitFoldAVX512(SB), NOSPLIT, $0-80
	MOVQ lo_base+0(FP), DI
	MOVQ lo_len+8(FP), CX
	MOVQ mid_base+24(FP), SI
	MOVQ hi_base+48(FP), DX
	MOVQ c+72(FP), AX
	SPLITSETUP
	JZ   sfdone

sfloop:
	VMOVDQU64 (DI), Z0
	VRED(Z0, Z12)
	VREDP(Z0, Z31) // u
	VMOVDQU64 (SI), Z1
	VMULMOD(Z1, Z26, Z25, Z24)
	VREDP(Z1, Z31) // v = i·mid
	VMOVDQU64 (DX), Z2
	VRED(Z2, Z12)
	VREDP(Z2, Z31) // w
	VPADDQ    Z1, Z0, Z3
	VREDP(Z3, Z31)
	VPSUBQ    Z2, Z3, Z3
	VPADDQ    Z31, Z3, Z3
	VREDP(Z3, Z31) // c = u + v − w
	VMONT(Z3, Z23, Z4)
	VMOVDQU64 Z4, (DX)
	VMONT(Z23, Z15, Z23)
	VPADDQ    Z2, Z0, Z0
	VREDP(Z0, Z31)
	VMOVDQU64 Z0, (DI)
	ADDQ $64, DI
	ADDQ $64, SI
	ADDQ $64, DX
	DECQ CX
	JNZ  sfloop

sfdone:
	VZEROUPPER
	RET

// func splitJoinAVX512(lo, mid, hi []uint64, c *[12 * 8]uint64)
//
// prime.splitJoin's loop, eight coefficients at a time.
TEXT ·splitJoinAVX512(SB), NOSPLIT, $0-80
	MOVQ lo_base+0(FP), DI
	MOVQ lo_len+8(FP), CX
	MOVQ mid_base+24(FP), SI
	MOVQ hi_base+48(FP), DX
	MOVQ c+72(FP), AX
	SPLITSETUP
	JZ   sjdone

sjloop:
	VMOVDQU64 (DI), Z0
	VREDP(Z0, Z31) // x
	VMOVDQU64 (SI), Z1
	VREDP(Z1, Z31) // y
	VMOVDQU64 (DX), Z2
	VMONT(Z2, Z23, Z2) // b2 = ζ^−j·hi
	VMONT(Z23, Z15, Z23)
	VMOVDQA64 Z1, Z3
	VMULMOD(Z3, Z26, Z25, Z24)
	VREDP(Z3, Z31)
	VPADDQ    Z3, Z0, Z3
	VREDP(Z3, Z31) // ared = x + i·y
	VPANDQ    704(AX), Z3, Z4
	VPMULLQ   640(AX), Z4, Z4
	VPSRLQ    $1, Z3, Z3
	VPADDQ    Z4, Z3, Z3 // ared/2
	VPSUBQ    Z2, Z3, Z3
	VPADDQ    Z31, Z3, Z3
	VREDP(Z3, Z31) // u = ared/2 − b2
	VPSUBQ    Z3, Z0, Z0
	VPADDQ    Z31, Z0, Z0
	VREDP(Z0, Z31)
	VMOVDQU64 Z0, (DI)
	VMOVDQU64 Z1, (SI)
	VMOVDQU64 Z3, (DX)
	ADDQ $64, DI
	ADDQ $64, SI
	ADDQ $64, DX
	DECQ CX
	JNZ  sjloop

sjdone:
	VZEROUPPER
	RET
