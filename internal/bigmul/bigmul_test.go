package bigmul

import (
	"flag"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

var calibrate = flag.Bool("calibrate", false, "measure the big.Int.Mul / bigfft.Mul crossover")

func randInt(r *rand.Rand, words int) *big.Int {
	w := make([]big.Word, words)
	for i := range w {
		w[i] = big.Word(r.Uint64())
	}
	w[words-1] |= 1 << 63
	return new(big.Int).SetBits(w)
}

func TestMulMatchesMathBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, words := range []int{1, 10, 1000, 1801, 4000} {
		for _, other := range []int{1, 3, words, words + 77} {
			x, y := randInt(r, words), randInt(r, other)
			if r.IntN(2) == 0 {
				x.Neg(x)
			}
			want := new(big.Int).Mul(x, y)
			got := Mul(new(big.Int), x, y)
			assert.Equal(t, 0, got.Cmp(want), "Mul(%d words, %d words)", words, other)
			// Aliasing: z = x.
			z := new(big.Int).Set(x)
			Mul(z, z, y)
			assert.Equal(t, 0, z.Cmp(want), "Mul aliased (%d, %d words)", words, other)
		}
	}
}

// TestCalibrate prints, for a sweep of sizes, the median time of big.Int.Mul
// and bigfft.Mul. Run with -calibrate; fftThreshold is set from its output.
func TestCalibrate(t *testing.T) {
	if !*calibrate {
		t.Skip("run with -calibrate")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for _, words := range []int{1200, 1800, 2400, 3200, 4800, 8000, 16000} {
		x, y := randInt(r, words), randInt(r, words)
		med := func(f func()) time.Duration {
			var ds []time.Duration
			for range 9 {
				start := time.Now()
				f()
				ds = append(ds, time.Since(start))
			}
			for i := range ds {
				for j := i + 1; j < len(ds); j++ {
					if ds[j] < ds[i] {
						ds[i], ds[j] = ds[j], ds[i]
					}
				}
			}
			return ds[len(ds)/2]
		}
		old := fftThreshold
		fftThreshold = 1 << 30
		tb := med(func() { Mul(new(big.Int), x, y) })
		fftThreshold = 0
		tf := med(func() { Mul(new(big.Int), x, y) })
		fftThreshold = old
		fmt.Printf("words=%d big=%v fft=%v ratio=%.2f\n", words, tb, tf, float64(tb)/float64(tf))
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
