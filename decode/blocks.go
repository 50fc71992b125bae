// This file implements the adaptive block code, the Blocks strategy.

package decode

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/labelinf/labelinf/subsetsum"
)

// Blocks is our adaptive block code. Each query decodes a block of
// unknown points whose predictions give the label-dependent part of the
// sum superincreasing weights (base-K digits g·K^j, or a scaled Conway–Guy
// set when that fits one more label), with g sized from a rigorous error
// budget of the scorer for that very query. Points already known get
// their label's prediction, so they add almost nothing to the score's
// magnitude and later blocks grow. Decoding is greedy, O(k).
var Blocks Strategy = &designer{
	name: "blocks",
	init: (*multi).setupBlocks,
	next: func(a *multi, kmax int) (*blockPlan, error) { return a.planDigits(kmax, false, 0) },
}

func init() { register(Blocks) }

// setupBlocks orders the points and turns on decoding by emulated
// brackets (the block code's, and the base of Cross's).
func (a *multi) setupBlocks() {
	// The largest weights, whose terms are largest, go to the points
	// whose terms pass through the fewest roundings.
	slices.SortStableFunc(a.order, func(x, y int) int { return a.depth[x] - a.depth[y] })
	if a.opt.NoEmulation || a.m.Decimals >= 0 {
		return
	}
	e, err := a.m.NewEmulator()
	if err != nil {
		return // not emulable: decode with the rigorous budget alone
	}
	if a.fac.start == 0 {
		a.fac = blocksCtl()
	}
	a.emu, a.emuFactor = e, a.fac.start
	a.lo, a.hi, a.rn = e.NewCachedTerms(a.n), e.NewCachedTerms(a.n), e.NewCachedTerms(a.n)
	// Rows made before the emulator existed.
	a.emuRow(&a.neutral)
	for c := range a.known {
		a.emuRow(&a.known[c])
	}
}

// planDigits designs a block of at most kmax points with digit (or
// Conway–Guy) weights; neutralKnown puts known points at the neutral row
// (Alg3). With fixedG > 0 the unit is fixed (Alg3's later blocks).
func (a *multi) planDigits(kmax int, neutralKnown bool, fixedG float64) (*blockPlan, error) {
	kmax = min(kmax, a.nUnk)
	b0 := a.budgetFor(nil, nil, neutralKnown)
	g := max(2*b0*(1+unitMargin), minUnit)
	if fixedG > 0 {
		g = fixedG
	} else if a.emu != nil && !neutralKnown {
		// Emulation separates far below the budget; start from the last
		// block's unit and let the loop raise it.
		g = max(minUnit, 2*b0/emuStartDiv)
		if a.lastG > 0 {
			g = max(minUnit, min(g, a.lastG*unitDrift))
		}
	}
	for iter := 0; iter < maxDesignIter; iter++ {
		if a.onGrid && fixedG == 0 {
			g = gridUp(g)
		}
		k := min(a.kDigits(g), kmax)
		if k < 1 {
			return nil, &BudgetError{Model: a.m.Name, Budget: 2 * b0, Room: a.wmax}
		}
		gk := g
		if k == a.nUnk-a.tied && fixedG == 0 {
			// Last block: spread the weights over all the room.
			gk = a.wmax / math.Pow(float64(a.k), float64(k-1))
		}
		idx := a.nextIdx(k)
		// Weights g·K^(k−1−j): point 0 carries the largest.
		ws := make([]float64, k)
		for j := range ws {
			ws[j] = gk * math.Pow(float64(a.k), float64(k-1-j))
		}
		rows, err := a.weightRows(ws)
		if err != nil {
			return nil, err
		}
		v := increments(rows)
		p := &blockPlan{read: decodeDigits, g: gk, rows: rows, v: v, gap: digitGap(v)}
		// Conway–Guy: one or more extra labels when the unit is coarse.
		if a.k == 2 && a.emu == nil && !neutralKnown && k < kmax && k < maxCG && gk > a.wmax*0x1p-24 {
			// Conway–Guy can only gain on a coarse unit: at g ≤ wmax·2^−24
			// the binary digits already fit 25 labels, more than maxCG.
			if kc := a.kConwayGuy(gk, min(kmax, maxCG)); kc > k {
				// A mixed block with no digits below its top.
				cp, err := a.mixedDesign(kc, 0, gk)
				if err != nil {
					return nil, err
				}
				if cp != nil {
					cp.budget = a.budgetFor(a.nextIdx(kc), cp.rows, neutralKnown)
					if gapOK(cp.gap, cp.budget) {
						return cp, nil
					}
				}
			}
		}
		p.budget = a.budgetFor(idx, p.rows, neutralKnown)
		need := 2 * p.budget
		if a.emu != nil && !neutralKnown {
			need = min(need, a.emuNeed(idx, p))
			p.emu = need < 2*p.budget
		}
		if p.gap != nil && gapOK(p.gap, need/2) {
			a.lastG = gk
			if a.mixed && p.emu && k < kmax && k < a.nUnk {
				// Partial decoding (Cross): a Conway–Guy top may fit more points at this unit.
				mp, err := a.tryMixed(k, min(kmax, a.nUnk), gk)
				if err != nil {
					return nil, err
				}
				if mp != nil {
					return mp, nil
				}
			}
			return p, nil
		}
		if fixedG > 0 {
			// Alg3 keeps its unit; only the block shrinks.
			if kmax == 1 {
				return nil, &BudgetError{Model: a.m.Name, Budget: 2 * p.budget, Room: a.wmax}
			}
			kmax = k - 1
			continue
		}
		// Raise the unit to the separation this block really needs.
		need *= 1 + unitMargin
		if p.gap == nil {
			// Realized weights not superincreasing: the unit is below what
			// the predictions resolve; raise it by half and look again.
			g *= 1.5
			continue
		}
		// Scale the unit by what the realized gap lacks; at least 1% a
		// step, so that the loop moves when the ratio rounds near 1.
		gf, _ := p.gap.Float64()
		g = max(need, g*need/gf, g*1.01)
	}
	return nil, fmt.Errorf("decode: no block design converged for %s", a.m.Name)
}

