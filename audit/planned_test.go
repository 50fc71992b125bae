package audit

import (
	"context"
	"testing"

	"github.com/labelinf/labelinf/defence"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlannedNotLinear: an attack projected from its own plan before it
// decoded a label holds, within a budget, what its plan aimed at part of
// the rows decodes, not a steady share of its labels per submission. On
// 300 three-class accuracy labels under Gaussian noise σ = 0.05, group's
// plan (~9.2 million submissions for all 300) prorated to the 100,000
// within reach gave 1.05 % of the labels and "NOT stopped"; aimed at the
// 3 rows of 1 % it needs more than 100,000, so no attack here recovers
// 1 %, and the cell is "not measured" (never "stopped": no evidence of
// safety), its row naming the best attack beside what it recovers.
func TestPlannedNotLinear(t *testing.T) {
	cfg := &Config{ID: "m", Rows: 300, LabelSeed: 3, Classes: 3, Metric: "accuracy", NoConfigured: true,
		Grid: []Cell{{Name: "gauss 0.05", Defence: defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.05}}}}}
	rep, err := Run(context.Background(), cfg, Options{Target: InProcess})
	require.NoError(t, err)
	c := rep.Cells[0]
	t.Logf("%s: best %s, %d submissions, %.4f within the limit; %s", c.Verdict, c.Best, c.Submissions, c.PublicRecovered, c.Note)
	assert.Equal(t, "not measured", c.Verdict)
	assert.False(t, c.Stopped)
	assert.Less(t, c.PublicRecovered, StopFraction)
	require.NotEmpty(t, c.Best)
	assert.Contains(t, c.Note, "the best, "+c.Best+":")
	assert.Contains(t, c.Note, "not measured")
}

// TestPlanProgress: the share a planned attack holds is the most rows its
// plan for part of the rows decodes within the budget (never more), and
// none before its end when that plan is unknown.
func TestPlanProgress(t *testing.T) {
	rows := func(m int) (int, error) { return 10 + 100*m, nil } // 10 to read the held rows, 100 a row
	p := planProgress(rows, 50)
	assert.Equal(t, 0.0, p(109))
	assert.Equal(t, 1/50.0, p(110))
	assert.Equal(t, 3/50.0, p(399))
	assert.Equal(t, 1.0, p(5010))
	assert.Equal(t, 0.0, planProgress(nil, 50)(1e9))
}
