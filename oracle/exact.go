package oracle

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/internal/ctxwait"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/primes"
)

// Exact is a scoring server that holds N private labels in [0, K) and
// returns the mean cross-entropy of each submitted prediction, correctly
// rounded to nearest-even at Prec bits. It is safe for concurrent use.
type Exact struct {
	labels []int
	k      int
	prec   uint

	mu      sync.Mutex
	queries int
	consts  *apa.Consts // π and ln 2 for the logarithm; nil: a fresh cache per score
}

// UseConsts makes o take π and ln 2 from, and keep them in, the cache c,
// which may be shared with other users (an [apa.Consts] is safe for
// concurrent use): a long-lived server keeps them across queries. Scores
// do not depend on it. Call it before the first Score.
func (o *Exact) UseConsts(c *apa.Consts) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.consts = c
}

// NewExact returns a server holding a copy of labels (each in [0, k)),
// answering with prec-bit scores.
func NewExact(labels []int, k int, prec uint) (*Exact, error) {
	if len(labels) == 0 {
		return nil, errors.New("oracle: no labels")
	}
	if k < 2 {
		return nil, fmt.Errorf("oracle: K = %d, need at least 2 classes", k)
	}
	if prec < 2 {
		return nil, fmt.Errorf("oracle: precision %d bits, need at least 2", prec)
	}
	if err := loss.CheckLabels(labels, len(labels), k); err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	return &Exact{labels: append([]int(nil), labels...), k: k, prec: prec}, nil
}

// N returns the number of labels.
func (o *Exact) N() int { return len(o.labels) }

// K returns the number of classes.
func (o *Exact) K() int { return o.k }

// Prec returns the precision of the scores in bits.
func (o *Exact) Prec() uint { return o.prec }

// Queries returns the number of queries answered so far (malformed ones
// included: a real server counts them too).
func (o *Exact) Queries() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.queries
}

// Score returns the mean cross-entropy of p against the private labels,
// correctly rounded to nearest-even at Prec bits. It returns an error if p
// is malformed or does not have N rows of K classes, and ctx's error as
// soon as ctx is done.
func (o *Exact) Score(ctx context.Context, p *loss.Rat) (*big.Float, error) {
	o.mu.Lock()
	o.queries++
	cc := o.consts
	o.mu.Unlock()
	if cc == nil {
		cc = new(apa.Consts)
	}
	if p == nil || p.N() != len(o.labels) || p.K != o.k {
		return nil, fmt.Errorf("oracle: prediction shape does not match %d rows of %d classes", len(o.labels), o.k)
	}
	// One product of N rationals: it cannot poll ctx, so it is abandoned
	// (left to finish in the background) if ctx is done first.
	var z *big.Float
	err := ctxwait.Do(ctx, func() (err error) {
		z, err = crossEntropy(new(big.Float).SetPrec(o.prec), o.labels, p, cc)
		return err
	})
	if err != nil {
		return nil, err
	}
	return z, nil
}

// crossEntropy is [loss.CrossEntropy] with the constants from cc and the
// two products (denominators, chosen numerators) on two goroutines.
func crossEntropy(z *big.Float, labels []int, p *loss.Rat, cc *apa.Consts) (*big.Float, error) {
	if err := p.Validate(); err != nil {
		return z, err
	}
	if err := loss.CheckLabels(labels, p.N(), p.K); err != nil {
		return z, err
	}
	chosen := make([]*big.Int, len(labels))
	for i, y := range labels {
		chosen[i] = p.Num[i][y]
	}
	var a *big.Int
	var wg sync.WaitGroup
	wg.Go(func() { a = primes.Product(p.Den) })
	b := primes.Product(chosen)
	wg.Wait()
	if b.Sign() == 0 {
		return z.SetInf(false), nil
	}
	return cc.LogRatio(z, a, b, uint64(len(labels)))
}
