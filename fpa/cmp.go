package fpa

import "math/big"

// Cmp compares x and y and returns −1, 0 or +1 for x < y, x = y (−0 = +0)
// or x > y. It orders NaN below every number and equal to itself, a total
// order for sorting; use [Float.Compare] for IEEE's unordered NaN.
func (x *Float) Cmp(y *Float) int {
	c, ok := x.Compare(y)
	if ok {
		return c
	}
	switch {
	case x.form == nan && y.form == nan:
		return 0
	case x.form == nan:
		return -1
	}
	return 1
}

// Compare compares x and y as IEEE 754 does: it returns −1, 0 or +1 and
// ordered = true, or ordered = false if either is NaN. −0 equals +0.
func (x *Float) Compare(y *Float) (c int, ordered bool) {
	if x.form == nan || y.form == nan {
		return 0, false
	}
	xs, ys := x.Sign(), y.Sign()
	if xs != ys {
		if xs < ys {
			return -1, true
		}
		return 1, true
	}
	if xs == 0 {
		return 0, true
	}
	c = x.cmpAbs(y)
	if xs < 0 {
		c = -c
	}
	return c, true
}

// cmpAbs compares |x| and |y| for nonzero, non-NaN x and y.
func (x *Float) cmpAbs(y *Float) int {
	switch {
	case x.form == inf && y.form == inf:
		return 0
	case x.form == inf:
		return 1
	case y.form == inf:
		return -1
	}
	tx, ty := x.top(), y.top()
	switch {
	case tx < ty:
		return -1
	case tx > ty:
		return 1
	}
	a, b := x.mantBig(new(big.Int)), y.mantBig(new(big.Int))
	// Same leading exponent: align the significands.
	if d := x.exp - y.exp; d > 0 {
		a.Lsh(a, uint(d))
	} else if d < 0 {
		b.Lsh(b, uint(-d))
	}
	return a.Cmp(b)
}
