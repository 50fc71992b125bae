package apa

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestLog1pTiny checks Log1p at x = ±2^(−10⁹), where ln(1+x) = x − x²/2 + …
// lies within 2^(−2·10⁹) of x, far inside one ulp: the correctly rounded
// result and its accuracy follow from the rounding mode alone (the
// oracle). Log1p once worked at 10⁹ extra bits here (a 10⁹-bit division,
// minutes and gigabytes); the sigmoid cross-entropy of a logit near 10⁹
// evaluates exactly this.
func TestLog1pTiny(t *testing.T) {
	const e = -1_000_000_000
	x := new(big.Float).SetMantExp(big.NewFloat(0.5), e+1) // 2^e
	below := new(big.Float).SetPrec(117).Sub(x, new(big.Float).SetMantExp(big.NewFloat(0.5), e-116))
	above := new(big.Float).SetPrec(117).Add(x, new(big.Float).SetMantExp(big.NewFloat(0.5), e-115))
	for _, tc := range []struct {
		neg     bool
		mode    big.RoundingMode
		want    *big.Float
		wantAcc big.Accuracy
	}{
		{false, big.ToNearestEven, x, big.Above}, // ln(1+x) < x
		{false, big.ToZero, below, big.Below},
		{true, big.ToNearestEven, x, big.Above}, // ln(1−x) < −x: −x is above
		{true, big.ToZero, x, big.Above},
		{true, big.AwayFromZero, above, big.Below}, // −(x + ulp)
	} {
		arg := new(big.Float).Set(x)
		want := new(big.Float).Set(tc.want)
		if tc.neg {
			arg.Neg(arg)
			want.Neg(want)
		}
		z := new(big.Float).SetPrec(117).SetMode(tc.mode)
		if _, err := Log1p(z, arg); err != nil {
			t.Fatalf("Log1p(%v): %v", arg.Text('p', 0), err)
		}
		if z.Cmp(want) != 0 || z.Acc() != tc.wantAcc {
			t.Errorf("Log1p(%v) in %v = %v (%v); want %v (%v)", arg.Text('p', 0), tc.mode, z.Text('p', 0), z.Acc(), want.Text('p', 0), tc.wantAcc)
		}
	}
}

// TestXfCmpFarApart checks xf.cmp, which decides by sign and top before
// aligning, against the exact difference on operands whose tops are equal
// or differ, of both signs, and on operands 10⁹ bits apart (where only the
// answer is checked: the exact difference would take seconds).
func TestXfCmpFarApart(t *testing.T) {
	mk := func(m int64, e int64) *xf { var z xf; z.m.SetInt64(m); z.e = e; return &z }
	cases := []*xf{mk(0, 0), mk(1, 0), mk(-1, 0), mk(3, -1), mk(-3, -1), mk(5, 3), mk(-5, 3), mk(7, 2), mk(6, 2), mk(1, 40), mk(-255, 1)}
	for _, a := range cases {
		for _, b := range cases {
			var d xf
			d.sub(a, b, 0)
			if got, want := a.cmp(b), d.m.Sign(); got != want {
				t.Errorf("cmp(%v·2^%d, %v·2^%d) = %d; want %d", &a.m, a.e, &b.m, b.e, got, want)
			}
		}
	}
	tiny, negOne := mk(1, -1_000_000_000), mk(-1, 0)
	if tiny.cmp(negOne) != 1 || negOne.cmp(tiny) != -1 || mk(-1, -1_000_000_000).cmp(negOne) != 1 || mk(-3, 0).cmp(mk(-1, -1_000_000_000)) != -1 {
		t.Error("cmp wrong on operands 10⁹ bits apart")
	}
}

// TestLog1pSmallSeries checks Log1p on small arguments, on both sides of
// the tiny-input shortcut (|x| < 2^−(prec+2) or so), against the series
// x − x²/2 + x³/3 − x⁴/4 at 3000 bits, whose truncation error x⁵ is below
// 2^(−4·150) relative: an oracle independent of both of Log1p's paths.
func TestLog1pSmallSeries(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 15))
	paths := map[bool]int{}
	for i := range 300 {
		prec := []uint{24, 53, 117, 200}[i%4]
		e := -150 - rng.IntN(300)
		x := randAddend(rng, uint(1+rng.IntN(250)), e)
		want := new(big.Float).SetPrec(3000).Set(x)
		pw := new(big.Float).SetPrec(3000).Set(x)
		for k := int64(2); k <= 4; k++ {
			pw.Mul(pw, x)
			term := new(big.Float).SetPrec(3000).Quo(pw, new(big.Float).SetInt64(k))
			if k%2 == 0 {
				want.Sub(want, term)
			} else {
				want.Add(want, term)
			}
		}
		mode := []big.RoundingMode{big.ToNearestEven, big.ToZero, big.AwayFromZero, big.ToNegativeInf}[rng.IntN(4)]
		w := new(big.Float).SetPrec(prec).SetMode(mode).Set(want)
		z := new(big.Float).SetPrec(prec).SetMode(mode)
		if _, err := Log1p(z, x); err != nil {
			t.Fatal(err)
		}
		_, tiny := log1pTiny(x, prec)
		paths[tiny]++
		if z.Cmp(w) != 0 || z.Acc() != w.Acc() {
			t.Fatalf("Log1p(%v) at %d bits, %v (shortcut %v) = %v (%v); want %v (%v)", x.Text('p', 0), prec, mode, tiny, z.Text('p', 0), z.Acc(), w.Text('p', 0), w.Acc())
		}
	}
	if paths[true] < 30 || paths[false] < 30 {
		t.Errorf("shortcut taken in %d cases, not in %d: the test must exercise both paths", paths[true], paths[false])
	}
}
