package bigmul

import (
	"flag"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

var calibrate = flag.Bool("calibrate", false, "measure the math/big / transform crossover")

func randInt(r *rand.Rand, words int) *big.Int {
	w := make([]big.Word, words)
	for i := range w {
		w[i] = big.Word(r.Uint64())
	}
	w[words-1] |= 1 << (bits.UintSize - 1)
	return new(big.Int).SetBits(w)
}

func TestMulMatchesMathBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, words := range []int{1, 10, 999, 1000, 1200, 1801, 4000} {
		for _, other := range []int{1, 3, words, words + 77} {
			x, y := randInt(r, words), randInt(r, other)
			if r.IntN(2) == 0 {
				x.Neg(x)
			}
			want := new(big.Int).Mul(x, y)
			if words == other {
				sq := new(big.Int).Mul(x, x)
				if Sqr(new(big.Int), x).Cmp(sq) != 0 {
					t.Errorf("Sqr(%d words)", words)
				}
				z := new(big.Int).Set(x)
				if Mul(z, z, z).Cmp(sq) != 0 {
					t.Errorf("Mul(z, z, z) at %d words", words)
				}
			}
			got := Mul(new(big.Int), x, y)
			if got.Cmp(want) != 0 {
				t.Errorf("Mul(%d words, %d words)", words, other)
			}
			// Aliasing: z = x.
			z := new(big.Int).Set(x)
			Mul(z, z, y)
			if z.Cmp(want) != 0 {
				t.Errorf("Mul aliased (%d, %d words)", words, other)
			}
		}
	}
}

func BenchmarkMul(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, bits := range []int{1e4, 1e5, 1e6, 1e7} {
		words := bits / 64
		x, y := randInt(r, words), randInt(r, words)
		z := new(big.Int)
		b.Run(fmt.Sprintf("bits=%d/impl=mathbig", bits), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				z.Mul(x, y)
			}
		})
		b.Run(fmt.Sprintf("bits=%d/impl=bigmul", bits), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Mul(z, x, y)
			}
		})
	}
}

// FuzzMul compares Mul and Sqr with big.Int.Mul on operands built from the
// fuzzer's bytes, stretched to sizes around the crossover.
func FuzzMul(f *testing.F) {
	f.Add([]byte{1, 2, 3}, uint16(1000), uint16(1000))
	f.Add([]byte{255}, uint16(1200), uint16(3000))
	f.Add([]byte{0, 255, 0}, uint16(2100), uint16(2100))
	f.Fuzz(func(t *testing.T, seed []byte, xw, yw uint16) {
		gen := func(words int, salt byte) *big.Int {
			w := make([]big.Word, words)
			for i := range w {
				var v uint64
				for k := range 8 {
					if len(seed) > 0 {
						v = v<<8 | uint64(seed[(i*8+k)%len(seed)]^salt^byte(i>>k))
					}
				}
				w[i] = big.Word(v)
			}
			return new(big.Int).SetBits(w)
		}
		x, y := gen(int(xw%5000), 0), gen(int(yw%5000), 0x5a)
		want := new(big.Int).Mul(x, y)
		if got := Mul(new(big.Int), x, y); got.Cmp(want) != 0 {
			t.Fatalf("Mul %d×%d words differs", len(x.Bits()), len(y.Bits()))
		}
		if got := Sqr(new(big.Int), x); got.Cmp(new(big.Int).Mul(x, x)) != 0 {
			t.Fatalf("Sqr %d words differs", len(x.Bits()))
		}
	})
}
