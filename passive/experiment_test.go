package passive

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseEpsilons(t *testing.T) {
	e, err := ParseEpsilons("inf,4, 2,1,0.8,0.5,0.3")
	require.NoError(t, err)
	require.Len(t, e, 7)
	assert.True(t, math.IsInf(float64(e[0]), 1))
	assert.Equal(t, Epsilon(0.3), e[6])
	assert.Equal(t, "inf", e[0].String())
	b, err := json.Marshal(e[:2])
	require.NoError(t, err)
	assert.Equal(t, `["inf",4]`, string(b))
	for _, bad := range []string{"", "x", "-1", "1,,2", "nan"} {
		_, err := ParseEpsilons(bad)
		assert.Error(t, err, "ParseEpsilons(%q)", bad)
	}
}

// TestExperimentDeterministic checks that a report depends only on the
// configuration, not on how many runs train at once.
func TestExperimentDeterministic(t *testing.T) {
	d, err := LoadDataset("", "wdbc")
	require.NoError(t, err)
	cfg := Config{Model: "mlp", MLP: MLPOptions{Epochs: 5}, Epsilons: []Epsilon{Epsilon(math.Inf(1)), 1}, Seeds: 3, CanaryFrac: 0.05}
	var reps [2]*Report
	for i, w := range []int{1, 2} {
		cfg.Workers = w
		reps[i], err = RunExperiment(context.Background(), d, cfg)
		require.NoError(t, err)
		for e := range reps[i].Epsilons {
			for r := range reps[i].Epsilons[e].Runs {
				reps[i].Epsilons[e].Runs[r].Seconds = 0
			}
		}
		reps[i].Seconds = 0
	}
	assert.Equal(t, reps[0], reps[1])
	r := reps[0]
	assert.Equal(t, 455, r.Epsilons[0].Runs[0].TrainRows) // 569 − ⌈0.2·569⌉
	assert.Equal(t, 22, r.Epsilons[0].Runs[0].Canaries)   // ⌊0.05·455⌋
	assert.Equal(t, 114, r.Epsilons[0].Runs[0].TestRows)  // held-out rows
	assert.Equal(t, 0, r.Epsilons[0].Runs[0].RRFlipped)   // ε = ∞
	assert.Greater(t, r.Epsilons[1].Runs[0].RRFlipped, 0)
	assert.Greater(t, r.Epsilons[0].TestAcc.Mean, 0.9)
	// The seeds differ.
	assert.NotEqual(t, r.Epsilons[0].Runs[0].Outcomes, r.Epsilons[0].Runs[1].Outcomes)
}

// TestExperimentDetectsMemorization trains a network that overfits WDBC
// for long enough to memorize its canaries: the threshold attack must
// detect it without DP.
func TestExperimentDetectsMemorization(t *testing.T) {
	d, err := LoadDataset("", "wdbc")
	require.NoError(t, err)
	epochs := 300
	if testing.Short() {
		epochs = 60 // enough to memorize 112 canaries (train accuracy > 0.99), a fifth of the time
	}
	rep, err := RunExperiment(context.Background(), d, Config{
		Model: "mlp", MLP: MLPOptions{Hidden: []int{64}, Epochs: epochs, Batch: 32, LR: 1e-2},
		Seeds: 2, TrainFrac: 1, CanaryFrac: 0.1,
	})
	require.NoError(t, err)
	thr := rep.Epsilons[0].Pooled[0]
	assert.Equal(t, "threshold", rep.Attacks[0])
	assert.Equal(t, 56*2, thr.N) // ⌊0.1·569⌋ canaries per seed
	assert.True(t, thr.Detected, "threshold: %d/%d, p=%g", thr.Successes, thr.N, thr.PCond)
	assert.Greater(t, thr.Rate, 0.9)
	assert.Greater(t, rep.Epsilons[0].TrainAcc.Mean, 0.99)
	assert.Equal(t, 0, rep.Epsilons[0].Runs[0].TestRows, "no held-out rows with TrainFrac 1")
}

