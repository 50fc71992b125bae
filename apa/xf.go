// This file implements xf, the internal binary floating-point number on which
// the fast algorithms of apa run.

package apa

import (
	"math"
	"math/big"
	"math/bits"

	"github.com/labelinf/labelinf/internal/bigmul"
)

// xf is the value m·2^e with a signed big.Int mantissa m and an int64
// exponent e. Zero is m = 0 (e is then meaningless). There is no NaN or Inf.
//
// Unlike big.Float, an xf carries no precision of its own: each operation
// takes the working precision wp (in bits) and truncates its result to at
// most wp significant bits, with an error below one unit in the last place.
// Multiplication goes through internal/bigmul, so above its crossover it uses
// FFT multiplication, which big.Float cannot ([BIGNUM], §5).
type xf struct {
	m big.Int
	e int64
}

func (z *xf) sign() int { return z.m.Sign() }

// top returns t with 2^(t-1) ≤ |z| < 2^t. It is meaningless for zero.
func (z *xf) top() int64 { return z.e + int64(z.m.BitLen()) }

func (z *xf) set(x *xf) *xf {
	if z != x {
		z.m.Set(&x.m)
		z.e = x.e
	}
	return z
}

func (z *xf) setInt64(v int64) *xf {
	z.m.SetInt64(v)
	z.e = 0
	return z
}

func (z *xf) setInt(v *big.Int) *xf {
	z.m.Set(v)
	z.e = 0
	return z
}

// setFloat64 sets z to the finite float64 f exactly.
func (z *xf) setFloat64(f float64) *xf {
	if f == 0 {
		z.m.SetInt64(0)
		z.e = 0
		return z
	}
	fr, ex := math.Frexp(f) // f = fr·2^ex, 0.5 ≤ |fr| < 1
	z.m.SetInt64(int64(fr * (1 << 53)))
	z.e = int64(ex) - 53
	return z
}

// setBig sets z to the finite big.Float x exactly.
func (z *xf) setBig(x *big.Float) *xf {
	if x.Sign() == 0 {
		z.m.SetInt64(0)
		z.e = 0
		return z
	}
	ex := x.MantExp(nil) // x = mant·2^ex, 0.5 ≤ |mant| < 1
	p := x.MinPrec()
	var t big.Float
	t.SetPrec(p).SetMantExp(x, int(p)-ex)
	t.Int(&z.m) // exact: t is an integer of at most p bits
	z.e = int64(ex) - int64(p)
	return z
}

// float sets f to z exactly (f's precision becomes the mantissa length) and
// returns f. ok is false if z's exponent is outside big.Float's range, in
// which case f is ±Inf (ok = false, overflow) or ±0.
func (z *xf) float(f *big.Float) (res *big.Float, ok bool) {
	if z.m.Sign() == 0 {
		return f.SetPrec(1).SetInt64(0), true
	}
	n := uint(z.m.BitLen())
	f.SetPrec(n).SetInt(&z.m)
	ex := z.e + int64(f.MantExp(nil))
	if ex > math.MaxInt32 {
		return f.SetInf(z.m.Sign() < 0), false
	}
	if ex < math.MinInt32 {
		return f.SetInt64(0), false
	}
	return f.SetMantExp(f, int(z.e)), true
}

// approx returns z as fr·2^ex with fr a float64 in [0.5, 1) in absolute
// value (0 for zero), without overflow for any exponent. It reads z's top
// words in place.
func (z *xf) approx() (fr float64, ex int64) {
	if z.m.Sign() == 0 {
		return 0, 0
	}
	n := z.m.BitLen()
	w := z.m.Bits()
	// The top 64 bits of |z|, left-aligned, gathered from as many words
	// as that takes (one or two on 64-bit platforms, up to three on
	// 32-bit ones).
	const W = bits.UintSize
	i := len(w) - 1
	s := bits.LeadingZeros(uint(w[i]))
	top := uint64(w[i]) << (64 - W + s)
	for got := W - s; got < 64 && i > 0; got += W {
		i--
		top |= uint64(w[i]) << (64 - W) >> got
	}
	fr = float64(top>>1) / (1 << 63)
	if z.m.Sign() < 0 {
		fr = -fr
	}
	return fr, z.e + int64(n)
}

