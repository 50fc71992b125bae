// This file implements a fast lower bound on the queries of the block
// code, for sizes whose dry run (PlanMulti) takes minutes.

package decode

import (
	"context"
	"math"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/scorer"
)

// QueryBound is a fast bound on the queries a multi-query strategy spends.
type QueryBound struct {
	Strategy Strategy
	// Queries is the bound: the check query included if asked for.
	Queries int
	// Lower reports a lower bound: no run of the strategy against a scorer
	// of the model, whatever its labels, decodes all N labels in fewer
	// queries. Exact reports the dry run's own count ([PlanMulti]).
	Lower, Exact bool
}

// BoundMulti returns a lower bound on the queries opt's strategy spends on
// opt.N labels of opt.K classes, in time proportional to the number of blocks,
// where [PlanMulti] for the block code designs every block (at N = 10^6,
// minutes). For the fixed designs (Primes, Alg3) the dry run is fast and
// BoundMulti returns its count, Exact. PlanMulti's count stays the
// reference; this is what a defender can rely on: the attack needs at
// least this many queries.
//
// The bound for [Blocks]: a block of k points is accepted only if its
// realized gap exceeds the need (planDigits): twice the rigorous budget,
// or under emulation the smaller emulated need (emuNeed), which is at
// least emuFactorStart times the spacing of the reported score plus twice
// the noise. Both grow with the exact terms T of the query: 2·Bound(T) +
// 2N·τ and emuFactorStart·(T·u + 2N·τ), u being the spacing of the
// format relative to the score (2^−53 for binary64, 2^−24 for binary32;
// the terms' and the sum's rounding are within the factor 1 − 2^−10
// taken off). A superincreasing block with gap γ has its first point's
// largest increment W at least M·γ, M = (K−1)·K^(k−1) (K = 2 Conway–Guy
// blocks: Σ weights ≥ (2^k − 1)·γ over k weights); no row has an
// increment above the extreme row's, wb (plus 2^−40 for float64 rows);
// and T ≥ S + W, with S ≥ (nUnk − k)·t₀ the neutral terms of the unknown
// points outside the block (the emulated need's probe puts the first
// point at its top class). So each block holds at most the largest k for
// which γ > need(S + W) is possible, and the count of such maximal blocks
// is a lower bound. Known points add terms that only raise the need, and
// retried blocks are smaller, so the bound holds for every labeling.
//
// For the block code with partial decoding (Cross's base, partial.go)
// the same argument holds with its least safety factor (0.3 instead of
// 1.125) and, for K = 2, M halved (its mixed blocks' Conway–Guy top); a
// partially decoded block learns fewer labels than it holds, which only
// adds queries.
//
// For [Cross] with K > 2 against a model that names its log (the K-ary
// code, kties.go) the blocks' units go below the spacing on purpose and
// the argument above does not hold; its bound is [RangeFloor] with the
// span of its blocks, (2K − 1)/(K − 1)·W.
//
// For [Cross] too, with one point more a block for K = 2 under emulation
// (the paired top) and its floor on the factor (crossCtl().min =
// partialCtl().min);
// its exact terms leave the spacing in the need. A tie lets a later query
// learn a follower outside its block, but every label is learned after a
// block held it, and blocks only grow as labels become known, so the
// blocks' sizes still bound the labels learned.
//
// For a score rounded to decimals, every block of these three also
// passes the variance bound on distinct rounding steps that
// roundedFits states for every block code.
//
// For [Leaderboard], which has no dry run, it is the estimate's Lower
// ([QueryEstimate]): every point is fresh in one query, and a query takes
// at most lbMaxFresh fresh points (the last, a Conway–Guy set, at most
// QueryEstimate.Final).
// For [Carry], likewise without a dry run, it is ⌈N/carryMaxFresh⌉.
// For [KList] and [KBin] (K > 2, a model that names its log), whose queries hold
// the list's carried points besides a block, it is the floor of any code
// ([Floor].AnyCode).
func BoundMulti(ctx context.Context, opt MultiOptions) (*QueryBound, error) {
	a, err := newMulti(opt.N, opt.K, opt)
	if err != nil {
		return nil, err
	}
	var q int
	switch a.st.(type) {
	case klist, kbin:
		// Its queries' sums are not bounded by one block's span (the
		// list's carried points): the floor of any code.
		var f *Floor
		if f, err = FloorMulti(ctx, opt); f != nil {
			q = f.AnyCode
		}
	case *designer:
		if a.neutralKnown {
			// One design for the whole attack (Primes, Alg3): the dry
			// run is fast.
			p, err := PlanMulti(ctx, opt)
			if err != nil {
				return nil, err
			}
			return &QueryBound{Strategy: a.st, Queries: p.Queries, Exact: true}, nil
		}
		if a.mask == nil {
			q, err = a.blockBound(ctx)
			break
		}
		// Cross's K-ary code: its blocks' sums span at most
		// (2K − 1)/(K − 1)·W (RangeFloor), and it holds at most
		// radixBlockMax points (every digit has radix ≥ 2 and its unit is
		// at least minUnit).
		q, err = RangeFloor(ctx, opt, float64(2*a.k-1)/float64(a.k-1), radixBlockMax)
	default:
		p, err := a.st.plan(ctx, a) // an estimate
		if err != nil {
			return nil, err
		}
		return &QueryBound{Strategy: a.st, Queries: p.Estimate.Lower, Lower: true}, nil
	}
	if err != nil {
		return nil, err
	}
	if opt.Check {
		q++
	}
	return &QueryBound{Strategy: a.st, Queries: q, Lower: true}, nil
}

