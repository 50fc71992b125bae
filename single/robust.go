// This file implements the single-query noise-robust attack in arbitrary
// precision [AKXFT21, Algorithm 2 and Theorem 4], its base-3 form [EA,
// Theorem 14] and its K-class form [EA, Theorem 3], with predictions kept
// in log space and decoding in O(N) big-number operations.

package single

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/subsetsum"
)

// A WeightSet chooses the weights of the robust code.
type WeightSet int

//go:generate go run golang.org/x/tools/cmd/stringer@v0.52.0 -type=WeightSet -linecomment -output=weightset_string.go

const (
	// PowerWeights are W·2^j: superincreasing, decoded by reading the bits
	// of one rounded integer [AKXFT21, Algorithm 2].
	PowerWeights WeightSet = iota // powers
	// ConwayGuyWeights are W·u_j with the Conway–Guy set (binary only,
	// N ≤ 50): the largest weight is about half of 2^(N−1), one bit less
	// of score, decoded by meet-in-the-middle ([subsetsum.Window]).
	ConwayGuyWeights // conway-guy
)

// RobustOptions configures [PlanRobust].
type RobustOptions struct {
	N, K int
	// Tau bounds the noise: |observed − exact| < τ. It must be > 0 (with
	// no noise the exact prime attack needs far fewer bits).
	Tau float64
	// Margin is δ in the weight unit W = 2Nτ(1+δ), the slack left for the
	// server's own rounding; 0 means 1/16. δ = ln 3 − 1 is the base-3 code
	// of [EA, Theorem 14].
	Margin float64
	// Encoding is how predictions are submitted: logits (the zero value),
	// log-probabilities or probabilities.
	Encoding scorer.Encoding
	Weights  WeightSet
}

// MaxRobustN bounds the labels of one robust query: the score needs about
// N·(K−1) bits.
const MaxRobustN = 1 << 22

// RobustPlan is a planned single-query robust attack: the weight unit W,
// the prediction, and the precision the score needs.
type RobustPlan struct {
	N, K    int
	Tau     float64
	W       *big.Float // weight unit, a float64 ≥ 2Nτ(1+δ)
	Enc     scorer.Encoding
	Weights WeightSet

	prec  uint            // score bits needed
	pred  *scorer.BigPred // the submitted prediction
	rowL  []*big.Float    // rowL[n·K+k]: loss of row n if its label were k, from the submitted values
	base  *big.Float      // Σ_n rowL[n·K]
	cg    []int64         // Conway–Guy weights (ConwayGuyWeights)
	absLg int             // rowL is exact to 2^absLg
}

// weightExp returns j such that label k ≥ 1 of row n contributes W·2^j
// under power weights: j = n(K−1)+k−1, one bit per row and class.
func (p *RobustPlan) weightExp(n, k int) int { return n*(p.K-1) + k - 1 }

