// This file implements the short (high) product: the top words of x·y
// without its low ones, by Mulders' recursion over the full products of
// this package [Mul00], [MCA, §3.3.2], with schoolbook rows below.
//
// Notation: β = 2^W (W = bits.UintSize), x = Σ x_i·β^i, y = Σ y_j·β^j,
// P = x·y = Σ x_i·y_j·β^(i+j). A pair (i, j) lies on diagonal i + j.
// mulShort(c) computes exactly T, the sum of x_i·y_j·β^(i+j) over a set
// of pairs that holds every pair of diagonal ≥ c (it may hold more: its
// pieces are full products). Every dropped pair is non-negative and lies
// below diagonal c, so, with at most N = min(len(x), len(y), c) pairs per
// diagonal and x_i·y_j ≤ (β−1)²:
//
//	0 ≤ P − T ≤ N·(β−1)²·Σ_{k<c} β^k < N·(β−1)·β^c < N·β^(c+1).
//
// MulHigh wants ⌊P/2^sh⌋ and takes c = ⌊sh/W⌋ − g (g = shortGuard words):
// P − T < N·β^(1−g)·2^sh, below 2^(sh−32) for any N < 2^32 (g = 2 on
// 64-bit words, 3 on 32-bit ones). Its result H = ⌊T/2^sh⌋ then satisfies
// 0 ≤ P/2^sh − H < 1 + 2^−32: the floor, or one less when the fraction of
// P/2^sh is below 2^−32.
//
// Mulders' step (x and y first trimmed of the words no needed pair
// reads, so that c ≤ min(len(x), len(y)) − 1): for a split l ≤ (c+1)/2,
// the pairs with i, j ≥ l are one full product x[l:]·y[l:] (placed at
// β^(2l)); those with i < l need j ≥ c − l + 1, a short product
// x[:l]·y[c−l+1:] of cutoff l − 1; those with i ≥ l, j < l need
// i ≥ c − l + 1 ≥ l, a short product x[c−l+1:]·y[:l] of cutoff l − 1 (for
// a square, the first one transposed: computed once, added twice). The
// three sets are disjoint and cover every pair of diagonal ≥ c, so T is
// again an exact sum of pairs, and the bound above holds whatever the
// split. Below shortBaseWords, schoolbook rows add each y_j times the
// words of x that reach diagonal c (a square: its full product).
//
// [Mul00]: T. Mulders, "On short multiplications and divisions", AAECC 11
// (2000) 69–88.

package bigmul

import (
	"math"
	"math/big"
	"math/bits"
)

// shortGuard is the number of guard words below the result of MulHigh:
// with g guard words the dropped pairs sum to below N·β^(1−g) units of the
// result, at most 2^−32 for N < 2^32 pairs per diagonal (file comment).
var shortGuard = 2 + (64-bits.UintSize)/32

// shortBaseWords is the shorter operand's size below which mulShort
// multiplies by schoolbook rows (a square: by its full square, below
// shortSqrBaseWords), and shortSplit/64 (squares: shortSqrSplit/64) the
// fraction of c+1 that Mulders' step leaves to the short products (l).
// By TestCalibrateShort's medians (2026-11-28, thread CPU, MulHigh ÷ Mul
// and shift, top halves from 60 to 470 words, rows in blocks of 8):
// products 0.75–0.79 at 80/20 (0.77–0.84 with the schoolbook from 40 or
// 56 words), squares 0.66–0.73 at 40–80/24 (a square of 60 words takes
// its full square, 1.0, when the schoolbook starts at 80).
var (
	shortBaseWords    = 80
	shortSqrBaseWords = 40
	shortSplit        = 20
	shortSqrSplit     = 24
)

// shortMinWords is the shorter operand's size (after trimming) from which
// MulHigh uses mulShort; below it, or without the amd64 kernels, it takes
// the full product of the trimmed operands. Tests lower it to force the
// short path everywhere.
var shortMinWords = shortMinFor()

func shortMinFor() int {
	if useADX {
		return 8
	}
	return math.MaxInt // math/big's products beat the Go rows
}

