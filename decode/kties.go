// This file implements Cross's K-ary code (K > 2, exact terms): blocks of
// mixed-radix digits over each point's still possible labels, the unit
// sized below the spacing of the score, and what an ambiguous score says
// about the points it leaves open carried to later queries as label sets
// and ties modulo K.

package decode

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// The K-ary code (Cross, K > 2, a model that names its log) differs from
// the digit blocks of partial decoding (partial.go) in three ways, and adds a paired top
// (planRadix):
//
//   - Label sets. Each unknown point i keeps the set M_i of labels that
//     the scores so far allow it (a.mask; all K at first). When several
//     labelings explain a block's score (they lie within a spacing of
//     the score: the block's sums are spaced below it on purpose), a point
//     they disagree on keeps the labels they give it. Adjacent labelings
//     in the digit order differ in the last digit (M of two or three
//     labels) or, across a carry, in a run of trailing digits.
//   - Ties modulo K. Two points j, e of the block whose difference
//     σ_j − σ_e mod K is the same in every explaining labeling are tied:
//     only the leader is decoded later, and the follower is learned with
//     it (σ_f = σ_l + d mod K). A carry (…x, K−1 against …x+1, 0) ties
//     the two points, with M = {x, x+1} on the leader: the pair costs
//     later queries one binary digit.
//   - Mixed radix. A point with |M_i| = r labels is a digit of radix r:
//     its row gives the classes of M_i the terms b + m·u_i (m = 0 … r−1)
//     and the others the largest of them. The block's digits are
//     superincreasing, u_i = g·Π r_j over the digits below, and the top
//     digit (the point of smallest radix r_0) spans (r_0 − 1)·u_0 ≤ W,
//     the room of one point: the block's sums cover W·r_0/(r_0 − 1), 2W
//     when a carried pair is on top (1.2W for six fresh labels), and the
//     unit fills the room exactly, so no fraction of a digit is lost.
//
// A label set or a tie is what every labeling explaining the score
// agrees on (they are its projections: the set of explaining labelings
// is kept as a superset), so a label is learned only when every labeling
// that explains every score so far, under the model, has it: verification
// is as strict as the block code's.

// kcodeState is the K-ary code's state (Cross's, K > 2; KList's tail).
type kcodeState struct {
	// mask[i] is the set of labels the scores so far allow unknown point
	// i (bit c: label c); nil but in the K-ary code, whose digit rows
	// radixRows caches by (set, step).
	mask      []uint64
	neg       []bool // neg[f]: σ_f = flip[f] − σ_leader mod K
	radixRows map[radixKey]rowInfo
	// radix is the tuning in effect: the defaults, or what a test passed
	// in the strategy value (its setup copies it).
	radix radixParams
	// digitGroups[i], when set, makes point i a digit over groups of
	// its labels (KList's tail, klist_design.go fitTail): nil elsewhere.
	digitGroups map[int][]uint64
}

// radixBlockMax bounds the points of a block of the K-ary code: every
// digit has radix at least 2 and the unit is at least radixParams.minUnit, so
// that 2^k·minUnit ≤ (2K − 1)/(K − 1)·W ≤ 3·37 (W ≤ 37 for every float64
// preset) gives k ≤ 51.
const radixBlockMax = 64

// radixParams tunes Cross's K-ary code (kties.go); KList's and KBin's
// tails read it too. Tests pass their own in a strategy value
// (newCross(p), klist{p: …}.radix, kbin{p: …}.klist.radix) to shrink the
// room at small N.
type radixParams struct {
	// rho is the unit's target in spacings of the reported score
	// (N·ulp of the expected score): the design takes the most digits whose
	// unit, filling the room, stays at or above it, so that the realized unit
	// lies in [ρ, K·ρ) spacings. Below one spacing several labelings share a
	// score and the label sets carry what they leave open. A choice, not a
	// calibrated optimum: at N = 25,000, K = 6 (the test generator's
	// labelings) ρ = 0.12 and 0.18 took 1,480 and 1,473 queries (seed 1), and
	// ρ = 0.25, 0.35, 0.5 took 1,472–1,473, 1,470–1,472 and 1,478 (seeds 1,
	// 11, 12); a larger ρ lists fewer candidates a score (attacker CPU).
	rho float64
	// minUnit is the least unit: minUnit, but in tests at small N,
	// whose spacing is below it (the realized steps are then coarse, and
	// the gap check keeps the design only if they stay superincreasing).
	minUnit float64
	// room scales the room W a block may span; 1 but in tests that
	// shrink the room so that small N has ambiguous scores.
	room float64
	// fac steers the factor on the unit's target (planRadix): ambiguous
	// blocks are the code's purpose and leave it, a retry (no labeling
	// explains the score, or too many candidates to list) raises it ×1.5,
	// and each block lets it fall back by 3% towards 1.
	fac factorCtl
}

