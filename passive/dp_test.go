package passive

import (
	"math"
	"slices"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeepProb(t *testing.T) {
	for _, tt := range []struct {
		eps, want float64
	}{
		{math.Inf(1), 1},
		{0, 0.5},
		{math.Log(3), 0.75}, // e^ε = 3
		{1, math.E / (1 + math.E)},
		{800, 1}, // e^800 overflows; 1/(1+e^−800) does not
	} {
		got, err := KeepProb(tt.eps)
		require.NoError(t, err)
		assert.InDelta(t, tt.want, got, 1e-15, "KeepProb(%v)", tt.eps)
	}
	for _, eps := range []float64{-1, math.NaN(), math.Inf(-1)} {
		_, err := KeepProb(eps)
		assert.Error(t, err, "KeepProb(%v)", eps)
	}
}

func TestCanaries(t *testing.T) {
	rng := testrand.New(t)
	c, err := Canaries(26048, 0.02, rng)
	require.NoError(t, err)
	assert.Len(t, c, 520) // [BLIA, Table 1]
	assert.True(t, slices.IsSorted(c))
	assert.Equal(t, len(c), len(slices.Compact(slices.Clone(c))), "distinct")
	assert.True(t, c[0] >= 0 && c[len(c)-1] < 26048)
	// Every row is chosen with probability frac: over many draws the
	// counts of rows 0..9 are Bin(trials, ½).
	const trials = 4000
	var hits [10]int
	for range trials {
		c, err := Canaries(10, 0.5, rng)
		require.NoError(t, err)
		for _, i := range c {
			hits[i]++
		}
	}
	for i, h := range hits {
		// 5σ of Bin(4000, ½) is 158.
		assert.InDelta(t, trials/2, h, 158, "row %d chosen %d times", i, h)
	}
	for _, tt := range []struct {
		n    int
		frac float64
	}{{100, 0}, {100, 1}, {100, math.NaN()}, {10, 0.05}} {
		_, err := Canaries(tt.n, tt.frac, rng)
		assert.Error(t, err, "Canaries(%d, %v)", tt.n, tt.frac)
	}
}

func TestFlipAndRandomizedResponse(t *testing.T) {
	rng := testrand.New(t)
	const n = 200000
	// All-ones labels: flipping every canary with probability ½ makes them
	// fair coins whatever they were.
	labels := make([]int, n)
	idx := make([]int, n)
	for i := range labels {
		labels[i], idx[i] = 1, i
	}
	FlipCanaries(labels, idx, rng)
	ones := 0
	for _, y := range labels {
		ones += y
	}
	sigma := math.Sqrt(n * 0.25)
	assert.InDelta(t, n/2, ones, 5*sigma)

	u := RRUniforms(n, rng)
	var prev []int
	for _, eps := range []float64{math.Inf(1), 4, 1, 0.3, 0} {
		keep, err := KeepProb(eps)
		require.NoError(t, err)
		out, flipped := RandomizedResponse(make([]int, n), labels, keep, u)
		want := (1 - keep) * n
		assert.InDelta(t, want, flipped, 5*math.Sqrt(n*keep*(1-keep))+0.5, "ε=%v", eps)
		changed := 0
		for i := range out {
			if out[i] != labels[i] {
				changed++
			}
			// Coupling: a label flipped at a larger ε stays flipped.
			if prev != nil && prev[i] != labels[i] {
				require.NotEqual(t, labels[i], out[i], "ε=%v row %d", eps, i)
			}
		}
		assert.Equal(t, flipped, changed)
		prev = out
	}
	assert.Panics(t, func() { RandomizedResponse(make([]int, 2), labels, 1, u) })
}
