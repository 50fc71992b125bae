package discrete

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanRows: a plan aimed at m rows costs its own plan for m rows plus
// the query that reads the held rows, every query repeated; it grows
// with m, equals the whole plan (plus that query) at m = N, and is
// refused where part of the rows is not modelled (AUC, walk).
func TestPlanRows(t *testing.T) {
	for _, o := range []Options{
		{Metric: Accuracy, N: 300, K: 3, Strategy: Group, Repeats: 36000, Check: true, MaxQueries: 4000},
		{Metric: Accuracy, N: 1000, Strategy: Flip, Repeats: 7},
		{Metric: Brier, N: 1000, Strategy: Group, Repeats: 3, Check: true},
	} {
		prev := 0
		for m := 0; m <= o.N; m += 1 + m/3 {
			q, err := PlanRows(o, m)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, q, prev, "%v m=%d", o.Strategy, m)
			prev = q
		}
		whole := o
		whole.MaxQueries = 0
		w, err := Plan(whole)
		require.NoError(t, err)
		q, err := PlanRows(o, o.N)
		require.NoError(t, err)
		assert.Equal(t, w+o.Repeats, q, "%v at m = N", o.Strategy)
		one, err := PlanRows(o, 1)
		require.NoError(t, err)
		assert.Less(t, one*10, w, "%v: one row costs a small part of the whole", o.Strategy)
	}
	_, err := PlanRows(Options{Metric: AUC, N: 100, Strategy: Group}, 5)
	assert.Error(t, err)
	_, err = PlanRows(Options{Metric: Accuracy, N: 100, Strategy: Edge}, 5)
	assert.Error(t, err)
	_, err = PlanRows(Options{Metric: Accuracy, N: 100, Strategy: Flip}, 101)
	assert.Error(t, err)
}