// MulHigh sets z to an approximation of x·y/2^sh truncated toward zero,
// at most one unit short in magnitude, and returns z:
//
//	0 ≤ |x·y|/2^sh − |z| < 1 + 2^−32,
//
// and z has the sign of x·y. That is |x·y| >> sh, except that it may be
// one less when the discarded fraction of |x·y|/2^sh is below 2^−32: the
// low part of the product is not computed (Mulders' short product, file
// comment of short.go), which saves up to half of a schoolbook product
// and a fifth to a quarter of a Karatsuba or Toom one (squares: a quarter
// to a third) when the discarded part is half of the product. Above the Toom sizes it is the full product,
// shifted. Aliasing is allowed; x == y squares.
func MulHigh(z, x, y *big.Int, sh uint) *big.Int {
	sq := x == y
	if len(x.Bits()) < len(y.Bits()) {
		x, y = y, x
	}
	xw, yw := x.Bits(), y.Bits()
	if len(yw) == 0 {
		return z.SetInt64(0)
	}
	trace(Product{XWords: len(xw), YWords: len(yw), Square: sq, HighShift: sh})
	neg := x.Sign()*y.Sign() < 0
	c := int(sh/bits.UintSize) - shortGuard
	if c < 2 {
		return fullHigh(z, xw, yw, sq, sh, neg) // nothing to save
	}
	// Trim the words no pair of diagonal ≥ c reads: x_i with
	// i + len(y) − 1 < c, then y_j likewise (for a square both by the
	// same count, so it stays a square).
	lx, ly := 0, 0
	if c > 0 {
		lx = max(0, c-len(yw)+1)
		lx = min(lx, len(xw))
		ly = max(0, c-lx-(len(xw)-lx)+1)
		ly = min(ly, len(yw))
	}
	xt, yt := xw[lx:], yw[ly:]
	c -= lx + ly
	rsh := sh - uint(lx+ly)*bits.UintSize
	switch {
	case len(xt) == 0 || len(yt) == 0:
		return z.SetInt64(0)
	case c <= 0 || 4*c < min(len(xt), len(yt)) || min(len(xt), len(yt)) < shortMinWords ||
		sq && len(xt) < shortSqrBaseWords:
		// Few pairs to save (a square below shortSqrBaseWords:
		// mulShort's full square): the full product of the trimmed
		// operands.
		return fullHigh(z, xt, yt, sq, rsh, neg)
	default:
		if st, pl, _ := choose(len(xt), len(yt), sq); st == byChunks || st == byNTT && !shortBeatsNTT(len(xt), len(yt), sq, pl) {
			return fullHigh(z, xt, yt, sq, rsh, neg)
		}
		s := getArena(toomScratchWords(len(xt)) + 2*(len(xt)+len(yt)))
		w := s.wordsN(len(xt) + len(yt))
		if sq {
			s.mulShort(w, xt, xt, c, true)
		} else {
			s.mulShort(w, xt, yt, c, false)
		}
		var t big.Int
		t.SetBits(w)
		z.Rsh(&t, rsh) // copies out of the arena before it is reused
		arenaPool.Put(s)
		if neg {
			z.Neg(z)
		}
		return z
	}
}

// shortGain is MulHigh's cost relative to the full product below the
// transform for a top half (BenchmarkMulHigh: 0.74–0.81 for products,
// 0.69–0.75 for squares at 40–470 words; 0.84–0.87 at 700).
const shortGain = 0.8

// shortBeatsNTT reports whether the cost model of choose expects Mulders'
// short product over Toom (shortGain of Toom's full product) to beat the
// transform's full product with plan pl, for an xw×yw-word product.
func shortBeatsNTT(xw, yw int, sq bool, pl nttPlan) bool {
	k, _ := schoolCost(xw, yw, sq)
	f := nttUS * pl.cost()
	if sq {
		f *= 0.76
	}
	return shortGain*k < f
}

