// This file implements the double-double sum [Dek71] that KList's decoding
// reads a top candidate's residual with.

package decode

import (
	"math"
	"math/big"
)

// ddSum is a double-double sum h + l [Dek71]: each addition's rounding
// error (TwoSum, [Knu97] 4.2.2 Theorem B) is kept in l, so that n
// additions stay within about n²·2^−106 of the exact sum's magnitudes.
type ddSum struct{ h, l float64 }

// sub subtracts xh + xl.
func (s *ddSum) sub(xh, xl float64) {
	x := -xh
	h := s.h + x
	bb := h - s.h
	e := (s.h - (h - bb)) + (x - bb)
	s.h, s.l = h, s.l+e-xl
}

// ddSplit returns x as h + l, h and l float64 (h the nearest to x): off
// by at most 2^−106·|x| where x has more than 106 bits.
func ddSplit(x *big.Float) (h, l float64) {
	h, _ = x.Float64()
	if math.IsInf(h, 0) {
		return h, 0
	}
	r := new(big.Float).SetPrec(x.Prec()+64).Sub(x, new(big.Float).SetFloat64(h))
	l, _ = r.Float64()
	return h, l
}
