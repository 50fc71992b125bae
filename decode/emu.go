// This file is the block code's decoding by emulated brackets (see
// MultiOptions.NoEmulation and scorer.Emulator).

package decode

import (
	"math"
	"math/big"
	"slices"
)

// emuFactorStart is where the safety factor on the emulated separation
// ([multi.emuNeed]) starts: the estimate sums the spreads seen on four
// probe labelings; the labelings not probed may spread further, so it
// gets 1/8 of headroom.
const emuFactorStart = 1.125

// factorCtl is how a strategy steers the safety factor on the emulated
// separation (multi.emuFactor): it starts at start, is multiplied by grow
// after a block no single labeling explains (a retry), by amb after a
// partially decoded block (partial: several labelings explain the score
// and only the labels they agree on are learned), and by decay after each
// decoded block, never going below min.
type factorCtl struct {
	start, min, grow, amb, decay float64
	partial                      bool
}

// blocksCtl returns the block code's: no partial decoding; ×1.5 after a
// block whose brackets overlapped (a retry: the estimate was short), ×0.95
// after each decoded block, never below the start. A short estimate costs
// one query (the block is retried smaller), a long one costs labels in
// every block, hence a quick rise and a slow decay. These are choices,
// not calibrated optima; the query counts they give are pinned by
// BENCHMARKS.md §6.
func blocksCtl() factorCtl {
	return factorCtl{start: emuFactorStart, min: emuFactorStart, grow: 1.5, amb: 1.5, decay: 0.95}
}

// maxCand bounds the labelings decodeEmu brackets for one block: the
// candidates are those within the rigorous budget of the score, and with
// the unit g sized to at least 2·budget/64 (planDigits) there are at most
// about 64·K of them; 4,096 leaves a wide margin while bounding the work.
const maxCand = 1 << 12

// fillBase writes every point's computed-term range for the current state:
// known points at their label's row, unknown ones neutral. After the first
// fill only the points learned since the last one change (a.stale): the
// buffers' summation trees then recompute only their paths.
func (a *multi) fillBase() {
	if !a.filled {
		for i := range a.labels {
			a.setBase(i)
		}
		a.filled = true
	}
	for _, i := range a.stale {
		a.setBase(i)
	}
	a.stale = a.stale[:0]
}

// setBase writes point i's computed-term range outside any block.
func (a *multi) setBase(i int) {
	r, cl := &a.neutral, 0
	if c := a.labels[i]; c >= 0 {
		r, cl = a.knownRow(i, c), c
	}
	a.lo.Set(i, r.lo[cl])
	a.hi.Set(i, r.hi[cl])
	a.rn.Set(i, r.rn[cl])
}

// setBlock puts the block's rows at labeling sigma (nil: back to neutral).
func (a *multi) setBlock(idx []int, p *blockPlan, sigma []int) {
	for j, i := range idx {
		r, c := &p.rows[j], 0
		if sigma == nil {
			r = &a.neutral
		} else {
			c = sigma[j]
		}
		a.lo.Set(i, r.lo[c])
		a.hi.Set(i, r.hi[c])
		a.rn.Set(i, r.rn[c])
	}
}

// nTimes returns n·r (scorePrec): N·score, the sum a score stands for.
func nTimes(r *big.Rat, n int) *big.Float {
	return new(big.Float).SetPrec(scorePrec).SetRat(new(big.Rat).Mul(r, new(big.Rat).SetInt64(int64(n))))
}

// emuNeed estimates the separation (sum units) that keeps the emulated
// brackets of the block's labelings apart: the width of one bracket, the
// spread of the label-dependent rounding seen on four probe labelings
// (correctly rounded terms), the spacing of reported scores and twice the
// noise, times a safety factor (the strategy's factorCtl: it grows after
// a failed decode and decays back after each decoded block). It is
// an estimate: decoding checks the brackets exactly and shrinks the block
// if two of them overlap.
func (a *multi) emuNeed(idx []int, p *blockPlan) float64 {
	a.fillBase()
	defer a.setBlock(idx, p, nil)
	sig := make([]int, len(idx))
	a.setBlock(idx, p, sig)
	rlo, err1 := a.emu.Report(a.lo)
	rhi, err2 := a.emu.Report(a.hi)
	if err1 != nil || err2 != nil {
		return math.Inf(1)
	}
	w, _ := new(big.Float).Sub(nTimes(rhi, a.n), nTimes(rlo, a.n)).Float64()
	c := a.constC(p)
	lo, hi := math.Inf(1), math.Inf(-1)
	top := a.k - 1
	var sf float64
	// The probes: every label 0, every label K−1, and the two alternations.
	for _, probe := range [4][2]int{{0, 0}, {top, top}, {0, top}, {top, 0}} {
		for j := range sig {
			sig[j] = probe[j%2]
		}
		a.setBlock(idx, p, sig)
		r, err := a.emu.Report(a.rn)
		if err != nil {
			return math.Inf(1)
		}
		ex := new(big.Float).SetPrec(sumPrec).Set(c)
		for j, cl := range sig {
			ex.Add(ex, p.v[j][cl])
		}
		d, _ := ex.Sub(nTimes(r, a.n), ex).Float64()
		lo, hi = min(lo, d), max(hi, d)
		sf, _ = r.Float64()
	}
	// Spacing of reported scores near the last probe.
	ulp := a.emu.Spacing(sf) * float64(a.n)
	smax := (sf*float64(a.n) + w) / float64(a.n)
	tau := a.opt.Noise.HalfWidth(smax, a.n) * float64(a.n)
	return (w + (hi - lo) + ulp + 2*tau) * a.emuFactor
}

