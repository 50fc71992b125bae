// This file implements the multi-query attacks against finite-precision
// scorers: ICML Alg 1 (primes, k labels per query) [AKXFT21, Alg 1, Thm 2],
// ICML Alg 3 (powers of two, fixed blocks) [AKXFT21, Alg 3, Thm 7], and
// our adaptive block code.

package decode

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/labelinf/labelinf/apa"
	"github.com/labelinf/labelinf/primes"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/subsetsum"
)

// Strategy is a multi-query attack.
type Strategy int

const (
	// Blocks is our adaptive block code. Each query decodes a block of
	// unknown points whose predictions give the label-dependent part of
	// the sum superincreasing weights (base-K digits g·K^j, or a scaled
	// Conway–Guy set when that fits one more label), with g sized from a
	// rigorous error budget of the scorer for that very query. Points
	// already known get their label's prediction, so they add almost
	// nothing to the score's magnitude and later blocks grow. Decoding is
	// greedy, O(k).
	Blocks Strategy = iota
	// Primes is ICML Alg 1: the block's points get prime predictions (row
	// c ∝ p^c), every other point the neutral 1/K; the score gives
	// X = Π p_j^σ_j, read by rounding exp and factoring. k is fixed, the
	// largest whose X_max the scorer's precision separates.
	Primes
	// Alg3 is ICML Alg 3: fixed blocks of k points with weights
	// 2Nτ(1+δ)·2^(j−1) (base K for K classes), all other points neutral.
	// τ is the scorer's whole error budget per point (noise, rounding,
	// decimals). The paper searches the 2^k labelings of a block; for
	// superincreasing weights the greedy decoder finds the same one in
	// O(k).
	Alg3
)

func (s Strategy) String() string {
	switch s {
	case Blocks:
		return "blocks"
	case Primes:
		return "primes"
	case Alg3:
		return "alg3"
	}
	return fmt.Sprintf("Strategy(%d)", int(s))
}

// ParseStrategy returns the strategy called name ("auto" is Blocks).
func ParseStrategy(name string) (Strategy, error) {
	switch name {
	case "blocks", "auto", "":
		return Blocks, nil
	case "primes", "alg1":
		return Primes, nil
	case "alg3":
		return Alg3, nil
	}
	return 0, fmt.Errorf("decode: unknown strategy %q (want auto, blocks, primes or alg3)", name)
}

// MultiOptions configures a multi-query attack.
type MultiOptions struct {
	Strategy Strategy
	// Model is the scorer model the attack plans for (its error budget);
	// required.
	Model *scorer.Model
	// Noise is the noise the attacker assumes on each score.
	Noise scorer.Noise
	// Check spends one more query, with every point predicted as its
	// recovered label, to verify all labels at once end to end.
	Check bool
	// MaxQueries stops the attack with an error after that many queries;
	// 0 means 4N + 64.
	MaxQueries int
	// Progress, if set, is called after each query with the number of
	// labels known and queries spent.
	Progress func(known, queries int)
	// NoEmulation makes the block code decode with the rigorous error
	// budget alone. By default, against a binary64/binary32 model with a
	// monotone summation, Blocks brackets each candidate labeling's
	// reported score by emulating the server on the lowest and highest
	// values its faithful log can return (scorer.Emulator), which
	// separates labelings far closer than the budget does.
	NoEmulation bool
}

// MultiResult is the outcome of a multi-query attack.
type MultiResult struct {
	// Labels holds the recovered labels (−1 where unknown). After an error
	// it holds the blocks decoded before it, verified only under the
	// assumed model, and Verified is false.
	Labels []int
	// Verified: every block decoded to the unique labeling within its
	// error budget and reproduced its score within it (and the final
	// check, if asked for, passed).
	Verified bool
	Queries  int   // queries spent, retries and the check included
	Retries  int   // blocks re-queried smaller after failing verification
	Blocks   []int // labels decoded by each successful query, in order
	// CheckDecisive reports that the final check could tell a single
	// wrong label from the error budget (so it verified every label).
	Checked, CheckDecisive bool
}

// MultiPlan is the dry run of a strategy: the blocks it would decode, in
// order, without querying.
type MultiPlan struct {
	Strategy Strategy
	Queries  int
	Blocks   []int
	// Gap is the weight unit g of the first block (the separation of its
	// subset sums, in units of the sum N·score).
	Gap float64
	// Budget is the error budget of the first query, in units of the sum.
	Budget float64
}

// rowInfo is a prediction row and its exact terms.
type rowInfo struct {
	row        []float64    // [p] for binary, K values otherwise
	t          []*big.Float // exact term per class
	tf         []float64    // t as float64, rounded up
	max        float64      // max over classes of tf
	lo, hi, rn []float64    // emulation: computed-term range and nearest
}

