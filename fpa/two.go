package fpa

// This file holds the two-word paths of Add, Sub and Mul for formats of
// 65 to 126 bits (binary128 among them): significands of at most two
// 64-bit words (four big.Words on 32-bit targets: words2 and setWords2
// convert), sums and products on 256-bit integers from math/bits, one
// rounding (round256), and the result written into the words z already
// owns, so no big.Int arithmetic and, after z's first wide result, no
// allocation.

import (
	"math"
	"math/big"
	"math/bits"
)

// two reports whether f takes the two-word paths: 64 < Prec ≤ 126.
func (f Format) two() bool { return f.FracBits >= 64 && f.FracBits <= 125 }

// u256 is a 256-bit unsigned integer, least significant word first.
type u256 [4]uint64

// words2 returns x's significand (x finite, x.f.two()) as hi:lo.
func (x *Float) words2() (hi, lo uint64) {
	w := x.hi.Bits()
	if bits.UintSize == 32 { // up to four 32-bit words
		var v [4]uint64
		for i, d := range w {
			v[i] = uint64(d)
		}
		return v[3]<<32 | v[2], v[1]<<32 | v[0]
	}
	switch len(w) {
	case 2:
		return uint64(w[1]), uint64(w[0])
	case 1:
		return 0, uint64(w[0])
	}
	return 0, 0
}

// setWords2 sets z's significand to hi:lo (not zero), reusing z.hi's words.
func (z *Float) setWords2(hi, lo uint64) {
	w := z.hi.Bits()
	if bits.UintSize == 32 {
		if cap(w) < 4 {
			w = make([]big.Word, 4)
		}
		w = w[:4]
		w[0], w[1], w[2], w[3] = big.Word(lo), big.Word(lo>>32), big.Word(hi), big.Word(hi>>32)
		z.hi.SetBits(w) // drops zero top words
		return
	}
	if cap(w) < 2 {
		w = make([]big.Word, 2, 4)
	}
	w = w[:2]
	w[0], w[1] = big.Word(lo), big.Word(hi)
	z.hi.SetBits(w) // drops a zero top word
}

// norm128 shifts hi:lo (not zero) left until its leading bit is bit 127
// and returns it with the shift.
func norm128(hi, lo uint64) (uint64, uint64, int64) {
	if hi == 0 {
		n := bits.LeadingZeros64(lo)
		return lo << n, 0, int64(64 + n)
	}
	n := bits.LeadingZeros64(hi)
	return hi<<n | lo>>(64-n), lo << n, int64(n)
}

// place256 returns the 128-bit hi:lo (leading bit at bit 127) shifted so
// that its leading bit lands on bit top of a 256-bit word (top ≤ 255),
// and whether nonzero bits fell below bit 0.
func place256(hi, lo uint64, top int64) (a u256, sticky bool) {
	sh := top - 127
	switch {
	case sh >= 64:
		s := sh - 64
		return u256{0, lo << s, hi<<s | lo>>(64-s), hi >> (64 - s)}, false
	case sh >= 0:
		return u256{lo << sh, hi<<sh | lo>>(64-sh), hi >> (64 - sh), 0}, false
	}
	t := -sh // right shift, ≥ 1
	switch {
	case t >= 128:
		return u256{}, true
	case t >= 64:
		return u256{hi >> (t - 64)}, lo != 0 || hi<<(128-t) != 0
	}
	return u256{lo>>t | hi<<(64-t), hi >> t}, lo<<(64-t) != 0
}

