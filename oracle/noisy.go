package oracle

import (
	"context"
	"math/big"
	"math/rand/v2"
	"sync"

	"github.com/labelinf/labelinf/scorer"
)

// Noisy wraps a scorer and adds seeded noise to every score it reports.
type Noisy struct {
	scorer.Server
	noise scorer.Noise
	mu    sync.Mutex
	rng   *rand.Rand
}

// NewNoisy returns s with noise n added, drawn from a PCG seeded by seed.
func NewNoisy(s scorer.Server, n scorer.Noise, seed uint64) (*Noisy, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	return &Noisy{Server: s, noise: n, rng: rand.New(rand.NewPCG(seed, 0x6e6f697365))}, nil
}

// Score returns the inner score with noise added.
func (s *Noisy) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	r, err := s.Server.Score(ctx, p)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	x := s.noise.Additive(s.rng)
	switch s.noise.Kind {
	case scorer.NoNoise:
		return r, nil
	case scorer.Multiplicative:
		xi := s.noise.Tau * (2*s.rng.Float64() - 1)
		f := new(big.Rat).SetFloat64(xi)
		return r.Add(r, f.Mul(f, r)), nil
	}
	return r.Add(r, new(big.Rat).SetFloat64(x)), nil
}
