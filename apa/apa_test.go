package apa

import (
	"errors"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/ALTree/bigfloat"
)

// refLn2 returns ln 2 truncated to n fraction bits, as an integer, by the
// series ln 2 = Σ_{k≥1} 1/(k·2^k), which is independent of the Machin-like
// formula used by computeLn2. Each term is truncated, so the result is low
// by less than (number of terms) units.
func refLn2(n uint) *big.Int {
	one := new(big.Int).Lsh(big.NewInt(1), n+32)
	sum := new(big.Int)
	var t big.Int
	for k := int64(1); k <= int64(n)+40; k++ {
		t.Rsh(one, uint(k))
		t.Quo(&t, big.NewInt(k))
		sum.Add(sum, &t)
	}
	return sum.Rsh(sum, 32)
}

// refE returns e truncated to n fraction bits by Σ 1/k!.
func refE(n uint) *big.Int {
	term := new(big.Int).Lsh(big.NewInt(1), n+32)
	sum := new(big.Int).Set(term)
	for k := int64(1); term.Sign() > 0; k++ {
		term.Quo(term, big.NewInt(k))
		sum.Add(sum, term)
	}
	return sum.Rsh(sum, 32)
}

// fixedToFloat returns v·2^-n exactly.
func fixedToFloat(v *big.Int, n uint) *big.Float {
	f := new(big.Float).SetPrec(uint(v.BitLen()) + 1).SetInt(v)
	return f.SetMantExp(f, -int(n))
}

func TestLn2AndEAgainstIndependentSeries(t *testing.T) {
	// 10,000 decimal digits are 33,220 bits; go a little beyond.
	for _, prec := range []uint{53, 1000, 34000} {
		n := prec + 64
		ln2 := fixedToFloat(refLn2(n), n)
		e := fixedToFloat(refE(n), n)
		for _, mode := range []big.RoundingMode{big.ToNearestEven, big.ToZero, big.AwayFromZero} {
			wantLn2 := new(big.Float).SetPrec(prec).SetMode(mode).Set(ln2)
			wantE := new(big.Float).SetPrec(prec).SetMode(mode).Set(e)
			got, err := Log(new(big.Float).SetPrec(prec).SetMode(mode), big.NewFloat(2))
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(wantLn2) != 0 {
				t.Errorf("Log(2) at prec %d mode %v", prec, mode)
			}
			got, err = Exp(new(big.Float).SetPrec(prec).SetMode(mode), big.NewFloat(1))
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(wantE) != 0 {
				t.Errorf("Exp(1) at prec %d mode %v", prec, mode)
			}
		}
	}
}

func TestConstantsMatchReferences(t *testing.T) {
	// π from the Chudnovsky series against a second, independent
	// algorithm: the Gauss–Legendre AGM in big.Float. (ln 2 is checked
	// against its own series in TestLn2AndEAgainstIndependentSeries.)
	// Both the generated table (getPi at 3000 bits) and the series.
	const prec = 3000
	var c consts
	gl := gaussLegendrePi(prec + 64)
	for _, pi := range []*xf{c.getPi(prec), new(xf)} {
		if pi.m.Sign() == 0 {
			computePi(pi, prec)
		}
		var p big.Float
		pi.float(&p)
		diff := new(big.Float).SetPrec(prec+64).Sub(&p, gl)
		diff.Abs(diff)
		if !(diff.MantExp(nil) < -prec+4) {
			t.Errorf("π error exponent %d", diff.MantExp(nil))
		}
	}
}

// gaussLegendrePi computes π by the Gauss–Legendre (Brent–Salamin) AGM in
// big.Float, an algorithm independent of Chudnovsky.
func gaussLegendrePi(prec uint) *big.Float {
	nf := func() *big.Float { return new(big.Float).SetPrec(prec) }
	a := nf().SetInt64(1)
	b := nf().Sqrt(nf().SetFloat64(0.5))
	t := nf().SetFloat64(0.25)
	p := nf().SetInt64(1)
	for i := 0; i < 40; i++ {
		an := nf().Add(a, b)
		an.Quo(an, nf().SetInt64(2))
		b = nf().Sqrt(nf().Mul(a, b))
		d := nf().Sub(a, an)
		d.Mul(d, d)
		d.Mul(d, p)
		t.Sub(t, d)
		p.Mul(p, nf().SetInt64(2))
		a = an
	}
	s := nf().Add(a, b)
	s.Mul(s, s)
	return s.Quo(s, t.Mul(t, nf().SetInt64(4)))
}

