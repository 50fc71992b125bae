// This file implements the exponential by multi-prime argument reduction
// and a Taylor series by rectangular splitting.

package apa

import (
	"math/big"
	"math/bits"
	"sync"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// expMP sets z to e^x and returns k such that the relative error is below
// 2^k, by the multi-prime argument reduction of mpreduce.go [Joh22]:
//
//	x = Σ e_i·ln p_i + r,   e^x = 2^e_2 · (P/Q) · (e^(r/2^s))^(2^s),
//
// P = Π p_i^e_i over e_i > 0 and Q = Π p_i^−e_i over e_i < 0 (odd p_i),
// |r| < 2^-ρ with ρ of about expMPReach(wp) bits, then s optional
// squarings, and e^t, t = r/2^s, by its Taylor series in fixed point with
// W bits after the point, evaluated by rectangular splitting [MCA, §4.4.3]
// (Paterson–Stockmeyer): the powers t, …, t^m once, then the series from
// the top in blocks of m terms, each block a combination of the powers with
// integer coefficients, one product by t^m and one division by a short
// integer. It returns ok = false if |x| ≥ 2^60.
//
// Error, relative, in units of 2^-w (w = wp + 8):
//
//   - r is within 2^-w of x − Σ e_i·ln p_i (mpReduce), so e^r within a
//     factor e^(2^-w): 1.01.
//   - the series: t·2^W is exact (r lies on the grid 2^-(w+1), W ≥
//     w+1+s). Each power t^j (a short product of two lower powers,
//     truncated: fixedPowers) is within 1.1 units of 2^-W of t^j (the
//     lower powers' errors are multiplied by |t|^i < 2^-ρ ≤ 1/2^8, and
//     1 + 2^−32 units more for the truncation).
//     A block of terms k0 … k0+mm−1 starts from u = t^mm·acc (acc ≤ 2; a
//     short product, bigmul.MulHigh, within 1 + 2^-32 units: in all within
//     1.1·2 + 1.01 units plus 2^-ρ·δ_acc) and runs Horner's rule
//     u ← t^i + u/a_i, a_i = k0+i+1, i from mm−1 down to 0, in groups
//     whose a_i multiply to one word D ≥ 2 (a_0 = 1 for k0 = 0 joins the
//     group of a_1): D·u_new = Σ_i c_i·t^i + u, c_i ≤ D exact words, then
//     one division by D, floored. So δ_new ≤ 1.1·Σ_i c_i/D + δ/D + 1 ≤
//     1.1·e + 1 + δ/2 (Σ_i c_i/D ≤ Σ_q 1/q! = e): δ stays below 8 units
//     from any start below 8. Block b (k0 = b·m) works on the coarser
//     grid 2^-(W−s_b), s_b = f_b rounded down to a multiple of the word
//     size U, f_b = max(0, min(k0·ρ − (U+3)·b − 8, W − 64)) (all 0 while
//     W < expSeriesCoarseBits, where the views cost more than they save,
//     or when m·ρ < U + 3): its powers, their low words dropped (toward
//     zero, below 1 unit), are within 2.1 units of that grid, so there δ ≤
//     2.1·e + 1 + δ/2 stays below 14; the next block down shifts acc left
//     by s_b − s_{b−1} ≤ f_b − f_{b−1} + U − 1 ≤ m·ρ − 4 (f_b is
//     nondecreasing in b since m·ρ ≥ U + 3) and multiplies it by t^m <
//     2^(−m·ρ),
//     which brings its 14 units to below 1 unit of the finer grid: block
//     0 (s_0 = 0) then starts below 4.1 units and ends below 8. The tail
//     below 2^-(W+2) by the choice of N. e^t ∈ [1/2, 2], so the series is
//     within 8.25 units of 2^-W absolute, 2^(4.1−W) relative.
//   - s squarings at W bits: ε ← 2ε + ε² + 6·2^-W each (xf.mul), so
//     ε ≤ 2^s·(2^(4.1−W) + 6·2^-W)·1.01 < 2^(s+4.6−W) ≤ 2^(−w−3.4) with W
//     ≥ w + s + 8 (W is rounded up to whole words from
//     expSeriesCoarseBits).
//   - P and Q (mpPowProd at w bits, each below 2^-w relative, 0 if exact;
//     from expRatioMinBits exact from expRatio),
//     the product by P (6 units, xf.mul at w bits), the quotient by Q
//     (2^6 units: xf.quo at w bits); or, when they grow long, P/Q as one
//     float (expRatio, below 2^(−w−1.7) and 1 more for its truncation to
//     w+2 bits) and the product by it (6 units).
//
// In all below 1.01 + 0.1 + 2 + 6 + 64 < 2^7 units: a relative error below
// 2^(7−w) = 2^(−1−wp), the k returned. TestExpMPBound checks it against
// expNewton 64 bits deeper (it fails if the series runs 16 guard bits
// short).
//
// The reduction reach, its metric and the number of squarings are chosen
// by expMPParams from the precision (measured: TestExpMPParamsCPU), the
// block length m by expSeriesFixed.
func expMP(z, x *xf, wp uint, c *consts) (k int64, ok bool) {
	R, s, height := expMPParams(wp)
	return expMPWith(z, x, wp, R, s, height, c)
}

// expMPWith is expMP with the reduction reach R, s squarings and the
// height metric or not (expMPParams).
func expMPWith(z, x *xf, wp, R, s uint, height bool, c *consts) (k int64, ok bool) {
	w := wp + 8
	var red mpReduction
	stages := mpStageAt
	if height {
		stages = mpStageHeightAt
	}
	if !mpReduceWith(&red, x, R, w, c, stages) {
		return 0, false
	}
	// From expSeriesCoarseBits on, W a whole number of words: the series'
	// shifts by W and by its coarser grids' s_b (multiples of the word
	// too) move whole words. Below, the extra bits would cost terms.
	W := w + s + 8
	if W >= expSeriesCoarseBits {
		W = (W + bits.UintSize - 1) / bits.UintSize * bits.UintSize
	}
	// t·2^W = r·2^(W−s), an integer: r.e ≥ −(w+1).
	var T big.Int
	T.Lsh(&red.r.m, uint(red.r.e+int64(W)-int64(s)))
	rho := -red.rTop + int64(s) // |t| < 2^-rho
	if red.r.sign() == 0 {
		rho = int64(W) + 2
	}
	var y xf
	expSeriesFixed(&y.m, &T, W, rho)
	y.e = -int64(W)
	for i := uint(0); i < s; i++ {
		y.mul(&y, &y, W)
	}
	e2 := red.e[0]
	ep := red.e
	ep[0] = 0
	var P, Q xf
	var pExact, qExact bool
	if w >= expRatioMinBits {
		if expRatio(&P, &Q.m, &ep, w) {
			y.mul(&y, &P, w)
			z.lsh(&y, e2)
			z.trunc(w)
			return 7 - int64(w), true
		}
		// P and Q short: expRatio left them exact, mpPowProd's values.
		P.e, Q.e = 0, 0
		pExact, qExact = true, true
	} else {
		_, pExact = mpPowProd(&P, &ep, 1, w)
		_, qExact = mpPowProd(&Q, &ep, -1, w)
	}
	if !(pExact && P.m.BitLen() == 1) {
		y.mul(&y, &P, w)
	}
	switch {
	case qExact && Q.m.BitLen() == 1:
	case qExact && uint(Q.m.BitLen()) <= w/2:
		// A short exact Q: one integer division, O(w·|Q|) instead of a
		// reciprocal at w bits. y·2^k/Q floored, with k such that the
		// quotient has at least w+1 bits: within 1 unit of its w+1 bits,
		// below 2^(1−w) relative.
		k := int64(w) + 2 + int64(Q.m.BitLen()) - int64(y.m.BitLen())
		var t big.Int
		t.Lsh(&y.m, uint(max(k, 0)))
		y.m.Quo(&t, &Q.m)
		y.e -= max(k, 0)
		y.trunc(w)
	default:
		y.quo(&y, &Q, w)
	}
	z.lsh(&y, e2)
	z.trunc(w)
	return 7 - int64(w), true
}

// expRatio sets z to Π p_i^e_i (e_0 = 0) within a relative 2^(−w−1) and
// returns true, or returns false when the powers stay short enough for
// expMP's exact P and Q: then z.m = P = Π p_i^e_i over e_i > 0 and q = Q
// = Π p_i^−e_i over e_i < 0, exact (mpPowProd's values, not recomputed).
// It powers numerator and denominator together, from the top bit of the
// largest |e_i| down, exactly while both are below wq/4 bits (wq/2 from
// expRatioDivMaxBits; wq = w + L + 8, L the number of bits), then as one
// float at wq bits, z ← z²·A/B with A and B one word each (the primes
// whose exponent has that bit, by sign): one square per bit instead of
// two, and no reciprocal. The switch divides the short exact P by the
// short exact Q (ratioDiv: an integer division by a divisor of at most
// wq/4 bits, cheaper there than a reciprocal at wq bits; from
// expRatioDivMaxBits xf.quo). Error, relative, in units of 2^-wq: the
// switch 1 (ratioDiv) or 64 (xf.quo); each later bit 2ε + ε² plus 6 (the
// square: a short product within 1 + 2^-32 units of its last place, 2.02
// of 2^-wq, and the truncation to wq bits 2 more) + 2 (the word product)
// + 4 (the word quotient, 2 ulps), so ε + 12 at most doubles (times 1.01)
// per bit: after k ≤ L bits ε ≤ 2^k·76·1.01 < 2^(L+6.3) units, below
// 2^(−w−1.7).
//
// Same-run CPU of expMP with it ÷ without (alternated, medians of 7,
// loaded): 1.07 at 10^3 bits, 0.98–1.00 at 3·10^3–3·10^4, 0.92–0.95 at
// 10^5–2·10^5; so expMP uses it from expRatioMinBits.
func expRatio(z *xf, q *big.Int, e *[mpN]int64, w uint) bool {
	var top uint64
	for _, ei := range e {
		top |= uint64(absInt64(ei))
	}
	L := bits.Len64(top)
	wq := w + uint(L) + 8
	var P, Q big.Int
	P.SetInt64(1)
	Q.SetInt64(1)
	exact := true
	for b := L - 1; b >= 0; b-- {
		A, B := uint64(1), uint64(1)
		for i, ei := range e {
			if uint64(absInt64(ei))>>uint(b)&1 != 0 {
				if ei > 0 {
					A *= uint64(mpPrimes[i])
				} else {
					B *= uint64(mpPrimes[i])
				}
			}
		}
		if exact {
			bigmul.Mul(&P, &P, &P)
			bigmul.Mul(&Q, &Q, &Q)
			mulWordInPlace(&P, A)
			mulWordInPlace(&Q, B)
			if wq < expRatioDivMaxBits && uint(max(P.BitLen(), Q.BitLen())) > wq/4 {
				ratioDiv(z, &P, &Q, wq)
				exact = false
			} else if uint(max(P.BitLen(), Q.BitLen())) > wq/2 {
				var p, q xf
				p.setInt(&P)
				q.setInt(&Q)
				z.quo(&p, &q, wq)
				exact = false
			}
			continue
		}
		// z² truncated to wq bits by a short product: the discarded low
		// half not computed, within 1 + 2^-32 units.
		sh := uint(max(2*z.m.BitLen()-int(wq), 0))
		bigmul.MulHigh(&z.m, &z.m, &z.m, sh)
		z.e = 2*z.e + int64(sh)
		z.trunc(wq)
		if A != 1 {
			mulWordInPlace(&z.m, A)
			z.trunc(wq)
		}
		if B != 1 {
			z.quoInt64(z, int64(B), wq)
		}
	}
	if exact {
		z.m.Set(&P)
		q.Set(&Q)
		return false
	}
	z.trunc(w + 2)
	return true
}

// expRatioDivMaxBits: below it expRatio leaves exact arithmetic once P
// or Q exceeds wq/4 bits, by ratioDiv; from it, at wq/2, by a reciprocal
// (xf.quo). Same-run process CPU of expRatio, ratioDiv at wq/4 ÷ the
// reciprocal at wq/2 (4 arguments each, medians of 9, loaded machine):
// 0.88 at 10^4 bits, 0.90 at 3·10^4, 1.06 at 10^5 (math/big's division
// of long operands is slower than bigmul's reciprocal there); wq/2 and
// wq/8 do no better.
const expRatioDivMaxBits = 65536

// ratioDiv sets z to P/Q (P, Q > 0 integers) floored to at least wq+1
// bits, by one integer division: a relative error below 2^-wq.
func ratioDiv(z *xf, P, Q *big.Int, wq uint) {
	k := int64(wq) + 1 + int64(Q.BitLen()) - int64(P.BitLen())
	var d, q big.Int
	d.Lsh(P, uint(max(k, 0)))
	q.Lsh(Q, uint(max(-k, 0)))
	z.m.Quo(&d, &q)
	z.e = -k
}

// expRatioMinBits is the working precision from which expMP takes
// expRatio (its comment has the measurement).
const expRatioMinBits = 8192

// expAt sets z to e^x by expMP below expMPMaxBits and by expNewton from
// there, and returns the relative error exponent of either. Above the
// process-wide table of prime logarithms (mpTabBits), a first call with
// an empty cache takes expNewton too: computing the prime logarithms costs
// several exponentials (about 11 atanh series at wp bits), which only a
// cache that is used again repays (primeLogsWorth).
func expAt(z, x *xf, wp uint, c *consts) (k int64, ok bool) {
	if wp < expMPMaxBits && c.cache().primeLogsWorth(wp+8) {
		return expMP(z, x, wp, c)
	}
	return expNewton(z, x, wp, c)
}

// expMPMaxBits is the precision from which expNewton is faster than expMP
// (TestExpPathsCPU -exppaths: process CPU, alternated, medians of 7 pairs,
// loaded machine: expMP ÷ expNewton 0.70 at 10^5 bits, 0.76 at 2·10^5,
// 1.11 at 3·10^5, 1.37 at 5·10^5, 1.99 at 10^6).
const expMPMaxBits = 250000

// expMPParams returns the reduction reach R, the number of squarings and
// the lattice metric (height: mpStageHeightAt, else mpStageAt) for a
// precision of wp bits. Larger R means fewer series terms but larger
// exponents (P and Q longer); the height metric finds exponents with
// shorter P and Q for a reach (|e_i| about 4× smaller at 2^-100), which
// pays from 6,000 bits. The stages gain about 30 bits each, so R only
// picks the stage: the plain stages reach about 2^-65, 2^-98, 2^-134,
// 2^-165, 2^-200 and the height ones 2^-88, 2^-116, 2^-141, 2^-155.
// Process CPU of expMP, 4 arguments, medians of 7, loaded machine, each
// choice ÷ the previous table (30, 64, 100 from 2,000, 130 from 6,000,
// 200 from 60,000): plain 64 at 2,000 / 3,000 / 6,000 bits 0.60 / 0.65 /
// 0.74 (plain 100 there 0.96); height 64 at 6,000 0.69, at 10^4 0.91
// (height 100: 0.92); height 150 at 2·10^4 0.94–0.96, at 3·10^4 0.90
// (plain 130 1.00, height 64 1.05); at 6·10^4 height 145 0.98 (plain 200
// kept). Measured by TestExpMPParamsCPU.
func expMPParams(wp uint) (R, s uint, height bool) {
	switch {
	case wp < 600:
		return 30, 0, false
	case wp < 6000:
		return 64, 0, false
	case wp < 15000:
		return 64, 0, true
	case wp < 60000:
		return 150, 0, true
	case wp < 200000:
		return 200, 0, false
	default:
		return 235, 0, false
	}
}

// expSeriesCoarseBits is the working precision from which the series'
// blocks work on coarser grids (below, the views and shifts cost more than
// they save).
const expSeriesCoarseBits = 4096

// expSeriesFewPowersBits bounds the precisions where the series takes ¾√N
// powers (expSeriesFixed).
const expSeriesFewPowersBits = 65536

// expSeriesFixed sets y to an approximation of e^t·2^W, t = T·2^-W with
// |t| < 2^-rho (rho ≥ 8), within 8.25 units (expMP's comment).
func expSeriesFixed(y, T *big.Int, W uint, rho int64) {
	// N terms: the tail 2·|t|^N/N! < 2^-(W+2).
	N := int64(1)
	for lg := int64(0); N*rho+lg < int64(W)+3; N++ {
		lg += int64(bits.Len64(uint64(N+1))) - 1 // ⌊log2(N+1)⌋ ≤ log2(N+1)
	}
	if T.Sign() == 0 || N <= 1 {
		y.Lsh(bigOne, W)
		if N > 1 || T.Sign() != 0 {
			y.Add(y, T)
		}
		return
	}
	// m powers: about √N balances m products against N/m; on coarser
	// grids the blocks' products shrink (and are short products), so
	// fewer powers pay: ¾√N there, up to expSeriesFewPowersBits. Process
	// CPU of expMP, m = ¾⌈√N⌉ ÷ m = ⌈√N⌉, 4 arguments, medians of 7, two
	// runs, loaded: 0.99–1.01 at 6,000 bits, 0.91–0.94 at 10^4, 0.93–0.95
	// at 3·10^4, 0.96 at 10^5 (but the harness's argument there 1.08:
	// kept at √N from 65,536 bits).
	m := int64(1)
	for m*m < N {
		m++
	}
	if W >= expSeriesCoarseBits && W < expSeriesFewPowersBits {
		m = max(2, m*3/4)
	}
	// Scratch with room for the finest grid (W bits), pooled across
	// calls, so that the powers and the blocks reuse its words; u takes
	// the short products by acc.
	nw := int(W)/bits.UintSize + 3
	sc := expScratchPool.Get().(*expScratch)
	defer expScratchPool.Put(sc)
	sc.grow(int(m)+1, nw)
	acc, u, t, cw := &sc.acc, &sc.u, &sc.t, &sc.cw
	acc.SetInt64(0) // keeps its words
	pw := fixedPowersInto(sc.pw[:m+1], T, W)
	// Blocks from the top: the last block ends at N (terms k < N). Block
	// b (k0 = b·m) works on the grid 2^-(W−s_b): its value reaches the
	// sum multiplied by t^k0 and divided by k0!, so its low bits matter
	// less and less (see expMP's comment for s_b).
	// ps[i] are views of pw[i]'s top words (the grid 2^-(W−s_b), s_b a
	// multiple of the word): no copy.
	ps := sc.ps[:m+1]
	var wd wordDiv
	sPrev := uint(0)
	coarse := W >= expSeriesCoarseBits && m*rho > 4+bits.UintSize
	for k0 := ((N - 1) / m) * m; k0 >= 0; k0 -= m {
		mm := min(m, N-k0) // this block's terms: k0 … k0+mm−1
		sb := uint(0)
		if coarse { // short: the shifted copies cost more than they save
			b := k0 / m
			f := max(0, min(k0*rho-(4+bits.UintSize-1)*b-8, int64(W)-64))
			sb = uint(f) / bits.UintSize * bits.UintSize
		}
		Wb := W - sb
		for i := int64(0); i <= mm; i++ {
			wordsView(&ps[i], &pw[i], sb/bits.UintSize)
		}
		if sPrev > sb {
			acc.Lsh(acc, sPrev-sb)
		}
		sPrev = sb
		// u = t^mm·acc, then u_i = t^i + u_{i+1}/a_i, a_i = k0+i+1,
		// down to u_0, the block's value, in groups of i whose a_i
		// multiply to one word D: D·u_j0 = Σ_i c_i·t^i + u_{j+1} with
		// c_i = a_i…a_j ≤ D.
		u.SetInt64(0)
		if acc.Sign() != 0 {
			bigmul.MulHigh(u, &ps[mm], acc, Wb)
		}
		for j := mm - 1; j >= 0; {
			j0 := j
			D := uint64(k0 + j + 1)
			for j0 > 0 {
				hi, lo := bits.Mul64(D, uint64(k0+j0))
				if hi != 0 {
					break
				}
				D = lo
				j0--
			}
			c := uint64(1)
			for i := j; i >= j0; i-- {
				c *= uint64(k0 + i + 1)
				cw.SetUint64(c)
				t.Mul(&ps[i], cw)
				u.Add(u, t)
			}
			if D != 1 {
				wd.quo(u, D)
			}
			j = j0 - 1
		}
		acc.Set(u)
	}
	y.Set(acc)
}

// wordsView sets z to x truncated toward zero by its k low words, sharing
// x's words (no copy): z is read-only, an operand only.
func wordsView(z, x *big.Int, k uint) {
	ws := x.Bits()
	if k >= uint(len(ws)) {
		z.SetInt64(0)
		return
	}
	z.SetBits(ws[k:])
	if x.Sign() < 0 {
		z.Neg(z)
	}
}

// expScratch is expSeriesFixed's working storage, pooled across calls:
// the powers, their views and the accumulators keep their words (a new
// set per call cost 33 KB and about a tenth of expMP's time at 10^4
// bits). Nothing in it outlives a call: y is copied out.
type expScratch struct {
	pw, ps        []big.Int
	acc, u, t, cw big.Int
}

var expScratchPool = sync.Pool{New: func() any { return new(expScratch) }}

// grow makes room for n powers and accumulators of nw words (u 2·nw).
func (sc *expScratch) grow(n, nw int) {
	if len(sc.pw) < n {
		sc.pw = append(sc.pw, make([]big.Int, n-len(sc.pw))...)
		sc.ps = make([]big.Int, n)
	}
	for _, z := range []*big.Int{&sc.acc, &sc.t} {
		if cap(z.Bits()) < nw {
			z.SetBits(make([]big.Word, 0, nw))
		}
	}
	if cap(sc.u.Bits()) < 2*nw {
		sc.u.SetBits(make([]big.Word, 0, 2*nw))
	}
}
