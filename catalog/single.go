package catalog

// This file registers package single's attacks: one score, computed in
// arbitrary precision, gives every label. They submit predictions that
// float64 cannot hold, so they apply only to an exact (apa) model whose
// precision carries the plan's bits, and they run against an oracle that
// answers those predictions too ([Precise]; oracle.Precise).

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/single"
)

// A Precise oracle is an [Oracle] that also scores the predictions of
// arbitrary precision the single-query attacks submit, through one view
// per kind of prediction (Go gives a type one Score method): the same
// labels, noise and precision, each view answering with the bits asked
// for if the scorer's precision is free, else with its own. oracle.Precise
// implements it; a single-query attack given an [Oracle] that is not
// Precise returns an error before querying.
type Precise interface {
	Oracle
	// Big scores arbitrary-precision logits, log-probabilities or
	// probabilities (ICML Alg 2, MUTNET).
	Big(prec uint) (scorer.BigServer, error)
	// Rat scores rational predictions exactly (the prime attack); it
	// returns an error for a noisy scorer.
	Rat(prec uint) (scorer.RatServer, error)
	// Family scores the θ of a binary loss of the family (K = 2).
	Family(l *loss.Binary, prec uint) (scorer.FamilyServer, error)
}

// precise returns o as a [Precise] oracle, or an error naming the attack.
func precise(o Oracle, name string) (Precise, error) {
	p, ok := o.(Precise)
	if !ok {
		return nil, fmt.Errorf("catalog: %s submits predictions of arbitrary precision: it needs a scorer that answers them (catalog.Precise, as oracle.Precise), not %T", name, o)
	}
	return p, nil
}

// crossEntropy is the loss of the family a log-loss scorer computes for
// K = 2: binary cross-entropy on probabilities, or on logits (sigmoid
// cross-entropy, the same score: the robust weights' probabilities leave
// big.Float's range, their logits do not).
func crossEntropy(logits bool) (*loss.Binary, error) {
	if logits {
		return loss.NewBinary(loss.SigmoidCE, 0, [4]float64{})
	}
	return loss.NewBinary(loss.CE, 0, [4]float64{})
}

// mutnetInputs and mutnetHidden are the size of the network the mutnet
// entry submits (EA Thm 9 holds for any): 8 inputs, 16 hidden units.
const mutnetInputs, mutnetHidden = 8, 16