// PlanRobust plans the attack: row n gets logits z_{n,0} = 0 and
// z_{n,k} = W·2^(n(K−1)+k−1) for k ≥ 1, so that
//
//	N·ℓ(σ) = C − W·M(σ),  M(σ) = Σ_n [σ_n > 0]·2^(n(K−1)+σ_n−1),
//
// with C = Σ_n logsumexp(z_n) known to the attacker. M is an integer with
// at most one bit in each row's K−1 bits, so distinct labelings have
// scores at least W/N = 2τ(1+δ) apart: Λ > 2τ, the condition of [EA,
// Proposition 1], and M is recovered by rounding (C − N·ℓ̂)/W. This is
// [AKXFT21, Algorithm 2] for K = 2 and a (K−1)-bits-per-row form of [EA,
// Theorem 3] (which uses K bits per row). Probabilities and
// log-probabilities are exp and ln of the same softmax, computed in log
// space so that nothing doubly exponential is formed where it would
// overflow.
//
// It returns ctx's error when ctx is done (it polls it every few rows),
// and an error if N, K or τ are out of range, if Conway–Guy
// weights are asked for K > 2 or N > 50, or if probability predictions
// would underflow big.Float's exponent range (use logits or
// log-probabilities then; [MaxProbRows] gives the limit).
func PlanRobust(ctx context.Context, opt RobustOptions) (*RobustPlan, error) {
	p, err := opt.shape()
	if err != nil {
		return nil, err
	}
	n, k := p.N, p.K
	logits := make([]*big.Float, n*k)
	for j := range logits {
		logits[j] = p.logit(j)
	}
	// The submitted prediction and, for every row and label, the loss the
	// server would compute from the submitted values, to an absolute 2^absLg.
	p.pred = &scorer.BigPred{Enc: p.Enc, K: k, V: make([]*big.Float, n*k)}
	p.rowL = make([]*big.Float, n*k)
	p.base = new(big.Float).SetPrec(p.prec + 64)
	lse := new(big.Float)
	for i := range n {
		if i%pollRowEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		z, row := logits[i*k:(i+1)*k], p.pred.V[i*k:(i+1)*k]
		// logsumexp(z_i), exact to an absolute 2^absLg.
		lse.SetPrec(p.bitsFor(slices.MaxFunc(z, (*big.Float).Cmp)))
		if _, err := apa.LogSumExp(lse, z); err != nil {
			return nil, err
		}
		for c := range k {
			// The submitted value: the logit, or ln θ_{i,c} = z_{i,c} −
			// logsumexp(z_i) exact to 2^absLg, or θ_{i,c}; and the loss
			// as the server defines it from it (scorer.Encoding.RowLoss),
			// at a precision that holds it to 2^absLg.
			v, prec := z[c], p.bitsFor(lse)
			if p.Enc != scorer.Logits {
				v = new(big.Float).SetPrec(prec).Sub(z[c], lse)
				if p.Enc == scorer.LogProbs && v.Sign() > 0 {
					v.SetInt64(0)
				}
			}
			if p.Enc == scorer.Probs {
				prec = uint(max(64, -p.absLg+16))
				prob := new(big.Float).SetPrec(prec)
				if _, err := apa.Exp(prob, v); err != nil {
					return nil, fmt.Errorf("single: probability of row %d, class %d: %w (submit logits or log-probabilities)", i, c, err)
				}
				v = prob
			}
			row[c] = v
			l := new(big.Float).SetPrec(prec)
			if _, err := p.Enc.RowLoss(l, row, c, lse); err != nil {
				return nil, fmt.Errorf("single: row %d: %w", i, err)
			}
			p.rowL[i*k+c] = l
		}
		p.base.Add(p.base, p.rowL[i*k])
	}
	return p, nil
}

// Prec returns the score precision, in bits, that [PlanRobust] plans for
// opt, or the error it returns before building the prediction: what the
// plan needs, cheaply (no row's logsumexp), without the plan.
func (opt RobustOptions) Prec() (uint, error) { return precOf(opt.shape()) }

