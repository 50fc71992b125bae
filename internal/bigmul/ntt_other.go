//go:build !amd64 || purego

package bigmul

// stageAsm is false: there is no assembly here.
var stageAsm = false

// useAVX512 is false: there is no assembly here.
var useAVX512 = false

// forward4Stage is forward4StageGo where there is no assembly.
func forward4Stage(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64) {
	forward4StageGo(a, w, wp, w2, wp2, blocks, qs, p)
}

// inverse4Stage is inverse4StageGo where there is no assembly.
func inverse4Stage(a, w, wp, w2, wp2 []uint64, blocks, qs int, p uint64) {
	inverse4StageGo(a, w, wp, w2, wp2, blocks, qs, p)
}
