package passive

import (
	"math"
	"math/bits"
	"testing"

	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mathext"
)

func TestBinomialHalfUpper(t *testing.T) {
	// Small n against the definition.
	for n := 0; n <= 12; n++ {
		for k := -1; k <= n+1; k++ {
			var want float64
			for x := 0; x < 1<<n; x++ {
				if popcount(x) >= k {
					want++
				}
			}
			want /= float64(int(1) << n)
			assert.InDelta(t, want, BinomialHalfUpper(k, n), 1e-15, "n=%d k=%d", n, k)
		}
	}
	// Large n against the regularized incomplete beta function:
	// P(X ≥ k) = I_{1/2}(k, n−k+1) (an independent formula and code).
	for _, tt := range []struct{ k, n int }{{260, 520}, {270, 520}, {300, 520}, {1400, 2600}, {1500, 2600}} {
		want := mathext.RegIncBeta(float64(tt.k), float64(tt.n-tt.k+1), 0.5)
		assert.InEpsilon(t, want, BinomialHalfUpper(tt.k, tt.n), 1e-9, "k=%d n=%d", tt.k, tt.n)
	}
	// Far in the tail the exact sum stays accurate where float sums fail:
	// P(X ≥ 1000 | 1000) = 2^−1000.
	assert.Equal(t, math.Ldexp(1, -1000), BinomialHalfUpper(1000, 1000))
}

func popcount(x int) int { return bits.OnesCount(uint(x)) }

func TestPoissonBinomialUpper(t *testing.T) {
	rng := testrand.New(t)
	for trial := range 20 {
		n := 1 + trial%12
		q := make([]float64, n)
		for i := range q {
			q[i] = rng.Float64()
		}
		for k := 0; k <= n+1; k++ {
			var want float64 // enumerate all 2ⁿ outcomes
			for x := 0; x < 1<<n; x++ {
				if popcount(x) < k {
					continue
				}
				pr := 1.0
				for i := range n {
					if x>>i&1 == 1 {
						pr *= q[i]
					} else {
						pr *= 1 - q[i]
					}
				}
				want += pr
			}
			assert.InDelta(t, want, PoissonBinomialUpper(q, k), 1e-12, "n=%d k=%d", n, k)
		}
	}
	half := make([]float64, 520)
	for i := range half {
		half[i] = 0.5
	}
	for _, k := range []int{0, 200, 260, 280, 320} {
		assert.InEpsilon(t, BinomialHalfUpper(k, 520), PoissonBinomialUpper(half, k), 1e-10, "k=%d", k)
	}
}

