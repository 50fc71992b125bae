// This file implements the products below the Toom sizes when the amd64
// kernels are there (useADX): schoolbook rows in assembly
// (basemul_amd64.s) under Karatsuba's recursion on words [MCA, §1.3.2],
// with the scratch words taken from the caller's arena.

package bigmul

import (
	"math/big"
	"math/bits"
)

// mulRowsGo is the reference for mulRowsADX: for every j, z[j:j+len(x)]
// += x·y[j] and z[j+len(x)] = the row's carry word.
func mulRowsGo(z, x, y []big.Word) {
	for j, d := range y {
		var c uint
		row := z[j : j+len(x)]
		for i, xi := range x {
			hi, lo := bits.Mul(uint(xi), uint(d))
			lo, cc := bits.Add(lo, c, 0)
			hi += cc
			lo, cc = bits.Add(lo, uint(row[i]), 0)
			hi += cc
			row[i], c = big.Word(lo), hi
		}
		z[j+len(x)] = big.Word(c)
	}
}

// sqrRowsGo is the reference for sqrRowsADX: z[:2·len(x)] = the sum of
// the products x_i·x_j·β^(i+j), i < j, by rows: for every i < len(x)−1,
// z[2i+1 : i+len(x)] += x[i+1:]·x[i], and z[i+len(x)] = the row's carry.
func sqrRowsGo(z, x []big.Word) {
	clear(z[:2*len(x)])
	for i := 0; i < len(x)-1; i++ {
		mulRowsGo(z[2*i+1:], x[i+1:], x[i:i+1])
	}
}

// karaWords and karaSqrWords are the sizes, in words, from which kmul
// and ksqr use Karatsuba's recursion instead of schoolbook rows, and
// sqrRowsWords the size from which a schoolbook square adds only the
// products x_i·x_j, i < j, doubles them and adds the squares. Measured
// by TestCalibrateBase.
var (
	karaWords    = 32
	karaSqrWords = 64
	sqrRowsWords = 12
)

// kmul sets z[:len(x)+len(y)] = x·y for len(x) ≥ len(y) ≥ 1 by
// Karatsuba's method over the schoolbook rows of mulRowsADX.
func (s *arena) kmul(z, x, y []big.Word) {
	nx, ny := len(x), len(y)
	z = z[:nx+ny]
	if ny < karaWords {
		clear(z[:nx])
		mulRowsADX(z, x, y)
		return
	}
	h := (nx + 1) / 2
	if ny <= h {
		// Unbalanced: x in chunks of ny words, each a balanced product.
		mark := s.off
		t := s.words(2 * ny)[:2*ny]
		s.kmul(z, x[:ny], y)
		clear(z[2*ny:])
		for i := ny; i < nx; i += ny {
			c := x[i:min(i+ny, nx)]
			if len(c) >= ny {
				s.kmul(t, c, y)
			} else {
				s.kmul(t, y, c)
			}
			addTo(z[i:], t[:len(c)+ny])
		}
		s.off = mark
		return
	}
	mark := s.off
	defer func() { s.off = mark }()
	x0, x1, y0, y1 := x[:h], x[h:], y[:h], y[h:]
	s.kmul(z[:2*h], x0, y0)
	s.kmul(z[2*h:], x1, y1)
	w := s.words(5 * h)[:5*h]
	dx, dy, t, sum := w[:h], w[h:2*h], w[2*h:4*h], w[4*h:]
	sx := subAbs(dx, x0, x1)
	sy := subAbs(dy, y0, y1)
	s.kmul(t, dx, dy)
	addMiddle(z, t, sum, h, sx == sy)
}

// addMiddle adds (lo + hi ∓ t)·β^h into z = lo + hi·β^(2h) (lo of 2h
// words, hi the rest, at least h), Karatsuba's middle term: minus t when
// sub. With lo = L0 + L1·β^h and hi = H0 + H1·β^h, the words [h, 2h)
// gain L0 + L1 + H0 and [2h, 3h) gain L1 + H0 + H1, so S = L1 + H0 is
// formed once (in sum, h words) [MCA, §1.3.2; GMP's toom22]. The carry
// out of z, tracked in top, must come back to zero.
func addMiddle(z, t, sum []big.Word, h int, sub bool) {
	n := len(z)
	l := n - 3*h // H1's length, 0 ≤ l ≤ h
	c1 := addVV(sum, z[h:2*h], z[2*h:3*h])
	c2 := addVV(z[h:2*h], sum, z[:h])
	c3 := addVV(z[2*h:2*h+l], sum[:l], z[3*h:])
	c3 = addVWc(z[2*h+l:3*h], sum[l:], c3)
	top := addWc(z[2*h:], c1+c2)
	top += addWc(z[3*h:], c1+c3)
	if sub {
		top -= subToC(z[h:], t)
	} else {
		top += addToC(z[h:], t)
	}
	if top != 0 {
		panic("bigmul: Karatsuba carry out of the product")
	}
}

// addVWc sets z = x + c (len(z) = len(x)) and returns the carry.
func addVWc(z, x []big.Word, c big.Word) big.Word {
	for i, v := range x {
		s := v + c
		c = 0
		if s < v {
			c = 1
		}
		z[i] = s
	}
	return c
}

// addWc adds c into z, propagating, and returns the carry out of z.
func addWc(z []big.Word, c big.Word) big.Word {
	for i := 0; c != 0 && i < len(z); i++ {
		s := z[i] + c
		c = 0
		if s < z[i] {
			c = 1
		}
		z[i] = s
	}
	return c
}

