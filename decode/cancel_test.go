package decode

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAttackSingleCancel cancels the exact single-query attack at
// N = 10^5 (10^4 under -short) mid-way: it returns context.Canceled
// within a second of the cancellation, whichever step it was in.
func TestAttackSingleCancel(t *testing.T) {
	n, after := 100000, 500*time.Millisecond
	if testing.Short() {
		n, after = 10000, 50*time.Millisecond
	}
	labels := seededLabels(t, n, 2)
	// The server answers at the plan's precision, so that an attack that
	// finishes just as the cancellation fires (ctxwait.Do may see both at
	// once) returns the right labels, not ErrInconsistent: a cancelled
	// attack returns context.Canceled, a finished one the truth.
	q, err := PlanSingle(context.Background(), SingleOptions{N: n, K: 2})
	require.NoError(t, err)
	o, err := oracle.NewExact(labels, 2, q.Prec())
	require.NoError(t, err)
	cancelled := 0
	for _, at := range []time.Duration{after / 10, after, 2 * after} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(at, cancel)
		t0 := time.Now()
		res, err := AttackSingle(ctx, o, Options{})
		el := time.Since(t0)
		cancel()
		if err == nil {
			// Finished before the cancellation took effect (a fast
			// machine, or the two at once): it must then be right.
			assert.Equal(t, labels, res.Labels, "finished at %v, cancelled at %v", el, at)
			continue
		}
		cancelled++
		assert.ErrorIs(t, err, context.Canceled, "cancelled at %v", at)
		assert.Less(t, el-at, time.Second, "returned %v after a cancellation at %v", el-at, at)
	}
	if cancelled == 0 {
		t.Errorf("the attack at N = %d finished before every cancellation (%v and later): nothing was cancelled", n, after/10)
	}
}

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
