// This file implements the arbitrary-precision scoring server for
// predictions given as probabilities, log-probabilities or logits, the
// target of the single-query noise-robust attack.

package oracle

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/scorer"
)

// BigExact is a scoring server holding N private labels in [0, K) that
// returns, for a [scorer.BigPred], the mean cross-entropy plus optional noise,
// rounded to nearest-even at Prec bits. Internally it works at
// Prec + 32 + ⌈log₂(N·K)⌉ bits, so that, before noise, the reported score
// is within 2^(1−Prec)·|ℓ| + 2^(−Prec) of the exact loss (see
// [BigExact.ErrorBound]). It is safe for concurrent use.
type BigExact struct {
	labels []int
	k      int
	prec   uint
	noise  scorer.Noise

	mu      sync.Mutex
	rng     *rand.Rand
	queries int
}

// NewBigExact returns a server holding a copy of labels (each in [0, k))
// that answers with prec-bit scores and adds noise drawn from a PCG
// seeded by seed. Noise may be NoNoise, Bounded, Gaussian or Laplace.
func NewBigExact(labels []int, k int, prec uint, noise scorer.Noise, seed uint64) (*BigExact, error) {
	if len(labels) == 0 {
		return nil, errors.New("oracle: no labels")
	}
	if k < 2 {
		return nil, fmt.Errorf("oracle: K = %d, need at least 2 classes", k)
	}
	if prec < 2 || prec > big.MaxPrec-128 {
		return nil, fmt.Errorf("oracle: precision %d bits out of range", prec)
	}
	if err := loss.CheckLabels(labels, len(labels), k); err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	if err := noise.Validate(); err != nil {
		return nil, err
	}
	if noise.Kind == scorer.Multiplicative {
		return nil, errors.New("oracle: the arbitrary-precision server adds bounded, Gaussian or Laplace noise, not multiplicative")
	}
	return &BigExact{labels: append([]int(nil), labels...), k: k, prec: prec, noise: noise,
		rng: rand.New(rand.NewPCG(seed, 0x626967))}, nil
}

// N returns the number of labels.
func (o *BigExact) N() int { return len(o.labels) }

// K returns the number of classes.
func (o *BigExact) K() int { return o.k }

// Prec returns the precision of the scores in bits.
func (o *BigExact) Prec() uint { return o.prec }

// Queries returns the number of queries answered so far.
func (o *BigExact) Queries() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.queries
}

// ErrorBound returns a bound on |reported − (exact + noise)| for a score of
// magnitude at most smax: the final rounding (half an ulp, 2^(−Prec)·smax)
// plus the internal work at guard bits (at most as much again), plus
// 2^(−Prec) for the logsumexp tails a server may drop.
func (o *BigExact) ErrorBound(smax *big.Float) *big.Float {
	e := new(big.Float).SetPrec(64).Abs(smax)
	e.SetMantExp(e, 1-int(o.prec))
	return e.Add(e, new(big.Float).SetMantExp(big.NewFloat(1), -int(o.prec)))
}

// ctxRows is how often, in rows, a long evaluation polls its context: a
// row costs at most a few logsumexps at the score's precision, so 256 of
// them stay far below the second a cancellation may take.
const ctxRows = 256

// Score returns the mean cross-entropy of p against the private labels,
// with noise added, rounded to Prec bits. It returns an error if p does
// not have N rows of K values, or if a value is not finite, a probability
// is outside (0, 1] or a log-probability is positive.
func (o *BigExact) Score(ctx context.Context, p *scorer.BigPred) (*big.Float, error) {
	o.mu.Lock()
	o.queries++
	o.mu.Unlock()
	n := len(o.labels)
	if p == nil || p.K != o.k || len(p.V) != n*o.k {
		return nil, fmt.Errorf("oracle: prediction shape does not match %d rows of %d classes", n, o.k)
	}
	wp := o.prec + 32 + uint(bits.Len(uint(n*o.k)))
	total := new(big.Float).SetPrec(wp)
	t := new(big.Float).SetPrec(wp)
	for i, y := range o.labels {
		if i%ctxRows == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row := p.V[i*o.k : (i+1)*o.k]
		for j, v := range row {
			if v == nil || v.IsInf() {
				return nil, fmt.Errorf("oracle: prediction value %d of row %d is not finite", j, i)
			}
		}
		if _, err := p.Enc.RowLoss(t, row, y, nil); err != nil {
			return nil, fmt.Errorf("oracle: row %d: %w", i, err)
		}
		total.Add(total, t)
	}
	total.Quo(total, new(big.Float).SetInt64(int64(n)))
	o.mu.Lock()
	x := o.noise.Additive(o.rng)
	o.mu.Unlock()
	total.Add(total, new(big.Float).SetFloat64(x))
	return new(big.Float).SetPrec(o.prec).Set(total), nil
}
