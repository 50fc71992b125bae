package fpa

// This file implements the correctly rounded elementary functions Log,
// Log1p and Exp. Each computes its result rounded toward zero to
// q = Prec+2 bits with an inexact flag (a round-to-odd value [Boldo09]),
// through apa's correctly rounded functions or, for exponents beyond
// big.Float's range, Ziv's strategy on an argument reduction [Ziv91], and
// rounds that once to the format, subnormals and overflow included.

import (
	"math"
	"math/big"

	"github.com/labelinf/labelinf/apa"
)

// bigExpLimit bounds the binary exponents handed to apa: below it every
// intermediate fits big.Float's int32 exponent with room to spare.
const bigExpLimit = 1 << 30

// oddPrec is the precision of the intermediate: two bits beyond the format
// make a round-to-odd value round correctly in every mode [Boldo09, Thm 1].
func (z *Float) oddPrec() uint { return z.f.Prec() + 2 }

// top returns the exponent of x's leading bit (x finite nonzero).
func (x *Float) top() int64 { return x.exp + int64(x.mantLen()) - 1 }

// setOdd rounds t, a value truncated toward zero whose inexact flag is
// sticky, to z's format.
func (z *Float) setOdd(t *big.Float, sticky bool, expShift int64) {
	if t.Sign() == 0 {
		z.SetZero(t.Signbit())
		return
	}
	R, e := bigParts(t)
	if sticky {
		if d := int64(z.oddPrec()) - int64(R.BitLen()); d > 0 {
			R.Lsh(R, uint(d))
			e -= d
		}
	}
	z.roundBig(t.Signbit(), R, e+expShift, sticky)
}

// setApa sets z to fn(x) computed by apa truncated to q = Prec+2 bits
// with its inexact flag as sticky bit (a round-to-odd value), rounded to
// z's format. x must lie within big.Float's exponent range and fn's domain.
func (z *Float) setApa(fn func(z, x *big.Float) (*big.Float, error), x *Float) {
	xb, _ := x.Big(nil)
	t := new(big.Float).SetPrec(z.oddPrec()).SetMode(big.ToZero)
	fn(t, xb)
	z.setOdd(t, t.Acc() != big.Exact, 0)
}

// setNear sets z to the rounding of a value of sign neg just above m·2^e in
// magnitude, or just below it when below is set, by less than one unit in
// the (q+1)-th bit of m·2^e (the callers prove that bound): the
// round-to-odd encoding of m·2^e plus or minus a tiny tail.
func (z *Float) setNear(neg bool, m *big.Int, e int64, below bool) {
	g := max(0, int64(z.oddPrec())+1-int64(m.BitLen()))
	R := new(big.Int).Lsh(m, uint(g))
	if below {
		R.Sub(R, big.NewInt(1))
	}
	z.roundBig(neg, R, e-g, true)
}

// setTiny sets z to the rounding of a positive value below half the
// smallest subnormal (0 or the smallest subnormal, by mode), inexact.
func (z *Float) setTiny() {
	z.roundBig(false, big.NewInt(1), z.f.Emin()-int64(z.f.Prec())-4, false)
}

// zivOdd returns approx's value truncated to q bits toward zero, for a
// function value known to be irrational: approx(w) returns y and an
// exponent k with |f − y| ≤ 2^k. The working precision grows until both
// ends of the error interval truncate alike [Ziv91].
func zivOdd(q uint, approx func(w uint) (*big.Float, int64)) *big.Float {
	for w := q + 64; ; w += w / 2 {
		y, k := approx(w)
		err := new(big.Float).SetMantExp(big.NewFloat(1), int(k))
		wide := uint(int64(y.MantExp(nil))-k) + 4
		lo := new(big.Float).SetPrec(max(wide, y.Prec())+4).Sub(y, err)
		hi := new(big.Float).SetPrec(max(wide, y.Prec())+4).Add(y, err)
		tl := new(big.Float).SetPrec(q).SetMode(big.ToZero).Set(lo)
		th := new(big.Float).SetPrec(q).SetMode(big.ToZero).Set(hi)
		if lo.Sign() == hi.Sign() && tl.Cmp(th) == 0 && tl.Cmp(lo) != 0 && tl.Cmp(hi) != 0 {
			return tl
		}
	}
}

// ln2 returns ln 2 correctly rounded to w bits.
func ln2(w uint) *big.Float {
	t, _ := apa.Log(new(big.Float).SetPrec(w), big.NewFloat(2))
	return t
}

