// This file implements the Lean strategy: the block code with partial
// decoding and a safety factor steered by what the scores show.

package decode

import "math"

// Lean is the block code ([Blocks]: the same digit weights, point order,
// error budget and decoding by emulated brackets) with two changes that
// spend fewer queries against an emulable scorer (binary64 or binary32):
//
//   - Partial decoding. When several labelings of a block explain the
//     score (their emulated brackets all hold it), Blocks re-queries the
//     whole block smaller; Lean learns the labels every one of them
//     agrees on and leaves only the others unknown, to be decoded in a
//     later block. Adjacent block sums differ in the trailing digits
//     only, so an ambiguous query still decodes all but a few labels.
//     Verification is unchanged: a label is learned only if no other
//     labeling that the model allows explains the score.
//   - A lower safety factor on the emulated separation, steered by the
//     outcomes: it falls by leanDecay after each block decoded whole and
//     rises by leanAmb after a partial one (leanGrow after a block no
//     labeling explains), so that about one block in eight is partial.
//     Blocks must keep its factor high (1.125 and up) because every
//     ambiguity costs it a whole query.
//
// Without emulation (decimals, Kahan sums, noise too wide) Lean is Blocks.
var Lean Strategy = lean{}

type lean struct{}

func init() { register(Lean) }

func (lean) String() string     { return "lean" }
func (lean) knownNeutral() bool { return false }

// The safety factor's control (see factorCtl). At equilibrium a fraction
// p of the blocks is partial with p·ln(leanAmb·leanDecay) = (1−p)·ln(1/leanDecay):
// p ≈ 1/8 for these values. The start is Blocks' own; the floor keeps a
// run of lucky blocks from driving it where every block is ambiguous.
// These are choices (BENCHMARKS.md §17 gives the query counts they reach),
// not calibrated optima.
var leanCtl = factorCtl{start: emuFactorStart, min: 0.3, grow: 1.5, amb: 1.15, decay: 0.98, partial: true}

func (lean) setup(a *multi) {
	a.fac = leanCtl
	a.rows = newRowCache()
	blocks{}.setup(a)
}

func (lean) next(a *multi, kmax int) (*blockPlan, error) { return a.planDigits(kmax, false, 0) }

// rowCache keeps the digit rows of the recent blocks by weight. The block
// design puts its unit g on a geometric grid (grid), so that the weights
// g·K^j of one block recur in the next ones, whose units differ by a few
// grid steps at most; a row's exact terms (K logarithms at 128 bits) and
// emulated ranges are then computed once. Rounding g up to the grid costs
// at most log_K(2^(1/rowGridSteps)) labels a block.
type rowCache struct {
	m map[float64]rowInfo
}

// rowGridSteps is the number of grid units per octave: 64 steps round g up
// by at most 1.1%, less than planDigits' smallest raise (1%), and cost at
// most 0.016 labels a binary block.
const rowGridSteps = 64

// rowCacheMax bounds the cache: past it, it starts afresh (the rows of
// the blocks before are unlikely to recur once the unit has moved on).
const rowCacheMax = 1 << 12

func newRowCache() *rowCache { return &rowCache{m: make(map[float64]rowInfo)} }

// grid rounds g up to the grid 2^(i/rowGridSteps).
func (c *rowCache) grid(g float64) float64 {
	if !(g > 0) || math.IsInf(g, 0) {
		return g
	}
	return math.Exp2(math.Ceil(math.Log2(g)*rowGridSteps-1e-9) / rowGridSteps)
}

// get returns the row of weight w; a nil cache holds nothing.
func (c *rowCache) get(w float64) (rowInfo, bool) {
	if c == nil {
		return rowInfo{}, false
	}
	r, ok := c.m[w]
	return r, ok
}

func (c *rowCache) put(w float64, r rowInfo) {
	if c == nil {
		return
	}
	if len(c.m) >= rowCacheMax {
		clear(c.m)
	}
	c.m[w] = r
}
