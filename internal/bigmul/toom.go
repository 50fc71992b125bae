// This file implements Toom–Cook multiplication of mid-size operands
// (a few hundred to a few thousand words): Toom-4 and Toom-3 over
// math/big's Karatsuba [MCA, §1.3.3], [Bod07].
//
// An operand x is cut into k pieces of m words, x = Σ x_i·B^i with
// B = 2^(64m), so that x·y is the value at B of a polynomial of degree
// 2k − 2 whose 2k − 1 coefficients are recovered from its values at
// 2k − 1 points. Toom-4 evaluates at 0, ±1, ±2, 1/2 (as 2^6·r(1/2), the
// reversed polynomial at 2) and ∞: seven products of m + 1 words instead
// of Karatsuba's nine of m words after two levels. Toom-3 evaluates at 0,
// ±1, 2 and ∞: five products instead of 3^log2(3) ≈ 5.7. The products
// recurse (Toom-4 above toom4Words, Toom-3 above toom3Words, below them
// the word-level Karatsuba of basemul.go where the amd64 kernels run,
// else math/big); an operand two to four times the other's length takes
// Toom-4,2, a longer one is cut into pieces of twice the other's length
// (each a Toom-4,2) or of its length (mulChunks). Toom-3 and Toom-4,2
// run on word slices (toomw.go) where the shorter operand's top piece
// is not empty, else on big.Int values here. The interpolation is a fixed sequence of additions,
// shifts and exact divisions by 3 and 5, done by multiplication by the
// inverse modulo the word base (Jebelean's exact division [Jeb93]).
//
// Interpolation of Toom-4, with c_0 … c_6 the product's coefficients,
// r_t its value at t and r_h = 2^6·r(1/2):
//
//	E1 = (r_1 + r_−1)/2 = c0 + c2 + c4 + c6      O1 = (r_1 − r_−1)/2 = c1 + c3 + c5
//	E2 = (r_2 + r_−2)/2 = c0 + 4c2 + 16c4 + 64c6 O2 = (r_2 − r_−2)/4 = c1 + 4c3 + 16c5
//	A = E1 − c0 − c6 = c2 + c4                   B = (E2 − c0 − 64c6)/4 = c2 + 4c4
//	c4 = (B − A)/3, c2 = A − c4
//	H = (r_h − 64c0 − 16c2 − 4c4 − c6)/2 = 16c1 + 4c3 + c5
//	D = (O2 − O1)/3 = c3 + 5c5                   F = (16·O1 − H)/3 = 4c3 + 5c5
//	c3 = (F − D)/3, c5 = (D − c3)/5, c1 = O1 − c3 − c5.
//
// Interpolation of Toom-3: c2 = (r_1 + r_−1)/2 − c0 − c4,
// O = (r_1 − r_−1)/2 = c1 + c3, G = (r_2 − c0 − 4c2 − 16c4)/2 = c1 + 4c3,
// c3 = (G − O)/3, c1 = O − c3.
//
// [Bod07]: M. Bodrato, A. Zanoni, "Integer and polynomial multiplication:
// towards optimal Toom-Cook matrices", ISSAC 2007, 17–24.
// [Jeb93]: T. Jebelean, "An algorithm for exact division", J. Symbolic
// Comput. 15 (1993) 169–180.

package bigmul

import (
	"math/big"
	"math/bits"
	"sync"
)

// toom3Words and toom4Words are the smaller operand's size, in words,
// from which the recursion of toomMul uses Toom-3 and Toom-4 (for
// balanced operands). Measured by TestCalibrateToomSweep: the best
// pairs lie within a few percent of each other from 100/250 to 200/800.
var (
	toom3Words = 150
	toom4Words = 350
)

// toom3SqrWords and toom4SqrWords are the same for squares, whose
// word-level Karatsuba (ksqr) holds longer against Toom-3: by
// TestCalibrateToomSweep's medians (2026-11-28, same run), Toom-3 from
// 250 words instead of 150 takes 0.87 of the time at 157 words, 0.93 at
// 200 and at 700 (Toom-4 on pieces that no longer recurse into Toom-3),
// 0.99–1.01 from 250 to 1,000.
var (
	toom3SqrWords = 250
	toom4SqrWords = 350
)

