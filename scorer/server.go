package scorer

// This file states what an attack sees of a scoring server: four
// interfaces, one per kind of prediction. The servers themselves (which
// hold labels) live in package oracle. Every Score takes a context: a
// server returns ctx's error within a second of its cancellation, and an
// external one stops its process.

import (
	"context"
	"math/big"

	"github.com/labelinf/labelinf/loss"
)

// A Server is a scoring server of float64 predictions: it holds N private
// labels in [0, K) and answers each prediction with one number, the score
// as reported (exactly, as a rational). oracle.Sim, oracle.Cmd and
// oracle.Noisy implement it.
type Server interface {
	N() int
	K() int
	Score(ctx context.Context, p *Pred) (*big.Rat, error)
	// Queries returns the number of queries answered so far.
	Queries() int
}

// A BigServer answers arbitrary-precision predictions with a score of
// Prec bits, as oracle.BigExact does.
type BigServer interface {
	N() int
	K() int
	Prec() uint
	Score(ctx context.Context, p *BigPred) (*big.Float, error)
}

// A RatServer answers rational predictions with the exact mean
// cross-entropy rounded to nearest at its precision, as oracle.Exact does.
type RatServer interface {
	N() int
	K() int
	Score(ctx context.Context, p *loss.Rat) (*big.Float, error)
}

// A FamilyServer scores a prediction θ (one value per point: a
// probability, or a logit for sigmoid cross-entropy) under a binary loss
// of the family (package loss), as oracle.FamilyScorer does.
type FamilyServer interface {
	N() int
	Score(ctx context.Context, theta []*big.Float) (*big.Float, error)
}
