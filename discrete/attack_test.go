package discrete_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/serve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func labelsOf(seed uint64, n, k int) []int {
	r := rand.New(rand.NewPCG(seed, 29))
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(k)
	}
	return y
}

func sim(t testing.TB, metric string, y []int, k, decimals int) *discrete.Sim {
	m, err := serve.ParseMetric(metric, "")
	require.NoError(t, err)
	s, err := discrete.NewSim(m, y, k, decimals)
	require.NoError(t, err)
	return s
}

// TestAttacks: every strategy of every metric recovers all 1,000 labels,
// verified and checked, against the served metric's exact arithmetic.
func TestAttacks(t *testing.T) {
	const n = 1000
	for _, tc := range []struct {
		metric   discrete.Metric
		k        int
		decimals int
		st       discrete.Strategy
		maxQ     int
	}{
		{discrete.Accuracy, 2, 5, discrete.Flip, n + 1},
		{discrete.Accuracy, 2, 5, discrete.Group, 330},
		{discrete.AUC, 2, 5, discrete.Flip, n + 1},
		{discrete.AUC, 2, 5, discrete.Group, 330},
		{discrete.Brier, 2, 5, discrete.Flip, n + 1},
		{discrete.Brier, 2, 5, discrete.Group, 330},
		{discrete.Brier, 2, 5, discrete.Family, 200},
		{discrete.Brier, 2, -1, discrete.Family, 60},
		{discrete.Accuracy, 3, 5, discrete.Flip, n + 2},
		{discrete.Brier, 3, 5, discrete.Flip, n + 2},
		{discrete.Accuracy, 5, 5, discrete.Flip, 2*n + 100},
	} {
		name := tc.metric.String() + "/" + tc.st.String()
		t.Run(name, func(t *testing.T) {
			y := labelsOf(uint64(tc.k*10+int(tc.metric)), n, tc.k)
			s := sim(t, tc.metric.String(), y, tc.k, tc.decimals)
			res, err := discrete.Attack(context.Background(), s, discrete.Options{Metric: tc.metric, N: n, K: tc.k, Decimals: tc.decimals, Strategy: tc.st, Check: true})
			require.NoError(t, err)
			assert.Equal(t, y, res.Labels)
			assert.True(t, res.Verified)
			assert.True(t, res.Checked)
			assert.True(t, res.CheckDecisive)
			assert.LessOrEqual(t, res.Queries, tc.maxQ)
			assert.Equal(t, s.Queries(), res.Queries)
			t.Logf("%s K=%d d=%d: %d queries", name, tc.k, tc.decimals, res.Queries)
		})
	}
}

// TestPlan: Plan counts what Attack sends.
func TestPlan(t *testing.T) {
	const n = 700
	for _, m := range []discrete.Metric{discrete.Accuracy, discrete.AUC, discrete.Brier} {
		for _, st := range discrete.Strategies(m, 2) {
			y := labelsOf(9, n, 2)
			o := discrete.Options{Metric: m, N: n, Decimals: 5, Strategy: st, Check: true}
			want, err := discrete.Plan(o)
			require.NoError(t, err)
			res, err := discrete.Attack(context.Background(), sim(t, m.String(), y, 2, 5), o)
			require.NoError(t, err)
			assert.Equal(t, want, res.Queries, "%v %v", m, st)
		}
	}
}