// float64 returns z rounded to a float64 (±Inf or 0 out of range).
func (z *xf) float64() float64 {
	fr, ex := z.approx()
	if ex > 2000 {
		return math.Inf(int(math.Copysign(1, fr)))
	}
	if ex < -2000 {
		return 0
	}
	return math.Ldexp(fr, int(ex))
}

// trunc truncates z to at most wp significant bits (toward zero).
func (z *xf) trunc(wp uint) *xf {
	n := z.m.BitLen()
	if n <= int(wp) {
		return z
	}
	s := uint(n) - wp
	neg := z.m.Sign() < 0
	if neg {
		z.m.Neg(&z.m)
	}
	z.m.Rsh(&z.m, s)
	if neg {
		z.m.Neg(&z.m)
	}
	z.e += int64(s)
	return z
}

// truncOf sets z to x truncated to at most wp significant bits (toward
// zero), as z.set(x).trunc(wp) but without copying the bits it drops.
func (z *xf) truncOf(x *xf, wp uint) *xf {
	n := x.m.BitLen()
	if n <= int(wp) {
		return z.set(x)
	}
	s := uint(n) - wp
	// Rsh floors; toward zero differs for a negative x with nonzero
	// dropped bits.
	up := x.m.Sign() < 0 && x.m.TrailingZeroBits() < s
	e := x.e + int64(s)
	z.m.Rsh(&x.m, s)
	if up {
		z.m.Add(&z.m, bigOne)
	}
	z.e = e
	return z
}

var bigOne = big.NewInt(1)

// bigOneXf is the xf 1, read-only.
var bigOneXf = new(xf).setInt64(1)

// toGrid sets z's exponent to E, shifting its mantissa left, or right
// (truncating toward zero, z ≥ 0) if z.e < E.
func (z *xf) toGrid(E int64) {
	if z.e > E {
		z.m.Lsh(&z.m, uint(z.e-E))
	} else if z.e < E {
		z.m.Rsh(&z.m, uint(E-z.e))
	}
	z.e = E
}

// lsh sets z to x·2^k.
func (z *xf) lsh(x *xf, k int64) *xf {
	z.set(x)
	z.e += k
	return z
}

func (z *xf) neg(x *xf) *xf {
	z.set(x)
	z.m.Neg(&z.m)
	return z
}

// mul sets z to x·y truncated to wp bits. Operands longer than wp+2 bits are
// truncated first (to a whole number of words, at least wp+2 bits, by a
// view that shares their words); the error stays below 3 ulps of wp bits.
func (z *xf) mul(x, y *xf, wp uint) *xf {
	var xt, yt xf
	sq := x == y
	if x.m.BitLen() > int(wp)+66 {
		x = xt.topView(x, wp+2)
	}
	if sq {
		y = x // keep the square a square: bigmul squares x == y faster
	} else if y.m.BitLen() > int(wp)+66 {
		y = yt.topView(y, wp+2)
	}
	e := x.e + y.e
	bigmul.Mul(&z.m, &x.m, &y.m)
	z.e = e
	return z.trunc(wp)
}

// topView sets z to x truncated toward zero to its leading words, at
// least n bits, sharing x's words (no copy): z is read-only, for use as
// an operand. math/big and bigmul see the shared words as aliases and
// never write through them.
func (z *xf) topView(x *xf, n uint) *xf {
	k := (x.m.BitLen() - int(n)) / bits.UintSize
	if k <= 0 {
		return x
	}
	z.m.SetBits(x.m.Bits()[k:])
	if x.m.Sign() < 0 {
		z.m.Neg(&z.m)
	}
	z.e = x.e + bits.UintSize*int64(k)
	return z
}

// mulExact sets z to x·y exactly.
func (z *xf) mulExact(x, y *xf) *xf {
	e := x.e + y.e
	bigmul.Mul(&z.m, &x.m, &y.m)
	z.e = e
	return z
}

// add sets z to x+y with a result of at most wp bits. Bits more than wp+4
// places below the larger operand's leading bit are dropped, so the error is
// below 2 ulps of wp bits (absolute error below 2^(top-wp+1), top the larger
// operand's top). Pass wp = 0 for the exact sum.
func (z *xf) add(x, y *xf, wp uint) *xf { return z.addSub(x, y, wp, false) }