func init() {
	Register(&Attack{
		Name: "exact", Aliases: []string{"single"}, Kind: SingleQuery,
		Doc: "ICML 2021 Thms 1, 3, 8: one noise-free score in arbitrary precision factors into the labels (rows of prime powers); labelinf demo runs it",
		Applies: singleApplies("exact", false, func(t Target) (uint, error) {
			if t.Model.Prec == 0 {
				return 0, nil // no plan to build for a free precision (0.7 s at N = 10^6)
			}
			q, err := single.NewQuery(t.N, t.K)
			if err != nil {
				return 0, err
			}
			return q.Prec(), nil
		}),
		Estimate: func(ctx context.Context, t Target, _ EstimateOptions) (*Estimate, error) {
			q, err := single.Plan(ctx, single.PlanOptions{N: t.N, K: t.K})
			if err != nil {
				return nil, err
			}
			return &Estimate{Queries: 1, Lower: 1, Note: fmt.Sprintf("one query of %d bits", q.Prec())}, nil
		},
		Run: func(ctx context.Context, o Oracle, t Target, _ Options) (*decode.Result, error) {
			po, err := precise(o, "exact")
			if err != nil {
				return nil, err
			}
			q, err := single.Plan(ctx, single.PlanOptions{N: t.N, K: t.K})
			if err != nil {
				return nil, err
			}
			rs, err := po.Rat(q.Prec())
			if err != nil {
				return nil, err
			}
			return q.Attack(ctx, rs, single.Options{})
		},
	})
	Register(&Attack{
		Name: "robust-single", Aliases: []string{"robust"}, Kind: SingleQuery,
		Doc:     "ICML 2021 Alg 2, EA Thm 3: one score with bounded, Gaussian or Laplace noise below τ gives every label (-scorer apa)",
		Applies: singleApplies("robust-single", true, robustNeed),
		Estimate: func(ctx context.Context, t Target, _ EstimateOptions) (*Estimate, error) {
			p, err := robustPlan(ctx, t)
			if err != nil {
				return nil, err
			}
			return &Estimate{Queries: 1, Lower: 1, Note: fmt.Sprintf("one query of %d bits", p.Prec())}, nil
		},
		Run: func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
			po, err := precise(o, "robust-single")
			if err != nil {
				return nil, err
			}
			ro := robustOptions(t)
			ro.Margin, ro.Encoding, ro.Weights = opt.Margin, opt.Encoding, opt.Weights
			p, err := single.PlanRobust(ctx, ro)
			if err != nil {
				return nil, err
			}
			bs, err := po.Big(p.Prec())
			if err != nil {
				return nil, err
			}
			return p.Attack(ctx, bs)
		},
	})
	Register(&Attack{
		Name: "loss-family", Kind: SingleQuery,
		Doc:      "EA Appendix F: one noisy score of a binary loss of the family (cross-entropy, squared, Bregman …) gives every label (single.AttackFamily); K = 2",
		Applies:  binaryApplies("loss-family", true, familyNeed(true, lossFamily)),
		Estimate: oneQuery,
		Run: func(ctx context.Context, o Oracle, t Target, _ Options) (*decode.Result, error) {
			return familyRun(ctx, o, "loss-family", true, func(l *loss.Binary) (familyPlan, error) {
				return single.PlanFamily(ctx, lossFamily(t, l))
			})
		},
	})
	Register(&Attack{
		Name: "prime-log", Kind: SingleQuery,
		Doc:      "one noise-free binary score whose logs of primes separate every labeling (single.AttackPrimeLog); K = 2",
		Applies:  binaryApplies("prime-log", false, familyNeed(false, primeLog)),
		Estimate: oneQuery,
		Run: func(ctx context.Context, o Oracle, t Target, _ Options) (*decode.Result, error) {
			return familyRun(ctx, o, "prime-log", false, func(l *loss.Binary) (familyPlan, error) {
				return single.PlanPrimeLog(ctx, primeLog(t, l))
			})
		},
	})
	Register(&Attack{
		Name: "mutnet", Kind: SingleQuery,
		Doc:      "EA Thm 9: the robust attack submitted as a two-layer network whose output is the attack's prediction whatever its input (single.NewMutNet); K = 2",
		Applies:  binaryApplies("mutnet", true, robustNeed),
		Estimate: oneQuery,
		Run:      runMutNet,
	})
}

// oneQuery is the estimate of a single-query entry that shows no plan:
// one query.
func oneQuery(context.Context, Target, EstimateOptions) (*Estimate, error) {
	return &Estimate{Queries: 1, Lower: 1}, nil
}

// A familyPlan is a planned single-query attack on a loss of the family
// (single.FamilyPlan, single.PrimeLogPlan).
type familyPlan interface {
	Prec() uint
	Attack(context.Context, scorer.FamilyServer) (*decode.Result, error)
}

// lossFamily and primeLog are the options the loss-family and prime-log
// entries plan with on l.
func lossFamily(t Target, l *loss.Binary) single.FamilyOptions {
	return single.FamilyOptions{Loss: l, N: t.N, Tau: robustOptions(t).Tau}
}

func primeLog(t Target, l *loss.Binary) single.PrimeLogOptions {
	return single.PrimeLogOptions{Loss: l, N: t.N}
}

// familyNeed is the precision need of an entry on the cross-entropy
// (logits or probabilities) that plans with opts: its options' Prec.
func familyNeed[O interface{ Prec() (uint, error) }](logits bool, opts func(Target, *loss.Binary) O) func(Target) (uint, error) {
	return func(t Target) (uint, error) {
		l, err := crossEntropy(logits)
		if err != nil {
			return 0, err
		}
		return opts(t, l).Prec()
	}
}

