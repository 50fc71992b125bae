package single

import (
	"context"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/loss"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFamilyRootAccuracy: at N = 55 the Itakura–Saito weights reach
// W·2^54, and x*(y) must be accurate to far better than 2^−54 relative
// for them to stay superincreasing with margin W (found by labelinf repro
// ea-thm5 on Titanic in blocks of 55: Invert's bisection, good to a
// relative 2^(−prec/2), left a margin of 0.8·W).
func TestFamilyRootAccuracy(t *testing.T) {
	rng := testrand.New(t)
	l := newLoss(t, loss.IS, 0, [4]float64{})
	const n, tau = 55, 0.004
	p, err := PlanFamily(context.Background(), FamilyOptions{Loss: l, N: n, Tau: tau})
	require.NoError(t, err)
	assert.Greater(t, familySeparation(p), 2*tau, "Λ > 2τ")
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(2)
	}
	for _, noise := range []float64{-tau * 0.999, 0, tau * 0.999} {
		r, err := p.Decode(familyScore(t, p, labels, noise), 0)
		require.NoError(t, err, "noise %g", noise)
		assert.Equal(t, labels, r.Labels)
	}
}
