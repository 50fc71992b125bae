package single

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRobustRecovers(t *testing.T) {
	rng := testrand.New(t)
	for _, tt := range []struct {
		n, k   int
		tau    float64
		enc    scorer.Encoding
		w      WeightSet
		margin float64
	}{
		{1, 2, 1, scorer.Logits, PowerWeights, 0},
		{300, 2, 1, scorer.LogProbs, PowerWeights, math.Log(3) - 1}, // EA Thm 14's base 3: W = 2Nτ·ln 3
		{20, 2, 1, scorer.Probs, PowerWeights, math.Log(3) - 1},
		{200, 2, 1, scorer.Logits, PowerWeights, 0},
		{200, 2, 1e-6, scorer.Logits, PowerWeights, 0}, // small W: logsumexp tails matter
		{200, 2, 1, scorer.LogProbs, PowerWeights, 0},
		{150, 3, 0.5, scorer.Logits, PowerWeights, 0},
		{100, 6, 2, scorer.LogProbs, PowerWeights, 0},
		{18, 2, 1, scorer.Probs, PowerWeights, 0},
		{12, 3, 1e-3, scorer.Probs, PowerWeights, 0},
		{30, 2, 1, scorer.Logits, ConwayGuyWeights, 0},
		{20, 2, 0.01, scorer.Probs, ConwayGuyWeights, 0},
	} {
		t.Run(fmt.Sprintf("n=%d/k=%d/tau=%g/%v/w=%d/margin=%.3g", tt.n, tt.k, tt.tau, tt.enc, tt.w, tt.margin), func(t *testing.T) {
			opt := RobustOptions{N: tt.n, K: tt.k, Tau: tt.tau, Encoding: tt.enc, Weights: tt.w, Margin: tt.margin}
			p, err := PlanRobust(context.Background(), opt)
			require.NoError(t, err)
			for trial := range 3 {
				labels := make([]int, tt.n)
				for i := range labels {
					labels[i] = rng.IntN(tt.k)
				}
				if trial == 1 { // all the top class: the smallest loss
					for i := range labels {
						labels[i] = tt.k - 1
					}
				}
				srv, err := oracle.NewBigExact(labels, tt.k, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: tt.tau}, rng.Uint64())
				require.NoError(t, err)
				res, err := AttackRobust(context.Background(), srv, opt)
				require.NoError(t, err)
				assert.Equal(t, labels, res.Labels)
				assert.Equal(t, 1, srv.Queries())
				assert.Less(t, res.Residual, res.Budget)
			}
		})
	}
}

func TestRobustFailures(t *testing.T) {
	rng := testrand.New(t)
	opt := RobustOptions{N: 50, K: 2, Tau: 1}
	p, err := PlanRobust(context.Background(), opt)
	require.NoError(t, err)
	labels := make([]int, 50)
	// Noise beyond the bound the plan assumed: a returned labeling is
	// still verified (its score is within the budget of the observed one,
	// which is all a score can certify), or the score is refused.
	wrong := 0
	for range 20 {
		for i := range labels {
			labels[i] = rng.IntN(2)
		}
		srv, err := oracle.NewBigExact(labels, 2, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: 40}, rng.Uint64())
		require.NoError(t, err)
		res, err := AttackRobust(context.Background(), srv, opt)
		if err != nil {
			assert.ErrorIs(t, err, decode.ErrInconsistent)
			continue
		}
		assert.LessOrEqual(t, res.Residual, res.Budget)
		if fmt.Sprint(res.Labels) != fmt.Sprint(labels) {
			wrong++
		}
	}
	assert.Greater(t, wrong, 0, "noise 40× the bound must mislead some decodings")
	// A score halfway between two labelings' scores is explained by none.
	exact, err := oracle.NewBigExact(labels, 2, p.Prec()+64, scorer.Noise{}, 1)
	require.NoError(t, err)
	score, err := exact.Score(context.Background(), p.Pred())
	require.NoError(t, err)
	shift := new(big.Float).SetPrec(p.Prec()+64).Quo(p.W, big.NewFloat(100)) // W/(2N), N = 50
	score.Add(score, shift)
	_, err = p.Decode(score, p.Prec()+64)
	assert.ErrorIs(t, err, decode.ErrInconsistent)
	// Too few bits.
	srv, err := oracle.NewBigExact(labels, 2, p.Prec()-1, scorer.Noise{}, 1)
	require.NoError(t, err)
	_, err = AttackRobust(context.Background(), srv, opt)
	var pe *PrecisionError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, p.Prec(), pe.Need)
	// Bad options.
	for _, bad := range []RobustOptions{
		{N: 0, K: 2, Tau: 1}, {N: 10, K: 1, Tau: 1}, {N: 10, K: 2}, {N: 10, K: 2, Tau: -1},
		{N: 10, K: 3, Tau: 1, Weights: ConwayGuyWeights}, {N: 51, K: 2, Tau: 1, Weights: ConwayGuyWeights},
		{N: 10, K: 2, Tau: 1, Margin: -1}, {N: 1000, K: 2, Tau: 1, Encoding: scorer.Probs}, {N: 10, K: 2, Tau: 1e-300},
	} {
		_, err := PlanRobust(context.Background(), bad)
		assert.Error(t, err, "%+v", bad)
	}
}

