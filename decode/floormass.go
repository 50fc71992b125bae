// This file computes the background floor of every code: the count of
// reportable scores, with the scores that only few labelings can reach
// left out by the product measure of the rows.

package decode

import (
	"context"
	"math"

	"github.com/labelinf/labelinf/scorer"
)

// backgroundFloor returns AnyBackground and BackgroundBits (see Floor).
//
// The argument is an adversary's, for every attack, adaptive or not, and
// every labeling it has not yet told apart. Let C be the labelings that
// explain every score so far, c = |C|, and let the next query submit rows
// r_i (each a probability vector over the K classes as the server clips
// and normalizes it). A labeling y has the exact sum S(y) = Σ_i −ln
// r_{i,y_i}, so e^(−S(y)) = Π_i r_{i,y_i}, and summed over all K^N
// labelings these products give Π_i Σ_j r_ij ≤ M = (1 + K·e^(−tmax))^N
// (M = 1 where rows sum to one; clipping can raise an entry to at most
// e^(−tmax)). Hence at most M·e^s labelings have S(y) ≤ s, whatever the
// rows: with s = ln c − ln M − t, all but a fraction e^(−t) of C have
// S(y) > s, and their reported scores lie at or above (s − B)/N, B the
// model's rigorous error budget ([scorer.Model.Bound]). At most V(s)
// reportable scores lie in [(s − B)/N, tmax], so one of them is
// reported for at least c·(1 − e^(−t))/V(s) labelings of C, and the
// adversary answers it. Starting from c = K^N, the number of queries
// before c ≤ 1 is a lower bound on the queries for the worst labeling.
//
// Where AnyCode counts every reportable score (59 binades of 2^52 for
// float64-sklearn), this counts those above the candidates' own
// background, ln c/N: a score cannot fall below about ln c/N for more
// than a few labelings (Gibbs's inequality in counting form), which keeps
// early scores in the top few binades. It says nothing about how the
// scores spread within those binades (Spread's Hoeffding window does,
// for known-or-uniform codes only).
func (a *multi) backgroundFloor(ctx context.Context, f *Floor) (q int, first float64, err error) {
	n := float64(a.n)
	lnM := n * math.Log1p(float64(a.k)*math.Exp(-f.TMax))
	lc := n * math.Log2(float64(a.k)) // log2 c
	for ; lc > 0; q++ {
		if q%256 == 0 && ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		best, bits := math.Inf(-1), 0.0
		for _, t := range []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32} {
			s := lc*math.Ln2 - lnM - t
			lo := f.TMin
			if s > 0 {
				b := a.m.Bound(scorer.Budget{N: a.n, MaxD: a.maxD, SumT: s, SumDT: float64(a.maxD) * s, Max: f.TMax})
				lo = max(lo, (s-b)/n)
			}
			v := a.log2Count(lo, f.TMax)
			if next := lc + math.Log2(-math.Expm1(-t)) - v; next > best {
				best, bits = next, v-math.Log2(-math.Expm1(-t))
			}
		}
		if q == 0 {
			first = bits
		}
		lc = best
	}
	return q, first, nil
}