// sub sets z to x−y, as add.
func (z *xf) sub(x, y *xf, wp uint) *xf { return z.addSub(x, y, wp, true) }

// addSub sets z to x+y, or x−y if neg, as add. It aligns the operands in
// z's own buffer when it can, so that a loop that updates z in place does
// not allocate.
func (z *xf) addSub(x, y *xf, wp uint, neg bool) *xf {
	if y.m.Sign() == 0 {
		z.set(x)
		if wp > 0 {
			z.trunc(wp)
		}
		return z
	}
	if x.m.Sign() == 0 {
		z.set(y)
		if neg {
			z.m.Neg(&z.m)
		}
		if wp > 0 {
			z.trunc(wp)
		}
		return z
	}
	var xt, yt xf
	if wp > 0 {
		floor := max(x.top(), y.top()) - int64(wp) - 4
		// Drop the operands' bits below the floor by word views (they
		// keep up to 63 bits more, which only lowers the error). An
		// operand that is also z is truncated in place instead: z's words
		// are about to be written, and a view of them could be read after.
		if x.e < floor-64 {
			if z == x {
				x = z.truncOf(x, uint(max(x.top()-floor, 1)))
			} else {
				x = xt.topView(x, uint(max(x.top()-floor, 1)))
			}
		}
		if y.e < floor-64 {
			if z == y {
				y = z.truncOf(y, uint(max(y.top()-floor, 1)))
			} else {
				y = yt.topView(y, uint(max(y.top()-floor, 1)))
			}
		}
	}
	// Align to the smaller exponent: shift the other operand left.
	if x.e >= y.e {
		s := uint(x.e - y.e)
		e := y.e
		if z == y && z != x {
			var t big.Int
			t.Lsh(&x.m, s)
			if neg {
				z.m.Sub(&t, &y.m)
			} else {
				z.m.Add(&t, &y.m)
			}
		} else {
			z.m.Lsh(&x.m, s)
			if neg {
				z.m.Sub(&z.m, &y.m)
			} else {
				z.m.Add(&z.m, &y.m)
			}
		}
		z.e = e
	} else {
		s := uint(y.e - x.e)
		e := x.e
		if z == x {
			var t big.Int
			t.Lsh(&y.m, s)
			if neg {
				z.m.Sub(&x.m, &t)
			} else {
				z.m.Add(&x.m, &t)
			}
		} else {
			z.m.Lsh(&y.m, s)
			if neg {
				z.m.Sub(&x.m, &z.m)
			} else {
				z.m.Add(&x.m, &z.m)
			}
		}
		z.e = e
	}
	if wp > 0 {
		z.trunc(wp)
	}
	return z
}

// cmp compares x and y exactly and returns -1, 0 or +1.
func (x *xf) cmp(y *xf) int {
	// Signs, then magnitudes by top, decide without aligning the operands
	// (an exact difference shifts by the exponent gap: 2^(−10⁹) against −1
	// would shift by 10⁹ bits).
	sx, sy := x.sign(), y.sign()
	switch {
	case sx != sy:
		if sx < sy {
			return -1
		}
		return 1
	case sx == 0:
		return 0
	case x.top() > y.top():
		return sx
	case x.top() < y.top():
		return -sx
	}
	var d xf
	d.sub(x, y, 0)
	return d.m.Sign()
}

// mulInt64 sets z to x·v truncated to wp bits (exact if wp = 0).
func (z *xf) mulInt64(x *xf, v int64, wp uint) *xf {
	var t big.Int
	t.SetInt64(v)
	z.m.Mul(&x.m, &t)
	z.e = x.e
	if wp == 0 {
		return z
	}
	return z.trunc(wp)
}

