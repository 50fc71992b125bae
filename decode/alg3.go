// This file implements ICML Alg 3, the Alg3 strategy [AKXFT21, Alg 3,
// Thm 7].

package decode

import (
	"context"

	"github.com/labelinf/labelinf/scorer"
)

// Alg3 is ICML Alg 3: fixed blocks of k points with weights
// 2Nτ(1+δ)·2^(j−1) (base K for K classes), all other points neutral. τ is
// the scorer's whole error budget per point (noise, rounding, decimals).
// The paper searches the 2^k labelings of a block; for superincreasing
// weights the greedy decoder finds the same one in O(k).
var Alg3 Strategy = alg3{}

type alg3 struct{}

func init() { register(Alg3) }

func (alg3) String() string { return "alg3" }

func (s alg3) attack(ctx context.Context, a *multi, srv scorer.Server) (*Result, error) {
	return a.runBlocks(ctx, srv, s)
}

func (s alg3) plan(ctx context.Context, a *multi) (*MultiPlan, error) { return a.dryRun(ctx, s) }

func (s alg3) setup(a *multi) Strategy {
	a.neutralKnown = true
	return s
}

// next keeps the first block's unit g for every block; only the block
// shrinks when the budget grows.
func (alg3) next(a *multi, kmax int) (*blockPlan, error) {
	return a.fixedPlan(kmax, func(kmax int, prev *blockPlan) (*blockPlan, error) {
		g := 0.0
		if prev != nil {
			g = prev.g
		}
		return a.planDigits(kmax, true, g)
	})
}
