package catalog

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/scorer"
)

// TestDiscreteEntries: the attacks on accuracy, ROC AUC and the Brier
// score register as every other (their target names its metric), auto
// makes discrete's choice, and a run through the catalogue recovers every
// label, verified; the log-loss attacks do not apply to them, nor they to
// log-loss.
func TestDiscreteEntries(t *testing.T) {
	for _, tt := range []struct {
		metric string
		k      int
		want   string
	}{{"accuracy", 2, "group"}, {"roc-auc", 2, "rank"}, {"brier", 2, "family"}, {"accuracy", 3, "group"}} {
		tg := Target{Metric: tt.metric, N: 200, K: tt.k, Decimals: -1}
		a, err := Auto(tg)
		if err != nil || a.Name != tt.want {
			t.Errorf("Auto(%s, K = %d) = %v, %v; want %s", tt.metric, tt.k, a, err, tt.want)
			continue
		}
		for _, b := range Applicable(tg) {
			if b.Kind != MultiQuery || slices.Contains([]string{"cross", "hybrid", "edge"}, b.Name) {
				t.Errorf("%s applies to %s", b.Name, tt.metric)
			}
		}
		m, err := metric.Parse(tt.metric, "")
		if err != nil {
			t.Fatal(err)
		}
		labels := SeededLabels(1, tg.N, tg.K)
		sim, err := discrete.NewSim(m, labels, tg.K, -1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := a.Run(context.Background(), sim, tg, Options{})
		if err != nil || !res.Verified || !slices.Equal(res.Labels, labels) {
			t.Errorf("%s on %s: %v (verified %v)", a.Name, tt.metric, err, res != nil && res.Verified)
		}
	}
	if Lookup("flip").Applies(target(t, "float64-sklearn", 100, 2)) == nil {
		t.Error("flip applies to log-loss")
	}
}

// TestSwapEntry: at 2 decimals, where no count of labels is read, auto
// picks the pair swap for ROC AUC, whose estimate brackets its run and
// whose Lower bound (the information floor) is never above its Low; it
// does not apply under noise or to another metric.
func TestSwapEntry(t *testing.T) {
	tg := Target{Metric: "roc-auc", N: 600, K: 2, Decimals: 2}
	a, err := Auto(tg)
	if err != nil || a.Name != "swap" {
		t.Fatalf("Auto(roc-auc, 2 decimals) = %v, %v; want swap", a, err)
	}
	e, err := a.Estimate(context.Background(), tg, EstimateOptions{Check: true})
	if err != nil || e.Lower <= 0 || e.Lower > e.Low || e.Low > e.High {
		t.Fatalf("estimate %+v, %v", e, err)
	}
	m, err := metric.Parse("roc-auc", "")
	if err != nil {
		t.Fatal(err)
	}
	labels := SeededLabels(1, tg.N, tg.K)
	sim, err := discrete.NewSim(m, labels, tg.K, 2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Run(context.Background(), sim, tg, Options{Check: true})
	if err != nil || !res.Verified || !slices.Equal(res.Labels, labels) {
		t.Fatalf("swap: %v (verified %v)", err, res != nil && res.Verified)
	}
	if res.Queries < e.Low || res.Queries > e.High {
		t.Errorf("swap sent %d queries; estimate %d to %d", res.Queries, e.Low, e.High)
	}
	t.Logf("swap: %d queries, estimate %d to %d, floor %d", res.Queries, e.Low, e.High, e.Lower)
	noisy := tg
	noisy.Noise = scorer.Noise{Kind: scorer.Gaussian, Tau: 1e-4, Delta: 1e-6}
	if err := a.Applies(noisy); err == nil || !strings.Contains(err.Error(), "noise") {
		t.Errorf("swap under noise: %v", err)
	}
	acc := tg
	acc.Metric = "accuracy"
	if a.Applies(acc) == nil {
		t.Error("swap applies to accuracy")
	}
}