// add2 sets z to the rounded (−1)^xneg·xm·2^xe + (−1)^yneg·ym·2^ye for
// nonzero two-word significands, as addSmall does on one word: the larger
// (by leading bit) goes to bit 254 of a 256-bit window, the other under
// it with the bits below the window folded into a sticky bit, and a
// subtraction with a sticky tail borrows one unit. Sticky bits only arise
// when the two are more than 127 bits apart, and then the result keeps
// at least 253 bits.
func (z *Float) add2(xneg bool, xh, xl uint64, xe int64, yneg bool, yh, yl uint64, ye int64) {
	xh, xl, lx := norm128(xh, xl)
	tx := xe + 127 - lx
	yh, yl, ly := norm128(yh, yl)
	ty := ye + 127 - ly
	if ty > tx || (ty == tx && (yh > xh || yh == xh && yl > xl)) {
		xneg, xh, xl, tx, yneg, yh, yl, ty = yneg, yh, yl, ty, xneg, xh, xl, tx
	}
	if d := uint64(tx - ty); d < 64 {
		z.add2Near(xneg != yneg, xneg, xh, xl, yh, yl, uint(d), tx)
		return
	}
	X, _ := place256(xh, xl, 254)
	Y, st := place256(yh, yl, 254-(tx-ty))
	var R u256
	var c uint64
	if xneg == yneg {
		R[0], c = bits.Add64(X[0], Y[0], 0)
		R[1], c = bits.Add64(X[1], Y[1], c)
		R[2], c = bits.Add64(X[2], Y[2], c)
		R[3], _ = bits.Add64(X[3], Y[3], c)
	} else {
		R[0], c = bits.Sub64(X[0], Y[0], 0)
		R[1], c = bits.Sub64(X[1], Y[1], c)
		R[2], c = bits.Sub64(X[2], Y[2], c)
		R[3], _ = bits.Sub64(X[3], Y[3], c)
		if st {
			R[0], c = bits.Sub64(R[0], 1, 0)
			R[1], c = bits.Sub64(R[1], 0, c)
			R[2], c = bits.Sub64(R[2], 0, c)
			R[3], _ = bits.Sub64(R[3], 0, c)
		}
		if R[0]|R[1]|R[2]|R[3] == 0 {
			z.SetZero(z.zeroSumNeg())
			return
		}
	}
	z.round256(xneg, R, tx-254, st)
}

// add2Near is add2 for normalized operands whose leading bits (bit 127
// of xh:xl and yh:yl, |x| ≥ |y|) are d < 64 places apart: on a 192-bit
// window with x's leading bit on bit 190 and y's on bit 190−d every bit
// of both fits (y's lowest lands on bit 63−d ≥ 0), so the sum is exact.
// tx is the exponent of x's leading bit.
func (z *Float) add2Near(sub, neg bool, xh, xl, yh, yl uint64, d uint, tx int64) {
	x2, x1, x0 := xh>>1, xh<<63|xl>>1, xl<<63
	s := d + 1 // 1..64; Go's shifts by ≥ 64 give 0
	y2, y1, y0 := yh>>s, yh<<(64-s)|yl>>s, yl<<(64-s)
	var r0, r1, r2, c uint64
	if sub {
		r0, c = bits.Sub64(x0, y0, 0)
		r1, c = bits.Sub64(x1, y1, c)
		r2, _ = bits.Sub64(x2, y2, c)
		if r0|r1|r2 == 0 {
			z.SetZero(z.zeroSumNeg())
			return
		}
	} else {
		r0, c = bits.Add64(x0, y0, 0)
		r1, c = bits.Add64(x1, y1, c)
		r2, _ = bits.Add64(x2, y2, c)
	}
	z.round256(neg, u256{0, r0, r1, r2}, tx-190-64, false)
}

// mul2 sets z to the rounded (−1)^neg·(xh:xl)·(yh:yl)·2^e, exactly
// computed on 256 bits.
func (z *Float) mul2(neg bool, xh, xl, yh, yl uint64, e int64) {
	z.round256(neg, mul128(xh, xl, yh, yl), e, false)
}

// mul128 returns the exact 256-bit product (xh:xl)·(yh:yl).
func mul128(xh, xl, yh, yl uint64) u256 {
	h00, l00 := bits.Mul64(xl, yl)
	h01, l01 := bits.Mul64(xl, yh)
	h10, l10 := bits.Mul64(xh, yl)
	h11, l11 := bits.Mul64(xh, yh)
	var R u256
	var c, c2 uint64
	R[0] = l00
	R[1], c = bits.Add64(h00, l01, 0)
	R[2], c2 = bits.Add64(h01, l11, c)
	R[3], _ = bits.Add64(h11, 0, c2)
	R[1], c = bits.Add64(R[1], l10, 0)
	R[2], c2 = bits.Add64(R[2], h10, c)
	R[3], _ = bits.Add64(R[3], 0, c2)
	return R
}

