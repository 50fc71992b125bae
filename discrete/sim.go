package discrete

// This file implements the simulated server of a metric that is not a
// log-loss model: accuracy, ROC AUC and the Brier score as labelinf serve
// computes them (package metric, which serve scores with).

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/scorer"
)

// Sim is a simulated scoring server of one of labelinf serve's
// metrics (metric.Parse: accuracy, roc-auc, brier, or a log-loss
// model): it holds private labels and answers a prediction with the
// metric's exact score rounded to Decimals (ties to even), as a served
// competition without a defence does. It is safe for concurrent use.
type Sim struct {
	metric   metric.Metric
	labels   []int
	k        int
	decimals int
	pow      *big.Int

	mu      sync.Mutex
	queries int
}

// NewSim returns a server of metric m holding a copy of labels, each
// in [0, k), releasing scores rounded to decimals (−1: unrounded).
func NewSim(m metric.Metric, labels []int, k, decimals int) (*Sim, error) {
	if m == nil {
		return nil, errors.New("discrete: nil metric")
	}
	if len(labels) == 0 {
		return nil, errors.New("discrete: no labels")
	}
	if k < 2 {
		return nil, fmt.Errorf("discrete: K = %d, need at least 2 classes", k)
	}
	if err := loss.CheckLabels(labels, len(labels), k); err != nil {
		return nil, fmt.Errorf("discrete: %w", err)
	}
	if decimals > defence.MaxDecimals {
		return nil, fmt.Errorf("discrete: %d decimals, over %d", decimals, defence.MaxDecimals)
	}
	s := &Sim{metric: m, labels: append([]int(nil), labels...), k: k, decimals: decimals}
	if decimals >= 0 {
		s.pow = new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
	}
	return s, nil
}

// N returns the number of labels.
func (s *Sim) N() int { return len(s.labels) }

// K returns the number of classes.
func (s *Sim) K() int { return s.k }

// Queries returns the number of queries answered.
func (s *Sim) Queries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

// Score returns the released score of p: an error for a prediction the
// metric refuses (as serve's 422) or an infinite loss.
func (s *Sim) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	n := len(s.labels)
	if err := p.Check(n, s.k); err != nil {
		return nil, fmt.Errorf("discrete: %w", err)
	}
	if err := s.metric.Check(p.P, n, s.k); err != nil {
		return nil, fmt.Errorf("discrete: %s: %w", s.metric.Name(), err)
	}
	s.mu.Lock()
	s.queries++
	s.mu.Unlock()
	v := s.metric.Score(s.labels, p.P, s.k)
	if v.Inf {
		return nil, errors.New("discrete: infinite score")
	}
	if s.pow == nil {
		return new(big.Rat).Set(v.R), nil
	}
	return defence.RoundHalfEven(v.R, s.pow), nil
}