// decodeEmu decodes by brackets. Every labeling whose exact block sum is
// within the rigorous budget of t is a candidate (the truth is one); for
// each, the server's reported score is bracketed by emulation on the
// lowest and highest computed terms. The block decodes only if exactly one
// candidate's bracket holds the observed score, widened by the noise.
func (a *multi) decodeEmu(score *big.Rat, t *big.Float, idx []int, p *blockPlan) ([]int, bool) {
	a.fillBase()
	defer a.setBlock(idx, p, nil)
	b := new(big.Float).SetFloat64(p.budget)
	low := new(big.Float).SetPrec(sumPrec).Sub(t, b)
	high := new(big.Float).SetPrec(sumPrec).Add(t, b)
	sLo, sHi := a.scoreRange(score)
	var cands [][]int // the labelings that explain the score
	each := eachDigits
	if p.each != nil {
		each = p.each
	}
	// With every row exact (the server's own terms, Cross) both
	// brackets are one emulation.
	exact := a.baseExact && !slices.ContainsFunc(p.rows, func(r rowInfo) bool { return !r.exact })
	complete := each(a, p, low, high, func(sigma []int) bool {
		a.setBlock(idx, p, sigma)
		rlo, err1 := a.emu.Report(a.lo)
		rhi, err2 := rlo, err1
		if !exact {
			rhi, err2 = a.emu.Report(a.hi)
		}
		if err1 != nil || err2 != nil || sHi.Cmp(rlo) < 0 || sLo.Cmp(rhi) > 0 {
			return true
		}
		cands = append(cands, slices.Clone(sigma))
		return a.fac.partial || len(cands) < 2 // without partial decoding, two are a retry
	})
	if !complete || len(cands) == 0 || (!a.fac.partial && len(cands) > 1) {
		// Too many candidates to bracket them all, none, or two without
		// partial decoding: nothing is decoded.
		a.emuFactor *= a.fac.grow
		return nil, false
	}
	if len(cands) == 1 {
		return cands[0], true
	}
	// Partial decoding: keep only the labels every labeling that explains
	// the score agrees on.
	found := slices.Clone(cands[0])
	for _, s := range cands[1:] {
		for j, c := range s {
			if found[j] != c {
				found[j] = -1
			}
		}
	}
	common := slices.ContainsFunc(found, func(c int) bool { return c >= 0 })
	switch {
	case a.mask != nil:
		// The K-ary code: label sets and ties mod K carry the rest. Only
		// a score that teaches nothing is a retry.
		if !a.tieSets(idx, cands, found) && !common {
			a.emuFactor *= a.fac.grow
			return nil, false
		}
		return found, true
	case a.leader != nil && !a.tieCands(idx, p, cands, found):
		// Only the tie the paired top was made for, not a short
		// separation: the safety factor stays.
		return found, true
	}
	a.emuFactor *= a.fac.amb
	if !common {
		return nil, false // no label common to them all: a retry
	}
	return found, true
}

// eachDigits calls f on every labeling of a digit block whose exact block
// sum lies in [low, high], in increasing order of the sum, until f
// returns false. It reports false if it stopped at maxCand labelings
// before reaching high (some candidates were not seen).
func eachDigits(_ *multi, p *blockPlan, low, high *big.Float, f func(sigma []int) bool) bool {
	sigma := floorDigits(low, p)
	sum := new(big.Float).SetPrec(sumPrec)
	for range maxCand {
		sum.SetInt64(0)
		for j, c := range sigma {
			sum.Add(sum, p.v[j][c])
		}
		// Past high, stopped by f, or past the last labeling.
		if sum.Cmp(high) > 0 || sum.Cmp(low) >= 0 && !f(sigma) || !nextDigits(sigma, len(p.v[0])) {
			return true
		}
	}
	return false
}

// floorDigits returns the labeling with the largest block sum ≤ x (all
// zeros if none), reading superincreasing digits greedily.
func floorDigits(x *big.Float, p *blockPlan) []int {
	rem := new(big.Float).SetPrec(sumPrec).Set(x)
	sigma := make([]int, len(p.v))
	if rem.Sign() < 0 {
		return sigma
	}
	for j := range p.v {
		for c := len(p.v[j]) - 1; c >= 1; c-- {
			if rem.Cmp(p.v[j][c]) >= 0 {
				sigma[j] = c
				break
			}
		}
		rem.Sub(rem, p.v[j][sigma[j]])
	}
	return sigma
}

// nextDigits steps sigma to the next labeling in increasing block sum
// (digit 0 most significant); it returns false after the last.
func nextDigits(sigma []int, k int) bool {
	for j := len(sigma) - 1; j >= 0; j-- {
		if sigma[j] < k-1 {
			sigma[j]++
			return true
		}
		sigma[j] = 0
	}
	return false
}

// scoreRange returns the scores the server's noise-free report may lie
// between for an observed score: the score itself, or the score widened
// by the assumed noise's half-width on both sides.
func (a *multi) scoreRange(score *big.Rat) (lo, hi *big.Rat) {
	sf, _ := score.Float64()
	tau := new(big.Rat).SetFloat64(a.opt.Noise.HalfWidth(math.Abs(sf)*2+1, a.n)) // 0 without noise
	return new(big.Rat).Sub(score, tau), new(big.Rat).Add(score, tau)
}
