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
