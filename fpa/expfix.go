package fpa

// This file holds the fast path of Exp for formats of 54 to expFixMax
// bits (binary128 and a 1,000-bit format among them): fixed-point
// arithmetic on big.Int with a ln 2 computed once, instead of apa.Exp,
// which recomputes its constants on every call. The result is accepted
// when its error interval decides the round-to-odd value at Prec+2 bits
// (Ziv's test [Ziv91]); otherwise the caller falls back to apa.

import (
	"math"
	"math/big"
	"sync"

	"github.com/labelinf/labelinf/apa"
)

// expFixMax bounds the formats of the fixed-point Exp: its ln 2 has
// expFixLn2Bits bits, enough for the working precision of q = Prec+2 ≤
// 2002 bits.
const (
	expFixMax     = 2000
	expFixLn2Bits = 2300
)

var expFixLn2 struct {
	once sync.Once
	v    *big.Float // ln 2 correctly rounded to expFixLn2Bits bits
}

// expFixArg reports whether the fixed-point Exp applies to z's format.
func (z *Float) expFixArg() bool {
	p := z.f.Prec()
	return p > 53 && p <= expFixMax
}

// setExpFix sets z to e^x for a finite x, 2^−(q+2) ≤ |x| < 2^30, if the
// fixed-point value decides the rounding; it reports false, leaving z
// alone, otherwise. With F = q+s+80 fraction bits (q = Prec+2, s ≈ √q):
//
//   - k = round(x/ln 2) from float64 (|k| < 2^31); r = x − k·ln 2 on F
//     bits, error below (|k|+2)·2^−F ≤ 2^(32−F); |r| < 0.36;
//   - t = r/2^s (truncated, error 2^−F), e^t = Σ t^n/n! by Taylor's
//     series until a term vanishes, each term truncated (2 units of 2^−F
//     at most, N terms; the tail after the last nonzero term is below
//     2^−F);
//   - e^r = (e^t)^(2^s) by s squarings, each doubling the relative error
//     and adding a unit: 2^s·(2N+4)·2^−F·e^0.36 in all;
//
// so the relative error of e^x = e^r·2^k is below 2^(32−F) +
// 2^(s+12−F) < 2^(s+40−F) = 2^−(q+40) for N < 2^9. The test accepts a
// radius of 2^−(q+32).
func (z *Float) setExpFix(x *Float) bool {
	xb, err := x.Big(nil)
	if err != nil {
		return false
	}
	q := int64(z.oddPrec())
	s := max(4, int64(math.Sqrt(float64(q))/1.5))
	F := q + s + 80
	expFixLn2.once.Do(func() {
		v := new(big.Float).SetPrec(expFixLn2Bits)
		mustApa(apa.Log(v, big.NewFloat(2)))
		expFixLn2.v = v
	})
	xf, _ := xb.Float64()
	k := int64(math.RoundToEven(xf / math.Ln2))
	// X = ⌊x·2^F⌋, L = ⌊ln 2·2^F⌋ (F < expFixLn2Bits).
	X, _ := new(big.Float).SetMantExp(xb, int(F)).Int(nil)
	L, _ := new(big.Float).SetMantExp(expFixLn2.v, int(F)).Int(nil)
	R := new(big.Int).Mul(L, big.NewInt(k))
	R.Sub(X, R) // r·2^F
	T := R.Rsh(R, uint(s))
	one := new(big.Int).Lsh(bigOne, uint(F))
	S := new(big.Int).Add(one, T)
	// Products and quotients go to a second integer and swap: big.Int
	// allocates when the result aliases an operand.
	term := new(big.Int).Set(T)
	tmp, nb, rem := new(big.Int), new(big.Int), new(big.Int)
	for n := int64(2); term.Sign() != 0; n++ {
		tmp.Mul(term, T)
		tmp.Rsh(tmp, uint(F))
		term.QuoRem(tmp, nb.SetInt64(n), rem)
		S.Add(S, term)
	}
	for range s {
		tmp.Mul(S, S)
		S.Rsh(tmp, uint(F))
	}
	// y = S·2^(k−F) with relative radius 2^−(q+32).
	y := new(big.Float).SetInt(S)
	d := new(big.Float).SetMantExp(y, -int(q+32))
	w := y.Prec() + uint(q) + 40
	lo := new(big.Float).SetPrec(w).Sub(y, d)
	hi := new(big.Float).SetPrec(w).Add(y, d)
	tl := new(big.Float).SetPrec(uint(q)).SetMode(big.ToZero).Set(lo)
	th := new(big.Float).SetPrec(uint(q)).SetMode(big.ToZero).Set(hi)
	if lo.Sign() <= 0 || tl.Cmp(th) != 0 || tl.Cmp(lo) == 0 {
		return false
	}
	z.setOdd(tl, true, k-F)
	return true
}
