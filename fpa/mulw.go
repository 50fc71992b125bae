package fpa

// This file holds the products of the n-word formats (see nword.go). With
// BMI2 and ADX (amd64, useADX) the product is formed by mulw_amd64.s's
// kernel on words on the stack, short when the format allows: only the
// columns from c up (a short product, [MCA, §3.3]), with a Ziv test
// [Ziv91] on the bits between the left-out part's bound and the round
// bit, and the full product when the test fails. Without them math/big's
// product is rounded as before.

import (
	"math/big"
	"math/bits"
)

// mulShortGo sets z (len(x)+len(y) words, zero on entry) to the sum of
// the products x[k]·y[i]·β^(k+i) with k+i ≥ c (β = 2^64), row by row:
// row i adds x[s:]·y[i], s = max(0, c−i), into z from word s+i and
// stores its carry in z[len(x)+i]. c ≤ 0 gives the full product x·y. It
// is the reference for mulShortADX.
func mulShortGo(z, x, y []big.Word, c int) {
	nx := len(x)
	z = z[:nx+len(y)]
	for i, yi := range y {
		s := max(0, c-i)
		if s >= nx {
			continue
		}
		zi := z[s+i : nx+i]
		var carry uint64
		for k, xk := range x[s:] {
			hi, lo := bits.Mul64(uint64(xk), uint64(yi))
			lo, c1 := bits.Add64(lo, carry, 0)
			w, c2 := bits.Add64(uint64(zi[k]), lo, 0)
			zi[k] = big.Word(w)
			carry = hi + c1 + c2
		}
		z[nx+i] = big.Word(carry)
	}
}

// shortCut returns the column c from which the short product of
// significands of lx and ly bits keeps every word product, for a result
// of prec bits, and the bit eb below which the left-out part lies: the
// left-out products x[k]·y[i]·β^(k+i), k+i < c, are at most c in each
// column, so they sum to less than 2c·β^(c+1) ≤ 2^eb, eb = 64(c+1)+7
// (c < 64). The product has at least lx+ly−1 bits, so its round bit sits
// at bit lx+ly−2−prec or above; c leaves at least 16 bits between eb and
// it. c ≤ 0 means the full product.
func shortCut(lx, ly, prec int64) (c int, eb int64) {
	rb := lx + ly - 2 - prec
	c = int((rb-7-16)/64 - 1)
	if rb < 7+16+128 || c <= 0 {
		return 0, 0
	}
	return c, 64*int64(c+1) + 7
}

// mulWADX is mulW on the assembly kernel: the low zero words of x and y
// are skipped, the short product is tried first and accepted when its
// bits from eb up to the round bit are neither all zeros nor all ones:
// then the left-out part (less than 2^eb) changes neither the bits from
// the round bit up nor the nonzero tail below it. Otherwise the full
// product is formed.
func (z *Float) mulWADX(neg bool, xm, ym []big.Word, e int64) {
	for len(xm) > 1 && xm[0] == 0 {
		xm, e = xm[1:], e+64
	}
	for len(ym) > 1 && ym[0] == 0 {
		ym, e = ym[1:], e+64
	}
	var Pb [2 * nwMaxWords]big.Word
	P := Pb[:len(xm)+len(ym)]
	if c, eb := shortCut(bitLenW(xm), bitLenW(ym), int64(z.f.Prec())); c > 0 {
		mulShortADX(P, xm, ym, c)
		L := bitLenW(P)
		keep, _ := z.f.keepBits(e + L - 1)
		if rb := L - keep - 1; rb > eb && !tailAll(P, eb, rb) {
			z.roundW(neg, P, e, true)
			return
		}
		clear(P)
	}
	mulShortADX(P, xm, ym, 0)
	z.roundW(neg, P, e, false)
}

// subMul sets z −= x[:len(z)]·y and returns the word to subtract above z:
// subMulADX where the CPU has it, else subMulVW.
func subMul(z, x []big.Word, y uint64) uint64 {
	if useADX {
		return uint64(subMulADX(z, x, big.Word(y)))
	}
	return subMulVW(z, x, y)
}
