package fpa

// This file holds the double-double fast path of Log, Log1p and Exp for
// formats of at most 53 bits whose argument is a normal float64 (binary64
// and everything between the float64 fast path's 45 bits and it). A value
// is an unevaluated sum hi+lo of two float64 with |lo| ≤ ulp(hi)/2, about
// 106 bits [Dekker71]; the error-free transformations TwoSum [Knuth,
// §4.2.2, Thm B] and TwoProd (one math.FMA) make sums and products exact,
// so the only errors are the ones counted in each function's comment. The
// functions are table-driven in Tang's manner [Tang89, Tang90]: an exact
// argument reduction to |r| < 2^−8.4, a short polynomial in double-double,
// and a table value. Each result has a relative error below 2^−98 (the
// test TestDDErrorBound measures it against apa at 200 bits: at most
// 2^−103 over its inputs); ddRound accepts it only when the interval of
// relative radius ddErrBits = 2^−90 around it decides the rounding to
// Prec+2 bits (Ziv's test [Ziv91]), and the caller falls back to apa
// otherwise (about one call in 2^34).
//
// References (cited here by key; they are not in doc.go's list):
//
//   - [Dekker71] T. J. Dekker, "A floating-point technique for extending
//     the available precision", Numer. Math. 18(3), 1971.
//   - [Knuth] D. E. Knuth, The Art of Computer Programming, vol. 2, 3rd
//     ed., Addison-Wesley, 1997.
//   - [Joldes17] M. Joldes, J.-M. Muller, V. Popescu, "Tight and rigorous
//     error bounds for basic building blocks of double-word arithmetic",
//     ACM TOMS 44(2), 2017.
//   - [Tang89] P. T. P. Tang, "Table-driven implementation of the
//     exponential function in IEEE floating-point arithmetic", ACM TOMS
//     15(2), 1989.
//   - [Tang90] P. T. P. Tang, "Table-driven implementation of the
//     logarithm function in IEEE floating-point arithmetic", ACM TOMS
//     16(4), 1990.

import (
	"math"
	"math/big"
	"math/bits"
	"sync"

	"github.com/labelinf/labelinf/apa"
)

// dd is a double-double hi+lo.
type dd struct{ hi, lo float64 }

// twoSum returns s = fl(a+b) and e with s+e = a+b exactly [Knuth, Thm B].
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	e = (a - (s - bb)) + (b - bb)
	return s, e
}

// fastTwoSum is twoSum for |a| ≥ |b| (or a = 0) [Dekker71].
func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	e = b - (s - a)
	return s, e
}

// twoProd returns p = fl(a·b) and e with p+e = a·b exactly (no underflow).
func twoProd(a, b float64) (p, e float64) {
	p = a * b
	return p, math.FMA(a, b, -p)
}

// add returns x+y with a relative error below 2^−104 of |x|+|y| (the
// accurate double-double sum, [Joldes17, Alg. 6]).
func (x dd) add(y dd) dd {
	s, e := twoSum(x.hi, y.hi)
	t, f := twoSum(x.lo, y.lo)
	e += t
	s, e = fastTwoSum(s, e)
	e += f
	s, e = fastTwoSum(s, e)
	return dd{s, e}
}

// mul returns x·y with a relative error below 2^−102: the double-word
// product of [Joldes17, §5] (exact leading product by twoProd, cross terms
// in double), whose proved bound is a small multiple of 2^−106.
func (x dd) mul(y dd) dd {
	p, e := twoProd(x.hi, y.hi)
	e += float64(x.hi*y.lo) + float64(x.lo*y.hi)
	p, e = fastTwoSum(p, e)
	return dd{p, e}
}

// ddErrBits: ddRound accepts a result whose relative error is below
// 2^−ddErrBits, eight bits of slack over the functions' 2^−98.
const ddErrBits = 90

