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

// pointwiseAVX512 is never called here (useAVX512 is false).
func pointwiseAVX512(a, b []uint64, p, pinv uint64) { panic("bigmul: no AVX-512 here") }

// garnerPrepAVX512 is never called here (useAVX512 is false).
func garnerPrepAVX512(r1, r2, r3 []uint64, c *[22 * 8]uint64) { panic("bigmul: no AVX-512 here") }

// splitFoldAVX512 and splitJoinAVX512 are never called here.
func splitFoldAVX512(lo, mid, hi []uint64, c *[12 * 8]uint64) { panic("bigmul: no AVX-512 here") }

func splitJoinAVX512(lo, mid, hi []uint64, c *[12 * 8]uint64) { panic("bigmul: no AVX-512 here") }