// toomOnWords chooses the Toom-3 and Toom-4,2 of toomw.go (word slices)
// over toom.go's Toom-3 on big.Int values and balanced pieces for
// unbalanced operands; toom42Words is the shorter operand's size from
// which a product takes Toom-4,2 (or pieces that do, chunkToom42). By
// TestCalibrateToomWords's medians (2026-11-28, Mul, on ÷ off): products
// 0.93 at 157 and 200 words, 0.98 at 300; n × n/2 words 0.80 (300 ×
// 150), 0.85 (700 × 350), 0.86 (1000 × 400); n × n/4 … n/8 with the
// pieces of 2n 0.84–0.95 (600 × 150, 700 × 175, 800 × 100, 1000 × 125);
// Toom-4,2 from 100 words: 0.94 at 200 × 100, 0.90 at 240 × 120, none
// at 160 × 80 (its sweep of the threshold from 60 to 200).
var (
	toomOnWords = true
	toom42Words = 100
	chunkToom42 = true
)

// leafWords and sqrWordLeaves choose, below the Toom sizes and where the
// amd64 kernels run, the word-level Karatsuba of basemul.go over
// math/big for products and for squares.
var (
	leafWords     = true
	sqrWordLeaves = true
)

// toomMul returns x·y for x, y ≥ 0 (words, x == y squares), by Toom-4 or
// Toom-3 according to the size, with the word-level Karatsuba or math/big
// below (arena.mul).
//
// The product is written into buf's storage when buf has room for
// len(x)+len(y) words (buf must not overlap x or y), else into a new
// slice; never into the arena's, which later products reuse.
func toomMul(buf, x, y []big.Word, sq bool) []big.Word {
	var a, b, z big.Int
	a.SetBits(x)
	b.SetBits(y)
	if cap(buf) < len(x)+len(y) {
		buf = make([]big.Word, 0, len(x)+len(y))
	}
	z.SetBits(buf[:0])
	s := getArena(toomScratchWords(max(len(x), len(y))))
	defer arenaPool.Put(s)
	if sq {
		s.mul(&z, &a, &a, true)
	} else {
		s.mul(&z, &a, &b, false)
	}
	return z.Bits()
}

// toomScratchWords bounds the arena words that the recursion takes for
// an operand of n words: a Toom-4 level on m = n/4-word pieces takes 16
// evaluations of m + 2 words and 14 values of 2m + 5, about 11n + 76
// words, and its products recurse on m + 2 words (a Toom-3 level: 22
// pieces of m = n/3, about 7.4n); the sum over the levels is below 16n
// plus a constant per level. Beyond the bound, buffers come from the heap.
func toomScratchWords(n int) int { return 16*n + 1024 }

// arena hands out word buffers from one allocation, so a product's
// temporaries cost one allocation instead of dozens. A buffer taken by a
// level of the recursion is given back when the level returns (mark,
// release).
type arena struct {
	buf []big.Word
	off int
}

// arenaPool keeps arenas across products: their buffers are reused
// without being cleared (every buffer is written before it is read).
var arenaPool sync.Pool

// getArena returns an empty arena of at least n words.
func getArena(n int) *arena {
	if s, ok := arenaPool.Get().(*arena); ok && len(s.buf) >= n {
		s.off = 0
		return s
	}
	return &arena{buf: make([]big.Word, n)}
}

// words returns n zeroed-or-dirty words with capacity exactly n; it
// falls back to the heap when the arena is exhausted.
func (s *arena) words(n int) []big.Word {
	if s.off+n > len(s.buf) {
		return make([]big.Word, 0, n)
	}
	w := s.buf[s.off : s.off : s.off+n]
	s.off += n
	return w
}

// int sets v to an empty big.Int whose storage has room for n words.
func (s *arena) int(v *big.Int, n int) *big.Int { return v.SetBits(s.words(n)) }

