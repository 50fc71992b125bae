package catalog

// This file registers package discrete's attacks on the scores whose
// value counts labels: accuracy, ROC AUC and the Brier score. A target
// names its metric (Target.Metric: "accuracy", "roc-auc" or "brier"),
// its Model is nil and Decimals its rounding.

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/discrete"
)

// discreteDocs are the doc lines of discrete's strategies.
var discreteDocs = map[discrete.Strategy]string{
	discrete.Flip:   "one row a query: N queries (K = 2), N + 1 for K = 3; accuracy, roc-auc, brier (-scorer METRIC)",
	discrete.Group:  "subset sums of a coin-weighing design (Cantor–Mills), about 2N/log₂N queries; binary accuracy, roc-auc, brier",
	discrete.Family: "the Brier score as the loss family's squared loss (single.AttackFamilyMulti): blocks of rows weighted 2^j; binary brier",
}

func init() {
	for _, s := range []discrete.Strategy{discrete.Flip, discrete.Group, discrete.Family} {
		Register(discreteAttack(s))
	}
}

// discreteOptions returns discrete's options for t (Metric parsed).
func discreteOptions(t Target, s discrete.Strategy) (discrete.Options, error) {
	m, err := discrete.ParseMetric(t.metric())
	if err != nil {
		return discrete.Options{}, err
	}
	tau := 0.0
	if t.Noise.Kind != 0 {
		tau = t.Noise.HalfWidth(0, 1)
	}
	return discrete.Options{Metric: m, N: t.N, K: t.K, Decimals: t.Decimals, Tau: tau, Strategy: s}, nil
}

// discreteAttack returns the catalogue entry of discrete strategy s.
func discreteAttack(s discrete.Strategy) *Attack {
	name := s.String()
	applies := func(t Target) error {
		if err := t.check(); err != nil {
			return err
		}
		o, err := discreteOptions(t, s)
		if err != nil {
			return fmt.Errorf("%s attacks accuracy, roc-auc or brier, not %s", name, t.metric())
		}
		if !slices.Contains(discrete.Strategies(o.Metric, t.K), s) {
			return fmt.Errorf("%s does not apply to %s with K = %d", name, o.Metric, t.K)
		}
		return nil
	}
	return &Attack{
		Name: name, Doc: discreteDocs[s], Kind: MultiQuery, Applies: applies,
		Estimate: func(_ context.Context, t Target, _ EstimateOptions) (*Estimate, error) {
			o, err := discreteOptions(t, s)
			if err != nil {
				return nil, err
			}
			e := &Estimate{}
			if f, err := discrete.Floor(t.N, math.Log2(float64(t.K)), discrete.Values(o.Metric, t.N, t.K, t.Decimals)); err == nil {
				e.Lower = f // the information bound, every attack
			}
			switch s {
			case discrete.Flip:
				e.Low, e.High, e.Note = t.N, t.N+2, "one row a query"
			case discrete.Group:
				e.Low = int(math.Ceil(2 * float64(t.N) / math.Log2(float64(max(t.N, 2)))))
				e.Note = "about 2N/log₂N weighings (Cantor–Mills)"
			default:
				e.Note = "blocks as large as the rounding allows; the bound alone"
			}
			e.Low = max(e.Low, e.Lower)
			if e.High > 0 {
				e.High = max(e.High, e.Low)
			}
			if s != discrete.Flip && s != discrete.Group {
				e.Low = 0
			}
			return e, nil
		},
		Run: func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
			do, err := discreteOptions(t, s)
			if err != nil {
				return nil, err
			}
			do.Check, do.Progress = opt.Check, opt.Progress
			return discrete.Attack(ctx, o, do)
		},
	}
}

// discreteAuto is Auto's rule for a target of discrete's metrics: the
// strategy discrete.Choose picks.
func discreteAuto(t Target) (*Attack, bool) {
	o, err := discreteOptions(t, discrete.Auto)
	if err != nil {
		return nil, false
	}
	a := Lookup(discrete.Choose(o).String())
	return a, a != nil && a.Applies(t) == nil
}
