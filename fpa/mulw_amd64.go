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