// mul sets z = x·y for x, y ≥ 0 (sq: y == x), z's storage taken from s
// when z has too little room. z must not alias x or y.
func (s *arena) mul(z, x, y *big.Int, sq bool) {
	n := min(len(x.Bits()), len(y.Bits()))
	nx := max(len(x.Bits()), len(y.Bits()))
	if cap(z.Bits()) < len(x.Bits())+len(y.Bits()) {
		s.int(z, len(x.Bits())+len(y.Bits()))
	}
	t3, t4 := toom3Words, toom4Words
	if sq {
		t3, t4 = toom3SqrWords, toom4SqrWords
	}
	switch {
	case n >= t4 && 4*n > 3*nx:
		s.toom4(z, x, y, sq)
	case n >= t3 && 3*n > 2*nx:
		xw, yw := x.Bits(), y.Bits()
		if len(xw) < len(yw) {
			xw, yw = yw, xw
		}
		if !toomOnWords || len(yw) <= 2*((len(xw)+2)/3) {
			s.toom3(z, x, y, sq) // y's top piece is empty
			return
		}
		zw := z.Bits()[:len(xw)+len(yw)]
		s.toom3w(zw, xw, yw, sq)
		z.SetBits(zw)
	case n >= toom42Words && !sq && toomOnWords && n > (nx+3)/4 && n <= 2*((nx+3)/4) && nx > 3*((nx+3)/4):
		xw, yw := x.Bits(), y.Bits()
		if len(xw) < len(yw) {
			xw, yw = yw, xw
		}
		zw := z.Bits()[:len(xw)+len(yw)]
		s.toom42w(zw, xw, yw)
		z.SetBits(zw)
	case !sq && (n >= toom3Words || toomOnWords && n >= toom42Words && nx >= 4*n):
		s.mulChunks(z, x, y)
	case useADX && (!sq || sqrWordLeaves) && leafWords:
		xw, yw := x.Bits(), y.Bits()
		if len(xw) < len(yw) {
			xw, yw = yw, xw
		}
		zw := z.Bits()[:len(xw)+len(yw)]
		switch {
		case len(yw) == 0:
			zw = zw[:0]
		case sq:
			s.ksqr(zw, xw)
		default:
			s.kmul(zw, xw, yw)
		}
		z.SetBits(zw)
	case sq:
		z.Mul(x, x)
	default:
		z.Mul(x, y)
	}
}

// mulChunks sets z = x·y for operands of unequal lengths (the shorter
// at least toom3Words) by balanced products of the shorter operand with
// pieces of the longer one, each by s.mul, added at their offsets.
func (s *arena) mulChunks(z, x, y *big.Int) {
	xw, yw := x.Bits(), y.Bits()
	if len(xw) < len(yw) {
		xw, yw = yw, xw
		x, y = y, x
	}
	mark := s.off
	defer func() { s.off = mark }()
	nx, ny := len(xw), len(yw)
	zw := z.Bits()[:nx+ny]
	clear(zw)
	c := ny
	if toomOnWords && chunkToom42 && ny >= toom42Words && nx >= 4*ny {
		c = 2 * ny // each piece a Toom-4,2
	}
	var a, t big.Int
	s.int(&t, c+ny)
	for i := 0; i < nx; i += c {
		a.SetBits(xw[i:min(i+c, nx)])
		if a.Sign() == 0 {
			continue
		}
		s.mul(&t, &a, y, false)
		addAt(zw, t.Bits(), i)
	}
	z.SetBits(zw)
}

// piece returns words [i·m, (i+1)·m) of x as a big.Int (shared storage).
func piece(v *big.Int, x []big.Word, i, m int) *big.Int {
	lo, hi := min(i*m, len(x)), min((i+1)*m, len(x))
	return v.SetBits(x[lo:hi])
}

// mulSigned sets z = x·y for signed x, y by s.mul on the magnitudes.
func (s *arena) mulSigned(z, x, y *big.Int, sq bool) {
	var ax, ay big.Int
	ax.SetBits(x.Bits())
	if sq {
		s.mul(z, &ax, &ax, true)
		return
	}
	ay.SetBits(y.Bits())
	s.mul(z, &ax, &ay, false)
	if !sq && x.Sign()*y.Sign() < 0 {
		z.Neg(z)
	}
}

