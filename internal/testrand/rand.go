// Package testrand gives tests a seeded random source. The seed is fixed
// by default so that runs are reproducible; the -testrand.seed flag
// chooses another (0 means a random one), and the seed in use is logged
// whenever it is not the default.
package testrand

import (
	"flag"
	"math/rand/v2"
	"testing"
	"time"
)

// DefaultSeed is the seed used when -testrand.seed is not given.
const DefaultSeed = 1

var seedFlag = flag.Uint64("testrand.seed", DefaultSeed, "seed of randomized tests (0 = random)")

// New returns a PCG source seeded from -testrand.seed and the test's name,
// so that two tests never share a stream. It logs the seed unless it is
// the default.
func New(tb testing.TB) *rand.Rand {
	tb.Helper()
	seed := *seedFlag
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	if seed != DefaultSeed {
		tb.Logf("testrand: -testrand.seed=%d", seed)
	}
	var h uint64 = 14695981039346656037 // FNV-1a of the test name
	for _, c := range []byte(tb.Name()) {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return rand.New(rand.NewPCG(seed, h))
}

// Labels returns n labels drawn uniformly from [0, k) by r.
func Labels(r *rand.Rand, n, k int) []int {
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(k)
	}
	return y
}
