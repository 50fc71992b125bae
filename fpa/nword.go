package fpa

// This file holds the n-word paths for formats of 127 to 64·nwMaxWords
// bits (m = 1,000 among them): significands are read as the words of
// their big.Int in place, sums are formed on a window of words on the
// stack with math/bits, and every result is rounded once by roundW,
// which writes the kept bits straight into the words z already owns, so
// the paths neither allocate (after z's first wide result) nor pay
// big.Int's per-call overhead. Products (mulw.go) and quotients
// (divw.go) are formed on words too, rounded by roundW; with BMI2 and ADX
// the word loops are the assembly kernels of mulw_amd64.s.

import (
	"math/big"
	"math/bits"
)

// nwMaxWords bounds the n-word paths: significands of at most 32 words
// (Prec ≤ 2,048), so that a window of nwMaxWords+2 words lives on the
// stack.
const nwMaxWords = 32

// wTop is the shift to a word's top bit. The n-word paths run on 64-bit
// words only (nw); written this way their code still compiles and vets
// for 32-bit targets.
const wTop = bits.UintSize - 1

// nw reports whether f takes the n-word paths: 126 < Prec ≤ 64·nwMaxWords,
// on 64-bit words.
func (f Format) nw() bool {
	return bits.UintSize == 64 && f.FracBits >= 126 && f.FracBits < 64*nwMaxWords
}

// bitLenW returns the bit length of the natural number R (least
// significant word first; top words may be zero).
func bitLenW(R []big.Word) int64 {
	for t := len(R) - 1; t >= 0; t-- {
		if R[t] != 0 {
			return int64(64*t + bits.Len64(uint64(R[t])))
		}
	}
	return 0
}

// anyBelow reports whether R has a nonzero bit below bit k (k ≥ 0).
func anyBelow(R []big.Word, k int64) bool {
	w := int(min(k>>6, int64(len(R))))
	for i := 0; i < w; i++ {
		if R[i] != 0 {
			return true
		}
	}
	if b := k & 63; b != 0 && w < len(R) {
		return uint64(R[w])<<(64-b) != 0
	}
	return false
}

// wordAt returns bits [k, k+64) of R (k may be negative or past R's end:
// the missing bits are zeros).
func wordAt(R []big.Word, k int64) uint64 {
	j := k >> 6 // floor division
	b := uint(k & 63)
	var lo, hi uint64
	if j >= 0 && j < int64(len(R)) {
		lo = uint64(R[j]) >> b
	}
	if b != 0 && j+1 >= 0 && j+1 < int64(len(R)) {
		hi = uint64(R[j+1]) << (64 - b)
	}
	return lo | hi
}

// roundW sets z to the value R·2^e, plus a sticky fraction of 2^e if
// sticky, with sign neg, rounded to z's format (z.f.nw()): R is a natural
// number, least significant word first, nonzero, with at least Prec+1
// bits when sticky is set. It is round256 on any number of words: the
// kept bits are shifted straight into z's significand words. R may be
// z.hi's own words (the shift runs toward lower indices).
func (z *Float) roundW(neg bool, R []big.Word, e int64, sticky bool) {
	L := bitLenW(R)
	keep, ulpExp := z.f.keepBits(e + L - 1)
	shift := L - keep // bits dropped (negative: zeros appended)
	var r, s bool
	if shift > 0 {
		if shift-1 < L {
			r = uint64(R[(shift-1)>>6])>>((shift-1)&63)&1 != 0
		}
		s = anyBelow(R, min(shift-1, L))
	}
	s = s || sticky
	z.neg = neg
	// One bit more than keep: room for a carry out of the kept bits.
	nz := int((max(keep, 0) + 64) >> 6)
	dst := z.hi.Bits()
	if cap(dst) < nz {
		dst = make([]big.Word, nz, int(z.f.Prec()+63)>>6+1) // addWNear's room
	}
	dst = dst[:nz]
	if shift >= 0 {
		// Upward through dst: reads R at index ≥ the one written. Go's
		// shifts by 64 give 0, so b = 0 needs no branch.
		j, b := int(shift>>6), uint(shift&63) // b ≤ 63: plain shifts
		n := 0
		if j < len(R) {
			n = min(len(dst), len(R)-j)
			shrVU(dst[:n-1], R[j:j+n], b)
			top := R[j+n-1] >> b
			if j+n < len(R) {
				top |= R[j+n] << 1 << (63 - b)
			}
			dst[n-1] = top
		}
		clear(dst[n:])
	} else {
		// Downward: dst holds R·2^−shift, exact.
		for i := len(dst) - 1; i >= 0; i-- {
			dst[i] = big.Word(wordAt(R, 64*int64(i)+shift))
		}
	}
	if keep <= 0 {
		clear(dst)
	}
	z.finishW(neg, dst, keep, ulpExp, r, s)
}

