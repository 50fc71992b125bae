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
	v    *big.Int // ⌊ln 2·2^expFixLn2Bits⌋
}

// expFixArg reports whether the fixed-point Exp applies to z's format.
func (z *Float) expFixArg() bool {
	p := z.f.Prec()
	return p > 53 && p <= expFixMax
}

// expFixLn2At returns ⌊ln 2·2^F⌋ (F < expFixLn2Bits).
func expFixLn2At(F int64) *big.Int {
	expFixLn2.once.Do(func() {
		v := new(big.Float).SetPrec(expFixLn2Bits + 64)
		mustApa(apa.Log(v, big.NewFloat(2)))
		expFixLn2.v, _ = v.SetMantExp(v, expFixLn2Bits).Int(nil)
	})
	return new(big.Int).Rsh(expFixLn2.v, uint(expFixLn2Bits-F))
}

// expCore returns S and k with e^(X·2^−F) = S·2^(k−F)·(1+ε), |ε| <
// 2^(s+40−F), s = expSquarings(F), for a fixed-point X with F < 2300
// fraction bits and |X·2^−F| < 2^30:
//
//   - k = round(x/ln 2) from float64 (|k| < 2^31); r = x − k·ln 2 on F
//     bits, error below (|k|+2)·2^−F ≤ 2^(32−F); |r| < 0.36;
//   - t = r/2^s (truncated, error 2^−F), e^t = Σ t^n/n! by Taylor's
//     series until a term vanishes, each term truncated and computed
//     with t cut to the bits that reach the units (3 units of 2^−F at
//     most, N < 2^9 terms; the tail after the last nonzero term is below
//     2^−F);
//   - e^r = (e^t)^(2^s) by s squarings, each doubling the relative error
//     and adding a unit: 2^s·(3N+4)·2^−F·e^0.36 in all;
//
// so |ε| < 2^(32−F) + 2^(s+12−F) < 2^(s+40−F).
func expCore(X *big.Int, F int64) (*big.Int, int64) {
	s := expSquarings(F)
	xf, _ := new(big.Float).SetMantExp(new(big.Float).SetInt(X), -int(F)).Float64()
	k := int64(math.RoundToEven(xf / math.Ln2))
	R := new(big.Int).Mul(expFixLn2At(F), big.NewInt(k))
	R.Sub(X, R) // r·2^F
	T := R.Rsh(R, uint(s))
	S := new(big.Int).Lsh(bigOne, uint(F))
	S.Add(S, T)
	// Products and quotients go to a second integer: big.Int allocates
	// when the result aliases an operand.
	term := new(big.Int).Set(T)
	tmp, nb, rem := new(big.Int), new(big.Int), new(big.Int)
	Tj := new(big.Int)
	for n := int64(2); term.Sign() != 0; n++ {
		// term·T·2^−F with T cut to the bits that reach the result's
		// units: j = F − len(term) − 4 dropped bits cost below 1/16 unit.
		j := max(0, F-int64(term.BitLen())-4)
		tmp.Mul(term, Tj.Rsh(T, uint(j)))
		tmp.Rsh(tmp, uint(F-j))
		term.QuoRem(tmp, nb.SetInt64(n), rem)
		S.Add(S, term)
	}
	for range s {
		tmp.Mul(S, S)
		S.Rsh(tmp, uint(F))
	}
	return S, k
}

// expSquarings is the number of halvings of expCore's reduced argument:
// about √F/1.5, which balances the Taylor terms against the squarings.
func expSquarings(F int64) int64 { return max(4, int64(math.Sqrt(float64(F))/1.5)) }

// setDecided sets z to the rounding of y·2^shift, a positive or negative
// approximation of an irrational value with a relative error below
// 2^−radBits, if that interval decides the round-to-odd value at q =
// Prec+2 bits (Ziv's test [Ziv91]); it reports false, leaving z alone,
// otherwise.
func (z *Float) setDecided(y *big.Float, shift int64, radBits int) bool {
	if y.Sign() == 0 {
		return false
	}
	q := z.oddPrec()
	d := new(big.Float).SetMantExp(y, -radBits)
	d.Abs(d)
	w := y.Prec() + uint(radBits) + 8
	lo := new(big.Float).SetPrec(w).Sub(y, d)
	hi := new(big.Float).SetPrec(w).Add(y, d)
	tl := new(big.Float).SetPrec(q).SetMode(big.ToZero).Set(lo)
	th := new(big.Float).SetPrec(q).SetMode(big.ToZero).Set(hi)
	if lo.Sign() != hi.Sign() || tl.Cmp(th) != 0 || tl.Cmp(lo) == 0 || tl.Cmp(hi) == 0 {
		return false
	}
	z.setOdd(tl, true, shift)
	return true
}

// setExpFix sets z to e^x for a finite x, 2^−(q+2) ≤ |x| < 2^30, q =
// Prec+2, if expCore's value decides the rounding; it reports false,
// leaving z alone, otherwise. F = q+s+80 fraction bits make expCore's
// error below 2^−(q+40); the test takes a radius of 2^−(q+32).
func (z *Float) setExpFix(x *Float) bool {
	xb, err := x.Big(nil)
	if err != nil {
		return false
	}
	q := int64(z.oddPrec())
	F := q + 80
	F += expSquarings(F + 40)
	X, _ := new(big.Float).SetMantExp(xb, int(F)).Int(nil) // truncation: 2^−F
	S, k := expCore(X, F)
	return z.setDecided(new(big.Float).SetInt(S), k-F, int(q+32))
}
