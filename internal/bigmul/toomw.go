// This file implements Toom-3 and Toom-4,2 on word slices: the
// evaluations and the interpolation of toom.go's Toom-3 as passes of
// the word kernels (addVV, subVV) over fixed-length buffers, without
// big.Int's bookkeeping between them, for the sizes where that
// bookkeeping was a tenth to a fifth of the product (150–500 words).
//
// Both cut x into pieces of m words and evaluate at 0, 1, −1, 2 and ∞;
// Toom-3 cuts y as x (three pieces), Toom-4,2 cuts an x of about twice
// y's length into four pieces and y into two [Bod07]. The product's five
// coefficients c_0 … c_4 come from the five values v_t by GMP's
// sequence (toom_interpolate_5pts), in which every intermediate is a
// non-negative sum of coefficients:
//
//	v2 ← (v2 − v−1)/3 = c1 + c2 + 3c3 + 5c4
//	v−1 ← (v1 − v−1)/2 = c1 + c3
//	v1 ← v1 − v0 = c1 + c2 + c3 + c4
//	v2 ← (v2 − v1)/2 = c3 + 2c4
//	v1 ← v1 − v−1 − v∞ = c2
//	v2 ← v2 − 2v∞ = c3
//	v−1 ← v−1 − v2 = c1.

package bigmul

import (
	"math/big"
	"math/bits"
)

// toom3w sets z[:len(x)+len(y)] = x·y by Toom-3 (sq: y is x) for
// len(x) ≥ len(y), with m = ⌈len(x)/3⌉ and len(y) > 2m; z must not
// overlap x or y and has room for the product.
func (s *arena) toom3w(z, x, y []big.Word, sq bool) {
	mark := s.off
	defer func() { s.off = mark }()
	m := (len(x) + 2) / 3
	x0, x1, x2 := x[:m], x[m:2*m], x[2*m:]
	y0, y1, y2 := y[:m], y[m:2*m], y[2*m:]
	w := s.wordsN(9 * (m + 1))
	ex1, exm, ex2 := w[:m+1], w[m+1:2*m+2], w[2*m+2:3*m+3]
	ey1, eym, ey2 := w[3*m+3:4*m+4], w[4*m+4:5*m+5], w[5*m+5:6*m+6]
	neg := eval3(ex1, exm, ex2, x0, x1, x2)
	if sq {
		ey1, eym, ey2 = ex1, exm, ex2
		neg = false // x(−1)² ≥ 0
	} else {
		neg = neg != eval3(ey1, eym, ey2, y0, y1, y2)
	}
	s.interpolate5(z, len(x)+len(y), m, x0, y0, x2, y2, ex1, ey1, exm, eym, ex2, ey2, neg, sq)
}

// toom42w sets z[:len(x)+len(y)] = x·y by Toom-4,2, x in four pieces of
// m = ⌈len(x)/4⌉ words and y in two, for m < len(y) ≤ 2m; z must not
// overlap x or y and has room for the product.
func (s *arena) toom42w(z, x, y []big.Word) {
	mark := s.off
	defer func() { s.off = mark }()
	m := (len(x) + 3) / 4
	x0, x1, x2, x3 := x[:m], x[m:2*m], x[2*m:3*m], x[3*m:]
	y0, y1 := y[:m], y[m:]
	w := s.wordsN(7 * (m + 1))
	ex1, exm, ex2 := w[:m+1], w[m+1:2*m+2], w[2*m+2:3*m+3]
	ey1, eym, ey2 := w[3*m+3:4*m+4], w[4*m+4:5*m+5], w[5*m+5:6*m+6]
	t := w[6*m+6 : 7*m+7]
	// x(±1) = (x0 + x2) ± (x1 + x3); x(2) = (x0 + 4x2) + 2(x1 + 4x3).
	add2(ex2, x0, x2) // x0 + x2, in ex2 for now
	add2(t, x1, x3)
	neg := subAbsN(exm, ex2, t)
	addVV(ex1, ex2, t)
	lsh2(ex2, x2)
	addTo(ex2, x0)
	lsh2(t, x3)
	addTo(t, x1)
	addVV(t, t, t)
	addVV(ex2, ex2, t)
	// y(1) = y0 + y1, y(−1) = y0 − y1, y(2) = y0 + 2y1.
	add2(ey1, y0, y1)
	copy(eym, y0)
	eym[m] = 0
	if subAbsN(eym, eym, y1) {
		neg = !neg
	}
	copy(ey2, ey1)
	addTo(ey2, y1)
	s.interpolate5(z, len(x)+len(y), m, x0, y0, x3, y1, ex1, ey1, exm, eym, ex2, ey2, neg, false)
}

