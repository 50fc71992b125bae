package decode

import (
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// The double-double residual KList's window starts from (ddSplit,
// ddSum.sub) against the exact big.Float difference: within the bound
// decode adds to the window, (n + 2)²·2^−100 of the magnitudes, for
// 160-bit increments of mixed signs and sizes like a query's top (tens of
// nats, some tiny). Plain float64 sums miss it by far (checked too, so
// that the bound is not trivially wide).
func TestDDSum(t *testing.T) {
	t.Parallel()
	rng := testrand.New(t)
	trials := 200
	if testing.Short() {
		trials = 40
	}
	worstPlain := 0.0
	for range trials {
		n := 1 + rng.IntN(100)
		r0 := new(big.Float).SetPrec(sumPrec).SetFloat64(rng.NormFloat64() * 1e3)
		r0.Add(r0, new(big.Float).SetPrec(sumPrec).SetMantExp(big.NewFloat(rng.Float64()), -70))
		exact := new(big.Float).SetPrec(sumPrec + 64).Set(r0)
		h, l := ddSplit(r0)
		s := ddSum{h: h, l: l}
		plain := h
		mag := math.Abs(h)
		for range n {
			d := new(big.Float).SetPrec(incPrec).SetFloat64(rng.NormFloat64() * 40)
			d.Add(d, new(big.Float).SetPrec(incPrec).SetMantExp(big.NewFloat(rng.Float64()), -60))
			if rng.IntN(8) == 0 {
				d.SetMantExp(d, -30)
			}
			exact.Sub(exact, d)
			dh, dl := ddSplit(d)
			s.sub(dh, dl)
			plain -= dh
			mag += math.Abs(dh)
		}
		bound := float64((n+2)*(n+2)) * 0x1p-100 * mag
		got := new(big.Float).SetPrec(sumPrec + 64).SetFloat64(s.h)
		got.Add(got, new(big.Float).SetFloat64(s.l))
		err, _ := new(big.Float).Sub(got, exact).Float64()
		if math.Abs(err) > bound {
			t.Fatalf("n = %d: double-double off by %g, bound %g", n, err, bound)
		}
		pe, _ := new(big.Float).Sub(new(big.Float).SetPrec(sumPrec+64).SetFloat64(plain), exact).Float64()
		worstPlain = max(worstPlain, math.Abs(pe)/bound)
	}
	if worstPlain < 1e6 {
		t.Errorf("plain float64 sums within %g of the bound: the test does not tell the sums apart", worstPlain)
	}
}
