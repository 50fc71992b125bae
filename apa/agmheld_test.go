package apa

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestAGMHeld compares Log and Exp with logAGM's held transform
// (bigmul.Held, from 2.5·10^5 bits) against the plain products, bit for
// bit, at random arguments and precisions where the held path runs.
func TestAGMHeld(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	precs := []uint{260000, 333333}
	if !testing.Short() {
		precs = append(precs, 1000003)
	}
	defer func() { agmHeld = true }()
	for _, prec := range precs {
		x := randFloat(r, prec, -3, 3)
		x.Abs(x)
		for _, fn := range []string{"log", "exp"} {
			var got, want big.Float
			got.SetPrec(prec)
			want.SetPrec(prec)
			f := Log
			if fn == "exp" {
				f = Exp
			}
			agmHeld = true
			f(&got, x)
			agmHeld = false
			f(&want, x)
			if got.Cmp(&want) != 0 || got.Acc() != want.Acc() {
				t.Errorf("%s at %d bits: held and plain AGM differ", fn, prec)
			}
		}
	}
}