// defaultRadix returns the K-ary code's tuning.
func defaultRadix() radixParams {
	return radixParams{rho: 0.35, minUnit: minUnit, room: 1,
		fac: factorCtl{start: 1, min: 1, grow: 1.5, amb: 1, decay: 0.97, partial: true}}
}

// radixPlan is the digit layout of one mixed-radix block.
type radixPlan struct {
	ord  []int   // block positions, most significant digit first
	pair int     // the top's partner (ord[1], same row as ord[0]), or −1
	cls  [][]int // cls[j]: the labels position j may have, by increasing term
	// d[j][m] = v[j][cls[j][m]] − v[j][cls[j][0]] (the digit's step sums),
	// base = Σ_j v[j][cls[j][0]].
	d    [][]*big.Float
	base *big.Float
}

// maskAll is the label set of K labels.
func maskAll(k int) uint64 { return 1<<k - 1 }

// maskClasses lists the labels of a set in increasing order.
func maskClasses(m uint64) []int {
	var c []int
	for ; m != 0; m &= m - 1 {
		c = append(c, bits.TrailingZeros64(m))
	}
	return c
}

// planRadix designs the next mixed-radix block of at most kmax points,
// a paired top allowed: unless a point of two labels can be the top
// (2·W), two points of all K labels get the top's row. The score then
// reads the count σ_top + σ_partner ∈ [0, 2K−2] above the other digits,
// and a count that leaves several pairs ties the two by their sum
// (σ_partner = count − σ_top) with the top's set narrowed to the pairs'
// labels: the block's sums span (2K − 1)/(K − 1)·W (2.2·W for K = 6)
// instead of K/(K − 1)·W. At N = 25,000, K = 6 (the test generator's
// seed 1): 1,482 queries without it, 1,470 with it.
func (a *multi) planRadix(kmax int) (*blockPlan, error) {
	kmax = min(kmax, a.nUnk-a.tied)
	cand := a.nextIdx(kmax)
	if len(cand) == 0 {
		return nil, &BudgetError{Model: a.m.Name, Budget: 0, Room: a.wmax}
	}
	return a.planRadixOn(cand, float64(a.k-1)*a.wmax*a.radix.room, a.radix.rho, true)
}

// radixSpacing returns the spacing of the reported score in sum units
// (N·ulp of the expected score, every unknown point neutral) and the
// digits' least unit: rho of it, times the safety factor.
func (a *multi) radixSpacing(rho float64) (ulpN, target float64) {
	// A float64 estimate of the exact terms' sum outside any block:
	// every unknown point neutral, known points at their rows.
	s := float64(a.nUnk) * a.neutral.tf[0]
	for c := range a.k {
		tf := a.known[c].tf[c]
		if a.dither != nil {
			tf = a.ditherMax[c]
		}
		s += float64(a.nKnown[c]) * tf
	}
	ulpN = a.emu.Spacing(s/float64(a.n)) * float64(a.n)
	return ulpN, max(a.radix.minUnit, rho*ulpN*a.emuFactor)
}