// toom4 sets z = x·y by Toom-4 (file comment); z has room for the product.
func (s *arena) toom4(z, x, y *big.Int, sq bool) {
	mark := s.off
	defer func() { s.off = mark }()
	xw, yw := x.Bits(), y.Bits()
	m := (max(len(xw), len(yw)) + 3) / 4
	ev := func(w []big.Word, e *[7]big.Int) {
		var p [4]big.Int
		for i := range p {
			piece(&p[i], w, i, m)
		}
		for i := 1; i < 6; i++ {
			s.int(&e[i], m+2)
		}
		var t, u big.Int
		s.int(&t, m+2)
		s.int(&u, m+2)
		e[0].SetBits(p[0].Bits()) // shared, read only
		e[6].SetBits(p[3].Bits())
		t.Add(&p[0], &p[2]) // x0 + x2
		u.Add(&p[1], &p[3]) // x1 + x3
		e[1].Add(&t, &u)
		e[2].Sub(&t, &u)
		t.Lsh(&p[2], 2)
		t.Add(&t, &p[0]) // x0 + 4x2
		u.Lsh(&p[3], 2)
		u.Add(&u, &p[1])
		u.Lsh(&u, 1) // 2x1 + 8x3
		e[3].Add(&t, &u)
		e[4].Sub(&t, &u)
		t.Lsh(&p[0], 1)
		t.Add(&t, &p[1])
		t.Lsh(&t, 1)
		t.Add(&t, &p[2])
		t.Lsh(&t, 1)
		e[5].Add(&t, &p[3]) // 8x0 + 4x1 + 2x2 + x3
	}
	var ex, ey [7]big.Int
	ev(xw, &ex)
	if !sq {
		ev(yw, &ey)
	}
	// r: 0, 1, −1, 2, −2, h, ∞.
	var r [7]big.Int
	s.pointwise(r[:], ex[:], ey[:], 2*m+4, sq)
	c0, c6 := &r[0], &r[6]
	var e1, o1, e2, o2, a, b, t big.Int
	for _, v := range []*big.Int{&e1, &o1, &e2, &o2, &a, &b, &t} {
		s.int(v, 2*m+5)
	}
	e1.Add(&r[1], &r[2])
	e1.Rsh(&e1, 1)
	o1.Sub(&r[1], &r[2])
	o1.Rsh(&o1, 1)
	e2.Add(&r[3], &r[4])
	e2.Rsh(&e2, 1)
	o2.Sub(&r[3], &r[4])
	o2.Rsh(&o2, 2)
	a.Sub(&e1, c0)
	a.Sub(&a, c6) // c2 + c4
	t.Lsh(c6, 6)
	b.Sub(&e2, c0)
	b.Sub(&b, &t)
	b.Rsh(&b, 2) // c2 + 4c4
	c4 := &e2
	c4.Sub(&b, &a)
	divExact(c4, c4, 3)
	c2 := &e1
	c2.Sub(&a, c4)
	h := &r[5] // becomes H
	t.Lsh(c0, 6)
	h.Sub(h, &t)
	t.Lsh(c2, 4)
	h.Sub(h, &t)
	t.Lsh(c4, 2)
	h.Sub(h, &t)
	h.Sub(h, c6)
	h.Rsh(h, 1)
	d := &a
	d.Sub(&o2, &o1)
	divExact(d, d, 3)
	f := &b
	f.Lsh(&o1, 4)
	f.Sub(f, h)
	divExact(f, f, 3)
	c3 := &o2
	c3.Sub(f, d)
	divExact(c3, c3, 3)
	c5 := d
	c5.Sub(d, c3)
	divExact(c5, c5, 5)
	c1 := &o1
	c1.Sub(c1, c3)
	c1.Sub(c1, c5)
	compose(z, len(xw)+len(yw), m, []*big.Int{c0, c1, c2, c3, c4, c5, c6})
}

// toom3 sets z = x·y by Toom-3 (file comment); z has room for the product.
func (s *arena) toom3(z, x, y *big.Int, sq bool) {
	mark := s.off
	defer func() { s.off = mark }()
	xw, yw := x.Bits(), y.Bits()
	m := (max(len(xw), len(yw)) + 2) / 3
	ev := func(w []big.Word, e *[5]big.Int) {
		var p [3]big.Int
		for i := range p {
			piece(&p[i], w, i, m)
		}
		for i := 1; i < 4; i++ {
			s.int(&e[i], m+2)
		}
		e[0].SetBits(p[0].Bits()) // shared, read only
		e[4].SetBits(p[2].Bits())
		e[3].Add(&p[0], &p[2]) // x0 + x2
		e[1].Add(&e[3], &p[1])
		e[2].Sub(&e[3], &p[1])
		e[3].Lsh(&p[2], 1)
		e[3].Add(&e[3], &p[1])
		e[3].Lsh(&e[3], 1)
		e[3].Add(&e[3], &p[0]) // x0 + 2x1 + 4x2
	}
	var ex, ey [5]big.Int
	ev(xw, &ex)
	if !sq {
		ev(yw, &ey)
	}
	// r: 0, 1, −1, 2, ∞.
	var r [5]big.Int
	s.pointwise(r[:], ex[:], ey[:], 2*m+4, sq)
	c0, c4 := &r[0], &r[4]
	var t big.Int
	s.int(&t, 2*m+5)
	o := &r[2]
	o.Sub(&r[1], o)
	o.Rsh(o, 1) // O = (r1 − r−1)/2
	c2 := &r[1]
	c2.Sub(c2, o) // (r1 + r−1)/2 = r1 − O
	c2.Sub(c2, c0)
	c2.Sub(c2, c4)
	g := &r[3]
	g.Sub(g, c0)
	t.Lsh(c2, 2)
	g.Sub(g, &t)
	t.Lsh(c4, 4)
	g.Sub(g, &t)
	g.Rsh(g, 1) // c1 + 4c3
	c3 := g
	c3.Sub(g, o)
	divExact(c3, c3, 3)
	c1 := o
	c1.Sub(o, c3)
	compose(z, len(xw)+len(yw), m, []*big.Int{c0, c1, c2, c3, c4})
}

