package audit

import (
	"context"
	"fmt"
	"testing"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuditMetrics: accuracy (K = 2, 3), ROC AUC, Brier and K = 3
// log-loss competitions of 1,000 rows are audited; on the undefended cell
// some attack recovers ≥ 99 % of the labels, verified (in process, and
// over loopback HTTP against a real labelinf serve under -short's
// absence); rounding to 2 decimals falls to the threshold crossing (walk,
// and swap for ROC AUC, whose public labels it reads behind a 30 %
// public split too), a Ladder on accuracy is a cell serve refuses (not
// measured), and nothing is reported stopped that was not measured.
// Under -short with 300 rows, whose noise cells are measured rather than
// projected (TestNoiseCellCheapestPlan projects them at 1,000).
func TestAuditMetrics(t *testing.T) {
	rows := 1000
	if testing.Short() {
		rows = 300
	}
	dec2 := 2
	grid := []Cell{
		{Name: "none"},
		{Name: "round 2", Defence: defence.Settings{Decimals: &dec2}},
		{Name: "ladder", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free"}}},
		{Name: "noise", Defence: defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.0005}}},
		{Name: "split", Defence: defence.Settings{Decimals: &dec2, Split: &defence.SplitSettings{Public: 0.3,
			Seed: "0000000000000000000000000000000000000000000000000000000000000007"}}},
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
				cfg := &Config{ID: "m", Rows: rows, LabelSeed: 3, Classes: tc.k, Metric: tc.metric, Grid: grid}
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
				assert.True(t, r2.Measured, r2.Note)
				assert.False(t, r2.Stopped, "round 2 falls: %s", r2.Best)
				if tc.metric == "roc-auc" {
					// EvalAI's default: no count is read at 2 decimals;
					// the pair swap reads every label at a rounding edge.
					assert.Equal(t, "swap", r2.Best)
					assert.GreaterOrEqual(t, r2.PublicVerified, 0.99)
				}
				t.Logf("%s K=%d round 2: %s, best %s, %d submissions, floor %d", tc.metric, tc.k, r2.Verdict, r2.Best, r2.Submissions, r2.Floor.Submissions)
				lad := cell("ladder")
				if tc.metric != "float64-sklearn" {
					assert.False(t, lad.Measured, "serve refuses the Ladder on %s: %s %s", tc.metric, lad.Note, lad.Verdict)
					assert.False(t, lad.Stopped)
				}
				if sp := cell("split"); tc.metric == "roc-auc" {
					// 30 % public at 2 decimals: the hidden pair swap reads
					// every public label; the floor counts public labels.
					assert.True(t, sp.Measured, sp.Note)
					assert.False(t, sp.Stopped)
					assert.Equal(t, "swap", sp.Best)
					assert.GreaterOrEqual(t, sp.PublicVerified, 0.99)
					assert.Less(t, sp.Floor.Submissions, r2.Floor.Submissions, "the split's floor counts its public labels")
					t.Logf("roc-auc split: %s, best %s, %d submissions, floor %d", sp.Verdict, sp.Best, sp.Submissions, sp.Floor.Submissions)
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

// TestNoiseCellCheapestPlan: a noise cell on accuracy (K = 2, 3), ROC AUC
// and Brier reports no more submissions than the cheapest exact plan of
// the catalogue's attacks that apply to it (catalog.Estimate.Exact: the
// attack's own queries, repeated against the noise, check included), and
// is never stopped or "not measured" where such a plan exists. Before
// plan projection, a coin-weighing design whose first block outlasted the
// measuring budget (σ = 0.003 on 1,000 rows) left the cell to flip's
// projection, 3.4× group's plan; at σ = 0.005 and for AUC the cell was
// "not measured". A design that fits the budget is run whole (AUC at
// σ = 0.0005: 3,443 submissions, measured): its budgeted smaller blocks
// outlasted the budget and left the cell to flip's projection, 3.2×.
// Under -short the cases of those regressions and one of each metric
// and K (5 of 8).
func TestNoiseCellCheapestPlan(t *testing.T) {
	for _, tc := range []struct {
		metric string
		k      int
		sigma  float64
		short  bool
	}{{"accuracy", 2, 0.0005, false}, {"accuracy", 2, 0.003, true}, {"accuracy", 2, 0.005, true}, {"accuracy", 3, 0.0005, false}, {"accuracy", 3, 0.003, true},
		{"roc-auc", 2, 0.0005, true}, {"brier", 2, 0.0005, false}, {"brier", 2, 0.003, true}} {
		if testing.Short() && !tc.short {
			continue
		}
		t.Run(fmt.Sprintf("%s/%d/%g", tc.metric, tc.k, tc.sigma), func(t *testing.T) {
			t.Parallel() // each Run has its own config, labels and target
			d := defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: tc.sigma}}
			cfg := &Config{ID: "m", Rows: 1000, LabelSeed: 3, Classes: tc.k, Metric: tc.metric, NoConfigured: true,
				Grid: []Cell{{Name: "noise", Defence: d}}}
			rep, err := Run(context.Background(), cfg, Options{Target: InProcess})
			require.NoError(t, err)
			c := rep.Cells[0]
			tg := catalog.Target{Metric: tc.metric, N: 1000, K: tc.k, Decimals: -1,
				Noise: scorer.Noise{Kind: scorer.Gaussian, Tau: tc.sigma, Delta: 1e-6}, Defence: &d}
			cheapest, name := 0, ""
			for _, a := range catalog.Applicable(tg) {
				e, err := a.Estimate(context.Background(), tg, catalog.EstimateOptions{Check: true})
				if err == nil && e.Exact && (cheapest == 0 || e.Queries < cheapest) {
					cheapest, name = e.Queries, a.Name
				}
			}
			require.Positive(t, cheapest, "no exact plan applies")
			t.Logf("%s: best %s, %d submissions (extrapolated %v); cheapest plan %s %d", c.Verdict, c.Best, c.Submissions, c.Extrapolated, name, cheapest)
			require.True(t, c.Measured, c.Note)
			assert.False(t, c.Stopped)
			assert.LessOrEqual(t, c.Submissions, int64(cheapest), "the cell reports %s's %d, more than %s's plan", c.Best, c.Submissions, name)
			if !c.Extrapolated {
				// Measured to the end within the budget (AUC: 3,443).
				assert.GreaterOrEqual(t, c.PublicVerified, 0.99, "a noise cell measured to the end recovers every label")
			}
		})
	}
}
