// Package bigint rounds big.Float values to big.Int: the floor, ceiling
// and nearest integer that the attacks of packages single and decode
// read their integer sums with.
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