// randFloat returns m·2^e with a random prec-bit mantissa m in [1, 2) and e
// in [emin, emax].
func randFloat(r *rand.Rand, prec uint, emin, emax int) *big.Float {
	words := make([]big.Word, (prec+bits.UintSize-1)/bits.UintSize)
	for i := range words {
		words[i] = big.Word(r.Uint64())
	}
	m := new(big.Int).SetBits(words)
	m.SetBit(m, int(prec), 1)
	m.Rsh(m, uint(m.BitLen())-prec)
	f := new(big.Float).SetPrec(prec).SetInt(m)
	return f.SetMantExp(f, emin+r.IntN(emax-emin+1)-int(prec)+1)
}

// TestAgainstBigfloat compares with ALTree/bigfloat computed 100 bits
// beyond the target precision and then rounded. bigfloat has no correct
// rounding guarantee, but with 100 extra bits (and away from x ≈ 1, where it
// loses bits; see ../shared/anchors/BIGNUM.md §6) a disagreement would
// need a result within 2^-100 relative of a rounding boundary.
func TestAgainstBigfloat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, prec := range []uint{24, 53, 64, 113, 300, 1000} {
		for i := 0; i < 40; i++ {
			x := randFloat(r, prec, -20, 20)
			if r.IntN(3) == 0 {
				x.Neg(x)
			}
			ax := new(big.Float).Abs(x)
			ref := bigfloat.Log(new(big.Float).SetPrec(prec + 100).Set(ax))
			want := new(big.Float).SetPrec(prec).Set(ref)
			got, err := Log(new(big.Float).SetPrec(prec), ax)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := got.String(), want.String(); got != want {
				t.Errorf("Log(%v) prec %d: got %v, want %v", ax, prec, got, want)
			}
			if math.Abs(float64(x.MantExp(nil))) < 8 {
				ref = bigfloat.Exp(new(big.Float).SetPrec(prec + 100).Set(x))
				want = new(big.Float).SetPrec(prec).Set(ref)
				got, err = Exp(new(big.Float).SetPrec(prec), x)
				if err != nil {
					t.Fatal(err)
				}
				if want.Cmp(got) != 0 {
					t.Errorf("Exp(%v) prec %d: got %v want %v", x, prec, got, want)
				}
			}
		}
	}
}

// TestFloat64 checks at 53 bits against math.Log/Exp/Log1p within one
// ulp (libm is not correctly rounded), and the directed modes bracket.
func TestFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n := 2000
	if testing.Short() {
		n = 400
	}
	for range n {
		x := math.Ldexp(r.Float64()+0.5, r.IntN(80)-40)
		bx := big.NewFloat(x)
		check := func(name string, f func(z, x *big.Float) (*big.Float, error), ref float64) {
			lo, err := f(new(big.Float).SetPrec(53).SetMode(big.ToNegativeInf), bx)
			if err != nil {
				t.Fatal(err)
			}
			hi, err := f(new(big.Float).SetPrec(53).SetMode(big.ToPositiveInf), bx)
			if err != nil {
				t.Fatal(err)
			}
			ne, err := f(new(big.Float).SetPrec(53), bx)
			if err != nil {
				t.Fatal(err)
			}
			l, _ := lo.Float64()
			h, _ := hi.Float64()
			n, _ := ne.Float64()
			if !(l < h && math.Nextafter(l, math.Inf(1)) == h) {
				t.Errorf("%s(%v): down %v up %v not adjacent", name, x, l, h)
			}
			if !(n == l || n == h) {
				t.Errorf("%s(%v) nearest %v not in {%v, %v}", name, x, n, l, h)
			}
			if !(ref >= math.Nextafter(l, math.Inf(-1)) && ref <= math.Nextafter(h, math.Inf(1))) {
				t.Errorf("%s(%v) = %v far from libm %v", name, x, n, ref)
			}
		}
		check("Log", Log, math.Log(x))
		check("Log1p", Log1p, math.Log1p(x))
		if x < 600 {
			check("Exp", Exp, math.Exp(x))
			check("Softplus", Softplus, math.Log1p(math.Exp(x)))
		}
	}
}

func TestExpLogRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, prec := range []uint{100, 2000, 20000} {
		for i := 0; i < 6; i++ {
			x := randFloat(r, prec, -5, 30)
			l, err := Log(new(big.Float).SetPrec(prec+20), x)
			if err != nil {
				t.Fatal(err)
			}
			y, err := Exp(new(big.Float).SetPrec(prec), l)
			if err != nil {
				t.Fatal(err)
			}
			d := new(big.Float).Sub(y, x)
			d.Abs(d)
			ulp := new(big.Float).SetMantExp(big.NewFloat(1), x.MantExp(nil)-int(prec))
			if !(d.Cmp(ulp) <= 0) {
				t.Errorf("exp(log x) − x = %v > 1 ulp at prec %d", d, prec)
			}
		}
	}
}

func TestMonotone(t *testing.T) {
	// Consecutive floats map to non-decreasing values.
	x := big.NewFloat(1.7).SetPrec(200)
	prev := map[string]*big.Float{}
	for i := 0; i < 50; i++ {
		for name, f := range map[string]func(z, x *big.Float) (*big.Float, error){"Log": Log, "Exp": Exp, "Log1p": Log1p, "Softplus": Softplus} {
			y, err := f(new(big.Float).SetPrec(180), x)
			if err != nil {
				t.Fatal(err)
			}
			if p := prev[name]; p != nil {
				if !(p.Cmp(y) <= 0) {
					t.Errorf("%s not monotone at %v", name, x)
				}
			}
			prev[name] = y
		}
		ulp := new(big.Float).SetMantExp(big.NewFloat(1), x.MantExp(nil)-200)
		x.Add(x, ulp)
	}
}

func TestNearOneAndTiny(t *testing.T) {
	// log(1+2^-1000) at 2000 bits, where bigfloat keeps only 1376 bits:
	// compare Log(1+t) with Log1p(t) and with the series t − t²/2 + t³/3.
	const prec = 2000
	tt := new(big.Float).SetMantExp(big.NewFloat(1), -1000)
	x := new(big.Float).SetPrec(1100).Add(big.NewFloat(1), tt)
	a, err := Log(new(big.Float).SetPrec(prec), x)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Log1p(new(big.Float).SetPrec(prec), tt)
	if err != nil {
		t.Fatal(err)
	}
	s := new(big.Float).SetPrec(prec + 64).Set(tt)
	t2 := new(big.Float).SetPrec(prec+64).Mul(tt, tt)
	s.Sub(s, t2.Quo(t2, big.NewFloat(2)))
	t3 := new(big.Float).SetPrec(prec+64).Mul(tt, tt)
	t3.Mul(t3, tt)
	s.Add(s, t3.Quo(t3, big.NewFloat(3)))
	want := new(big.Float).SetPrec(prec).Set(s)
	if a.Cmp(want) != 0 {
		t.Error("Log(1+2^-1000)")
	}
	if b.Cmp(want) != 0 {
		t.Error("Log1p(2^-1000)")
	}

	// Log1p of 2^-10^6 at 53 bits must not form 1+x exactly.
	tiny := new(big.Float).SetMantExp(big.NewFloat(1), -1000000)
	c, err := Log1p(new(big.Float).SetPrec(53), tiny)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Acc(); got != big.Above {
		t.Errorf("ln(1+x) < x, so x is above: got %v, want %v", got, big.Above)
	}
	if c.Cmp(tiny) != 0 {
		t.Errorf("%v, want %v", c, tiny)
	}

	// Softplus far out on both sides.
	big1 := big.NewFloat(1e6)
	sp, err := Softplus(new(big.Float).SetPrec(53), big1)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Cmp(big1) != 0 {
		t.Errorf("%v, want %v", sp, big1)
	}
	if got := sp.Acc(); got != big.Below {
		t.Errorf("sp.Acc() = %v, want %v", got, big.Below)
	}
	sp, err = Softplus(new(big.Float).SetPrec(53), big.NewFloat(-1000))
	if err != nil {
		t.Fatal(err)
	}
	ex, err := Exp(new(big.Float).SetPrec(53), big.NewFloat(-1000))
	if err != nil {
		t.Fatal(err)
	}
	if sp.Cmp(ex) != 0 {
		t.Errorf("Softplus(-1000) = %v, Exp(-1000) = %v", sp, ex)
	}
}

