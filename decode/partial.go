// This file holds the block code's partial decoding (Cross's): its safety
// factor, the row cache, the dithered known rows and the mixed blocks.
// Lean, the block code with these alone (no ties, no exact terms), is
// retired: Cross takes fewer queries on every scorer (BENCHMARKS.md, §17
// and "Cross").

package decode

import (
	"context"
	"math"
	"math/big"
	"slices"

	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/subsetsum"
)

// partialCtl returns the safety factor's control of the block code with
// partial decoding (see factorCtl). At equilibrium a fraction
// p of the blocks is partial with p·ln(amb·decay) = (1−p)·ln(1/decay):
// p ≈ 1/8 for these values. The start is the block code's own; the floor keeps a
// run of lucky blocks from driving it where every block is ambiguous.
// These are choices (BENCHMARKS.md §17 gives the query counts they reach),
// not calibrated optima.
func partialCtl() factorCtl {
	return factorCtl{start: emuFactorStart, min: 0.3, grow: 1.5, amb: 1.15, decay: 0.98, partial: true}
}

// partialState is partial decoding's state (Cross's, and the dithered
// known rows every strategy of an emulated scorer reads through knownRow).
type partialState struct {
	// onGrid: the units lie on gridUp's grid (under emulation); rows
	// caches the rows of the recent blocks by weight (weightRows).
	onGrid bool
	rows   map[float64]rowInfo
	mixed  bool // try mixed Conway–Guy blocks under emulation
	// dither[c] (nil: none) are the rows known points of class c get in
	// turn (ditherIdx), dcount[c][j] how many points have row j, and
	// ditherMax[c] the largest of their class-c terms.
	dither    [][]rowInfo
	dcount    [][]int
	ditherMax []float64
}

// setupPartial prepares the block code with partial decoding (Cross's
// base): the block code's point order and emulator (setupBlocks) with
// partialCtl's factor and, under emulation, the row cache, mixed blocks
// (K = 2) and dithered known rows. When several labelings of a block
// explain the score, it learns the labels every one of them agrees on
// and leaves only the others unknown; the factor falls after each block
// decoded whole and rises after a partial one, so that about one block
// in eight is partial. Without emulation (decimals, Kahan sums) it is
// the block code's.
func (a *multi) setupPartial() {
	a.fac = partialCtl()
	a.setupBlocks()
	if a.emu != nil {
		a.onGrid, a.mixed = true, a.k == 2
		a.setDither()
	}
}

// setDither gives known points of class c rows with class-c probability
// 1 − ε_j, ε_j = 10^−4·(1 + j/16), j = ditherIdx(i), instead of 1. Their
// terms (about 10^−4 each) are far below a spacing of the score, yet
// above the rounding unit of the summation's partial sums, so that the
// partial sums of different leaves of the tree differ. Without them the
// neutral terms, all equal, round the same way in every leaf: the
// emulated bracket between all-lowest and all-highest terms grows to
// 9–17 spacings while the unknown points fill the deepest leaves (a third
// of the attack), 1–3 with them (BENCHMARKS.md §17).
func (a *multi) setDither() {
	a.kSum = nil
	a.dither = make([][]rowInfo, a.k)
	a.dcount, a.kProd = make([][]int, a.k), make([][]countProd, a.k)
	a.ditherMax = make([]float64, a.k)
	for c := range a.k {
		a.dither[c] = make([]rowInfo, ditherRows)
		a.dcount[c], a.kProd[c] = make([]int, ditherRows), make([]countProd, ditherRows)
		for j := range ditherRows {
			eps := 1e-4 * (1 + float64(j)/ditherRows)
			row := slices.Repeat([]float64{eps / float64(a.k-1)}, a.k)
			row[c] = 1 - eps
			r, err := a.rowInfo(row)
			if err != nil {
				a.dither, a.dcount, a.ditherMax = nil, nil, nil
				return // keep the plain known rows
			}
			a.dither[c][j] = r
			a.ditherMax[c] = max(a.ditherMax[c], r.tf[c])
		}
	}
}