// shape is [PlanRobust] up to its prediction: the checks, the weights and
// the precision.
func (opt RobustOptions) shape() (*RobustPlan, error) {
	n, k := opt.N, opt.K
	switch {
	case n < 1 || n > MaxRobustN:
		return nil, fmt.Errorf("single: N = %d outside [1, %d]", n, MaxRobustN)
	case k < 2 || k > 1<<10:
		return nil, fmt.Errorf("single: K = %d outside [2, 1024]", k)
	case !(opt.Tau > 0) || math.IsInf(opt.Tau, 0):
		return nil, fmt.Errorf("single: robust attack needs a noise bound τ > 0, got %v (without noise use the exact prime attack)", opt.Tau)
	case opt.Margin < 0 || math.IsNaN(opt.Margin) || math.IsInf(opt.Margin, 0):
		return nil, fmt.Errorf("single: margin δ = %v; want δ ≥ 0", opt.Margin)
	case opt.Encoding < scorer.Logits || opt.Encoding > scorer.Probs:
		return nil, fmt.Errorf("single: unknown encoding %v", opt.Encoding)
	case uint64(n)*uint64(k-1) > 1<<26:
		return nil, fmt.Errorf("single: N·(K−1) = %d bits of score exceed 2^26", n*(k-1))
	case opt.Weights != PowerWeights && opt.Weights != ConwayGuyWeights:
		return nil, fmt.Errorf("single: unknown weight set %d", opt.Weights)
	case opt.Weights == ConwayGuyWeights && (k != 2 || n > 50):
		return nil, fmt.Errorf("single: Conway–Guy weights need K = 2 and N ≤ 50 (meet-in-the-middle decoding), got K = %d, N = %d", k, n)
	case opt.Encoding == scorer.Probs && opt.Weights == PowerWeights && n > MaxProbRows(opt.Tau):
		// A quick, conservative check; the exact one is apa.Exp's error.
		return nil, fmt.Errorf("single: probability predictions for N = %d underflow big.Float's exponent range (the smallest is e^(−W·2^(N−1)); at τ = %g the limit is about N = %d); submit logits or log-probabilities", n, opt.Tau, MaxProbRows(opt.Tau))
	}
	delta := opt.Margin
	if delta == 0 {
		delta = 1.0 / 16
	}
	p := &RobustPlan{N: n, K: k, Tau: opt.Tau, Enc: opt.Encoding, Weights: opt.Weights}
	// W = 2Nτ(1+δ), rounded up to a float64 so that every weight W·2^j is
	// exact in 53 bits.
	w := 2 * float64(n) * opt.Tau * (1 + delta)
	if math.IsInf(w, 0) || w < 0x1p-900 {
		return nil, fmt.Errorf("single: weight unit 2Nτ(1+δ) = %g is outside float64's comfortable range [2^−900, max]", w)
	}
	w = math.Nextafter(w, math.Inf(1))
	p.W = new(big.Float).SetFloat64(w)
	if opt.Weights == ConwayGuyWeights {
		cg, err := subsetsum.ConwayGuy(n)
		if err != nil {
			return nil, err
		}
		p.cg = cg
	}
	// The score's scale: N·ℓ ≤ C ≲ (largest logit)·2 + N·ln K. The noise
	// budget Nτ leaves Nτδ for rounding errors; the server's (2^(1−P)·N·ℓ
	// plus 2^(−P)·N) and ours (N·2^absLg) each get a quarter of it.
	scaleExp := p.logit(n*k-1).MantExp(nil) + 2 + bits.Len(uint(n*k))
	slackExp := new(big.Float).SetFloat64(float64(n)*opt.Tau*delta/4).MantExp(nil) - 1
	p.prec = uint(max(scaleExp-slackExp+2, 24))
	p.absLg = slackExp - bits.Len(uint(n)) - 2
	return p, nil
}

// logit returns the logit z_{i,c} at index j = i·K + c, exact in 64 +
// log2(K) bits.
func (p *RobustPlan) logit(j int) *big.Float {
	z, i, c := new(big.Float).SetPrec(64), j/p.K, j%p.K
	if c > 0 && p.cg != nil {
		z.SetInt64(p.cg[i]).Mul(z, p.W)
	} else if c > 0 {
		z.SetMantExp(p.W, p.weightExp(i, c))
	}
	return z
}

// MaxProbRows returns the largest N for which [PlanRobust] can submit
// binary probabilities as big.Floats at the default margin: the smallest
// probability, e^(−W·2^(N−1)) with W = 2Nτ(1+1/16), must stay above
// big.Float's least exponent, 2^(−2³¹): W·2^(N−1)·log₂e < 2³¹. It is
// N = 54, 44, 35, 25 and 16 at τ = 1e−9, 1e−6, 1e−3, 1 and 1000
// (TestMaxProbRows); logits and log-probabilities have no such limit.
func MaxProbRows(tau float64) int {
	n := 0
	for m := 1; m < 64; m++ {
		w := 2 * float64(m) * tau * (1 + 1.0/16)
		if w*math.Ldexp(1, m-1)*math.Log2E >= float64(math.MaxInt32)-1e6 {
			break
		}
		n = m
	}
	return n
}