// planRadixOn designs a mixed-radix block over a prefix of the points
// cand whose top digit fills room (sum units): as many points as keep the
// unit at or above rho spacings (radixSpacing). Cross's blocks have the room of
// one point, (K − 1)·wmax; KList's digit tail the room its list top
// leaves (klist.go). pair allows a paired top (planRadix), whose ties
// KList's tail does not want: every tail labeling has its own sum there.
func (a *multi) planRadixOn(cand []int, room, rho float64, pair bool) (*blockPlan, error) {
	_, target := a.radixSpacing(rho)
	for range maxDesignIter {
		// The most points whose unit, filling the room, stays ≥ target:
		// with r_0 the least radix (the top) and P the product of all,
		// the unit is room·r_0/((r_0 − 1)·P).
		k, r0, prod := 0, a.k+1, 1.0
		for k < len(cand) {
			// A grouped digit's radix is its number of groups; it is
			// never the top.
			r, nr := bits.OnesCount64(a.mask[cand[k]]), r0
			if g := a.digitGroups[cand[k]]; g != nil {
				r = len(g)
			} else {
				nr = min(r0, r)
			}
			np := prod * float64(r)
			if k > 0 && room*float64(nr)/(float64(nr-1)*np) < target {
				break
			}
			k, r0, prod = k+1, nr, np
		}
		g := room * float64(r0) / (float64(r0-1) * prod)
		paired := false
		if pair && r0 >= 3 {
			// A paired top (two points of K labels, one row) spans
			// (2K − 1)/(K − 1)·W, more than a top of r0 ≥ 3 labels:
			// the unit is the top's step over the digits below.
			kp, full, below := 0, 0, 1.0
			for kp < len(cand) {
				r := bits.OnesCount64(a.mask[cand[kp]])
				f, b := full, below
				if r == a.k && full < 2 {
					f++
				} else {
					b *= float64(r)
				}
				if f == 2 && room/(float64(a.k-1)*b) < target {
					break
				}
				kp, full, below = kp+1, f, b
			}
			if full == 2 {
				k, g, paired = kp, room/(float64(a.k-1)*below), true
			}
		}
		g = gridDown(g)
		p, err := a.radixDesign(cand[:k], g, paired)
		if err != nil {
			return nil, err
		}
		if p != nil {
			return p, nil
		}
		// Realized steps not superincreasing (the unit is below what the
		// rows resolve): ask for a coarser one.
		target = max(target, g) * 1.5
	}
	return nil, fmt.Errorf("decode: no block design converged for %s", a.m.Name)
}

// gridDown rounds g down to the grid 2^(i/rowGridSteps) (gridUp
// rounds up), so that units, and with them rows, recur across blocks.
func gridDown(g float64) float64 {
	if !(g > 0) || math.IsInf(g, 0) {
		return g
	}
	return math.Exp2(math.Floor(math.Log2(g)*rowGridSteps+1e-9) / rowGridSteps)
}

// radixDesign builds the block of points idx at unit g: the top digit is
// the first point of least radix, the others follow in idx's order; with
// pair, the top is a point of K labels and a second one gets its
// row (the first two points of K labels are the pair). It returns nil if
// the realized steps are not superincreasing.
func (a *multi) radixDesign(idx []int, g float64, pair bool) (*blockPlan, error) {
	k := len(idx)
	rp := &radixPlan{cls: make([][]int, k), pair: -1}
	top := -1
	var full []int // the points of K labels
	for j, i := range idx {
		// A digit's values by increasing term: its labels, or each
		// group's least label (the labels of a group share its term).
		rp.cls[j] = maskClasses(a.mask[i])
		if g := a.digitGroups[i]; g != nil {
			rp.cls[j] = leastLabels(g)
		} else if top < 0 || len(rp.cls[j]) < len(rp.cls[top]) {
			top = j
		}
		if len(rp.cls[j]) == a.k {
			full = append(full, j)
		}
	}
	top = max(top, 0)
	rp.ord = []int{top}
	if pair {
		// The first two points of K labels.
		if len(full) < 2 {
			return nil, fmt.Errorf("decode: a paired top without two points of %d labels", a.k)
		}
		top, rp.pair = full[0], full[1]
		rp.ord = []int{top, rp.pair}
	}
	for j := range idx {
		if j != top && j != rp.pair {
			rp.ord = append(rp.ord, j)
		}
	}
	p := &blockPlan{g: g, rows: make([]rowInfo, k), emu: true, each: rp.each, read: readNone}
	u := g
	for s := k - 1; s >= 0; s-- {
		j := rp.ord[s]
		if j == rp.pair {
			continue // the top's row, below
		}
		r, err := a.radixRowOf(idx[j], u)
		if err != nil {
			return nil, err
		}
		p.rows[j] = r
		u *= float64(len(rp.cls[j]))
	}
	if pair {
		p.rows[rp.pair] = p.rows[top]
	}
	p.v = increments(p.rows)
	rp.d = make([][]*big.Float, k)
	rp.base = new(big.Float).SetPrec(sumPrec)
	for j := range k {
		b := p.v[j][rp.cls[j][0]]
		rp.base.Add(rp.base, b)
		rp.d[j] = make([]*big.Float, len(rp.cls[j]))
		for m, c := range rp.cls[j] {
			rp.d[j][m] = new(big.Float).SetPrec(incPrec).Sub(p.v[j][c], b)
		}
	}
	if p.gap = rp.gap(); p.gap == nil {
		return nil, nil
	}
	p.budget = a.budgetFor(idx, p.rows, false)
	return p, nil
}