// compose sets z = Σ c_i·2^(64·m·i) for c_i ≥ 0, a sum below 2^(64·n),
// in z's storage (room for n words).
//
// The first and the last coefficient (x0·y0 < 2^(128m) and the top
// pieces' product) are copied into place, the words between them
// cleared, and the others added.
func compose(z *big.Int, n, m int, c []*big.Int) {
	w := z.Bits()[:n]
	for _, ci := range c {
		if ci.Sign() < 0 {
			panic("bigmul: negative Toom coefficient")
		}
	}
	k := len(c) - 1
	c0, ck := c[0].Bits(), c[k].Bits()
	top := min(k*m, n) // ck is zero when its pieces are empty
	copy(w, c0)
	clear(w[len(c0):top])
	if top < n {
		copy(w[top:], ck)
		clear(w[top+len(ck):])
	}
	for i := 1; i < k; i++ {
		addAt(w, c[i].Bits(), i*m)
	}
	z.SetBits(w)
}

// addAt adds c·2^(64·off) into w; the sum must fit in w.
func addAt(w, c []big.Word, off int) {
	if len(c) > 0 {
		addTo(w[off:], c)
	}
}

// divExact sets z = x/d for d in {3, 5, 15, 17, …} (a divisor of
// β − 1, β = 2^64 or 2^32 the word base) and x a multiple of d (either
// sign). With m = (β − 1)/d, d^−1 ≡ −m·(1 + β + β² + …) modulo β^n, so
// the quotient's words are the running sums −Σ x_j·m·β^j, whose carry
// chain is a subtraction instead of a product (GMP's bdiv_dbm1c, a form of
// Jebelean's exact division [Jeb93]). z == x is allowed.
func divExact(z, x *big.Int, d uint) {
	if (^uint(0))%d != 0 {
		panic("bigmul: divExact needs a divisor of the word base minus 1")
	}
	m := ^uint(0) / d
	neg := x.Sign() < 0
	xw := x.Bits()
	zw := z.Bits()
	if z != x {
		if cap(zw) < len(xw) {
			zw = make([]big.Word, len(xw))
		}
		zw = zw[:len(xw)]
	}
	divExactWords(zw, xw, m)
	z.SetBits(zw)
	if neg {
		z.Neg(z)
	}
}

// divExactWords sets z = x/d, x a multiple of d, given m = (β − 1)/d for
// a divisor d of β − 1 (divExact): z must have x's length and may be x.
func divExactWords(z, x []big.Word, m uint) {
	var h uint
	for i, v := range x {
		p1, p0 := bits.Mul(uint(v), m)
		var b uint
		h, b = bits.Sub(h, p0, 0)
		z[i] = big.Word(h)
		h, _ = bits.Sub(h, p1, b)
	}
}

// pointwise sets r[i] to ex[i]·ey[i] (ex[i]² if sq), each in an arena
// integer of capacity words: the products at the evaluation points of a
// Toom–Cook multiplication.
func (s *arena) pointwise(r, ex, ey []big.Int, words int, sq bool) {
	for i := range r {
		s.int(&r[i], words)
		if sq {
			s.mulSigned(&r[i], &ex[i], &ex[i], true)
		} else {
			s.mulSigned(&r[i], &ex[i], &ey[i], false)
		}
	}
}
