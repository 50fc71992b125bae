// This file implements the single-query robust attack on the binary loss
// family [EA, Theorems 4, 6 and 7]: predictions from the root finder
// x*(y), decoding by the superincreasing or meet-in-the-middle decoders,
// and the negative results for bounded weights.

package single

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/subsetsum"
)

// NotSeparableError reports a loss that no prediction can make 2τ-separable
// for N labels: its weights d(θ) are bounded by Sup, and N weights whose
// subset sums are 2Nτ apart need one of at least Need [AKXFT21, Theorems
// 5–6; Fre98].
type NotSeparableError struct {
	Loss      string
	N         int
	Tau       float64
	Sup, Need float64
}

func (e *NotSeparableError) Error() string {
	return fmt.Sprintf("single: not τ-separable: %s has |d(θ)| < %g for every θ, but %d labels with scores 2τ = %g apart need a weight of at least 2Nτ·C(N−1, ⌊(N−1)/2⌋) = %g (ICML Thm 5–6); with one query, no prediction recovers them under this noise",
		e.Loss, e.Sup, e.N, 2*e.Tau, e.Need)
}

// FamilyOptions configures [PlanFamily] and [AttackFamily].
type FamilyOptions struct {
	Loss *loss.Binary
	N    int
	// Tau bounds the noise: |observed − exact| < τ, τ > 0.
	Tau float64
	// ServerErr bounds the server's own rounding of N·ℓ ([AttackFamily]).
	ServerErr float64
}

// A FamilyServer scores a prediction θ under a loss of the family
// (scorer.FamilyServer).
type FamilyServer = scorer.FamilyServer

// AttackFamily plans the attack with [PlanFamily] and runs it with
// [FamilyPlan.Attack].
func AttackFamily(ctx context.Context, s FamilyServer, opt FamilyOptions) (*decode.Result, error) {
	p, err := PlanFamily(ctx, opt)
	if err != nil {
		return nil, err
	}
	return p.Attack(ctx, s)
}

// FamilyPlan is a planned single-query attack on a loss of the family.
type FamilyPlan struct {
	Loss *loss.Binary
	N    int
	Tau  float64
	// W is the weight unit 2Nτ(1+δ); the weights are W·2^i, or W·u_i for
	// Conway–Guy (ConwayGuy is then true).
	W         float64
	ConwayGuy bool
	// Theta is the prediction to submit (probabilities, or logits for
	// sigmoid cross-entropy).
	Theta []*big.Float

	d    []*big.Float // d(θ_i), from the submitted θ
	c    *big.Float   // Σ_i Term(0, θ_i)
	cg   []int64
	prec uint
	// serverErr is FamilyOptions.ServerErr, for [FamilyPlan.Attack].
	serverErr float64
}

// familyMargin is δ in W = 2Nτ(1+δ): the root finder's relative error
// and the server's rounding must stay inside it.
const familyMargin = 1.0 / 8