// The block design of partial decoding puts its unit g on a geometric
// grid (gridUp), so that the weights g·K^j of one block recur in the next
// ones, whose units differ by a few grid steps at most; a row's exact terms
// (K logarithms at 128 bits) and emulated ranges are then computed once
// (multi.rows, weightRows). Rounding g up to the grid costs at most
// log_K(2^(1/rowGridSteps)) labels a block.

// rowGridSteps is the number of grid units per octave: 64 steps round g up
// by at most 1.1%, less than planDigits' smallest raise (1%), and cost at
// most 0.016 labels a binary block.
const rowGridSteps = 64

// rowCacheMax bounds the cache: past it, it starts afresh (the rows of
// the blocks before are unlikely to recur once the unit has moved on).
const rowCacheMax = 1 << 12

// gridUp rounds g up to the grid 2^(i/rowGridSteps).
func gridUp(g float64) float64 {
	if !(g > 0) || math.IsInf(g, 0) {
		return g
	}
	return math.Exp2(math.Ceil(math.Log2(g)*rowGridSteps-1e-9) / rowGridSteps)
}

// tryMixed designs a binary block of more than kd points at unit g (kd
// the digit block's size at g) whose integer weights are a Conway–Guy set
// of m elements scaled by 2^L on top of L binary digits:
//
//	c = {2^L·s : s ∈ CG(m)} ∪ {2^(L−1), …, 2, 1},
//
// so that its 2^(L+m) subset sums are distinct integers. Its largest
// weight 2^L·u_m is about 0.51·2^(L+m−1) for m = 20 [GM88], against
// 2^(k−1) for k binary digits: about one more label in the same room. It
// returns nil when no such block fits or its realized gap is short of the
// need (the caller keeps the digit block).
func (a *multi) tryMixed(kd, kmax int, g float64) (*blockPlan, error) {
	// The largest Conway–Guy top is maxCG's: its subset sums are distinct
	// (TestConwayGuyDistinct checks every n ≤ 20 exhaustively), and
	// subsetsum.Window lists the few top subsets a score allows from two
	// halves of 2^10 sums.
	u, err := subsetsum.ConwayGuySeq(maxCG)
	if err != nil {
		return nil, err
	}
	// u_m ≥ 2^(m−2) for m ≥ 2, so no mixed block holds more than kd + 2
	// points where kd binary digits fit: the largest k whose top weight
	// u_m·2^(k−m), m = min(k, maxCG), fits.
	k := min(kmax, kd+2)
	for k > kd && math.Ldexp(float64(u[min(k, maxCG)]), k-min(k, maxCG))*g > a.wmax {
		k--
	}
	if k == kd {
		return nil, nil
	}
	m := min(k, maxCG)
	p, err := a.mixedDesign(m, k-m, g)
	if p == nil || err != nil {
		return nil, err
	}
	idx := a.nextIdx(k)
	p.budget = a.budgetFor(idx, p.rows, false)
	need := min(2*p.budget, a.emuNeed(idx, p))
	p.emu = need < 2*p.budget
	if !gapOK(p.gap, need/2) {
		return nil, nil
	}
	return p, nil
}

