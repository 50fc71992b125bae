package ln128

import (
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/internal/testrand"
)

func TestLogAgainstAPA(t *testing.T) {
	r := testrand.New(t)
	xs := []float64{1, 2, 0.5, 1 - 0x1p-53, 1 + 0x1p-52, 0x1p-1074, math.MaxFloat64, 1.015625, 1.99999}
	for range 2000 {
		xs = append(xs, math.Ldexp(1+r.Float64(), r.IntN(2000)-1000))
	}
	bound := new(big.Float)
	for _, f := range xs {
		x := new(big.Float).SetFloat64(f)
		got := Log(new(big.Float), x)
		want, err := apa.Log(new(big.Float).SetPrec(200), x)
		if err != nil {
			t.Fatal(err)
		}
		d := new(big.Float).Sub(got, want)
		// |d| ≤ 2^−128·|ln x|, or 2^−250 absolute at x = 1.
		bound.SetMantExp(new(big.Float).Abs(want), -128)
		if want.Sign() == 0 {
			bound.SetMantExp(big.NewFloat(1), -250)
		}
		if d.Abs(d).Cmp(bound) > 0 {
			t.Errorf("Log(%g) = %.45g, want %.45g", f, got, want)
		}
	}
	// Inputs with more bits than a float64.
	x := new(big.Float).SetPrec(1100).SetFloat64(1)
	x.Sub(x, new(big.Float).SetFloat64(0x1p-1000))
	got := Log(new(big.Float), x)
	if got.Sign() >= 0 || got.MantExp(nil) != -999 {
		t.Errorf("Log(1−2^−1000) = %g", got)
	}
	if Log(new(big.Float), new(big.Float)) != nil || Log(new(big.Float), big.NewFloat(-1)) != nil {
		t.Error("Log of a value ≤ 0 should return nil")
	}
}

// TestLogAllocs guards the reuse of Log's temporaries: 4 allocations a
// call (inside big.Float's division), against 40 when each call made its
// own (the margin covers -race, where sync.Pool drops some
// of what it is given).
func TestLogAllocs(t *testing.T) {
	x := new(big.Float).SetFloat64(0.123456789)
	z := new(big.Float)
	if a := testing.AllocsPerRun(200, func() { Log(z, x) }); a > 12 {
		t.Errorf("Log: %v allocations a call, want at most 12", a)
	}
}

func BenchmarkLog(b *testing.B) {
	x := new(big.Float).SetFloat64(0.123456789)
	z := new(big.Float)
	Log(z, x)
	for b.Loop() {
		Log(z, x)
	}
}
