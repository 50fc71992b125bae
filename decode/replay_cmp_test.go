package decode

import (
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
)

// TestFloatBounds checks the replay's float64 comparisons through a
// score's bounds against big.Rat.Cmp: scores equal to a float64, between
// two neighbours, at a tie's either side, and past the float64 range.
func TestFloatBounds(t *testing.T) {
	t.Parallel()
	r := testrand.New(t)
	var scores []*big.Rat
	fs := []float64{0, 5e-324, 0.1, 0.6931471805599453, 1, 1.5, math.MaxFloat64, -0.1, -1.5}
	for range 40 {
		fs = append(fs, math.Ldexp(r.Float64(), r.IntN(200)-100))
	}
	for _, f := range fs {
		x := new(big.Rat).SetFloat64(f)
		scores = append(scores, x)
		eps := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Lsh(big.NewInt(1), 1200))
		scores = append(scores, new(big.Rat).Add(x, eps), new(big.Rat).Sub(x, eps))
		if f == math.MaxFloat64 {
			continue
		}
		up := new(big.Rat).SetFloat64(math.Nextafter(f, math.Inf(1)))
		mid := new(big.Rat).Add(x, up)
		mid.Quo(mid, big.NewRat(2, 1)) // a tie: its nearest float64 is f or the next one
		scores = append(scores, mid, new(big.Rat).Add(mid, eps), new(big.Rat).Sub(mid, eps))
	}
	big3 := new(big.Rat).Mul(new(big.Rat).SetFloat64(math.MaxFloat64), big.NewRat(3, 1))
	scores = append(scores, big3, new(big.Rat).Neg(big3))
	for _, s := range scores {
		down, up := floatBounds(s)
		for _, g := range fs {
			for _, f := range []float64{g, math.Nextafter(g, math.Inf(1)), math.Nextafter(g, math.Inf(-1))} {
				if math.IsInf(f, 0) {
					continue
				}
				c := s.Cmp(new(big.Rat).SetFloat64(f))
				if down >= f != (c >= 0) || up <= f != (c <= 0) {
					t.Fatalf("floatBounds(%s) = %v, %v against %v: Cmp says %d", s.FloatString(30), down, up, f, c)
				}
			}
		}
	}
}
