// Package bigmul multiplies big integers: Toom-4, Toom-3 and, for
// operands of about twice the other's length, Toom-4,2 (toom.go,
// toomw.go) over a word-level Karatsuba with amd64 BMI2/ADX schoolbook kernels
// (basemul.go, basemul_amd64.s) from a few dozen words, and a
// three-prime number-theoretic transform (ntt.go; its butterfly stages
// in amd64 assembly, ntt_amd64.s, or Go, ntt_stage.go) above a measured size,
// with a squaring path (one forward transform instead of two) and split
// lengths n + n/2 between the powers of two (ntt_split.go). Without the
// kernels (other platforms, the purego tag, CPUs without ADX) math/big
// multiplies below the Toom sizes.
//
// Every package of labelinf that multiplies large integers (apa, primes)
// goes through [Mul] and [Sqr] so that the crossover is measured once.
// [MulHigh] is the short product: the top of x·y without its low words
// (Mulders' recursion over the same products, short.go), within one unit
// plus 2^−32 of the truncated product, for fixed-point products whose low
// half is discarded. [Recip] and [QuoFixed] divide by Newton reciprocals
// on these products [MCA, §3.4.1], for the scaled remainder tree of
// package primes and the divisions of apa. The transform needs 64-bit words; on 32-bit platforms
// every product is math/big's.
//
// [MCA]: R. P. Brent, P. Zimmermann, "Modern Computer Arithmetic",
// Cambridge University Press, 2010.
package bigmul

import (
	"math"
	"math/big"
	"math/bits"
)

// nttMinWords is the smaller operand size, in words, below which [Mul]
// always uses math/big: an unbalanced product with a short operand is
// linear in the long one there.
var nttMinWords = nttMinFor()

// nttMinFor returns nttMinWords for this CPU: 1000 words, or 500 where
// AVX-512 runs the transform (transform ÷ Toom, same run: 0.56 at
// 4·10^4 bits, 0.87 at 5·10^4, 1.06 at 3·10^4; the cost model decides
// above the floor).
func nttMinFor() int {
	if useAVX512 {
		return 500
	}
	return 1000
}

// Cost model for the choice between math/big and the transform, fitted
// to TestCalibrate's medians (go test ./internal/bigmul -run Calibrate
// -calibrate -v; CPU time of one thread, 2-core reference machine,
// 2026-11-23): math/big's Karatsuba takes about karatsubaUS·w^1.585 µs
// for a w×w-word product (279 µs at 1200 words, 893 µs at 2500), its
// squaring 0.67 of that; the transform takes about nttUS·n·log2(n) µs
// at length n (240 µs at n = 2048, 508 µs at 4096), its squaring 0.76 of
// that. nttUS was then scaled by the gain of the amd64 butterfly stages
// (ntt_amd64.s) on whole transform products from 1.5·10^5 to 2·10^6
// bits (same-run medians, 2026-11-28): 0.9 for the scalar kernels, and
// 0.35 more where AVX-512 runs the butterflies, pointwise products and
// Garner's steps eight at a time (transform ÷ Toom 0.56–0.96 from
// 3.3·10^4 to 1.3·10^5 bits, 1.06 at 3·10^4: the model then picks the
// transform from 3.3·10^4 bits but where its length fits badly). The
// model only chooses an algorithm: both give the exact product.
const karatsubaUS = 0.00367

var nttUS = nttCost()

// nttCost returns nttUS for this CPU.
func nttCost() float64 {
	if useAVX512 {
		return 0.0096 * 0.35
	}
	return 0.0096
}

// chunkMinWords is the shorter operand's size, in words, below which an
// unbalanced product never uses the chunked transform.
var chunkMinWords = 200

// strategy is how Mul multiplies.
type strategy int

const (
	byMathBig strategy = iota // math/big (Karatsuba, schoolbook)
	byNTT                     // one transform of the whole product
	byChunks                  // the long operand in chunks, the short one's transform reused
	byToom                    // Toom-4/Toom-3 and word-level Karatsuba (toom.go, basemul.go)
)