// The block design's tuning constants.
const (
	// unitMargin lifts the unit 2^−12 above twice the budget: the realized
	// gap differs from g by the float64 rounding of the rows'
	// probabilities (about 2^−40 relative with the 2^−44 floor below),
	// so the first design already separates.
	unitMargin = 0x1p-12
	// emuStartDiv: under emulation the first unit is the budget's over
	// 64; the loop raises it to what emuNeed asks. Starting lower costs
	// iterations, higher costs labels.
	emuStartDiv = 64
	// unitDrift starts each block 3% below the previous block's unit, so
	// that the unit can follow the need down as known points make the
	// score smaller (starting at the last unit it could only go up).
	unitDrift = 0.97
	// maxDesignIter caps the design loop, which raises the unit by at
	// least 1% an iteration. The attacks of BENCHMARKS.md §6 (and the
	// comparison runs of the CLI at N = 25,000) need at most 7; reaching
	// the cap is an error, not a silent answer.
	maxDesignIter = 200
	// maxCG is the largest Conway–Guy block: its reader's meet in the
	// middle holds 2^10 sums a half, and the labels gained over binary
	// digits (one or two) do not pay for more.
	maxCG = 20
)

// minUnit is the smallest weight unit: a float64 probability near 1/K
// realizes a weight only to about 2^−51, and the realized gap is checked
// exactly anyway.
const minUnit = 0x1p-44

// kDigits returns the largest k with g·K^(k−1) ≤ wmax: the top point's
// step g·K^(k−1) must fit in one point's room.
func (a *multi) kDigits(g float64) int {
	if !(g > 0) || g > a.wmax {
		return 0
	}
	// 1e−12 keeps a ratio that is an exact power of K, computed a few ulps
	// low, from losing a digit.
	return 1 + int(math.Floor(math.Log(a.wmax/g)/math.Log(float64(a.k))+1e-12))
}

// kConwayGuy returns the largest n ≤ nmax with u_n·g ≤ wmax.
func (a *multi) kConwayGuy(g float64, nmax int) int {
	u, _ := subsetsum.ConwayGuySeq(nmax) // increasing
	k := 0
	for k < nmax && float64(u[k+1])*g <= a.wmax {
		k++
	}
	return k
}

