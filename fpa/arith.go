package fpa

// This file implements the correctly rounded basic operations. Each
// handles the special values first (IEEE 754 §6 and §7), then computes on
// integers: with 128-bit words from math/bits when every significand fits
// in a uint64 (the fast path), with big.Int otherwise, and rounds once.

import (
	"math/big"
	"math/bits"
)

// zeroSign returns the sign of an exact zero sum of operands with
// different signs: +0, except −0 when rounding toward −Inf (IEEE 754 §6.3).
func (z *Float) zeroSumNeg() bool { return z.mode == ToNegativeInf }

// Add sets z to the rounded sum x+y and returns z.
//
// Special cases are:
//
//	Add(±Inf, ∓Inf) = NaN
//	Add(±0, ±0) = ±0; Add(+0, −0) = +0 (−0 when rounding down)
//	Add(x, NaN) = Add(NaN, x) = NaN
func (z *Float) Add(x, y *Float) *Float {
	z.result(x, y)
	return z.add(x, y.neg, y)
}

// Sub sets z to the rounded difference x−y and returns z.
func (z *Float) Sub(x, y *Float) *Float {
	z.result(x, y)
	return z.add(x, !y.neg, y)
}

// add sets z = x + (−1)^yneg·|y|.
func (z *Float) add(x *Float, yneg bool, y *Float) *Float {
	if x.form == finite && y.form == finite {
		if z.f.small() && x.f.small() && y.f.small() {
			z.addSmall(x.neg, x.lo, x.exp, yneg, y.lo, y.exp)
			return z
		}
		if z.f.two() && x.f.two() && y.f.two() {
			xh, xl := x.words2()
			yh, yl := y.words2()
			z.add2(x.neg, xh, xl, x.exp, yneg, yh, yl, y.exp)
			return z
		}
		if z.f.nw() && x.f.nw() && y.f.nw() {
			z.addW(x.neg, x.hi.Bits(), x.exp, yneg, y.hi.Bits(), y.exp)
			return z
		}
		z.addBig(x, yneg, y)
		return z
	}
	switch {
	case x.form == nan || y.form == nan:
		return z.SetNaN()
	case x.form == inf && y.form == inf:
		if x.neg != yneg {
			return z.SetNaN()
		}
		return z.SetInf(x.neg)
	case x.form == inf:
		return z.SetInf(x.neg)
	case y.form == inf:
		return z.SetInf(yneg)
	case x.form == zero && y.form == zero:
		if x.neg == yneg {
			return z.SetZero(x.neg)
		}
		return z.SetZero(z.zeroSumNeg())
	case x.form == zero:
		return z.setSigned(y, yneg)
	}
	return z.setSigned(x, x.neg) // y is ±0
}

// addBig sets z = x + (−1)^yneg·|y| with big.Int, x and y finite nonzero.
func (z *Float) addBig(x *Float, yneg bool, y *Float) {
	sc := getScratch()
	R := &sc.a
	neg, e, st := addInts(R, &sc.b, x.neg, x.mantRef(&sc.c), x.exp, yneg, y.mantRef(&sc.d), y.exp, int64(z.f.Prec()))
	if R.Sign() == 0 {
		z.SetZero(z.zeroSumNeg())
	} else {
		z.roundBig(neg, R, e, st)
	}
	putScratch(sc)
}

// addSmall adds two finite values with 64-bit significands on 128-bit
// words: the larger is normalized to the top of hi, the smaller shifted
// right under it with the bits shifted out folded into a sticky bit. A
// subtraction with a sticky tail borrows one unit from the last place
// (X − (Y+t) = (X−Y−1) + (1−t), 0 < 1−t < 1), keeping the round-to-odd
// invariant of round128.
func (z *Float) addSmall(xneg bool, xm uint64, xe int64, yneg bool, ym uint64, ye int64) {
	lx := bits.LeadingZeros64(xm)
	xh, xe := xm<<lx, xe-int64(lx)
	ly := bits.LeadingZeros64(ym)
	yh, ye := ym<<ly, ye-int64(ly)
	if xe < ye || (xe == ye && xh < yh) {
		xneg, xh, xe, yneg, yh, ye = yneg, yh, ye, xneg, xh, xe
	}
	d := uint64(xe - ye)
	var yhi, ylo uint64
	var st bool
	switch {
	case d == 0:
		yhi = yh
	case d < 64:
		yhi, ylo = yh>>d, yh<<(64-d)
	case d < 128:
		ylo = yh >> (d - 64)
		st = yh<<(128-d) != 0
	default:
		st = true
	}
	e := xe - 64
	if xneg == yneg {
		lo, c := bits.Add64(0, ylo, 0)
		hi, c2 := bits.Add64(xh, yhi, c)
		if c2 != 0 {
			st = st || lo&1 != 0
			lo = lo>>1 | hi<<63
			hi = hi>>1 | 1<<63
			e++
		}
		z.round128(xneg, hi, lo, e, st)
		return
	}
	lo, b := bits.Sub64(0, ylo, 0)
	hi, _ := bits.Sub64(xh, yhi, b)
	if st {
		lo, b = bits.Sub64(lo, 1, 0)
		hi -= b
	}
	if hi|lo == 0 {
		z.SetZero(z.zeroSumNeg())
		return
	}
	z.round128(xneg, hi, lo, e, st)
}