// fullHigh sets z to ±(x·y >> rsh) (minus if neg) by the full product of
// the words x and y (sq: y is x) and returns z.
func fullHigh(z *big.Int, x, y []big.Word, sq bool, rsh uint, neg bool) *big.Int {
	var a, b big.Int
	a.SetBits(x)
	if sq {
		mul(z, &a, &a)
	} else {
		b.SetBits(y)
		mul(z, &a, &b)
	}
	z.Rsh(z, rsh)
	if neg {
		z.Neg(z)
	}
	return z
}

// mulShort sets z[:len(x)+len(y)] to T, the exact sum of x_i·y_j·β^(i+j)
// over a set of pairs that holds every pair with i + j ≥ c (file comment);
// sq: y is x. z must not overlap x or y.
func (s *arena) mulShort(z, x, y []big.Word, c int, sq bool) {
	z = z[:len(x)+len(y)]
	if len(x) < len(y) {
		x, y = y, x
	}
	// Trim: x_i with i + len(y) − 1 < c, then y_j with j + len(x) − 1 < c
	// (a square: both by the same count).
	if lx := c - len(y) + 1; lx > 0 {
		ly := 0
		if sq {
			ly = lx
		}
		clear(z[:lx+ly])
		s.mulShort(z[lx+ly:], x[lx:], y[ly:], c-lx-ly, sq)
		return
	}
	if ly := c - len(x) + 1; ly > 0 {
		clear(z[:ly])
		s.mulShort(z[ly:], x, y[ly:], c-ly, false)
		return
	}
	nx, ny := len(x), len(y)
	if c <= 0 || 4*c < ny {
		s.mulInto(z, x, y, sq)
		return
	}
	if sq && ny < shortSqrBaseWords {
		// The triangle of a square's pairs i < j as rows lost to the
		// full square's (0.99–1.12 at 24–40 words).
		s.mulInto(z, x, x, true)
		return
	}
	if !sq && ny < shortBaseWords {
		shortRows(z, x, y, c)
		return
	}
	// Mulders' step: l ≤ (c+1)/2, so c − l + 1 ≥ l.
	split := shortSplit
	if sq {
		split = shortSqrSplit
	}
	l := max(1, min((c+1)*split/64, (c+1)/2))
	o := c - l + 1
	s.mulInto(z[2*l:], x[l:], y[l:], sq)
	clear(z[:2*l])
	mark := s.off
	t := s.wordsN(l + ny - o)
	s.mulShort(t, x[:l], y[o:], l-1, false)
	addTo(z[o:], t)
	if sq {
		addTo(z[o:], t)
	} else {
		t = s.wordsN(nx - o + l)
		s.mulShort(t, x[o:], y[:l], l-1, false)
		addTo(z[o:], t)
	}
	s.off = mark
}

// shortRows sets z[:len(x)+len(y)] to the sum of x_i·y_j·β^(i+j) over a
// set of pairs holding those with i + j ≥ c, 0 ≤ c < len(x), by schoolbook
// rows: the rows j < c in blocks of shortRowBlock, each block one call of
// mulRowsADX on the words of x that its last row needs (i ≥ c − j for its
// first row j0 … j0+B−1: pairs down to diagonal c − B + 1, exact, so the
// set only grows), then the rows j ≥ c whole. A row j ends at word
// j + len(x), which it sets (mulRowsADX's carry), so the rows go up.
func shortRows(z, x, y []big.Word, c int) {
	nx := len(x)
	clear(z[:nx])
	for j0 := 0; j0 < c && j0 < len(y); j0 += shortRowBlock {
		j1 := min(j0+shortRowBlock, c, len(y))
		s := max(0, c-j1+1) // the first word of x that row j1−1 needs
		mulRowsADX(z[s+j0:], x[s:], y[j0:j1])
	}
	if c < len(y) {
		mulRowsADX(z[c:], x, y[c:])
	}
}

// shortRowBlock is the number of rows of shortRows' triangle per call of
// mulRowsADX: each call costs a few dozen cycles, each block about
// B²/2 pairs more than the triangle.
var shortRowBlock = 8
