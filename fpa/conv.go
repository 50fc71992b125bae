package fpa

// This file implements conversions: float64/float32, encodings, and
// decimal and hexadecimal strings.

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// SetFloat64 sets z to x rounded to z's format (binary64 if z has none)
// and returns z. A NaN x gives NaN.
func (z *Float) SetFloat64(x float64) *Float {
	if z.f == (Format{}) {
		z.f = Binary64
	}
	return z.setIEEE(math.Float64bits(x), Binary64)
}

// SetFloat32 sets z to x rounded to z's format (binary32 if z has none)
// and returns z.
func (z *Float) SetFloat32(x float32) *Float {
	if z.f == (Format{}) {
		z.f = Binary32
	}
	return z.setIEEE(uint64(math.Float32bits(x)), Binary32)
}

// SetBits sets z to the value encoded by b in z's format (1 sign bit,
// ExpBits biased exponent bits, FracBits fraction bits, IEEE 754 §3.4)
// and returns z. It returns an error if the format is wider than 64 bits
// or b has bits above the encoding.
func (z *Float) SetBits(b uint64) (*Float, error) {
	z.result()
	if z.f.Width() > 64 {
		return z, fmt.Errorf("fpa: %v is %d bits wide; SetBits takes at most 64", z.f, z.f.Width())
	}
	if z.f.Width() < 64 && b>>z.f.Width() != 0 {
		return z, fmt.Errorf("fpa: %#x has bits above %v's %d", b, z.f, z.f.Width())
	}
	return z.setIEEE(b, z.f), nil
}

// setIEEE sets z to the value of the encoding b in format f (Width ≤ 64),
// rounded to z's format.
func (z *Float) setIEEE(b uint64, f Format) *Float {
	m := f.FracBits
	frac := b & (1<<m - 1)
	be := b >> m & (1<<f.ExpBits - 1)
	neg := b>>(m+f.ExpBits) != 0
	switch {
	case be == 1<<f.ExpBits-1 && frac != 0:
		return z.SetNaN()
	case be == 1<<f.ExpBits-1:
		return z.SetInf(neg)
	case be == 0 && frac == 0:
		return z.SetZero(neg)
	}
	e := f.Emin() - int64(m) // subnormal: frac·2^(Emin−m)
	if be != 0 {
		frac |= 1 << m
		e = int64(be) - f.Emax() - int64(m)
	}
	if z.f == f {
		z.form, z.neg, z.exp, z.lo, z.acc = finite, neg, e, frac, big.Exact
		return z
	}
	if z.f.small() {
		z.round128(neg, 0, frac, e, false)
	} else {
		z.roundBig(neg, new(big.Int).SetUint64(frac), e, false)
	}
	return z
}

// Bits returns x's encoding in its format (see [Float.SetBits]). NaN is
// encoded as the quiet NaN with only the top fraction bit set. It returns
// an error if the format is wider than 64 bits.
func (x *Float) Bits() (uint64, error) {
	f := x.f
	if f.Width() > 64 || f == (Format{}) {
		return 0, fmt.Errorf("fpa: %v is %d bits wide; Bits gives at most 64", f, f.Width())
	}
	m := f.FracBits
	var sign uint64
	if x.neg {
		sign = 1 << (m + f.ExpBits)
	}
	allOnes := uint64(1)<<f.ExpBits - 1
	switch x.form {
	case zero:
		return sign, nil
	case inf:
		return sign | allOnes<<m, nil
	case nan:
		return allOnes<<m | 1<<(m-1), nil
	}
	if x.IsSubnormal() {
		return sign | x.lo, nil
	}
	E := x.exp + int64(m)
	return sign | uint64(E+f.Emax())<<m | x.lo&(1<<m-1), nil
}

// Float64 returns x rounded to binary64 in x's rounding mode, and the
// accuracy of that rounding. NaN gives the canonical quiet NaN.
func (x *Float) Float64() (float64, big.Accuracy) {
	var t Float
	t.f, t.mode = Binary64, x.mode
	t.Set(x)
	b, _ := t.Bits()
	return math.Float64frombits(b), t.acc
}

// Float32 returns x rounded to binary32 in x's rounding mode, and the
// accuracy of that rounding.
func (x *Float) Float32() (float32, big.Accuracy) {
	var t Float
	t.f, t.mode = Binary32, x.mode
	t.Set(x)
	b, _ := t.Bits()
	return math.Float32frombits(uint32(b)), t.acc
}

// ErrSyntax is returned (wrapped) by [Parse] for malformed numbers.
var ErrSyntax = errors.New("invalid syntax")

// maxDecExp bounds the decimal exponent Parse evaluates exactly; beyond it
// only certain overflow or underflow is accepted (10^(4·10^5) already has
// 1.3 Mbit, more than the widest format's significand).
const maxDecExp = 400_000

// maxBinExp bounds a hexadecimal exponent: formats reach 2^(2^61).
const maxBinExp = 1 << 62

// Parse returns s as a Float of format f rounded in mode. s is a decimal
// ("-1.25e-3"), a hexadecimal float ("0x1.8p+01", as printed by Go's %x;
// the p exponent may be omitted), "inf"/"infinity" with an optional sign,
// or "nan", case-insensitively. Errors wrap [ErrSyntax], or report a
// decimal exponent too large to evaluate.
func Parse(s string, f Format, mode RoundingMode) (*Float, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	z := &Float{f: f, mode: mode}
	_, err := z.SetString(s)
	return z, err
}