// bitsFor returns a precision that holds values of x's magnitude to an
// absolute 2^absLg.
func (p *RobustPlan) bitsFor(x *big.Float) uint {
	return uint(max(64, x.MantExp(nil)-p.absLg+8))
}

// Prec returns the score precision, in bits, the plan needs: about
// N·(K−1) + log₂(1/δ) + 8.
func (p *RobustPlan) Prec() uint { return p.prec }

// Pred returns the prediction to submit. It is shared; do not modify it.
func (p *RobustPlan) Pred() *scorer.BigPred { return p.pred }

// Decode recovers the labels from one observed score ℓ̂ with prec
// significant bits, as a verified [decode.Result] (Queries left to the caller). It rounds (C − N·ℓ̂)/W to the integer M, reads one
// label per row from M's bits (O(N); Conway–Guy weights go through
// [subsetsum.Window]), and verifies: the decoded labeling's loss, summed
// from the submitted values, must be within Nτ plus the rounding bounds
// of N·ℓ̂ — the only labeling that can be, since the others are at least
// W > 2(Nτ + rounding) away. It returns a *PrecisionError if prec is
// below [RobustPlan.Prec], and ErrInconsistent if no labeling explains ℓ̂.
func (p *RobustPlan) Decode(score *big.Float, prec uint) (*decode.Result, error) {
	if score == nil || score.IsInf() {
		return nil, fmt.Errorf("%w: score is not finite", decode.ErrInconsistent)
	}
	if prec < p.prec {
		return nil, &PrecisionError{Have: prec, Need: p.prec}
	}
	wp := p.prec + 64
	nl := new(big.Float).SetPrec(wp).Mul(score, new(big.Float).SetInt64(int64(p.N)))
	// Budget: Nτ + server rounding 2^(1−P)·|N·ℓ̂| + N·2^(−P) + ours N·2^absLg.
	budget := new(big.Float).SetPrec(wp).SetFloat64(float64(p.N) * p.Tau)
	srv := new(big.Float).SetPrec(64).Abs(nl)
	srv.SetMantExp(srv, 1-int(prec))
	budget.Add(budget, srv)
	budget.Add(budget, new(big.Float).SetMantExp(big.NewFloat(float64(p.N)), -int(prec)))
	budget.Add(budget, new(big.Float).SetMantExp(big.NewFloat(float64(p.N)), p.absLg))
	half := new(big.Float).Quo(p.W, big.NewFloat(2))
	if budget.Cmp(half) >= 0 {
		return nil, fmt.Errorf("single: noise and rounding bounds %s reach half the weight unit %s: the code does not separate", budget.Text('g', 6), half.Text('g', 6))
	}
	mReal := new(big.Float).SetPrec(wp).Sub(p.base, nl)
	mReal.Quo(mReal, p.W)
	labels := make([]int, p.N)
	if p.cg != nil {
		r := new(big.Float).SetPrec(wp).Quo(budget, p.W)
		lo := bigint.Ceil(new(big.Float).SetPrec(wp).Sub(mReal, r))
		hi := bigint.Floor(new(big.Float).SetPrec(wp).Add(mReal, r))
		if !lo.IsInt64() || !hi.IsInt64() || lo.Cmp(hi) > 0 {
			return nil, fmt.Errorf("%w: no subset sum in the window", decode.ErrInconsistent)
		}
		masks, err := subsetsum.Window(context.Background(), p.cg, lo.Int64(), hi.Int64(), 2)
		if err != nil || len(masks) != 1 {
			return nil, fmt.Errorf("%w: %d labelings in the noise window", decode.ErrInconsistent, len(masks))
		}
		for i := range labels {
			labels[i] = int(masks[0] >> i & 1)
		}
	} else {
		m := bigint.Round(mReal)
		if m.Sign() < 0 || m.BitLen() > p.N*(p.K-1) {
			return nil, fmt.Errorf("%w: decoded integer out of range", decode.ErrInconsistent)
		}
		for i := range p.N {
			for c := 1; c < p.K; c++ {
				if m.Bit(p.weightExp(i, c)) == 1 {
					if labels[i] != 0 {
						return nil, fmt.Errorf("%w: row %d has two labels", decode.ErrInconsistent, i)
					}
					labels[i] = c
				}
			}
		}
	}
	// Verify against the submitted values.
	got := new(big.Float).SetPrec(wp)
	for i, y := range labels {
		got.Add(got, p.rowL[i*p.K+y])
	}
	res := got.Sub(got, nl).Abs(got)
	r64, _ := res.Float64()
	b64, _ := budget.Float64()
	if res.Cmp(budget) > 0 {
		return nil, fmt.Errorf("%w: the decoded labeling is %g from the score, beyond the bound %g", decode.ErrInconsistent, r64, b64)
	}
	out := allKnown(labels)
	out.Residual, out.Budget = r64, b64
	return out, nil
}