// finishW ends roundW: dst (z's significand words, one bit longer than
// keep) holds the kept bits of the result, whose last place has exponent
// ulpExp, with round bit r and sticky bit s; it rounds dst up if the mode
// says so and sets z's form, exponent and Acc.
func (z *Float) finishW(neg bool, dst []big.Word, keep, ulpExp int64, r, s bool) {
	z.neg = neg
	inc := roundInc(z.mode, neg, dst[0]&1 != 0, r, s)
	if inc {
		for i := range dst {
			dst[i]++
			if dst[i] != 0 {
				break
			}
		}
		// A carry out of the kept bits: 2^Prec, one bit more.
		if keep == int64(z.f.Prec()) && dst[keep>>6]>>(keep&63) != 0 {
			for i := range dst {
				hi := big.Word(0)
				if i+1 < len(dst) {
					hi = dst[i+1] << wTop
				}
				dst[i] = dst[i]>>1 | hi
			}
			ulpExp++
		}
	}
	z.setAcc(r || s, inc)
	z.hi.SetBits(dst) // normalizes away zero top words
	if z.hi.Sign() == 0 {
		z.form = zero
		return
	}
	if ulpExp+int64(z.hi.BitLen())-1 > z.f.Emax() {
		z.overflow(neg)
		return
	}
	z.form, z.exp = finite, ulpExp
}

// addW sets z to the rounded (−1)^xneg·xm·2^xe + (−1)^yneg·ym·2^ye for
// nonzero significands of at most nwMaxWords words (z.f.nw()). The one
// with the higher leading bit, x, also has the higher (or equal)
// exponent, since only subnormals have fewer than Prec bits and they
// share the lowest exponent; so y sits d = xe − ye ≥ 0 places below x.
// The window holds a guard word, x's words and a carry word: y lands
// with its bit 0 on the window's bit 64−d, and when d > 64 the bits of y
// below the window fold into a sticky bit, with a one-unit borrow for a
// subtraction (X − (Y+t) = (X−Y−1) + (1−t)) as in addSmall; x then has
// Prec bits, so the result keeps more than Prec+1.
func (z *Float) addW(xneg bool, xm []big.Word, xe int64, yneg bool, ym []big.Word, ye int64) {
	lx, ly := bitLenW(xm), bitLenW(ym)
	if ye+ly > xe+lx || (ye+ly == xe+lx && ye > xe) {
		xneg, xm, xe, lx, yneg, ym, ye, ly = yneg, ym, ye, ly, xneg, xm, xe, lx
	}
	d := xe - ye
	if d < 64 && len(ym) <= len(xm) && z.addWNear(xneg != yneg, xneg, xm, xe, ym, uint(d)) {
		return
	}
	z.addWWindow(xneg, xm, xe, yneg, ym, d)
}