// quoInt64 sets z to x/v (v ≠ 0) truncated to wp bits, with an error below
// 2 ulps.
func (z *xf) quoInt64(x *xf, v int64, wp uint) *xf {
	// Scale the dividend so the quotient has wp+2 bits.
	vb := int64(bits.Len64(uint64(absInt64(v))))
	s := int64(wp) + 2 + vb - int64(x.m.BitLen())
	var t, d big.Int
	if s > 0 {
		t.Lsh(&x.m, uint(s))
	} else {
		t.Rsh(&x.m, uint(-s)) // floors; error below 1 unit of the scaled dividend
	}
	d.SetInt64(v)
	z.m.Quo(&t, &d)
	z.e = x.e - s
	return z.trunc(wp)
}

func absInt64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// seedRecip sets z to a float64 approximation of 1/x or 1/√x of x > 0
// (rsqrt true), with a relative error below 2^-50, and returns z.
func seedRecip(z, x *xf, rsqrt bool) *xf {
	fr, ex := x.approx()
	if !rsqrt {
		z.setFloat64(1 / fr)
		z.e -= ex
		return z
	}
	if ex&1 != 0 { // make the exponent even: x = (fr/2)·2^(ex+1)
		fr /= 2
		ex++
	}
	z.setFloat64(1 / math.Sqrt(fr))
	z.e -= ex / 2
	return z
}

// seedBits is the accuracy of the float64 seeds of the Newton iterations.
const seedBits = 48

// recip sets z to 1/x (x ≠ 0) with a relative error below 2^(4-wp), by
// Newton's iteration y ← y + y(1 − xy) with a doubling precision ladder
// [MCA, §3.4.1]: each step doubles the number of correct bits, so only the
// last step runs at full precision.
func (z *xf) recip(x *xf, wp uint) *xf {
	if x.m.Sign() < 0 {
		var ax xf
		ax.neg(x)
		z.recip(&ax, wp)
		z.m.Neg(&z.m)
		return z
	}
	if wp <= seedBits {
		return seedRecip(z, x, false)
	}
	var y xf
	y.recip(x, wp/2+4)
	// t = 1 − x·y, about 2^(-wp/2) in size.
	var t, one xf
	one.setInt64(1)
	t.mul(x, &y, wp+4)
	t.sub(&one, &t, wp+4)
	// y += y·t, where only wp/2+8 bits of the correction matter.
	t.mul(&y, &t, wp/2+8)
	z.add(&y, &t, wp+2)
	return z
}

// quo sets z to x/y with a relative error below 2^(6-wp).
func (z *xf) quo(x, y *xf, wp uint) *xf {
	var r xf
	r.recip(y, wp+2)
	return z.mul(x, &r, wp)
}

// rsqrt sets z to 1/√x (x > 0) with a relative error below 2^(4-wp), by
// Newton's iteration y ← y − y(xy² − 1)/2 on a doubling ladder [MCA,
// §3.5.1].
func (z *xf) rsqrt(x *xf, wp uint) *xf {
	var sc rootScratch
	return z.rsqrtS(x, wp, &sc, 0)
}

// rootScratch holds the temporaries of sqrt and rsqrt, one set per rung of
// the precision ladder, so that a caller that takes many square roots (the
// AGM) reuses their words instead of allocating them at every call.
type rootScratch struct {
	lv []*rootLevel // pointers: a level stays put while deeper ones are added
	y  xf           // the top level's 1/(2√x) in sqrtS
}

type rootLevel struct {
	y, t, u, v, w, sq xf
	pow               big.Int
}

func (sc *rootScratch) level(i int) *rootLevel {
	for len(sc.lv) <= i {
		sc.lv = append(sc.lv, new(rootLevel))
	}
	return sc.lv[i]
}

// subOne sets z to z − 1 exactly, using pow as scratch.
func (z *xf) subOne(pow *big.Int) {
	if z.e > 0 || z.m.Sign() == 0 {
		var one xf
		one.setInt64(1)
		z.sub(z, &one, 0)
		return
	}
	pow.SetInt64(0)
	pow.SetBit(pow, int(-z.e), 1)
	z.m.Sub(&z.m, pow)
}