// multi is the state of one attack.
type multi struct {
	n, k   int
	m      *scorer.Model
	opt    MultiOptions
	depth  []int
	maxD   int
	order  []int
	labels []int // −1: unknown
	pos    int   // next candidate in order

	neutral rowInfo
	known   []rowInfo // known[c]: the row given to a point of class c
	nKnown  []int
	dKnown  []float64
	nUnk    int
	dUnk    float64

	wmax      float64 // largest usable increment V(c)−V(c−1) of one point
	pExt      float64 // the probability of the most extreme row
	queries   int
	maxQ      int
	fixed     *blockPlan // Primes, Alg3: the fixed block design
	primeList []uint64

	emu        *scorer.Emulator
	lo, hi, rn *scorer.Terms // emulation: per-point computed terms
	baseOK     bool          // lo, hi, rn hold the current state
	emuFactor  float64       // safety factor on the emulated separation
	lastG      float64       // the previous block's unit
	curIdx     []int         // the block being decoded

	pred             *scorer.Pred
	predNeutralKnown bool
}

// blockPlan is one query's block design.
type blockPlan struct {
	kind   Strategy // Blocks (greedy digits), Primes, or Alg3
	cg     bool     // Conway–Guy weights (binary), decoded by enumeration
	g      float64  // weight unit
	rows   []rowInfo
	v      [][]*big.Float // v[j][c] = t_j(c) − t_j(0), exact
	gap    *big.Float     // realized minimum separation of block sums
	budget float64        // error budget of the query, sum units
	xmax   *big.Int       // Primes: Π p_j^(K−1)
	emu    bool           // decode by emulated brackets
}

func newMulti(n, k int, opt MultiOptions) (*multi, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("decode: N = %d outside [1, %d]", n, MaxN)
	}
	if k < 2 || k > 64 {
		return nil, fmt.Errorf("decode: K = %d outside [2, 64]", k)
	}
	if opt.Model == nil {
		return nil, errors.New("decode: no scorer model to plan for")
	}
	if err := opt.Model.Validate(); err != nil {
		return nil, err
	}
	if err := opt.Noise.Validate(); err != nil {
		return nil, err
	}
	if opt.Strategy < Blocks || opt.Strategy > Alg3 {
		return nil, fmt.Errorf("decode: unknown strategy %d", int(opt.Strategy))
	}
	a := &multi{n: n, k: k, m: opt.Model, opt: opt, nUnk: n}
	a.maxQ = opt.MaxQueries
	if a.maxQ <= 0 {
		a.maxQ = 4*n + 64
	}
	a.depth = a.m.Depths(n)
	for _, d := range a.depth {
		a.maxD = max(a.maxD, d)
		a.dUnk += float64(d)
	}
	a.order = make([]int, n)
	for i := range a.order {
		a.order[i] = i
	}
	if opt.Strategy == Blocks {
		// The largest weights, whose terms are largest, go to the points
		// whose terms pass through the fewest roundings.
		slices.SortStableFunc(a.order, func(x, y int) int { return a.depth[x] - a.depth[y] })
	}
	a.labels = make([]int, n)
	for i := range a.labels {
		a.labels[i] = -1
	}
	a.nKnown = make([]int, k)
	a.dKnown = make([]float64, k)
	var err error
	nrow := make([]float64, k)
	for c := range nrow {
		nrow[c] = 1 / float64(k)
	}
	if a.neutral, err = a.rowInfo(nrow); err != nil {
		return nil, err
	}
	for c := 1; c < k; c++ {
		if a.neutral.t[c].Cmp(a.neutral.t[0]) != 0 {
			return nil, fmt.Errorf("decode: the uniform prediction is not neutral under %s (its classes' terms differ)", a.m.Name)
		}
	}
	a.known = make([]rowInfo, k)
	for c := range k {
		r := make([]float64, k)
		r[c] = 1
		if a.known[c], err = a.rowInfo(r); err != nil {
			return nil, err
		}
	}
	if err := a.setWmax(); err != nil {
		return nil, err
	}
	if opt.Strategy == Blocks && !opt.NoEmulation && a.m.Decimals < 0 {
		if e, err := a.m.NewEmulator(); err == nil {
			a.emu, a.emuFactor = e, 1.125
			a.lo, a.hi, a.rn = e.NewTerms(n), e.NewTerms(n), e.NewTerms(n)
			// Rows made before the emulator existed.
			a.emuRow(&a.neutral)
			for c := range a.known {
				a.emuRow(&a.known[c])
			}
		}
	}
	return a, nil
}

// emuRow fills a row's computed-term ranges.
func (a *multi) emuRow(r *rowInfo) {
	if a.emu == nil {
		return
	}
	r.lo, r.hi, r.rn = make([]float64, len(r.t)), make([]float64, len(r.t)), make([]float64, len(r.t))
	for c, t := range r.t {
		if t.IsInf() {
			r.lo[c], r.hi[c], r.rn[c] = math.Inf(1), math.Inf(1), math.Inf(1)
			continue
		}
		r.lo[c], r.hi[c] = a.emu.TermRange(t)
		r.rn[c] = a.emu.Nearest(t)
	}
}

