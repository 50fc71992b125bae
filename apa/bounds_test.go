package apa

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestErrorBounds checks the error bounds that Ziv's loop relies on: the
// absolute bound of logAGM and the relative bound of expNewton, at a
// range of working precisions and magnitudes, against the same function
// at twice the precision plus 64 bits (whose own error is then far below
// the bound checked: |y − ref| must stay below 2^e − 2^e_ref). A wrong
// series term or stopping rule leaves an error that scales with the
// working precision, which this catches.
func TestErrorBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	precs := []uint{60, 150, 700, 3000}
	if !testing.Short() {
		precs = append(precs, 20000)
	}
	var cc Consts
	c := consts{shared: &cc}
	for _, wp := range precs {
		for i := range 6 {
			xb := randFloat(r, wp+20, -60, 60)
			if i == 0 {
				xb.SetMantExp(xb, -xb.MantExp(nil)) // in [0.5, 1)
			}
			var x, y, ref, d xf
			x.setBig(xb)
			e := logAGM(&y, &x, wp, &c)
			logAGM(&ref, &x, 2*wp+64, &c)
			d.sub(&y, &ref, 0)
			// |d| < 2^(e−1), and the reference's own error is far below
			// 2^(e−1), so |y − ln x| < 2^e.
			if d.m.Sign() != 0 {
				if !(d.top() < e) {
					t.Errorf("logAGM wp=%d case %d: error 2^%d, bound 2^%d", wp, i, d.top(), e)
				}
			}
			// Exp: relative bound, on |x| ≤ 40.
			x.setBig(xb.SetMantExp(xb, -xb.MantExp(nil)+r.IntN(6)))
			if i%2 == 1 {
				x.m.Neg(&x.m)
			}
			e, ok := expNewton(&y, &x, wp, &c)
			if !ok {
				t.Errorf("expNewton wp=%d case %d: not converged", wp, i)
			}
			expNewton(&ref, &x, 2*wp+64, &c)
			d.sub(&y, &ref, 0)
			// |d|/|ref| < 2^(top(d) − top(ref) + 1) must stay below 2^(e−1).
			if d.m.Sign() != 0 {
				if !(d.top()-ref.top()+1 < e) {
					t.Errorf("expNewton wp=%d case %d: relative error over 2^%d", wp, i, e)
				}
			}
		}
	}
}

// TestLongInputShortOutput evaluates Log and Exp of 20,000-bit inputs at
// 53 and 300 bits, where the working precision is far below the input's
// length (the operands are truncated by views of their words, and
// expNewton's reduction subtracts in place from a long operand), against
// the same function at 600 bits rounded to the target.
func TestLongInputShortOutput(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for i := range 8 {
		x := randFloat(r, 20000, -3, 5)
		if i%2 == 1 {
			x.Neg(x)
		}
		for _, prec := range []uint{53, 300} {
			wide := new(big.Float).SetPrec(600)
			_, err := Exp(wide, x)
			if err != nil {
				t.Fatal(err)
			}
			got := new(big.Float).SetPrec(prec)
			_, err = Exp(got, x)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(new(big.Float).SetPrec(prec).Set(wide)) != 0 {
				t.Errorf("Exp case %d at %d bits", i, prec)
			}
			ax := new(big.Float).Abs(x)
			_, err = Log(wide, ax)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Log(got, ax)
			if err != nil {
				t.Fatal(err)
			}
			if got.Cmp(new(big.Float).SetPrec(prec).Set(wide)) != 0 {
				t.Errorf("Log case %d at %d bits", i, prec)
			}
		}
	}
}

// TestSqrtRecipBounds checks sqrt, rsqrt and recip against big.Float's
// correctly rounded square root and quotient at many precisions: the
// relative errors must stay below the documented 2^(6−wp), 2^(4−wp) and
// 2^(4−wp).
func TestSqrtRecipBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	precs := []uint{10, 47, 48, 49, 60, 97, 100, 200, 613, 1000, 4099, 20000}
	if testing.Short() {
		precs = precs[:10]
	}
	for _, wp := range precs {
		for i := range 5 {
			xb := randFloat(r, wp+40, -50, 50)
			var x, z xf
			x.setBig(xb)
			want := new(big.Float).SetPrec(2*wp + 64).Sqrt(xb)
			z.sqrt(&x, wp)
			if !(relErr(&z, want) <= 6-int(wp)) {
				t.Errorf("sqrt wp=%d case %d", wp, i)
			}
			z.rsqrt(&x, wp)
			want.Quo(new(big.Float).SetPrec(2*wp+64).SetInt64(1), want)
			if !(relErr(&z, want) <= 4-int(wp)) {
				t.Errorf("rsqrt wp=%d case %d", wp, i)
			}
			z.recip(&x, wp)
			want.Quo(new(big.Float).SetPrec(2*wp+64).SetInt64(1), xb)
			if !(relErr(&z, want) <= 4-int(wp)) {
				t.Errorf("recip wp=%d case %d", wp, i)
			}
		}
	}
}