// ddTables holds the tables of the fast path, computed once with apa at
// 200 bits and rounded to double-double.
var ddTables struct {
	once sync.Once
	// log: for i in [192, 384], inv[i−192] is 1/(i/256) rounded to 13
	// bits (1 at i = 256) and logInv[i−192] = −ln(inv) (0 at i = 256).
	inv    [193]float64
	logInv [193]dd
	// exp: pow2[j] = 2^(j/256), j in [0, 256).
	pow2 [256]dd
	// ln2 = ln2a + ln2b + ln2c with ln2a of 42 bits (k·ln2a is exact for
	// |k| < 2^11) and ln2b a double (k·ln2b exact with twoProd).
	ln2a, ln2b, ln2c float64
	// c = ln2/256 = c1 + c2 + c3, c1 of 32 bits (k·c1 exact for |k| < 2^21).
	c1, c2, c3 float64
	// 1/3, 1/5, 1/6, 1/24 as double-doubles (the other
	// coefficients of the series are exact).
	third, fifth, sixth, twentyfourth dd
	// 256/ln2 rounded, for k = round(x·256/ln2).
	invC float64
}

// toDD rounds v to a double-double.
func toDD(v *big.Float) dd {
	hi, _ := v.Float64()
	r := new(big.Float).SetPrec(v.Prec()).Sub(v, new(big.Float).SetFloat64(hi))
	lo, _ := r.Float64()
	return dd{hi, lo}
}

// split3 returns v = a + b + c with a rounded to bitsA bits, b to 53
// and c the rest rounded to a double.
func split3(v *big.Float, bitsA uint) (a, b, c float64) {
	ta := new(big.Float).SetPrec(bitsA).Set(v)
	a, _ = ta.Float64()
	r := new(big.Float).SetPrec(v.Prec()).Sub(v, ta)
	tb := new(big.Float).SetPrec(53).Set(r)
	b, _ = tb.Float64()
	r.Sub(r, tb)
	c, _ = r.Float64()
	return a, b, c
}

func setupDD() {
	t := &ddTables
	const w = 200
	ln2 := new(big.Float).SetPrec(w)
	mustApa(apa.Log(ln2, big.NewFloat(2)))
	t.ln2a, t.ln2b, t.ln2c = split3(ln2, 42)
	c := new(big.Float).SetPrec(w).SetMantExp(ln2, -8)
	t.c1, t.c2, t.c3 = split3(c, 32)
	t.invC, _ = new(big.Float).SetPrec(w).Quo(big.NewFloat(1), c).Float64()
	for i := 192; i <= 384; i++ {
		inv := new(big.Float).SetPrec(13).Quo(big.NewFloat(256), big.NewFloat(float64(i)))
		t.inv[i-192], _ = inv.Float64()
		l := new(big.Float).SetPrec(w)
		mustApa(apa.Log(l, inv.SetPrec(w)))
		t.logInv[i-192] = toDD(l.Neg(l))
	}
	for j := range 256 {
		a := new(big.Float).SetPrec(w).Mul(ln2, big.NewFloat(float64(j)/256))
		e := new(big.Float).SetPrec(w)
		mustApa(apa.Exp(e, a))
		t.pow2[j] = toDD(e)
	}
	q := func(d float64) dd {
		return toDD(new(big.Float).SetPrec(w).Quo(big.NewFloat(1), big.NewFloat(d)))
	}
	t.third, t.fifth, t.sixth, t.twentyfourth = q(3), q(5), q(6), q(24)
}

// mustApa panics on an apa error: the table arguments are in range.
func mustApa(_ *big.Float, err error) {
	if err != nil {
		panic("fpa: table setup: " + err.Error())
	}
}