// PlanFamily plans the single-query τ-robust attack on l for n labels
// [EA, Theorem 4]: θ_i = x*(W·2^i) with W = 2Nτ(1+δ), so that the weights
// d(θ_i) are superincreasing with gaps above 2Nτ and Λ > 2τ. For losses
// whose weights are bounded by β = sup |d| (squared Euclidean, norm-like,
// Mahalanobis, bounded Bregman), the largest weight must stay below β:
// when powers of two do not fit it tries the Conway–Guy set (n ≤ 50), and
// when 2Nτ·[subsetsum.MinLargestBound](n) ≥ β no prediction can work and
// it returns a *NotSeparableError. Otherwise it returns an error saying
// which weight does not fit (not proof that none would).
//
// It returns an error if N is outside [1, 4096] or τ is not positive, and
// ctx's error when ctx is done (it polls it every row).
func PlanFamily(ctx context.Context, opt FamilyOptions) (*FamilyPlan, error) {
	p, err := opt.shape()
	if err != nil {
		return nil, err
	}
	// Invert is good to a relative 2^(−tp/2) (bisection); the weight
	// W·2^i needs 2^−i·δ, so the root is refined to tp = P + 32 bits
	// (TestFamilyRootAccuracy).
	p.Theta, p.d, p.c, err = invertAll(ctx, p.Loss, p.N, p.prec+32, p.prec+64, func(i int) *big.Float {
		y := new(big.Float).SetPrec(64).SetFloat64(p.W)
		if p.ConwayGuy {
			return y.Mul(y, new(big.Float).SetInt64(p.cg[i]))
		}
		return y.SetMantExp(y, i)
	})
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Prec returns the score precision, in bits, that [PlanFamily] plans for
// opt, or the error it returns before finding its roots (N or τ out of
// range, a loss that no prediction separates, weights that do not fit
// below sup |d|): what the plan needs, cheaply, without the plan.
func (opt FamilyOptions) Prec() (uint, error) { return precOf(opt.shape()) }

// shape is [PlanFamily] up to its roots: the checks, the weights and the
// precision.
func (opt FamilyOptions) shape() (*FamilyPlan, error) {
	l, n, tau := opt.Loss, opt.N, opt.Tau
	switch {
	case l == nil:
		return nil, errors.New("single: no loss to plan for")
	case n < 1 || n > 4096:
		return nil, fmt.Errorf("single: N = %d outside [1, 4096]", n)
	case !(tau > 0) || math.IsInf(tau, 0):
		return nil, fmt.Errorf("single: τ = %v; want τ > 0", tau)
	}
	w := 2 * float64(n) * tau * (1 + familyMargin)
	p := &FamilyPlan{Loss: l, N: n, Tau: tau, W: w, serverErr: opt.ServerErr}
	sup := l.DSup()
	if !math.IsInf(sup, 1) {
		b, err := subsetsum.MinLargestBound(n)
		if err != nil {
			return nil, err
		}
		bf, _ := new(big.Float).SetInt(b).Float64()
		need := 2 * float64(n) * tau * bf
		if need >= sup {
			return nil, &NotSeparableError{Loss: l.String(), N: n, Tau: tau, Sup: sup, Need: need}
		}
		// Leave the root finder room below the supremum.
		if top := w * math.Ldexp(1, n-1); top >= sup*(1-1e-9) {
			cg, err := subsetsum.ConwayGuy(min(n, 50))
			if n > 50 || err != nil || w*float64(cg[n-1]) >= sup*(1-1e-9) {
				return nil, fmt.Errorf("single: %v: the largest weight needed, %g (powers of two) or more than the Conway–Guy set's, exceeds sup |d| = %g; no construction found (the lower bound %g does not rule one out)", l, top, sup, need)
			}
			p.ConwayGuy, p.cg = true, cg
		}
	}
	// Score bits: N·ℓ is about Σ weights ≤ W·2^N; resolve a quarter of Nτδ.
	scaleExp := math.Ilogb(w) + n + 2
	slackExp := math.Ilogb(float64(n)*tau*familyMargin/4) - 1
	p.prec = uint(max(scaleExp-slackExp+8, 53))
	return p, nil
}

// Prec returns the score precision, in bits, the plan needs.
func (p *FamilyPlan) Prec() uint { return p.prec }

// Attack submits θ to s and decodes its one score, whose server error is
// the options' ServerErr. Before querying, it returns an error if s does
// not hold the plan's N binary labels, or a *PrecisionError if s tells
// its precision and it is below [FamilyPlan.Prec]; then the scorer's
// error, [FamilyPlan.Decode]'s, or ctx's within a second of ctx being
// done.
func (p *FamilyPlan) Attack(ctx context.Context, s FamilyServer) (*decode.Result, error) {
	if err := fits(s, p.N, 2, p.prec); err != nil {
		return nil, err
	}
	return oneQuery(ctx, func() (*big.Float, error) { return s.Score(ctx, p.Theta) },
		func(x *big.Float) (*decode.Result, error) { return p.Decode(x, p.serverErr) })
}

// Candidates returns the number of subset sums [FamilyPlan.Decode]
// examines, a count fixed by the plan: N for powers of two (the
// superincreasing walk decides one weight per step), 2^⌈N/2⌉ + 2^⌊N/2⌋ for
// Conway–Guy weights (the two sorted half-lists of [subsetsum.Window]'s
// meet-in-the-middle). The exhaustive decoder of [EA, Section 3]
// (LABELINF) examines 2^N.
func (p *FamilyPlan) Candidates() int64 {
	if p.ConwayGuy {
		return 1<<((p.N+1)/2) + 1<<(p.N/2)
	}
	return int64(p.N)
}

// Decode recovers the labels from N·ℓ̂ = N × the observed score, whose
// error is below Nτ plus serverErr (the server's own rounding, in N·ℓ
// units). It walks the superincreasing weights from the largest
// ([subsetsum.DecodeSuperincreasing], on the weights scaled to integers)
// or searches the Conway–Guy window by meet-in-the-middle, then verifies
// that the labeling's exact loss is within the bound. It returns
// ErrInconsistent if no labeling is.
func (p *FamilyPlan) Decode(score *big.Float, serverErr float64) (*decode.Result, error) {
	wp := p.prec + 64
	s := new(big.Float).SetPrec(wp).Mul(score, new(big.Float).SetInt64(int64(p.N)))
	apa.Sub(s, s, p.c) // Σ σ_i d_i + N·noise
	bound := float64(p.N)*p.Tau + serverErr
	labels := make([]int, p.N)
	if p.ConwayGuy {
		// In units of W the weights are u_i up to the root finder's error.
		r := bound / p.W
		for i, di := range p.d {
			f, _ := di.Float64()
			r += math.Abs(f/p.W - float64(p.cg[i]))
		}
		tf, _ := new(big.Float).SetPrec(wp).Quo(s, new(big.Float).SetFloat64(p.W)).Float64()
		lo, hi := int64(math.Ceil(tf-r)), int64(math.Floor(tf+r))
		masks, err := subsetsum.Window(context.Background(), p.cg, lo, hi, 2)
		if err != nil || len(masks) != 1 {
			return nil, fmt.Errorf("%w: %d labelings in the noise window", decode.ErrInconsistent, len(masks))
		}
		for i := range labels {
			labels[i] = int(masks[0] >> i & 1)
		}
	} else {
		// Scale so that the smallest weight has 64 integer bits, round,
		// and decode; rounding moves each weight by ≤ ½, the target too.
		shift := 64 - p.d[0].MantExp(nil)
		scaled := func(x *big.Float) *big.Int { return bigint.Round(new(big.Float).SetPrec(wp).SetMantExp(x, shift)) }
		ws := make([]*big.Int, p.N)
		for i, di := range p.d {
			ws[i] = scaled(di)
		}
		r := scaled(new(big.Float).SetFloat64(bound))
		r.Add(r, big.NewInt(int64(p.N)+1)) // the roundings
		bits, err := subsetsum.DecodeSuperincreasing(ws, scaled(s), r)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", decode.ErrInconsistent, err)
		}
		for i, b := range bits {
			if b {
				labels[i] = 1
			}
		}
	}
	// Verify: the decoded labeling's weights must explain the score.
	return verifyWeights(labels, p.d, s, wp, bound)
}
