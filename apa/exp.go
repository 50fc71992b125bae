// This file implements the exponential by Newton's iteration on the logarithm.

package apa

import (
	"math"
	"math/bits"
)

// expNewton sets z to e^x and returns e such that the relative error is
// below 2^e. The argument is reduced as x = n·ln 2 + r with |r| ≤ 0.35, then
// e^r is found by Newton's iteration y ← y·(1 + r − ln y), whose error
// squares at each step, on a doubling precision ladder from a float64 seed
// [MCA, §4.2.5]. It returns ok = false if n does not fit an int64 (|x| is
// then far outside the range of any float).
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
	// Precision ladder: w, w/2+8, ..., down to seedBits.
	var ladder []uint
	for p := w; p > seedBits; p = p/2 + 8 {
		ladder = append(ladder, p)
	}
	var l, t xf
	for i := len(ladder) - 1; i >= 0; i-- {
		p := ladder[i]
		logAGM(&l, &y, p+8, c)
		t.sub(&r, &l, p+8) // about 2^(-p/2) in size
		t.mul(&y, &t, p/2+16)
		y.add(&y, &t, p+4)
	}
	z.lsh(&y, n)
	z.trunc(w)
	return 8 - int64(w), true
}
