package apa

import (
	"math/big"
	"testing"

	"github.com/ALTree/bigfloat"
)

// FuzzLogExp checks Log and Exp, and the same calls through a shared
// Consts, against ALTree/bigfloat computed 100 bits beyond the target
// precision and then rounded (see TestAgainstBigfloat for why 100 bits make
// a disagreement a bug of apa, not of the oracle, away from x ≈ 1). Run
// with go test -fuzz=FuzzLogExp ./apa.
func FuzzLogExp(f *testing.F) {
	f.Add(uint64(0x9e3779b97f4a7c15), int8(0), uint16(53))
	f.Add(uint64(3), int8(-5), uint16(1000))
	f.Add(uint64(1)<<63|1, int8(7), uint16(2500))
	var c Consts
	f.Fuzz(func(t *testing.T, mant uint64, exp int8, precIn uint16) {
		prec := uint(precIn)%3000 + 2
		if mant == 0 {
			return
		}
		x := new(big.Float).SetPrec(64).SetUint64(mant)
		x.SetMantExp(x, int(exp)%12-64) // |x| in [2^-75, 2^12)
		xm1 := new(big.Float).Sub(x, big.NewFloat(1))
		if xm1.Sign() == 0 || xm1.MantExp(nil) < -8 {
			return // bigfloat loses bits near 1
		}
		ref := bigfloat.Log(new(big.Float).SetPrec(prec + 100).Set(x))
		want := new(big.Float).SetPrec(prec).Set(ref)
		for _, log := range []func(z, x *big.Float) (*big.Float, error){Log, c.Log} {
			got, err := log(new(big.Float).SetPrec(prec), x)
			if err != nil || got.Cmp(want) != 0 {
				t.Fatalf("Log(%v) at %d bits = %v, %v; want %v", x, prec, got, err, want)
			}
		}
		ref = bigfloat.Exp(new(big.Float).SetPrec(prec + 100).Set(x))
		want = new(big.Float).SetPrec(prec).Set(ref)
		for _, exp := range []func(z, x *big.Float) (*big.Float, error){Exp, c.Exp} {
			got, err := exp(new(big.Float).SetPrec(prec), x)
			if err != nil || got.Cmp(want) != 0 {
				t.Fatalf("Exp(%v) at %d bits = %v, %v; want %v", x, prec, got, err, want)
			}
		}
	})
}