// log1pSeries returns ln(1+r) for a double-double |r| < 2^−8.4 through
// r − r²/2 + … − r^6/6 in double-double and the tail r^7/7 − … + r^13/13
// in double: the tail is below 2^−51·|r| and computed to 2^−50 of itself;
// the series' remainder is below |r|^14/14 < 2^−104·|r|; the 13
// double-double operations add at most 13·2^−102 relative (the partial
// results never cancel: each is within 2^−7 of its leading term).
func log1pSeries(r dd) dd {
	t := &ddTables
	x := r.hi
	tail := 1.0/7 + x*(-1.0/8+x*(1.0/9+x*(-1.0/10+x*(1.0/11+x*(-1.0/12+x*(1.0/13))))))
	s := dd{-t.sixth.hi, -t.sixth.lo}.add(r.mul(dd{tail, 0}))
	s = t.fifth.add(r.mul(s))
	s = dd{-0.25, 0}.add(r.mul(s))
	s = t.third.add(r.mul(s))
	s = dd{-0.5, 0}.add(r.mul(s))
	return r.add(r.mul(r).mul(s))
}

// logDD returns ln v for a normal v > 0, v ≠ 1, with a relative error
// below 2^−98. v = 2^e·m, m in [3/4, 3/2); i = round(256·m), inv ≈ 256/i
// to 13 bits; r = m·inv − 1 is exact as a double-double (twoProd, and
// Sterbenz for the subtraction), |r| < 2^−8.4; ln v = e·ln 2 − ln(inv) +
// ln(1+r) [Tang90]. e·ln 2 is exact to 2^−137 (three-part ln 2). The
// terms never cancel by more than 2 bits: for e ≠ 0 the sum exceeds 0.28
// while |ln m| < 0.41; for e = 0 and i ≠ 256, |ln m| > 2^−9 and the terms
// are at most 2^−7 apart in size.
func logDD(v float64) dd {
	t := &ddTables
	fr, e := math.Frexp(v) // v = fr·2^e, fr in [1/2, 1)
	m := fr * 2
	e--
	if m >= 1.5 {
		m /= 2
		e++
	}
	i := int(m*256 + 0.5)
	inv := t.inv[i-192]
	p, pe := twoProd(m, inv)
	rh, rl := twoSum(p-1, pe)
	res := log1pSeries(dd{rh, rl})
	if i != 256 {
		res = t.logInv[i-192].add(res)
	}
	if e != 0 {
		k := float64(e)
		bh, bl := twoProd(k, t.ln2b)
		l := dd{k * t.ln2a, 0}.add(dd{bh, bl + k*t.ln2c})
		res = l.add(res)
	}
	return res
}

// log1pDD returns ln(1+v) for a normal v > −1, v ≠ 0, with a relative
// error below 2^−98. For |v| < 0x1.6p−9 (< 2^−8.5) it is log1pSeries(v). Otherwise
// 1+v = s+t exactly (twoSum), |t| ≤ 2^−53·s, and ln(1+v) = ln s +
// ln(1+t/s) with ln(1+d) = d − d²/2 + O(d³) for d = t/s as a
// double-double (d² < 2^−106; the result exceeds 2^−9).
func log1pDD(v float64) dd {
	if math.Abs(v) < 0x1.6p-9 { // below 2^−8.5
		return log1pSeries(dd{v, 0})
	}
	s, t := twoSum(1, v)
	res := logDD(s)
	if t != 0 {
		q := t / s
		q2 := math.FMA(-q, s, t) / s
		res = res.add(dd{q, q2 - q*q/2})
	}
	return res
}

// expDD returns e^v as 2^K·y for |v| < 2^11, v normal or zero, with y's
// relative error below 2^−98. k = round(v·256/ln 2), K = ⌊k/256⌋, j = k
// mod 256; r = v − k·ln2/256 with |r| < 2^−9.4, computed to 2^−150 (v −
// k·c1 is exact by Sterbenz, k·c2 exact with twoProd); e^v = 2^K·2^(j/256)
// ·e^r [Tang89] with e^r = 1 + r + … + r^4/24 in double-double and the
// tail r^5/120 + … + r^8/40320 in double (below 2^−54, computed to 2^−50
// of itself); the series' remainder is below 2^−104.
func expDD(v float64) (dd, int64) {
	t := &ddTables
	kf := math.RoundToEven(v * t.invC)
	a := v - kf*t.c1
	bh, bl := twoProd(kf, t.c2)
	s, err := twoSum(a, -bh)
	rl := err - bl - kf*t.c3
	r := dd{}
	r.hi, r.lo = fastTwoSum(s, rl)
	x := r.hi
	tail := 1.0/120 + x*(1.0/720+x*(1.0/5040+x*(1.0/40320)))
	p := t.twentyfourth.add(r.mul(dd{tail, 0}))
	p = t.sixth.add(r.mul(p))
	p = dd{0.5, 0}.add(r.mul(p))
	p = dd{1, 0}.add(r.mul(p))
	p = dd{1, 0}.add(r.mul(p))
	k := int64(kf)
	return t.pow2[k&255].mul(p), k >> 8
}

