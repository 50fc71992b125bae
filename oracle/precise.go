package oracle

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"sync"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/loss"
	"github.com/labelinf/labelinf/scorer"
)

// Precise is one arbitrary-precision scorer holding N private labels in
// [0, K), seen through each kind of prediction an attack submits: float64
// predictions (it is a [scorer.Server], the simulated apa model, with
// noise), arbitrary-precision ones ([Precise.Big]: a [BigExact]), rational
// ones ([Precise.Rat]: an [Exact], noise-free) and the θ of a binary loss
// of the family ([Precise.Family]). Go gives a type one Score method, so
// the other kinds are views of the same labels, noise and seed; Queries
// counts the queries of every view. It is what the catalogue's
// single-query attacks run against (catalog.Precise).
type Precise struct {
	scorer.Server
	labels []int
	k      int
	prec   uint // 0: each view answers with the bits asked for
	noise  scorer.Noise
	seed   uint64

	mu    sync.Mutex
	views []interface{ Queries() int }
}

// NewPrecise returns the scorer holding a copy of labels (each in [0, k))
// whose scores carry prec bits (0: as many as an attack asks for, the
// -scorer apa of the command line) and noise drawn from PCGs seeded by
// seed. Noise may be NoNoise, Bounded, Gaussian or Laplace.
func NewPrecise(labels []int, k int, prec uint, noise scorer.Noise, seed uint64) (*Precise, error) {
	if noise.Kind == scorer.Multiplicative {
		return nil, errors.New("oracle: the arbitrary-precision server adds bounded, Gaussian or Laplace noise, not multiplicative")
	}
	fp := max(prec, 256)
	m, err := scorer.ParseModel(fmt.Sprintf("apa:%d", min(fp, 1<<24)))
	if err != nil {
		return nil, err
	}
	sim, err := NewSim(m, labels, k)
	if err != nil {
		return nil, err
	}
	var s scorer.Server = sim
	if noise.Kind != scorer.NoNoise {
		if s, err = NewNoisy(sim, noise, seed); err != nil {
			return nil, err
		}
	}
	return &Precise{Server: s, labels: append([]int(nil), labels...), k: k, prec: prec, noise: noise, seed: seed}, nil
}

// bits returns the precision a view answers with when asked for want.
func (p *Precise) bits(want uint) uint {
	if p.prec != 0 {
		return p.prec
	}
	return want
}

// Prec returns the scorer's precision in bits, 0 if it answers with the
// bits asked for.
func (p *Precise) Prec() uint { return p.prec }

// Queries returns the queries answered so far by every view.
func (p *Precise) Queries() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.Server.Queries()
	for _, v := range p.views {
		q += v.Queries()
	}
	return q
}

func (p *Precise) add(v interface{ Queries() int }) {
	p.mu.Lock()
	p.views = append(p.views, v)
	p.mu.Unlock()
}

// Big returns the view that scores arbitrary-precision predictions (a
// [BigExact] with the scorer's noise and seed), answering with prec bits
// if the scorer's precision is free, else with its own.
func (p *Precise) Big(prec uint) (scorer.BigServer, error) {
	s, err := NewBigExact(p.labels, p.k, p.bits(prec), p.noise, p.seed)
	if err != nil {
		return nil, err
	}
	p.add(s)
	return s, nil
}

// Rat returns the view that scores rational predictions exactly (an
// [Exact]), rounded to prec bits if the scorer's precision is free, else
// to its own. It returns an error for a noisy scorer: that view has no
// noise, and answering it would hand the attack a score the scorer never
// releases.
func (p *Precise) Rat(prec uint) (scorer.RatServer, error) {
	if p.noise.Kind != scorer.NoNoise {
		return nil, fmt.Errorf("oracle: a noisy scorer (%v) has no noise-free view for rational predictions", p.noise.Kind)
	}
	s, err := NewExact(p.labels, p.k, p.bits(prec))
	if err != nil {
		return nil, err
	}
	p.add(s)
	return s, nil
}

// Family returns the view that scores the θ of l (K = 2): the mean loss
// Σ_i l(y_i, θ_i)/N, computed with 64 guard bits, plus the scorer's
// noise, rounded to prec bits if the scorer's precision is free, else to
// its own.
func (p *Precise) Family(l *loss.Binary, prec uint) (scorer.FamilyServer, error) {
	if l == nil {
		return nil, errors.New("oracle: no loss")
	}
	if p.k != 2 {
		return nil, fmt.Errorf("oracle: the loss family is binary, the scorer has K = %d", p.k)
	}
	s := &FamilyScorer{l: l, labels: p.labels, prec: p.bits(prec), noise: p.noise,
		rng: rand.New(rand.NewPCG(p.seed, 0x66616d696c79))}
	p.add(s)
	return s, nil
}

// A FamilyScorer is [Precise.Family]'s view: a scorer of the θ of a
// binary loss of the family ([scorer.FamilyServer]).
type FamilyScorer struct {
	l      *loss.Binary
	labels []int
	prec   uint
	noise  scorer.Noise

	mu      sync.Mutex
	rng     *rand.Rand
	queries int
}

// N returns the number of labels.
func (s *FamilyScorer) N() int { return len(s.labels) }

// K returns 2: the loss family is binary.
func (s *FamilyScorer) K() int { return 2 }

// Prec returns the precision of the scores in bits.
func (s *FamilyScorer) Prec() uint { return s.prec }

// Queries returns the number of queries answered so far.
func (s *FamilyScorer) Queries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

// Score returns the mean loss of theta against the labels plus noise,
// rounded to Prec bits. It returns an error if theta does not hold N
// finite values the loss accepts, or ctx's error.
func (s *FamilyScorer) Score(ctx context.Context, theta []*big.Float) (*big.Float, error) {
	s.mu.Lock()
	s.queries++
	s.mu.Unlock()
	if len(theta) != len(s.labels) {
		return nil, fmt.Errorf("oracle: %d predictions for %d labels", len(theta), len(s.labels))
	}
	wp := s.prec + 64
	sum := new(big.Float).SetPrec(wp)
	for i, y := range s.labels {
		if i%ctxRows == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if theta[i] == nil || theta[i].IsInf() {
			return nil, fmt.Errorf("oracle: prediction %d is not finite", i)
		}
		t, err := s.l.Term(new(big.Float).SetPrec(wp), y, theta[i])
		if err != nil {
			return nil, fmt.Errorf("oracle: point %d: %w", i, err)
		}
		apa.Add(sum, sum, t)
	}
	sum.Quo(sum, new(big.Float).SetInt64(int64(len(s.labels))))
	s.mu.Lock()
	x := s.noise.Additive(s.rng)
	s.mu.Unlock()
	sum.Add(sum, new(big.Float).SetFloat64(x))
	return new(big.Float).SetPrec(s.prec).Set(sum), nil
}

// Each server is one instantiation of scorer.Oracle.
var (
	_ scorer.Server       = (*Precise)(nil)
	_ scorer.Server       = (*Sim)(nil)
	_ scorer.BigServer    = (*BigExact)(nil)
	_ scorer.RatServer    = (*Exact)(nil)
	_ scorer.FamilyServer = (*FamilyScorer)(nil)
)