// weightRows returns the rows of weights ws, each row c ∝ e^(−c·w), taken
// from the row cache where it holds them.
func (a *multi) weightRows(ws []float64) ([]rowInfo, error) {
	rs := make([]rowInfo, len(ws))
	for j, w := range ws {
		var err error
		rs[j], err = cachedRow(a, &a.rows, rowCacheMax, w, func(row []float64) {
			if a.k == 2 {
				row[1] = a.binP(w)
				row[0] = 1 - row[1]
				return
			}
			r := math.Exp(-w)
			// (1−r)/(1−r^K) = 1/Σ r^c.
			var z float64
			for c := a.k - 1; c >= 0; c-- {
				z += math.Pow(r, float64(c))
			}
			for c := range row {
				row[c] = math.Pow(r, float64(c)) / z
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// binP returns the class-1 probability of a binary row of weight w,
// 1/(1+e^w). At the top weight (w ≥ wmax) it is the extreme row itself,
// which clipping or clamping realizes exactly, where 1/(1+e^w) may be a
// subnormal with few bits. Past w ≈ 709.78 e^w overflows and 1/(1+e^w)
// is 0, whose term −log 0 is +Inf when nothing clips (binary64 alone
// allows weights up to −log 2^−1074 ≈ 744.44): the budget is then
// infinite and the design gives up. Above maxExpArg it takes
// e^−w/(1+e^−w), the same value, a subnormal there; its realized weight
// is checked exactly like every row's.
func (a *multi) binP(w float64) float64 {
	switch {
	case w >= a.wmax:
		return a.pExt
	case w > maxExpArg:
		q := math.Exp(-w)
		return q / (1 + q)
	}
	return 1 / (1 + math.Exp(w))
}

// maxExpArg is below the largest w whose e^w is finite (709.78): the rows
// at or below it keep their original formula, bit for bit.
const maxExpArg = 700

// digitGap returns the minimum over points j and classes c ≥ 1 of
// v_j(c) − v_j(c−1) − Σ_{i after j} v_i(K−1): the separation that makes
// greedy decoding of superincreasing digits unique (nil if some step is
// not positive).
func digitGap(v [][]*big.Float) *big.Float {
	var gap *big.Float
	rest := new(big.Float).SetPrec(incPrec)
	for j := len(v) - 1; j >= 0; j-- {
		for c := 1; c < len(v[j]); c++ {
			d := new(big.Float).SetPrec(incPrec).Sub(v[j][c], v[j][c-1])
			d.Sub(d, rest)
			if gap == nil || d.Cmp(gap) < 0 {
				gap = d
			}
		}
		rest.Add(rest, v[j][len(v[j])-1])
	}
	if gap == nil || gap.Sign() <= 0 {
		return nil
	}
	return gap
}

// intGap returns a lower bound on the distance between distinct subset
// sums of the binary increments v_j(1) ≈ g·c_j, c integers whose subset
// sums are distinct: the realized increments are g·c_j + e_j, and with
// D = Σ_j |e_j| two labelings' sums are at least g − 2D apart. It returns
// that bound (nil if not positive) and D.
func intGap(v [][]*big.Float, g float64, c []int64) (gap, dev *big.Float) {
	gb := new(big.Float).SetPrec(incPrec).SetFloat64(g)
	dev = new(big.Float).SetPrec(incPrec)
	d := new(big.Float).SetPrec(incPrec)
	for j, cj := range c {
		d.Mul(gb, new(big.Float).SetInt64(cj))
		d.Sub(v[j][1], d)
		dev.Add(dev, d.Abs(d))
	}
	gap = new(big.Float).SetPrec(incPrec).Sub(gb, new(big.Float).Mul(dev, big.NewFloat(2)))
	if gap.Sign() <= 0 {
		return nil, dev
	}
	return gap, dev
}

// decodeDigits reads superincreasing digits greedily, largest first: class
// c is taken when the remainder reaches v_j(c) − gap/2, the floor of
// t + gap/2.
func decodeDigits(_ *multi, t *big.Float, p *blockPlan) []int {
	half := new(big.Float).SetPrec(incPrec).Quo(p.gap, big.NewFloat(2))
	return floorDigits(new(big.Float).SetPrec(sumPrec).Add(t, half), p)
}
