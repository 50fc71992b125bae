package catalog

// This file registers package single's attacks: one score, computed in
// arbitrary precision, gives every label. They submit predictions that
// float64 cannot hold, so they apply only to an exact (apa) model whose
// precision carries the plan's bits, and their runs are driven by package
// single against an arbitrary-precision oracle (labelinf attack
// -strategy robust-single; labelinf demo for the exact attack).

import (
	"context"
	"errors"
	"fmt"

	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

func init() {
	Register(&Attack{
		Name: "exact", Aliases: []string{"single"}, Kind: SingleQuery,
		Doc:     "ICML 2021 Thms 1, 3, 8: one noise-free score in arbitrary precision factors into the labels (rows of prime powers); labelinf demo runs it",
		Applies: singleApplies(false),
		Estimate: func(ctx context.Context, t Target, _ EstimateOptions) (*Estimate, error) {
			q, err := single.Plan(ctx, single.PlanOptions{N: t.N, K: t.K})
			if err != nil {
				return nil, err
			}
			return &Estimate{Queries: 1, Lower: 1, Note: fmt.Sprintf("one query of %d bits", q.Prec())}, nil
		},
	})
	Register(&Attack{
		Name: "robust-single", Aliases: []string{"robust"}, Kind: SingleQuery,
		Doc:     "ICML 2021 Alg 2, EA Thm 3: one score with bounded, Gaussian or Laplace noise below τ gives every label (-scorer apa)",
		Applies: singleApplies(true),
		Estimate: func(ctx context.Context, t Target, _ EstimateOptions) (*Estimate, error) {
			p, err := robustPlan(ctx, t)
			if err != nil {
				return nil, err
			}
			return &Estimate{Queries: 1, Lower: 1, Note: fmt.Sprintf("one query of %d bits", p.Prec())}, nil
		},
	})
	Register(&Attack{
		Name: "loss-family", Kind: SingleQuery,
		Doc:     "EA Appendix F: one noisy score of a binary loss of the family (cross-entropy, squared, Bregman …) gives every label (single.AttackFamily)",
		Applies: singleApplies(true),
		Estimate: func(context.Context, Target, EstimateOptions) (*Estimate, error) {
			return &Estimate{Queries: 1, Lower: 1}, nil
		},
	})
	Register(&Attack{
		Name: "prime-log", Kind: SingleQuery,
		Doc:     "one noise-free binary score whose logs of primes separate every labeling (single.AttackPrimeLog)",
		Applies: singleApplies(false),
		Estimate: func(context.Context, Target, EstimateOptions) (*Estimate, error) {
			return &Estimate{Queries: 1, Lower: 1}, nil
		},
	})
	Register(&Attack{
		Name: "mutnet", Kind: SingleQuery,
		Doc:     "EA Thm 9: the robust attack submitted as a two-layer network whose output is the attack's prediction whatever its input (single.NewMutNet)",
		Applies: singleApplies(true),
		Estimate: func(context.Context, Target, EstimateOptions) (*Estimate, error) {
			return &Estimate{Queries: 1, Lower: 1}, nil
		},
	})
}

// singleApplies is the condition of the single-query attacks: a log-loss
// target whose model is exact (an arbitrary-precision server), noisy or
// noise-free as the attack needs, whose precision carries the plan.
func singleApplies(noisy bool) func(Target) error {
	return func(t Target) error {
		if err := t.check(); err != nil {
			return err
		}
		if t.metric() != LogLoss {
			return fmt.Errorf("a single-query attack reads log-loss scores, not %s", t.metric())
		}
		if !t.Model.Exact {
			return fmt.Errorf("one score carries every label only in arbitrary precision: %s has %d bits", t.Model.Name, t.Model.Loss.Format.Prec())
		}
		switch {
		case noisy && t.Noise.Kind == scorer.NoNoise:
			return errors.New("built for a noisy score (without noise: exact)")
		case !noisy && t.Noise.Kind != scorer.NoNoise:
			return errors.New("needs a noise-free score")
		case t.Noise.Kind == scorer.Multiplicative:
			return errors.New("multiplicative noise grows with the score: one query cannot separate it (ICML Thm 11)")
		}
		if t.Model.Prec == 0 {
			return nil // the server answers with the bits the plan asks for
		}
		var need uint
		if noisy {
			p, err := robustPlan(context.Background(), t)
			if err != nil {
				return err
			}
			need = p.Prec()
		} else {
			q, err := single.NewQuery(t.N, t.K)
			if err != nil {
				return err
			}
			need = q.Prec()
		}
		if t.Model.Prec < need {
			return fmt.Errorf("the plan needs %d bits of the score, %s has %d", need, t.Model.Name, t.Model.Prec)
		}
		return nil
	}
}

// robustPlan plans the robust attack for t's noise: bounded noise's τ, or
// the half-width one Gaussian or Laplace draw stays within but for δ.
func robustPlan(ctx context.Context, t Target) (*single.RobustPlan, error) {
	tau := t.Noise.Tau
	if t.Noise.Kind == scorer.Gaussian || t.Noise.Kind == scorer.Laplace {
		tau = t.Noise.HalfWidth(0, 1)
	}
	return single.PlanRobust(ctx, single.RobustOptions{N: t.N, K: t.K, Tau: tau})
}