// readNone is the reader of blocks decoded by brackets alone.
var readNone reader = func(*multi, *big.Float, *blockPlan) []int { return nil }

// radixKey identifies a cached digit row.
type radixKey struct {
	mask   uint64
	u      float64
	g0, g1 uint64 // a grouped digit's first two groups; 0 for a plain one
}

// gap returns the least margin by which each digit step exceeds the
// largest sum of the digits below, min over digits and steps of
// d_j(m) − d_j(m−1) − Σ_{below} d_i(r_i − 1): the separation of adjacent
// block sums in digit order (nil if some margin is not positive, and the
// order of the sums is not that of the digits). A paired top is
// superincreasing over the digits below it, not over its partner.
func (rp *radixPlan) gap() *big.Float {
	var gap *big.Float
	rest := new(big.Float).SetPrec(incPrec)
	d := new(big.Float).SetPrec(incPrec)
	for s := len(rp.ord) - 1; s >= 0; s-- {
		dj := rp.d[rp.ord[s]]
		for m := 1; m < len(dj); m++ {
			d.Sub(dj[m], dj[m-1])
			d.Sub(d, rest)
			if gap == nil || d.Cmp(gap) < 0 {
				gap = new(big.Float).SetPrec(incPrec).Set(d)
			}
		}
		if s > 1 || s == 1 && rp.pair < 0 { // a paired top's partner is not below it
			rest.Add(rest, dj[len(dj)-1])
		}
	}
	if gap == nil || gap.Sign() <= 0 {
		return nil
	}
	return gap
}

// each calls f on every labeling of the block (each point within its
// label set) whose exact block sum lies in [low, high], until f returns
// false; without a paired top in increasing order of the sum. It reports
// false if it stopped at maxCand labelings before it had seen them all.
func (rp *radixPlan) each(_ *multi, p *blockPlan, low, high *big.Float, f func(sigma []int) bool) bool {
	sigma := make([]int, len(rp.ord))
	n := 0
	if rp.pair < 0 {
		ok, _ := rp.eachFrom(0, low, high, sigma, &n, f)
		return ok
	}
	// Every label pair of the top and its partner (their sums need not
	// be ordered: equal rows give equal steps), then the digits below.
	top := rp.ord[0]
	lo := new(big.Float).SetPrec(sumPrec)
	hi := new(big.Float).SetPrec(sumPrec)
	// The digits below span [base, base + rest]: skip the pairs whose
	// window misses it.
	rest := new(big.Float).SetPrec(sumPrec).Set(rp.base)
	for _, j := range rp.ord[2:] {
		rest.Add(rest, rp.d[j][len(rp.d[j])-1])
	}
	for mt := range rp.d[top] {
		for mp := range rp.d[rp.pair] {
			sigma[top], sigma[rp.pair] = rp.cls[top][mt], rp.cls[rp.pair][mp]
			lo.Sub(low, rp.d[top][mt])
			lo.Sub(lo, rp.d[rp.pair][mp])
			hi.Sub(high, rp.d[top][mt])
			hi.Sub(hi, rp.d[rp.pair][mp])
			if hi.Cmp(rp.base) < 0 || lo.Cmp(rest) > 0 {
				continue
			}
			ok, stop := rp.eachFrom(2, lo, hi, sigma, &n, f)
			if !ok || stop {
				return ok
			}
		}
	}
	return true
}