// mixedDesign builds the mixed block of a Conway–Guy top of m points over
// l binary digits at unit g (see tryMixed; l = 0 is planDigits' Conway–Guy
// block): its rows, increments, realized gap, candidate lister and reader. It returns nil if the realized weights stray
// so far from g·c that the gap is not positive.
func (a *multi) mixedDesign(m, l int, g float64) (*blockPlan, error) {
	k := m + l
	s, err := subsetsum.ConwayGuy(m)
	if err != nil {
		return nil, err
	}
	mx := &mixed{c: make([]int64, k), top: s, l: l}
	slices.Reverse(mx.top) // point 0 carries the largest weight
	ws := make([]float64, k)
	for j := range k {
		mx.c[j] = 1 << (k - 1 - j) // a digit
		if j < m {
			mx.c[j] = mx.top[j] << l
		}
		ws[j] = g * float64(mx.c[j])
	}
	p := &blockPlan{g: g, each: mx.each, read: mx.read}
	if p.rows, err = a.weightRows(ws); err != nil {
		return nil, err
	}
	p.v = increments(p.rows)
	// A sum in [lo, hi] has its integer in [(lo − D)/g, (hi + D)/g].
	if p.gap, mx.dev = intGap(p.v, g, mx.c); p.gap == nil {
		return nil, nil
	}
	return p, nil
}

// mixed is a mixed block's integer weights (see tryMixed).
type mixed struct {
	c   []int64 // integer weight of each point, point 0 largest
	top []int64 // the Conway–Guy part, points 0 … m−1
	l   int     // binary digits below it
	dev *big.Float
}

// each calls f on every labeling whose integer subset sum n has n·g in
// [low − D, high + D]: a superset of those whose exact sums lie in
// [low, high]. The top's subsets come from a meet in the middle over the
// Conway–Guy weights (subsetsum.Window), the digits below from n's bits.
// It reports false, listing nothing, when more than maxCand integers or
// top subsets qualify.
func (mx *mixed) each(_ *multi, p *blockPlan, low, high *big.Float, f func(sigma []int) bool) bool {
	gb := new(big.Float).SetPrec(sumPrec).SetFloat64(p.g)
	lo := new(big.Float).SetPrec(sumPrec).Sub(low, mx.dev)
	hi := new(big.Float).SetPrec(sumPrec).Add(high, mx.dev)
	lo.Quo(lo, gb)
	hi.Quo(hi, gb)
	var total int64
	for _, c := range mx.c {
		total += c
	}
	if lo.IsInf() || hi.IsInf() {
		return false
	}
	nlo, nhi := bigint.Ceil(lo), bigint.Floor(hi)
	if nlo.Sign() < 0 {
		nlo.SetInt64(0)
	}
	if nhi.Cmp(big.NewInt(total)) > 0 {
		nhi.SetInt64(total)
	}
	if nlo.Cmp(nhi) > 0 {
		return true // no integer in range: no candidate
	}
	if new(big.Int).Sub(nhi, nlo).Cmp(big.NewInt(maxCand)) >= 0 {
		return false
	}
	a0, b0 := nlo.Int64(), nhi.Int64()
	masks, err := subsetsum.Window(context.Background(), mx.top, a0>>mx.l, b0>>mx.l, maxCand)
	if err != nil {
		return false
	}
	m := len(mx.top)
	sigma := make([]int, len(mx.c))
	for _, mask := range masks {
		var s int64
		for i := range m {
			sigma[i] = int(mask >> i & 1)
			s += int64(sigma[i]) * mx.top[i]
		}
		base := s << mx.l
		for r := max(a0-base, 0); r <= min(b0-base, 1<<mx.l-1); r++ {
			for j := range mx.l {
				sigma[m+j] = int(r >> (mx.l - 1 - j) & 1)
			}
			if !f(sigma) {
				return true
			}
		}
	}
	return true
}

// read is the mixed block's reader without emulation: the one labeling
// whose integer sum is within the budget of t (gap > 2·budget leaves at
// most one); decode verifies it.
func (mx *mixed) read(a *multi, t *big.Float, p *blockPlan) []int {
	b := new(big.Float).SetFloat64(p.budget)
	low := new(big.Float).SetPrec(sumPrec).Sub(t, b)
	high := new(big.Float).SetPrec(sumPrec).Add(t, b)
	var got [][]int
	if !mx.each(a, p, low, high, func(sigma []int) bool {
		got = append(got, slices.Clone(sigma))
		return len(got) < 2
	}) || len(got) != 1 {
		return nil
	}
	return got[0]
}
