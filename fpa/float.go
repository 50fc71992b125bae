package fpa

import (
	"fmt"
	"math/big"
)

// form is the kind of a Float's value.
type form uint8

const (
	zero form = iota // ±0; the zero value of Float is +0
	finite
	inf
	nan
)

// A Float is a value of a binary floating-point [Format]: ±0, a normal or
// subnormal number, ±Inf or NaN. Operations follow math/big's grammar:
// z.Op(x, y) sets z to the correctly rounded result in z's format and
// rounding mode and returns z; aliasing is allowed. If z's format is the
// zero Format, z takes its first operand's format. z.Acc() reports the
// direction of the last rounding.
//
// Representation. A finite Float is (−1)^neg · mant · 2^exp where mant is
// an integer of at most Prec bits: a normal number has exactly Prec bits and
// exp = E−(Prec−1) with E in [Emin, Emax]; a subnormal has fewer and
// exp = Emin−(Prec−1). mant lives in lo when Prec ≤ 64 (the integer fast
// path) and in hi otherwise.
//
//	form    neg  exp  mant
//	zero    ±    -    -
//	finite  ±    ✓    ✓ (≠ 0)
//	inf     ±    -    -
//	nan     -    -    -
//
// NaN has no payload or sign here: every NaN is the same quiet NaN, and
// conversions to float64/float32 give the canonical quiet NaN.
//
// A Float must not be copied by value after use (it may share hi's words);
// use [Float.Set].
type Float struct {
	f    Format
	mode RoundingMode
	acc  big.Accuracy
	form form
	neg  bool
	exp  int64
	lo   uint64  // significand when f.small()
	hi   big.Int // significand otherwise
}

// New returns a new +0 in format f with rounding to nearest-even.
// It panics if f is not a valid Format (see [Format.Validate]); use
// [ParseFormat] or Validate on formats that come from users.
func New(f Format) *Float {
	if err := f.Validate(); err != nil {
		panic(err)
	}
	return &Float{f: f}
}

// Format returns x's format (the zero Format if x has none yet).
func (x *Float) Format() Format { return x.f }

// Mode returns x's rounding mode.
func (x *Float) Mode() RoundingMode { return x.mode }

// Acc returns the accuracy of the last operation that set x: Exact, Below
// (the stored value is below the exact result) or Above.
func (x *Float) Acc() big.Accuracy { return x.acc }

// SetFormat sets z's format to f, rounding z's value to it (in z's mode),
// and returns z. It panics if f is not a valid Format.
func (z *Float) SetFormat(f Format) *Float {
	if err := f.Validate(); err != nil {
		panic(err)
	}
	if z.f == f || z.f == (Format{}) {
		z.f, z.acc = f, big.Exact
		return z
	}
	var t Float
	t.Set(z)
	z.f = f
	return z.Set(&t)
}

// SetMode sets z's rounding mode and returns z; z's value is unchanged.
func (z *Float) SetMode(mode RoundingMode) *Float {
	z.mode = mode
	z.acc = big.Exact
	return z
}

// Sign returns −1, 0 or +1 for x < 0, x = ±0 or x > 0, and 0 for NaN.
func (x *Float) Sign() int {
	switch {
	case x.form == zero || x.form == nan:
		return 0
	case x.neg:
		return -1
	}
	return 1
}

// Signbit reports whether x is negative or −0 (false for NaN).
func (x *Float) Signbit() bool { return x.neg && x.form != nan }

// IsNaN reports whether x is a NaN.
func (x *Float) IsNaN() bool { return x.form == nan }

// IsInf reports whether x is +Inf or −Inf.
func (x *Float) IsInf() bool { return x.form == inf }

// IsZero reports whether x is ±0.
func (x *Float) IsZero() bool { return x.form == zero }

// IsFinite reports whether x is neither infinite nor NaN.
func (x *Float) IsFinite() bool { return x.form == zero || x.form == finite }

// IsSubnormal reports whether x is a nonzero number below the normal range.
func (x *Float) IsSubnormal() bool {
	return x.form == finite && x.exp == x.f.Emin()-int64(x.f.Prec())+1 && x.mantLen() < int(x.f.Prec())
}

// MantExp returns x's finite value as (−1)^neg · mant · 2^exp with mant a
// new integer. It returns ok = false for ±0, ±Inf and NaN.
func (x *Float) MantExp() (neg bool, mant *big.Int, exp int64, ok bool) {
	if x.form != finite {
		return false, nil, 0, false
	}
	return x.neg, x.mantBig(new(big.Int)), x.exp, true
}

// result fixes z's format before an operation: z keeps its own format, or
// takes the first valid one of its operands'. It panics if none has one
// (a Float that was never given a format is a programmer error).
func (z *Float) result(ops ...*Float) {
	if z.f != (Format{}) {
		return
	}
	for _, x := range ops {
		if x.f != (Format{}) {
			z.f = x.f
			return
		}
	}
	panic("fpa: operation on Floats without a format")
}

// Set sets z to x rounded to z's format (or x's format, if z has none) and
// returns z.
func (z *Float) Set(x *Float) *Float {
	z.result(x)
	if z == x {
		z.acc = big.Exact
		return z
	}
	return z.setSigned(x, x.neg)
}

