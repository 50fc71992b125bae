package apa

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestLogNear1Bound checks logNear1's proven bound against logAGM at twice
// the precision plus 64 bits, on ratios a/b = 1 + t with |t| from 2^-5 down
// to below 2^-W, both signs, a and b of a few hundred to thousands of bits
// (as after a multi-prime reduction), and the exact case a = b.
func TestLogNear1Bound(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	Ws := []uint{64, 300, 2000, 9000}
	if !testing.Short() {
		Ws = append(Ws, 40000)
	}
	var cc Consts
	c := consts{shared: &cc}
	for _, W := range Ws {
		for i := range 24 {
			// b: an integer of 50–3000 bits; a = b·(1+t) rounded, t ≈ ±2^-R.
			bb := randFloat(r, uint(50+r.IntN(3000)), 0, 0)
			var b, a, tt, ref, y, d xf
			b.setBig(bb)
			R := int64(5 + r.IntN(int(W)/2+8))
			if i == 0 {
				R = int64(W) + 10 // |t| below the scale
			}
			tt.setBig(randFloat(r, W+30, -int(R), -int(R)))
			if i%2 == 1 {
				tt.m.Neg(&tt.m)
			}
			var one xf
			one.setInt64(1)
			tt.add(&tt, &one, 0)
			a.mulExact(&b, &tt)
			e, ok := logNear1(&y, &a, &b, W)
			if !ok {
				if R > 6 {
					t.Errorf("W=%d R=%d: not ok", W, R)
				}
				continue
			}
			var q xf
			q.quo(&a, &b, 2*W+200)
			logAGM(&ref, &q, 2*W+100, &c)
			d.sub(&y, &ref, 0)
			if d.sign() != 0 && !(d.top() < e) {
				t.Errorf("W=%d R=%d case %d: error 2^%d, bound 2^%d", W, R, i, d.top(), e)
			}
			if e > 2-int64(W) {
				t.Errorf("W=%d R=%d: bound 2^%d above 2^(2-W)", W, R, e)
			}
		}
		// a = b exactly.
		var a, y xf
		a.setBig(big.NewFloat(3))
		e, ok := logNear1(&y, &a, &a, W)
		if !ok || y.sign() != 0 || e > -int64(W) {
			t.Errorf("W=%d: ln(a/a) = %v, 2^%d, %v", W, y.float64(), e, ok)
		}
	}
}

// TestAddMulShr checks addMulShr against big.Int arithmetic, with all-ones
// words (every carry taken), shifts within and across words, and z shorter
// and longer than x's shifted part.
func TestAddMulShr(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	ones := func(n int) *big.Int {
		v := new(big.Int).Lsh(bigOne, uint(n))
		return v.Sub(v, bigOne)
	}
	for i := range 2000 {
		var x, z big.Int
		switch i % 3 {
		case 0:
			x.Set(ones(1 + r.IntN(700)))
			z.Set(ones(1 + r.IntN(700)))
		default:
			x.Set(randBitsInt(r, 1+r.IntN(700)))
			z.Set(randBitsInt(r, 1+r.IntN(700)))
		}
		sh := uint(r.IntN(800))
		c := r.Uint64()
		if i%5 == 0 {
			c = ^uint64(0)
		}
		var want, tt big.Int
		tt.Rsh(&x, sh)
		tt.Mul(&tt, new(big.Int).SetUint64(c))
		want.Add(&z, &tt)
		addMulShr(&z, &x, sh, c)
		if z.Cmp(&want) != 0 {
			t.Fatalf("case %d: x %d bits, sh %d, c %#x: got %x, want %x", i, x.BitLen(), sh, c, &z, &want)
		}
	}
}

// TestOddLcmRun checks that a run's D is divisible by every 2k+1 of it and
// that the run stops only where the next denominator would overflow a word.
func TestOddLcmRun(t *testing.T) {
	for _, k0 := range []int64{0, 1, 7, 40, 100, 1000, 30000, 1 << 26} {
		D, g := oddLcmRun(k0, k0+64)
		if g <= k0 || g > k0+64 {
			t.Fatalf("k0 %d: run end %d", k0, g)
		}
		for k := k0; k < g; k++ {
			if D%uint64(2*k+1) != 0 {
				t.Errorf("k0 %d: D %d not divisible by %d", k0, D, 2*k+1)
			}
		}
		if g < k0+64 {
			var l, d big.Int
			l.SetUint64(D)
			d.SetInt64(2*g + 1)
			var gcd big.Int
			gcd.GCD(nil, nil, &l, &d)
			l.Mul(&l, &d)
			l.Quo(&l, &gcd)
			if l.BitLen() <= 64 {
				t.Errorf("k0 %d: run stops at %d, lcm with %d still fits (%d bits)", k0, g, 2*g+1, l.BitLen())
			}
		}
	}
}

// randBitsInt returns a random integer below 2^n.
func randBitsInt(r *rand.Rand, n int) *big.Int {
	v := new(big.Int)
	for range (n + 63) / 64 {
		v.Lsh(v, 64)
		v.Or(v, new(big.Int).SetUint64(r.Uint64()))
	}
	return v.Rsh(v, uint((n+63)/64*64-n))
}

// TestQuoKM checks quoKM's contract, |q − X·2^f/Y| < 2, exactly (in
// integers): random and all-ones operands, quotients of 65 bits to 40,000,
// f from 0 to beyond the operands' sizes.
func TestQuoKM(t *testing.T) {
	r := rand.New(rand.NewPCG(71, 72))
	for i := range 300 {
		xb := 1 + r.IntN(20000)
		yb := 1 + r.IntN(20000)
		X, Y := randBitsInt(r, xb), randBitsInt(r, yb)
		if i%7 == 0 {
			X.Sub(X.Lsh(bigOne, uint(xb)), bigOne)
		}
		if i%5 == 0 {
			Y.Sub(Y.Lsh(bigOne, uint(yb)), bigOne)
		}
		X.SetBit(X, xb-1, 1)
		Y.SetBit(Y, yb-1, 1)
		f := uint(max(0, yb-xb+r.IntN(20000)))
		// |q − X·2^f/Y| < 2 ⇔ |q·Y − X·2^f| < 2Y.
		var q, d, y2 big.Int
		quoKM(&q, X, Y, f)
		d.Mul(&q, Y)
		d.Sub(&d, new(big.Int).Lsh(X, f))
		y2.Lsh(Y, 1)
		if d.CmpAbs(&y2) >= 0 {
			d.Quo(&d, Y)
			t.Fatalf("case %d: X %d bits, Y %d bits, f %d: q − X·2^f/Y ≈ %v", i, xb, yb, f, &d)
		}
	}
}
