package decode

import (
	"context"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cancelAfter cancels its context once a number of queries are answered.
type cancelAfter struct {
	scorer.Server
	left   int
	cancel context.CancelFunc
}

func (c *cancelAfter) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	r, err := c.Server.Score(ctx, p)
	if c.left--; c.left == 0 {
		c.cancel()
	}
	return r, err
}

// TestAttackMultiCancel: cancelled after three queries, the multi-query
// attack returns context.Canceled with the blocks it decoded, each label
// of them known and right, the others unknown.
func TestAttackMultiCancel(t *testing.T) {
	t.Parallel()
	const n = 3000
	labels := seededLabels(t, n, 2)
	m, err := scorer.ParseModel(scorer.Float64Sklearn)
	require.NoError(t, err)
	sim, err := oracle.NewSim(m, labels, 2)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &cancelAfter{Server: sim, left: 3, cancel: cancel}
	res, err := AttackMulti(ctx, s, MultiOptions{Model: m})
	assert.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, res)
	assert.False(t, res.Verified)
	assert.Equal(t, 3, res.Queries)
	known := 0
	for i, k := range res.Known {
		if k {
			known++
			assert.Equal(t, labels[i], res.Labels[i], "known label %d", i)
		} else {
			assert.Equal(t, -1, res.Labels[i], "unknown label %d", i)
		}
	}
	assert.Positive(t, known)
	assert.Less(t, known, n)
	_, err = PlanMulti(ctx, MultiOptions{N: n, K: 2, Model: m})
	assert.ErrorIs(t, err, context.Canceled, "PlanMulti on a done context")
}