// setSigned sets z to x's magnitude with sign neg, rounded to z's format.
// z != x unless z and x share the format.
func (z *Float) setSigned(x *Float, neg bool) *Float {
	if x.form != finite {
		z.form, z.neg, z.acc = x.form, neg, big.Exact
		if x.form == nan {
			z.neg = false
		}
		return z
	}
	if z.f == x.f {
		z.form, z.neg, z.exp, z.acc = finite, neg, x.exp, big.Exact
		if z.f.small() {
			z.lo = x.lo
		} else if z != x {
			z.hi.Set(&x.hi)
		}
		return z
	}
	if z.f.small() && x.f.small() {
		z.round128(neg, 0, x.lo, x.exp, false)
		return z
	}
	z.roundBig(neg, x.mantBig(new(big.Int)), x.exp, false)
	return z
}

// SetZero sets z to +0 or −0 and returns z.
func (z *Float) SetZero(neg bool) *Float {
	z.form, z.neg, z.acc = zero, neg, big.Exact
	return z
}

// SetInf sets z to +Inf or −Inf and returns z.
func (z *Float) SetInf(neg bool) *Float {
	z.form, z.neg, z.acc = inf, neg, big.Exact
	return z
}

// SetNaN sets z to NaN and returns z.
func (z *Float) SetNaN() *Float {
	z.form, z.neg, z.acc = nan, false, big.Exact
	return z
}

// SetInt sets z to x rounded to z's format and returns z. It panics if z
// has no format.
func (z *Float) SetInt(x *big.Int) *Float {
	z.result()
	if x.Sign() == 0 {
		return z.SetZero(false)
	}
	m := new(big.Int).Abs(x)
	z.roundBig(x.Sign() < 0, m, 0, false)
	return z
}

// SetInt64 sets z to x rounded to z's format and returns z. It panics if z
// has no format.
func (z *Float) SetInt64(x int64) *Float {
	return z.SetInt(big.NewInt(x))
}

// SetRat sets z to x rounded to z's format and returns z. It panics if z
// has no format.
func (z *Float) SetRat(x *big.Rat) *Float {
	z.result()
	if x.Sign() == 0 {
		return z.SetZero(false)
	}
	num := new(big.Int).Abs(x.Num())
	z.quoInts(x.Sign() < 0, num, 0, x.Denom(), 0)
	return z
}

// SetBig sets z to x rounded to z's format and returns z; a z without a
// format gets the smallest format holding x's precision with binary64's
// exponent range widened to big.Float's (ExpBits 33).
func (z *Float) SetBig(x *big.Float) *Float {
	if z.f == (Format{}) {
		z.f = Format{ExpBits: 33, FracBits: max(x.Prec(), 2) - 1}
	}
	switch {
	case x.IsInf():
		return z.SetInf(x.Signbit())
	case x.Sign() == 0:
		return z.SetZero(x.Signbit())
	}
	m, e := bigParts(x)
	z.roundBig(x.Signbit(), m, e, false)
	return z
}

// bigParts returns |x| = m·2^e for a finite nonzero x.
func bigParts(x *big.Float) (*big.Int, int64) {
	prec := x.MinPrec()
	exp := x.MantExp(nil)
	t := new(big.Float).SetPrec(prec).SetMantExp(x, int(prec)-exp)
	t.Abs(t)
	m, _ := t.Int(nil)
	return m, int64(exp) - int64(prec)
}

// Big sets z to x's exact value (z's precision is raised to x's if it is
// lower) and returns z. It returns an error for NaN and for values outside
// big.Float's exponent range (formats with more than 31 exponent bits).
func (x *Float) Big(z *big.Float) (*big.Float, error) {
	if z == nil {
		z = new(big.Float)
	}
	switch x.form {
	case nan:
		return z, fmt.Errorf("fpa: NaN has no big.Float value")
	case inf:
		return z.SetInf(x.neg), nil
	case zero:
		z.SetInt64(0)
		if x.neg {
			z.Neg(z)
		}
		return z, nil
	}
	top := x.exp + int64(x.mantLen())
	if top > big.MaxExp || x.exp < big.MinExp {
		return z, fmt.Errorf("fpa: %s outside big.Float's exponent range", x.Text('x', -1))
	}
	if z.Prec() < x.f.Prec() {
		z.SetPrec(x.f.Prec())
	}
	z.SetInt(x.mantBig(new(big.Int)))
	z.SetMantExp(z, int(x.exp))
	if x.neg {
		z.Neg(z)
	}
	return z, nil
}

// mantLen returns the bit length of x's significand.
func (x *Float) mantLen() int {
	if x.f.small() {
		return bitLen64(x.lo)
	}
	return x.hi.BitLen()
}

// mantBig returns x's significand in t (or hi itself when large; do not
// modify the result then).
func (x *Float) mantBig(t *big.Int) *big.Int {
	if x.f.small() {
		return t.SetUint64(x.lo)
	}
	return t.Set(&x.hi)
}

// String formats x as x.Text('g', 10) does.
func (x *Float) String() string { return x.Text('g', 10) }