// addInts sets R to the integer and returns the sign neg, exponent e and
// sticky bit of (−1)^neg·(R + sticky)·2^e for the exact sum of
// (−1)^xneg·xm·2^xe and (−1)^yneg·ym·2^ye, keeping at least p+2 bits
// when sticky: when |y| lies wholly below x's p+3 leading bits only a
// sticky bit is kept (R = x's bits minus one unit for a subtraction, as
// in addSmall); otherwise the sum is exact. T is a temporary; R and T
// must not alias xm or ym. R = 0 means an exact zero.
func addInts(R, T *big.Int, xneg bool, xm *big.Int, xe int64, yneg bool, ym *big.Int, ye int64, p int64) (bool, int64, bool) {
	tx, ty := xe+int64(xm.BitLen()), ye+int64(ym.BitLen())
	if tx < ty || (tx == ty && xe < ye) {
		xneg, xm, xe, yneg, ym, ye, tx, ty = yneg, ym, ye, xneg, xm, xe, ty, tx
	}
	g := max(0, p+3-int64(xm.BitLen()))
	if ty <= xe-g { // |y| < 2^(xe−g): only a sticky bit below x's p+3 bits
		R.Lsh(xm, uint(g))
		if xneg != yneg {
			R.Sub(R, bigOne)
		}
		return xneg, xe - g, true
	}
	e0 := min(xe, ye)
	R.Lsh(xm, uint(xe-e0))
	if ye > e0 {
		T.Lsh(ym, uint(ye-e0))
	} else {
		T = ym // read only: no copy
	}
	if xneg == yneg {
		R.Add(R, T)
		return xneg, e0, false
	}
	R.Sub(R, T)
	if R.Sign() < 0 {
		R.Neg(R)
		return !xneg, e0, false
	}
	return xneg, e0, false
}

// Mul sets z to the rounded product x·y and returns z.
//
// Special cases are:
//
//	Mul(±0, ±Inf) = Mul(±Inf, ±0) = NaN
//	Mul(x, NaN) = Mul(NaN, x) = NaN
//	the sign of a zero or infinite product is the xor of the signs
func (z *Float) Mul(x, y *Float) *Float {
	z.result(x, y)
	neg := x.neg != y.neg
	if x.form == finite && y.form == finite {
		if z.f.small() && x.f.small() && y.f.small() {
			hi, lo := bits.Mul64(x.lo, y.lo)
			z.round128(neg, hi, lo, x.exp+y.exp, false)
			return z
		}
		if z.f.two() && x.f.two() && y.f.two() {
			xh, xl := x.words2()
			yh, yl := y.words2()
			z.mul2(neg, xh, xl, yh, yl, x.exp+y.exp)
			return z
		}
		if z.f.nw() && x.f.nw() && y.f.nw() {
			z.mulW(neg, x, y)
			return z
		}
		z.mulBig(neg, x, y)
		return z
	}
	switch {
	case x.form == nan || y.form == nan,
		x.form == inf && y.form == zero, x.form == zero && y.form == inf:
		return z.SetNaN()
	case x.form == inf || y.form == inf:
		return z.SetInf(neg)
	}
	return z.SetZero(neg)
}

// mulBig sets z to the rounded (−1)^neg·|x·y| with big.Int, x and y
// finite nonzero.
func (z *Float) mulBig(neg bool, x, y *Float) {
	sc := getScratch()
	R := sc.a.Mul(x.mantRef(&sc.b), y.mantRef(&sc.c))
	z.roundBig(neg, R, x.exp+y.exp, false)
	putScratch(sc)
}

