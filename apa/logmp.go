// This file implements the natural logarithm by multi-prime argument
// reduction and the atanh series.

package apa

import (
	"math"
	"math/bits"
)

// logMP sets z to ln x for x > 0 and returns e such that the absolute error
// is below 2^e, by multi-prime argument reduction [Joh22] and a short
// series: with x = 2^k·m, m ∈ [1, 2), and exponents e_i over the primes
// p_i (mpFindExps) such that m ≈ Π p_i^e_i within a factor 1 + 2^-R,
//
//	ln x = (k + e_0)·ln 2 + Σ_(i≥1) e_i·ln p_i + ln(a/b),
//	a = m·2^(−e_0)·Π_(e_i<0) p_i^(−e_i),  b = Π_(e_i>0, i≥1) p_i^(e_i),
//
// where a and b are exact (m to W+2 bits; the products are integers) and
// ln(a/b) = 2·atanh((a−b)/(a+b)) is logNear1's series, which gains about
// 2R bits a term. The logarithms of the primes come from the cache
// (Consts.getPrimeLogs), as π and ln 2 do for the AGM.
//
// Finding the e_i needs ln m to about R bits. Up to R = logMPFloatR it is
// math.Log(m); beyond, a first reduction from it (e′, about 45 bits) gives
// ln m = Σ e′_i·ln p_i + ln(a′/b′) to R + 64 bits cheaply (logNear1 at that
// precision, the prime logarithms at 640 bits), from which the final e_i
// are found. The reduction only chooses e: the result's bound holds for
// any e (a poor e makes ln(a/b) larger, and logNear1 refuses above
// |a/b − 1| ≈ 1/16, when logMP returns ok = false).
//
// Error, in units of 2^-W, W = wp + 8: m truncated to W+2 bits changes
// ln x by below 1 (relative 2^(−W−1), |ln(1−δ)| < 2δ); ln(a/b) below
// 2^(2−W) (logNear1); the constants, each within 2^(−wc) with wc = W + 2
// + log2(|k + e_0| + Σ|e_i|), times their exact integer multipliers, below
// 1/4; the final truncation to 2^(−W−2), 1/4. In all below 2^(3−W) =
// 2^(−wp−5), of the same order as logAGM's bound.
func logMP(z, x *xf, wp, R uint, c *consts) (errExp int64, ok bool) {
	W := wp + 8
	k := x.top() - 1
	var m xf
	m.truncOf(x, W+2)
	m.e -= k // m ∈ [1, 2)
	e, ok := logMPExps(&m, R)
	if !ok || !logMPShort(&e, W) {
		return 0, false
	}
	var a, b, t xf
	logMPRatio(&a, &b, &m, &e)
	errL, ok := logNear1(&t, &a, &b, W)
	if !ok {
		return 0, false
	}
	// The constants, with their multipliers: K = k + e_0 for ln 2.
	K := k + e[0]
	sum := uint64(absInt64(K))
	for _, ei := range e[1:] {
		sum += uint64(absInt64(ei))
	}
	wc := W + 2 + uint(bits.Len64(sum))
	c.wait()
	src := c.cache().primeLogsSrc(wc) // read-only; each ln p_i floored to 2^-(wc+1) below
	// Σ e_i·ln p_i (e_0 → K), each ln p_i floored to 2^-(wc+1), exact.
	eK := e
	eK[0] = K
	primeLogSum(z, src, &eK, wc)
	z.add(z, &t, 0)
	if tp := z.top() + int64(W) + 2; z.sign() != 0 && tp >= 1 {
		z.trunc(uint(tp))
	}
	return max(errL, -int64(W)) + 3, true
}

// logMPFloatR is the reduction that math.Log's 53 bits of ln m can find.
const logMPFloatR = 32