// familyRun runs a single-query attack of package single on the
// cross-entropy (logits or probabilities) of a precise oracle: plan plans
// it for that loss, once, and the plan queries the oracle's family view
// at the plan's precision.
func familyRun(ctx context.Context, o Oracle, name string, logits bool, plan func(*loss.Binary) (familyPlan, error)) (*decode.Result, error) {
	po, err := precise(o, name)
	if err != nil {
		return nil, err
	}
	l, err := crossEntropy(logits)
	if err != nil {
		return nil, err
	}
	p, err := plan(l)
	if err != nil {
		return nil, err
	}
	fs, err := po.Family(l, p.Prec())
	if err != nil {
		return nil, err
	}
	return p.Attack(ctx, fs)
}

// singleApplies is the condition of a single-query attack: a log-loss
// target whose model is exact (an arbitrary-precision server), noisy or
// noise-free as the attack needs, whose precision carries need(t): the
// precision the attack's own plan needs (single's Prec of its options,
// cheap: no prediction is built), or why that plan cannot be built.
func singleApplies(name string, noisy bool, need func(Target) (uint, error)) func(Target) error {
	return func(t Target) error {
		if err := t.checkLogLoss(name); err != nil {
			return err
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
		bits, err := need(t)
		if err != nil {
			return err
		}
		if t.Model.Prec != 0 && t.Model.Prec < bits { // 0: the server answers with the bits the plan asks for
			return fmt.Errorf("the plan needs %d bits of the score, %s has %d", bits, t.Model.Name, t.Model.Prec)
		}
		return nil
	}
}

// robustOptions returns the robust attack's options for t's noise:
// bounded noise's τ, or the half-width one Gaussian or Laplace draw stays
// within but for δ.
func robustOptions(t Target) single.RobustOptions {
	tau := t.Noise.Tau
	if t.Noise.Kind == scorer.Gaussian || t.Noise.Kind == scorer.Laplace {
		tau = t.Noise.HalfWidth(0, 1)
	}
	return single.RobustOptions{N: t.N, K: t.K, Tau: tau}
}

// robustNeed is the precision the robust plan for t's noise needs.
func robustNeed(t Target) (uint, error) { return robustOptions(t).Prec() }

// robustPlan plans the robust attack for t's noise (robustOptions).
func robustPlan(ctx context.Context, t Target) (*single.RobustPlan, error) {
	return single.PlanRobust(ctx, robustOptions(t))
}

// binaryApplies is singleApplies for an attack on binary labels.
func binaryApplies(name string, noisy bool, need func(Target) (uint, error)) func(Target) error {
	a := singleApplies(name, noisy, need)
	return func(t Target) error {
		if t.K != 2 && t.K >= 2 {
			return fmt.Errorf("attacks binary labels (the loss family), not K = %d", t.K)
		}
		return a(t)
	}
}

// runMutNet is the mutnet entry's run: the robust attack's logits (K = 2,
// class 0's logit 0) as the biases of a MUTNET (EA Thm 9), which the
// scorer's view runs on a private input drawn from opt.Seed; its outputs
// must be the logits whatever the input, and they are what is scored.
func runMutNet(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
	po, err := precise(o, "mutnet")
	if err != nil {
		return nil, err
	}
	p, err := robustPlan(ctx, t)
	if err != nil {
		return nil, err
	}
	pred := p.Pred()
	x := make([]*big.Float, t.N)
	for i := range x {
		if pred.V[2*i].Sign() != 0 {
			return nil, errors.New("catalog: mutnet: the robust plan's class-0 logit is not 0")
		}
		x[i] = pred.V[2*i+1]
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6d75746e6574))
	net, err := single.NewMutNet(x, mutnetInputs, mutnetHidden, rng)
	if err != nil {
		return nil, err
	}
	v := make([]float64, mutnetInputs) // the host's input, in (0,1)^d
	for i := range v {
		v[i] = 1e-9 + (1-2e-9)*rng.Float64()
	}
	out, err := net.Logits(v)
	if err != nil {
		return nil, err
	}
	sub := &scorer.BigPred{Enc: scorer.Logits, K: 2, V: make([]*big.Float, 2*t.N)}
	for i, z := range out {
		sub.V[2*i], sub.V[2*i+1] = new(big.Float), z
	}
	bs, err := po.Big(p.Prec())
	if err != nil {
		return nil, err
	}
	return p.AttackWith(ctx, bs, sub) // an output that depends on v is not the plan's
}