// ddRound sets z to the rounding of y·2^k, where y is a double-double
// approximation of an irrational value with a relative error below
// 2^−ddErrBits, if the error interval decides the round-to-odd value at q =
// Prec+2 ≤ 55 bits (Ziv's test [Ziv91]). It reports false, leaving z
// alone, when it cannot decide. y.hi must be a normal float64.
//
// y is turned into an integer V = H·2^63 + ⌊lo·2^(63−eh)⌋ (hi = H·2^eh,
// H of 53 bits; |lo| ≤ 2^(eh−1), so the second term is below 2^62 and
// truncating it costs less than one unit). The error is below 2^−90 of
// V < 2^116, that is 2^26 units; the test widens V by 2^27.
func (z *Float) ddRound(y dd, k int64) bool {
	neg := y.hi < 0
	if neg {
		y.hi, y.lo = -y.hi, -y.lo
	}
	b := math.Float64bits(y.hi)
	be := int64(b >> 52)
	if be == 0 || be == 0x7ff {
		return false
	}
	H := b&(1<<52-1) | 1<<52
	eh := be - 1075 // y.hi = H·2^eh
	li := int64(math.Ldexp(y.lo, int(63-eh)))
	vh, vl := H>>1, H<<63 // H·2^63
	var c uint64
	if li >= 0 {
		vl, c = bits.Add64(vl, uint64(li), 0)
		vh += c
	} else {
		vl, c = bits.Sub64(vl, uint64(-li), 0)
		vh -= c
	}
	const D = 1 << 27
	lh, ll := vh, vl
	ll, c = bits.Sub64(ll, D, 0)
	lh -= c
	hh, hl := vh, vl
	hl, c = bits.Add64(hl, D, 0)
	hh += c
	n := bits.Len64(lh) + 64 // lh ≥ 2^51: V ≥ 2^115
	if bits.Len64(hh)+64 != n {
		return false
	}
	q := int(z.oddPrec())
	sh := uint(n - q) // in [61, 127]: n ≤ 117, 3 ≤ q ≤ 55
	var tl, th uint64
	var onBoundary bool // V−D is a q-bit value: the interval may hold one
	if sh < 64 {
		tl, th = lh<<(64-sh)|ll>>sh, hh<<(64-sh)|hl>>sh
		onBoundary = ll<<(64-sh) == 0
	} else {
		tl, th = lh>>(sh-64), hh>>(sh-64)
		onBoundary = ll == 0 && lh<<(128-sh) == 0
	}
	if tl != th || onBoundary {
		return false
	}
	z.round128(neg, 0, tl, eh-63+int64(sh)+k, true)
	return true
}

// ddArg returns x as a float64 if the double-double path applies: z's
// format has at most 53 bits and x is exactly a normal float64.
func (z *Float) ddArg(x *Float) (float64, bool) {
	if z.f.Prec() > 53 || !x.f.small() || x.form != finite {
		return 0, false
	}
	m := x.lo
	L := bits.Len64(m)
	top := x.exp + int64(L) - 1
	if L > 53 && m&(1<<(L-53)-1) != 0 || top < -1022 || top > 1023 {
		return 0, false
	}
	v := math.Ldexp(float64(m), int(x.exp))
	if x.neg {
		v = -v
	}
	ddTables.once.Do(setupDD)
	return v, true
}
