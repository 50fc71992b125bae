// This file implements the natural logarithm by the arithmetic-geometric mean.

package apa

import (
	"math/bits"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// logAGM sets z to ln x for x > 0 and returns e such that the absolute error
// is below 2^e. It uses [MCA, §4.8.2]: with κ = (4/s)², G = π/(2·AGM(1,
// 4/s)) is the complete elliptic integral K of complementary modulus
// 4/s, whose expansion [AS, 17.3.26] is
//
//	G = λ + (κ/4)(λ − 1) + (9κ²/64)(λ − 7/6) + …,  λ = ln s,
//
// (the κ^n term is ((2n)!/(4^n n!²))²·κ^n·(λ − 2·Σ_{j≤n} 1/((2j−1)·2j))), a
// series in κ with coefficients below 1 (times λ). Solving for λ to the
// κ³ term,
//
//	ln s = G − (G − 1)κ/4 − (10G − 13)κ²/128 − (33G − 46)κ³/768
//
// up to about κ⁴·λ, below 2^-(w+40) for s ≥ 2^(w/8+8): the three terms let
// s be 2^(w/8) instead of 2^(w/2), two AGM steps fewer. The AGM's
// second argument 4/s is x·2^(2−k) itself (an exponent shift, no
// reciprocal), so s = 2^k/x and ln x = k·ln 2 − ln s. Unlike
// ALTree/bigfloat, the scaling by 2^k is an exponent shift, not k squarings,
// and every multiplication goes through FFT above the bigmul crossover.
//
// Error budget, in units of 2^-w at the working precision w (wp plus
// 2·log2(wp)+16 guard bits): the AGM runs about log2(w) steps, each a mean
// and a square root with relative error below 2^(7-w), so M carries a
// relative error below 2^(8+log2(steps)-w); π/(2M) adds 2^3 ulps; since
// ln s < w, the absolute error of ln s stays below 2^(10+log2(steps)+log2(w)-w);
// k·ln 2 adds |k|·2^(3-w), and truncating 4/s to w bits 2^(2−w). The bound returned is the larger of the two
// terms times 4. It is checked, not proved: the tests compare against
// independent series and bigfloat, and Ziv's loop relies on it.
func logAGM(z, x *xf, wp uint, c *consts) (errExp int64) {
	w := wp + 2*uint(bits.Len(wp)) + 16
	// b = 4/s = x·2^(2−k), truncated to w bits, with b < 2^(−w/8−6)
	// (s ≥ 2^(w/8+8)): x itself, scaled, is the AGM's second argument, so
	// no reciprocal is needed, and ln x = ln b + (k−2)·ln 2 = k·ln 2 −
	// ln s. The truncation changes x by a relative 2^(1−w) at most, ln x
	// by 2^(2−w).
	k := int64(w/8+8) + x.top()
	c.prefetch(w + uint(bits.Len64(uint64(absInt64(k)))))
	var a, b, t xf
	b.lsh(x, 2-k)
	b.trunc(w)
	a.setInt64(1)
	// κ = (4/s)² < 2^-(w/4+12) is needed to about 3w/4 bits.
	pk := w - w/4 + 16
	var kap xf
	kap.mul(&b, &b, pk)
	// Stop when η = (a−b)/(a+b) is below 2^-e with 16e ≥ w + 16: then,
	// with m = (a+b)/2 and h = (a−b)/2 = η·m,
	//
	//	1/AGM(a, b) = (1/m)·(2/π)·K(η) = (1/m)·(1 + η²/4 + 9η⁴/64 + 25η⁶/256 + …)
	//
	// ([MCA, §4.8.2]; the series of the complete elliptic integral K,
	// whose coefficients c_j = ((2j)!/(4^j j!²))² are all below 1), and T
	// terms leave a relative error below 2·c_(T+1)·η^(2T+2) < 2^-(w+16)
	// once (2T+2)·e ≥ w + 16. T is the least of 3, …, 7 that suffices
	// (kSeriesTerms): the AGM step that T = 3 would need next costs
	// more than the terms up to η¹⁴, whose powers fall in precision. This
	// saves the last two or three steps of the quadratic phase against
	// stopping at 2^(-w/2).
	steps := 0
	e := int64(0)
	var sc rootScratch
	// Once b is within 2^heldGap of a, the means run unhalved: A' = A + B,
	// B' = 2√(A·B) (A = 2^J·a after J such steps), with A exact on a grid
	// of exponent E and held as its transform (bigmul.Held), so that each
	// step's product A·B pays for the transforms of B and of the product
	// only: A's is the sum of the last two.
	var held *bigmul.Held
	heldTried := false
	var J, E int64
	var gb uint
	for {
		t.sub(&a, &b, w)
		if t.sign() == 0 {
			break
		}
		// η < t/a < 2^(top(t) − top(a) + 1) = 2^-e.
		e = a.top() - t.top() - 1
		if 2*(kSeriesTerms+1)*e >= int64(w)+16 {
			break
		}
		if !heldTried && agmHeld && b.top() >= a.top()-heldGap {
			heldTried = true
			// A has at most w+heldGap+8 bits above E, one more per step
			// (A' ≤ 2A), and B as many; B/A only grows in the AGM, so B
			// keeps at least w+8 bits above E.
			E = a.top() - int64(w) - heldGap - 8
			gb = w + heldGap + 8 + heldMaxSteps
			a.toGrid(E)
			held = bigmul.NewHeld(&a.m, gb, gb)
		}
		if J > 0 || held != nil {
			b.toGrid(E)
			if held != nil && !held.Fits(uint(b.m.BitLen())) {
				held = bigmul.NewHeld(&a.m, gb, gb) // nil past gb bits
			}
			if held != nil {
				held.MulAdd(&t.m, &b.m)
				t.e = 2 * E
				t.trunc(w)
			} else {
				t.mul(&a, &b, w)
			}
			a.m.Add(&a.m, &b.m)
			b.sqrtS(&t, w, &sc)
			b.e++
			J++
		} else {
			t.mul(&a, &b, w)
			a.add(&a, &b, w)
			a.e--
			b.sqrtS(&t, w, &sc)
		}
		steps++
		if steps > 200 { // cannot happen: the AGM converges in log2(w)+O(1) steps
			panic("apa: AGM did not converge")
		}
	}
	a.e -= J
	b.e -= J
	t.e -= J
	// t = a − b = 2h; a ← m = (a+b)/2.
	a.add(&a, &b, w)
	a.e--
	t.e--
	// ln s = π/(2·AGM) = (π/(2m))·(1 + Σ_(j≤T) c_j·η^(2j)), η = h/m.
	var r xf
	r.recip(&a, w+4)
	pi := c.getPi(w)
	z.mul(pi, &r, w)
	z.e--
	if t.sign() != 0 {
		T := int64(3)
		for 2*(T+1)*e < int64(w)+16 {
			T++
		}
		// x = η² < 2^-2e: c_j·x^j is needed to 2^-(w+16), so to
		// w + 16 − 2e·j bits of its own size; the powers come by
		// squarings and products of lower ones at those precisions.
		prec := func(j int64) uint { return uint(max(int64(w)+16-2*e*j, 32)) }
		var pw [kSeriesTerms + 1]xf
		var sum, u xf
		pw[1].mul(&t, &r, prec(1)+4)
		pw[1].mul(&pw[1], &pw[1], prec(1)+2)
		for j := int64(2); j <= T; j++ {
			pw[j].mul(&pw[j/2], &pw[j-j/2], prec(j))
		}
		for j := T; j >= 1; j-- {
			u.mulInt64(&pw[j], kSeries[j].num, prec(j))
			u.e -= kSeries[j].shift
			sum.add(&sum, &u, prec(1))
		}
		sum.mul(z, &sum, prec(1))
		z.add(z, &sum, w)
	}
	// ln s = G − (G − 1)κ/4 − (10G − 13)κ²/128 − (33G − 46)κ³/768, by
	// Horner's rule in κ: each product by κ at the precision its term
	// needs (κ^j·Q_j to 2^(−w) absolute: about w − j·w/4 bits of Q_j),
	// one product at 3w/4, w/2 and w/4 bits instead of one, two and three.
	var g1, g2, g3 xf
	pk2 := w/2 + 16
	pk3 := w/4 + 16
	g3.mulInt64(z, 33, pk3)
	g3.sub(&g3, new(xf).setInt64(46), pk3)
	g3.quoInt64(&g3, 768, pk3)
	g3.mul(&g3, &kap, pk3)
	g2.mulInt64(z, 10, pk2)
	g2.sub(&g2, new(xf).setInt64(13), pk2)
	g2.e -= 7
	g2.add(&g2, &g3, pk2)
	g2.mul(&g2, &kap, pk2)
	g1.sub(z, bigOneXf, pk)
	g1.e -= 2
	g1.add(&g1, &g2, pk)
	g1.mul(&kap, &g1, pk)
	z.sub(z, &g1, w)
	// ln x = k·ln 2 − ln s.
	z.m.Neg(&z.m)
	if k != 0 {
		ln2 := c.getLn2(w + uint(bits.Len64(uint64(absInt64(k)))))
		t.mulInt64(ln2, k, w+64)
		z.add(z, &t, w)
	}
	// ln s is below w, so its relative error of 2^(8+log2(steps)-w) is an
	// absolute error below 2^(8+log2(steps)+log2(w)-w); k·ln2 adds
	// |k|·2^(3-w) with |k| < 2^62.
	lk := int64(bits.Len64(uint64(absInt64(k))))
	lw := int64(bits.Len(w))
	ls := int64(bits.Len(uint(steps + 1)))
	return max(10+ls+lw, 5+lk) + 2 - int64(w)
}

// heldGap is how close b must come to a (within a factor 2^heldGap) for
// logAGM to hold a's transform: a then lives on a grid heldGap+8 bits
// below b's last bit, and heldMaxSteps bounds the bits it gains.
const (
	heldGap      = 1024
	heldMaxSteps = 64
)

// agmHeld switches the held transform of logAGM on; tests switch it off to
// compare both paths in one run.
var agmHeld = true

// kSeriesTerms is the most terms of K's series that logAGM's end uses.
const kSeriesTerms = 7

// kSeries holds the coefficients c_j = ((2j)!/(4^j j!²))² of the series
// (2/π)·K(η) = Σ c_j·η^(2j) [AS, 17.3.11] as num/2^shift: (C(2j, j)/4^j)²
// has a power of two for denominator. They are checked against the
// binomials by TestAGLSeries.
var kSeries = [kSeriesTerms + 1]struct {
	num   int64
	shift int64
}{
	{1, 0},
	{1, 2},       // (1/2)²
	{9, 6},       // (3/8)²
	{25, 8},      // (5/16)²
	{1225, 14},   // (35/128)²
	{3969, 16},   // (63/256)²
	{53361, 20},  // (231/1024)²
	{184041, 22}, // (429/2048)²
}
