package bigmul

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestHeld runs the AGM's pattern, z = A·y then A ← A + y, against
// math/big's products and sums: split and plain plans, up to the
// headroom's 31 additions (Fits refuses the 64th).
func TestHeld(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	rnd := func(nb uint) *big.Int {
		w := make([]big.Word, (nb+wordBits-1)/wordBits)
		for i := range w {
			w[i] = big.Word(r.Uint64())
		}
		x := new(big.Int).SetBits(w)
		return x.Rsh(x, uint(len(w))*wordBits-nb)
	}
	sizes := []uint{250000, 300000}
	if !testing.Short() {
		sizes = append(sizes, 1000000)
	}
	for _, nb := range sizes {
		a := rnd(nb)
		h := NewHeld(a, nb+80, nb+80)
		if wordBits != 64 {
			// The transform reads 64-bit words: no Held on 32-bit ones.
			if h != nil {
				t.Fatalf("%d bits: NewHeld on %d-bit words = %+v, want nil", nb, wordBits, h.pl)
			}
			continue
		}
		if h == nil {
			t.Fatalf("%d bits: NewHeld = nil", nb)
		}
		steps := 31
		if nb > 250000 {
			steps = 5
		}
		var z, want big.Int
		for k := range steps {
			y := rnd(nb - uint(r.IntN(64)))
			if !h.Fits(uint(y.BitLen())) {
				t.Fatalf("%d bits, step %d: Fits = false", nb, k)
			}
			h.MulAdd(&z, y)
			want.Mul(a, y)
			if z.Cmp(&want) != 0 {
				t.Fatalf("%d bits (plan %+v), step %d: A·y wrong", nb, h.pl, k)
			}
			a.Add(a, y)
		}
		if steps == 31 && h.Fits(nb) {
			t.Errorf("%d bits: Fits after 31 additions", nb)
		}
	}
}