// eachFrom lists the digits ord[from:] (superincreasing) whose sum with
// base lies in [low, high], the digits before from already in sigma, in
// increasing order. *n counts the labelings seen; ok is false if it
// reached maxCand, stop true if f returned false.
func (rp *radixPlan) eachFrom(from int, low, high *big.Float, sigma []int, n *int, f func(sigma []int) bool) (ok, stop bool) {
	ord := rp.ord[from:]
	k := len(ord)
	dig := make([]int, k)
	// The first labeling, greedily: the largest whose sum is at most low
	// (the steps d_j(m) are positive and superincreasing: gap).
	rem := new(big.Float).SetPrec(sumPrec).Sub(low, rp.base)
	sum := new(big.Float).SetPrec(sumPrec).Set(rp.base)
	for s, j := range ord {
		for m := len(rp.d[j]) - 1; m >= 1; m-- {
			if rem.Cmp(rp.d[j][m]) >= 0 {
				dig[s] = m
				break
			}
		}
		rem.Sub(rem, rp.d[j][dig[s]])
		sum.Add(sum, rp.d[j][dig[s]])
		sigma[j] = rp.cls[j][dig[s]]
	}
	for ; *n < maxCand; *n++ {
		if sum.Cmp(high) > 0 {
			return true, false
		}
		if sum.Cmp(low) >= 0 && !f(sigma) {
			return true, true
		}
		// The next labeling: the sum follows the digits that change.
		s := k - 1
		for ; s >= 0; s-- {
			j := ord[s]
			if dig[s] < len(rp.d[j])-1 {
				sum.Sub(sum, rp.d[j][dig[s]])
				dig[s]++
				sum.Add(sum, rp.d[j][dig[s]])
				sigma[j] = rp.cls[j][dig[s]]
				break
			}
			sum.Sub(sum, rp.d[j][dig[s]])
			dig[s] = 0
			sigma[j] = rp.cls[j][0]
		}
		if s < 0 {
			return true, false
		}
	}
	return false, false
}

// tieSets records what an ambiguous block's explaining labelings cands
// say about the points they disagree on (found[j] < 0): each keeps the
// labels they give it, and points whose difference σ_j − σ_e mod K (or
// sum σ_j + σ_e mod K: a paired top's count) is the same in all of them
// are tied to the first of them. It reports whether anything was
// learned: a label set shrank or a tie was made.
func (a *multi) tieSets(idx []int, cands [][]int, found []int) bool {
	k := a.k
	mod := func(x int) int { return (x%k + k) % k }
	// rel reports whether σ_j = d + s·σ_e mod K in every labeling, s = ±1.
	rel := func(j, e, sgn int) (int, bool) {
		d := mod(cands[0][j] - sgn*cands[0][e])
		for _, s := range cands[1:] {
			if mod(s[j]-sgn*s[e]) != d {
				return 0, false
			}
		}
		return d, true
	}
	// Each open point joins the first group (its leader's index in
	// leaders) to which it is tied, its tie made at once; or it leads a
	// group of its own, its set narrowed to the labels the labelings give
	// it. No tie reads another's, so the order is immaterial.
	changed := false
	var leaders []int
points:
	for j, c := range found {
		if c >= 0 {
			continue
		}
		for _, e := range leaders {
			for _, sgn := range []int{1, -1} {
				if d, ok := rel(j, e, sgn); ok {
					if f := idx[j]; a.tie(idx[e], f, uint8(d)) {
						a.neg[f] = sgn < 0
						changed = true
					}
					continue points
				}
			}
		}
		leaders = append(leaders, j)
		l := idx[j]
		var m uint64
		for _, s := range cands {
			m |= 1 << s[j]
		}
		m &= a.mask[l]
		if m != a.mask[l] {
			a.mask[l] = m
			changed = true
		}
	}
	return changed
}
