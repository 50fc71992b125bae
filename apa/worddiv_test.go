package apa

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestWordDiv checks wordDiv.quo against big.Int.Quo (truncation toward
// zero) on dividends of 0 to 300 words, both signs, all-ones and sparse,
// and divisors from 1 to 2^64 − 1 with every count of leading zeros; it
// fails if a correction step of div21 or the shift of the dividend is
// wrong.
func TestWordDiv(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 9))
	var wd wordDiv
	for k := range 3000 {
		n := r.IntN(300)
		if k < 100 {
			n = k % 4
		}
		w := make([]big.Word, n)
		for i := range w {
			switch k % 3 {
			case 0:
				w[i] = ^big.Word(0)
			case 1:
				if r.IntN(4) == 0 {
					w[i] = big.Word(r.Uint64())
				}
			default:
				w[i] = big.Word(r.Uint64())
			}
		}
		x := new(big.Int).SetBits(w)
		if k%2 == 1 {
			x.Neg(x)
		}
		d := r.Uint64() >> uint(r.IntN(64))
		switch k % 7 {
		case 0:
			d = ^uint64(0)
		case 1:
			d = 1
		case 2:
			d = 1 << uint(r.IntN(64))
		}
		if d == 0 {
			d = 3
		}
		want := new(big.Int).Quo(x, new(big.Int).SetUint64(d))
		got := new(big.Int).Set(x)
		wd.quo(got, d)
		if got.Cmp(want) != 0 {
			t.Fatalf("case %d: %d words / %#x: got %v, want %v", k, n, d, got, want)
		}
	}
}

// BenchmarkWordDiv times wordDiv.quo against big.Int.QuoRem at the sizes
// of the series at 10^4–3·10^4 bits.
func BenchmarkWordDiv(b *testing.B) {
	r := rand.New(rand.NewPCG(34, 10))
	for _, n := range []int{157, 470} {
		w := make([]big.Word, n)
		for i := range w {
			w[i] = big.Word(r.Uint64())
		}
		x := new(big.Int).SetBits(w)
		d := uint64(0x0fedcba987654321)
		b.Run(fmt.Sprintf("words=%d/wordDiv", n), func(b *testing.B) {
			var wd wordDiv
			z := new(big.Int)
			for b.Loop() {
				z.Set(x)
				wd.quo(z, d)
			}
		})
		b.Run(fmt.Sprintf("words=%d/QuoRem", n), func(b *testing.B) {
			var dd, rr big.Int
			dd.SetUint64(d)
			z := new(big.Int)
			for b.Loop() {
				z.Set(x)
				z.QuoRem(z, &dd, &rr)
			}
		})
	}
}
