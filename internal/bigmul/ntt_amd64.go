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
	if useAVX512 && qs%8 == 0 {
		forward4StageAVX512(a, w, wp, w2, wp2, blocks, qs, p)
		return
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
	if useAVX512 && qs%8 == 0 {
		inverse4StageAVX512(a, w, wp, w2, wp2, blocks, qs, p)
		return
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