// round256 sets z to the value R·2^e, plus a sticky fraction of 2^e if
// sticky, with sign neg, rounded to z's format (z.f.two()). R must be
// nonzero, with at least Prec+1 bits when sticky is set. It is round128
// on four words with a two-word result.
func (z *Float) round256(neg bool, R u256, e int64, sticky bool) {
	// Normalize: leading bit to bit 255.
	var wsh int
	for R[3] == 0 {
		R[3], R[2], R[1], R[0] = R[2], R[1], R[0], 0
		wsh++
	}
	n := bits.LeadingZeros64(R[3])
	if n > 0 {
		R[3] = R[3]<<n | R[2]>>(64-n)
		R[2] = R[2]<<n | R[1]>>(64-n)
		R[1] = R[1]<<n | R[0]>>(64-n)
		R[0] <<= n
	}
	e -= int64(64*wsh + n)
	keep, ulpExp := z.f.keepBits(e + 255)
	var mh, ml uint64
	var r, s bool
	switch {
	case keep > 64: // 65..126 bits: mh:ml = R[3]:R[2] >> (128−keep)
		sh := uint(128 - keep) // 2..63
		mh, ml = R[3]>>sh, R[3]<<(64-sh)|R[2]>>sh
		r = R[2]>>(sh-1)&1 != 0
		s = R[2]&(1<<(sh-1)-1) != 0 || R[1]|R[0] != 0
	case keep == 64:
		ml = R[3]
		r, s = R[2]>>63 != 0, R[2]<<1 != 0 || R[1]|R[0] != 0
	case keep >= 1:
		sh := uint(64 - keep) // 1..63
		ml = R[3] >> sh
		r = R[3]>>(sh-1)&1 != 0
		s = R[3]&(1<<(sh-1)-1) != 0 || R[2]|R[1]|R[0] != 0
	case keep == 0:
		r, s = true, R[3]<<1 != 0 || R[2]|R[1]|R[0] != 0
	default:
		s = true
	}
	s = s || sticky
	z.neg = neg
	inc := roundInc(z.mode, neg, ml&1 != 0, r, s)
	if inc {
		var c uint64
		ml, c = bits.Add64(ml, 1, 0)
		mh += c
		// A carry out of the kept bits: 2^Prec, one bit more.
		if keep == int64(z.f.Prec()) && bits.Len64(mh) > int(keep-64) {
			ml = ml>>1 | mh<<63
			mh >>= 1
			ulpExp++
		}
	}
	z.setAcc(r || s, inc)
	if mh|ml == 0 {
		z.form = zero
		return
	}
	L := int64(bits.Len64(ml))
	if mh != 0 {
		L = 64 + int64(bits.Len64(mh))
	}
	if ulpExp+L-1 > z.f.Emax() {
		z.overflow(neg)
		return
	}
	z.form, z.exp = finite, ulpExp
	z.setWords2(mh, ml)
}

// div3by2 divides the three-word u2:u1:u0 by the normalized two-word
// dh:dl (top bit of dh set), u2:u1 < dh:dl, and returns the one-word
// quotient and the two-word remainder. The estimate q̂ =
// min(⌊(u2·2^64+u1)/dh⌋, 2^64−1) is never below the quotient and at most
// 2 above it [Knuth, §4.3.1, Thm B], so at most two add-backs fix it.
func div3by2(u2, u1, u0, dh, dl uint64) (q, r1, r0 uint64) {
	q = ^uint64(0)
	if u2 < dh {
		q, _ = bits.Div64(u2, u1, dh)
	}
	p1h, p1l := bits.Mul64(q, dl)
	p2h, p2l := bits.Mul64(q, dh)
	P1, c := bits.Add64(p1h, p2l, 0)
	P2 := p2h + c
	var b, r2 uint64
	r0, b = bits.Sub64(u0, p1l, 0)
	r1, b = bits.Sub64(u1, P1, b)
	r2, b = bits.Sub64(u2, P2, b)
	for b != 0 { // negative (r2:r1:r0 − 2^192): add the divisor back
		q--
		r0, c = bits.Add64(r0, dl, 0)
		r1, c = bits.Add64(r1, dh, c)
		r2, c = bits.Add64(r2, 0, c)
		b -= c // a carry out of r2 is the return to ≥ 0
	}
	return q, r1, r0
}