// rsqrtS is rsqrt with the temporaries of rung depth and below in sc; z
// must not be one of them.
func (z *xf) rsqrtS(x *xf, wp uint, sc *rootScratch, depth int) *xf {
	if wp <= seedBits {
		return seedRecip(z, x, true)
	}
	L := sc.level(depth)
	L.y.rsqrtS(x, wp/2+4, sc, depth+1)
	L.t.mul(&L.y, &L.y, wp+4)
	L.u.mul(x, &L.t, wp+4)
	L.u.subOne(&L.pow) // x·y² − 1, about 2^(-wp/2) in size
	L.t.mul(&L.y, &L.u, wp/2+8)
	L.t.e-- // halve
	z.sub(&L.y, &L.t, wp+2)
	return z
}

// sqrt sets z to √x (x ≥ 0) with a relative error below 2^(6-wp).
func (z *xf) sqrt(x *xf, wp uint) *xf {
	var sc rootScratch
	return z.sqrtS(x, wp, &sc)
}

// sqrtS is sqrt with its temporaries in sc; z must not be one of them.
// It runs Newton's iteration for √x coupled with one for y ≈ 1/(2√x)
// [MCA, §3.5.1, exercise 3.14; KM97]: from s to n/2 bits and y to n/4
// bits, y ← y + y(1 − 2sy) brings y to n/2 bits and s ← s + y(x − s²)
// brings s to n bits. Every product but s² has a half-sized operand, and
// y never needs full precision. The last step (sqrtTop) divides x − s² by
// 2s with Karp–Markstein's step instead of refining y, and every s² comes
// exactly from the level below (sqrtPair): about 1.2 products at 10^5
// bits (profile of BenchmarkLogExpWarm), against 1.6 for the plain coupled
// iteration and more for a reciprocal square root ladder followed by
// Karp–Markstein's step. Where the operands are long (!squareSplits),
// the three products whose top bits cancel a known value (s² against x,
// 2s·q₀ against r, 2sy against 1) are formed only modulo 2^N − 1 for an N
// just above the difference's bound (residueOf, subMulWrap; the
// wrap-around trick [MCA, §2.3.3]): log and exp at 10^6 bits take 0.93
// of the CPU time with s² alone wrapped, 0.86 of it with none.
func (z *xf) sqrtS(x *xf, wp uint, sc *rootScratch) *xf {
	if x.m.Sign() == 0 {
		return z.setInt64(0)
	}
	if wp <= seedBits {
		return z.sqrtPair(&sc.y, nil, x, wp, sc, 0)
	}
	return z.sqrtTop(x, wp, sc)
}

// sqrtTop sets s to √x (x > 0, n > seedBits) with a relative error below
// 2^(5−n). It is sqrtPair's last step without y' = 1/(2s') to n/2 bits,
// which only a caller of sqrtPair needs: from s to h = n/2+8 bits and y
// to h/2 bits (sqrtPair at h), and r = x − s² (about 2^(−h) relative to
// x), the correction q = r/(2s) of s' = s + q is the quotient of r by 2s
// by Karp and Markstein's step [MCA, §3.4.1, §3.5.1; KM97] with y as the
// reciprocal:
//
//	q₀ = y·r to h/2 bits,  ρ = r − 2s·q₀,  q = q₀ + y·ρ.
//
// Error: with υ = 2sy − 1 (|υ| ≤ 2^(5−h/2)), q₀ + y·ρ = y·r − υ·q₀ =
// y(1 − υ)·r up to υ·(q₀ − y·r), and y(1 − υ) = (1 − υ²)/(2s) is
// exactly sqrtPair's y' before truncation: the same relative error
// 2^(10−h) on q, plus truncations (q₀'s 2^(−h/2−6) times υ, ρ's and
// y·ρ's 2^(−n−8) relative to s), so sqrtPair's bound holds. The products
// are y·r and y·ρ, n/4 by n/4 bits, and 2s·q₀, n/2 by n/4 bits kept to
// n/2 bits: about 0.4 of a full product in math/big's Karatsuba range
// (measured at 1,563 words: M(n/2) = 0.35, M(n/2, n/4) = 0.21, M(n/4)
// = 0.10 of M(n)), against sqrtPair's υ, y' and y'·r, about 0.66.
func (s *xf) sqrtTop(x *xf, n uint, sc *rootScratch) *xf {
	L := sc.level(0)
	h := n/2 + 8
	// s to h bits, y to h/2; r = x − s², about 2^(−h) relative to x, to
	// n − h + 8 bits.
	L.residueOf(x, h, n, sc, 1)
	// q₀ = y·r to h/2 + 8 bits.
	L.t.mul(&L.y, &L.v, h/2+8)
	// ρ = r − 2s·q₀, about 2^(−h/2) relative to r, to the absolute
	// precision of r.
	// |ρ| < |r|·2^(7−h/2) (the error analysis below): where s is long
	// (!squareSplits(h)), ρ comes from 2s·q₀ modulo 2^N − 1, whose top
	// h/2 bits, which cancel r's, are never formed.
	if squareSplits(h) || !L.w.subMulWrap(&L.v, &L.u, &L.t, 1, L.v.top()+8-int64(h/2), &L.pow) {
		L.w.mul(&L.u, &L.t, n-h+16)
		L.w.e++
		L.w.sub(&L.v, &L.w, n-h+16)
	}
	L.v.set(&L.w)
	// q = q₀ + y·ρ; y·ρ is about 2^(−3h/2) relative to s.
	L.w.mul(&L.y, &L.v, n+24-h-h/2)
	L.t.add(&L.t, &L.w, n-h+16)
	return s.add(&L.u, &L.t, n+2)
}