// addWWindow is addW on the window, for operands ordered by addW, y
// d ≥ 0 places below x.
func (z *Float) addWWindow(xneg bool, xm []big.Word, xe int64, yneg bool, ym []big.Word, d int64) {
	var W [nwMaxWords + 2]big.Word
	R := W[:max(len(xm), len(ym))+2]
	copy(R[1:], xm)
	sub := xneg != yneg
	sticky := false
	if d <= 64 {
		// y·2^(64−d) = y·2^(64·q+b) added into R from word q.
		t := 64 - d
		q, b := int(t>>6), uint(t&63)
		var Y [nwMaxWords + 1]big.Word
		Ys := Y[:len(ym)+1]
		shlVU(Ys, ym, b)
		var c big.Word
		if sub {
			c = subVV(R[q:q+len(Ys)], Ys)
			for i := q + len(Ys); c != 0 && i < len(R); i++ {
				R[i], c = subWW(R[i], 0, c)
			}
		} else {
			c = addVV(R[q:q+len(Ys)], Ys)
			for i := q + len(Ys); c != 0 && i < len(R); i++ {
				R[i], c = addWW(R[i], 0, c)
			}
		}
		if c != 0 { // only a subtraction: |y| > |x|, negate below
			xneg = !xneg
			c = 0
			for i := range R {
				R[i], c = subWW(0, R[i], c)
			}
		}
	} else {
		// y lies wholly below x's least significant bit: word i of the
		// window holds y's bits [64i−64+d, 64i+d).
		sticky = anyBelow(ym, d-64)
		var c big.Word
		for i := range R {
			yw := big.Word(wordAt(ym, 64*int64(i)-64+d))
			if sub {
				R[i], c = subWW(R[i], yw, c)
			} else {
				R[i], c = addWW(R[i], yw, c)
			}
		}
	}
	neg := xneg
	if sub {
		if sticky {
			for i := range R {
				R[i]--
				if R[i] != ^big.Word(0) {
					break
				}
			}
		}
		if bitLenW(R) == 0 {
			z.SetZero(z.zeroSumNeg())
			return
		}
	}
	z.roundW(neg, R, xe-64, sticky)
}

// addWNear is addW's path for y less than 64 places below x (d < 64) with
// no more words than x, and a result with Prec or Prec+1 bits above x's
// last place (the common case): x ± y>>d is formed straight in z's
// significand words, the d bits of y below x's last place in a guard
// word g, and the result is rounded with a shift of at most one bit. It
// reports false for any other result (cancellation, subnormals), which
// addWWindow then forms again: z's value is then unchanged, though its
// words may not be (they are not an operand's). When z is x or y the sum
// goes to a stack copy first.
func (z *Float) addWNear(sub, neg bool, xm []big.Word, xe int64, ym []big.Word, d uint) bool {
	n := len(xm)
	p := int64(z.f.Prec())
	if int64(n) != (p+63)>>6 {
		return false
	}
	dst := z.hi.Bits()
	if cap(dst) < n+1 {
		return false // z's first wide result: the general path allocates
	}
	d &= 63
	dc := (63 - d) & 63   // y's word i+1 moves up by 64−d = 1+dc
	g := ym[0] << 1 << dc // y's bits below x's last place
	if sub && g != 0 {
		g = -g // 0 − g, with a borrow into word 0 below
	}
	out := dst[:n+1]
	if len(dst) > 0 && (&dst[:1][0] == &xm[0] || &dst[:1][0] == &ym[0]) {
		// z is x or y: sum into a stack copy, since a result that
		// falls back must leave the operands intact.
		var T [nwMaxWords + 1]big.Word
		out = T[:n+1]
		if !addNear(out, xm, ym, sub, g != 0, d) {
			return false
		}
		return z.roundNear(neg, dst, out, g, xe)
	}
	if !addNear(out, xm, ym, sub, g != 0, d) {
		return false
	}
	return z.roundNear(neg, dst, out, g, xe)
}