// quo2 sets z to the rounded (−1)^neg·(xh:xl)·2^xe / ((yh:yl)·2^ye) for
// nonzero two-word significands: both are normalized to 128 bits, N and
// D; the numerator N·2^128 (N·2^127 when N ≥ D) gives a 128-bit quotient
// of at least 2^127 in two div3by2 steps, and a nonzero remainder is the
// sticky bit.
func (z *Float) quo2(neg bool, xh, xl uint64, xe int64, yh, yl uint64, ye int64) {
	nh, nl, sx := norm128(xh, xl)
	dh, dl, sy := norm128(yh, yl)
	e := xe - sx - ye + sy - 128
	u3, u2, u1 := nh, nl, uint64(0)
	if nh > dh || nh == dh && nl >= dl {
		u3, u2, u1 = nh>>1, nh<<63|nl>>1, nl<<63
		e++
	}
	q1, r1, r0 := div3by2(u3, u2, u1, dh, dl)
	q0, r1, r0 := div3by2(r1, r0, 0, dh, dl)
	z.round256(neg, u256{q0, q1}, e, r1|r0 != 0)
}

// sqrt2 sets z to the rounded √(m·2^e) for a nonzero two-word
// significand m = mh:ml (z.f.two()). m is shifted to M = m·2^s of 255 or
// 256 bits with e−s even, so r = ⌊√M⌋ has 128 bits, at least Prec+2;
// √(m·2^e) lies in [r, r+1)·2^((e−s)/2), strictly inside unless the
// remainder M − r² is zero (the sticky bit). r and the remainder come
// from sqrtRem256.
func (z *Float) sqrt2(mh, ml uint64, e int64) {
	nh, nl, lz := norm128(mh, ml) // m = (nh:nl)·2^−lz, leading bit 127
	s := 128 + lz                 // M = (nh:nl)·2^128
	a3, a2, a1 := nh, nl, uint64(0)
	if (e-s)&1 != 0 { // M = (nh:nl)·2^127
		s--
		a3, a2, a1 = nh>>1, nh<<63|nl>>1, nl<<63
	}
	rh, rl, r2, r1, r0 := sqrtRem256(a3, a2, a1, 0)
	z.round256(false, u256{0, 0, rl, rh}, (e-s)/2-128, r2|r1|r0 != 0)
}

// sqrtRem128 returns s = ⌊√A⌋ and the remainder A − s² = rh·2^64 + rl
// (at most 2s, so rh ≤ 1) for A = a1·2^64 + a0 with a1 ≥ 2^62. The seed
// is float64's √A, within 2^12 of √A (relative error below 2^−52); one
// integer Newton step s ← ⌊(s + ⌊A/s⌋)/2⌋ then lands on ⌊√A⌋ or one
// above (it never goes below, by AM–GM, and the error (s−√A)²/(2s) is
// below 2^−39) [MCA, §1.5.1], and the remainder's sign settles which.
func sqrtRem128(a1, a0 uint64) (s, rh, rl uint64) {
	if a1 == ^uint64(0) { // A ≥ 2^128 − 2^64 > (2^64−1)²
		s = ^uint64(0)
	} else {
		f := math.Sqrt(float64(a1)*0x1p64 + float64(a0))
		s = ^uint64(0)
		if f < 0x1p64 {
			s = uint64(f)
		}
		if s <= a1 { // only when √A is within 2^12 of 2^64: start above it
			s = ^uint64(0)
		}
		q, _ := bits.Div64(a1, a0, s)
		t, c := bits.Add64(s, q, 0)
		s = t>>1 | c<<63
	}
	sh, sl := bits.Mul64(s, s)
	var b uint64
	rl, b = bits.Sub64(a0, sl, 0)
	rh, b = bits.Sub64(a1, sh, b)
	if b != 0 { // s = ⌊√A⌋ + 1: r += 2s − 1, s−−
		tl, bb := bits.Sub64(s<<1, 1, 0) // 2s − 1 = th:tl
		th := s>>63 - bb
		var c uint64
		rl, c = bits.Add64(rl, tl, 0)
		rh, _ = bits.Add64(rh, th, c) // modulo 2^128: back to ≥ 0
		s--
	}
	return s, rh, rl
}

