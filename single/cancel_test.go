package single

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
)

// TestAttackSingleCancel cancels the exact single-query attack at
// N = 10^5 (10^4 under -short) mid-way: it returns context.Canceled
// within a second of the cancellation, whichever step it was in.
func TestAttackSingleCancel(t *testing.T) {
	n, after := 100000, 500*time.Millisecond
	if testing.Short() {
		n, after = 10000, 50*time.Millisecond
	}
	labels := testrand.Labels(testrand.New(t), n, 2)
	// The server answers at the plan's precision, so that an attack that
	// finishes just as the cancellation fires (ctxwait.Do may see both at
	// once) returns the right labels, not ErrInconsistent: a cancelled
	// attack returns context.Canceled, a finished one the truth.
	q, err := Plan(context.Background(), PlanOptions{N: n, K: 2})
	if err != nil {
		t.Fatal(err)
	}
	o, err := oracle.NewExact(labels, 2, q.Prec())
	if err != nil {
		t.Fatal(err)
	}
	cancelled := 0
	for _, at := range []time.Duration{after / 10, after, 2 * after} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(at, cancel)
		t0 := time.Now()
		res, err := Attack(ctx, o, Options{})
		el := time.Since(t0)
		cancel()
		if err == nil {
			// Finished before the cancellation took effect (a fast
			// machine, or the two at once): it must then be right.
			if !slices.Equal(res.Labels, labels) {
				t.Errorf("finished at %v, cancelled at %v: res.Labels = %v, want %v", el, at, res.Labels, labels)
			}
			continue
		}
		cancelled++
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled at %v: err = %v, want %v", at, err, context.Canceled)
		}
		if el-at >= time.Second {
			t.Errorf("returned %v after a cancellation at %v: el-at = %v, want < time.Second = %v", el-at, at, el-at, time.Second)
		}
	}
	if cancelled == 0 {
		t.Errorf("the attack at N = %d finished before every cancellation (%v and later): nothing was cancelled", n, after/10)
	}
}
