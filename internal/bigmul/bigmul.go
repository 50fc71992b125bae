// Package bigmul multiplies big integers, switching to Schönhage–Strassen FFT
// multiplication (github.com/remyoudompheng/bigfft) above a measured size.
//
// math/big multiplies with Karatsuba only; at 10^6 bits bigfft is 2.8× faster
// and at 10^7 bits 7× faster (BENCHMARKS.md §4). Every package of
// labelinf that multiplies large integers (apa, primes) goes through [Mul] so
// that the crossover is measured once. [Recip] and [QuoFixed] divide by
// Newton reciprocals on these products [MCA, §3.4.1], for the scaled
// remainder tree of package primes.
//
// [MCA]: R. P. Brent, P. Zimmermann, "Modern Computer Arithmetic",
// Cambridge University Press, 2010.
package bigmul

import (
	"math/big"

	"github.com/remyoudompheng/bigfft"
)

// fftThreshold is the operand size in 64-bit words above which [Mul] uses
// bigfft. Both operands must exceed it. bigfft.Mul itself falls back to
// math/big below 1800 words, so values below 1800 have no effect.
// Measured by TestCalibrate (go test ./internal/bigmul -run Calibrate
// -calibrate -v) on the 2-core reference machine, 2026-11-22: big/fft time
// ratio 0.97 at 1800 words, 0.62 at 2400 (an FFT size step), 1.14 at 3200,
// 1.48 at 4800, 2.69 at 16000; see BENCHMARKS.md.
var fftThreshold = 2800

// Mul sets z to x·y and returns z. Aliasing is allowed.
func Mul(z, x, y *big.Int) *big.Int {
	if len(x.Bits()) > fftThreshold && len(y.Bits()) > fftThreshold {
		// Take over the product's words instead of copying them: the
		// fresh result is referenced by nothing else.
		r := bigfft.Mul(x, y)
		z.SetBits(r.Bits())
		if r.Sign() < 0 {
			z.Neg(z)
		}
		return z
	}
	return z.Mul(x, y)
}

// Sqr sets z to x² and returns z.
func Sqr(z, x *big.Int) *big.Int { return Mul(z, x, x) }
