package decode

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
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
	if err != nil {
		t.Fatal(err)
	}
	sim, err := oracle.NewSim(m, labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &cancelAfter{Server: sim, left: 3, cancel: cancel}
	res, err := AttackMulti(ctx, s, MultiOptions{Model: m})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want %v", err, context.Canceled)
	}
	if res == nil {
		t.Fatal("res is nil")
	}
	if res.Verified {
		t.Error("res.Verified is true")
	}
	if res.Queries != 3 {
		t.Errorf("res.Queries = %v, want %v", res.Queries, 3)
	}
	known := 0
	for i, k := range res.Known {
		if k {
			known++
			if res.Labels[i] != labels[i] {
				t.Errorf("known label %d: res.Labels[i] = %v, want %v", i, res.Labels[i], labels[i])
			}
		} else {
			if res.Labels[i] != -1 {
				t.Errorf("unknown label %d: res.Labels[i] = %v, want %v", i, res.Labels[i], -1)
			}
		}
	}
	if known <= 0 {
		t.Errorf("known = %v, want > 0", known)
	}
	if known >= n {
		t.Errorf("known = %v, want < n = %v", known, n)
	}
	_, err = PlanMulti(ctx, MultiOptions{N: n, K: 2, Model: m})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("PlanMulti on a done context: err = %v, want %v", err, context.Canceled)
	}
}
