// This file implements the division of a long integer by one word, the
// series' divisions by their denominators (atanhSum, expSeriesFixed).

package apa

import (
	"math/big"
	"math/bits"
)

// wordDiv divides by words without allocating: on 32-bit platforms its
// divisor and remainder keep their words from one call to the next
// (big.Int.Quo allocates both); on 64-bit ones it divides in place.
type wordDiv struct{ d, r big.Int }

// quo sets z to z/d truncated toward zero (as big.Int.Quo; ⌊z/d⌋ for
// z ≥ 0) for a word d > 0.
//
// On 64-bit words it divides word by word from the top by Möller and
// Granlund's 2/1 division with a reciprocal of the normalized divisor
// [MG11, Algorithm 4]: two multiplications and a few additions a word,
// no division instruction; big.Int.QuoRem takes about 1.7 times as long
// at 157 words (TestWordDiv checks it against QuoRem).
func (w *wordDiv) quo(z *big.Int, d uint64) {
	if bits.UintSize != 64 {
		w.d.SetUint64(d)
		z.QuoRem(z, &w.d, &w.r)
		return
	}
	neg := z.Sign() < 0
	x := z.Bits()
	if len(x) == 0 {
		return
	}
	divWordsMG(x, d)
	z.SetBits(x) // normalizes
	if neg {
		z.Neg(z)
	}
}

// divWordsMG sets x = ⌊x/d⌋ in place (64-bit words, d > 0) and returns
// the remainder. The dividend is read shifted left by s = the leading
// zeros of d, so that the divisor d·2^s is normalized; the quotient is
// the same and the remainder comes out shifted by s.
func divWordsMG(x []big.Word, d uint64) uint64 {
	s := uint(bits.LeadingZeros64(d))
	dn := d << s
	v := reciprocal64(dn)
	n := len(x)
	var r uint64
	if s > 0 {
		r = uint64(x[n-1]) >> (64 - s) // < 2^(64−s)·… < dn: the top bits
	}
	for i := n - 1; i >= 0; i-- {
		u0 := uint64(x[i]) << s
		if s > 0 && i > 0 {
			u0 |= uint64(x[i-1]) >> (64 - s)
		}
		var q uint64
		q, r = div21(r, u0, dn, v)
		x[i] = big.Word(q) // x[i] is read no more: step i−1 reads x[i−1], x[i−2]
	}
	return r >> s
}

// reciprocal64 returns v = ⌊(β² − 1)/d⌋ − β for a normalized d (top bit
// set), β = 2^64: the quotient of (β − 1 − d)·β + β − 1 by d.
func reciprocal64(d uint64) uint64 {
	v, _ := bits.Div64(^d, ^uint64(0), d)
	return v
}

// div21 returns the quotient and remainder of u1·β + u0 by the normalized
// d, u1 < d, with v = reciprocal64(d) [MG11, Algorithm 4]: the candidate
// quotient from v·u1 + (u1 + 1)·β + u0, then at most one correction each
// way.
func div21(u1, u0, d, v uint64) (q, r uint64) {
	qh, ql := bits.Mul64(v, u1)
	var c uint64
	ql, c = bits.Add64(ql, u0, 0)
	qh, _ = bits.Add64(qh, u1+1, c)
	r = u0 - qh*d
	if r > ql {
		qh--
		r += d
	}
	if r >= d {
		qh++
		r -= d
	}
	return qh, r
}