// TestExperimentCensusLogReg runs the paper's CENSUS setting with a model
// too small to memorize 520 canaries: no label-free attack may claim
// memorization, and on the decoys (labels the model never saw) the
// delta-margin attack beats ½ under the paper's test but not under the
// conditional one.
func TestExperimentCensusLogReg(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 26,048 rows")
	}
	d, err := LoadDataset("", "adult")
	require.NoError(t, err)
	rep, err := RunExperiment(context.Background(), d, Config{Model: "logreg", Seeds: 3, FirstSeed: 1})
	require.NoError(t, err)
	e := rep.Epsilons[0]
	run := e.Runs[0]
	assert.Equal(t, 26048, run.TrainRows) // [BLIA, Table 1]
	assert.Equal(t, 520, run.Canaries)
	assert.Equal(t, 16281, run.TestRows)
	assert.InDelta(t, 0.85, e.TestAcc.Mean, 0.01)
	for a, name := range rep.Attacks {
		if !rep.ReadLabels[a] {
			assert.False(t, e.Pooled[a].Detected, "%s: p=%g", name, e.Pooled[a].PCond)
		}
		assert.False(t, e.PooledDecoys[a].Detected, "%s on decoys: p=%g", name, e.PooledDecoys[a].PCond)
	}
	require.True(t, strings.HasPrefix(rep.Attacks[1], "delta-margin("))
	dm := e.PooledDecoys[1]
	assert.Less(t, dm.PHalf, Alpha, "delta-margin beats ½ on labels the model never saw")
	assert.Greater(t, dm.NullRate, 0.52)
}

func TestExperimentErrors(t *testing.T) {
	d := &Dataset{Name: "tiny", Train: &Table{Labels: []int{0, 1, 0, 1}, Cols: []Column{{Name: "x", Num: []float64{1, 2, 3, 4}}}}}
	for _, tt := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"model", Config{Model: "svm"}, "unknown model"},
		{"epsilon", Config{Model: "logreg", Epsilons: []Epsilon{-1}}, "privacy budget"},
		{"no epsilon", Config{Model: "logreg", Epsilons: []Epsilon{}}, "no privacy budget"},
		{"seeds", Config{Model: "logreg", Seeds: -2}, "seeds"},
		{"train frac", Config{Model: "logreg", TrainFrac: 2}, "training fraction"},
		{"canaries", Config{Model: "logreg"}, "selects no canary"},
		{"mlp options", Config{Model: "mlp", MLP: MLPOptions{Batch: -1}}, "batch"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RunExperiment(context.Background(), d, tt.cfg)
			assert.ErrorContains(t, err, tt.want)
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := RunExperiment(ctx, d, Config{Model: "logreg", CanaryFrac: 0.5})
	assert.ErrorIs(t, err, context.Canceled)
}

// TestExperimentDiverged checks that a step size that makes the weights
// overflow is reported as divergence, not as a bad probability in the data.
func TestExperimentDiverged(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := synthetic(rng, 200, []float64{1, -2, 0.5}, 0.1)
	n, d := x.Dims()
	tb := &Table{Labels: y}
	for j := range d {
		c := Column{Name: fmt.Sprint("x", j), Num: make([]float64, n)}
		for i := range n {
			c.Num[i] = x.At(i, j)
		}
		tb.Cols = append(tb.Cols, c)
	}
	ds := &Dataset{Name: "synthetic", Train: tb}
	_, err := RunExperiment(context.Background(), ds, Config{Model: "mlp", MLP: MLPOptions{Hidden: []int{4}, Epochs: 2, LR: 1e308},
		Epsilons: []Epsilon{Epsilon(math.Inf(1))}, Seeds: 1, CanaryFrac: 0.1, Workers: 1})
	var de *DivergedError
	require.ErrorAs(t, err, &de)
	assert.Equal(t, "mlp", de.Model)
	assert.Contains(t, err.Error(), "training diverged")
	assert.NotContains(t, err.Error(), "outside [0, 1]")
}