func TestSpecialCases(t *testing.T) {
	z := new(big.Float).SetPrec(53)
	_, err := Log(z, big.NewFloat(-1))
	if !errors.Is(err, ErrDomain) {
		t.Errorf("error %v, want %v", err, ErrDomain)
	}
	r, err := Log(z, big.NewFloat(0))
	if err != nil {
		t.Fatal(err)
	}
	if !(r.IsInf() && r.Sign() < 0) {
		t.Errorf("Log(0) = %v, want -Inf", r)
	}
	r, err = Log(z, big.NewFloat(1))
	if err != nil {
		t.Fatal(err)
	}
	if r.Sign() != 0 {
		t.Errorf("Log(1) = %v, want 0", r)
	}
	r, err = Exp(z, big.NewFloat(0))
	if err != nil {
		t.Fatal(err)
	}
	if r.Cmp(big.NewFloat(1)) != 0 {
		t.Errorf("Exp(0) = %v, want 1", r)
	}
	r, err = Exp(z, big.NewFloat(2e9))
	if !errors.Is(err, ErrRange) {
		t.Errorf("error %v, want %v", err, ErrRange)
	}
	if !r.IsInf() {
		t.Errorf("Exp(2e9) = %v, want +Inf", r)
	}
	r, err = Exp(z, big.NewFloat(-2e9))
	if !errors.Is(err, ErrRange) {
		t.Errorf("error %v, want %v", err, ErrRange)
	}
	if r.Sign() != 0 {
		t.Errorf("Exp(-2e9) = %v, want 0", r)
	}
	_, err = Log1p(z, big.NewFloat(-2))
	if !errors.Is(err, ErrDomain) {
		t.Errorf("error %v, want %v", err, ErrDomain)
	}
	r, err = Log1p(z, big.NewFloat(-1))
	if err != nil {
		t.Fatal(err)
	}
	if !r.IsInf() {
		t.Errorf("Log1p(-1) = %v, want -Inf", r)
	}
	_, err = Log(new(big.Float), new(big.Float))
	if !errors.Is(err, ErrPrec) {
		t.Errorf("error %v, want %v", err, ErrPrec)
	}
	_, err = LogRatio(z, big.NewInt(0), big.NewInt(1), 1)
	if !errors.Is(err, ErrDomain) {
		t.Errorf("error %v, want %v", err, ErrDomain)
	}
}

func TestLogRatio(t *testing.T) {
	// ln(num/den)/d against (Log(num) − Log(den))/d computed 100 bits
	// beyond the target through the separate Log path.
	r := rand.New(rand.NewPCG(13, 14))
	randInt := func(bits uint) *big.Int {
		f := randFloat(r, bits, int(bits)-1, int(bits)-1)
		v, _ := f.Int(nil)
		return v
	}
	for _, n := range []uint{10, 500, 5000} {
		for _, d := range []uint64{1, 3, 25000} {
			num, den := randInt(n), randInt(n+uint(r.IntN(20)))
			const prec = 200
			got, err := LogRatio(new(big.Float).SetPrec(prec), num, den, d)
			if err != nil {
				t.Fatal(err)
			}
			hp := uint(prec + 100)
			a, err := Log(new(big.Float).SetPrec(hp), new(big.Float).SetInt(num))
			if err != nil {
				t.Fatal(err)
			}
			b, err := Log(new(big.Float).SetPrec(hp), new(big.Float).SetInt(den))
			if err != nil {
				t.Fatal(err)
			}
			a.Sub(a, b)
			a.Quo(a, new(big.Float).SetUint64(d))
			want := new(big.Float).SetPrec(prec).Set(a)
			if got.Cmp(want) != 0 {
				t.Errorf("LogRatio(%d bits, d=%d) = %v; want %v", n, d, got, want)
			}
		}
	}
	// num close to den: cancellation.
	den := new(big.Int).Lsh(big.NewInt(1), 3000)
	num := new(big.Int).Add(den, big.NewInt(1))
	got, err := LogRatio(new(big.Float).SetPrec(64), num, den, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Float).SetPrec(64).SetMantExp(big.NewFloat(1), -3000)
	if got.Cmp(want) != 0 {
		t.Errorf("LogRatio(2^3000+1, 2^3000) = %v", got)
	}
}