// Toom's cost relative to math/big's, from TestCalibrateToomSweep's and
// TestCalibrateBase's medians (CPU time, 2-core reference machine,
// 2026-11-23): with the amd64 kernels, 0.52–0.77 for balanced products
// from 200 to 2,500 words, 0.51–0.69 for squares, 0.70–0.80 for the
// word-level Karatsuba alone (from 16 words, any shape; squares
// 0.61–0.79; unbalanced products from 200 words, 0.69–0.77 by
// TestCalibrateChunks); over math/big's own products (other platforms, purego)
// 0.79–0.88 for balanced products from 1,000 words, and no gain for
// squares.
const (
	toomGainADX      = 0.6
	toomSqrGainADX   = 0.68
	karaGainADX      = 0.78
	toomChunkGainADX = 0.72 // unbalanced, the long operand in balanced pieces
	toomGainPureGo   = 0.9
	toomMinWordsADX  = 16   // below, math/big
	toomMinWordsGo   = 1000 // below, math/big (no amd64 kernels)
)

// toomGain returns the expected cost of toomMul relative to math/big's
// for an xw×yw-word product (xw ≥ yw), or 1 where it does not pay.
func toomGain(xw, yw int, sq bool) float64 {
	balanced := 4*yw > 3*xw && yw >= toom3Words
	switch {
	case useADX && sq && balanced:
		return toomSqrGainADX
	case useADX && balanced:
		return toomGainADX
	case useADX && yw >= toom3Words:
		return toomChunkGainADX
	case useADX && yw >= toomMinWordsADX:
		return karaGainADX
	case !sq && balanced && yw >= toomMinWordsGo:
		return toomGainPureGo
	}
	return 1
}

// schoolCost returns the model's cost, in µs, of the best product below
// the transform: math/big's, or Toom's where toomGain says it pays.
func schoolCost(xw, yw int, sq bool) (float64, strategy) {
	k := karatsubaUS * float64(xw) / float64(yw) * math.Pow(float64(yw), 1.585)
	if sq {
		k *= 0.67
	}
	if g := toomGain(xw, yw, sq); g < 1 {
		return k * g, byToom
	}
	return k, byMathBig
}

// choose picks the cheapest way to multiply an xw-word by a yw-word
// operand (a square if sq) under the cost model above, for xw ≥ yw.
func choose(xw, yw int, sq bool) (strategy, nttPlan, int) {
	if bits.UintSize != 64 || yw == 0 {
		return byMathBig, nttPlan{}, 0
	}
	if yw < chunkMinWords {
		// No transform pays here: no need for the model's powers, whose
		// cost is not negligible against a product of a few words.
		if toomGain(xw, yw, sq) < 1 {
			return byToom, nttPlan{}, 0
		}
		return byMathBig, nttPlan{}, 0
	}
	cost, best := schoolCost(xw, yw, sq)
	var bestPl nttPlan
	bestCw := 0
	if yw >= nttMinWords {
		pl := planFor(uint(xw)*64, uint(yw)*64)
		f := nttUS * pl.cost()
		if sq {
			f *= 0.76
		}
		if f < cost {
			best, cost, bestPl = byNTT, f, pl
		}
	}
	if !sq && xw >= 3*yw {
		if pl, cw, ok := chunkPlan(uint(yw) * 64); ok {
			chunks := (xw + cw - 1) / cw
			// A third of nttUS per transform; two per chunk and one of y.
			f := nttUS / 3 * float64(2*chunks+1) * float64(pl.n) * float64(bits.TrailingZeros(uint(pl.n)))
			if f < cost {
				best, bestPl, bestCw = byChunks, pl, cw
			}
		}
	}
	return best, bestPl, bestCw
}

// Mul sets z to x·y and returns z. Aliasing is allowed; x == y squares.
func Mul(z, x, y *big.Int) *big.Int {
	if len(x.Bits()) < len(y.Bits()) {
		trace(Product{XWords: len(y.Bits()), YWords: len(x.Bits()), Square: x == y})
	} else {
		trace(Product{XWords: len(x.Bits()), YWords: len(y.Bits()), Square: x == y})
	}
	return mul(z, x, y)
}

