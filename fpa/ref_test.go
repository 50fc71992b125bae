package fpa

// The test oracle: exact rational arithmetic (big.Rat) and a rounding
// routine written independently of round.go, by comparisons of rationals
// instead of bit manipulation. big.Float is not a subnormal-aware oracle,
// so it is not used here.

import (
	"math/big"
)

// refValue is an oracle result: a special form or an exact rational.
type refValue struct {
	form form
	neg  bool
	r    *big.Rat // |value| when finite
}

func pow2Rat(e int64) *big.Rat {
	if e >= 0 {
		return new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e)))
	}
	return new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), uint(-e)))
}

// floorLog2 returns ⌊log2 a⌋ for a > 0.
func floorLog2(a *big.Rat) int64 {
	e := int64(a.Num().BitLen()) - int64(a.Denom().BitLen())
	for a.Cmp(pow2Rat(e)) < 0 {
		e--
	}
	for a.Cmp(pow2Rat(e+1)) >= 0 {
		e++
	}
	return e
}

// refRound rounds the exact value (−1)^neg·a to f in mode, by the
// definition of IEEE 754 rounding: the ulp at a's binade (never below the
// subnormal ulp), the floor of a/ulp, the remainder compared with ½.
// a = 0 is an exact zero of sign neg.
func refRound(neg bool, a *big.Rat, f Format, mode RoundingMode) refValue {
	if a.Sign() == 0 {
		return refValue{form: zero, neg: neg}
	}
	p := int64(f.Prec())
	q := max(floorLog2(a), f.Emin()) - (p - 1)
	s := new(big.Rat).Mul(a, pow2Rat(-q))
	fl := new(big.Int).Quo(s.Num(), s.Denom())
	rem := new(big.Rat).Sub(s, new(big.Rat).SetInt(fl))
	half := big.NewRat(1, 2)
	c := rem.Cmp(half)
	var up bool
	inexact := rem.Sign() != 0
	switch mode {
	case ToNearestEven:
		up = c > 0 || (c == 0 && fl.Bit(0) == 1)
	case ToNearestAway:
		up = c >= 0
	case ToZero:
	case AwayFromZero:
		up = inexact
	case ToPositiveInf:
		up = inexact && !neg
	case ToNegativeInf:
		up = inexact && neg
	}
	if up {
		fl.Add(fl, big.NewInt(1))
	}
	v := new(big.Rat).Mul(new(big.Rat).SetInt(fl), pow2Rat(q))
	if v.Cmp(pow2Rat(f.Emax()+1)) >= 0 {
		toInf := mode == ToNearestEven || mode == ToNearestAway || mode == AwayFromZero ||
			(mode == ToPositiveInf && !neg) || (mode == ToNegativeInf && neg)
		if toInf {
			return refValue{form: inf, neg: neg}
		}
		max := new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(p)), big.NewInt(1))), pow2Rat(f.Emax()-p+1))
		return refValue{form: finite, neg: neg, r: max}
	}
	if v.Sign() == 0 {
		return refValue{form: zero, neg: neg}
	}
	return refValue{form: finite, neg: neg, r: v}
}

// ratOf returns x's exact value (x finite, small exponent range).
func ratOf(x *Float) *big.Rat {
	if x.form == zero {
		return new(big.Rat)
	}
	r := new(big.Rat).SetInt(x.mantBig(new(big.Int)))
	r.Mul(r, pow2Rat(x.exp))
	if x.neg {
		r.Neg(r)
	}
	return r
}

// same reports whether x equals the oracle value (sign of zero included).
func (v refValue) same(x *Float) bool {
	if v.form != x.form {
		return false
	}
	switch v.form {
	case nan:
		return true
	case zero, inf:
		return v.neg == x.neg
	}
	return v.neg == x.neg && new(big.Rat).Abs(ratOf(x)).Cmp(v.r) == 0
}

func (v refValue) String() string {
	s := "+"
	if v.neg {
		s = "-"
	}
	switch v.form {
	case nan:
		return "nan"
	case inf:
		return s + "inf"
	case zero:
		return s + "0"
	}
	return s + v.r.RatString()
}

// signedRat returns a finite Float's value as (neg, |x|).
func signedRat(x *Float) (bool, *big.Rat) {
	return x.neg, new(big.Rat).Abs(ratOf(x))
}