// sqrtPair sets s to √x with a relative error below 2^(5−n), y to 1/(2s)
// with a relative error below 2^(5−n/2), and sq (unless nil) to s²
// exactly, for x > 0, and returns s. s, y and sq must not be sc's levels
// at depth or below.
//
// Error: with s = √x(1+σ), |σ| ≤ 2^(5−h), h = n/2+8, and y = (1+υ)/(2s),
// |υ| ≤ 2^(5−h/2): 1 − 2sy = −υ, so y' = y(1 − υ) = (1 − υ²)/(2s), |υ²| ≤
// 2^(10−h) = 2^(2−n/2) plus the truncations (a few units of 2^−(h+2));
// s' = s + y'(x − s²) = √x(1 + σ)(1 − σ(1 + σ/2)(1 − υ'))... leaves
// |σ'| ≤ σ²/2 + |σ·υ'| + truncations ≤ 2^(9−2h) + 2^(8−n/2−h) + 2^(−n−1),
// below 2^(5−n) for n > seedBits.
//
// s' = s + q (q = y'·r) is kept exact, not truncated to n bits (it has
// about n + 24), so that its square comes from the level below's:
// s'² = s² + 2s·q + q², an n/2 by n/2 bit product and an n/2 bit square
// (s² is the lower level's sq), against an n-bit square: in math/big's
// Karatsuba range, 0.18 of M(2n) against 0.26 for the parent, which
// needs s'² for its residue x − s'².
func (s *xf) sqrtPair(y, sq, x *xf, n uint, sc *rootScratch, depth int) *xf {
	if n <= seedBits {
		fr, ex := x.approx()
		if ex&1 != 0 { // make the exponent even: x = (fr/2)·2^(ex+1)
			fr /= 2
			ex++
		}
		r := math.Sqrt(fr)
		s.setFloat64(r)
		s.e += ex / 2
		y.setFloat64(0.5 / r)
		y.e -= ex / 2
		if sq != nil {
			sq.mulExact(s, s)
		}
		return s
	}
	L := sc.level(depth)
	h := n/2 + 8
	// s to h bits, y to h/2, and r = x − s² in L.v (s² exactly in L.sq
	// where it is built from the level below).
	L.residueOf(x, h, n, sc, depth+1)
	// 2sy − 1 = υ, about 2^(−h/2).
	// |υ| < 2^(6−h/2): where s is long, 1 − 2sy comes from 2sy modulo
	// 2^N − 1, whose top h/2 bits, which cancel 1's, are never formed.
	if squareSplits(h) || !L.t.subMulWrap(bigOneXf, &L.u, &L.y, 1, 7-int64(h/2), &L.pow) {
		L.t.mul(&L.u, &L.y, h+4)
		L.t.e++
		L.t.subOne(&L.pow)
	} else {
		L.t.m.Neg(&L.t.m) // υ = −(1 − 2sy)
	}
	// y' = y − y·υ, to h bits.
	L.w.mul(&L.y, &L.t, h/2+8)
	y.sub(&L.y, &L.w, h+2)
	// q = y'·r; s' = s + q exactly.
	L.t.mul(y, &L.v, n-h+16)
	if sq != nil && squareSplits(n) {
		// s'² = s² + 2s·q + q², exactly.
		L.v.mulExact(&L.u, &L.t)
		L.v.e++
		L.w.mulExact(&L.t, &L.t)
		sq.add(&L.sq, &L.v, 0)
		sq.add(sq, &L.w, 0)
		return s.add(&L.u, &L.t, 0)
	}
	s.add(&L.u, &L.t, 0)
	if sq != nil {
		sq.mulExact(s, s)
	}
	return s
}

