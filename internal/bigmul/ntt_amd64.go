//go:build amd64 && !purego

package bigmul

// stageAsm selects the assembly stages; tests clear it to time and check
// the Go ones on amd64.
var stageAsm = true

// useAVX512 reports whether the CPU and the OS support AVX-512 F and DQ:
// then the stages whose quarters are a multiple of 8 words run eight
// butterflies at a time (forward4StageAVX512, inverse4StageAVX512).
var useAVX512 = cpuAVX512()

// cpuAVX512 reports AVX-512 F and DQ with the OS saving the ZMM state.
func cpuAVX512() bool

// forward4Stage is forward4StageGo in assembly (ntt_amd64.s), after a
// check of the slices' lengths, which the assembly does not bound.
func forward4Stage(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64) {
	if !stageAsm {
		forward4StageGo(a, w, wp, w2, wp2, blocks, qs, p)
		return
	}
	checkStage(a, w, wp, w2, wp2, blocks, qs)
	if useAVX512 {
		switch {
		case qs%8 == 0:
			forward4StageAVX512(a, w, wp, w2, wp2, blocks, qs, p)
			return
		case qs == 1 && blocks%8 == 0:
			forward4Stage1AVX512(a, w, wp, w2, wp2, blocks, p, &avx512Idx)
			return
		case qs == 4 && blocks%2 == 0:
			forward4Stage4AVX512(a, w, wp, w2, wp2, blocks, p, &avx512Idx)
			return
		}
	}
	forward4StageAsm(a, w, wp, w2, wp2, blocks, qs, p)
}

// inverse4Stage is inverse4StageGo in assembly (ntt_amd64.s).
func inverse4Stage(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64) {
	if !stageAsm {
		inverse4StageGo(a, w, wp, w2, wp2, blocks, qs, p)
		return
	}
	checkStage(a, w, wp, w2, wp2, blocks, qs)
	if useAVX512 {
		switch {
		case qs%8 == 0:
			inverse4StageAVX512(a, w, wp, w2, wp2, blocks, qs, p)
			return
		case qs == 1 && blocks%8 == 0:
			inverse4Stage1AVX512(a, w, wp, w2, wp2, blocks, p, &avx512Idx)
			return
		case qs == 4 && blocks%2 == 0:
			inverse4Stage4AVX512(a, w, wp, w2, wp2, blocks, p, &avx512Idx)
			return
		}
	}
	inverse4StageAsm(a, w, wp, w2, wp2, blocks, qs, p)
}

// checkStage panics unless the slices hold what a stage reads and writes.
func checkStage(a, w, wp, w2, wp2 []uint64, blocks, qs int) {
	if blocks < 1 || qs < 1 || len(a) != 4*blocks*qs || len(w) < blocks || len(wp) < blocks ||
		len(w2) < 2*blocks || len(wp2) < 2*blocks {
		panic("bigmul: butterfly stage with mismatched lengths")
	}
}

//go:noescape
func forward4StageAsm(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64)

//go:noescape
func inverse4StageAsm(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64)

//go:noescape
func forward4StageAVX512(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64)

//go:noescape
func inverse4StageAVX512(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64)

// avx512Idx holds the lane permutations of the finest AVX-512 stages:
// for quarters of one word, the 4×4 transposes of two registers (lanes
// 0–7 and 8–15: [0 4 8 12 1 5 9 13], [2 6 10 14 3 7 11 15]) and the even
// and odd words of two registers (16–23, 24–31); for quarters of four
// words, a block's twiddle spread over four lanes (32–39, 40–47, 48–55).
var avx512Idx = [64]uint64{
	0, 4, 8, 12, 1, 5, 9, 13,
	2, 6, 10, 14, 3, 7, 11, 15,
	0, 2, 4, 6, 8, 10, 12, 14,
	1, 3, 5, 7, 9, 11, 13, 15,
	0, 0, 0, 0, 1, 1, 1, 1,
	0, 0, 0, 0, 2, 2, 2, 2,
	1, 1, 1, 1, 3, 3, 3, 3,
}

// The finest stages with AVX-512: quarters of one word, eight blocks per
// step (blocks a multiple of 8), and of four words, two blocks per step
// (blocks even).

//go:noescape
func forward4Stage1AVX512(a, w, wp, w2, wp2 []uint64, blocks int, p uint64, idx *[64]uint64)

//go:noescape
func inverse4Stage1AVX512(a, w, wp, w2, wp2 []uint64, blocks int, p uint64, idx *[64]uint64)

//go:noescape
func forward4Stage4AVX512(a, w, wp, w2, wp2 []uint64, blocks int, p uint64, idx *[64]uint64)

//go:noescape
func inverse4Stage4AVX512(a, w, wp, w2, wp2 []uint64, blocks int, p uint64, idx *[64]uint64)

// pointwiseAVX512 is prime.pointwise's loop, eight products at a time, on
// the first len(a) &^ 7 words (b at least as long; b may be a).
//
//go:noescape
func pointwiseAVX512(a, b []uint64, p, pinv uint64)

// garnerPrepAVX512 runs the first steps of assemble's scaling and of
// garner on r1, r2, r3 (len(r1) a multiple of 8, r2 and r3 as long),
// leaving x1, k2, k3 (garnerJoin's arguments) in their place; c from
// garnerTable.
//
//go:noescape
func garnerPrepAVX512(r1, r2, r3 []uint64, c *[22 * 8]uint64)

// splitFoldAVX512 and splitJoinAVX512 are prime.splitFold's and
// prime.splitJoin's loops, eight coefficients at a time (len(lo) a
// multiple of 8, mid and hi as long), constants from splitTable.
//
//go:noescape
func splitFoldAVX512(lo, mid, hi []uint64, c *[12 * 8]uint64)

//go:noescape
func splitJoinAVX512(lo, mid, hi []uint64, c *[12 * 8]uint64)