// blockBound returns BoundMulti's bound for Blocks and Cross's block
// codes, the check query not counted (see BoundMulti).
func (a *multi) blockBound(ctx context.Context) (int, error) {
	n := a.n
	t0, _ := a.neutral.t[0].Float64()
	t0 = math.Nextafter(t0, 0) // a float64 below the exact term
	// tauH is the additive noise's half-width, independent of the score.
	var tauH float64
	if a.opt.Noise.Kind != scorer.Multiplicative {
		tauH = a.opt.Noise.HalfWidth(0, n)
	}
	uSp := 0x1p-53 // under emulation, the format's spacing relative to the score
	if a.m.Loss.Format == fpa.Binary32 {
		uSp = 0x1p-24
	}
	// The mixed blocks (K = 2, under emulation) carry a Conway–Guy top
	// whose largest weight u_m·2^l is at least 2^(k−2) units (u_m ≥
	// 0.51·2^(m−1) for m ≤ 20): half the digits' M.
	mixedHalf := 0.0
	if a.mixed && a.emu != nil {
		mixedHalf = math.Ln2
	}
	wb := (a.tTop-a.tBot+max(a.tBot, 0))*(1+0x1p-40) + 0x1p-40
	// rounded is the step of N·score for a score rounded to decimals:
	// every block, whatever its design, passes the variance bound on
	// distinct steps (roundedFits) with wb as the width
	// of a point's terms.
	rounded := 0.0
	if a.m.Decimals >= 0 {
		rounded = float64(n) * math.Pow(10, -float64(a.m.Decimals))
	}
	// need is a lower bound on the gap a block needs when the exact terms
	// of the query sum to at least t: the rigorous need, or under
	// emulation the emulated one if smaller, with the least safety factor
	// of the strategy (Blocks' start, or partial decoding's floor,
	// partialCtl().min).
	need := func(t float64) float64 {
		rig := 2*a.m.Bound(scorer.Budget{N: n, SumT: t}) + 2*float64(n)*tauH
		if a.emu == nil {
			return rig
		}
		return min(rig, a.fac.min*(t*uSp+2*float64(n)*tauH))
	}
	// fits reports whether a block of kb points can be accepted with nUnk
	// labels unknown (see the doc comment): with M·γ ≤ W ≤ wb the largest
	// increment and S + W ≤ the query's terms, γ > need(S + W) for some
	// W ≤ wb, and as need is concave (the smaller of two affine
	// functions) it suffices to try W = wb.
	fits := func(nUnk, kb int) bool {
		if rounded > 0 && !roundedFits(kb, a.k, wb, rounded) {
			return false
		}
		s := float64(nUnk-kb) * t0 * (1 - 0x1p-10)
		lm := math.Log(float64(a.k-1)) + float64(kb-1)*math.Log(float64(a.k)) - mixedHalf // ln M
		if math.Log(wb)-lm > math.Log(need(s+wb)) {
			return true
		}
		// Conway–Guy: Σ weights W' ≥ (2^kb − 1)·γ, W' ≤ kb·wb.
		w := float64(kb) * wb
		return a.k == 2 && a.emu == nil && kb <= maxCG && w/(math.Ldexp(1, kb)-1) > need(s+w)
	}
	// The sizes that fit form a prefix: the need only falls by the terms
	// of the points the block takes from S, while M grows K-fold a point
	// and the block's own largest weight stays in the need. A block holds
	// at least one label.
	_, q, err := blockWalk(ctx, n, fits, func(nUnk, kb int) int {
		if wb <= float64(a.k)*t0 {
			// A scorer whose whole room is below K neutral terms (no
			// preset comes near): the prefix argument needs S's terms to
			// be small against wb, so try every size.
			for j := kb + 1; j <= nUnk; j++ {
				if fits(nUnk, j) {
					kb = j
				}
			}
		}
		if a.leader != nil && a.k == 2 && kb < nUnk {
			kb++ // Cross: the paired top's partner
		}
		return kb
	})
	return q, err
}
