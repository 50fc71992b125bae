//go:build amd64 && !purego

package bigmul

import "math/big"

// useADX reports whether the CPU has BMI2 and ADX, which the kernels of
// basemul_amd64.s need; without them math/big multiplies below the Toom
// sizes.
var useADX = cpuADX()

// cpuADX reports CPUID leaf 7's BMI2 and ADX bits.
func cpuADX() bool

// mulRowsADX adds x·y[j] into z[j:j+len(x)] and stores the carry word in
// z[j+len(x)], for every j (BMI2 and ADX only); len(x) ≥ 1,
// len(z) ≥ len(x)+len(y).
//
//go:noescape
func mulRowsADX(z, x, y []big.Word)

// addVV sets z = x + y over len(z) words and returns the carry.
func addVV(z, x, y []big.Word) big.Word {
	if len(z) == 0 {
		return 0
	}
	return addVVAsm(z, x[:len(z)], y[:len(z)])
}

// subVV sets z = x − y over len(z) words and returns the borrow.
func subVV(z, x, y []big.Word) big.Word {
	if len(z) == 0 {
		return 0
	}
	return subVVAsm(z, x[:len(z)], y[:len(z)])
}

//go:noescape
func addVVAsm(z, x, y []big.Word) big.Word

//go:noescape
func subVVAsm(z, x, y []big.Word) big.Word

// sqrRowsADX sets z[:2·len(x)] to the sum of the products x_i·x_j·
// β^(i+j), i < j (the triangle of a schoolbook square; BMI2 and ADX
// only); z's words need not be zero on entry.
//
//go:noescape
func sqrRowsADX(z, x []big.Word)

// sqrDiagADX sets z[:2·len(x)] = 2·z + Σ x_i²·β^(2i), which must fit
// (BMI2 and ADX only): the diagonal pass of a schoolbook square after
// sqrRowsADX's triangle.
//
//go:noescape
func sqrDiagADX(z, x []big.Word)
