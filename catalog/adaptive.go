package catalog

// This file registers package adaptive's attacks: threshold crossing,
// averaging and boosting. They submit one probability per row and read
// the released score; their results are decode's Result like every other
// entry's.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/labelinf/labelinf/adaptive"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// Adaptive attacks' constants.
const (
	// edgeBisection is a generous allowance for Edge's bisection onto a
	// rounding edge (≈ 55 halvings of a float64 interval and the dial's
	// three ends).
	edgeBisection = 80
	// averageDelta is the per-label error probability averaging aims at.
	averageDelta = 1e-3
	// boostK is the boosting attack's random vectors ([BH15]'s k = 400).
	boostK = 400
)

func init() {
	Register(&Attack{
		Name: "edge", Aliases: []string{"threshold-crossing"}, Kind: Adaptive,
		Doc:     "threshold crossing (Whitehill): put the score next to a rounding edge, then read one label a query from the side the score lands on, each read twice (verified); binary log-loss, best at 2 decimals",
		Applies: binaryLogLoss("edge"),
		Estimate: func(_ context.Context, t Target, _ EstimateOptions) (*Estimate, error) {
			return &Estimate{Low: 2*t.N + 3, High: 2*t.N + edgeBisection, Lower: 2 * t.N,
				Note: "two submissions a label (each read from both sides of the edge) after the bisection onto it"}, nil
		},
		Run: func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
			lb := &board{o: o}
			res, err := adaptive.Edge(ctx, lb, adaptive.EdgeOptions{N: t.N, Eps: probeEps(t), Verify: true, MaxSubmissions: opt.MaxQueries})
			if res == nil {
				return nil, err
			}
			out := adaptiveResult(res.Labels, res.Verified, lb.q)
			if err == nil && res.NumVerified < t.N {
				err = fmt.Errorf("catalog: edge verified %d of %d labels (%d conflicts, %d contradictions)", res.NumVerified, t.N, res.Conflicts, res.Contradictions)
			}
			return out, err
		},
	})
	Register(&Attack{
		Name: "average", Aliases: []string{"averaging"}, Kind: Adaptive,
		Doc: "averaging against fresh noise: repeat a submission until the mean's noise decides one label (statistical: never verified)",
		Applies: func(t Target) error {
			if err := binaryLogLoss("average")(t); err != nil {
				return err
			}
			if _, err := averageRepeats(t); err != nil {
				return err
			}
			return nil
		},
		Estimate: func(_ context.Context, t Target, _ EstimateOptions) (*Estimate, error) {
			m, err := averageRepeats(t)
			if err != nil {
				return nil, err
			}
			q := m*t.N + 1
			return &Estimate{Queries: q, Lower: q, Note: fmt.Sprintf("%d repeats a label (error probability %g each)", m, averageDelta)}, nil
		},
		Run: func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
			m, err := averageRepeats(t)
			if err != nil {
				return nil, err
			}
			lb := &board{o: o, max: opt.MaxQueries}
			res, err := adaptive.AverageLabels(ctx, lb, adaptive.AverageOptions{N: t.N, Eps: probeEps(t), Repeats: m})
			if res == nil {
				return nil, err
			}
			return adaptiveResult(res.Labels, nil, lb.q), err
		},
	})
	Register(&Attack{
		Name: "boost", Aliases: []string{"boosting"}, Kind: Adaptive,
		Doc: "boosting (Blum–Hardt): 400 random vectors, keep those that lowered the released score, majority vote; overfits a ladder (guesses: never verified)",
		Applies: func(t Target) error {
			if err := binaryLogLoss("boost")(t); err != nil {
				return err
			}
			if t.Defence == nil || t.Defence.Ladder == nil {
				return errors.New("boost tests a ladder: no ladder in the defence")
			}
			return nil
		},
		Estimate: func(_ context.Context, t Target, _ EstimateOptions) (*Estimate, error) {
			return &Estimate{Queries: boostK + 1, Lower: boostK + 1, Note: "k random vectors and the vote"}, nil
		},
		Run: func(ctx context.Context, o Oracle, t Target, opt Options) (*decode.Result, error) {
			lb := &board{o: o, max: opt.MaxQueries}
			rng := rand.New(rand.NewPCG(opt.Seed, 0x626f6f7374))
			res, err := adaptive.Boost(ctx, lb, adaptive.BoostOptions{N: t.N, K: boostK, Mode: adaptive.KeepLowered, Rand: rng, SubmitFinal: true})
			if res == nil {
				return nil, err
			}
			labels := make([]int8, t.N)
			for i, p := range res.Boosted {
				labels[i] = int8(math.Round(p))
			}
			return adaptiveResult(labels, nil, lb.q), err
		},
	})
}