// addToC adds x into z (len(z) ≥ len(x)), propagating, and returns the
// carry out of z.
func addToC(z, x []big.Word) big.Word {
	return addWc(z[len(x):], addVV(z[:len(x)], z, x))
}

// subToC subtracts x from z (len(z) ≥ len(x)), propagating, and returns
// the borrow out of z.
func subToC(z, x []big.Word) big.Word {
	b := subVV(z[:len(x)], z, x)
	for i := len(x); b != 0 && i < len(z); i++ {
		b = 0
		if z[i] == 0 {
			b = 1
		}
		z[i]--
	}
	return b
}

// ksqr sets z[:2·len(x)] = x² by Karatsuba's method for squares,
// (x0 − x1)² for the middle term, over schoolbook squares.
func (s *arena) ksqr(z, x []big.Word) {
	n := len(x)
	z = z[:2*n]
	if n < karaSqrWords {
		sqrBasecase(z, x)
		return
	}
	mark := s.off
	defer func() { s.off = mark }()
	h := (n + 1) / 2
	x0, x1 := x[:h], x[h:]
	s.ksqr(z[:2*h], x0)
	s.ksqr(z[2*h:], x1)
	w := s.words(4 * h)[:4*h]
	d, t, sum := w[:h], w[h:3*h], w[3*h:]
	subAbs(d, x0, x1)
	s.ksqr(t, d)
	addMiddle(z, t, sum, h, true)
}

// sqrBasecase sets z[:2·len(x)] = x²: the products x_i·x_j for i < j by
// rows, doubled, plus the squares x_i².
func sqrBasecase(z, x []big.Word) {
	n := len(x)
	if n < sqrRowsWords {
		clear(z[:n])
		mulRowsADX(z, x, x)
		return
	}
	sqrRowsADX(z, x)
	sqrDiagADX(z, x)
}

// sqrDiagGo is the reference for sqrDiagADX: z[:2·len(x)] = 2·z +
// Σ x_i²·β^(2i) in one pass, which must fit.
func sqrDiagGo(z, x []big.Word) {
	// cs is the bit shifted out of the previous word pair, carry the
	// addition's carry.
	var cs, carry uint
	for i, xi := range x {
		hi, lo := bits.Mul(uint(xi), uint(xi))
		a, b := uint(z[2*i]), uint(z[2*i+1])
		a2 := a<<1 | cs
		b2 := b<<1 | a>>(bits.UintSize-1)
		cs = b >> (bits.UintSize - 1)
		var c0 uint
		a2, c0 = bits.Add(a2, lo, carry)
		b2, carry = bits.Add(b2, hi, c0)
		z[2*i], z[2*i+1] = big.Word(a2), big.Word(b2)
	}
}

// subAbs sets d = |a − b| for len(a) = len(d) ≥ len(b) and reports
// whether a < b.
func subAbs(d, a, b []big.Word) bool {
	if cmpPadded(a, b) >= 0 {
		br := subVV(d[:len(b)], a, b)
		copy(d[len(b):], a[len(b):])
		if br != 0 {
			decr(d[len(b):])
		}
		return false
	}
	// b > a: a's words beyond len(b) are zero.
	n := len(b)
	if subVV(d[:n], b, a) != 0 {
		panic("bigmul: subAbs borrow")
	}
	clear(d[n:])
	return true
}

// cmpPadded compares a and b as numbers (missing top words are zero).
func cmpPadded(a, b []big.Word) int {
	for i := max(len(a), len(b)) - 1; i >= 0; i-- {
		var ai, bi big.Word
		if i < len(a) {
			ai = a[i]
		}
		if i < len(b) {
			bi = b[i]
		}
		if ai != bi {
			if ai < bi {
				return -1
			}
			return 1
		}
	}
	return 0
}

// addTo adds x into z (len(z) ≥ len(x)), propagating the carry through
// z; the sum must fit in z.
func addTo(z, x []big.Word) {
	if addVV(z[:len(x)], z, x) != 0 {
		incr(z[len(x):])
	}
}

// subFrom subtracts x from z (len(z) ≥ len(x)), propagating the borrow;
// the difference must be non-negative.
func subFrom(z, x []big.Word) {
	if subVV(z[:len(x)], z, x) != 0 {
		decr(z[len(x):])
	}
}

// incr adds 1 to z; the sum must fit.
func incr(z []big.Word) {
	for i := range z {
		z[i]++
		if z[i] != 0 {
			return
		}
	}
	panic("bigmul: carry out of the product")
}

// decr subtracts 1 from z; z must be positive.
func decr(z []big.Word) {
	for i := range z {
		z[i]--
		if z[i] != ^big.Word(0) {
			return
		}
	}
	panic("bigmul: borrow out of a difference")
}

// addVVGo sets z = x + y over len(z) words and returns the carry.
func addVVGo(z, x, y []big.Word) big.Word {
	var c uint
	x, y = x[:len(z)], y[:len(z)]
	for i := range z {
		var s uint
		s, c = bits.Add(uint(x[i]), uint(y[i]), c)
		z[i] = big.Word(s)
	}
	return big.Word(c)
}

// subVVGo sets z = x − y over len(z) words and returns the borrow.
func subVVGo(z, x, y []big.Word) big.Word {
	var b uint
	x, y = x[:len(z)], y[:len(z)]
	for i := range z {
		var d uint
		d, b = bits.Sub(uint(x[i]), uint(y[i]), b)
		z[i] = big.Word(d)
	}
	return big.Word(b)
}