// addNear sets out[:len(xm)+1] to xm ± ym>>d (d < 64, len(ym) ≤
// len(xm) = len(out)−1), less one unit when sub and borrow (the guard
// word's borrow), and reports false if the difference is negative.
func addNear(out, xm, ym []big.Word, sub, borrow bool, d uint) bool {
	n := len(xm)
	out = out[:n+1]
	if sub {
		var b big.Word
		if borrow {
			b = 1
		}
		c := subShr(out[:n], xm, ym, d&63, b)
		out[n] = 0
		return c == 0
	}
	out[n] = addShr(out[:n], xm, ym, d&63, 0)
	return true
}

// addShr sets z[:len(x)] = x + (y >> s) + cin (0 < len(y) ≤ len(x),
// s < 64, cin ≤ 1) and returns the carry out: addShrADX where the CPU
// has BMI2 and ADX, else addShrGo.
func addShr(z, x, y []big.Word, s uint, cin big.Word) big.Word {
	if useADX {
		return addShrADX(z, x, y, s, cin)
	}
	return addShrGo(z, x, y, s, cin)
}

// subShr sets z[:len(x)] = x − (y >> s) − bin and returns the borrow
// out, as addShr.
func subShr(z, x, y []big.Word, s uint, bin big.Word) big.Word {
	if useADX {
		return subShrADX(z, x, y, s, bin)
	}
	return subShrGo(z, x, y, s, bin)
}

// addShrGo is addShr on math/bits: words 0..len(y)−2 take y's words i
// and i+1, word len(y)−1 y's top word alone, the words above only x's
// and the carry.
func addShrGo(z, x, y []big.Word, s uint, cin big.Word) big.Word {
	n, ly := len(x), len(y)
	z = z[:n]
	s &= 63
	sc := (63 - s) & 63 // y's word i+1 moves up by 64−s = 1+sc
	xs, zs := x[:ly-1], z[:ly-1]
	cur := y[0]
	c := uint(cin)
	for i, next := range y[1:] {
		yw := cur>>s | next<<1<<sc
		cur = next
		var w uint
		w, c = bits.Add(uint(xs[i]), uint(yw), c)
		zs[i] = big.Word(w)
	}
	var w uint
	w, c = bits.Add(uint(x[ly-1]), uint(cur>>s), c)
	z[ly-1] = big.Word(w)
	for i := ly; i < n; i++ {
		w, c = bits.Add(uint(x[i]), 0, c)
		z[i] = big.Word(w)
	}
	return big.Word(c)
}

// subShrGo is subShr on math/bits, as addShrGo.
func subShrGo(z, x, y []big.Word, s uint, bin big.Word) big.Word {
	n, ly := len(x), len(y)
	z = z[:n]
	s &= 63
	sc := (63 - s) & 63
	xs, zs := x[:ly-1], z[:ly-1]
	cur := y[0]
	c := uint(bin)
	for i, next := range y[1:] {
		yw := cur>>s | next<<1<<sc
		cur = next
		var w uint
		w, c = bits.Sub(uint(xs[i]), uint(yw), c)
		zs[i] = big.Word(w)
	}
	var w uint
	w, c = bits.Sub(uint(x[ly-1]), uint(cur>>s), c)
	z[ly-1] = big.Word(w)
	for i := ly; i < n; i++ {
		w, c = bits.Sub(uint(x[i]), 0, c)
		z[i] = big.Word(w)
	}
	return big.Word(c)
}