// rowInfo computes a row's exact terms; row has K entries (binary: the
// class-1 probability is row[1]).
func (a *multi) rowInfo(row []float64) (rowInfo, error) {
	r := row
	if a.k == 2 {
		r = []float64{row[1]}
	}
	t, err := a.m.Terms(r)
	if err != nil {
		return rowInfo{}, err
	}
	ri := rowInfo{row: r, t: t, tf: make([]float64, len(t))}
	for c, v := range t {
		f, _ := v.Float64()
		ri.tf[c] = math.Nextafter(f, math.Inf(1))
		ri.max = max(ri.max, ri.tf[c])
	}
	a.emuRow(&ri)
	return ri, nil
}

// setWmax finds the largest increment one point can carry: the terms of the
// most extreme row the scorer accepts (class K−1 at the smallest
// probability that survives clipping), split over K−1 steps.
func (a *multi) setWmax() error {
	pmin := math.SmallestNonzeroFloat64
	if !a.m.Exact {
		clip, err := a.m.Clip()
		if err != nil {
			return err
		}
		if clip.Eps != nil {
			pmin = 0 // clipped up to eps
		} else if clip.Floor != nil {
			pmin = 0 // log clamped
		} else {
			// The smallest positive value of the format that float64 holds.
			f := a.m.Loss.Format
			e := f.Emin() - int64(f.Prec()) + 1
			pmin = math.Ldexp(1, int(max(e, -1074)))
		}
	}
	a.pExt = pmin
	row := make([]float64, a.k)
	row[a.k-1] = pmin
	row[0] = 1 - pmin
	ri, err := a.rowInfo(row)
	if err != nil {
		return err
	}
	top, bot := ri.t[a.k-1], ri.t[0]
	if top.IsInf() {
		return fmt.Errorf("decode: %s takes the log of 0 unclipped", a.m.Name)
	}
	d := new(big.Float).Sub(top, bot)
	w, _ := d.Float64()
	// For K > 2 keep 1% headroom: the top point's middle classes must stay
	// distinct; a binary point can use all of it.
	a.wmax = w * (1 - 0x1p-30)
	if a.k > 2 {
		a.wmax = w / float64(a.k-1) * 0.99
	}
	if !(a.wmax > 0) {
		return fmt.Errorf("decode: %s leaves no room for a weight", a.m.Name)
	}
	return nil
}

// budgetFor returns the error budget (sum units, noise included) of a query
// whose block has rows rs at points idx, the other points unknown-neutral
// or known (known points neutral if neutralKnown).
func (a *multi) budgetFor(idx []int, rs []rowInfo, neutralKnown bool) float64 {
	b := scorer.Budget{N: a.n, MaxD: a.maxD}
	nNeutral := float64(a.nUnk - len(idx))
	dNeutral := a.dUnk
	for j, i := range idx {
		dNeutral -= float64(a.depth[i])
		b.SumT += rs[j].max
		b.SumDT += float64(a.depth[i]) * rs[j].max
		b.Max = max(b.Max, rs[j].max)
	}
	for c := range a.k {
		if neutralKnown {
			nNeutral += float64(a.nKnown[c])
			dNeutral += a.dKnown[c]
		} else {
			b.SumT += float64(a.nKnown[c]) * a.known[c].tf[c]
			b.SumDT += a.dKnown[c] * a.known[c].tf[c]
			if a.nKnown[c] > 0 {
				b.Max = max(b.Max, a.known[c].tf[c])
			}
		}
	}
	b.SumT += nNeutral * a.neutral.max
	b.SumDT += dNeutral * a.neutral.max
	if nNeutral > 0 {
		b.Max = max(b.Max, a.neutral.max)
	}
	b.SumT *= 1 + 0x1p-40
	b.SumDT *= 1 + 0x1p-40
	e := a.m.Bound(b)
	smax := (b.SumT + e) / float64(a.n)
	return e + float64(a.n)*a.opt.Noise.HalfWidth(smax, a.n)*(1+0x1p-40)
}

// nextIdx returns the next k unknown points in the block order.
func (a *multi) nextIdx(k int) []int {
	idx := make([]int, 0, k)
	for p := a.pos; p < a.n && len(idx) < k; p++ {
		if a.labels[a.order[p]] < 0 {
			idx = append(idx, a.order[p])
		}
	}
	return idx
}

