package adaptive

//go:generate go run golang.org/x/tools/cmd/stringer@v0.52.0 -type=BoostMode -linecomment -output=boost_string.go

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
)

// BoostMode selects which random vectors the boosting attack keeps.
type BoostMode int

const (
	// KeepBelowHalf keeps the vectors whose released loss is ≤ 1/2, the
	// attack on a leaderboard that shows every (rounded) score.
	KeepBelowHalf BoostMode = iota + 1 // keep-below-half
	// KeepLowered keeps the vectors that lowered the released score
	// (the first one if it is below 1/2), the attack on a Ladder, which
	// repeats its best unless a submission beats it.
	KeepLowered // keep-lowered
)

// BoostOptions configures [Boost].
type BoostOptions struct {
	// N is the number of rows (prediction values), ≥ 1.
	N int
	// K is the number of random vectors submitted, ≥ 1.
	K int
	// Mode is KeepBelowHalf or KeepLowered.
	Mode BoostMode
	// Rand draws the random vectors; required (seeded by the caller).
	Rand *rand.Rand
	// SubmitFinal submits the boosted vector as submission K+1 and
	// records the leaderboard's answer.
	SubmitFinal bool
}

// BoostResult is the outcome of [Boost].
type BoostResult struct {
	// Submissions used, K (+1 with SubmitFinal).
	Submissions int
	// Kept is the number of vectors in the majority vote.
	Kept int
	// Boosted is the majority vote, one 0/1 value per row: a guess of
	// every label, none verified (its accuracy on the holdout is what
	// the attack inflates; on fresh rows it is a coin).
	Boosted []float64
	// Scores are the released scores of the K random vectors.
	Scores []float64
	// Final is the released score of Boosted (SubmitFinal), else NaN.
	Final float64
}

// Boost runs the boosting attack of [BH15] (mrtzh/Ladder.jl
// examples/attacks.jl): submit K uniformly random 0/1 vectors, keep those
// selected by Mode, and return their per-row majority vote (ties vote 1,
// as the code's U·b ≥ |b|/2 does). Against 0/1 loss each kept vector is
// slightly correlated with the labels, and the vote adds the
// correlations: the holdout loss of the vote falls about √(K/N)·c below
// 1/2 while its loss on fresh data stays 1/2.
func Boost(ctx context.Context, lb Leaderboard, o BoostOptions) (*BoostResult, error) {
	if o.N < 1 || o.K < 1 {
		return nil, fmt.Errorf("adaptive: boosting needs N ≥ 1 and K ≥ 1; have N=%d K=%d", o.N, o.K)
	}
	if o.Mode != KeepBelowHalf && o.Mode != KeepLowered {
		return nil, fmt.Errorf("adaptive: boosting mode %v", o.Mode)
	}
	if o.Rand == nil {
		return nil, errors.New("adaptive: boosting needs a random source")
	}
	res := &BoostResult{Final: math.NaN()}
	votes := make([]int, o.N)
	u := make([]float64, o.N)
	half := big.NewRat(1, 2)
	var prev *big.Rat
	for t := 0; t < o.K; t++ {
		for j := range u {
			u[j] = float64(o.Rand.IntN(2))
		}
		r, err := lb.Submit(ctx, u)
		if err != nil {
			return res, fmt.Errorf("adaptive: boosting submission %d: %w", t+1, err)
		}
		res.Submissions++
		s, _ := r.Float64()
		res.Scores = append(res.Scores, s)
		keep := false
		switch o.Mode {
		case KeepBelowHalf:
			keep = r.Cmp(half) <= 0
		case KeepLowered:
			keep = (t == 0 && r.Cmp(half) < 0) || (t > 0 && r.Cmp(prev) < 0)
		}
		prev = r
		if keep {
			res.Kept++
			for j, v := range u {
				votes[j] += int(v)
			}
		}
	}
	res.Boosted = make([]float64, o.N)
	for j, v := range votes {
		if 2*v >= res.Kept {
			res.Boosted[j] = 1
		}
	}
	if o.SubmitFinal {
		r, err := lb.Submit(ctx, res.Boosted)
		if err != nil {
			return res, fmt.Errorf("adaptive: boosting final submission: %w", err)
		}
		res.Submissions++
		res.Final, _ = r.Float64()
	}
	return res, nil
}