// logMPExps returns exponents e with m ≈ Π p_i^e_i within about 2^-R,
// for m ∈ [1, 2) (logMP's comment).
func logMPExps(m *xf, R uint) (e [mpN]int64, ok bool) {
	var v xf
	v.setFloat64(math.Log(m.float64()))
	if R <= logMPFloatR {
		// The stages gain about 33 bits each: asking for a few less than
		// the first reaches keeps the search from a second stage, whose
		// exponents math.Log's 53 bits cannot support.
		e, _, ok = mpFindExps(&v, min(R, logMPFloatR-4))
		return e, ok
	}
	e1, _, ok := mpFindExps(&v, logMPFloatR-4)
	if !ok || !logMPShort(&e1, 4096) {
		return e, false
	}
	// ln m = Σ e1_i·ln p_i + ln(a/b), to R + 64 bits.
	W1 := R + 64
	var mt, a, b, l, s xf
	mt.truncOf(m, W1+8)
	logMPRatio(&a, &b, &mt, &e1)
	if _, ok := logNear1(&l, &a, &b, W1); !ok {
		return e, false
	}
	genValue(&s, &e1)
	v.add(&s, &l, 0)
	e, _, ok = mpFindExps(&v, R)
	return e, ok
}

// logMPShort reports whether Π p_i^|e_i| has at most max(W, 1024) bits,
// so that the exact products cost no more than the series.
func logMPShort(e *[mpN]int64, W uint) bool {
	W = max(W, 1024)
	b := 0.0
	for i, ei := range e[1:] {
		b += float64(absInt64(ei)) * math.Log2(float64(mpPrimes[i+1]))
	}
	return b <= float64(W)
}

// logMPRatio sets a = m·2^(−e_0)·Π_(e_i<0) p_i^(−e_i) and b =
// Π_(e_i>0, i≥1) p_i^(e_i), exactly.
func logMPRatio(a, b, m *xf, e *[mpN]int64) {
	odd := *e
	odd[0] = 0
	var q xf
	mpPowProd(&q, &odd, -1, 1<<30)
	mpPowProd(b, &odd, 1, 1<<30)
	a.mulExact(m, &q)
	a.e -= e[0]
}

// logMPR is the reduction, in bits, that logMP aims at for a working
// precision of wp bits: larger R shortens the series (about W/(2R) terms)
// but lengthens the products Π p_i^e_i (the exponents grow by about 10
// per 33 bits of R) and the search. Same run, alternated, medians of 7:
// R = 32 ÷ R = 64 0.83 at 2,000 bits, 0.93 at 3,000, 1.00 at 3,400,
// 1.06 at 5,000; R = 96 from 9,000 bits: at 10^4 bits ÷ (R = 64) 0.93,
// at 1.4·10^4 0.87, a tie at 8,500.
func logMPR(wp uint) uint {
	if logMPRForce != 0 {
		return logMPRForce
	}
	switch {
	case wp < 3500:
		return 32
	case wp < 9000:
		return 64
	case wp < 60000:
		return 96
	default:
		return 128
	}
}

// logMPRForce, if not 0, replaces logMPR's choice (tests).
var logMPRForce uint

// logMPMinPrec and logMPMaxPrec bound the working precisions at which
// logAny uses logMP; outside them the AGM is as fast or faster.
// TestLogMPCrossover -logmp.all, same-run CPU, logMP ÷ AGM warm
// (2026-11-28 20:45 UTC, loaded machine): 0.64 at 24 bits (wp 53),
// 0.41–0.17 from 53 to 10^3 bits, 0.25–0.46 from 3·10^3 to 10^5, 0.52 at
// 2·10^5, 0.79 at 4·10^5, 1.35 at 10^6 (the exponents' products outgrow
// the series' gain).
var (
	logMPMinPrec uint = 53
	logMPMaxPrec uint = 500000
)

// logAny sets z to ln x and returns the absolute error exponent: by logMP
// at the precisions where it is faster and the prime logarithms are at
// hand or worth computing (Consts.primeLogsWorth: the table below
// mpTabBits, else from a cache's second asking), by logAGM otherwise.
func logAny(z, x *xf, wp uint, c *consts) int64 {
	if wp >= logMPMinPrec && wp <= logMPMaxPrec && c.cache().primeLogsWorth(wp+8) {
		// A reduction whose exponents' products would outgrow the
		// precision is refused (about 1 in 12 at 10^5 bits and R = 128):
		// one stage less, rather than the AGM.
		for R := logMPR(wp); ; R -= 32 {
			if e, ok := logMP(z, x, wp, R, c); ok {
				return e
			}
			if R <= 64 {
				break
			}
		}
	}
	return logAGM(z, x, wp, c)
}
