package fpa

// This file holds the fixed-width paths of Sqrt and FMA for formats whose
// significands fit in a uint64: integer arithmetic on 128- and 192-bit
// words from math/bits, no big.Int and no allocation, ending in the same
// single rounding (round128) as Add, Mul and Quo.
//
// [MCA] R. P. Brent, P. Zimmermann, Modern Computer Arithmetic, Cambridge
// University Press, 2010 (cited by key here; not in doc.go's list).

import (
	"math"
	"math/bits"
)

// sqrtPrecMax bounds the formats that take sqrtSmall: its 63-bit root must
// carry Prec+1 bits for the sticky rounding.
const sqrtPrecMax = 62

// sqrtSmall sets z to the rounded √(m·2^e), m > 0 of at most 64 bits and
// z's precision at most sqrtPrecMax. m is shifted to M = m·2^s of 125 or
// 126 bits with e−s even; r = ⌊√M⌋ then has 63 bits, and √(m·2^e) lies in
// [r, r+1)·2^((e−s)/2), strictly inside unless r² = M. r comes from a
// float64 estimate (relative error below 2^−51) and one integer Newton
// step, ⌊(r + ⌊M/r⌋)/2⌋, which is never below ⌊√M⌋ (AM–GM) and is within
// 1 of it for such a start [MCA, §1.5.1]; the loops fix the last unit.
func (z *Float) sqrtSmall(m uint64, e int64) {
	L := int64(bits.Len64(m))
	s := 125 - L
	if (e-s)&1 != 0 {
		s++
	}
	var hi, lo uint64 // M = m << s, s in [61, 125]
	if s >= 64 {
		hi = m << (s - 64)
	} else {
		hi, lo = m>>(64-s), m<<s
	}
	f := math.Ldexp(float64(hi), 64) + float64(lo)
	r := uint64(math.Sqrt(f)) // in [2^62, 2^63]
	q, _ := bits.Div64(hi, lo, r)
	r = (r>>1 + q>>1) + (r&1+q&1)>>1
	for sqGreater(r, hi, lo) {
		r--
	}
	for !sqGreater(r+1, hi, lo) {
		r++
	}
	sh, sl := bits.Mul64(r, r)
	z.round128(false, 0, r, (e-s)/2, sh != hi || sl != lo)
}

// sqGreater reports whether r² > hi:lo.
func sqGreater(r, hi, lo uint64) bool {
	h, l := bits.Mul64(r, r)
	return h > hi || (h == hi && l > lo)
}

// u192 is a 192-bit unsigned integer, least significant word first.
type u192 [3]uint64

// place returns the 128-bit hi:lo (leading bit at bit 127) shifted so
// that its leading bit lands on bit top of a 192-bit word (top ≤ 191),
// and whether nonzero bits fell below bit 0.
func place(hi, lo uint64, top int64) (a u192, sticky bool) {
	if sh := top - 127; sh >= 0 {
		return u192{lo << sh, hi<<sh | lo>>(64-sh), hi >> (64 - sh)}, false
	}
	t := 127 - top // right shift, ≥ 1
	switch {
	case t >= 128:
		return u192{}, true
	case t >= 64:
		return u192{hi >> (t - 64)}, lo != 0 || hi<<(128-t) != 0
	}
	return u192{lo>>t | hi<<(64-t), hi >> t}, lo<<(64-t) != 0
}

// fmaSmall sets z to the rounded (−1)^pneg·xm·ym·2^pe + (−1)^wneg·wm·2^we
// for nonzero significands of at most 64 bits and z's precision at most
// 64. Both addends are placed in a 192-bit window, the larger (by leading
// bit) with its leading bit at bit 190; the smaller is shifted under it,
// the bits below the window folded into a sticky bit, and a subtraction
// with a sticky tail borrows one unit as in addSmall. The window holds
// both exactly whenever they are within 64 bits of each other, the only
// case where the difference can lose more than one leading bit, so a
// sticky result always keeps at least 128 bits.
func (z *Float) fmaSmall(pneg bool, xm, ym uint64, pe int64, wneg bool, wm uint64, we int64) {
	ph, pl := bits.Mul64(xm, ym)
	var lp int64
	if ph != 0 {
		lp = int64(bits.LeadingZeros64(ph))
	} else {
		lp = 64 + int64(bits.LeadingZeros64(pl))
	}
	switch {
	case lp >= 64:
		ph, pl = pl<<(lp-64), 0
	case lp > 0:
		ph, pl = ph<<lp|pl>>(64-lp), pl<<lp
	}
	tp := pe + 127 - lp // exponent of P's leading bit
	lw := int64(bits.LeadingZeros64(wm))
	wh := wm << lw
	tw := we + 63 - lw
	// X is the addend with the higher leading bit (P on a tie).
	xh, xl, xneg, tx := ph, pl, pneg, tp
	yh, yl, yneg, ty := wh, uint64(0), wneg, tw
	if tw > tp {
		xh, xl, xneg, tx, yh, yl, yneg, ty = yh, yl, yneg, ty, xh, xl, xneg, tx
	}
	X, _ := place(xh, xl, 190)
	Y, st := place(yh, yl, 190-(tx-ty))
	e := tx - 190 // exponent of the window's bit 0
	var R u192
	neg := xneg
	if xneg == yneg {
		var c uint64
		R[0], c = bits.Add64(X[0], Y[0], 0)
		R[1], c = bits.Add64(X[1], Y[1], c)
		R[2], _ = bits.Add64(X[2], Y[2], c)
	} else {
		var b uint64
		R[0], b = bits.Sub64(X[0], Y[0], 0)
		R[1], b = bits.Sub64(X[1], Y[1], b)
		R[2], b = bits.Sub64(X[2], Y[2], b)
		if b != 0 { // |Y| > |X|: equal leading bits, no sticky; negate
			neg = !neg
			R[0], b = bits.Sub64(0, R[0], 0)
			R[1], b = bits.Sub64(0, R[1], b)
			R[2], _ = bits.Sub64(0, R[2], b)
		}
		if st {
			R[0], b = bits.Sub64(R[0], 1, 0)
			R[1], b = bits.Sub64(R[1], 0, b)
			R[2], _ = bits.Sub64(R[2], 0, b)
		}
		if R[0]|R[1]|R[2] == 0 {
			z.SetZero(z.zeroSumNeg())
			return
		}
	}
	if R[2] != 0 {
		z.round128(neg, R[2], R[1], e+64, st || R[0] != 0)
		return
	}
	z.round128(neg, R[1], R[0], e, st)
}
