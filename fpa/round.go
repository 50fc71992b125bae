package fpa

// This file implements the single rounding step every operation ends with.
// An operation computes its exact result, or an integer R and exponent e
// with a sticky flag meaning "the exact value lies strictly between
// R·2^e and (R+1)·2^e", and rounds it once here to the target format with
// subnormals, overflow and the six rounding modes. This is the
// round-to-odd argument of [Boldo09]: when R has at least Prec+1 bits the
// interval (R, R+1) contains no rounding boundary of any mode, so the
// rounded result of the interval is that of the exact value.

import (
	"math/big"
	"math/bits"
)

func bitLen64(x uint64) int { return bits.Len64(x) }

// roundInc reports whether rounding the magnitude m (last kept bit lsb)
// with round bit r and sticky bit s goes up in magnitude.
func roundInc(mode RoundingMode, neg, lsb, r, s bool) bool {
	switch mode {
	case ToNearestEven:
		return r && (s || lsb)
	case ToNearestAway:
		return r
	case ToZero:
		return false
	case AwayFromZero:
		return r || s
	case ToPositiveInf:
		return !neg && (r || s)
	case ToNegativeInf:
		return neg && (r || s)
	}
	panic("fpa: invalid rounding mode")
}

// setAcc records the direction of a rounding that was inexact.
func (z *Float) setAcc(inexact, up bool) {
	switch {
	case !inexact:
		z.acc = big.Exact
	case up != z.neg:
		z.acc = big.Above
	default:
		z.acc = big.Below
	}
}

// overflow sets z to the overflowed result of sign neg: ±Inf when the mode
// rounds away from zero in that direction, else the largest finite value
// (IEEE 754 §7.4).
func (z *Float) overflow(neg bool) {
	z.neg = neg
	toInf := true
	switch z.mode {
	case ToZero:
		toInf = false
	case ToPositiveInf:
		toInf = !neg
	case ToNegativeInf:
		toInf = neg
	}
	if toInf {
		z.form = inf
		z.setAcc(true, true)
		return
	}
	p := int64(z.f.Prec())
	z.form = finite
	z.exp = z.f.Emax() - (p - 1)
	if z.f.small() {
		z.lo = 1<<uint(p) - 1
	} else {
		z.hi.Lsh(bigOne, uint(p))
		z.hi.Sub(&z.hi, bigOne)
	}
	z.setAcc(true, false)
}

// keepBits returns how many of the leading bits of a value whose leading
// bit has exponent E survive in z's format (Prec, or fewer for a
// subnormal; ≤ 0 if the value is below the smallest subnormal's ulp) and
// the exponent of the result's ulp.
func (f Format) keepBits(E int64) (keep int64, ulpExp int64) {
	p := int64(f.Prec())
	emin := f.Emin()
	if E >= emin {
		return p, E - (p - 1)
	}
	if d := emin - E; d <= p+1 {
		return p - d, emin - (p - 1)
	}
	return -1, emin - (p - 1)
}

// round128 sets z to the value (hi:lo)·2^e, plus a sticky fraction of
// 2^e if sticky, with sign neg, rounded to z's format (Prec ≤ 64).
// hi:lo must be nonzero, with at least Prec+1 bits when sticky is set.
func (z *Float) round128(neg bool, hi, lo uint64, e int64, sticky bool) {
	var n int
	if hi != 0 {
		n = bits.LeadingZeros64(hi)
	} else {
		n = 64 + bits.LeadingZeros64(lo)
	}
	switch {
	case n >= 64:
		hi, lo = lo<<(n-64), 0
	case n > 0:
		hi, lo = hi<<n|lo>>(64-n), lo<<n
	}
	e -= int64(n)
	keep, ulpExp := z.f.keepBits(e + 127)
	var m uint64
	var r, s bool
	switch {
	case keep == 64:
		m = hi
		r, s = lo>>63 != 0, lo<<1 != 0
	case keep >= 1:
		sh := uint(64 - keep) // bits of hi below the kept ones, 1..63
		m = hi >> sh
		r = hi>>(sh-1)&1 != 0
		s = hi&(1<<(sh-1)-1) != 0 || lo != 0
	case keep == 0:
		r, s = true, hi<<1 != 0 || lo != 0
	default:
		s = true
	}
	s = s || sticky
	z.neg = neg
	inc := roundInc(z.mode, neg, m&1 != 0, r, s)
	if inc {
		m++
		switch {
		case m == 0: // 64-bit significand wrapped: 2^64
			m = 1 << 63
			ulpExp++
		case keep == int64(z.f.Prec()) && m>>uint(keep) != 0: // 2^Prec
			m >>= 1
			ulpExp++
		}
	}
	z.setAcc(r || s, inc)
	if m == 0 {
		z.form = zero
		return
	}
	if ulpExp+int64(bits.Len64(m))-1 > z.f.Emax() {
		z.overflow(neg)
		return
	}
	z.form, z.exp, z.lo = finite, ulpExp, m
}

// roundBig sets z to R·2^e, plus a sticky fraction of 2^e if sticky, with
// sign neg, rounded to z's format. R must be positive, with at least
// Prec+1 bits when sticky is set. R may be modified.
func (z *Float) roundBig(neg bool, R *big.Int, e int64, sticky bool) {
	L := int64(R.BitLen())
	keep, ulpExp := z.f.keepBits(e + L - 1)
	p := int64(z.f.Prec())
	var r, s bool
	shift := L - keep // bits dropped
	switch {
	case shift <= 0:
		R.Lsh(R, uint(-shift))
	default:
		if shift-1 < L {
			r = R.Bit(int(shift-1)) != 0
			s = int64(R.TrailingZeroBits()) < shift-1
		} else {
			s = true // the whole of R lies below the round bit
		}
		if shift >= L {
			R.SetInt64(0)
		} else {
			R.Rsh(R, uint(shift))
		}
	}
	s = s || sticky
	z.neg = neg
	inc := roundInc(z.mode, neg, R.Bit(0) != 0, r, s)
	if inc {
		R.Add(R, bigOne)
		if int64(R.BitLen()) > p {
			R.Rsh(R, 1)
			ulpExp++
		}
	}
	z.setAcc(r || s, inc)
	if R.Sign() == 0 {
		z.form = zero
		return
	}
	if ulpExp+int64(R.BitLen())-1 > z.f.Emax() {
		z.overflow(neg)
		return
	}
	z.form, z.exp = finite, ulpExp
	if z.f.small() {
		z.lo = R.Uint64()
	} else {
		z.hi.Set(R)
	}
}
