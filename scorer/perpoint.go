package scorer

// This file lets the attacks, which read a score as a mean, attack a
// server that reports the sum of its terms (reduce=sum).

import (
	"context"
	"math/big"
)

// PerPoint returns s itself if m reports a mean, and otherwise (a model
// with Loss.Total, reduce=sum) a server answering s's score divided by N,
// exactly: N times what it reports is then the server's sum, which is
// what [Model.Bound] and [Emulator.Report] describe for such a model.
func PerPoint(s Server, m *Model) Server {
	if m == nil || m.Exact || !m.Loss.Total {
		return s
	}
	return perPoint{s}
}

type perPoint struct{ Server }

func (p perPoint) Score(ctx context.Context, q *Pred) (*big.Rat, error) {
	r, err := p.Server.Score(ctx, q)
	if err != nil {
		return nil, err
	}
	return new(big.Rat).Quo(r, new(big.Rat).SetInt64(int64(p.N()))), nil
}
