package audit

import (
	"context"
	"testing"

	"github.com/labelinf/labelinf/defence"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuditMetrics: accuracy (K = 2, 3), ROC AUC, Brier and K = 3
// log-loss competitions of 1,000 rows are audited; on the undefended cell
// some attack recovers ≥ 99 % of the labels, verified (in process, and
// over loopback HTTP against a real labelinf serve under -short's
// absence); rounding to 2 decimals falls to the threshold crossing where
// one is written, a Ladder on accuracy is a cell serve refuses (not
// measured), and nothing is reported stopped that was not measured.
func TestAuditMetrics(t *testing.T) {
	dec2 := 2
	grid := []Cell{
		{Name: "none"},
		{Name: "round 2", Defence: defence.Settings{Decimals: &dec2}},
		{Name: "ladder", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free"}}},
		{Name: "noise", Defence: defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.0005}}},
	}
	targets := []struct {
		name string
		f    TargetFactory
	}{{"inprocess", InProcess}}
	if !testing.Short() {
		targets = append(targets, struct {
			name string
			f    TargetFactory
		}{"loopback", Loopback(LoopbackOptions{Dir: t.TempDir()})})
	}
	for _, tg := range targets {
		for _, tc := range []struct {
			metric string
			k      int
		}{{"accuracy", 2}, {"accuracy", 3}, {"roc-auc", 2}, {"brier", 2}, {"float64-sklearn", 3}} {
			t.Run(tg.name+"/"+tc.metric+"/"+string(rune('0'+tc.k)), func(t *testing.T) {
				t.Parallel() // each Run has its own config, labels and target
				cfg := &Config{ID: "m", Rows: 1000, LabelSeed: 3, Classes: tc.k, Metric: tc.metric, Grid: grid}
				rep, err := Run(context.Background(), cfg, Options{Target: tg.f})
				require.NoError(t, err)
				cell := func(name string) CellResult {
					for _, c := range rep.Cells {
						if c.Name == name {
							return c
						}
					}
					t.Fatalf("no cell %q", name)
					return CellResult{}
				}
				none := cell("none")
				require.True(t, none.Measured, none.Note)
				assert.NotEmpty(t, none.Best)
				assert.GreaterOrEqual(t, none.PublicVerified, 0.99, "undefended: %s", none.Best)
				assert.False(t, none.Stopped)
				t.Logf("%s K=%d none: %s, %d submissions, floor %d", tc.metric, tc.k, none.Best, none.Submissions, none.Floor.Submissions)
				r2 := cell("round 2")
				if tc.metric == "roc-auc" {
					assert.False(t, r2.Measured, "AUC at 2 decimals has no threshold crossing here")
				} else {
					assert.True(t, r2.Measured)
					assert.False(t, r2.Stopped, "round 2 falls: %s", r2.Best)
				}
				lad := cell("ladder")
				if tc.metric != "float64-sklearn" {
					assert.False(t, lad.Measured, "serve refuses the Ladder on %s: %s %s", tc.metric, lad.Note, lad.Verdict)
					assert.False(t, lad.Stopped)
				}
				nz := cell("noise")
				t.Logf("%s K=%d noise: %s, best %s, %d submissions (extrapolated %v)", tc.metric, tc.k, nz.Verdict, nz.Best, nz.Submissions, nz.Extrapolated)
				for _, c := range rep.Cells {
					if !c.Measured {
						assert.False(t, c.Stopped, c.Name)
					}
				}
			})
		}
	}
}