// TestMaxProbRows checks the limit of probability predictions: the attack
// works at MaxProbRows and the plan refuses one more row, because the
// smallest probability leaves big.Float's exponent range.
func TestMaxProbRows(t *testing.T) {
	for _, tt := range []struct {
		tau  float64
		want int
	}{{1e-9, 54}, {1e-6, 44}, {1e-3, 35}, {1, 25}, {1000, 16}} {
		assert.Equal(t, tt.want, MaxProbRows(tt.tau, 0), "τ=%g", tt.tau)
	}
	rng := testrand.New(t)
	const tau = 1.0
	limit := MaxProbRows(tau, 0)
	n := limit
	if testing.Short() {
		// 8 rows below the limit: probabilities down to e^(−2^22) rather
		// than e^(−2^30), whose exponentials dominate the test's time.
		// The refusal one row beyond the limit is checked all the same.
		n = limit - 8
	}
	opt := RobustOptions{N: n, K: 2, Tau: tau, Encoding: scorer.Probs}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(2)
	}
	p, err := PlanRobust(context.Background(), opt)
	require.NoError(t, err)
	srv, err := oracle.NewBigExact(labels, 2, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: tau}, 1)
	require.NoError(t, err)
	res, err := p.Attack(context.Background(), srv)
	require.NoError(t, err)
	assert.Equal(t, labels, res.Labels)
	opt.N = limit + 1
	_, err = PlanRobust(context.Background(), opt)
	assert.ErrorContains(t, err, "exponent range")
}

// TestRobustFailureRate runs the one-query attack against unbounded noise
// whose half-width τ holds with probability 1 − δ, at δ = 0.05 so that
// failures are observable: Gaussian, τ = σ·√(2 ln(2/δ)) [AKXFT21, App.
// B.5]; Laplace (ε-DP's noise, sub-exponential), τ = b·ln(1/δ), its exact
// tail. The empirical failure rate must stay at or below δ (3σ of
// sampling allowed); with τ halved it would be about 4 times δ.
func TestRobustFailureRate(t *testing.T) {
	const delta, trials, n = 0.05, 1000, 40
	for _, nz := range []scorer.Noise{
		{Kind: scorer.Gaussian, Tau: 1, Delta: delta},
		{Kind: scorer.Laplace, Tau: 0.5, Delta: delta},
	} {
		t.Run(nz.Kind.String(), func(t *testing.T) {
			rng := testrand.New(t)
			tau := nz.HalfWidth(0, 1)
			if nz.Kind == scorer.Laplace {
				assert.InDelta(t, nz.Tau*math.Log(1/delta), tau, 1e-9)
				assert.Less(t, tau, scorer.SubExpHalfWidth(2*nz.Tau, 2*nz.Tau, delta), "the exact tail beats the generic sub-exponential bound")
			}
			p, err := PlanRobust(context.Background(), RobustOptions{N: n, K: 2, Tau: tau})
			require.NoError(t, err)
			fail := 0
			labels := make([]int, n)
			for range trials {
				for i := range labels {
					labels[i] = rng.IntN(2)
				}
				srv, err := oracle.NewBigExact(labels, 2, p.Prec(), nz, rng.Uint64())
				require.NoError(t, err)
				res, err := p.Attack(context.Background(), srv)
				if err != nil || fmt.Sprint(res.Labels) != fmt.Sprint(labels) {
					fail++
				}
			}
			t.Logf("%d failures in %d trials (τ = %.4g)", fail, trials, tau)
			assert.LessOrEqual(t, float64(fail), delta*trials+3*math.Sqrt(delta*(1-delta)*trials), "%d failures in %d trials", fail, trials)
		})
	}
}