// squareSplits reports whether sqrtPair at precision n builds s'² from
// the level below's s² (q has at most sqSplitMaxBits bits) rather than
// squaring s'.
func squareSplits(n uint) bool { return n-(n/2+8)+16 <= sqSplitMaxBits }

// residueOf runs the level below of a square-root step at precision n:
// it sets L.u to s = √x to h bits and L.y to 1/(2s) to h/2 bits
// (sqrtPair at depth), and L.v to the residue r = x − s², about 2^(−h)
// relative to x, with every bit at or above 2^(top(x)−n−12). Where the
// level below builds s² from its own level below (squareSplits(h)), r
// is x − s² from that exact s² (kept in L.sq). Above, s² would be a full
// square of s whose top h bits only cancel x's: r comes instead from s²
// modulo 2^N − 1, N some n − h + 100 bits (sqResidue), a transform of
// about half the length, unless the wrapped difference is not well inside
// its bound, when s² is squared exactly after all.
func (L *rootLevel) residueOf(x *xf, h, n uint, sc *rootScratch, depth int) {
	if squareSplits(h) {
		L.u.sqrtPair(&L.y, &L.sq, x, h, sc, depth)
		L.v.sub(x, &L.sq, n+8)
		return
	}
	L.u.sqrtPair(&L.y, nil, x, h, sc, depth)
	if !L.v.sqResidue(x, &L.u, h, &L.pow) {
		L.sq.mulExact(&L.u, &L.u)
		L.v.sub(x, &L.sq, n+8)
	}
}

// sqResidue sets r to x − s² for x > 0 and s = √x·(1+σ) > 0 with |σ| ≤
// 2^(5−h), exactly on s²'s grid 2^(2·e(s)) (x's bits below it, if any,
// are dropped: the grid lies far below the 2^(top(x)−n−12) that callers
// keep), and reports whether it could. |x − s²| = x·|2σ + σ²| < 2^B
// units of the grid, B = top(x) + 8 − h − 2·e(s), so the difference is
// known from its residue modulo 2^N − 1 for any N > B + 1: s² is formed
// only modulo 2^N − 1 (bigmul.MulWrap), N ≥ B + 32, the wrap-around
// trick [MCA, §2.3.3, §3.5.1]. The residue is rejected (ok = false) if
// it is not below 2^(N−20) in absolute value, which the bound excludes:
// a safeguard against a wrong bound, never taken in the tests. pow is
// scratch.
func (r *xf) sqResidue(x, s *xf, h uint, pow *big.Int) bool {
	if s.m.Sign() <= 0 || x.m.Sign() <= 0 {
		return false
	}
	e0 := 2 * s.e
	B := x.top() + 8 - int64(h) - e0
	if B < 0 {
		return false
	}
	N := uint(max(B+32, int64(s.m.BitLen())+1))
	var X big.Int
	if x.e >= e0 {
		X.Lsh(&x.m, uint(x.e-e0))
	} else {
		X.Rsh(&x.m, uint(e0-x.e))
	}
	_, Nw := bigmul.MulWrap(&r.m, &s.m, &s.m, N)
	foldMod(&X, Nw, pow) // X mod 2^Nw − 1
	// d = X − s² mod 2^Nw − 1, in (−2^(Nw−1), 2^(Nw−1)).
	r.m.Sub(&X, &r.m)
	symMod(&r.m, Nw, pow)
	r.e = e0
	return uint(r.m.BitLen())+20 <= Nw
}

