//go:build amd64 && !purego

package fpa

import "math/big"

// useADX reports whether the CPU has BMI2 and ADX, which the assembly
// kernels of mulw_amd64.s need; without them the pure-Go paths run.
var useADX = cpuADX()

// cpuADX reports CPUID leaf 7's BMI2 and ADX bits.
func cpuADX() bool

// mulShortADX is mulShortGo in assembly (BMI2 and ADX only).
//
//go:noescape
func mulShortADX(z, x, y []big.Word, c int)

// subMulADX is subMulVW in assembly (BMI2 and ADX only).
//
//go:noescape
func subMulADX(z, x []big.Word, y big.Word) big.Word

// divShortADX is divShortGo in assembly (BMI2 and ADX only), for
// 0 ≤ P ≤ len(v)−2.
//
//go:noescape
func divShortADX(q, u, v []big.Word, P int)

// shlVU is shlVUGo in assembly.
func shlVU(z, x []big.Word, s uint) {
	z = z[:len(x)+1]
	shlVUAsm(z, x, s&63)
}

// shrVU is shrVUGo in assembly.
func shrVU(z, x []big.Word, s uint) {
	x = x[:len(z)+1]
	shrVUAsm(z, x, s&63)
}

//go:noescape
func shlVUAsm(z, x []big.Word, s uint)

//go:noescape
func shrVUAsm(z, x []big.Word, s uint)

// addShrADX sets z[:len(x)] = x + (y >> s) + cin (0 < len(y) ≤ len(x),
// s < 64, cin ≤ 1) and returns the carry out (BMI2 only).
//
//go:noescape
func addShrADX(z, x, y []big.Word, s uint, cin big.Word) big.Word

// subShrADX sets z[:len(x)] = x − (y >> s) − bin and returns the borrow
// out, as addShrADX.
//
//go:noescape
func subShrADX(z, x, y []big.Word, s uint, bin big.Word) big.Word