// Log sets z to the natural logarithm of x, correctly rounded, and returns z.
//
// Special cases are:
//
//	Log(+Inf) = +Inf
//	Log(±0) = −Inf
//	Log(1) = +0 (exact)
//	Log(x < 0) = NaN
//	Log(NaN) = NaN
func (z *Float) Log(x *Float) *Float {
	z.result(x)
	switch {
	case x.form == nan || (x.neg && x.form != zero):
		return z.SetNaN()
	case x.form == zero:
		return z.SetInf(true)
	case x.form == inf:
		return z.SetInf(false)
	}
	top := x.top()
	if top == 0 && x.mantIsPow2() {
		return z.SetZero(false) // x = 1
	}
	if v, ok := z.float64Arg(x); ok && z.setFast(math.Log(v)) {
		return z
	}
	if v, ok := z.ddArg(x); ok && z.ddRound(logDD(v), 0) {
		return z
	}
	if (z.ln128Arg() || z.logFixArg()) && top > -bigExpLimit && top < bigExpLimit {
		if xb, err := x.Big(nil); err == nil && (z.ln128Arg() && z.setLn128(xb) || z.logFixArg() && z.setLogFix(xb)) {
			return z
		}
	}
	z.logFinite(x, top, false)
	return z
}

// logFinite sets z to log x (or log1p x for a huge x when plus1: the
// difference log1p x − log x lies in (0, 2^−top)), x finite and positive.
func (z *Float) logFinite(x *Float, top int64, plus1 bool) {
	q := z.oddPrec()
	if top > -bigExpLimit && top < bigExpLimit && !plus1 {
		z.setApa(apa.Log, x) // x > 0 and finite: no error
		return
	}
	// ln x = ln(m') + top·ln 2 with m' = x/2^top in [1, 2). The log of a
	// rational other than 1 is irrational (Lindemann), so Ziv terminates.
	m := x.mantBig(new(big.Int))
	mf := new(big.Float).SetInt(m)
	mf.SetMantExp(mf, -(mf.MantExp(nil) - 1))
	T := new(big.Float).SetInt64(top)
	t := zivOdd(q, func(w uint) (*big.Float, int64) {
		a, _ := apa.Log(new(big.Float).SetPrec(w), mf) // |err| ≤ 2^−w (a < 1)
		b := new(big.Float).SetPrec(w+128).Mul(ln2(w+64), T)
		y := new(big.Float).SetPrec(w+128).Add(a, b)
		// |top| < 2^62: |err(b)| ≤ 2^62·2^−(w+64); y's rounding ≤ 2^(63−w−128):
		// |ln x − y| ≤ 2^(2−w). For log1p the one-sided extra (0, 2^−top),
		// 2^−top < 2^−w, fits in 2^(3−w).
		if plus1 {
			return y, 3 - int64(w)
		}
		return y, 2 - int64(w)
	})
	z.setOdd(t, true, 0)
}

// Log1p sets z to ln(1+x), correctly rounded, and returns z.
//
// Special cases are:
//
//	Log1p(±0) = ±0 (exact)
//	Log1p(−1) = −Inf
//	Log1p(+Inf) = +Inf
//	Log1p(x < −1) = NaN
//	Log1p(NaN) = NaN
func (z *Float) Log1p(x *Float) *Float {
	z.result(x)
	switch {
	case x.form == nan || (x.form == inf && x.neg):
		return z.SetNaN()
	case x.form == zero:
		return z.SetZero(x.neg)
	case x.form == inf:
		return z.SetInf(false)
	}
	top := x.top()
	q := int64(z.oddPrec())
	if x.neg && top >= 0 {
		if top == 0 && x.mantIsPow2() {
			return z.SetInf(true) // x = −1
		}
		return z.SetNaN() // x < −1
	}
	if top < -q-2 {
		// ln(1+x) = x − x²/2 + …: within x² < 2^(2·top+2) ≤ 2^(top−q) of x,
		// below it for x > 0 and beyond it (more negative) for x < 0.
		z.setNear(x.neg, x.mantBig(new(big.Int)), x.exp, !x.neg)
		return z
	}
	if top >= bigExpLimit {
		z.logFinite(x, top, true)
		return z
	}
	if v, ok := z.float64Arg(x); ok && z.setFast(math.Log1p(v)) {
		return z
	}
	if v, ok := z.ddArg(x); ok && z.ddRound(log1pDD(v), 0) {
		return z
	}
	if (z.ln128Arg() || z.logFixArg() && top >= -18) && top > -4*int64(z.f.Prec()) && top < 4*int64(z.f.Prec()) {
		// 1+x exactly: x's bits and the gap between them and 1.
		if xb, err := x.Big(nil); err == nil {
			v := new(big.Float).SetPrec(x.f.Prec()+uint(max(top, -top))+2).Add(xb, big.NewFloat(1))
			if z.ln128Arg() && z.setLn128(v) || z.logFixArg() && z.setLogFix(v) {
				return z
			}
		}
	}
	z.setApa(apa.Log1p, x) // x > −1, finite: no error
	return z
}