// TestSqrtPairSquare checks that sqrtPair's s² is s·s exactly, at
// precisions where it is built from the level below's square (s² + 2sq +
// q²) and above sqSplitMaxBits, where it is squared directly.
func TestSqrtPairSquare(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	precs := []uint{49, 100, 1000, 5000}
	if !testing.Short() {
		precs = append(precs, 2*sqSplitMaxBits+100)
	}
	for _, n := range precs {
		for i := range 3 {
			var x, s, y, sq, want xf
			x.setBig(randFloat(r, n+40, -30, 30))
			var sc rootScratch
			s.sqrtPair(&y, &sq, &x, n, &sc, 0)
			want.mulExact(&s, &s)
			var d xf
			d.sub(&sq, &want, 0)
			if d.sign() != 0 {
				t.Errorf("sqrtPair n=%d case %d: s² is not s·s", n, i)
			}
		}
	}
}

// TestKSeries checks logAGM's end-series coefficients against
// ((2j)!/(4^j j!²))² computed from binomials.
func TestKSeries(t *testing.T) {
	for j := int64(1); j <= kSeriesTerms; j++ {
		c := new(big.Rat).SetFrac(new(big.Int).Binomial(2*j, j), new(big.Int).Lsh(big.NewInt(1), uint(2*j)))
		c.Mul(c, c)
		got := new(big.Rat).SetFrac(big.NewInt(kSeries[j].num), new(big.Int).Lsh(big.NewInt(1), uint(kSeries[j].shift)))
		if got.Cmp(c) != 0 {
			t.Errorf("c_%d = %v, want %v", j, got, c)
		}
	}
}

// TestSqResidue checks the wrapped residue x − s² against the exact one,
// for s = √x from sqrtPair at h bits, and that the square root built on
// it keeps its bound above the precision where it is used.
func TestSqResidue(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 19))
	hs := []uint{1000, 20000}
	if !testing.Short() {
		hs = append(hs, 130000)
	}
	for _, h := range hs {
		for i := range 3 {
			n := 2*h - 16
			var x, s, y, sq, got, want xf
			var pow big.Int
			x.setBig(randFloat(r, n, -30, 30))
			var sc rootScratch
			s.sqrtPair(&y, &sq, &x, h, &sc, 0)
			want.sub(&x, &sq, 0)
			if !got.sqResidue(&x, &s, h, &pow) {
				t.Fatalf("h=%d case %d: rejected", h, i)
			}
			var d xf
			d.sub(&got, &want, 0)
			if d.sign() != 0 {
				t.Errorf("h=%d case %d: wrapped residue differs", h, i)
			}
		}
	}
	if testing.Short() {
		return
	}
	for _, wp := range []uint{250000, 600000} {
		var x, z xf
		xb := randFloat(r, wp, -5, 5)
		x.setBig(xb)
		z.sqrt(&x, wp)
		want := new(big.Float).SetPrec(2*wp + 64).Sqrt(xb)
		if !(relErr(&z, want) <= 6-int(wp)) {
			t.Errorf("sqrt wp=%d", wp)
		}
	}
}

// relErr returns an upper bound of log2 of got's relative error against
// want (computed at a higher precision).
func relErr(got *xf, want *big.Float) int {
	var g big.Float
	got.float(&g)
	g.SetPrec(want.Prec()+64).Sub(&g, want)
	if g.Sign() == 0 {
		return -1 << 30
	}
	return g.MantExp(nil) - want.MantExp(nil) + 1 // ≥ log2 of the relative error
}

// TestSubMulWrap checks c − a·b·2^k from the wrapped product against the
// exact difference, for operands of both signs whose product cancels c's
// leading bits, from word to transform sizes. (A difference beyond the
// bound given may alias to a small residue and pass the size check: the
// bound is what makes the result exact, the check only a safeguard.)
func TestSubMulWrap(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 20))
	sizes := []uint{100, 5000}
	if !testing.Short() {
		sizes = append(sizes, 200000)
	}
	var pow big.Int
	for _, n := range sizes {
		for i := range 4 {
			var a, b, c, d, got, want xf
			a.setBig(randFloat(r, n, -10, 10))
			b.setBig(randFloat(r, n/2, -10, 10))
			if i&1 == 1 {
				a.m.Neg(&a.m)
			}
			k := int64(i) - 1
			// c = a·b·2^k + d with |d| about 2^(top(ab) − n/2).
			c.mulExact(&a, &b)
			c.e += k
			d.setBig(randFloat(r, n, -10, 10))
			d.e += c.top() - d.top() - int64(n/2)
			if i&2 == 2 {
				d.m.Neg(&d.m)
			}
			c.add(&c, &d, 0)
			want.set(&d)
			if !got.subMulWrap(&c, &a, &b, k, d.top()+1, &pow) {
				t.Fatalf("n=%d case %d: rejected", n, i)
			}
			var diff xf
			diff.sub(&got, &want, 0)
			if diff.sign() != 0 {
				t.Errorf("n=%d case %d: c − a·b differs", n, i)
			}
		}
	}
}
