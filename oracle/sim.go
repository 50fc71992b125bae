package oracle

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"

	"github.com/labelinf/labelinf/internal/ctxwait"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/scorer"
)

// Sim is a simulated scoring server: it holds private labels and answers
// each prediction as its [scorer.Model] says. Binary64 and binary32 models run on
// hardware floats with a faithful log, like a real libm (Go's math.Log,
// with subnormal arguments, which its amd64 kernel gets wrong, handled
// apart); other formats run in fpa; exact models in arbitrary precision.
// It is safe for concurrent use.
type Sim struct {
	model  *scorer.Model
	labels []int
	k      int

	mu      sync.Mutex
	queries int
	scratch scorer.Scratch
}

// NewSim returns a server with model m holding a copy of labels, each in
// [0, k).
func NewSim(m *scorer.Model, labels []int, k int) (*Sim, error) {
	if m == nil {
		return nil, errors.New("oracle: nil model")
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return nil, errors.New("oracle: no labels")
	}
	if k < 2 {
		return nil, fmt.Errorf("oracle: K = %d, need at least 2 classes", k)
	}
	if err := loss.CheckLabels(labels, len(labels), k); err != nil {
		return nil, fmt.Errorf("oracle: %w", err)
	}
	return &Sim{model: m, labels: append([]int(nil), labels...), k: k}, nil
}

// N returns the number of labels.
func (s *Sim) N() int { return len(s.labels) }

// K returns the number of classes.
func (s *Sim) K() int { return s.k }

// Model returns the server's model.
func (s *Sim) Model() *scorer.Model { return s.model }

// Queries returns the number of queries answered (malformed ones included).
func (s *Sim) Queries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

// Score returns the score of p as the model computes and reports it, or
// ctx's error as soon as ctx is done.
func (s *Sim) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queries++
	if err := p.Check(len(s.labels), s.k); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.model.Native() {
		// Hardware float64 or float32: a few ns a point.
		return s.model.EvalScratch(&s.scratch, s.labels, p)
	}
	// Emulated formats and exact models can take long; the evaluation is
	// abandoned if ctx is done first (its own buffers, not s's).
	var r *big.Rat
	err := ctxwait.Do(ctx, func() (err error) {
		var scratch scorer.Scratch
		r, err = s.model.EvalScratch(&scratch, s.labels, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}
