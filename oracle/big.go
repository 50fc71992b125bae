// This file implements the arbitrary-precision scoring server for
// predictions given as probabilities, log-probabilities or logits, the
// target of the single-query noise-robust attack.

package oracle

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/loss"
)

// An Encoding says what the values of a [BigPred] are.
type Encoding int

const (
	// Logits are z_{n,k}; the loss is softmax cross-entropy,
	// logsumexp_k(z_{n,k}) − z_{n,σ_n}. For K = 2, logits (0, z) give the
	// sigmoid cross-entropy of the single logit z.
	Logits Encoding = iota
	// LogProbs are ln p_{n,k} ≤ 0; the loss is −ln p_{n,σ_n}. Doubly
	// exponential probabilities stay representable as their logarithms.
	LogProbs
	// Probs are class probabilities p_{n,k}; the loss of row n is
	// −ln p_{n,σ_n}. The server takes them as given (it does not
	// renormalize rows).
	Probs
)

var encodingNames = [...]string{"logit", "logprob", "prob"}

func (e Encoding) String() string {
	if e < 0 || int(e) >= len(encodingNames) {
		return fmt.Sprintf("Encoding(%d)", int(e))
	}
	return encodingNames[e]
}

// ParseEncoding returns the encoding called s: logit, logprob or prob.
func ParseEncoding(s string) (Encoding, error) {
	for i, n := range encodingNames {
		if s == n {
			return Encoding(i), nil
		}
	}
	return 0, fmt.Errorf("oracle: unknown prediction encoding %q (want logit, logprob or prob)", s)
}

// A BigPred is a prediction in arbitrary precision: N rows of K values,
// row-major (binary predictions have K = 2 values per row too).
type BigPred struct {
	Enc Encoding
	K   int
	V   []*big.Float
}

// N returns the number of rows of p.
func (p *BigPred) N() int { return len(p.V) / p.K }

// BigExact is a scoring server holding N private labels in [0, K) that
// returns, for a [BigPred], the mean cross-entropy plus optional noise,
// rounded to nearest-even at Prec bits. Internally it works at
// Prec + 32 + ⌈log₂(N·K)⌉ bits, so that, before noise, the reported score
// is within 2^(1−Prec)·|ℓ| + 2^(−Prec) of the exact loss (see
// [BigExact.ErrorBound]). It is safe for concurrent use.
type BigExact struct {
	labels []int
	k      int
	prec   uint
	noise  Noise

	mu      sync.Mutex
	rng     *rand.Rand
	queries int
}

// NewBigExact returns a server holding a copy of labels (each in [0, k))
// that answers with prec-bit scores and adds noise drawn from a PCG
// seeded by seed. Noise may be NoNoise, Bounded, Gaussian or Laplace.
func NewBigExact(labels []int, k int, prec uint, noise Noise, seed uint64) (*BigExact, error) {
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
	if noise.Kind == Multiplicative {
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

// Score returns the mean cross-entropy of p against the private labels,
// with noise added, rounded to Prec bits. It returns an error if p does
// not have N rows of K values, or if a value is not finite, a probability
// is outside (0, 1] or a log-probability is positive.
func (o *BigExact) Score(p *BigPred) (*big.Float, error) {
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
		row := p.V[i*o.k : (i+1)*o.k]
		for j, v := range row {
			if v == nil || v.IsInf() {
				return nil, fmt.Errorf("oracle: prediction value %d of row %d is not finite", j, i)
			}
		}
		switch p.Enc {
		case Probs:
			v := row[y]
			if v.Sign() <= 0 || v.Cmp(big.NewFloat(1)) > 0 {
				return nil, fmt.Errorf("oracle: row %d: probability %s outside (0, 1]", i, v.Text('g', 10))
			}
			if _, err := apa.Log(t, v); err != nil {
				return nil, fmt.Errorf("oracle: row %d: %w", i, err)
			}
			t.Neg(t)
		case LogProbs:
			if row[y].Sign() > 0 {
				return nil, fmt.Errorf("oracle: row %d: log-probability %s > 0", i, row[y].Text('g', 10))
			}
			t.Neg(row[y])
		case Logits:
			if _, err := LogSumExp(t, row); err != nil {
				return nil, fmt.Errorf("oracle: row %d: %w", i, err)
			}
			t.Sub(t, row[y])
		default:
			return nil, fmt.Errorf("oracle: unknown encoding %v", p.Enc)
		}
		total.Add(total, t)
	}
	total.Quo(total, new(big.Float).SetInt64(int64(n)))
	o.mu.Lock()
	x := o.noise.additive(o.rng)
	o.mu.Unlock()
	total.Add(total, new(big.Float).SetFloat64(x))
	return new(big.Float).SetPrec(o.prec).Set(total), nil
}

// LogSumExp sets z to ln Σ_k e^(x_k) and returns z, with an absolute error
// below 2^(−p)·max(1, |result|), p = z's precision (53 if 0). It works at
// p + 32 + ⌈log₂ K⌉ bits from the largest x: terms more than
// (p + 40 + log₂ K)·ln 2 below it add less than 2^(−p−40) and are dropped,
// so doubly exponential logits cost nothing; the others go through
// [apa.Exp] and [apa.Log1p]. It returns an error if x is empty or holds an
// infinity or a nil value.
func LogSumExp(z *big.Float, x []*big.Float) (*big.Float, error) {
	if len(x) == 0 {
		return z, errors.New("oracle: logsumexp of nothing")
	}
	p := z.Prec()
	if p == 0 {
		p = 53
	}
	wp := p + 32 + uint(bits.Len(uint(len(x))))
	top := 0
	for k, v := range x {
		if v == nil || v.IsInf() {
			return z, fmt.Errorf("oracle: logsumexp of a non-finite value")
		}
		if v.Cmp(x[top]) > 0 {
			top = k
		}
	}
	cut := float64(wp+8+uint(bits.Len(uint(len(x))))) * math.Ln2
	s := new(big.Float).SetPrec(wp)
	d := new(big.Float).SetPrec(wp)
	e := new(big.Float).SetPrec(wp)
	for k, v := range x {
		if k == top {
			continue
		}
		d.Sub(v, x[top]) // ≤ 0
		if f, _ := d.Float64(); f < -cut {
			continue
		}
		if _, err := apa.Exp(e, d); err != nil {
			return z, err
		}
		s.Add(s, e)
	}
	r := new(big.Float).SetPrec(wp)
	if s.Sign() != 0 {
		if _, err := apa.Log1p(r, s); err != nil {
			return z, err
		}
	}
	r.Add(r, x[top])
	return z.SetPrec(p).Set(r), nil
}
