// Package bigint rounds big.Float values to big.Int: the floor, ceiling
// and nearest integer that the attacks of packages single and decode
// read their integer sums with; and exact scores (big.Rat) to a decimal
// grid, ties to even, the one rounding that fpa, defence, serve, platform
// and discrete release or predict a rounded score with.
package bigint

import "math/big"

// Round returns the integer nearest x, halves rounded up (⌊x + 1/2⌋).
func Round(x *big.Float) *big.Int {
	h := new(big.Float).SetPrec(x.Prec()).Add(x, big.NewFloat(0.5))
	return Floor(h)
}

// Floor returns ⌊x⌋.
func Floor(x *big.Float) *big.Int {
	i, acc := x.Int(nil)
	if acc == big.Above { // x < 0 truncated towards zero
		i.Sub(i, big.NewInt(1))
	}
	return i
}

// Ceil returns ⌈x⌉.
func Ceil(x *big.Float) *big.Int {
	i, acc := x.Int(nil)
	if acc == big.Below {
		i.Add(i, big.NewInt(1))
	}
	return i
}

// RoundHalfEven returns x rounded to the nearest integer multiple of
// 1/scale, ties to the even multiple, exactly (scale = 10^d rounds to d
// decimals as numpy.round and Python's round do on the exact value). It
// panics if scale ≤ 0.
func RoundHalfEven(x *big.Rat, scale *big.Int) *big.Rat {
	if scale.Sign() <= 0 {
		panic("bigint: RoundHalfEven scale ≤ 0")
	}
	// q = round(x·scale) with x·scale = num/den, den > 0.
	num := new(big.Int).Mul(x.Num(), scale)
	den := x.Denom()
	q, m := new(big.Int).DivMod(num, den, new(big.Int)) // Euclidean: 0 ≤ m < den, q = ⌊num/den⌋
	c := new(big.Int).Lsh(m, 1).Cmp(den)
	if c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	return new(big.Rat).SetFrac(q, scale)
}

// Pow10 returns 10^d for d ≥ 0.
func Pow10(d int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil)
}