// refOp is the oracle for op in {add, sub, mul, quo, sqrt, fma} on the
// special-value rules of IEEE 754 and exact rationals otherwise.
func refOp(op string, f Format, mode RoundingMode, xs ...*Float) refValue {
	arity := map[string]int{"sqrt": 1, "fma": 3}[op]
	if arity == 0 {
		arity = 2
	}
	for _, x := range xs[:arity] {
		if x.form == nan {
			return refValue{form: nan}
		}
	}
	x := xs[0]
	zeroNeg := mode == ToNegativeInf
	switch op {
	case "sqrt":
		switch {
		case x.form == zero:
			return refValue{form: zero, neg: x.neg}
		case x.neg:
			return refValue{form: nan}
		case x.form == inf:
			return refValue{form: inf}
		}
		// √a bracketed to 2^−(p+64) relative by an integer root: below
		// the round bit by far, so the floor plus a sticky quarter-unit
		// rounds like √a (which is irrational or exact).
		_, a := signedRat(x)
		k := int64(f.Prec()) + 64 - floorLog2(a)/2
		s := new(big.Rat).Mul(a, pow2Rat(2*k))
		n := new(big.Int).Quo(s.Num(), s.Denom())
		r := new(big.Int).Sqrt(n)
		exact := new(big.Rat).SetInt(new(big.Int).Mul(r, r)).Cmp(s) == 0
		v := new(big.Rat).SetInt(r)
		if !exact {
			v.Add(v, big.NewRat(1, 4))
		}
		return refRound(false, v.Mul(v, pow2Rat(-k)), f, mode)
	case "add", "sub":
		y := xs[1]
		yneg := y.neg != (op == "sub")
		switch {
		case x.form == inf && y.form == inf:
			if x.neg != yneg {
				return refValue{form: nan}
			}
			return refValue{form: inf, neg: x.neg}
		case x.form == inf:
			return refValue{form: inf, neg: x.neg}
		case y.form == inf:
			return refValue{form: inf, neg: yneg}
		case x.form == zero && y.form == zero:
			return refValue{form: zero, neg: (x.neg && yneg) || (x.neg != yneg && zeroNeg)}
		}
		s := ratOf(x)
		t := ratOf(y)
		if op == "sub" {
			t.Neg(t)
		}
		if y.form == zero {
			return refRound(x.neg, new(big.Rat).Abs(s), f, mode)
		}
		if x.form == zero {
			return refRound(yneg, new(big.Rat).Abs(t), f, mode)
		}
		s.Add(s, t)
		if s.Sign() == 0 {
			return refValue{form: zero, neg: zeroNeg}
		}
		return refRound(s.Sign() < 0, new(big.Rat).Abs(s), f, mode)
	case "mul", "quo":
		y := xs[1]
		neg := x.neg != y.neg
		switch {
		case op == "mul" && ((x.form == inf && y.form == zero) || (x.form == zero && y.form == inf)),
			op == "quo" && ((x.form == zero && y.form == zero) || (x.form == inf && y.form == inf)):
			return refValue{form: nan}
		case x.form == inf, op == "mul" && y.form == inf, op == "quo" && y.form == zero:
			return refValue{form: inf, neg: neg}
		case x.form == zero, y.form == zero, y.form == inf:
			return refValue{form: zero, neg: neg}
		}
		s := new(big.Rat).Abs(ratOf(x))
		t := new(big.Rat).Abs(ratOf(y))
		if op == "mul" {
			return refRound(neg, s.Mul(s, t), f, mode)
		}
		return refRound(neg, s.Quo(s, t), f, mode)
	case "fma":
		y, w := xs[1], xs[2]
		pneg := x.neg != y.neg
		switch {
		case (x.form == inf && y.form == zero) || (x.form == zero && y.form == inf):
			return refValue{form: nan}
		case x.form == inf || y.form == inf:
			if w.form == inf && w.neg != pneg {
				return refValue{form: nan}
			}
			return refValue{form: inf, neg: pneg}
		case w.form == inf:
			return refValue{form: inf, neg: w.neg}
		}
		prod := new(big.Rat).Mul(ratOf(x), ratOf(y))
		if prod.Sign() == 0 {
			if w.form == zero {
				return refValue{form: zero, neg: (pneg && w.neg) || (pneg != w.neg && zeroNeg)}
			}
			return refRound(w.neg, new(big.Rat).Abs(ratOf(w)), f, mode)
		}
		s := prod.Add(prod, ratOf(w))
		if s.Sign() == 0 {
			return refValue{form: zero, neg: zeroNeg}
		}
		return refRound(s.Sign() < 0, new(big.Rat).Abs(s), f, mode)
	}
	panic("refOp: unknown op " + op)
}

// apply runs op on the emulator.
func apply(op string, z *Float, xs ...*Float) *Float {
	switch op {
	case "add":
		return z.Add(xs[0], xs[1])
	case "sub":
		return z.Sub(xs[0], xs[1])
	case "mul":
		return z.Mul(xs[0], xs[1])
	case "quo":
		return z.Quo(xs[0], xs[1])
	case "sqrt":
		return z.Sqrt(xs[0])
	case "fma":
		return z.FMA(xs[0], xs[1], xs[2])
	}
	panic("apply: unknown op " + op)
}

var allModes = []RoundingMode{ToNearestEven, ToNearestAway, ToZero, AwayFromZero, ToNegativeInf, ToPositiveInf}
