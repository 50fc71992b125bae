package single

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMonotoneTheorem12 checks [EA, Theorem 12] on cross-entropy at fixed
// predictions θ_i < ½ (every weight d_i = ln((1−θ_i)/θ_i) > 0, so the
// mean loss grows as labels turn to 1): the exhaustive bound equals the
// closed form min d_i/(2n), the separation Λ never exceeds twice it (the
// theorem's content: τ above it is hopeless), and a mixed-sign prediction
// is not monotone.
func TestMonotoneTheorem12(t *testing.T) {
	theta := []float64{0.4, 0.3, 0.45, 0.1, 0.2, 0.35}
	n := len(theta)
	ce := func(th []float64) func([]int) float64 {
		return func(sigma []int) float64 {
			var s float64
			for i, y := range sigma {
				if y == 1 {
					s -= math.Log(th[i])
				} else {
					s -= math.Log(1 - th[i])
				}
			}
			return s / float64(n)
		}
	}
	bound, set, j, ok, err := monotoneBound(n, ce(theta))
	require.NoError(t, err)
	require.True(t, ok)
	d := make([]float64, n)
	for i, th := range theta {
		d[i] = math.Log((1 - th) / th)
	}
	cb, cj, cok := AdditiveMonotoneBound(d, n)
	require.True(t, cok)
	assert.InEpsilon(t, cb, bound, 1e-9)
	assert.Equal(t, 2, j, "θ = 0.45 has the smallest weight")
	assert.Equal(t, cj, j)
	assert.NotContains(t, set, j)
	lam, err := separation(n, ce(theta))
	require.NoError(t, err)
	assert.LessOrEqual(t, lam, 2*bound*(1+1e-12), "Λ ≤ 2·bound: two labelings one flip apart")

	// Mixed signs: θ_3 > ½ makes its weight negative; no claim.
	mixed := append([]float64(nil), theta...)
	mixed[3] = 0.9
	_, _, _, ok, err = monotoneBound(n, ce(mixed))
	require.NoError(t, err)
	assert.False(t, ok)
	d[3] = -1
	_, _, ok = AdditiveMonotoneBound(d, n)
	assert.False(t, ok)

	// The mirror image (all θ > ½) is monotone non-increasing.
	hi := make([]float64, n)
	for i, th := range theta {
		hi[i] = 1 - th
	}
	b2, _, _, ok, err := monotoneBound(n, ce(hi))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.InEpsilon(t, bound, b2, 1e-9)

	_, _, _, _, err = monotoneBound(0, nil)
	assert.Error(t, err)
	_, _, _, _, err = monotoneBound(2, func([]int) float64 { return math.NaN() })
	assert.Error(t, err)
	var me *MonotoneError
	assert.False(t, errors.As(err, &me))
	msg := (&MonotoneError{N: 6, Tau: 1, Bound: 0.5, J: 2}).Error()
	assert.Contains(t, msg, "EA Thm 12")
}