// AttackRobust plans the attack for s's N and K with [PlanRobust] and runs
// it with [RobustPlan.Attack].
func AttackRobust(ctx context.Context, s scorer.BigServer, opt RobustOptions) (*decode.Result, error) {
	p, err := PlanRobust(ctx, opt)
	if err != nil {
		return nil, err
	}
	return p.Attack(ctx, s)
}

// Attack submits the plan's one prediction to s and decodes the score. It
// returns an error before querying if s does not hold the plan's N and K
// or a *PrecisionError if s.Prec() is below [RobustPlan.Prec], then the
// scorer's error, [RobustPlan.Decode]'s, or ctx's within a second of ctx
// being done.
func (p *RobustPlan) Attack(ctx context.Context, s scorer.BigServer) (*decode.Result, error) {
	return p.AttackWith(ctx, s, p.pred)
}

// AttackWith is [RobustPlan.Attack] submitting pred, the plan's values
// however they were made (the outputs of a [MutNet] whose biases are the
// plan's logits): it returns an error before querying if pred's
// encoding, K or any value is not the plan's, whose weights the decoder
// reads.
func (p *RobustPlan) AttackWith(ctx context.Context, s scorer.BigServer, pred *scorer.BigPred) (*decode.Result, error) {
	if err := fits(s, p.N, p.K, p.prec); err != nil {
		return nil, err
	}
	if pred == nil {
		return nil, errors.New("single: no prediction to submit")
	}
	if pred != p.pred {
		if pred.Enc != p.pred.Enc || pred.K != p.pred.K || len(pred.V) != len(p.pred.V) {
			return nil, fmt.Errorf("single: the prediction (%v, K = %d, %d values) is not the plan's (%v, K = %d, %d values)", pred.Enc, pred.K, len(pred.V), p.pred.Enc, p.pred.K, len(p.pred.V))
		}
		for i, v := range pred.V {
			if v == nil || v.Cmp(p.pred.V[i]) != 0 {
				return nil, fmt.Errorf("single: the prediction's value %d is not the plan's", i)
			}
		}
	}
	return oneQuery(ctx, func() (*big.Float, error) { return s.Score(ctx, pred) },
		func(x *big.Float) (*decode.Result, error) { return p.Decode(x, s.Prec()) })
}

// pollRowEvery is how often, in rows, a plan polls its context: a row
// costs a few big-number operations at the score's precision (a
// logsumexp, an exp), so 64 of them stay well below the second a
// cancellation may take even at N·(K−1) = 2^26 bits.
const pollRowEvery = 64
