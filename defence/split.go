package defence

import (
	"crypto/rand"
	"fmt"
	"math"
	"math/big"
	mrand "math/rand/v2"
	"sort"
	"sync"
	"time"
)

// Clock returns the current time; hosts pass time.Now, tests a fake.
type Clock func() time.Time

// Split is the public/private split of a Kaggle-style leaderboard: a
// seeded random set of ⌊fraction·n⌉ holdout rows is public and scores the
// public leaderboard; the rest is private and is scored only after the
// competition closes. The attacker knows the fraction, not which rows
// are public: a label he infers from the public score is a public label,
// and a row whose prediction does not move the public score tells him
// nothing.
//
// The seed chooses the rows; the host keeps it secret for as long as the
// competition runs (with the seed an attacker knows the public rows).
// The split protects the private labels, not the identity of the public
// rows: an attacker who can read single labels (adaptive.Edge) also
// learns which rows move the public score.
type Split struct {
	n       int
	public  []int // sorted
	private []int // sorted
	closeAt time.Time
	clock   Clock

	mu     sync.Mutex
	closed bool
}

// NewSplit returns a split of n rows with the given public fraction in
// (0, 1], chosen by a ChaCha8 permutation seeded with seed; the private
// score becomes readable at closeAt by clock (a zero closeAt means only
// [Split.Close] opens it). It returns an error if n < 1, the fraction is
// out of range or leaves no public row.
func NewSplit(n int, fraction float64, seed [32]byte, closeAt time.Time, clock Clock) (*Split, error) {
	if n < 1 {
		return nil, fmt.Errorf("defence: split of %d rows", n)
	}
	if !(fraction > 0 && fraction <= 1) {
		return nil, fmt.Errorf("defence: public fraction %v out of (0, 1]", fraction)
	}
	if clock == nil {
		clock = time.Now
	}
	k := int(math.Round(fraction * float64(n)))
	if k < 1 {
		return nil, fmt.Errorf("defence: public fraction %v of %d rows leaves no public row", fraction, n)
	}
	perm := mrand.New(mrand.NewChaCha8(seed)).Perm(n)
	pub := append([]int(nil), perm[:k]...)
	priv := append([]int(nil), perm[k:]...)
	sort.Ints(pub)
	sort.Ints(priv)
	return &Split{n: n, public: pub, private: priv, closeAt: closeAt, clock: clock}, nil
}

func (p *Split) String() string {
	return fmt.Sprintf("split(%d public of %d)", len(p.public), p.n)
}
func (p *Split) kind() stageKind { return rowStage }

func (p *Split) apply(s *state) error {
	s.rows = append([]int(nil), p.public...)
	return nil
}

// Public returns a copy of the public rows, sorted (the host's view; an
// attacker never sees it).
func (p *Split) Public() []int { return append([]int(nil), p.public...) }

// Private returns a copy of the private rows, sorted.
func (p *Split) Private() []int { return append([]int(nil), p.private...) }

// Close opens the private leaderboard now.
func (p *Split) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

// Closed reports whether the private score may be read.
func (p *Split) Closed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed || (!p.closeAt.IsZero() && !p.clock().Before(p.closeAt))
}

// PrivateScore returns the exact score of sub on the private rows. It
// returns ErrNotClosed before the competition closes, and an error if the
// split has no private row or sub is malformed.
func (p *Split) PrivateScore(sub Submission) (*big.Rat, error) {
	if !p.Closed() {
		return nil, ErrNotClosed
	}
	if len(p.private) == 0 {
		return nil, fmt.Errorf("defence: the split has no private row")
	}
	if err := checkSubmission(&sub, p.n); err != nil {
		return nil, err
	}
	s := &state{sub: &sub, n: p.n, rows: p.Private(), decimals: -1}
	return s.value()
}

// Subset scores each submission on a fresh random subset of Size of the
// rows in scope (the public rows after a Split), drawn without
// replacement from a ChaCha8 stream seeded from crypto/rand (or a fixed
// seed in tests). Two submissions of the same prediction are scored on
// different rows, so a single row's effect on the score is visible only
// when the row is drawn (probability Size/rows) and is mixed with the
// sampling noise of the subset, which has standard deviation about
// sd(loss)·√(1/Size − 1/rows). Size = rows/2 makes that noise equal to the
// standard error sd(loss)/√rows that the public score carries anyway:
// honest users' scores move by one standard error, and an attacker must
// average about (sd(loss)/Δ)² submissions to see a change Δ.
type Subset struct {
	size int
	src  *mrand.ChaCha8 // rng's source, whose position StreamState saves
	rng  *mrand.Rand
}

// NewSubset returns a random-subset stage of size rows; seed nil draws
// the seed from crypto/rand.
func NewSubset(size int, seed *[32]byte) (*Subset, error) {
	if size < 1 {
		return nil, fmt.Errorf("defence: subset of %d rows", size)
	}
	var sd [32]byte
	if seed != nil {
		sd = *seed
	} else if _, err := rand.Read(sd[:]); err != nil {
		return nil, fmt.Errorf("defence: reading crypto/rand: %w", err)
	}
	src := mrand.NewChaCha8(sd)
	return &Subset{size: size, src: src, rng: mrand.New(src)}, nil
}

// Size returns the number of rows each submission is scored on.
func (b *Subset) Size() int { return b.size }

func (b *Subset) String() string  { return fmt.Sprintf("subset(%d)", b.size) }
func (b *Subset) kind() stageKind { return rowStage }

func (b *Subset) apply(s *state) error {
	r := s.rowIndex()
	if b.size > len(r) {
		return fmt.Errorf("defence: subset of %d rows out of %d", b.size, len(r))
	}
	// Partial Fisher–Yates: the first size entries of a copy.
	c := append([]int(nil), r...)
	for i := 0; i < b.size; i++ {
		j := i + b.rng.IntN(len(c)-i)
		c[i], c[j] = c[j], c[i]
	}
	c = c[:b.size]
	sort.Ints(c)
	s.rows = c
	return nil
}
