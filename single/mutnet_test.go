package single

import (
	"context"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMutNetAttack submits the robust attack as a model [EA, Theorem 9]:
// the server runs MUTNET on its own private input, computes the sigmoid
// cross-entropy of the outputs against its labels and adds noise; the
// labels come back from that one score.
func TestMutNetAttack(t *testing.T) {
	rng := testrand.New(t)
	const n, d, h, tau = 300, 8, 16, 1.0
	p, err := PlanRobust(context.Background(), RobustOptions{N: n, K: 2, Tau: tau})
	require.NoError(t, err)
	x := make([]*big.Float, n)
	for i := range x {
		x[i] = p.Pred().V[2*i+1] // class-1 logit; class 0 is 0
	}
	net, err := NewMutNet(x, d, h, rng)
	require.NoError(t, err)

	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(2)
	}
	srv, err := oracle.NewBigExact(labels, 2, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: tau}, rng.Uint64())
	require.NoError(t, err)
	for range 3 {
		v := make([]float64, d) // the server's private input, in (0,1)^d
		for i := range v {
			v[i] = 1e-9 + (1-2e-9)*rng.Float64()
		}
		logits, err := net.Logits(v)
		require.NoError(t, err)
		pred := &scorer.BigPred{Enc: scorer.Logits, K: 2, V: make([]*big.Float, 2*n)}
		for i, z := range logits {
			require.Zero(t, z.Cmp(x[i]), "output %d depends on the input", i)
			pred.V[2*i], pred.V[2*i+1] = new(big.Float), z
		}
		score, err := srv.Score(context.Background(), pred)
		require.NoError(t, err)
		res, err := p.Decode(score, srv.Prec())
		require.NoError(t, err)
		assert.Equal(t, labels, res.Labels)
	}
	_, err = net.Logits(make([]float64, d+1))
	assert.Error(t, err)
	_, err = NewMutNet(x, 0, h, rng)
	assert.Error(t, err)
}

// TestMutNetNegativeInput pins where [EA, Appendix G]'s setup claims too
// much: "MUTNET_x converts any real vector v into x" holds only for v ≥ 0
// (Theorem 9 assumes v ∈ (0,1)^d): with negative entries v·M₁ > 0, the
// ReLU is live and the output moves off x′.
func TestMutNetNegativeInput(t *testing.T) {
	rng := testrand.New(t)
	x := []*big.Float{big.NewFloat(-3), big.NewFloat(-1.5)}
	net, err := NewMutNet(x, 4, 8, rng)
	require.NoError(t, err)
	pos, err := net.Logits([]float64{0.2, 0.7, 0.1, 0.9})
	require.NoError(t, err)
	for i := range x {
		assert.Zero(t, pos[i].Cmp(x[i]), "v ≥ 0: output %d must be x′", i)
	}
	neg, err := net.Logits([]float64{-0.2, -0.7, -0.1, -0.9})
	require.NoError(t, err)
	moved := 0
	for i := range x {
		if neg[i].Cmp(x[i]) != 0 {
			moved++
		}
	}
	assert.Equal(t, len(x), moved, "v < 0: every output moves off x′")
}
