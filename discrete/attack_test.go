package discrete_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
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

func sim(t testing.TB, name string, y []int, k, decimals int) *discrete.Sim {
	m, err := metric.Parse(name, "")
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
		{discrete.AUC, 2, 3, discrete.Group, 330}, // a label of S moves AUC by ≥ 2/N
		{discrete.Brier, 2, 5, discrete.Flip, n + 1},
		{discrete.Brier, 2, 5, discrete.Group, 330},
		{discrete.Brier, 2, 5, discrete.Family, 200},
		{discrete.Brier, 2, -1, discrete.Family, 60},
		{discrete.Accuracy, 3, 5, discrete.Flip, n + 2},
		{discrete.Accuracy, 3, 5, discrete.Group, 630},
		{discrete.Brier, 3, 5, discrete.Group, 630},
		{discrete.Accuracy, 5, 5, discrete.Group, 1260},
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
	for _, k := range []int{2, 3} {
		for _, m := range []discrete.Metric{discrete.Accuracy, discrete.AUC, discrete.Brier} {
			for _, st := range discrete.Strategies(m, k) {
				y := labelsOf(9, n, k)
				dec := 5
				if st == discrete.Rank {
					dec = -1 // rank reads an unrounded AUC
				}
				o := discrete.Options{Metric: m, N: n, K: k, Decimals: dec, Strategy: st, Check: true}
				want, err := discrete.Plan(o)
				require.NoError(t, err)
				res, err := discrete.Attack(context.Background(), sim(t, m.String(), y, k, dec), o)
				require.NoError(t, err)
				if st == discrete.Edge || st == discrete.Swap || k > 2 && st == discrete.Flip {
					assert.LessOrEqual(t, res.Queries, want, "%v K=%d %v: a bound", m, k, st)
					continue
				}
				assert.Equal(t, want, res.Queries, "%v K=%d %v", m, k, st)
			}
		}
	}
}

// TestEdge: rounding coarser than one label (1, 2 and 3 decimals on
// 1,000 rows) does not stop the threshold-crossing attack: every label,
// verified and checked, in about N + the walk's queries.
func TestEdge(t *testing.T) {
	const n = 1000
	for _, tc := range []struct {
		metric discrete.Metric
		k, dec int
	}{
		{discrete.Accuracy, 2, 2}, {discrete.Accuracy, 2, 3},
		{discrete.Brier, 2, 2}, {discrete.Accuracy, 3, 2}, {discrete.Brier, 3, 2}, {discrete.Accuracy, 5, 2},
		{discrete.Accuracy, 2, 5}, // fine rounding: edge works too
	} {
		t.Run(fmt.Sprintf("%v/k=%d/dec=%d", tc.metric, tc.k, tc.dec), func(t *testing.T) {
			y := labelsOf(uint64(tc.dec*10+tc.k), n, tc.k)
			o := discrete.Options{Metric: tc.metric, N: n, K: tc.k, Decimals: tc.dec, Check: true}
			if tc.dec < 3 {
				require.Equal(t, discrete.Edge, discrete.Choose(o))
			}
			o.Strategy = discrete.Edge
			res, err := discrete.Attack(context.Background(), sim(t, tc.metric.String(), y, tc.k, tc.dec), o)
			require.NoError(t, err)
			assert.Equal(t, y, res.Labels)
			assert.True(t, res.Verified)
			assert.True(t, res.Checked)
			assert.True(t, res.CheckDecisive)
			plan, err := discrete.Plan(o)
			require.NoError(t, err)
			assert.LessOrEqual(t, res.Queries, plan)
			t.Logf("%v K=%d dec=%d: %d queries (decisive check %v)", tc.metric, tc.k, tc.dec, res.Queries, res.CheckDecisive)
		})
	}
	// 1 decimal on 1,000 balanced rows: a bucket of 100 counts, which a
	// walk of ±1 steps does not leave: the attack stops, nothing claimed.
	y := labelsOf(1, n, 2)
	res, err := discrete.Attack(context.Background(), sim(t, "accuracy", y, 2, 1), discrete.Options{Metric: discrete.Accuracy, N: n, Decimals: 1, Strategy: discrete.Edge})
	var ae *discrete.AmbiguousError
	require.ErrorAs(t, err, &ae)
	for _, k := range res.Known {
		require.False(t, k)
	}
}

