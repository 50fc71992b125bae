package passive

import (
	"bytes"
	"context"
	"encoding/gob"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnitsAssembleAsExperiment: the units run one by one through the
// wire form, their runs through gob, and assembled give RunExperiment's report (times aside);
// runs out of order or missing are an error.
func TestUnitsAssembleAsExperiment(t *testing.T) {
	d, err := LoadDataset("", "wdbc")
	require.NoError(t, err)
	cfg := Config{Model: "mlp", MLP: MLPOptions{Epochs: 3}, Epsilons: []Epsilon{Epsilon(math.Inf(1)), 1, 0.5}, Seeds: 2, FirstSeed: 4, CanaryFrac: 0.05}
	want, err := RunExperiment(context.Background(), d, cfg)
	require.NoError(t, err)
	w, err := cfg.Wire()
	require.NoError(t, err)
	c2 := w.Config()
	n, err := Units(c2)
	require.NoError(t, err)
	require.Equal(t, 6, n)
	runs := make([]Run, n)
	for i := n - 1; i >= 0; i-- {
		r, err := RunUnit(context.Background(), d, c2, i)
		require.NoError(t, err)
		// Through gob, as package queue carries it: the outcomes keep
		// their null probabilities (Pool needs them).
		var buf bytes.Buffer
		require.NoError(t, gob.NewEncoder(&buf).Encode(r))
		require.NoError(t, gob.NewDecoder(&buf).Decode(&runs[i]))
	}
	got, err := Assemble(d, c2, runs, want.Seconds)
	require.NoError(t, err)
	zero := func(r *Report) {
		for e := range r.Epsilons {
			for s := range r.Epsilons[e].Runs {
				r.Epsilons[e].Runs[s].Seconds = 0
			}
		}
	}
	zero(want)
	zero(got)
	assert.Equal(t, want, got)
	_, err = Assemble(d, c2, runs[1:], 0)
	assert.Error(t, err)
	runs[0], runs[3] = runs[3], runs[0]
	_, err = Assemble(d, c2, runs, 0)
	assert.Error(t, err, "runs out of order")
	_, err = RunUnit(context.Background(), d, c2, n)
	assert.Error(t, err)
	_, err = Config{Model: "svm"}.Wire()
	assert.Error(t, err)
}