// sqrtRem256 returns r = ⌊√M⌋ = rh·2^64 + rl and the remainder M − r² =
// r2·2^128 + r1·2^64 + r0 (at most 2r, so r2 ≤ 1) for
// M = a3·2^192 + a2·2^128 + a1·2^64 + a0 with a3 ≥ 2^62, by Zimmermann's
// SqrtRem [Zim99], [MCA, Algorithm 1.12] with β = 2^64: (s', r') =
// SqrtRem(a3·β + a2); (q, u) = DivRem(r'·β + a1, 2s'); s = s'·β + q and
// r = u·β + a0 − q²; if r < 0, r += 2s − 1 and s−−. q ≤ β and s' ≥ 2^63;
// the division halves r'·β + a1 (< 2^129) and divides by s', the
// quotient's top word (0 or 1) coming from the case ⌊r'/2⌋ = s'.
func sqrtRem256(a3, a2, a1, a0 uint64) (rh, rl, r2, r1, r0 uint64) {
	s1, r1h, r1l := sqrtRem128(a3, a2)
	// N/2 = (r'·β + a1) >> 1 = nh:nl, with the lost bit a1&1.
	nh, nl := r1h<<63|r1l>>1, r1l<<63|a1>>1
	var qh, ql, rem uint64
	if nh >= s1 { // nh = s1: N/2 = s1·β + nl, nl < s1
		qh, nh = 1, nh-s1
	}
	ql, rem = bits.Div64(nh, nl, s1)
	// u = 2·rem + (a1&1) < 2s' < 2^65: uh:ul.
	uh, ul := rem>>63, rem<<1|a1&1
	// r = u·β + a0 − q² on three words, two's complement.
	var q2h, q2l uint64
	if qh != 0 { // q = β (then ql = 0): q² = 2^128
		q2h, q2l = 0, 0
	} else {
		q2h, q2l = bits.Mul64(ql, ql)
	}
	var b uint64
	r0, b = bits.Sub64(a0, q2l, 0)
	r1, b = bits.Sub64(ul, q2h, b)
	r2, _ = bits.Sub64(uh, qh, b)
	// s = s'·β + q, at most 2^128 (then corrected below).
	rl = ql
	rh, c := bits.Add64(s1, qh, 0)
	if int64(r2) < 0 { // r += 2s − 1 = 2·(s−1) + 1; s−−
		var bb uint64
		rl, bb = bits.Sub64(rl, 1, 0)
		rh, bb = bits.Sub64(rh, 0, bb)
		c -= bb // s−1 < 2^128
		var cc uint64
		r0, cc = bits.Add64(r0, rl<<1|1, 0)
		r1, cc = bits.Add64(r1, rh<<1|rl>>63, cc)
		r2, _ = bits.Add64(r2, rh>>63, cc)
	}
	_ = c
	return rh, rl, r2, r1, r0
}

// u384 is a 384-bit unsigned integer, least significant word first.
type u384 [6]uint64

// placeBits ORs the words of src (least significant first) into a,
// with src's bit 0 landing on bit pos of a (pos may be negative; a
// must hold src's top), and reports whether nonzero bits fell below
// bit 0.
func placeBits(a *u384, src []uint64, pos int64) (sticky bool) {
	for i, w := range src {
		if w == 0 {
			continue
		}
		p := pos + 64*int64(i)
		j := p >> 6 // floor division
		b := uint(p - 64*j)
		lo, hi := w<<b, uint64(0)
		if b > 0 {
			hi = w >> (64 - b)
		}
		for k, part := range [2]uint64{lo, hi} {
			t := j + int64(k)
			switch {
			case part == 0:
			case t < 0:
				sticky = true
			default:
				a[t] |= part
			}
		}
	}
	return sticky
}