// TestFloor: the information bound on small cases, by hand.
func TestFloor(t *testing.T) {
	// 4 rows, 2 of each class: C(4, 2) = 6 labelings, log₂ 6 bits.
	assert.InDelta(t, math.Log2(6), discrete.LabelBits([]int{0, 1, 1, 0}, 2), 1e-12)
	// 1,000 rows of accuracy: 1,001 values, log₂ 1001 ≈ 9.97 bits a score.
	f, err := discrete.Floor(1000, discrete.Values(discrete.Accuracy, 1000, 2, 5))
	require.NoError(t, err)
	assert.Equal(t, 101, f)
	// 2 decimals: 101 values.
	f, err = discrete.Floor(1000, discrete.Values(discrete.Accuracy, 1000, 2, 2))
	require.NoError(t, err)
	assert.Equal(t, 151, f)
	_, err = discrete.Floor(math.NaN(), 10)
	assert.Error(t, err)
	_, err = discrete.Floor(10, 1)
	assert.Error(t, err)
}

// TestNoiseRepeats: against fresh Gaussian noise the means of repeated
// submissions decode: every label, verified (accuracy; ROC AUC, whose
// subset queries move it by at least 2/N a label).
func TestNoiseRepeats(t *testing.T) {
	for _, tc := range []struct {
		m     discrete.Metric
		sigma float64
	}{{discrete.Accuracy, 0.0005}, {discrete.AUC, 0.002}} {
		t.Run(tc.m.String(), func(t *testing.T) { testNoiseRepeats(t, tc.m, tc.sigma) })
	}
}

func testNoiseRepeats(t *testing.T, m discrete.Metric, sigma float64) {
	const n = 300
	y := labelsOf(5, n, 2)
	z := scorer.Noise{Kind: scorer.Gaussian, Tau: sigma, Delta: 1e-6}
	o := discrete.Options{Metric: m, N: n, Decimals: 5, Strategy: discrete.Group, Check: true}
	reps, tau, err := discrete.NoiseRepeats(o, z)
	require.NoError(t, err)
	o.Repeats, o.Tau = reps, tau
	srv, err := oracle.NewNoisy(sim(t, m.String(), y, 2, 5), z, 7)
	require.NoError(t, err)
	res, err := discrete.Attack(context.Background(), srv, o)
	require.NoError(t, err)
	assert.Equal(t, y, res.Labels)
	assert.True(t, res.Verified)
	plan, err := discrete.Plan(o)
	require.NoError(t, err)
	assert.Equal(t, plan, res.Queries)
	t.Logf("σ = %g, N = %d: %d repeats, τ = %.3g, %d queries", z.Tau, n, reps, tau, res.Queries)
	// The same noise, ignored: no labeling explains the scores.
	o.Repeats, o.Tau = 1, 0
	res, err = discrete.Attack(context.Background(), srv, o)
	require.Error(t, err)
	// A budget stops it with what it read.
	o.Repeats, o.Tau, o.MaxQueries = reps, tau, plan/2
	res, err = discrete.Attack(context.Background(), srv, o)
	require.ErrorIs(t, err, discrete.ErrBudget)
	known := 0
	for i, k := range res.Known {
		if k {
			known++
			assert.Equal(t, y[i], res.Labels[i])
		}
	}
	if m == discrete.Accuracy {
		// (AUC's baseline leaves T to several candidates under noise:
		// its subset sums are decoded together at the end.)
		assert.Greater(t, known, 0)
	}
	t.Logf("budget %d: %d labels known", plan/2, known)
}

// TestValuesOf: given the class counts, the AUC takes at most 2n₀n₁ + 1
// values, fewer than N²/2 + 1 for unbalanced classes, and never more
// than the rounding leaves; the floor rises accordingly.
func TestValuesOf(t *testing.T) {
	y := make([]int, 1000)
	for i := range 100 {
		y[i] = 1
	}
	assert.Equal(t, float64(2*100*900+1), discrete.ValuesOf(discrete.AUC, y, 2, -1))
	assert.Equal(t, float64(1000*1000/2+1), discrete.Values(discrete.AUC, 1000, 2, -1))
	assert.Equal(t, 101.0, discrete.ValuesOf(discrete.AUC, y, 2, 2))
	assert.Equal(t, discrete.Values(discrete.Accuracy, 1000, 2, 5), discrete.ValuesOf(discrete.Accuracy, y, 2, 5))
	sharp, err := discrete.Floor(discrete.LabelBits(y, 2), discrete.ValuesOf(discrete.AUC, y, 2, -1))
	require.NoError(t, err)
	loose, err := discrete.Floor(discrete.LabelBits(y, 2), discrete.Values(discrete.AUC, 1000, 2, -1))
	require.NoError(t, err)
	assert.Greater(t, sharp, loose)
	t.Logf("n₁ = 100 of 1,000, unrounded: floor %d (2n₀n₁ + 1 values), %d (N²/2 + 1)", sharp, loose)
}
