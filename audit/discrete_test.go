package audit

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/discrete"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// discreteCell is a cell of a 1,000-row competition of metric with k
// classes, every row public.
func discreteCell(t *testing.T, metric string, k int, d defence.Settings, f TargetFactory) *cellRun {
	r := rand.New(rand.NewPCG(29, uint64(k)))
	y := make([]int, 1000)
	for i := range y {
		y[i] = r.IntN(k)
	}
	comp := &competition{cfg: Config{ID: "m", Metric: metric, Classes: k, Measure: DefaultMeasure}, labels: y}
	pub := make([]bool, len(y))
	for i := range pub {
		pub[i] = true
	}
	return &cellRun{comp: comp, cell: Cell{Name: "cell", Defence: d}, factory: f, public: pub, nPub: len(y)}
}

// TestDiscreteAttacksUndefended: on the undefended cell of 1,000-row
// accuracy (K = 2, 3), ROC AUC and Brier (K = 2, 3) competitions, every
// attack of package discrete recovers every label, verified by the final
// check, in process and through a real labelinf serve over loopback HTTP.
func TestDiscreteAttacksUndefended(t *testing.T) {
	dec := 5
	none := defence.Settings{Decimals: &dec}
	for _, tg := range []struct {
		name string
		f    TargetFactory
	}{{"inprocess", InProcess}, {"loopback", Loopback(LoopbackOptions{Dir: t.TempDir()})}} {
		for _, tc := range []struct {
			metric string
			k      int
		}{{"accuracy", 2}, {"accuracy", 3}, {"roc-auc", 2}, {"brier", 2}, {"brier", 3}} {
			t.Run(tg.name+"/"+tc.metric+"/"+string(rune('0'+tc.k)), func(t *testing.T) {
				c := discreteCell(t, tc.metric, tc.k, none, tg.f)
				sts := c.discreteStrategies()
				require.NotEmpty(t, sts)
				if tg.name == "loopback" {
					sts = sts[:1] // Auto's pick; the others run in process
				}
				for _, st := range sts {
					r, err := c.discreteAttack(context.Background(), st)
					require.NoError(t, err)
					assert.Equal(t, "recovered", r.Outcome, "%s: %s", r.Attack, r.Note)
					assert.Equal(t, 1.0, r.PublicVerified, r.Attack)
					assert.Zero(t, r.Wrong, r.Attack)
					assert.Equal(t, int64(r.Submissions), r.Needed)
					t.Logf("%s K=%d %s: %d submissions", tc.metric, tc.k, r.Attack, r.Submissions)
				}
				f, err := c.discreteFloor()
				require.NoError(t, err)
				assert.Greater(t, f, 0)
			})
		}
	}
}

// TestDiscreteAttacksDefended: rounding coarser than a label stops the
// count-reading attacks but not the threshold crossing, which recovers
// every label; noise stops them all honestly (nothing claimed wrongly);
// a Ladder on accuracy is a cell labelinf serve refuses, reported as
// such.
func TestDiscreteAttacksDefended(t *testing.T) {
	dec2 := 2
	for _, tc := range []struct {
		name      string
		d         defence.Settings
		recovered string // the attack that recovers, if any
	}{
		{"round 2", defence.Settings{Decimals: &dec2}, discreteNames[discrete.Edge]},
		{"noise", defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.01}}, ""},
		{"ladder", defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := discreteCell(t, "accuracy", 2, tc.d, InProcess)
			for _, st := range c.discreteStrategies() {
				r, err := c.discreteAttack(context.Background(), st)
				require.NoError(t, err)
				if r.Attack == tc.recovered {
					assert.Equal(t, "recovered", r.Outcome, r.Attack)
					assert.Equal(t, 1.0, r.PublicVerified)
				} else {
					assert.NotEqual(t, "recovered", r.Outcome, r.Attack)
					assert.NotEmpty(t, r.Note)
				}
				assert.Zero(t, r.Wrong, r.Attack)
				t.Logf("%s: %s %s after %d: %s", tc.name, r.Attack, r.Outcome, r.Submissions, r.Note)
			}
		})
	}
}
