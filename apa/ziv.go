// This file implements correct rounding by Ziv's strategy.

package apa

import (
	"math/big"
)

// approxFunc returns an approximation y of a real value v at working
// precision wp with |y − v| < 2^errExp (strictly). Values outside big.Float's
// range are detected when y is converted, and reported as ErrRange.
type approxFunc func(wp uint) (y *xf, errExp int64)

// maxZivPrec bounds the working precision of the Ziv loop. The functions of
// this package are transcendental away from the points they special-case
// (Lindemann–Weierstrass), so the loop ends; the bound turns a bug into an
// error instead of an endless loop. It is half of big.MaxPrec (2^32 − 1),
// so that the loop's step wp + wp/2 + 16 cannot wrap a 32-bit uint.
const maxZivPrec = big.MaxPrec / 2

// roundZiv sets z to v rounded to prec bits in mode, where v is given by f,
// and returns the accuracy of z relative to v. Following [Ziv91] and [MCA,
// §4.10], it computes an approximation with a rigorous error bound, rounds
// both ends of the error interval and accepts when they agree and the
// rounded value lies outside the interval (so the direction of the error is
// known too); otherwise it raises the working precision by half.
func roundZiv(z *big.Float, prec uint, mode big.RoundingMode, wp uint, f approxFunc) (big.Accuracy, error) {
	var lo, hi, e, y xf
	var flo, fhi big.Float
	for ; wp < maxZivPrec; wp += wp/2 + 16 {
		yy, ee := f(wp)
		y.set(yy)
		e.m.SetInt64(1)
		e.e = ee
		lo.sub(&y, &e, 0)
		hi.add(&y, &e, 0)
		if _, ok := lo.float(&flo); !ok {
			return big.Exact, ErrRange
		}
		if _, ok := hi.float(&fhi); !ok {
			return big.Exact, ErrRange
		}
		var rl, rh big.Float
		rl.SetPrec(prec).SetMode(mode).Set(&flo)
		rh.SetPrec(prec).SetMode(mode).Set(&fhi)
		if rl.Cmp(&rh) != 0 || rl.IsInf() {
			continue
		}
		var acc big.Accuracy
		switch {
		case rl.Cmp(&flo) <= 0:
			acc = big.Below
		case rl.Cmp(&fhi) >= 0:
			acc = big.Above
		default:
			continue
		}
		setWithAcc(z, &rl, acc, prec, mode)
		return acc, nil
	}
	return big.Exact, errNoConvergence
}

// setWithAcc sets z to the prec-bit value r, which is the correct rounding
// in mode of a value v ≠ r, so that z.Acc() reports acc (Below: r < v). big.Float
// has no way to set the accuracy, so z is set by rounding r nudged toward v
// by 2^-10 ulp: a point strictly between r and v's side of the next float,
// which rounds to r in every mode in which r can be v's rounding.
func setWithAcc(z, r *big.Float, acc big.Accuracy, prec uint, mode big.RoundingMode) {
	var v, t big.Float
	v.SetPrec(prec + 16).Set(r)
	t.SetPrec(1).SetMantExp(big.NewFloat(1), r.MantExp(nil)-int(prec)-10)
	if acc == big.Below {
		v.Add(&v, &t)
	} else {
		v.Sub(&v, &t)
	}
	z.SetMode(mode)
	z.SetPrec(prec)
	z.Set(&v)
}