// SetString sets z to the value of s (see [Parse]) rounded to z's format
// and mode, and returns z. On error z is unchanged.
func (z *Float) SetString(s string) (*Float, error) {
	z.result()
	t := strings.ToLower(strings.TrimSpace(s))
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	bad := func(why string) error {
		return fmt.Errorf("fpa: parsing %q: %w (%s)", s, ErrSyntax, why)
	}
	switch t {
	case "inf", "infinity":
		return z.SetInf(neg), nil
	case "nan":
		return z.SetNaN(), nil
	case "":
		return z, bad("no digits")
	}
	base, expChar := 10, byte('e')
	if rest, ok := strings.CutPrefix(t, "0x"); ok {
		t, base, expChar = rest, 16, 'p'
	}
	mant, expPart, hasExp := t, "", false
	if i := strings.IndexByte(t, expChar); i >= 0 {
		mant, expPart, hasExp = t[:i], t[i+1:], true
	}
	var exp int64
	if hasExp {
		v, err := strconv.ParseInt(expPart, 10, 64)
		if err != nil || v > maxBinExp || v < -maxBinExp {
			return z, bad("exponent")
		}
		exp = v
	}
	intPart, fracPart, _ := strings.Cut(mant, ".")
	digits := intPart + fracPart
	if digits == "" || strings.Count(mant, ".") > 1 {
		return z, bad("no digits")
	}
	D, ok := new(big.Int).SetString(digits, base)
	if !ok || strings.ContainsAny(digits, "+-_") {
		return z, bad("digits")
	}
	if D.Sign() == 0 {
		return z.SetZero(neg), nil
	}
	if base == 16 {
		z.roundBig(neg, D, exp-4*int64(len(fracPart)), false)
		return z, nil
	}
	e10 := exp - int64(len(fracPart))
	if e10 > maxDecExp || e10 < -maxDecExp {
		// Only a certain overflow or underflow is decided: |x| lies in
		// [10^(e10+nd−1), 10^(e10+nd)), 10 < 2^3.33 < 2^4.
		nd := int64(len(strings.TrimLeft(digits, "0")))
		p := int64(z.f.Prec())
		switch {
		case e10 > 0 && 3*(e10+nd-1) > z.f.Emax()+1:
			z.overflow(neg)
			return z, nil
		case e10 < 0 && 4*(e10+nd) < z.f.Emin()-p-2:
			z.roundBig(neg, big.NewInt(1), z.f.Emin()-p-4, false)
			return z, nil
		}
		return z, fmt.Errorf("fpa: parsing %q: decimal exponent beyond ±%d is not evaluated for %v", s, maxDecExp, z.f)
	}
	if e10 >= 0 {
		D.Mul(D, new(big.Int).Exp(big.NewInt(10), big.NewInt(e10), nil))
		z.roundBig(neg, D, 0, false)
		return z, nil
	}
	z.quoInts(neg, D, 0, new(big.Int).Exp(big.NewInt(10), big.NewInt(-e10), nil), 0)
	return z, nil
}

// Text formats x. fmt 'x' gives an exact hexadecimal float in Go's %x form
// for any format: "0x1.8p+01", shortest (trailing zeros dropped), prec
// ignored; subnormals are shown normalized, as Go does. 'g', 'e' and 'f'
// give decimal digits as big.Float.Text does (prec −1: the fewest that
// identify x at its precision), falling back to 'x' when x's exponent is
// beyond big.Float's range. Special values are "inf", "-inf", "nan",
// "0x0p+00" and "-0x0p+00" (or "0", "-0" in decimal).
func (x *Float) Text(fmt byte, prec int) string {
	switch x.form {
	case nan:
		return "nan"
	case inf:
		if x.neg {
			return "-inf"
		}
		return "inf"
	}
	if fmt != 'x' && fmt != 'X' {
		if b, err := x.Big(nil); err == nil {
			return b.Text(fmt, prec)
		}
	}
	var sb strings.Builder
	if x.neg {
		sb.WriteByte('-')
	}
	if x.form == zero {
		sb.WriteString("0x0p+00")
		return sb.String()
	}
	m := x.mantBig(new(big.Int))
	L := int64(m.BitLen())
	E := x.exp + L - 1
	sb.WriteString("0x1")
	if L > 1 {
		frac := m.SetBit(m, int(L-1), 0)
		nd := (L - 1 + 3) / 4
		frac.Lsh(frac, uint(4*nd-(L-1)))
		if frac.Sign() != 0 {
			tz := frac.TrailingZeroBits() / 4
			frac.Rsh(frac, tz*4)
			h := frac.Text(16)
			sb.WriteByte('.')
			sb.WriteString(strings.Repeat("0", int(nd)-int(tz)-len(h)))
			sb.WriteString(h)
		}
	}
	sb.WriteByte('p')
	if E >= 0 {
		sb.WriteByte('+')
	} else {
		sb.WriteByte('-')
	}
	ae := uint64(E)
	if E < 0 {
		ae = uint64(-E)
	}
	if ae < 10 {
		sb.WriteByte('0')
	}
	sb.WriteString(strconv.FormatUint(ae, 10))
	return sb.String()
}
