package defence

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThresholdoutPerTeam: with PerTeam each team spends its own budget
// (one team's overfitting leaves another's answers alone), each team's
// state is read and set through TeamState/SetTeamState; TrainWhenExhausted
// answers the training score instead of ErrExhausted.
func TestThresholdoutPerTeam(t *testing.T) {
	seed := [32]byte{9}
	sub := func(team, h, tr string) Submission {
		s := scoreSub(team, h, 1)
		s.TrainScore = rat(tr)
		return s
	}
	for _, perTeam := range []bool{false, true} {
		th, err := NewThresholdout(ThresholdoutOptions{T: 0.05, Sigma: 1e-6, Budget: 2, Seed: &seed, PerTeam: perTeam})
		require.NoError(t, err)
		c, err := NewChain(1, th)
		require.NoError(t, err)
		for range 2 {
			_, err := c.Release(sub("a", "0.40", "0.30")) // above the threshold: spends a's (or the) budget
			require.NoError(t, err)
		}
		_, err = c.Release(sub("a", "0.40", "0.30"))
		assert.ErrorIs(t, err, ErrExhausted)
		got, err := c.Release(sub("b", "0.40", "0.30"))
		if !perTeam {
			assert.ErrorIs(t, err, ErrExhausted, "global: a spent the budget for b too")
			st, ok := th.TeamState("b")
			assert.True(t, ok)
			assert.Equal(t, th.State(), st, "one state for every team")
			continue
		}
		require.NoError(t, err, "per team: b has its own budget")
		assert.InDelta(t, 0.40, got.Float64(), 1e-4)
		a, ok := th.TeamState("a")
		require.True(t, ok)
		assert.Equal(t, 0, a.Remaining)
		b, ok := th.TeamState("b")
		require.True(t, ok)
		assert.Equal(t, 1, b.Remaining)
		_, ok = th.TeamState("c")
		assert.False(t, ok, "c has not submitted")
		assert.Error(t, th.Restore(1), "a per-team budget is set per team")
		assert.Error(t, th.SetState(a))
		assert.Error(t, th.SetTeamState("a", &ThresholdoutState{Remaining: 3, Threshold: 0.05}))
		require.NoError(t, th.SetTeamState("a", &ThresholdoutState{Remaining: 1, Threshold: a.Threshold}))
		_, err = c.Release(sub("a", "0.40", "0.30"))
		require.NoError(t, err, "a's restored budget answers")
		require.NoError(t, th.SetTeamState("b", nil))
		got, err = c.Release(sub("b", "0.40", "0.42"))
		require.NoError(t, err)
		assert.Equal(t, "21/50", got.Score.RatString(), "b, forgotten, starts afresh")
		b, _ = th.TeamState("b")
		assert.Equal(t, 2, b.Remaining)
	}

	th, err := NewThresholdout(ThresholdoutOptions{T: 0.05, Sigma: 1e-6, Budget: 1, Seed: &seed, TrainWhenExhausted: true})
	require.NoError(t, err)
	c, err := NewChain(1, th)
	require.NoError(t, err)
	_, err = c.Release(sub("a", "0.40", "0.30"))
	require.NoError(t, err)
	assert.Equal(t, 0, th.Remaining())
	for _, h := range []string{"0.40", "0.10", "0.99"} {
		got, err := c.Release(sub("b", h, "0.30"))
		require.NoError(t, err)
		assert.Equal(t, "3/10", got.Score.RatString(), "spent: the training score whatever the holdout")
	}

	// Settings: per_team and exhausted reach the stage; a bad exhausted is refused.
	s := Settings{Thresholdout: &ThresholdoutSettings{T: 0.05, Sigma: 0.01, Budget: 3, PerTeam: true, Exhausted: "train"}}
	ch, err := s.Chain(10, nil, nil)
	require.NoError(t, err)
	assert.True(t, ch.Thresholdout().PerTeam())
	s.Thresholdout.Exhausted = "lie"
	_, err = s.Chain(10, nil, nil)
	assert.ErrorContains(t, err, "thresholdout.exhausted")
}