func TestConfidenceIntervals(t *testing.T) {
	// Closed forms at the edges: k = 0 gives [0, 1 − (α/2)^{1/n}], k = n
	// gives [(α/2)^{1/n}, 1].
	ci := ClopperPearson(0, 10, 0.95)
	assert.Equal(t, 0.0, ci[0])
	assert.InDelta(t, 1-math.Pow(0.025, 0.1), ci[1], 1e-12)
	ci = ClopperPearson(10, 10, 0.95)
	assert.InDelta(t, math.Pow(0.025, 0.1), ci[0], 1e-12)
	assert.Equal(t, 1.0, ci[1])
	// Wilson, k = 5 of 10: 0.5 ± 1.95996/1.38415·√(0.025 + 0.0096036).
	w := Wilson(5, 10, 0.95)
	assert.InDelta(t, 0.236593, w[0], 1e-6)
	assert.InDelta(t, 0.763407, w[1], 1e-6)
	assert.Equal(t, [2]float64{0, 1}, ClopperPearson(0, 0, 0.95))

	// Clopper–Pearson is exact: its coverage is ≥ 95% at every p. Compute
	// the coverage exactly by summing the binomial pmf over the k whose
	// interval contains p.
	const n = 60
	ints := make([][2]float64, n+1)
	for k := range ints {
		ints[k] = ClopperPearson(k, n, 0.95)
		assert.LessOrEqual(t, ints[k][0], float64(k)/n)
		assert.GreaterOrEqual(t, ints[k][1], float64(k)/n)
	}
	for _, p := range []float64{0.01, 0.1, 0.3, 0.5, 0.517, 0.8, 0.95} {
		var cover float64
		for k := 0; k <= n; k++ {
			if ints[k][0] <= p && p <= ints[k][1] {
				cover += math.Exp(lchoose(n, k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
			}
		}
		assert.GreaterOrEqual(t, cover, 0.95-1e-12, "coverage at p=%v", p)
	}
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// TestEvaluateNullCalibration simulates models that memorized nothing
// (outputs independent of the labels) and checks that PCond rejects at
// most about α of the time for every attack, while PHalf rejects the
// delta-margin attack far more often: the bias the conditional test
// removes.
func TestEvaluateNullCalibration(t *testing.T) {
	rng := testrand.New(t)
	const trials, n = 400, 300
	attacks := []Attack{
		{Kind: ThresholdFixed}, {Kind: ThresholdMedian},
		{Kind: DeltaMargin, Alpha: 1, Beta: 1}, {Kind: DeltaMarginSymmetric, Alpha: 1, Beta: 1},
		{Kind: LossInversion},
	}
	for _, keep := range []float64{1, 0.7} {
		cond := make([]int, len(attacks))
		half := make([]int, len(attacks))
		for range trials {
			p := make([]float64, n)
			y, tr := make([]int, n), make([]int, n)
			for i := range n {
				p[i] = math.Pow(rng.Float64(), 2.5) // skewed towards 0, like Census
				y[i] = rng.IntN(2)
				tr[i] = y[i]
				if rng.Float64() >= keep {
					tr[i] = 1 - y[i]
				}
			}
			for a, at := range attacks {
				o, err := Evaluate(at, p, y, tr, keep)
				require.NoError(t, err)
				cond[a] += b2i(o.PCond < Alpha)
				half[a] += b2i(o.PHalf < Alpha)
			}
		}
		for a, at := range attacks {
			// α·trials = 4; the binomial 99.9% point is 11.
			assert.LessOrEqual(t, cond[a], 11, "keep=%v %v: PCond rejects %d/%d null models", keep, at, cond[a], trials)
			if !at.ReadsLabels() {
				assert.Equal(t, half[a], cond[a], "label-free attacks: the two tests coincide")
			}
		}
		if keep == 1 {
			assert.Greater(t, half[2], trials/4, "PHalf wrongly detects memorization for delta-margin on null models")
			assert.Equal(t, trials, half[4], "loss inversion always 'succeeds'")
		}
	}
}

func TestEvaluateDetectsMemorization(t *testing.T) {
	rng := testrand.New(t)
	const n = 500
	// A model that memorized 60% of its training labels.
	p := make([]float64, n)
	y := make([]int, n)
	for i := range n {
		y[i] = rng.IntN(2)
		p[i] = 0.2 + 0.6*rng.Float64()
		if rng.Float64() < 0.6 {
			p[i] = 0.05 + 0.9*float64(y[i])
		}
	}
	o, err := Evaluate(Attack{Kind: ThresholdFixed}, p, y, y, 1)
	require.NoError(t, err)
	assert.True(t, o.Detected)
	assert.Greater(t, o.Rate, 0.7)
	assert.Less(t, o.PCond, 1e-10)
	assert.True(t, o.CI[0] < o.Rate && o.Rate < o.CI[1])

	// Pooling two halves gives the counts of the whole and the tail of
	// the concatenated null.
	a, err := Evaluate(Attack{Kind: ThresholdFixed}, p[:200], y[:200], y[:200], 1)
	require.NoError(t, err)
	b, err := Evaluate(Attack{Kind: ThresholdFixed}, p[200:], y[200:], y[200:], 1)
	require.NoError(t, err)
	pooled := Pool(a, b)
	assert.Equal(t, o.Successes, pooled.Successes)
	assert.Equal(t, o.N, pooled.N)
	assert.InEpsilon(t, o.PCond, pooled.PCond, 1e-9)
	assert.Equal(t, Outcome{}, Pool())

	for _, tt := range []struct {
		name string
		run  func() error
	}{
		{"length", func() error { _, err := Evaluate(Attack{}, p, y[:3], y, 1); return err }},
		{"keep", func() error { _, err := Evaluate(Attack{}, p, y, y, 0.3); return err }},
		{"label", func() error { _, err := Evaluate(Attack{}, []float64{0.5}, []int{3}, []int{0}, 1); return err }},
	} {
		assert.Error(t, tt.run(), tt.name)
	}
}