// mul is Mul without the trace (for MulHigh's full products).
func mul(z, x, y *big.Int) *big.Int {
	sq := x == y
	if len(x.Bits()) < len(y.Bits()) {
		x, y = y, x
	}
	xw, yw := x.Bits(), y.Bits()
	st, pl, cw := choose(len(xw), len(yw), sq)
	neg := x.Sign()*y.Sign() < 0
	var w []big.Word
	switch st {
	case byMathBig:
		return z.Mul(x, y)
	case byToom:
		var buf []big.Word
		if zw := z.Bits(); !overlaps(zw, xw) && !overlaps(zw, yw) {
			buf = zw // z's words, when z is not an operand, take the product
		}
		w = toomMul(buf, xw, yw, sq)
	case byNTT:
		if sq {
			yw = nil
		}
		w = nttMulPlan(xw, yw, pl)
	case byChunks:
		w = nttMulChunked(xw, yw, pl, cw)
	}
	// Take over the product's words instead of copying them: the fresh
	// result is referenced by nothing else.
	z.SetBits(w)
	if neg {
		z.Neg(z)
	}
	return z
}

// overlaps reports whether a and b share their backing array (math/big's
// alias test: the same last element of the capacity).
func overlaps(a, b []big.Word) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[0:cap(a)][cap(a)-1] == &b[0:cap(b)][cap(b)-1]
}

// Sqr sets z to x² and returns z.
func Sqr(z, x *big.Int) *big.Int { return Mul(z, x, x) }

// MulWrap sets z to a value congruent to x·y modulo 2^N − 1, in [0,
// 2^N − 1], and returns z and N, for some N ≥ minBits of its choosing;
// x and y must be non-negative and below 2^minBits. A caller who needs
// only a window of the product's bits, the rest being known or
// irrelevant (a middle product: Bernstein's scaled remainder tree, the
// Newton step of a reciprocal), pays for a transform of about minBits
// bits instead of bits(x) + bits(y) [MCA, §2.3.3 and §3.4.1, wrap-around
// trick]. It panics if x or y is negative or not below 2^minBits.
func MulWrap(z, x, y *big.Int, minBits uint) (*big.Int, uint) {
	if x.Sign() < 0 || y.Sign() < 0 || uint(x.BitLen()) > minBits || uint(y.BitLen()) > minBits {
		panic("bigmul: MulWrap needs 0 ≤ x, y < 2^minBits")
	}
	xw, yw := len(x.Bits()), len(y.Bits())
	if bits.UintSize != 64 || min(xw, yw) < nttMinWords || !wrapPays(xw, yw, int(minBits+63)/64, x == y) {
		Mul(z, x, y)
		foldInt(z, minBits)
		return z, minBits
	}
	var ys []big.Word
	if x != y {
		ys = y.Bits()
	}
	trace(Product{XWords: max(xw, yw), YWords: min(xw, yw), Square: x == y, WrapBits: minBits})
	w, N := nttMulWrap(x.Bits(), ys, minBits)
	z.SetBits(w)
	return z, N
}

// wrapPays reports whether the wrapped transform of about mw words is
// expected to beat math/big's full xw×yw-word product (model of choose).
func wrapPays(xw, yw, mw int, sq bool) bool {
	k, _ := schoolCost(max(xw, yw), min(xw, yw), sq)
	pl := wrapPlan(uint(mw) * 64)
	f := nttUS * pl.cost()
	if sq {
		f *= 0.76
	}
	return f < k
}

// foldInt reduces z ≥ 0 modulo 2^N − 1 into [0, 2^N − 1] in place.
func foldInt(z *big.Int, N uint) {
	var hi big.Int
	for uint(z.BitLen()) > N {
		hi.Rsh(z, N)
		lowBitsInPlace(z, N)
		z.Add(z, &hi)
	}
}