// roundNear ends addWNear: out (dst itself or a copy) holds the sum
// above the guard word g, whose last place has exponent xe; it rounds
// into dst if the result has Prec or Prec+1 bits above g, else reports
// false.
func (z *Float) roundNear(neg bool, dst, out []big.Word, g big.Word, xe int64) bool {
	n := len(out) - 1
	L := bitLenW(out)
	if L == 0 {
		return false // an exact zero, or all in g
	}
	keep, ulpExp := z.f.keepBits(xe + L - 1)
	var r, s bool
	switch k := L - keep; {
	case k == 0:
		r, s = g>>wTop != 0, g<<1 != 0
	case k == 1:
		r, s = out[0]&1 != 0, g != 0
		shrVU(out[:n], out, 1)
		out[n] = 0
	case k < 0 && k > -64: // cancellation: shift g's top bits in
		b := uint(-k) & 63
		r, s = g>>(63-b)&1 != 0, g<<1<<b != 0
		for i := n; i > 0; i-- {
			out[i] = out[i]<<b | out[i-1]>>1>>(63-b)
		}
		out[0] = out[0]<<b | g>>1>>(63-b)
	default:
		return false
	}
	dst = dst[:n+1]
	if &out[0] != &dst[0] {
		copy(dst, out)
	}
	z.finishW(neg, dst, keep, ulpExp, r, s)
	return true
}

// mulW sets z to the rounded (−1)^neg·|x·y| for finite nonzero x and y
// of the n-word formats: mulWADX where the CPU has BMI2 and ADX, else
// math/big's product, formed in z's own
// significand when z is neither operand (else in a pooled scratch
// integer), rounded in place by roundW.
func (z *Float) mulW(neg bool, x, y *Float) {
	if useADX {
		z.mulWADX(neg, x.hi.Bits(), y.hi.Bits(), x.exp+y.exp)
		return
	}
	if z == x || z == y {
		sc := getScratch()
		P := sc.a.Mul(&x.hi, &y.hi)
		z.roundW(neg, P.Bits(), x.exp+y.exp, false)
		putScratch(sc)
		return
	}
	z.hi.Mul(&x.hi, &y.hi)
	z.roundW(neg, z.hi.Bits(), x.exp+y.exp, false)
}

// addWW returns x+y+c and the carry out (c is 0 or 1).
func addWW(x, y, c big.Word) (big.Word, big.Word) {
	s, co := bits.Add(uint(x), uint(y), uint(c))
	return big.Word(s), big.Word(co)
}

// subWW returns x−y−b and the borrow out (b is 0 or 1).
func subWW(x, y, b big.Word) (big.Word, big.Word) {
	s, bo := bits.Sub(uint(x), uint(y), uint(b))
	return big.Word(s), big.Word(bo)
}

// addVV sets z += x (len(z) = len(x)) and returns the carry out.
func addVV(z, x []big.Word) big.Word {
	var c uint
	x = x[:len(z)]
	for i := range z {
		var w uint
		w, c = bits.Add(uint(z[i]), uint(x[i]), c)
		z[i] = big.Word(w)
	}
	return big.Word(c)
}

// subVV sets z −= x (len(z) = len(x)) and returns the borrow out.
func subVV(z, x []big.Word) big.Word {
	var c uint
	x = x[:len(z)]
	for i := range z {
		var w uint
		w, c = bits.Sub(uint(z[i]), uint(x[i]), c)
		z[i] = big.Word(w)
	}
	return big.Word(c)
}

// shlVUGo sets z = x << s, 0 ≤ s < 64, with len(z) = len(x)+1 (shlVU:
// the assembly on amd64).
func shlVUGo(z, x []big.Word, s uint) {
	s &= 63
	z = z[:len(x)+1]
	var prev big.Word
	for i, w := range x {
		z[i] = w<<s | prev>>1>>(63-s)
		prev = w
	}
	z[len(x)] = prev >> 1 >> (63 - s)
}

// shrVUGo sets z[i] = bits [64i+s, 64i+s+64) of x for i < len(z), with
// 0 ≤ s < 64 and len(x) ≥ len(z)+1. z may be x or start below it
// (shrVU: the assembly on amd64).
func shrVUGo(z, x []big.Word, s uint) {
	s &= 63
	x = x[:len(z)+1]
	for i := range z {
		z[i] = x[i]>>s | x[i+1]<<1<<(63-s)
	}
}
