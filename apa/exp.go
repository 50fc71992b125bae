// This file implements the exponential by Newton's iteration on the logarithm.

package apa

import (
	"math"
	"math/bits"
)

// expNewton sets z to e^x and returns e such that the relative error is
// below 2^e. The argument is reduced as x = n·ln 2 + r with |r| ≤ 0.35, then
// e^r is found by the higher-order Newton iteration y ← y·e^(r − ln y) with
// e^d summed to at most expOrder terms, whose error is raised to the power
// expOrder at each step, on a precision ladder w, w/expOrder, … from a
// float64 seed [MCA, §4.2.5, §4.2.3]. The cost is about
// expOrder/(expOrder−1) logarithms at the full precision, against 2 for
// plain Newton. It returns ok = false if n does not fit an int64 (|x| is
// then far outside the range of any float).
//
// expOrder is the order of the Newton iteration of expNewton: each rung of
// the ladder multiplies the precision by expOrder. The series costs only
// expOrder−1 products at falling precision per rung, against a logarithm
// (some 40 AGM steps) per rung, so the order is large: 8 leaves the
// ladder's total at 1.14 logarithms (same-run CPU against order 6: 0.96–0.99
// from 10^3 to 10^6 bits, 0.70 at 200 bits). A rung whose y is more
// accurate than the ladder's ratio implies (the first, from the seed) sums
// only the terms it needs.
const expOrder = 8

func expNewton(z, x *xf, wp uint, c *consts) (errExp int64, ok bool) {
	w := wp + 16
	xf64 := x.float64()
	if math.IsInf(xf64, 0) || math.Abs(xf64) > 1<<60 {
		return 0, false
	}
	n := int64(math.Round(xf64 / math.Ln2))
	// The last Newton step's log needs the constants to about w+64 bits:
	// compute them once, at that precision, while the ladder starts.
	c.prefetch(w + 128 + uint(bits.Len64(uint64(absInt64(n)))))
	var r xf
	r.set(x)
	if n != 0 {
		// r = x − n·ln 2 needs ln 2 to w + log2|n| bits.
		ln2 := c.getLn2(w + uint(bits.Len64(uint64(absInt64(n)))) + 4)
		var t xf
		t.mulInt64(ln2, n, 0)
		r.sub(&r, &t, w+uint(bits.Len64(uint64(absInt64(n))))+4)
		r.trunc(w + 4)
	}
	// The rounded n is within 1/2 of x/ln2 as long as xf64 is accurate,
	// which it is to 2^-52 relative: |r| ≤ 0.35 + |x|·2^-52.
	var y xf
	y.setFloat64(math.Exp(r.float64()))
	// Precision ladder: w, w/k+16, ..., down to seedBits (k = expOrder).
	var ladder []uint
	for p := w; p > seedBits; p = p/expOrder + 16 {
		ladder = append(ladder, p)
	}
	var l, d, u, v, one xf
	one.setInt64(1)
	q := uint(seedBits)
	for i := len(ladder) - 1; i >= 0; i-- {
		p := ladder[i]
		// y is e^r to a relative 2^(8−q), q the previous rung (p/k+16 at
		// most) or the float64 seed's seedBits, so d = r − ln y = −ln(1+ε)
		// has |d| below 2^(−a), a = q − 8, and e^r = y·e^d with e^d − 1 =
		// Σ_{j<m} d^j/j! up to |d|^m/m! < 2^(−p−8) for m·a ≥ p + 8: m = k
		// on the upper rungs, fewer where y is more accurate than that
		// (the first rung, from the seed: at 24–250 bits, m = 2 to 6).
		a := q - 8
		m := max((p+8+a-1)/a, 2)
		logAGM(&l, &y, p+8, c)
		d.sub(&r, &l, p+8)
		// Horner: e^d − 1 = d(1 + d/2(1 + d/3(… (1 + d/(m−1))))); the
		// factor of d^j needs only p − j·p/m + 16 bits (a ≥ p/m).
		u.setInt64(1)
		for j := int64(m - 1); j >= 2; j-- {
			pj := p - uint(j-1)*(p/m) + 16
			v.mul(&d, &u, pj)
			v.quoInt64(&v, j, pj)
			u.add(&one, &v, pj)
		}
		pt := p - p/m + 16
		q = p
		u.mul(&d, &u, pt)
		u.mul(&y, &u, pt)
		y.add(&y, &u, p+4)
	}
	z.lsh(&y, n)
	z.trunc(w)
	return 8 - int64(w), true
}
