package bigmul

import (
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

func randBits(r *rand.Rand, n int) *big.Int {
	const W = bits.UintSize
	x := randInt(r, (n+W-1)/W)
	x.Rsh(x, uint(W*((n+W-1)/W)-n))
	return x
}

// TestRecipAgainstDivision checks Recip and QuoFixed against exact
// division (math/big's Quo), with the Newton path forced at small sizes
// and, in a third pass, MulHigh's short products forced from one word
// (they fail it if MulHigh's bound slips by a few units).
func TestRecipAgainstDivision(t *testing.T) {
	old := directRecipBits
	defer func() { directRecipBits = old }()
	r := rand.New(rand.NewPCG(7, 8))
	for pass, direct := range []uint{64, 4096, 64} {
		if pass == 2 {
			defer forceShort(4, 20)()
		}
		directRecipBits = direct
		for _, xb := range []int{1, 2, 63, 64, 65, 700, 5000, 30000} {
			for _, n := range []uint{1, 10, 64, 100, 1000, 9000, 200000} {
				if testing.Short() && n > 9000 {
					continue
				}
				x := randBits(r, xb)
				if r.IntN(3) == 0 { // a power of two and its neighbours
					x.Lsh(big.NewInt(1), uint(xb-1))
					x.Add(x, big.NewInt(int64(r.IntN(3))-1))
					if x.Sign() == 0 {
						x.SetInt64(1)
					}
				}
				want := new(big.Int).Lsh(big.NewInt(1), uint(x.BitLen())+n)
				want.Quo(want, x)
				got := Recip(x, n)
				d := new(big.Int).Sub(got, want)
				if !(d.CmpAbs(big.NewInt(2)) <= 0) {
					t.Errorf("Recip(%d bits, %d) off by %v (direct %d)", xb, n, d, direct)
				}

				num := randBits(r, xb+int(n)/3+5)
				wantQ := new(big.Int).Lsh(num, n)
				wantQ.Quo(wantQ, x)
				q := QuoFixed(num, x, n)
				d.Sub(q, wantQ)
				if !(d.CmpAbs(big.NewInt(1)) <= 0) {
					t.Errorf("QuoFixed(%d bits, %d bits, %d) off by %v", num.BitLen(), xb, n, d)
				}
			}
		}
	}
	mustPanic(t, func() { Recip(big.NewInt(0), 10) })
	mustPanic(t, func() { QuoFixed(big.NewInt(1), big.NewInt(-1), 10) })
}

// mustPanic fails t unless f panics.
func mustPanic(t *testing.T, f func()) {
	t.Helper()
	panicked := func() (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}()
	if !panicked {
		t.Error("no panic")
	}
}