// subMulWrap sets z to c − a·b·2^k exactly, on the grid of c and of
// a·b·2^k, given that |c − a·b·2^k| < 2^bound, and reports whether it
// could; z must not be c, a or b. Like sqResidue, it forms a·b only
// modulo 2^N − 1 (bigmul.MulWrap) for an N 32 bits above the bound over
// the grid, so that the product's high bits, which cancel c's, cost
// nothing, and rejects (ok = false) a difference not below 2^(N−20) in
// absolute value, which the bound excludes. That check is a safeguard,
// not a proof: a difference beyond the bound can alias to a small residue
// (it is a multiple of 2^N − 1 away), so the bound must hold.
func (z *xf) subMulWrap(c, a, b *xf, k, bound int64, pow *big.Int) bool {
	if a.m.Sign() == 0 || b.m.Sign() == 0 || c.m.Sign() == 0 {
		return false
	}
	e0 := a.e + b.e + k // the product's grid
	g := min(e0, c.e)
	if bound < g {
		return false
	}
	N := uint(max(bound-g+32, int64(max(a.m.BitLen(), b.m.BitLen()))+1))
	var ua, ub, C big.Int
	ua.Abs(&a.m)
	ub.Abs(&b.m)
	_, Nw := bigmul.MulWrap(&z.m, &ua, &ub, N)
	M := new(big.Int).Lsh(bigOne, Nw)
	M.Sub(M, bigOne) // 2^Nw − 1
	// The product on the grid g: a rotation by e0 − g bits modulo M.
	if s := uint(e0 - g); s > 0 {
		z.m.Lsh(&z.m, s%Nw)
		foldMod(&z.m, Nw, pow)
	}
	if a.m.Sign()*b.m.Sign() < 0 && z.m.Sign() != 0 {
		z.m.Sub(M, &z.m)
	}
	// c on the grid g, modulo M.
	C.Lsh(&c.m, uint(c.e-g))
	neg := C.Sign() < 0
	C.Abs(&C)
	foldMod(&C, Nw, pow)
	if neg && C.Sign() != 0 {
		C.Sub(M, &C)
	}
	// c − a·b mod M, in (−M/2, M/2].
	z.m.Sub(&C, &z.m)
	symMod(&z.m, Nw, M)
	z.e = g
	return uint(z.m.BitLen())+20 <= Nw
}

// symMod sets d, a difference of two residues modulo M = 2^n − 1 (so
// |d| < M), to the residue of d in (−M/2, M/2]; m is scratch.
func symMod(d *big.Int, n uint, m *big.Int) {
	m.Lsh(bigOne, n)
	m.Sub(m, bigOne)
	if d.Sign() < 0 {
		d.Add(d, m)
	}
	m.Rsh(m, 1)
	if d.Cmp(m) > 0 {
		m.Lsh(m, 1)
		m.Add(m, bigOne)
		d.Sub(d, m)
	}
}

// foldMod reduces z ≥ 0 modulo 2^n − 1 into [0, 2^n), by adding its
// n-bit blocks; pow is scratch.
func foldMod(z *big.Int, n uint, pow *big.Int) {
	for uint(z.BitLen()) > n {
		pow.Rsh(z, n)
		lowBits(z, n)
		z.Add(z, pow)
	}
}

// lowBits sets z ≥ 0 to its n low bits.
func lowBits(z *big.Int, n uint) {
	w := z.Bits()
	k := int(n / bits.UintSize)
	if k >= len(w) {
		return
	}
	if b := n % bits.UintSize; b != 0 {
		w[k] &= big.Word(1)<<b - 1
		k++
	}
	z.SetBits(w[:k])
}

// sqrtPair builds s'² from the level below's s² while q has at most
// sqSplitMaxBits bits: there, math/big's Karatsuba squares, where a square
// of n bits costs about three of n/2. Above it the products go through
// bigmul's transform, whose cost is about linear in the length, and one
// square of s' is cheaper than a product and a square of half its length
// (log at 10^6 bits: 0.97 of the session-7 CPU time with the split at
// every level, 0.89 without it). Above it the square is not formed at
// all: residueOf takes x − s'² from s'² modulo 2^N − 1.
const sqSplitMaxBits = 60000