// Exp sets z to e^x, correctly rounded, and returns z.
//
// Special cases are:
//
//	Exp(±0) = 1 (exact)
//	Exp(+Inf) = +Inf
//	Exp(−Inf) = +0
//	Exp(NaN) = NaN
//	overflow and underflow round as the mode says (±Inf or the largest
//	finite value; 0 or the smallest subnormal)
func (z *Float) Exp(x *Float) *Float {
	z.result(x)
	switch {
	case x.form == nan:
		return z.SetNaN()
	case x.form == zero:
		return z.SetInt64(1)
	case x.form == inf && x.neg:
		return z.SetZero(false)
	case x.form == inf:
		return z.SetInf(false)
	}
	top := x.top()
	q := int64(z.oddPrec())
	switch {
	case top < -q-2:
		// e^x within 2|x| < 2^−q of 1: just above 1 for x > 0, just below
		// for x < 0.
		z.setNear(false, big.NewInt(1), 0, x.neg)
		return z
	case top >= 63 || (top >= 30 && z.f.ExpBits <= 31):
		// |x| ≥ 2^30 > (Emax+1)·ln 2 and > (Prec−Emin+2)·ln 2 for every
		// format with ExpBits ≤ 31; |x| ≥ 2^63 beyond every format.
		if x.neg {
			z.setTiny()
		} else {
			z.overflow(false)
		}
		return z
	case top < 30:
		if v, ok := z.float64Arg(x); ok && z.setFast(math.Exp(v)) {
			return z
		}
		if v, ok := z.ddArg(x); ok && math.Abs(v) < 2048 {
			if y, k := expDD(v); z.ddRound(y, k) {
				return z
			}
		}
		if z.expFixArg() && z.setExpFix(x) {
			return z
		}
		z.setApa(apa.Exp, x) // |x| < 2^30: e^x within big.Float's range
		return z
	}
	// ExpBits ≥ 32 and 2^30 ≤ |x| < 2^63: e^x = 2^k·e^r, k = round(x/ln 2),
	// |r| ≤ ln 2 (k computed at 128 bits is within 1 of x/ln 2).
	xb, _ := x.Big(nil)
	kf := new(big.Float).SetPrec(128).Quo(xb, ln2(128))
	k, _ := kf.Int64()
	p := int64(z.f.Prec())
	switch {
	case k > z.f.Emax()+2:
		z.overflow(false)
		return z
	case k < z.f.Emin()-p-3:
		z.setTiny()
		return z
	}
	K := new(big.Float).SetInt64(k)
	t := zivOdd(uint(q), func(w uint) (*big.Float, int64) {
		// r = x − k·ln 2 with |k| < 2^63: |err(r)| ≤ 2^63·2^−(w+80); e^r < 2
		// to w bits: err ≤ 2^−w·2 + 2·|err(r)|.
		kl := new(big.Float).SetPrec(w+160).Mul(ln2(w+80), K)
		r := new(big.Float).SetPrec(w+160).Sub(xb, kl)
		e, _ := apa.Exp(new(big.Float).SetPrec(w), r)
		return e, 2 - int64(w)
	})
	z.setOdd(t, true, k)
	return z
}

// mantIsPow2 reports whether x's significand (x finite) is a power of two.
func (x *Float) mantIsPow2() bool {
	if x.f.small() {
		return x.lo&(x.lo-1) == 0
	}
	return isPow2(&x.hi)
}

// isPow2 reports whether m > 0 is a power of two.
func isPow2(m *big.Int) bool { return m.TrailingZeroBits() == uint(m.BitLen()-1) }

// fastPrecMax bounds the formats that take the float64 fast path: q =
// Prec+2 ≤ 47 bits leaves 6 of float64's 53 for the approximation error.
const fastPrecMax = 45

// float64Arg returns x as a float64 if the fast path applies: z's format
// is at most fastPrecMax bits and x is a normal float64 exactly.
func (z *Float) float64Arg(x *Float) (float64, bool) {
	if z.f.Prec() > fastPrecMax || x.f.Prec() > 53 {
		return 0, false
	}
	v, acc := x.Float64()
	if acc != big.Exact || v == 0 || math.IsInf(v, 0) || math.Abs(v) < 0x1p-1022 {
		return 0, false
	}
	return v, true
}

// setFast rounds y, an approximation of an irrational function value
// within 1 ulp (Go's math.Log, Log1p and Exp are documented to be
// accurate to below 1 ulp), through round-to-odd at q = Prec+2 bits: it
// widens y to ±4 float64 ulps (at least 2 ulps of y even at a binade
// boundary), and succeeds if both ends truncate to the same q bits with
// the interval strictly inside (Ziv's test [Ziv91] at float64 precision).
// It reports false, leaving z alone, when it cannot decide.
func (z *Float) setFast(y float64) bool {
	if y == 0 || math.IsInf(y, 0) || math.IsNaN(y) || math.Abs(y) < 0x1p-1000 || math.Abs(y) > 0x1p1000 {
		return false
	}
	a := math.Float64bits(math.Abs(y))
	lo, hi := a-4, a+4
	q := z.oddPrec()
	drop := uint64(53 - q) // low significand bits below the q kept
	mask := uint64(1)<<drop - 1
	if lo&^mask != hi&^mask || lo&mask == 0 || lo>>52 != hi>>52 {
		return false
	}
	e := int64(lo>>52) - 1023 - 52 // unbiased exponent of the last significand bit
	m := (lo&(1<<52-1) | 1<<52) >> drop
	z.round128(y < 0, 0, m, e+int64(drop), true)
	return true
}