// eval3 writes the values at 1, −1 (its magnitude) and 2 of
// a0 + a1·B + a2·B² (a0, a1 of m words, a2 of 1 to m) into e1, em1 and
// e2 (m + 1 words each) and reports whether the value at −1 is negative.
func eval3(e1, em1, e2, a0, a1, a2 []big.Word) bool {
	add2(e2, a0, a2) // a0 + a2, in e2 for now
	neg := subAbsN(em1, e2, a1)
	copy(e1, e2)
	addTo(e1, a1)
	// e2 = 2·(e1 + a2) − a0 = a0 + 2a1 + 4a2.
	copy(e2, e1)
	addTo(e2, a2)
	addVV(e2, e2, e2)
	subFrom(e2, a0)
	return neg
}

// add2 sets z = a + b (len(z) > len(a) ≥ len(b) ≥ 0; z may be a).
func add2(z, a, b []big.Word) {
	c := addVV(z[:len(b)], a, b)
	c = addVWc(z[len(b):len(a)], a[len(b):], c)
	z[len(a)] = c
	clear(z[len(a)+1:])
}

// subAbsN sets z = |a − b| for len(z) = len(a) ≥ len(b) and reports
// whether a < b (z may be a).
func subAbsN(z, a, b []big.Word) bool {
	if cmpPadded(a, b) >= 0 {
		br := subVV(z[:len(b)], a, b)
		copy(z[len(b):], a[len(b):])
		if br != 0 {
			decr(z[len(b):])
		}
		return false
	}
	subVV(z[:len(b)], b, a) // a's words beyond len(b) are zero
	clear(z[len(b):])
	return true
}

// lsh2 sets z = 4a (len(z) > len(a); the rest of z cleared).
func lsh2(z, a []big.Word) {
	var c big.Word
	for i, v := range a {
		z[i] = v<<2 | c
		c = v >> (bits.UintSize - 2)
	}
	z[len(a)] = c
	clear(z[len(a)+1:])
}

// rsh1 halves z in place (z even).
func rsh1(z []big.Word) {
	for i := 0; i < len(z)-1; i++ {
		z[i] = z[i]>>1 | z[i+1]<<(bits.UintSize-1)
	}
	z[len(z)-1] >>= 1
}

// div3 divides z by 3 in place (z a multiple of 3), as divExact.
func div3(z []big.Word) { divExactWords(z, z, ^uint(0)/3) }

// interpolate5 multiplies the five values of a Toom-3 or Toom-4,2
// evaluation (0: a0·b0, ∞: a∞·b∞, and ea_t·eb_t at t = 1, −1, 2, the
// product at −1 negative if neg) and sets z[:n] = Σ c_i·B^i, B = β^m, by
// the sequence in the file comment.
func (s *arena) interpolate5(z []big.Word, n, m int, a0, b0, ainf, binf, ea1, eb1, eam, ebm, ea2, eb2 []big.Word, neg, sq bool) {
	L := 2*m + 2
	w := s.wordsN(3 * L)
	v1, vm, v2 := w[:L], w[L:2*L], w[2*L:]
	z = z[:n]
	v0 := z[:2*m]
	vinf := z[4*m : 4*m+len(ainf)+len(binf)]
	s.mulInto(v0, a0, b0, sq)
	s.mulInto(vinf, ainf, binf, sq)
	s.mulInto(v1, ea1, eb1, sq)
	s.mulInto(vm, eam, ebm, sq)
	s.mulInto(v2, ea2, eb2, sq)
	if neg {
		addVV(v2, v2, vm)
		addVV(vm, v1, vm)
	} else {
		subVV(v2, v2, vm)
		subVV(vm, v1, vm)
	}
	div3(v2)
	rsh1(vm)
	subFrom(v1, v0)
	subVV(v2, v2, v1)
	rsh1(v2)
	subVV(v1, v1, vm)
	subFrom(v1, vinf)
	subFrom(v2, vinf)
	subFrom(v2, vinf)
	subVV(vm, vm, v2)
	clear(z[2*m : 4*m])
	addAt(z, trimWords(vm), m)
	addAt(z, trimWords(v1), 2*m)
	addAt(z, trimWords(v2), 3*m)
}

// mulInto sets dst = a·b (sq: b is a) through s.mul, the rest of dst
// cleared; dst must not overlap a or b and has room for the product.
func (s *arena) mulInto(dst, a, b []big.Word, sq bool) {
	var za, zb, zz big.Int
	za.SetBits(a)
	zb.SetBits(b)
	zz.SetBits(dst[:0:len(dst)]) // math/big may use a result's capacity as scratch
	if sq {
		s.mul(&zz, &za, &za, true)
	} else {
		s.mul(&zz, &za, &zb, false)
	}
	p := zz.Bits()
	if len(p) > 0 && &p[0] != &dst[0] {
		copy(dst, p)
	}
	clear(dst[len(p):])
}

// trimWords returns w without its leading zero words.
func trimWords(w []big.Word) []big.Word {
	i := len(w)
	for i > 0 && w[i-1] == 0 {
		i--
	}
	return w[:i]
}

// wordsN returns n words from the arena, length n.
func (s *arena) wordsN(n int) []big.Word { return s.words(n)[:n] }
