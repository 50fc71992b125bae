package catalog

// This file registers discrete.SplitFlip, the flip attack on the public
// score of a public/private split (accuracy, the Brier score): a target
// whose defence splits the rows and adds no noise or subsets.

import (
	"context"
	"errors"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/scorer"
)

func init() { Register(splitFlipAttack()) }

func splitFlipAttack() *Attack {
	applies := func(t Target) error {
		if err := t.check(); err != nil {
			return err
		}
		m, err := discrete.ParseMetric(t.metric())
		if err != nil || m == discrete.AUC {
			return errors.New("split-flip attacks accuracy or brier behind a split")
		}
		d := t.Defence
		switch {
		case d == nil || d.Split == nil:
			return errors.New("split-flip needs a public/private split (without one, flip reads every row)")
		case d.Subset != 0 || d.Thresholdout != nil:
			return errors.New("split-flip does not read subsets or Thresholdout")
		case t.Noise.Kind != scorer.NoNoise:
			return errors.New("split-flip does not model noise")
		}
		return nil
	}
	options := func(t Target) (discrete.Options, error) {
		m, err := discrete.ParseMetric(t.metric())
		return discrete.Options{Metric: m, N: t.N, K: t.K, Decimals: t.Decimals, Strategy: discrete.Flip}, err
	}
	return &Attack{
		Name: "split-flip", Kind: MultiQuery, Applies: applies,
		Doc: "flip behind a public/private split: a row moves the public score iff it is public, N + 1 queries (K = 2); accuracy, brier",
		Estimate: func(_ context.Context, t Target, eo EstimateOptions) (*Estimate, error) {
			q := t.N + 1
			if t.K > 2 {
				q = 1 + t.N*(t.K-1) // at most: rows of class 0 and private rows take every class
			}
			if eo.Check {
				q++
			}
			e := &Estimate{Note: "one query a row, and one a class for K > 2 (at most)"}
			if t.K == 2 {
				e.Queries = q // its queries do not follow the scores
			} else {
				e.Low, e.High = t.N+1, q
			}
			return e, nil
		},
		Run: func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
			do, err := options(t)
			if err != nil {
				return nil, err
			}
			do.Check, do.Progress, do.MaxQueries = opt.Check, opt.Progress, opt.MaxQueries
			return discrete.SplitFlip(ctx, o, do)
		},
	}
}
