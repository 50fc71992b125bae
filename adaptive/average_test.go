package adaptive_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/adaptive"
	"github.com/labelinf/labelinf/defence"
)

// TestAverage: m repeats of one prediction average fresh noise down to
// σ/√m; keyed noise gives m equal answers and nothing to average.
func TestAverage(t *testing.T) {
	const n, m, sigma = 100, 400, 0.02
	y := labels(12, n, 0.5)
	pred := make([]float64, n)
	for i := range pred {
		pred[i] = 0.5
	}
	truth := math.Ln2 // every row predicts 1/2
	secret := []byte("a secret the host keeps, 32 byte")
	for _, key := range []defence.NoiseKey{defence.Fresh, defence.KeyedPrediction} {
		t.Run(key.String(), func(t *testing.T) {
			z, err := defence.NewNoise(defence.NoiseOptions{Kind: defence.Gaussian, Scale: sigma, Key: key, Secret: secret})
			require.NoError(t, err)
			b := board(t, defence.LogLoss{Eps: 1e-3}, y, z)
			res, err := adaptive.Average(context.Background(), b, pred, m)
			require.NoError(t, err)
			assert.Equal(t, m, res.Submissions)
			if key == defence.Fresh {
				assert.Equal(t, m, res.Distinct)
				// |mean − truth| < 5σ/√m = 0.005; sd within 20% of σ (se(sd) ≈ σ/√(2m) = 3.5%).
				assert.InDelta(t, truth, res.Mean, 5*sigma/math.Sqrt(m))
				assert.InDelta(t, sigma, res.SD, 0.2*sigma)
			} else {
				assert.Equal(t, 1, res.Distinct, "keyed noise repeats")
				assert.Equal(t, 0.0, res.SD)
			}
		})
	}
	_, err := adaptive.Average(context.Background(), nil, pred, 0)
	assert.Error(t, err)
}

// TestAverageLabels: with N = 50 and Gaussian σ = 0.2 a single answer
// decides a label with error Φ(−gap/2σ) ≈ 0.37 (gap = ln(999)/50); m =
// RepeatsFor(σ, gap, 10⁻³) answers averaged bring it to ≤ 10⁻³ against
// fresh noise. Keyed noise holds the error at ≈ 0.37 for exact repeats;
// perturbed repeats (one other row moved by a few ulps) get fresh draws
// again and the attack succeeds.
func TestAverageLabels(t *testing.T) {
	const n, sigma, eps = 50, 0.2, 1e-3
	gap := math.Log((1-eps)/eps) / n
	m, err := adaptive.RepeatsFor(sigma, gap, 1e-3)
	require.NoError(t, err)
	require.Equal(t, 116, m, "⌈8σ²·ln(1000)/gap²⌉")
	y := labels(13, n, 0.5)
	secret := []byte("a secret the host keeps, 32 byte")
	wrong := func(key defence.NoiseKey, perturb bool) (int, *adaptive.AverageLabelsResult) {
		z, err := defence.NewNoise(defence.NoiseOptions{Kind: defence.Gaussian, Scale: sigma, Key: key, Secret: secret})
		require.NoError(t, err)
		b := board(t, defence.LogLoss{Eps: eps}, y, z)
		res, err := adaptive.AverageLabels(context.Background(), b, adaptive.AverageOptions{N: n, Eps: eps, Repeats: m, Perturb: perturb})
		require.NoError(t, err)
		require.Equal(t, n*m, res.Submissions)
		require.Equal(t, n, res.Known)
		w := 0
		for i, v := range y {
			if int8(v) != res.Labels[i] {
				w++
			}
		}
		return w, res
	}
	// Fresh: expected errors 50·10⁻³; P(≥ 2) < 0.002.
	w, res := wrong(defence.Fresh, false)
	assert.LessOrEqual(t, w, 1, "fresh noise averaged away")
	assert.Equal(t, 0, res.Repeated)
	// Keyed, exact repeats: each label decided by one draw, error ≈ 0.37;
	// P(fewer than 6 wrong of 50) < 10⁻⁶.
	w, res = wrong(defence.KeyedPrediction, false)
	assert.GreaterOrEqual(t, w, 6, "keyed noise is not averaged")
	assert.Equal(t, n, res.Repeated, "every label's answers were equal")
	// Keyed on the prediction or on the losses, perturbed repeats: fresh
	// draws again.
	for _, key := range []defence.NoiseKey{defence.KeyedPrediction, defence.KeyedLosses} {
		w, _ = wrong(key, true)
		assert.LessOrEqual(t, w, 1, "%v noise with perturbed repeats", key)
	}

	_, err = adaptive.RepeatsFor(math.NaN(), 1, 0.1)
	assert.Error(t, err)
	_, err = adaptive.AverageLabels(context.Background(), nil, adaptive.AverageOptions{N: 1, Eps: eps, Repeats: 1})
	assert.Error(t, err)
}