// digitRows builds rows for weights w_j = g·K^(k−1−j) (point 0 carries the
// largest): row c ∝ e^(−c·w).
func (a *multi) digitRows(k int, g float64) ([]rowInfo, error) {
	rs := make([]rowInfo, k)
	for j := range k {
		w := g * math.Pow(float64(a.k), float64(k-1-j))
		row := make([]float64, a.k)
		if a.k == 2 {
			row[1] = 1 / (1 + math.Exp(w))
			if w >= a.wmax {
				// The top weight: the extreme row itself, which clipping or
				// clamping realizes exactly, where 1/(1+e^w) may be a
				// subnormal with few bits.
				row[1] = a.pExt
			}
			row[0] = 1 - row[1]
		} else {
			r := math.Exp(-w)
			// (1−r)/(1−r^K) = 1/Σ r^c.
			var z float64
			for c := a.k - 1; c >= 0; c-- {
				z += math.Pow(r, float64(c))
			}
			for c := range row {
				row[c] = math.Pow(r, float64(c)) / z
			}
		}
		var err error
		if rs[j], err = a.rowInfo(row); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// cgRows builds binary rows for Conway–Guy weights g·s_i, largest first.
func (a *multi) cgRows(k int, g float64) ([]rowInfo, error) {
	s, err := subsetsum.ConwayGuy(k)
	if err != nil {
		return nil, err
	}
	rs := make([]rowInfo, k)
	for j := range k {
		w := g * float64(s[k-1-j])
		row := []float64{0, 1 / (1 + math.Exp(w))}
		row[0] = 1 - row[1]
		if rs[j], err = a.rowInfo(row); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// increments returns v[j][c] = t_j(c) − t_j(0).
func increments(rs []rowInfo) [][]*big.Float {
	v := make([][]*big.Float, len(rs))
	for j, r := range rs {
		v[j] = make([]*big.Float, len(r.t))
		for c := range r.t {
			v[j][c] = new(big.Float).SetPrec(160).Sub(r.t[c], r.t[0])
		}
	}
	return v
}

// digitGap returns the minimum over points j and classes c ≥ 1 of
// v_j(c) − v_j(c−1) − Σ_{i after j} v_i(K−1): the separation that makes
// greedy decoding of superincreasing digits unique (nil if some step is
// not positive).
func digitGap(v [][]*big.Float) *big.Float {
	var gap *big.Float
	rest := new(big.Float).SetPrec(160)
	for j := len(v) - 1; j >= 0; j-- {
		for c := 1; c < len(v[j]); c++ {
			d := new(big.Float).SetPrec(160).Sub(v[j][c], v[j][c-1])
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

// cgGap returns a lower bound on the distance between distinct subset
// sums of the binary increments v_j(1) ≈ g·s_j, s the Conway–Guy set: the
// integer subset sums of s are distinct, so the realized ones are at
// least g − 2·Σ_j |v_j(1) − g·s_j| apart. It returns nil if that is not
// positive.
func cgGap(v [][]*big.Float, g float64) *big.Float {
	s, err := subsetsum.ConwayGuy(len(v))
	if err != nil {
		return nil
	}
	gb := new(big.Float).SetPrec(160).SetFloat64(g)
	dev := new(big.Float).SetPrec(160)
	d := new(big.Float).SetPrec(160)
	for j := range v {
		d.Mul(gb, new(big.Float).SetInt64(s[len(v)-1-j]))
		d.Sub(v[j][1], d)
		dev.Add(dev, d.Abs(d))
	}
	gap := new(big.Float).SetPrec(160).Sub(gb, dev.Mul(dev, big.NewFloat(2)))
	if gap.Sign() <= 0 {
		return nil
	}
	return gap
}

// halfSums returns the 2^len(w) subset sums of w, indexed by subset mask.
func halfSums(w []float64) []float64 {
	sums := make([]float64, 1<<len(w))
	for m := 1; m < len(sums); m++ {
		low := m & -m
		sums[m] = sums[m^low] + w[bitIndex(low)]
	}
	return sums
}

func bitIndex(x int) int {
	i := 0
	for x > 1 {
		x >>= 1
		i++
	}
	return i
}

// kDigits returns the largest k with g·K^(k−1) ≤ wmax: the top point's
// step g·K^(k−1) must fit in one point's room.
func (a *multi) kDigits(g float64) int {
	if !(g > 0) || g > a.wmax {
		return 0
	}
	return 1 + int(math.Floor(math.Log(a.wmax/g)/math.Log(float64(a.k))+1e-12))
}

// minUnit is the smallest weight unit: a float64 probability near 1/K
// realizes a weight only to about 2^−51, and the realized gap is checked
// exactly anyway.
const minUnit = 0x1p-44

// planDigits designs a block of at most kmax points with digit (or
// Conway–Guy) weights; neutralKnown puts known points at the neutral row
// (Alg3). With fixedG > 0 the unit is fixed (Alg3's later blocks).
func (a *multi) planDigits(kmax int, neutralKnown bool, fixedG float64) (*blockPlan, error) {
	kmax = min(kmax, a.nUnk)
	b0 := a.budgetFor(nil, nil, neutralKnown)
	g := max(2*b0*(1+0x1p-12), minUnit)
	if fixedG > 0 {
		g = fixedG
	} else if a.emu != nil && !neutralKnown {
		// Emulation separates far below the budget; start from the last
		// block's unit and let the loop raise it.
		g = max(minUnit, 2*b0/64)
		if a.lastG > 0 {
			g = max(minUnit, min(g, a.lastG*0.97))
		}
	}
	for iter := 0; iter < 200; iter++ {
		k := min(a.kDigits(g), kmax)
		if k < 1 {
			return nil, &BudgetError{Model: a.m.Name, Budget: 2 * b0, Room: a.wmax}
		}
		gk := g
		if k == a.nUnk && fixedG == 0 {
			// Last block: spread the weights over all the room.
			gk = a.wmax / math.Pow(float64(a.k), float64(k-1))
		}
		idx := a.nextIdx(k)
		p := &blockPlan{kind: Blocks, g: gk}
		var err error
		if p.rows, err = a.digitRows(k, gk); err != nil {
			return nil, err
		}
		p.v = increments(p.rows)
		p.gap = digitGap(p.v)
		// Conway–Guy: one or more extra labels when the unit is coarse.
		if a.k == 2 && a.emu == nil && !neutralKnown && k < kmax && k <= 19 && gk > a.wmax*0x1p-24 {
			if kc := a.kConwayGuy(gk, min(kmax, 20)); kc > k {
				cp := &blockPlan{kind: Blocks, cg: true, g: gk}
				if cp.rows, err = a.cgRows(kc, gk); err != nil {
					return nil, err
				}
				cp.v = increments(cp.rows)
				cp.gap = cgGap(cp.v, gk)
				cidx := a.nextIdx(kc)
				cp.budget = a.budgetFor(cidx, cp.rows, neutralKnown)
				if cp.gap != nil && gapOK(cp.gap, cp.budget) {
					return cp, nil
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
		need *= 1 + 0x1p-12
		if p.gap == nil {
			// Realized weights not superincreasing: the unit is below what
			// the predictions resolve.
			g *= 1.5
			continue
		}
		gf, _ := p.gap.Float64()
		g = max(need, g*need/gf, g*1.01)
	}
	return nil, fmt.Errorf("decode: no block design converged for %s", a.m.Name)
}

// kConwayGuy returns the largest n ≤ nmax with u_n·g ≤ wmax.
func (a *multi) kConwayGuy(g float64, nmax int) int {
	u, _ := subsetsum.ConwayGuySeq(nmax)
	k := 0
	for n := 1; n <= nmax; n++ {
		if float64(u[n])*g <= a.wmax {
			k = n
		}
	}
	return k
}

// gapOK reports gap > 2·budget.
func gapOK(gap *big.Float, budget float64) bool {
	return gap.Cmp(new(big.Float).SetFloat64(2*budget)) > 0
}

// BudgetError reports a scorer whose error budget leaves no room for even
// one label per query: two labelings must differ by more than Budget in
// the sum, and one point can move it by at most Room.
type BudgetError struct {
	Model        string
	Budget, Room float64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("decode: %s: the score's error budget needs labelings %.3g apart in N·score, one point can move it by at most %.3g: not even one label per query is recoverable", e.Model, e.Budget, e.Room)
}

// planPrimes designs ICML Alg 1's block: the first k primes, row c ∝ p^c,
// k the largest whose products the budget separates.
func (a *multi) planPrimes(kmax int) (*blockPlan, error) {
	kmax = min(kmax, a.nUnk)
	if a.primeList == nil {
		var err error
		if a.primeList, err = primes.FirstN(min(a.n, 4096)); err != nil {
			return nil, err
		}
	}
	var best *blockPlan
	for k := 1; k <= min(kmax, len(a.primeList)); k++ {
		p, err := a.primeBlock(k)
		if err != nil {
			return nil, err
		}
		if p == nil {
			break
		}
		best = p
	}
	if best == nil {
		b0 := a.budgetFor(nil, nil, true)
		return nil, &BudgetError{Model: a.m.Name, Budget: 2 * b0, Room: math.Log(2)}
	}
	return best, nil
}

// primeBlock returns Alg 1's design for k points, or nil if the budget
// does not separate it.
func (a *multi) primeBlock(k int) (*blockPlan, error) {
	p := &blockPlan{kind: Primes, xmax: big.NewInt(1)}
	p.rows = make([]rowInfo, k)
	dev := 0.0 // max over points and classes of |v_j(c) − c·ln p_j|; ×k below bounds the sum
	for j := range k {
		pr := float64(a.primeList[j])
		row := make([]float64, a.k)
		var z float64
		for c := range a.k {
			z += math.Pow(pr, float64(c))
		}
		for c := range row {
			// Class c gets p^(K−1−c)/Σ: its term grows with c by ln p.
			row[c] = math.Pow(pr, float64(a.k-1-c)) / z
		}
		if math.IsInf(z, 0) || row[a.k-1] == 0 {
			return nil, nil
		}
		var err error
		if p.rows[j], err = a.rowInfo(row); err != nil {
			return nil, err
		}
		lnp := new(big.Float).SetPrec(160)
		if _, err := apa.Log(lnp, new(big.Float).SetUint64(a.primeList[j])); err != nil {
			return nil, err
		}
		for c := 1; c < a.k; c++ {
			d := new(big.Float).SetPrec(160).Sub(p.rows[j].t[c], p.rows[j].t[0])
			d.Sub(d, new(big.Float).Mul(lnp, big.NewFloat(float64(c))))
			f, _ := d.Float64()
			dev = max(dev, math.Abs(f)) // per point
		}
		for range a.k - 1 {
			p.xmax.Mul(p.xmax, new(big.Int).SetUint64(a.primeList[j]))
		}
	}
	dev *= float64(k) * (1 + 1e-9)
	p.v = increments(p.rows)
	idx := a.nextIdx(k)
	p.budget = a.budgetFor(idx, p.rows, true)
	// Distinct products X ≠ X' ≤ X_max: |ln X − ln X'| ≥ ln(1 + 1/X_max).
	xm := new(big.Float).SetInt(p.xmax)
	inv := new(big.Float).SetPrec(160).Quo(big.NewFloat(1), xm)
	l1p := new(big.Float).SetPrec(160)
	if _, err := apa.Log1p(l1p, inv); err != nil {
		return nil, err
	}
	l1p.Sub(l1p, new(big.Float).SetFloat64(2*dev))
	if l1p.Sign() <= 0 || !gapOK(l1p, p.budget) {
		return nil, nil
	}
	p.gap = l1p
	return p, nil
}

// Multi attacks s with the strategy of opt: it recovers all N labels with
// as few queries as the strategy allows, verifying every block.
func AttackMulti(s scorer.Server, opt MultiOptions) (*MultiResult, error) {
	a, err := newMulti(s.N(), s.K(), opt)
	if err != nil {
		return nil, err
	}
	res := &MultiResult{Verified: true}
	kmax := a.n
	fails := 0
	for a.nUnk > 0 {
		p, err := a.plan(kmax)
		if err != nil {
			return a.failed(res), err
		}
		idx := a.nextIdx(len(p.rows))
		if a.queries >= a.maxQ {
			return a.partial(res), fmt.Errorf("decode: query limit %d reached with %d labels unknown", a.maxQ, a.nUnk)
		}
		a.curIdx = idx
		score, err := s.Score(a.prediction(idx, p))
		a.queries++
		if err != nil {
			return a.failed(res), err
		}
		sigma, ok := a.decode(score, p)
		for _, i := range idx {
			a.putRow(i) // undo the block (learn rewrites known points)
		}
		if !ok {
			// Too large a block for what the scorer really does: shrink
			// it and query again.
			res.Retries++
			fails++
			if fails > 6 {
				return a.failed(res), fmt.Errorf("%w: %d consecutive blocks failed verification against %s (is the scorer model right?)", ErrInconsistent, fails, a.m.Name)
			}
			kmax = max(1, len(idx)/2)
			if p.emu {
				// The bracket check failed: the emulated separation was
				// estimated short. Its factor has grown; shrink by one.
				kmax = max(1, len(idx)-1)
			}
			if a.opt.Progress != nil {
				a.opt.Progress(a.n-a.nUnk, a.queries)
			}
			continue
		}
		fails = 0
		kmax = a.n
		a.learn(idx, sigma)
		res.Blocks = append(res.Blocks, len(idx))
		if a.opt.Progress != nil {
			a.opt.Progress(a.n-a.nUnk, a.queries)
		}
	}
	if opt.Check {
		ok, decisive, err := a.check(s)
		if err != nil {
			return a.failed(res), err
		}
		res.Checked, res.CheckDecisive = true, decisive
		if !ok {
			res.Verified = false
			return a.partial(res), fmt.Errorf("%w: the final check query does not match the recovered labels", ErrInconsistent)
		}
	}
	return a.partial(res), nil
}

func (a *multi) partial(res *MultiResult) *MultiResult {
	res.Labels = slices.Clone(a.labels)
	res.Queries = a.queries
	if a.nUnk > 0 {
		res.Verified = false
	}
	return res
}

// failed marks res unverified: an error means the scorer did not behave
// as the model says, so earlier blocks are suspect too.
func (a *multi) failed(res *MultiResult) *MultiResult {
	res.Verified = false
	return a.partial(res)
}

// plan designs the next block. Primes and Alg3 keep one design (their k
// and weights are fixed); its budget is recomputed for the block's own
// points and the block shrinks if the design does not fit there.
func (a *multi) plan(kmax int) (*blockPlan, error) {
	if a.opt.Strategy == Blocks {
		return a.planDigits(kmax, false, 0)
	}
	for {
		if a.fixed == nil || kmax < len(a.fixed.rows) || len(a.fixed.rows) > a.nUnk {
			var p *blockPlan
			var err error
			if a.opt.Strategy == Primes {
				p, err = a.planPrimes(kmax)
			} else {
				g := 0.0
				if a.fixed != nil {
					g = a.fixed.g
				}
				p, err = a.planDigits(kmax, true, g)
				if p != nil {
					p.kind = Alg3
				}
			}
			if err != nil {
				return nil, err
			}
			a.fixed = p
		}
		p := *a.fixed
		p.budget = a.budgetFor(a.nextIdx(len(p.rows)), p.rows, true)
		if gapOK(p.gap, p.budget) {
			return &p, nil
		}
		if len(p.rows) == 1 {
			return nil, &BudgetError{Model: a.m.Name, Budget: 2 * p.budget, Room: a.wmax}
		}
		kmax = len(p.rows) - 1
	}
}

// prediction builds the query: block rows at idx, known rows (Blocks) or
// neutral rows elsewhere. The prediction is kept between queries and only
// the points that changed are rewritten; release undoes the block.
func (a *multi) prediction(idx []int, p *blockPlan) *scorer.Pred {
	neutralKnown := p.kind != Blocks
	if a.pred == nil || a.predNeutralKnown != neutralKnown {
		a.pred = &scorer.Pred{K: a.k, P: make([]float64, a.n*a.width())}
		a.predNeutralKnown = neutralKnown
		for i := range a.labels {
			a.putRow(i)
		}
	}
	for j, i := range idx {
		copy(a.pred.P[i*a.width():(i+1)*a.width()], p.rows[j].row)
	}
	return a.pred
}

func (a *multi) width() int {
	if a.k > 2 {
		return a.k
	}
	return 1
}

// putRow writes point i's row outside any block.
func (a *multi) putRow(i int) {
	if a.pred == nil {
		return
	}
	r := &a.neutral
	if c := a.labels[i]; c >= 0 && !a.predNeutralKnown {
		r = &a.known[c]
	}
	w := a.width()
	copy(a.pred.P[i*w:(i+1)*w], r.row)
}

// decode reads the block's labels from a score and verifies them: the
// decoded labeling's exact sum must be within the budget of N·score, and
// the block's sums are more than twice the budget apart, so it is the only
// labeling that is.
func (a *multi) decode(score *big.Rat, p *blockPlan) ([]int, bool) {
	const prec = 192
	ns := new(big.Float).SetPrec(256).SetRat(new(big.Rat).Mul(score, new(big.Rat).SetInt64(int64(a.n))))
	t := new(big.Float).SetPrec(prec).Sub(ns, a.constC(p))
	if p.emu {
		return a.decodeEmu(score, t, p)
	}
	var sigma []int
	switch {
	case p.kind == Primes:
		sigma = a.decodePrimes(t, p)
	case p.cg:
		sigma = decodeCG(t, p)
	default:
		sigma = decodeDigits(t, p)
	}
	if sigma == nil {
		return nil, false
	}
	rem := new(big.Float).SetPrec(prec).Set(t)
	for j, cl := range sigma {
		rem.Sub(rem, p.v[j][cl])
	}
	if rem.Abs(rem).Cmp(new(big.Float).SetFloat64(p.budget)) > 0 {
		return nil, false
	}
	return sigma, true
}

// constC returns the exact sum of every term that does not depend on the
// block's labels (the block's points counted at class 0).
func (a *multi) constC(p *blockPlan) *big.Float {
	const prec = 192
	c := new(big.Float).SetPrec(prec)
	nNeutral := int64(a.nUnk - len(p.rows))
	for cl := range a.k {
		if p.kind != Blocks {
			nNeutral += int64(a.nKnown[cl])
		} else if a.nKnown[cl] > 0 {
			c.Add(c, new(big.Float).SetPrec(prec).Mul(a.known[cl].t[cl], new(big.Float).SetInt64(int64(a.nKnown[cl]))))
		}
	}
	c.Add(c, new(big.Float).SetPrec(prec).Mul(a.neutral.t[0], new(big.Float).SetInt64(nNeutral)))
	for _, r := range p.rows {
		c.Add(c, r.t[0])
	}
	return c
}

// decodeDigits reads superincreasing digits greedily, largest first: class
// c is taken when the remainder reaches v_j(c) − gap/2.
func decodeDigits(t *big.Float, p *blockPlan) []int {
	half := new(big.Float).SetPrec(160).Quo(p.gap, big.NewFloat(2))
	rem := new(big.Float).SetPrec(192).Set(t)
	sigma := make([]int, len(p.v))
	th := new(big.Float).SetPrec(192)
	for j := range p.v { // j = 0 carries the largest weight
		for c := len(p.v[j]) - 1; c >= 1; c-- {
			if rem.Cmp(th.Sub(p.v[j][c], half)) >= 0 {
				sigma[j] = c
				break
			}
		}
		rem.Sub(rem, p.v[j][sigma[j]])
	}
	return sigma
}

// decodeCG finds the subset sum closest to t by meet in the middle: the
// sums of each half, one half sorted, a binary search for each sum of the
// other (O(2^(k/2)·k), k ≤ 20). Verification then checks it exactly.
func decodeCG(t *big.Float, p *blockPlan) []int {
	k := len(p.v)
	w := make([]float64, k)
	for j := range w {
		w[j], _ = p.v[j][1].Float64()
	}
	h := k / 2
	a, b := halfSums(w[:h]), halfSums(w[h:])
	bi := make([]int, len(b))
	for i := range bi {
		bi[i] = i
	}
	slices.SortFunc(bi, func(x, y int) int { return cmp.Compare(b[x], b[y]) })
	tf, _ := t.Float64()
	bestA, bestB, bestD := 0, 0, math.Inf(1)
	for ma, sa := range a {
		want := tf - sa
		i, _ := slices.BinarySearchFunc(bi, want, func(x int, v float64) int { return cmp.Compare(b[x], v) })
		for _, c := range []int{i - 1, i} {
			if c >= 0 && c < len(bi) {
				if d := math.Abs(sa + b[bi[c]] - tf); d < bestD {
					bestA, bestB, bestD = ma, bi[c], d
				}
			}
		}
	}
	sigma := make([]int, k)
	for j := range h {
		sigma[j] = bestA >> j & 1
	}
	for j := h; j < k; j++ {
		sigma[j] = bestB >> (j - h) & 1
	}
	return sigma
}

// decodePrimes reads X = Π p_j^σ_j: row c ∝ p^(K−1−c) makes the increments
// v_j(c) ≈ c·ln p_j, so t ≈ ln X; X is exp(t) rounded to an integer, and
// its factorisation over the block's primes is the labeling.
func (a *multi) decodePrimes(t *big.Float, p *blockPlan) []int {
	if t.Sign() < 0 {
		t = new(big.Float) // X ≥ 1; verification rejects a bad score
	}
	bits := uint(p.xmax.BitLen()) + 64
	x := new(big.Float).SetPrec(bits)
	if _, err := apa.Exp(x, new(big.Float).SetPrec(bits).Set(t)); err != nil {
		return nil
	}
	x.Add(x, big.NewFloat(0.5))
	xi, _ := x.Int(nil)
	if xi.Sign() <= 0 || xi.Cmp(p.xmax) > 0 {
		return nil
	}
	sigma := make([]int, len(p.rows))
	q, r := new(big.Int), new(big.Int)
	for j := range sigma {
		pj := new(big.Int).SetUint64(a.primeList[j])
		for {
			q.QuoRem(xi, pj, r)
			if r.Sign() != 0 {
				break
			}
			xi.Set(q)
			sigma[j]++
		}
		if sigma[j] >= a.k {
			return nil
		}
	}
	if xi.Cmp(big.NewInt(1)) != 0 {
		return nil
	}
	return sigma
}

// learn records the block's labels.
func (a *multi) learn(idx, sigma []int) {
	for j, i := range idx {
		a.labels[i] = sigma[j]
		a.nUnk--
		a.dUnk -= float64(a.depth[i])
		a.nKnown[sigma[j]]++
		a.dKnown[sigma[j]] += float64(a.depth[i])
		a.putRow(i)
	}
	a.baseOK = false
	for a.pos < a.n && a.labels[a.order[a.pos]] >= 0 {
		a.pos++
	}
	if a.emu != nil {
		a.emuFactor = max(1.125, a.emuFactor*0.95)
	}
}

// check submits every point at its recovered label's row and compares the
// score with the exact sum of those rows' terms. It is decisive when one
// wrong label would move the sum by more than twice the budget.
func (a *multi) check(s scorer.Server) (ok, decisive bool, err error) {
	w := 1
	if a.k > 2 {
		w = a.k
	}
	pr := &scorer.Pred{K: a.k, P: make([]float64, a.n*w)}
	c := new(big.Float).SetPrec(192)
	for i, cl := range a.labels {
		copy(pr.P[i*w:(i+1)*w], a.known[cl].row)
	}
	for cl := range a.k {
		c.Add(c, new(big.Float).SetPrec(192).Mul(a.known[cl].t[cl], new(big.Float).SetInt64(int64(a.nKnown[cl]))))
	}
	budget := a.budgetFor(nil, nil, false)
	// The smallest move of one wrong label.
	minMove := math.Inf(1)
	for cl := range a.k {
		for o := range a.k {
			if o != cl {
				d := new(big.Float).Sub(a.known[cl].t[o], a.known[cl].t[cl])
				f, _ := d.Float64()
				minMove = min(minMove, f)
			}
		}
	}
	// The budget of the check is that of the worst case, all labels right;
	// a wrong label only raises the sum.
	if a.queries >= a.maxQ {
		return false, false, fmt.Errorf("decode: query limit %d reached before the check", a.maxQ)
	}
	score, err := s.Score(pr)
	a.queries++
	if err != nil {
		return false, false, err
	}
	ns := new(big.Float).SetPrec(256).SetRat(new(big.Rat).Mul(score, new(big.Rat).SetInt64(int64(a.n))))
	ns.Sub(ns, c)
	return ns.Abs(ns).Cmp(new(big.Float).SetFloat64(budget)) <= 0, minMove > 2*budget, nil
}

// PlanMulti is the dry run of opt's strategy for n labels of k classes: the
// blocks it would decode if every query verified. Known points are counted
// at the class with the largest term (the worst case for the budget).
func PlanMulti(n, k int, opt MultiOptions) (*MultiPlan, error) {
	a, err := newMulti(n, k, opt)
	if err != nil {
		return nil, err
	}
	worst := 0
	for c := range k {
		if a.known[c].tf[c] > a.known[worst].tf[worst] {
			worst = c
		}
	}
	out := &MultiPlan{Strategy: opt.Strategy}
	for a.nUnk > 0 {
		p, err := a.plan(a.n)
		if err != nil {
			return nil, err
		}
		if out.Queries == 0 {
			out.Gap, out.Budget = p.g, p.budget
			if p.kind == Primes {
				out.Gap, _ = p.gap.Float64()
			}
		}
		idx := a.nextIdx(len(p.rows))
		sigma := make([]int, len(idx))
		for j := range sigma {
			sigma[j] = worst
		}
		a.learn(idx, sigma)
		out.Queries++
		out.Blocks = append(out.Blocks, len(idx))
		if out.Queries > a.maxQ {
			return nil, fmt.Errorf("decode: plan exceeds %d queries", a.maxQ)
		}
	}
	if opt.Check {
		out.Queries++
	}
	return out, nil
}
