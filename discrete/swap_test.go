package discrete_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/labelinf/labelinf/discrete"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSwap: the pair-swap attack recovers every label of ROC AUC
// competitions rounded to 1–5 decimals or not at all, in about
// N + 2·log₂N queries, verified and checked; auto picks it where the
// group attack cannot read a count (2 decimals on 1,000 rows) and group
// at 3, where it can (313 queries).
func TestSwap(t *testing.T) {
	for _, tc := range []struct {
		n, dec int
		seed   uint64
	}{{1000, 2, 1}, {1000, 3, 2}, {1000, 4, 3}, {1000, 5, 4}, {1000, -1, 5}, {200, 1, 6}, {2, 5, 7}, {3, 2, 8}, {500, 2, 9}} {
		t.Run(fmt.Sprintf("n=%d/d=%d", tc.n, tc.dec), func(t *testing.T) {
			y := labelsOf(tc.seed, tc.n, 2)
			if tc.n <= 3 {
				y[0], y[1] = 1, 0
			}
			s := sim(t, "roc-auc", y, 2, tc.dec)
			o := discrete.Options{Metric: discrete.AUC, N: tc.n, Decimals: tc.dec, Check: true}
			if tc.dec >= 0 && tc.dec <= 2 && tc.n >= 500 {
				require.Equal(t, discrete.Swap, discrete.Choose(o))
			}
			if tc.dec == 3 {
				require.Equal(t, discrete.Group, discrete.Choose(o))
			}
			o.Strategy = discrete.Swap
			res, err := discrete.Attack(context.Background(), s, o)
			require.NoError(t, err)
			assert.Equal(t, y, res.Labels)
			assert.True(t, res.Verified)
			assert.True(t, res.Checked)
			plan, err := discrete.Plan(o)
			require.NoError(t, err)
			assert.LessOrEqual(t, res.Queries, plan)
			assert.Equal(t, s.Queries(), res.Queries)
			t.Logf("n=%d d=%d: %d queries (plan ≤ %d), check decisive %v", tc.n, tc.dec, res.Queries, plan, res.CheckDecisive)
		})
	}
}
