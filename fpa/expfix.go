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

// logFixMax bounds the formats of the Newton logarithm (its working
// precision must stay below expFixLn2Bits).
const logFixMax = expFixMax

// logFixArg reports whether the Newton logarithm applies to z's format:
// wider than the ln128 path, at most logFixMax bits.
func (z *Float) logFixArg() bool {
	p := z.f.Prec()
	return p > ln128Max && p <= logFixMax
}

// setLogFix sets z to ln v for an exact v > 0 whose logarithm is an
// irrational number with |ln v| ≥ 2^−20, if the computed value decides
// the rounding; it reports false, leaving z alone, otherwise.
//
// Newton's iteration y ← y + v·e^(−y) − 1 (quadratic) runs from a float64
// seed at precisions that about double up to F = q+s+100 bits; only the
// last step needs a bound. There, with E = e^(−y)(1+ε) from expCore (|ε| <
// 2^(s+40−F)) and δ = v·E − 1 truncated to F bits, ln v = y + ln(1+δ')
// for the exact δ' = v·e^(−y) − 1, |δ − δ'| < 2^(s+42−F) (v·e^(−y) < 2);
// ln(1+δ) = δ − δ²/2 + δ³/3 with |δ| < 2^−(F/3) (checked) leaves
// δ⁴/4 < 2^(2−4F/3), and the truncations add a few units of 2^−F. So
// |y' − ln v| < 2^(s+43−F), below 2^(s+63−F) = 2^−(q+37) relative to
// |ln v| ≥ 2^−20; the test takes a radius of 2^−(q+32).
func (z *Float) setLogFix(v *big.Float) bool {
	q := int64(z.oddPrec())
	F := q + 100
	F += expSquarings(F + 40)
	vm, ve := bigParts(v) // v = vm·2^ve
	mant := new(big.Float)
	ev := v.MantExp(mant) // v = mant·2^ev, mant in [1/2, 1)
	mf, _ := mant.Float64()
	y0 := math.Log(mf) + float64(ev)*math.Ln2
	if math.Abs(y0) < 0x1p-19 {
		return false
	}
	var precs []int64
	for p := F; ; p = p/2 + 16 {
		precs = append(precs, p)
		if p < 120 {
			break
		}
	}
	Y, _ := new(big.Float).SetMantExp(big.NewFloat(y0), int(precs[len(precs)-1])).Int(nil)
	prevF := precs[len(precs)-1]
	D, D2, P := new(big.Int), new(big.Int), new(big.Int)
	for i := len(precs) - 1; i >= 0; i-- {
		Fi := precs[i]
		Y.Lsh(Y, uint(Fi-prevF))
		prevF = Fi
		S, k := expCore(P.Neg(Y), Fi) // e^(−y) = S·2^(k−Fi)
		// D = δ·2^Fi = vm·S·2^(ve+k) − 2^Fi.
		D.Mul(vm, S)
		if sh := ve + k; sh >= 0 {
			D.Lsh(D, uint(sh))
		} else {
			D.Rsh(D, uint(-sh))
		}
		D.Sub(D, P.Lsh(bigOne, uint(Fi)))
		if i == 0 && D.BitLen() > int(Fi-Fi/3) {
			return false // the earlier steps did not converge as expected
		}
		// Y += δ − δ²/2 + δ³/3 (the cube only matters in the last step).
		Y.Add(Y, D)
		D2.Mul(D, D)
		D2.Rsh(D2, uint(Fi))
		P.Rsh(D2, 1)
		Y.Sub(Y, P)
		P.Mul(D2, D)
		P.Rsh(P, uint(Fi))
		Y.Add(Y, P.Quo(P, big.NewInt(3)))
	}
	return z.setDecided(new(big.Float).SetInt(Y), -F, int(q+32))
}