// Quo sets z to the rounded quotient x/y and returns z.
//
// Special cases are:
//
//	Quo(±0, ±0) = Quo(±Inf, ±Inf) = NaN
//	Quo(x ≠ 0, ±0) = ±Inf, Quo(x, ±Inf) = ±0 (signs xor'ed)
//	Quo(x, NaN) = Quo(NaN, x) = NaN
func (z *Float) Quo(x, y *Float) *Float {
	z.result(x, y)
	neg := x.neg != y.neg
	if x.form == finite && y.form == finite {
		if z.f.small() && x.f.small() && y.f.small() {
			z.quoSmall(neg, x.lo, x.exp, y.lo, y.exp)
			return z
		}
		if z.f.two() && x.f.two() && y.f.two() {
			xh, xl := x.words2()
			yh, yl := y.words2()
			z.quo2(neg, xh, xl, x.exp, yh, yl, y.exp)
			return z
		}
		if z.f.nw() && x.f.nw() && y.f.nw() {
			z.quoW(neg, x, y)
			return z
		}
		sc := getScratch()
		z.quoScratch(sc, neg, x.mantRef(&sc.d), x.exp, y.mantRef(&sc.e), y.exp)
		putScratch(sc)
		return z
	}
	switch {
	case x.form == nan || y.form == nan,
		x.form == zero && y.form == zero, x.form == inf && y.form == inf:
		return z.SetNaN()
	case x.form == inf || y.form == zero:
		return z.SetInf(neg)
	}
	return z.SetZero(neg)
}

// quoSmall divides 64-bit significands: both are normalized to bit 63 and
// two 128-by-64 divisions give a 128-bit quotient with at least 127
// significant bits; a nonzero remainder is the sticky bit.
func (z *Float) quoSmall(neg bool, xm uint64, xe int64, ym uint64, ye int64) {
	lx := bits.LeadingZeros64(xm)
	xm, xe = xm<<lx, xe-int64(lx)
	ly := bits.LeadingZeros64(ym)
	ym, ye = ym<<ly, ye-int64(ly)
	hi, lo, e := xm, uint64(0), xe-ye-128 // numerator xm·2^128
	if xm >= ym {
		hi, lo, e = xm>>1, xm<<63, e+1 // numerator xm·2^127
	}
	q1, r := bits.Div64(hi, lo, ym)
	q0, r := bits.Div64(r, 0, ym)
	z.round128(neg, q1, q0, e, r != 0)
}

// quoInts sets z to the rounded (xm·2^xe)/(ym·2^ye), xm, ym > 0, with a
// quotient of at least Prec+2 bits and the remainder as sticky bit.
func (z *Float) quoInts(neg bool, xm *big.Int, xe int64, ym *big.Int, ye int64) {
	sc := getScratch()
	z.quoScratch(sc, neg, xm, xe, ym, ye)
	putScratch(sc)
}

// quoScratch is quoInts with its intermediates in sc.a, sc.b and sc.c,
// which xm and ym must not be.
func (z *Float) quoScratch(sc *scratch, neg bool, xm *big.Int, xe int64, ym *big.Int, ye int64) {
	p := int64(z.f.Prec())
	s := max(0, p+3+int64(ym.BitLen())-int64(xm.BitLen()))
	num := sc.a.Lsh(xm, uint(s))
	q, r := sc.b.QuoRem(num, ym, &sc.c)
	z.roundBig(neg, q, xe-ye-s, r.Sign() != 0)
}

// Sqrt sets z to the rounded square root of x and returns z.
//
// Special cases are:
//
//	Sqrt(±0) = ±0
//	Sqrt(+Inf) = +Inf
//	Sqrt(x < 0) = NaN
//	Sqrt(NaN) = NaN
func (z *Float) Sqrt(x *Float) *Float {
	z.result(x)
	switch {
	case x.form == nan || (x.neg && x.form != zero):
		return z.SetNaN()
	case x.form == zero:
		return z.SetZero(x.neg)
	case x.form == inf:
		return z.SetInf(false)
	}
	// √(m·2^e) = √(m·2^s)·2^((e−s)/2) with e−s even and m·2^s of at least
	// 2·(Prec+2) bits, so the integer root has Prec+2 bits; a nonzero
	// remainder is the sticky bit.
	p := int64(z.f.Prec())
	if p <= sqrtPrecMax && x.f.small() {
		z.sqrtSmall(x.lo, x.exp)
		return z
	}
	if z.f.two() && x.f.two() {
		mh, ml := x.words2()
		z.sqrt2(mh, ml, x.exp)
		return z
	}
	if z.f.nw() && x.f.nw() {
		z.sqrtW(x)
		return z
	}
	z.sqrtBig(x)
	return z
}