// fma2 sets z to the rounded (−1)^pneg·(xh:xl)·(yh:yl)·2^pe +
// (−1)^wneg·(wh:wl)·2^we for nonzero two-word significands (z.f.two()):
// the exact 256-bit product and the addend go to a 384-bit window, the
// larger (by leading bit) with its leading bit on bit 382 and the other
// under it, the bits below the window folded into a sticky bit, with a
// one-unit borrow for a subtraction with a sticky tail, as in fmaSmall.
// Sticky bits only arise when the two are more than 127 bits apart, and
// then the result keeps at least 381 bits; its top 256 bits and a sticky
// bit for the rest go to round256.
func (z *Float) fma2(pneg bool, xh, xl, yh, yl uint64, pe int64, wneg bool, wh, wl uint64, we int64) {
	h00, l00 := bits.Mul64(xl, yl)
	h01, l01 := bits.Mul64(xl, yh)
	h10, l10 := bits.Mul64(xh, yl)
	h11, l11 := bits.Mul64(xh, yh)
	var P [4]uint64
	var c, c2 uint64
	P[0] = l00
	P[1], c = bits.Add64(h00, l01, 0)
	P[2], c2 = bits.Add64(h01, l11, c)
	P[3], _ = bits.Add64(h11, 0, c2)
	P[1], c = bits.Add64(P[1], l10, 0)
	P[2], c2 = bits.Add64(P[2], h10, c)
	P[3], _ = bits.Add64(P[3], 0, c2)
	lenP := int64(256)
	for i := 3; i >= 0 && P[i] == 0; i-- {
		lenP -= 64
	}
	lenP -= int64(bits.LeadingZeros64(P[(lenP-1)/64]))
	tp := pe + lenP - 1 // exponent of P's leading bit
	lenW := int64(128 - bits.LeadingZeros64(wh))
	if wh == 0 {
		lenW = int64(64 - bits.LeadingZeros64(wl))
	}
	tw := we + lenW - 1
	W := [2]uint64{wl, wh}
	var X, Y u384
	var st bool
	neg, yneg := pneg, wneg
	var top int64
	if tp >= tw { // X = P, Y = w
		top = tp
		placeBits(&X, P[:], 382-(lenP-1))
		st = placeBits(&Y, W[:], 382-(tp-tw)-(lenW-1))
	} else {
		top = tw
		neg, yneg = wneg, pneg
		placeBits(&X, W[:], 382-(lenW-1))
		st = placeBits(&Y, P[:], 382-(tw-tp)-(lenP-1))
	}
	e := top - 382 // exponent of the window's bit 0
	var R u384
	if neg == yneg {
		c = 0
		for i := range R {
			R[i], c = bits.Add64(X[i], Y[i], c)
		}
	} else {
		var b uint64
		for i := range R {
			R[i], b = bits.Sub64(X[i], Y[i], b)
		}
		if b != 0 { // |Y| > |X|: equal leading bits, no sticky; negate
			neg = !neg
			b = 0
			for i := range R {
				R[i], b = bits.Sub64(0, R[i], b)
			}
		}
		if st {
			b = 1
			for i := range R {
				R[i], b = bits.Sub64(R[i], 0, b)
			}
		}
		if R[0]|R[1]|R[2]|R[3]|R[4]|R[5] == 0 {
			z.SetZero(z.zeroSumNeg())
			return
		}
	}
	t := 5
	for t > 3 && R[t] == 0 {
		t--
	}
	for i := 0; i < t-3; i++ {
		st = st || R[i] != 0
	}
	z.round256(neg, u256{R[t-3], R[t-2], R[t-1], R[t]}, e+64*int64(t-3), st)
}