// binaryLogLoss is the condition of the adaptive attacks: they submit one
// probability of class 1 per row.
func binaryLogLoss(name string) func(Target) error {
	return func(t Target) error {
		if err := t.checkLogLoss(name); err != nil {
			return err
		}
		if t.K != 2 {
			return fmt.Errorf("%s submits binary predictions: K = 2, not %d", name, t.K)
		}
		return nil
	}
}

// averageRepeats returns the repeats averaging needs against t's noise:
// fresh noise, from the defence or the assumed noise.
func averageRepeats(t Target) (int, error) {
	sigma := 0.0
	if d := t.Defence; d != nil && d.Noise != nil {
		if d.Noise.Key != "" && d.Noise.Key != "fresh" {
			return 0, fmt.Errorf("averaging needs fresh noise, not noise keyed on the %s", d.Noise.Key)
		}
		sigma = d.Noise.Scale
		if d.Noise.Kind == "laplace" {
			sigma *= math.Sqrt2
		}
	} else {
		switch t.Noise.Kind {
		case scorer.Gaussian:
			sigma = t.Noise.Tau
		case scorer.Laplace:
			sigma = t.Noise.Tau * math.Sqrt2
		}
	}
	if !(sigma > 0) {
		return 0, errors.New("averaging needs fresh Gaussian or Laplace noise")
	}
	eps := probeEps(t)
	return adaptive.RepeatsFor(sigma, math.Log((1-eps)/eps)/float64(t.N), averageDelta)
}

// probeEps returns the smallest probability worth submitting: the
// model's clipping ε, or 10^−15, or for a format of P < 50 bits 2^−P
// (1 − ε must stay below 1 in the format: binary16's 1 − 10^−15 is 1,
// whose log is infinite).
func probeEps(t Target) float64 {
	eps := 1e-15
	if t.Model != nil && !t.Model.Exact {
		if p := t.Model.Loss.Format.Prec(); p < 50 {
			eps = math.Ldexp(1, -int(p))
		}
		if c, err := t.Model.Clip(); err == nil && c.Eps != nil {
			if f, _ := c.Eps.Float64(); f > eps && f < 0.5 {
				eps = f
			}
		}
	}
	return eps
}

// board is an Oracle as package adaptive submits to it.
type board struct {
	o   Oracle
	q   int
	max int
}

func (b *board) Submit(ctx context.Context, pred []float64) (*big.Rat, error) {
	if b.max > 0 && b.q >= b.max {
		return nil, adaptive.ErrSubmissionLimit
	}
	r, err := b.o.Score(ctx, &scorer.Pred{K: 2, P: pred})
	if err != nil {
		return nil, err
	}
	b.q++
	return r, nil
}

// adaptiveResult converts an adaptive attack's labels (Unknown where not
// read) and verified marks (nil: none) to a Result.
func adaptiveResult(labels []int8, verified []bool, queries int) *decode.Result {
	res := &decode.Result{Labels: make([]int, len(labels)), Known: make([]bool, len(labels)), Queries: queries, Verified: verified != nil}
	for i, l := range labels {
		res.Labels[i] = int(l)
		res.Known[i] = verified != nil && verified[i] && l != adaptive.Unknown
		res.Verified = res.Verified && res.Known[i]
	}
	return res
}
