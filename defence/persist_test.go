package defence

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStreamStateHandOver: a chain that takes over another's stored state
// (stream positions, Thresholdout's budget and threshold, the Ladder's
// entry) after each submission releases what the first chain releases
// alone: two processes continuing one simulation behave as one. Without
// the hand-over they differ.
func TestStreamStateHandOver(t *testing.T) {
	ss := Settings{Subset: 40, Thresholdout: &ThresholdoutSettings{T: 0.01, Sigma: 0.01, Budget: 5},
		Ladder: &LadderSettings{Kind: "fixed", Eta: "0.001"}, Noise: &NoiseSettings{Kind: "gaussian", Scale: 0.01}}
	const n = 60
	r := rand.New(rand.NewPCG(1, 2))
	subs := make([]Submission, 12)
	for i := range subs {
		l := make([]float64, n)
		for j := range l {
			l[j] = r.Float64()
		}
		subs[i] = Submission{Losses: l, TrainScore: big.NewRat(int64(40+i%3), 100)}
	}
	seed := [32]byte{7}
	one, err := ss.SimulationChain(n, seed, nil)
	require.NoError(t, err)
	var want []string
	for _, s := range subs {
		rel, err := one.Release(s)
		if err != nil {
			want = append(want, err.Error())
			continue
		}
		want = append(want, rel.Text())
	}
	run := func(handOver bool) []string {
		a, err := ss.SimulationChain(n, seed, nil)
		require.NoError(t, err)
		b, err := ss.SimulationChain(n, seed, nil)
		require.NoError(t, err)
		chains := []*Chain{a, b}
		var got []string
		for i, s := range subs {
			c, prev := chains[i%2], chains[(i+1)%2]
			if handOver && i > 0 {
				st, err := prev.StreamState()
				require.NoError(t, err)
				require.NoError(t, c.SetStreamState(st))
				require.NoError(t, c.Thresholdout().SetState(prev.Thresholdout().State()))
				require.NoError(t, c.Ladder().Restore(prev.Ladder().Snapshot()))
			}
			rel, err := c.Release(s)
			if err != nil {
				got = append(got, err.Error())
				continue
			}
			got = append(got, rel.Text())
		}
		return got
	}
	assert.Equal(t, want, run(true))
	assert.NotEqual(t, want, run(false))

	// A state that does not fit is refused and changes nothing.
	c, err := ss.SimulationChain(n, seed, nil)
	require.NoError(t, err)
	st, err := c.StreamState()
	require.NoError(t, err)
	assert.Error(t, c.SetStreamState(st[:len(st)-1]))
	assert.Error(t, c.SetStreamState(append(st, 0)))
	assert.Error(t, c.SetStreamState([]byte{9}))
	assert.Error(t, c.Thresholdout().SetState(ThresholdoutState{Remaining: 6}))
	st2, _ := c.StreamState()
	assert.Equal(t, st, st2)
}
