package audit

// This file scores the honest teams under any metric labelinf serve
// serves: the binary log-loss models exactly as before (trueScores), and
// accuracy, ROC AUC, the Brier score and K-class log-loss by serve's
// metric (metric.Parse), so that the honest cost of those cells is
// measured too. A metric whose higher scores are better (accuracy, AUC)
// is compared negated, so that "better" is "lower" throughout
// honestCost; |shown best − true best| and Kendall's τ are the same
// either way.

import (
	"fmt"
	"math"

	"github.com/labelinf/labelinf/metric"
)

// metricScorer returns the competition's serve metric and whether its
// higher scores are better; nil for a binary log-loss model (scored by
// comp.model).
func (comp *competition) metricScorer() (metric.Metric, bool, error) {
	if comp.model != nil && comp.k == 2 {
		return nil, false, nil
	}
	name := comp.cfg.Metric
	if name == "" {
		name = DefaultMetric
	}
	m, err := metric.Parse(name, comp.cfg.Clip)
	if err != nil {
		return nil, false, err
	}
	return m, !m.LowerIsBetter(), nil
}

// trueMetricScores is trueScores for a serve metric: each submission's
// score on every holdout row, unrounded and undefended, negated where
// higher is better.
func trueMetricScores(m metric.Metric, higher bool, labels []int, k int, ts []Team) ([][]float64, error) {
	out := make([][]float64, len(ts))
	for t, tm := range ts {
		for _, h := range tm.Subs {
			if err := m.Check(h.Pred, len(labels), k); err != nil {
				return nil, fmt.Errorf("audit: honest submission %s: %w", h.Name, err)
			}
			v := m.Score(labels, h.Pred, k)
			f := math.Inf(1)
			if !v.Inf {
				f, _ = v.R.Float64()
			}
			if higher {
				f = -f
			}
			out[t] = append(out[t], f)
		}
	}
	return out, nil
}

// karyTeams turns binary honest teams into K-class ones: a row whose
// binary prediction puts probability c on its true label (p for label 1,
// 1 − p for label 0) becomes c on the true class and (1 − c)/(K − 1) on
// each other, so that a team's skill and its progress carry over.
func karyTeams(ts []Team, labels []int, k int) []Team {
	out := make([]Team, len(ts))
	for t, tm := range ts {
		out[t] = Team{Name: tm.Name}
		for _, h := range tm.Subs {
			p := make([]float64, len(labels)*k)
			for i, y := range labels {
				c := h.Pred[i]
				if y == 0 {
					c = 1 - c
				}
				row := p[i*k : (i+1)*k]
				for j := range row {
					row[j] = (1 - c) / float64(k-1)
				}
				row[y] = c
			}
			out[t].Subs = append(out[t].Subs, Honest{Name: h.Name, Pred: p})
		}
	}
	return out
}

// scoreTeams returns the honest teams as the cells submit them (binary
// teams made K-class for K > 2) and their true scores under the metric,
// and sets comp.higher. Teams the user gave (given) that the metric
// cannot score are a config error; the default teams then go unmeasured,
// said in comp.honestSource.
func (comp *competition) scoreTeams(ts []Team, given bool) ([]Team, [][]float64, error) {
	sm, higher, err := comp.metricScorer()
	if err != nil {
		return nil, nil, err
	}
	comp.higher = higher
	width := 1
	if comp.k > 2 {
		width = comp.k
		if len(ts) > 0 && len(ts[0].Subs) > 0 && len(ts[0].Subs[0].Pred) == len(comp.labels) {
			ts = karyTeams(ts, comp.labels, comp.k) // binary teams (synthetic or trained) as K-class rows
		}
	}
	for _, tm := range ts {
		for _, h := range tm.Subs {
			if len(h.Pred) != len(comp.labels)*width {
				return nil, nil, fmt.Errorf("audit: honest submission %s has %d predictions; want %d", h.Name, len(h.Pred), len(comp.labels)*width)
			}
		}
	}
	var truth [][]float64
	if sm == nil {
		truth, err = trueScores(comp.model, comp.labels, ts)
	} else {
		truth, err = trueMetricScores(sm, higher, comp.labels, comp.k, ts)
	}
	switch {
	case err != nil && !given:
		comp.honestSource = "not measured (" + short(err) + ")"
		return nil, nil, nil
	case err != nil:
		return nil, nil, err
	}
	return ts, truth, nil
}
