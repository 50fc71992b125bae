package scorer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/fpa"
)

// TestSumTree checks the cached summation tree against sumNative, bit for
// bit, over random updates of a few terms (the attack's pattern) and of
// many, for every order and shape the emulator accepts.
func TestSumTree(t *testing.T) {
	opts := []fpa.SumOptions{
		{Order: fpa.Pairwise}, {Order: fpa.Pairwise, Block: 16}, {Order: fpa.Pairwise, Block: 32},
		{Order: fpa.Recursive}, {Order: fpa.Pairwise, Chunk: 100}, {Order: fpa.Recursive, Chunk: 37},
		{Order: fpa.Pairwise, Chunk: 1 << 20}, {Order: fpa.Cascade}, {Order: fpa.Cascade, Lanes: 4},
		{Order: fpa.Cascade, Lanes: 16},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 7, 8, 9, 129, 1000, 4099} {
		for _, opt := range opts {
			t.Run(fmt.Sprintf("n=%d/%+v", n, opt), func(t *testing.T) {
				checkTree(t, r, n, opt, func(x float64) float64 { return x })
				checkTree(t, r, n, opt, func(x float64) float32 { return float32(x) })
			})
		}
	}
	// PyTorch's cascade at every level: 2^4 rows per level-0 block, 2^8
	// per level 1, 2^12 per level 2, over 4 columns of 8 lanes.
	sizes := []int{8 * 4 * 4096 * 2, 8*4*4096*2 + 8*4*300 + 8*3 + 5}
	if testing.Short() {
		sizes = []int{8*4*600 + 8*3 + 5} // levels 0 to 2 (2.5 s for the full sizes)
	}
	for _, n := range sizes {
		t.Run(fmt.Sprintf("n=%d/cascade", n), func(t *testing.T) {
			checkTree(t, r, n, fpa.SumOptions{Order: fpa.Cascade}, func(x float64) float32 { return float32(x) })
		})
	}
}

func checkTree[T float](t *testing.T, r *rand.Rand, n int, opt fpa.SumOptions, conv func(float64) T) {
	x := make([]T, n)
	ref := make([]T, n)
	tr := newSumTree(x, opt)
	for step := range 60 {
		k := 1 + r.IntN(3)
		if step%10 == 0 {
			k = n // refill everything
		}
		for range k {
			i := r.IntN(n)
			// Terms of very different sizes, so that roundings differ.
			v := conv(math.Ldexp(r.Float64(), r.IntN(40)-20))
			tr.set(i, v)
			ref[i] = v
		}
		got, want := tr.sum(), sumNative(ref, opt)
		if math.Float64bits(float64(got)) != math.Float64bits(float64(want)) {
			t.Fatalf("step %d: cached sum %v, sumNative %v", step, got, want)
		}
	}
}
