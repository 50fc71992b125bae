package fpa

// This file holds the divisions of the n-word formats (see nword.go), for
// Quo and for sqrtW's recursion: Knuth's Algorithm D [Knuth, §4.3.1] on
// 64-bit words, a fused multiply-subtract per quotient word and the
// quotient digit estimated from three words of the remainder by two of
// the divisor (div3by2), with products below a chosen word left out (a
// short division). With BMI2 and ADX the whole loop is one assembly call
// (divShortADX in mulw_amd64.s), else math/bits (divShortGo).

import (
	"math/big"
	"math/bits"
)

// divW sets q to ⌊u/v⌋ and u to u mod v, where v (n ≥ 2 words) is
// normalized (top bit of v[n−1] set), len(u) = len(q) + n and u's top n
// words are below v (so each quotient word fits). u's low n words hold
// the remainder afterwards; its other words are zero.
func divW(q, u, v []big.Word) { divShortW(q, u, v, 0) }

// divShortW is divW with every product that lands below word P of u
// left out (Mulders' short division idea, [MCA, §3.5]): step j subtracts
// q̂·v only from word max(j, P) up. Each step then leaves at most β^(P+1)
// (β = 2^64) in u that the full division subtracts, so the words of u
// from P up and the quotient are those of a dividend larger by less than
// len(q)·β^(P+1), less than 2·len(q)/β^(len(v)−1−P) times v: with
// P ≤ len(v)−2 the quotient is off by at most 2 units of its last word
// (TestDivW). The quotient digits only read words from j+len(v)−2 ≥ P
// up. P = 0 is divW.
func divShortW(q, u, v []big.Word, P int) {
	if len(u) != len(q)+len(v) {
		panic("fpa: divW: len(u) != len(q)+len(v)")
	}
	if useADX && P <= len(v)-2 {
		divShortADX(q, u, v, P)
		return
	}
	divShortGo(q, u, v, P)
}

// divShortGo is divShortW on math/bits (and subMul).
func divShortGo(q, u, v []big.Word, P int) {
	n := len(v)
	vh, vl := uint64(v[n-1]), uint64(v[n-2])
	for j := len(q) - 1; j >= 0; j-- {
		t := j + n // u[j:t+1] is the current remainder
		u2, u1, u0 := uint64(u[t]), uint64(u[t-1]), uint64(u[t-2])
		// q̂ from the top three words by the top two: never below the
		// quotient word, at most two above it (div3by2).
		qh := ^uint64(0)
		if u2 < vh || u2 == vh && u1 < vl {
			qh, _, _ = div3by2(u2, u1, u0, vh, vl)
		}
		i0 := 0
		if P > j {
			i0 = P - j
		}
		top, b1 := bits.Sub64(u2, subMul(u[j+i0:t], v[i0:], qh), 0)
		u[t] = big.Word(top)
		if b1 != 0 { // q̂ was too large: add v back, at most twice
			qh = addBackW(u[j+i0:t+1], v[i0:], qh)
		}
		q[j] = big.Word(qh)
	}
}

// subMulVW sets z −= x·y (len(x) = len(z)) and returns the word to
// subtract above z: one carry word, since hi + c + b < 2^64 (hi ≤ 2^64−2).
func subMulVW(z, x []big.Word, y uint64) uint64 {
	x = x[:len(z)]
	var carry uint64
	for i, xi := range x {
		hi, lo := bits.Mul64(y, uint64(xi))
		lo, c := bits.Add64(lo, carry, 0)
		w, b := bits.Sub64(uint64(z[i]), lo, 0)
		z[i] = big.Word(w)
		carry = hi + c + b
	}
	return carry
}

// addBackW adds v to uj (one word longer) until the sum carries out of
// uj's top word (the remainder is back to ≥ 0), decrementing q̂ each time,
// and returns q̂.
func addBackW(uj, v []big.Word, qh uint64) uint64 {
	n := len(v)
	for {
		qh--
		c := addVV(uj[:n], v)
		var w big.Word
		w, c = addWW(uj[n], 0, c)
		uj[n] = w
		if c != 0 {
			return qh
		}
	}
}

// quoW sets z to the rounded (−1)^neg·x/y for finite nonzero x and y of
// the n-word formats. y's significand is normalized to V (n words, top
// bit set) and x's shifted to U so that the quotient fills nq words,
// nq = ⌈(Prec+18)/64⌉: at least Prec+16 bits, the last 16 or more
// below the round bit, and divShortW with P = n−2 forms it to within 2
// units. If those bits, less their lowest 4, are neither all zeros nor
// all ones, the exact quotient has the same bits from the round bit up
// and a nonzero tail (a Ziv test [Ziv91]): it rounds as the computed one
// with a sticky bit. Otherwise (about 2^−11 of random operands or
// fewer, and exact quotients) the division is redone exactly.
func (z *Float) quoW(neg bool, x, y *Float) {
	xm, ym := x.hi.Bits(), y.hi.Bits()
	n := len(ym)
	p := int64(z.f.Prec())
	lx := int64(x.hi.BitLen())
	nq := int((p + 18 + 63) >> 6) // quotient words
	k := 64*int64(nq+n) - 1 - lx  // U = xm·2^k has 64(nq+n)−1 bits: its top n words are below V
	if n < 2 || k < 0 || n > nwMaxWords {
		z.quoInts(neg, &x.hi, x.exp, &y.hi, y.exp)
		return
	}
	ly := uint(bits.LeadingZeros64(uint64(ym[n-1])))
	var Vb [nwMaxWords + 1]big.Word
	var Ub [3*nwMaxWords + 4]big.Word
	var Qb [2*nwMaxWords + 4]big.Word
	shlVU(Vb[:n+1], ym, ly) // Vb[n] = 0: ly leading zeros
	V := Vb[:n]
	wo, bo := int(k>>6), uint(k&63)
	if wo+len(xm)+1 > len(Ub) {
		z.quoInts(neg, &x.hi, x.exp, &y.hi, y.exp)
		return
	}
	shlVU(Ub[wo:wo+len(xm)+1], xm, bo) // the words from nq+n up stay zero
	U, Q := Ub[:nq+n], Qb[:nq]
	divShortW(Q, U, V, max(0, n-2))
	e := x.exp - y.exp + int64(ly) - k
	L := bitLenW(Q)
	keep, _ := z.f.keepBits(e + L - 1)
	rb := L - keep - 1 // the round bit's position in Q
	if rb >= 16 && !tailAll(Q, 4, rb) {
		z.roundW(neg, Q, e, true)
		return
	}
	z.quoInts(neg, &x.hi, x.exp, &y.hi, y.exp)
}

// tailAll reports whether bits [lo, hi) of R are all zeros or all ones.
func tailAll(R []big.Word, lo, hi int64) bool {
	var or, and uint64 = 0, ^uint64(0)
	for k := lo; k < hi; k += 64 {
		w := wordAt(R, k)
		if hi-k < 64 {
			m := uint64(1)<<(hi-k) - 1
			or |= w & m
			and &= w | ^m
		} else {
			or |= w
			and &= w
		}
		if or != 0 && and != ^uint64(0) {
			return false
		}
	}
	return true
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
