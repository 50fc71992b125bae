package scorer

// This file states what an attack sees of a scoring server: one generic
// interface, [Oracle], instantiated once per kind of prediction an attack
// submits. The servers themselves (which hold labels) live in package
// oracle. Every Score takes a context: a server returns ctx's error
// within a second of its cancellation, and an external one stops its
// process.

import (
	"context"
	"math/big"

	"github.com/labelinf/labelinf/loss"
)

// An Oracle is a scoring server as an attack sees it: it holds N private
// labels in [0, K) and answers each prediction of type P with the score
// as reported, of type S, exactly: never through float64. The kinds of
// prediction (P) are the attack's, the representation of the score (S)
// the server's; each instantiation below is one kind. Go gives a type
// one Score method, so a server that answers several kinds is several
// views of one labeling (oracle.Precise).
type Oracle[P, S any] interface {
	N() int
	K() int
	Score(ctx context.Context, p P) (S, error)
}

// A Server is a scoring server of float64 predictions: the score as
// reported (exactly, as a rational: the decimal a leaderboard shows, or
// the float a library returns). oracle.Sim, oracle.Cmd and oracle.Noisy
// implement it; every multi-query and adaptive attack reads it.
type Server interface {
	Oracle[*Pred, *big.Rat]
	// Queries returns the number of queries answered so far.
	Queries() int
}

// A BigServer answers arbitrary-precision predictions with a score of
// Prec bits, as oracle.BigExact does.
type BigServer interface {
	Oracle[*BigPred, *big.Float]
	Prec() uint
}

// A RatServer answers rational predictions with the exact mean
// cross-entropy rounded to nearest at its precision, as oracle.Exact does.
type RatServer = Oracle[*loss.Rat, *big.Float]

// A FamilyServer scores a prediction θ (one value per point: a
// probability, or a logit for sigmoid cross-entropy) under a binary loss
// of the family (package loss; K is 2), as oracle.Precise's Family view
// does.
type FamilyServer = Oracle[[]*big.Float, *big.Float]
