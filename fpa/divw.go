package fpa

// This file holds the divisions of the n-word formats (see nword.go):
// Knuth's Algorithm D [Knuth, §4.3.1] on 64-bit words with math/bits, a
// fused multiply-subtract per quotient word and the quotient digit
// estimated from three words of the remainder by two of the divisor
// (div3by2), for the small divisions of sqrtW's recursion; Quo's
// full-width division stays with math/big's assembly.

import (
	"math/big"
	"math/bits"
)

// divW sets q to ⌊u/v⌋ and u to u mod v, where v (n ≥ 2 words) is
// normalized (top bit of v[n−1] set), len(u) = len(q) + n and u's top n
// words are below v (so each quotient word fits). u's low n words hold
// the remainder afterwards; its other words are zero.
func divW(q, u, v []big.Word) {
	n := len(v)
	vh, vl := uint64(v[n-1]), uint64(v[n-2])
	if len(u) != len(q)+n {
		panic("fpa: divW: len(u) != len(q)+len(v)")
	}
	for j := len(q) - 1; j >= 0; j-- {
		uj := u[j : j+n+1]
		u2, u1, u0 := uint64(uj[n]), uint64(uj[n-1]), uint64(uj[n-2])
		// q̂ from the top three words by the top two: never below the
		// quotient word, at most two above it (div3by2).
		qh := ^uint64(0)
		if u2 != vh || u1 != vl {
			qh, _, _ = div3by2(u2, u1, u0, vh, vl)
		}
		// uj −= q̂·v, one carry word (hi + c + b < 2^64: hi ≤ 2^64−2).
		var carry uint64
		for i, vi := range v {
			hi, lo := bits.Mul64(qh, uint64(vi))
			lo, c := bits.Add64(lo, carry, 0)
			w, b := bits.Sub64(uint64(uj[i]), lo, 0)
			uj[i] = big.Word(w)
			carry = hi + c + b
		}
		top, b1 := bits.Sub64(uint64(uj[n]), carry, 0)
		uj[n] = big.Word(top)
		for b1 != 0 { // q̂ was too large: add v back
			qh--
			var c uint64
			for i := 0; i < n; i++ {
				var w uint64
				w, c = bits.Add64(uint64(uj[i]), uint64(v[i]), c)
				uj[i] = big.Word(w)
			}
			var w uint64
			w, c = bits.Add64(uint64(uj[n]), 0, c)
			uj[n] = big.Word(w)
			b1 -= c // a carry out is the return to ≥ 0
		}
		q[j] = big.Word(qh)
	}
}

// quoW sets z to the rounded (−1)^neg·x/y for finite nonzero x and y of
// the n-word formats: x's significand shifted left by s has Prec+3 bits
// more than y's, math/big's QuoRem (its assembly kernels beat divW's
// pure Go at these sizes) gives a quotient of at least Prec+2 bits, and
// roundW rounds it with the remainder as sticky bit.
func (z *Float) quoW(neg bool, x, y *Float) {
	sc := getScratch()
	p := int64(z.f.Prec())
	s := max(0, p+3+int64(y.hi.BitLen())-int64(x.hi.BitLen()))
	num := sc.a.Lsh(&x.hi, uint(s))
	q, r := sc.b.QuoRem(num, &y.hi, &sc.c)
	z.roundW(neg, q.Bits(), x.exp-y.exp-s, r.Sign() != 0)
	putScratch(sc)
}

// sqrW sets z (2·len(x) words) to x², schoolbook on math/bits.
func sqrW(z, x []big.Word) {
	n := len(x)
	z = z[:2*n]
	clear(z)
	for j, xj := range x {
		var carry uint64
		zj := z[j : j+n]
		for i, xi := range x {
			hi, lo := bits.Mul64(uint64(xi), uint64(xj))
			lo, c := bits.Add64(lo, carry, 0)
			hi += c
			w, c2 := bits.Add64(uint64(zj[i]), lo, 0)
			zj[i] = big.Word(w)
			carry = hi + c2
		}
		z[j+n] = big.Word(carry)
	}
}
