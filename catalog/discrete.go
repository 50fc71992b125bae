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
	"github.com/labelinf/labelinf/scorer"
)

// discreteDocs are the doc lines of discrete's strategies.
var discreteDocs = map[discrete.Strategy]string{
	discrete.Flip:   "one row a query: N queries (K = 2), N + 1 for K = 3; accuracy, roc-auc, brier (-scorer METRIC)",
	discrete.Group:  "subset sums of a coin-weighing design (Cantor–Mills), about 2N/log₂N queries (K − 1 times as many for K classes); accuracy, roc-auc, brier",
	discrete.Family: "the Brier score as the loss family's squared loss (single.AttackFamilyMulti): blocks of rows weighted 2^j; binary brier",
	discrete.Edge:   "threshold crossing by rows for a score rounded coarser than one label: a walk to a rounding edge, then about N queries; accuracy, brier",
	discrete.Rank:   "the AUC read as Σ y·2·rank: blocks of unknown rows spaced among known ones, about log₂(known rows) labels a query (N = 1,000: 120 queries unrounded, 155 at 5 decimals); roc-auc, a rounding unit of 2U under N/8",
	discrete.Swap:   "pair swap (Whitehill): a binary search along swapped ranks to a rounding edge, then one tie of adjacent ranks a row: about N + 2·log₂N queries at any rounding, 2 decimals included (behind a split about 2N, private rows unknown); roc-auc, no noise",
}

func init() {
	for _, s := range []discrete.Strategy{discrete.Flip, discrete.Group, discrete.Family, discrete.Edge, discrete.Swap, discrete.Rank} {
		Register(discreteAttack(s))
	}
}

// discreteOptions returns discrete's options for t (Metric parsed).
func discreteOptions(t Target, s discrete.Strategy) (discrete.Options, error) {
	m, err := discrete.ParseMetric(t.metric())
	if err != nil {
		return discrete.Options{}, err
	}
	o := discrete.Options{Metric: m, N: t.N, K: t.K, Decimals: t.Decimals, Strategy: s}
	// A public/private split hides rows from the score: swap then reads
	// each row with a probe that moves the AUC whatever its label if it
	// is public (discrete.Options.Hidden).
	o.Hidden = s == discrete.Swap && t.Defence != nil && t.Defence.Split != nil
	if t.Noise.Kind == scorer.NoNoise {
		return o, nil
	}
	// Fresh noise (drawn anew per submission) averages out: repeat every
	// query and decode the means (discrete.NoiseRepeats). Noise keyed on
	// the prediction repeats itself: one release, bounded as it is.
	fresh := t.Defence == nil || t.Defence.Noise == nil || t.Defence.Noise.Key == "" || t.Defence.Noise.Key == "fresh"
	if fresh && s != discrete.Edge && s != discrete.Swap {
		p := o
		if s == discrete.Auto {
			p.Strategy = discrete.Flip // the same repeats for every count reader
		}
		if reps, tau, err := discrete.NoiseRepeats(p, t.Noise); err == nil {
			o.Repeats, o.Tau = reps, tau
			return o, nil
		}
	}
	o.Tau = t.Noise.HalfWidth(0, 1)
	return o, nil
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
		if s == discrete.Rank {
			if _, err := discrete.Plan(o); err != nil {
				return err // rank reads an unrounded AUC, without noise
			}
		}
		if s == discrete.Swap && t.Noise.Kind != scorer.NoNoise {
			return fmt.Errorf("%s reads exact rounding edges; noise (%v) moves them", name, t.Noise.Kind)
		}
		return nil
	}
	return &Attack{
		Name: name, Doc: discreteDocs[s], Kind: MultiQuery, Applies: applies,
		Estimate: func(_ context.Context, t Target, eo EstimateOptions) (*Estimate, error) {
			o, err := discreteOptions(t, s)
			if err != nil {
				return nil, err
			}
			o.Check = eo.Check // the check query, repeated as every query
			e := &Estimate{}
			if f, err := discrete.Floor(float64(t.N)*math.Log2(float64(t.K)), discrete.Values(o.Metric, t.N, t.K, t.Decimals)); err == nil {
				e.Lower = f // the information bound, every attack
			}
			// discrete.Plan counts what the attack sends when every score
			// decodes: exact for flip, group and family (their queries do
			// not follow the scores; the repeats against fresh noise
			// included); for walk an upper end (its walk and probes do).
			q, perr := discrete.Plan(o)
			switch {
			case perr != nil:
				e.Note = perr.Error()
			case s == discrete.Edge:
				e.Low, e.High, e.Note = t.N, q, "a walk to a rounding edge, then a probe per row (K > 2: up to K − 1)"
			case s == discrete.Swap:
				// At least one ranking and the N − 2 probes; at most
				// discrete.Plan's count of tries and searches.
				e.Low, e.High, e.Note = t.N-1, q, "random rankings until one leaves AUC ½'s rounding, a binary search to its edge, then a probe per row"
				if o.Hidden {
					e.Note = "behind a split: two edges, up to two probes a row; private rows stay unknown"
				}
			default:
				e.Queries = q
				if !discrete.Resolves(o) {
					e.Note = "the rounding or noise is coarser than one label: its scores do not decode"
				} else {
					e.Exact = true
					if _, err := discrete.PlanRows(o, 1); err == nil {
						e.Rows = func(m int) (int, error) { return discrete.PlanRows(o, m) }
					}
				}
			}
			if perr == nil {
				e.Lower = min(e.Lower, q)
			}
			if e.Low > 0 {
				e.Low = max(e.Low, e.Lower)
			}
			return e, nil
		},
		Run: func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
			do, err := discreteOptions(t, s)
			if err != nil {
				return nil, err
			}
			do.Check, do.Progress, do.MaxQueries = opt.Check, opt.Progress, opt.MaxQueries
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
