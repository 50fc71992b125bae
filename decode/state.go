// This file holds the state of one multi-query attack: the rows it
// submits and their exact terms, the error budget of a query, the
// prediction, and the decoding and verification of one block's score.

package decode

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/labelinf/labelinf/scorer"
)

// The working precisions of the multi-query attack, in bits. The exact
// terms are accurate to 2^−128 relative (scorer.Model.Terms); incPrec
// holds their differences (increments, gaps) with 32 guard bits, sumPrec
// sums of up to 2^26 of them with 64, and scorePrec the rational N·score
// a server reports (the error budget allows 2^−100 relative for this
// conversion, scorer.Model.Bound).
const (
	incPrec   = 160
	sumPrec   = 192
	scorePrec = 256
)

// rowInfo is a prediction row and its exact terms.
type rowInfo struct {
	row        []float64    // [p] for binary, K values otherwise
	t          []*big.Float // exact term per class
	tf         []float64    // t as float64, rounded up
	max        float64      // max over classes of tf
	lo, hi, rn []float64    // emulation: computed-term range and nearest
	exact      bool         // emulation: lo = hi for every class (the server's own terms)
}

// multi is the state of one attack.
type multi struct {
	n, k   int
	m      *scorer.Model
	opt    MultiOptions
	st     Strategy // opt.Strategy, or Cross
	depth  []int
	maxD   int
	order  []int
	labels []int // −1: unknown

	neutral rowInfo
	known   []rowInfo // known[c]: the row given to a point of class c
	nKnown  []int
	dKnown  []float64
	nUnk    int
	dUnk    float64

	wmax float64 // largest usable increment V(c)−V(c−1) of one point
	// wneg is the largest usable decrement of a binary point (a row of
	// negative weight −wneg): wmax unless the model leaves the mirrored
	// extreme row unrepresentable (setWmax).
	wneg    float64
	pExt    float64 // the probability of the most extreme row
	tTop    float64 // its terms (class K−1 and 0), for BoundMulti
	tBot    float64
	queries int
	maxQ    int
	// neutralKnown: points already decoded are predicted neutral (1/K) in
	// later queries, rather than at their label's row (Primes, Alg3).
	neutralKnown bool

	emu        *scorer.Emulator
	lo, hi, rn *scorer.Terms // emulation: per-point computed terms
	filled     bool          // lo, hi, rn were filled once (fillBase)
	stale      []int         // points learned since the last fillBase
	exactLog   bool          // rows take the server's computed terms (a model naming its log)
	baseExact  bool          // the rows outside a block (neutral, known, dither) are all exact
	kSum       *big.Float    // knownSum's cache (nil: to compute)
	kProd      [][]countProd // knownSum's products of the dither rows' terms by their counts, as dcount
	// skipTo links the positions of the block order that nextIdx skips
	// (known points, followers) to the next one (findPos); posOf is each
	// point's position. Both nil until the first mark.
	skipTo, posOf []int32
	emuFactor     float64   // safety factor on the emulated separation
	fac           factorCtl // how the strategy steers emuFactor
	// terms caches the exact terms of the rows' probabilities (rowInfo).
	terms scorer.TermCache
	lastG float64 // the previous block's unit

	pred *scorer.Pred

	// The state of the block designers' refinements, each declared
	// beside its code and zero where the strategy in effect has none of
	// it. The list decoders keep theirs in their own state (lbState,
	// klState), which holds this one.
	fixedState   // one block design for the whole attack (strategy.go)
	partialState // partial decoding (partial.go)
	tieState     // parity ties (cross.go)
	kcodeState   // the K-ary code (kties.go)
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
	a := &multi{n: n, k: k, m: opt.Model, opt: opt, st: cmp.Or(opt.Strategy, Cross), nUnk: n,
		labels: slices.Repeat([]int{-1}, n), nKnown: make([]int, k), dKnown: make([]float64, k)}
	a.radix = defaultRadix()
	a.maxQ = opt.MaxQueries
	if a.maxQ <= 0 {
		// A right model spends at most N queries (one label each) plus a
		// few retries per block; 4N + 64 only stops a scorer that keeps
		// failing verification. It is a cap, not a tuned figure.
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
	var err error
	if a.neutral, err = a.rowInfo(slices.Repeat([]float64{1 / float64(k)}, k)); err != nil {
		return nil, err
	}
	if slices.ContainsFunc(a.neutral.t, func(t *big.Float) bool { return t.Cmp(a.neutral.t[0]) != 0 }) {
		return nil, fmt.Errorf("decode: the uniform prediction is not neutral under %s (its classes' terms differ)", a.m.Name)
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
	a.st = a.st.setup(a)
	return a, nil
}

// emuRow fills a row's computed-term ranges.
func (a *multi) emuRow(r *rowInfo) {
	if a.emu == nil {
		return
	}
	r.lo, r.hi, r.rn = make([]float64, len(r.t)), make([]float64, len(r.t)), make([]float64, len(r.t))
	// The range and nearest value of each exact term (functions of the
	// term alone: a term equal to one of the first 8 classes' takes its
	// values).
	for c, t := range r.t {
		same := -1
		if c < 8 {
			same = slices.IndexFunc(r.t[:c], func(u *big.Float) bool { return !u.IsInf() && u.Cmp(t) == 0 })
		}
		switch {
		case t.IsInf():
			r.lo[c], r.hi[c], r.rn[c] = math.Inf(1), math.Inf(1), math.Inf(1)
		case same >= 0:
			r.lo[c], r.hi[c], r.rn[c] = r.lo[same], r.hi[same], r.rn[same]
		default:
			r.lo[c], r.hi[c] = a.emu.TermRange(t)
			r.rn[c] = a.emu.Nearest(t)
		}
	}
	// The model names its log: the server's own term, bit for bit; a term
	// outside the faithful range would mean the model contradicts itself,
	// and keeps the range.
	for c, t := range r.t {
		if !a.exactLog || t.IsInf() {
			continue
		}
		if v, ok, err := a.emu.ComputedTerm(r.row, a.k, c); ok && err == nil && v >= r.lo[c] && v <= r.hi[c] {
			r.lo[c], r.hi[c], r.rn[c] = v, v, v
		}
	}
	r.exact = slices.Equal(r.lo, r.hi)
}

// rowInfo computes a row's exact terms; row has K entries (binary: the
// class-1 probability is row[1]).
func (a *multi) rowInfo(row []float64) (rowInfo, error) {
	r := row
	if a.k == 2 {
		r = []float64{row[1]}
	}
	t, err := a.m.TermsCached(r, &a.terms)
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

// setWmax finds the largest increment one point can carry, wmax: the
// terms of the most extreme row the scorer accepts (class K−1 at the
// smallest probability that survives clipping), split over K−1 steps; and
// the largest decrement of a binary point, wneg.
func (a *multi) setWmax() error {
	a.pExt = math.SmallestNonzeroFloat64
	if !a.m.Exact {
		clip, err := a.m.Clip()
		if err != nil {
			return err
		}
		if clip.Eps != nil || clip.Floor != nil {
			a.pExt = 0 // clipped up to eps, or the log clamped
		} else {
			// The smallest positive value of the format that float64 holds.
			f := a.m.Loss.Format
			e := f.Emin() - int64(f.Prec()) + 1
			a.pExt = math.Ldexp(1, int(max(e, -1074)))
		}
	}
	row := make([]float64, a.k)
	row[a.k-1] = a.pExt
	row[0] = 1 - a.pExt
	ri, err := a.rowInfo(row)
	if err != nil {
		return err
	}
	top, bot := ri.t[a.k-1], ri.t[0]
	if top.IsInf() {
		return fmt.Errorf("decode: %s takes the log of 0 unclipped", a.m.Name)
	}
	a.tTop, _ = top.Float64()
	a.tBot, _ = bot.Float64()
	w, _ := new(big.Float).Sub(top, bot).Float64()
	// For K > 2 keep 1% headroom: the top point's middle classes must stay
	// distinct; a binary point can use all of it.
	// 2^−30 below the extreme row's increment: the rows are float64
	// probabilities, whose rounding (2^−52 relative) must not push the top
	// weight past what one point can carry.
	a.wmax = w * (1 - 0x1p-30)
	if a.k > 2 {
		a.wmax = w / float64(a.k-1) * 0.99
	}
	if !(a.wmax > 0) {
		return fmt.Errorf("decode: %s leaves no room for a weight", a.m.Name)
	}
	// The largest decrement one binary point can carry, wneg. A model
	// that clips its probabilities or floors its log (pExt = 0) gives
	// every row finite terms, and a row of weight −wmax mirrors the
	// extreme row: wneg = wmax. An unclipped model computes the class-0
	// probability as 1 − p in its format from p = row[1], a float64
	// rounded to the format, so the mirrored row [q, 1 − q] is
	// representable only for q at least 2^−P, P the format's precision
	// (at most float64's 53): binary32 gives at most 24·ln 2 ≈ 16.6 nats
	// where its positive side reaches 103.3 (a palette drawing weights in
	// [−wmax, wmax] designed rows whose 1 − p rounds to 0, an infinite
	// term).
	a.wneg = a.wmax
	if a.k != 2 || a.pExt == 0 {
		return nil
	}
	prec := 53
	if !a.m.Exact {
		prec = min(prec, int(a.m.Loss.Format.Prec()))
	}
	q := max(a.pExt, math.Ldexp(1, -prec))
	if ri, err = a.rowInfo([]float64{q, 1 - q}); err != nil {
		return err
	}
	w, _ = new(big.Float).Sub(ri.t[0], ri.t[1]).Float64()
	if ri.t[0].IsInf() || !(w > 0) {
		return fmt.Errorf("decode: %s leaves no room for a negative weight", a.m.Name)
	}
	// The same 2^−30 margin as wmax: the row's float64 probability
	// rounds, and must not round to 1.
	a.wneg = min(a.wmax, w*(1-0x1p-30))
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
			tf := a.known[c].tf[c]
			if a.dither != nil {
				tf = a.ditherMax[c]
			}
			b.SumT += float64(a.nKnown[c]) * tf
			b.SumDT += a.dKnown[c] * tf
			if a.nKnown[c] > 0 {
				b.Max = max(b.Max, tf)
			}
		}
	}
	b.SumT += nNeutral * a.neutral.max
	b.SumDT += dNeutral * a.neutral.max
	if nNeutral > 0 {
		b.Max = max(b.Max, a.neutral.max)
	}
	// Round the float64 sums up. 2^−40 covers recursive summation's
	// γ(N) = N·2^−53 for N ≤ 2^13; for larger N the sums may be low by up
	// to γ(N) ≤ 2^−27 relative, inside the 2^−12 margin (unitMargin) the
	// block code keeps on twice the budget.
	b.SumT *= 1 + 0x1p-40
	b.SumDT *= 1 + 0x1p-40
	e := a.m.Bound(b)
	smax := (b.SumT + e) / float64(a.n)
	return e + float64(a.n)*a.opt.Noise.HalfWidth(smax, a.n)*(1+0x1p-40)
}

// nextIdx returns the next k unknown points in the block order, followers
// of ties skipped.
func (a *multi) nextIdx(k int) []int {
	idx := make([]int, 0, k)
	for p := a.findPos(0); p < a.n && len(idx) < k; p = a.findPos(p + 1) {
		if i := a.order[p]; a.labels[i] < 0 && (a.leader == nil || a.leader[i] < 0) {
			idx = append(idx, i)
		}
	}
	return idx
}

// findPos returns the first position q ≥ p in the block order whose point
// nextIdx has not marked skipped (a.n if none): a union-find over the
// positions, each skipped one linked to the next, with path halving, so
// that nextIdx does not walk the runs of known points and followers
// before the next unknown point.
func (a *multi) findPos(p int) int {
	if a.skipTo == nil {
		return p
	}
	for p < a.n && a.skipTo[p] != int32(p) {
		nx := a.skipTo[p]
		if int(nx) < a.n {
			a.skipTo[p] = a.skipTo[nx]
		}
		p = int(nx)
	}
	return p
}

// markSkip marks point i, now known or a follower, for nextIdx to skip.
// Both states are final until the point is known (a follower is learned
// with its leader), so a mark is never undone.
func (a *multi) markSkip(i int) {
	if a.skipTo == nil {
		a.skipTo = make([]int32, a.n)
		a.posOf = make([]int32, a.n)
		for p, j := range a.order {
			a.skipTo[p] = int32(p)
			a.posOf[j] = int32(p)
		}
	}
	p := a.posOf[i]
	a.skipTo[p] = p + 1
}

// increments returns v[j][c] = t_j(c) − t_j(0).
func increments(rs []rowInfo) [][]*big.Float {
	v := make([][]*big.Float, len(rs))
	for j, r := range rs {
		v[j] = make([]*big.Float, len(r.t))
		for c := range r.t {
			v[j][c] = new(big.Float).SetPrec(incPrec).Sub(r.t[c], r.t[0])
		}
	}
	return v
}

// prediction builds the query: block rows at idx, known rows (a strategy
// that keeps known points at their label's row, neutralKnown false) or
// neutral rows elsewhere. The prediction is kept between queries and only
// the points that changed are rewritten; release undoes the block.
func (a *multi) prediction(idx []int, p *blockPlan) *scorer.Pred {
	if a.pred == nil {
		a.pred = &scorer.Pred{K: a.k, P: make([]float64, a.n*predWidth(a.k))}
		for i := range a.labels {
			a.putRow(i)
		}
	}
	for j, i := range idx {
		copy(a.pred.P[i*predWidth(a.k):(i+1)*predWidth(a.k)], p.rows[j].row)
	}
	return a.pred
}

// predWidth returns the entries of a point in a prediction of k classes
// (scorer.Pred: one for binary, k otherwise).
func predWidth(k int) int {
	if k > 2 {
		return k
	}
	return 1
}

// knownRow returns the row of known point i of class c.
func (a *multi) knownRow(i, c int) *rowInfo {
	if a.dither != nil {
		return &a.dither[c][ditherIdx(i)]
	}
	return &a.known[c]
}

// ditherRows is the number of dither rows per class; ditherIdx spreads
// them over the points by a multiplicative hash (Knuth's 2654435761), so
// that no two leaves of the summation tree hold the same pattern.
const ditherRows = 16

func ditherIdx(i int) int { return int(uint32(i) * 2654435761 >> 28) }

// putRow writes point i's row outside any block.
func (a *multi) putRow(i int) {
	if a.pred == nil {
		return
	}
	r := &a.neutral
	if c := a.labels[i]; c >= 0 && !a.neutralKnown {
		r = a.knownRow(i, c)
	}
	w := predWidth(a.k)
	copy(a.pred.P[i*w:(i+1)*w], r.row)
}
