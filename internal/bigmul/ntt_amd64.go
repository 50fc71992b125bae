//go:build amd64 && !purego

package bigmul

// stageAsm selects the assembly stages; tests clear it to time and check
// the Go ones on amd64.
var stageAsm = true

// forward4Stage is forward4StageGo in assembly (ntt_amd64.s), after a
// check of the slices' lengths, which the assembly does not bound.
func forward4Stage(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64) {
	if !stageAsm {
		forward4StageGo(a, w, wp, w2, wp2, blocks, qs, p)
		return
	}
	checkStage(a, w, wp, w2, wp2, blocks, qs)
	forward4StageAsm(a, w, wp, w2, wp2, blocks, qs, p)
}

// inverse4Stage is inverse4StageGo in assembly (ntt_amd64.s).
func inverse4Stage(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64) {
	if !stageAsm {
		inverse4StageGo(a, w, wp, w2, wp2, blocks, qs, p)
		return
	}
	checkStage(a, w, wp, w2, wp2, blocks, qs)
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