// sqrtBig sets z to the rounded √x with big.Int, x finite and positive.
func (z *Float) sqrtBig(x *Float) {
	p := int64(z.f.Prec())
	sc := getScratch()
	m := x.mantRef(&sc.a)
	s := max(0, 2*(p+2)-int64(m.BitLen()))
	if (x.exp-s)&1 != 0 {
		s++
	}
	m = sc.a.Lsh(m, uint(s))
	var r *big.Int
	if m.BitLen() >= 104 {
		r = isqrtRec(&sc.b, m, sc.lv[:], &sc.c, &sc.d, &sc.e)
	} else {
		r = sc.b.Sqrt(m)
	}
	sq := sc.c.Mul(r, r)
	z.roundBig(false, r, (x.exp-s)/2, sq.Cmp(m) != 0)
	putScratch(sc)
}

// FMA sets z to x·y+w rounded once and returns z (IEEE 754 fusedMultiplyAdd).
//
// Special cases are those of Mul then Add on the exact product; in
// particular FMA(±0, ±Inf, w) = NaN even when w is NaN, and an exact zero
// result follows Add's sign rule.
func (z *Float) FMA(x, y, w *Float) *Float {
	z.result(x, y, w)
	pneg := x.neg != y.neg
	switch {
	case x.form == nan || y.form == nan || w.form == nan,
		x.form == inf && y.form == zero, x.form == zero && y.form == inf:
		return z.SetNaN()
	case x.form == inf || y.form == inf:
		if w.form == inf && w.neg != pneg {
			return z.SetNaN()
		}
		return z.SetInf(pneg)
	case w.form == inf:
		return z.SetInf(w.neg)
	case x.form == zero || y.form == zero:
		if w.form == zero {
			if pneg == w.neg {
				return z.SetZero(pneg)
			}
			return z.SetZero(z.zeroSumNeg())
		}
		return z.setSigned(w, w.neg)
	}
	if z.f.small() && x.f.small() && y.f.small() && w.f.small() {
		if w.form == zero {
			hi, lo := bits.Mul64(x.lo, y.lo)
			z.round128(pneg, hi, lo, x.exp+y.exp, false)
			return z
		}
		z.fmaSmall(pneg, x.lo, y.lo, x.exp+y.exp, w.neg, w.lo, w.exp)
		return z
	}
	if z.f.two() && x.f.two() && y.f.two() && w.f.two() && w.form == finite {
		xh, xl := x.words2()
		yh, yl := y.words2()
		wh, wl := w.words2()
		z.fma2(pneg, xh, xl, yh, yl, x.exp+y.exp, w.neg, wh, wl, w.exp)
		return z
	}
	z.fmaBig(pneg, x, y, w)
	return z
}

// fmaBig sets z to the rounded (−1)^pneg·|x·y| + w with big.Int, x and y
// finite nonzero, w finite.
func (z *Float) fmaBig(pneg bool, x, y, w *Float) {
	sc := getScratch()
	defer putScratch(sc)
	P := sc.c.Mul(x.mantRef(&sc.a), y.mantRef(&sc.b))
	pe := x.exp + y.exp
	if w.form == zero {
		z.roundBig(pneg, P, pe, false)
		return
	}
	R := &sc.a
	neg, e, st := addInts(R, &sc.b, pneg, P, pe, w.neg, w.mantRef(&sc.d), w.exp, int64(z.f.Prec()))
	switch {
	case R.Sign() == 0:
		z.SetZero(z.zeroSumNeg())
	case z.f.nw(): // R is scratch, not z's: round straight into z's words
		z.roundW(neg, R.Bits(), e, st)
	default:
		z.roundBig(neg, R, e, st)
	}
}

// Neg sets z to −x (exactly, if z has x's format) and returns z.
func (z *Float) Neg(x *Float) *Float {
	z.result(x)
	return z.setSigned(x, !x.neg)
}

// Abs sets z to |x| and returns z.
func (z *Float) Abs(x *Float) *Float {
	z.result(x)
	return z.setSigned(x, false)
}
