package fpa

// This file holds the fast path of Log and Log1p for formats of 54 to
// ln128Max bits (binary128 among them): internal/ln128's logarithm, whose
// relative error is below 2^−128, accepted when the interval of relative
// radius 2^−126 around it decides the round-to-odd value at Prec+2 bits
// (Ziv's test [Ziv91]); otherwise the caller falls back to apa.

import (
	"math/big"

	"github.com/labelinf/labelinf/internal/ln128"
)

// ln128Max bounds the formats that take the ln128 path: q = Prec+2 ≤ 122
// bits leaves four of the 126 known bits for the test, which then fails
// about once in 2^4.
const ln128Max = 120

// ln128Arg reports whether the ln128 path applies to z's format.
func (z *Float) ln128Arg() bool {
	p := z.f.Prec()
	return p > 53 && p <= ln128Max
}

// setLn128 sets z to ln v, v > 0 and v ≠ 1 (an irrational result), if
// ln128's value decides the rounding; it reports false, leaving z alone,
// otherwise.
func (z *Float) setLn128(v *big.Float) bool {
	y := ln128.Log(new(big.Float), v)
	if y == nil || y.Sign() == 0 {
		return false
	}
	q := z.oddPrec()
	w := y.Prec() + 130 // y ± y·2^−126 exactly
	d := new(big.Float).SetMantExp(y, -126)
	d.Abs(d)
	lo := new(big.Float).SetPrec(w).Sub(y, d)
	hi := new(big.Float).SetPrec(w).Add(y, d)
	tl := new(big.Float).SetPrec(q).SetMode(big.ToZero).Set(lo)
	th := new(big.Float).SetPrec(q).SetMode(big.ToZero).Set(hi)
	if lo.Sign() != hi.Sign() || tl.Cmp(th) != 0 || tl.Cmp(lo) == 0 || tl.Cmp(hi) == 0 {
		return false
	}
	z.setOdd(tl, true, 0)
	return true
}
