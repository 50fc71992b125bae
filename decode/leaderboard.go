// This file implements the Leaderboard strategy: list decoding across
// queries for scores rounded to a few decimals.

package decode

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/labelinf/labelinf/scorer"
)

// Leaderboard is a cross-query code for binary scorers whose score is
// rounded to D decimals (a leaderboard): N·score then pins the sum of the
// terms to a cell of width Δ = N·10^−D, far wider than a float's spacing,
// and a block code must keep every pair of block sums a cell apart,
// which caps a block at about log2(√(3k)·W/Δ) labels (the Erdős–Moser
// variance argument, see "How far from the floor"): 16 at N = 198, 8 at
// N = 25,000.
//
// Leaderboard does not separate. It keeps the list of every labeling of
// the undecided points (the carried points) that explains all scores so
// far, and each query gives the carried points and k fresh points
// generic weights of magnitude in [W/2, W] (W = the clip's ln((1−ε)/ε),
// 34.54 nats at ε = 10^−15), so that the L·2^k candidate sums spread over
// about √(Σw²)·√π/Δ cells, more than a block code's √(3k)·W/Δ because
// several sums may share a cell. The score's cell keeps the candidates
// whose exact sums lie within the rigorous budget of N·score (found by
// meet in the middle over the fresh points); the points on which all of
// them agree are learned, the others are carried into the next query
// with the surviving list. The carried points' weights are chosen by
// coordinate descent to push the list's sums apart (a pair is resolved
// when its sums land in different cells), and k is the largest for which
// the expected list after the query, L·2^k·Δ·∫f² under a Gaussian f of
// the sum, stays at most a target (64 for N ≤ 4096, else 16: lists cost
// CPU as their square). The last query, when the remaining
// fresh points fit a Conway–Guy set at a unit above the cell and the list
// can be spread wider than that set's span, separates every candidate.
//
// Verification is as strict as the block code's: a label is learned only
// when every labeling that explains every score within the model's
// rigorous error budget (no emulation) agrees on it; the list is
// exhaustive, so no labeling the model allows is left out.
var Leaderboard Strategy = leaderboard{}

type leaderboard struct{}

func init() { register(Leaderboard, "list") }

func (leaderboard) String() string     { return "leaderboard" }
func (leaderboard) knownNeutral() bool { return false }

// setup orders the points as Blocks does; the strategy decodes by the
// rigorous budget alone.
func (leaderboard) setup(a *multi) {
	slices.SortStableFunc(a.order, func(x, y int) int { return a.depth[x] - a.depth[y] })
}

// errNoDryRun: the strategy's queries follow the scores.
var errNoDryRun = errors.New("decode: the leaderboard strategy adapts every query to the scores before it: it has no dry run")

func (leaderboard) next(*multi, int) (*blockPlan, error) { return nil, errNoDryRun }

// A runner is a strategy that runs the whole attack itself rather than
// designing one block at a time (AttackMulti hands it over).
type runner interface {
	run(ctx context.Context, a *multi, s scorer.Server) (*Result, error)
}

// The strategy's constants.
const (
	// lbTargetFew and lbTargetMany are the expected number of
	// candidates a query may leave (the list's size after it, the true
	// labeling included) in an attack of few queries (N ≤ lbFewN) and of
	// many. Larger lists carry more points and spread the sums wider, so
	// fewer queries (N = 198, 23 labelings: at most 12 queries at 8, at
	// most 11 at 64; N = 25,000, seed 1: 2,417 at 8, 2,325 at 16, 2,264
	// at 32, 2,225 at 64), but the carried weights' descent costs CPU as
	// the square of the list (N = 25,000, seed 1: 0.5 s at 8, 1.0 s at
	// 16, 1.9 s at 32, 6 s at 64). Choices, not calibrated optima.
	lbTargetFew, lbTargetMany = 64, 16
	lbFewN                    = 4096
	// lbBeta is the smallest fresh weight, in units of W.
	lbBeta = 0.5
	// lbPalette is the number of precomputed rows (random weights in
	// [−W, W]); a query draws its rows from them without repetition.
	lbPalette = 512
	// lbMaxFresh caps the fresh points of one query (2^(k/2) sums a half
	// of the meet in the middle).
	lbMaxFresh = 24
	// lbMaxList caps the list: above it the next query adds no fresh
	// point. lbMaxWork caps L·2^⌈k/2⌉, the enumeration's work.
	lbMaxList = 1 << 12
	lbMaxWork = 1 << 22
	// lbOptList: the carried weights are optimized for lists up to this
	// size (the objective is over pairs); above it they are random.
	lbOptList = 96
	// lbPairs caps the pairs carryWeights and lbExpected look at.
	lbPairs = 1024
)

// lbRow is a palette row: its nominal weight and, once a query has used
// it (lbState.row), its exact terms and realized increment t(1) − t(0).
type lbRow struct {
	w    float64
	done bool
	ri   rowInfo
	vf   float64
}

// lbState is one Leaderboard attack.
type lbState struct {
	a    *multi
	rng  *rand.Rand
	pal  []lbRow
	pos  []int // palette rows of weight ≥ lbBeta·W
	cD   []int // carried points
	inD  []bool
	cand [][]uint8 // the list: labels of cD per candidate
	cur  int       // fresh cursor in a.order
	cell float64   // Δ: twice the budget of a query with no block
	tgt  float64   // lbTargetFew or lbTargetMany
	few  bool      // N ≤ lbFewN: a longer descent for the carried weights
	// emu: decode by emulated brackets (Carry) rather than the rigorous
	// budget; cell is then the width of sums one score leaves (carry.go,
	// resolution), recomputed before each query.
	emu bool
	// err is the first error computing a palette row (row).
	err error
	// maxFresh, if > 0, replaces lbMaxFresh (at most 32: the fresh
	// labels are a uint32 mask).
	maxFresh int
	// passes and opts, if > 0, replace the descent's passes over the
	// carried weights and the rows it tries for each (KList).
	passes, opts int
	// query, if set, designs and decodes the queries instead of design
	// and decode (Hybrid's list top over digits, hybrid.go).
	query lbQuery
	// cwBuf is carryWeights' scratch, reused across queries.
	cwBuf struct {
		pairs         [][2]int32
		pv, dd0       []float64
		rb            []uint64
		off, aff, fix []int32
		live          []int32
		sg, pl        []float64
	}
}

// lbQuery is a list decoder's query design and decoding: design returns
// the next query's points and rows, decode keeps the candidates that
// explain its score and returns the labels learned.
type lbQuery interface {
	design() ([]int, []rowInfo, error)
	decode(score *big.Rat, idx []int, rs []rowInfo) (int, error)
}

func (leaderboard) run(ctx context.Context, a *multi, s scorer.Server) (*Result, error) {
	if a.k != 2 {
		return a.failed(&Result{}), fmt.Errorf("decode: the leaderboard strategy needs K = 2, not %d", a.k)
	}
	st := newLbState(a)
	st.tgt = lbTargetMany
	if a.n <= lbFewN {
		st.tgt, st.few = lbTargetFew, true
	}
	return st.run(ctx, s)
}

// newLbState starts a list decoder: an empty list of one candidate.
func newLbState(a *multi) *lbState {
	return &lbState{a: a, rng: rand.New(rand.NewPCG(0x6c62, 0x1d)), inD: make([]bool, a.n), cand: [][]uint8{{}}}
}

// run is the list decoder's attack: a query of the carried points and
// fresh ones at a time, until every label is learned.
func (st *lbState) run(ctx context.Context, s scorer.Server) (*Result, error) {
	a := st.a
	res := &Result{Verified: true}
	if err := st.palette(); err != nil {
		return a.failed(res), err
	}
	var q lbQuery = st
	if st.query != nil {
		q = st.query
	}
	for a.nUnk > 0 {
		if err := ctx.Err(); err != nil {
			return a.partial(res), err
		}
		if a.queries >= a.maxQ {
			return a.partial(res), fmt.Errorf("decode: query limit %d reached with %d labels unknown", a.maxQ, a.nUnk)
		}
		idx, rs, err := q.design()
		if err != nil {
			return a.failed(res), err
		}
		p := &blockPlan{rows: rs}
		score, err := s.Score(ctx, a.prediction(idx, p))
		a.queries++
		for _, i := range idx {
			a.putRow(i)
		}
		if err != nil {
			if ctx.Err() != nil {
				return a.partial(res), err
			}
			return a.failed(res), err
		}
		got, err := q.decode(score, idx, rs)
		if err != nil {
			if ferr := a.onFail(); ferr != nil {
				return a.failed(res), ferr
			}
			return a.failed(res), err
		}
		res.Blocks = append(res.Blocks, got)
		if a.opt.Progress != nil {
			a.opt.Progress(a.n-a.nUnk, a.queries)
		}
	}
	return a.finish(ctx, s, res)
}

// palette draws the weights of the rows the queries draw from: lbPalette
// random weights in [−W, W] (negative ones scaled into [−wneg, 0], what
// the model represents), half of them in [lbBeta·W, W]. A row's exact
// terms are computed when a query first uses it (row): a short attack
// uses few of them.
func (st *lbState) palette() error {
	a := st.a
	b0 := a.budgetFor(nil, nil, false)
	st.cell = 2 * b0
	if !(st.cell > 0) || math.IsInf(st.cell, 0) || st.cell >= a.wmax {
		return &BudgetError{Model: a.m.Name, Budget: st.cell, Room: a.wmax}
	}
	for j := range lbPalette {
		var w float64
		if j%2 == 0 {
			w = a.wmax * (lbBeta + (1-lbBeta)*st.rng.Float64())
		} else {
			w = a.wmax * (2*st.rng.Float64() - 1)
			if w < 0 && a.wneg < a.wmax {
				// Within what the model can represent (setWneg):
				// no row whose 1 − p rounds to 0.
				w *= a.wneg / a.wmax
			}
		}
		st.pal = append(st.pal, lbRow{w: w})
		// The realized increment is w within far less than the 2^−30
		// that would move a weight across lbBeta·W but by chance.
		if w >= lbBeta*a.wmax {
			st.pos = append(st.pos, j)
		}
	}
	return nil
}

// row returns palette row r, its terms computed on first use. An error
// (a row the model refuses, an infinite term) is kept in st.err, which
// the query's design returns, and the row has increment 0.
func (st *lbState) row(r int) *lbRow {
	p := &st.pal[r]
	if p.done {
		return p
	}
	p.done = true
	a := st.a
	row := []float64{0, sigmoidNeg(p.w)}
	if p.w >= a.wmax {
		row[1] = a.pExt
	}
	row[0] = 1 - row[1]
	ri, err := a.rowInfo(row)
	if err != nil {
		st.err = cmp.Or(st.err, err)
		return p
	}
	v := new(big.Float).SetPrec(incPrec).Sub(ri.t[1], ri.t[0])
	vf, _ := v.Float64()
	if math.IsInf(vf, 0) || math.IsNaN(vf) {
		st.err = cmp.Or(st.err, fmt.Errorf("decode: %s: a row of weight %.3g has an infinite term", a.m.Name, p.w))
		return p
	}
	p.ri, p.vf = ri, vf
	return p
}

// fresh returns up to k fresh points (unknown, not carried), in order.
func (st *lbState) fresh(k int) []int {
	a := st.a
	for st.cur < a.n && (a.labels[a.order[st.cur]] >= 0 || st.inD[a.order[st.cur]]) {
		st.cur++
	}
	var idx []int
	for p := st.cur; p < a.n && len(idx) < k; p++ {
		if i := a.order[p]; a.labels[i] < 0 && !st.inD[i] {
			idx = append(idx, i)
		}
	}
	return idx
}

// freshRows picks the rows of a query's fresh points: at most kmax (and
// a.opt.MaxBlock, and half the palette's large rows), none while the
// list of L entries exceeds lbMaxList, and fewer while the meet in the
// middle's L·2^⌈k/2⌉ exceeds lbMaxWork; distinct rows of large weight
// in random order. used marks them, and vf[k] is the variance of the
// first k fresh points' sum under uniform labels, vinc(r) the
// increment of row r.
func (st *lbState) freshRows(kmax, L int, vinc func(r int) float64) (fw []int, used map[int]bool, vf []float64) {
	kmax = min(kmax, len(st.pos)/2)
	if mb := st.a.opt.MaxBlock; mb > 0 {
		kmax = min(kmax, mb)
	}
	if L > lbMaxList {
		kmax = 0
	}
	for kmax > 0 && L<<((kmax+1)/2) > lbMaxWork {
		kmax--
	}
	perm := st.rng.Perm(len(st.pos))
	used = make(map[int]bool)
	fw = make([]int, kmax)
	for j := range fw {
		fw[j] = st.pos[perm[j]]
		used[fw[j]] = true
	}
	vf = make([]float64, kmax+1)
	for j, r := range fw {
		v := vinc(r)
		vf[j+1] = vf[j] + v*v/4
	}
	return fw, used, vf
}

// design returns the next query's points (carried, then fresh) and rows.
func (st *lbState) design() ([]int, []rowInfo, error) {
	a := st.a
	L := len(st.cand)
	nFresh := a.nUnk - len(st.cD)
	if st.emu {
		// The final query's separation is the rigorous budget's, far
		// wider than an emulated bracket: Carry keeps listing.
		st.cell = st.resolution()
	} else if idx, rs, ok := st.final(nFresh); ok || st.err != nil {
		return idx, rs, st.err
	}
	maxFresh := lbMaxFresh
	if st.maxFresh > 0 {
		maxFresh = st.maxFresh
	}
	fw, used, vf := st.freshRows(min(nFresh, maxFresh), L, func(r int) float64 { return st.row(r).vf })
	kmax := len(fw)
	cw := st.carryWeights(math.Sqrt(vf[kmax]), used, 0)
	sl := st.carriedSums(cw)
	// The largest k whose expected list is at most st.tgt (the
	// expectation grows with k): binary search.
	ok := func(k int) bool {
		return lbExpected(sl, float64(L)*math.Exp2(float64(k)), math.Sqrt(vf[k]), st.cell) <= st.tgt
	}
	k, hiK := 0, kmax
	for k < hiK {
		mid := (k + hiK + 1) / 2
		if ok(mid) {
			k = mid
		} else {
			hiK = mid - 1
		}
	}
	idx := append(slices.Clone(st.cD), st.fresh(k)...)
	rs := make([]rowInfo, 0, len(idx))
	for _, r := range cw {
		rs = append(rs, st.row(r).ri)
	}
	for _, r := range fw[:k] {
		rs = append(rs, st.row(r).ri)
	}
	if st.err != nil {
		return nil, nil, st.err
	}
	if len(idx) == 0 {
		return nil, nil, errors.New("decode: leaderboard: nothing left to query (internal error)")
	}
	return idx, rs, nil
}

// lbExpected estimates the list after a query: 1 + (M − 1)·Δ·∫f², f the
// density of the sum, a mixture over the carried sums sl of Gaussians of
// deviation sf (the fresh points, M candidates in all); with no fresh
// point, the exact expectation for a uniform offset (a pair d < Δ apart
// shares a cell with probability 1 − d/Δ).
func lbExpected(sl []float64, m, sf, cell float64) float64 {
	L := len(sl)
	if sf == 0 {
		var p float64
		for x := range sl {
			for y := x + 1; y < L; y++ {
				if d := math.Abs(sl[x] - sl[y]); d < cell {
					p += 2 * (1 - d/cell)
				}
			}
		}
		return 1 + p/float64(L)
	}
	// The mean of exp(−d²/(4·sf²)) over ordered pairs (the diagonal
	// included), over every pair or a fixed stride of them.
	var sum float64
	step := max(1, L*L/lbPairs)
	cnt := 0
	for q := 0; q < L*L; q += step {
		d := sl[q/L] - sl[q%L]
		sum += math.Exp(-d * d / (4 * sf * sf))
		cnt++
	}
	sum /= float64(cnt)
	return 1 + (m-1)*cell*sum/(2*sf*math.Sqrt(math.Pi))
}

// carriedSums returns the float64 sums of the carried weights cw over the
// list.
func (st *lbState) carriedSums(cw []int) []float64 {
	sl := make([]float64, len(st.cand))
	for l, c := range st.cand {
		for j, b := range c {
			if b == 1 {
				sl[l] += st.row(cw[j]).vf
			}
		}
	}
	return sl
}

// carryWeights picks palette rows (not in used, which it extends) for the
// carried points by coordinate descent over pairs of candidates: with
// sep == 0 it minimizes Σ_pairs (1 − d²/(16·sf²))₊², a compact stand-in
// for exp(−d²/(4·sf²)), the pair's share of ∫f² (sums far apart rarely
// share a cell); with sep > 0 it minimizes Σ_pairs max(0, sep − |d|)²,
// zero once every pair is sep apart. With sep == 0 and more than
// lbPairs pairs it descends on a random sample of lbPairs of them.
func (st *lbState) carryWeights(sf float64, used map[int]bool, sep float64) []int {
	nd, L := len(st.cD), len(st.cand)
	cw := make([]int, nd)
	// free draws a palette row not in used; past 64 draws (a query with
	// nearly as many points as the palette has rows) it allows a repeat,
	// which costs separation, never correctness.
	free := func() int {
		for range 64 {
			if r := st.rng.IntN(len(st.pal)); !used[r] {
				return r
			}
		}
		return st.rng.IntN(len(st.pal))
	}
	for j := range cw {
		cw[j] = free()
		used[cw[j]] = true
	}
	if L < 2 || L > lbOptList || (sf == 0 && sep == 0) {
		return cw
	}
	sl := st.carriedSums(cw)
	s16 := 16 * sf * sf
	kern := func(d float64) float64 {
		if sep > 0 {
			e := max(0, sep-math.Abs(d))
			return e * e
		}
		u := d * d / s16
		if u >= 1 {
			return 0
		}
		return (1 - u) * (1 - u)
	}
	buf := &st.cwBuf
	pairs := buf.pairs[:0]
	if all := L * (L - 1) / 2; sep > 0 || all <= lbPairs {
		for x := range L {
			for y := x + 1; y < L; y++ {
				pairs = append(pairs, [2]int32{int32(x), int32(y)})
			}
		}
	} else {
		for len(pairs) < lbPairs {
			x, y := st.rng.IntN(L), st.rng.IntN(L)
			if x != y {
				pairs = append(pairs, [2]int32{int32(x), int32(y)})
			}
		}
	}
	buf.pairs = pairs
	pv := slices.Grow(buf.pv[:0], len(pairs))[:len(pairs)]
	buf.pv = pv
	cur := 0.0
	for q, p := range pairs {
		pv[q] = kern(sl[p[0]] - sl[p[1]])
		cur += pv[q]
	}
	passes, opts := 2, 6
	if st.few {
		passes, opts = 3, 10
	}
	if st.passes > 0 {
		passes = st.passes
	}
	if st.opts > 0 {
		opts = st.opts
	}
	// The pairs each point tells apart (its bits differ on them), in the
	// pairs' order, sign in the low bit (the first entry's bit): built
	// once from the entries' bits as bit sets (nw words of 64 points),
	// not by scanning every pair for every point.
	nw := (nd + 63) / 64
	rb := slices.Grow(buf.rb[:0], L*nw)[:L*nw]
	clear(rb)
	buf.rb = rb
	for l, c := range st.cand {
		for j, b := range c {
			if b == 1 {
				rb[l*nw+j/64] |= 1 << (j % 64)
			}
		}
	}
	off := slices.Grow(buf.off[:0], nd+1)[:nd+1]
	clear(off)
	buf.off = off
	for _, p := range pairs {
		x, y := int(p[0])*nw, int(p[1])*nw
		for w := range nw {
			for diff := rb[x+w] ^ rb[y+w]; diff != 0; diff &= diff - 1 {
				off[w*64+bits.TrailingZeros64(diff)+1]++
			}
		}
	}
	for j := range nd {
		off[j+1] += off[j]
	}
	affAll := slices.Grow(buf.aff[:0], int(off[nd]))[:off[nd]]
	buf.aff = affAll
	fill := append(buf.fix[:0], off[:nd]...)
	buf.fix = fill
	for q, p := range pairs {
		x, y := int(p[0])*nw, int(p[1])*nw
		for w := range nw {
			for diff := rb[x+w] ^ rb[y+w]; diff != 0; diff &= diff - 1 {
				j := w*64 + bits.TrailingZeros64(diff)
				affAll[fill[j]] = int32(q)<<1 | int32(rb[x+w]>>(j%64)&1)
				fill[j]++
			}
		}
	}
	// A pair whose kernel is 0 before the move and stays 0 after it
	// (|d| at least zeroAt, with a 2^−30 margin over the roundings) adds
	// exactly 0 to a gain: the gains skip them.
	zeroAt := 4 * sf
	if sep > 0 {
		zeroAt = sep
	}
	zeroAt *= 1 + 0x1p-30
	// The live pairs of a move (those a gain reads, sign in the low
	// bit), their differences before it, the sign (±1) its increment
	// takes in them and their kernels, contiguous for the gains' loop.
	live, dd0, sg, pl := buf.live[:0], buf.dd0[:0], buf.sg[:0], buf.pl[:0]
	defer func() { buf.live, buf.dd0, buf.sg, buf.pl = live, dd0, sg, pl }()
	rs := make([]int, opts) // the rows tried
	ds := make([]float64, opts)
	for range passes {
		for j := range cw {
			if cur == 0 {
				break
			}
			aff := affAll[off[j]:off[j+1]]
			dmax := 0.0
			for o := range rs {
				rs[o] = free()
				ds[o] = st.row(rs[o]).vf - st.row(cw[j]).vf
				dmax = max(dmax, math.Abs(ds[o]))
			}
			live, dd0, sg, pl = live[:0], dd0[:0], sg[:0], pl[:0]
			for _, e := range aff {
				p := pairs[e>>1]
				dd := sl[p[0]] - sl[p[1]]
				if pv[e>>1] == 0 && math.Abs(dd)-dmax >= zeroAt {
					continue
				}
				live = append(live, e)
				dd0 = append(dd0, dd)
				sg = append(sg, float64(2*(e&1)-1))
				pl = append(pl, pv[e>>1])
			}
			best, bestGain := cw[j], 0.0
			for o, r := range rs {
				d := ds[o]
				gain := 0.0
				if sep > 0 {
					for x := range dd0 {
						gain += pl[x] - kern(dd0[x]+sg[x]*d)
					}
				} else {
					// kern inlined and without branches (the descent's
					// inner loop): dd0 ± d, and (1 − u)² for u < 1, else
					// 0, as max(1 − u, 0)²; the same values as kern's.
					for x := range dd0 {
						dd := dd0[x] + sg[x]*d
						t := max(1-dd*dd/s16, 0)
						gain += pl[x] - t*t
					}
				}
				if gain > bestGain {
					best, bestGain = r, gain
				}
			}
			if best == cw[j] {
				continue
			}
			d := st.row(best).vf - st.row(cw[j]).vf
			for l, c := range st.cand {
				if c[j] == 1 {
					sl[l] += d
				}
			}
			// The pairs not live keep their kernel at 0 (the move is at
			// most dmax): only the live ones change.
			for _, e := range live {
				q := e >> 1
				p := pairs[q]
				dd := sl[p[0]] - sl[p[1]]
				var v float64
				if sep > 0 {
					v = kern(dd)
				} else if u := dd * dd / s16; u < 1 {
					v = (1 - u) * (1 - u) // kern inlined
				}
				cur += v - pv[q]
				pv[q] = v
			}
			if cur < 0 {
				cur = 0
			}
			delete(used, cw[j])
			used[best] = true
			cw[j] = best
		}
	}
	return cw
}

// final designs the last query if it can separate every candidate: the
// nFresh fresh points as a Conway–Guy set at a unit g above twice the
// budget, the list's sums more than the set's span (plus g) apart.
func (st *lbState) final(nFresh int) ([]int, []rowInfo, bool) {
	a := st.a
	if nFresh > maxCG || len(st.cand) > lbOptList {
		return nil, nil, false
	}
	idx := append(slices.Clone(st.cD), st.fresh(nFresh)...)
	g := st.cell * (1 + 0x1p-8)
	for range 4 {
		var frs []rowInfo
		span, gf := 0.0, math.Inf(1)
		if nFresh > 0 {
			if a.kConwayGuy(g, nFresh) < nFresh {
				return nil, nil, false
			}
			var err error
			if frs, err = a.cgRows(nFresh, g); err != nil {
				return nil, nil, false
			}
			v := increments(frs)
			gap := cgGap(v, g)
			if gap == nil {
				return nil, nil, false
			}
			for _, x := range v {
				f, _ := x[1].Float64()
				span += f
			}
			gf, _ = gap.Float64()
		}
		var crs []rowInfo
		sep := (span + g) * (1 + 0x1p-10)
		if len(st.cD) > 0 {
			cw := st.carryWeights(0, map[int]bool{}, sep)
			sl := st.carriedSums(cw)
			slices.Sort(sl)
			for x := 1; x < len(sl); x++ {
				if sl[x]-sl[x-1] < sep {
					return nil, nil, false
				}
			}
			for _, r := range cw {
				crs = append(crs, st.row(r).ri)
			}
		}
		rs := append(crs, frs...)
		if b := a.budgetFor(idx, rs, false); gf > 2*b*(1+0x1p-12) && g > 2*b*(1+0x1p-12) {
			return idx, rs, true
		}
		g *= 1 + 0x1p-6
	}
	return nil, nil, false
}

// decode keeps the candidates that explain the score, learns the points
// they agree on and carries the others; it returns the labels learned. A
// candidate explains the score when its exact sum lies within the
// rigorous budget of N·score (Leaderboard) or, with st.emu, when the
// emulated bracket of its reported score holds the score (Carry).
func (st *lbState) decode(score *big.Rat, idx []int, rs []rowInfo) (int, error) {
	a := st.a
	nd := len(st.cD)
	budget := a.budgetFor(idx, rs, false)
	p := &blockPlan{rows: rs}
	ns := new(big.Float).SetPrec(scorePrec).SetRat(new(big.Rat).Mul(score, new(big.Rat).SetInt64(int64(a.n))))
	t := new(big.Float).SetPrec(sumPrec).Sub(ns, a.constC(p))
	v := increments(rs)
	var explains func(l int, m uint32, above bool) bool
	if st.emu {
		explains = st.bracketTest(score, idx, rs)
		defer st.neutralize(idx)
	} else {
		bud := new(big.Float).SetFloat64(budget)
		exact := new(big.Float).SetPrec(sumPrec)
		diff := new(big.Float).SetPrec(sumPrec)
		explains = func(l int, m uint32, _ bool) bool {
			exact.SetInt64(0)
			for j, b := range st.cand[l] {
				if b == 1 {
					exact.Add(exact, v[j][1])
				}
			}
			for j := nd; j < len(v); j++ {
				if m>>(j-nd)&1 == 1 {
					exact.Add(exact, v[j][1])
				}
			}
			return diff.Sub(t, exact).Abs(diff).Cmp(bud) <= 0
		}
	}
	keep := st.window(t, budget, v, len(idx)-nd, explains)
	if len(keep) == 0 {
		return 0, fmt.Errorf("%w: no labeling of the %d carried and %d fresh points explains the score under %s", ErrInconsistent, nd, len(idx)-nd, a.m.Name)
	}
	return st.update(idx, keep), nil
}

// lbSurv is a candidate of a query: list entry l with fresh labels m
// (bit j for fresh point j).
type lbSurv struct {
	l int
	m uint32
}

// window returns the candidates (list entry, fresh labels) of a query of
// the carried points and k fresh points, increments v, whose float64 sum
// lies within budget of t (widened by a margin far above float64's
// rounding, so a superset of those whose exact sums do) and that
// explains accepts. The fresh labels are found by a meet in the middle
// [HS74]: halves A (the first k/2) and B, B's sums sorted.
func (st *lbState) window(t *big.Float, budget float64, v [][]*big.Float, k int, explains func(l int, m uint32, above bool) bool) []lbSurv {
	tf, _ := t.Float64()
	var keep []lbSurv
	vf := make([]float64, len(v))
	abs := math.Abs(tf) + 1
	for j := range v {
		vf[j], _ = v[j][1].Float64()
		abs += math.Abs(vf[j])
	}
	// The float64 filter keeps a superset: its sums are off by far less
	// than 2^−40 of the magnitudes involved; explains decides.
	margin := abs * 0x1p-40
	st.windowRange(tf-budget-margin, tf+budget+margin, tf, vf, k, func(l int, m uint32, above bool) bool {
		if explains(l, m, above) {
			keep = append(keep, lbSurv{l, m})
		}
		return true
	})
	return keep
}

// windowRange calls f on every candidate (list entry l, fresh labels m)
// of a query of the carried points and k fresh points, float64
// increments vf, whose float64 sum lies in [lo, hi] (above: the sum is
// at least tf), until f returns false: the meet in the middle of window.
func (st *lbState) windowRange(lo, hi, tf float64, vf []float64, k int, f func(l int, m uint32, above bool) bool) {
	nd := len(st.cD)
	kA := k / 2
	type sm struct {
		s float64
		m uint32
	}
	// sorted returns the 2^len(w) subset sums of w (float64, each
	// summed in w's order) in ascending order, equal sums by mask: S and
	// S + w_j merged weight by weight, O(2^k) rather than a sort's
	// O(k·2^k).
	sorted := func(w []float64) []sm {
		out := make([]sm, 1, 1<<len(w))
		buf := make([]sm, 0, 1<<len(w))
		for j, x := range w {
			n, b := len(out), uint32(1)<<j
			buf = buf[:0]
			i, k := 0, 0
			for i < n || k < n {
				if k == n || i < n && out[i].s <= out[k].s+x {
					buf = append(buf, out[i])
					i++
				} else {
					buf = append(buf, sm{out[k].s + x, out[k].m | b})
					k++
				}
			}
			out, buf = buf, out[:0]
		}
		return out
	}
	sortedA, sortedB := sorted(vf[nd:nd+kA]), sorted(vf[nd+kA:nd+k])
	for l, c := range st.cand {
		var sc float64
		for j, b := range c {
			if b == 1 {
				sc += vf[j]
			}
		}
		// A's sums ascend, so the first B sum ≥ lo − base descends: one
		// sweep of a pointer down B per list entry.
		x := len(sortedB)
		for _, a := range sortedA {
			base := sc + a.s
			for x > 0 && sortedB[x-1].s >= lo-base {
				x--
			}
			for y := x; y < len(sortedB) && sortedB[y].s <= hi-base; y++ {
				m := a.m | sortedB[y].m<<kA
				if !f(l, m, base+sortedB[y].s >= tf) {
					return
				}
			}
		}
	}
}

// update learns the points of the query idx on which every candidate of
// keep agrees, carries the others with the list of keep's distinct labels
// on them, and returns the number of labels learned.
func (st *lbState) update(idx []int, keep []lbSurv) int {
	nd := len(st.cD)
	old := st.cand
	return st.updateBy(idx, len(keep), func(s, j int) uint8 {
		if j < nd {
			return old[keep[s].l][j]
		}
		return uint8(keep[s].m >> (j - nd) & 1)
	})
}

// updateBy is update for nk candidates given by their labels: label(s, j)
// is candidate s's label of point idx[j] (nk ≥ 1).
func (st *lbState) updateBy(idx []int, nk int, label func(s, j int) uint8) int {
	a := st.a
	sigma := make([]int, len(idx))
	var open []int // positions in idx still undecided
	for j := range idx {
		sigma[j] = int(label(0, j))
		for s := 1; s < nk; s++ {
			if label(s, j) != label(0, j) {
				sigma[j] = -1
				open = append(open, j)
				break
			}
		}
	}
	for _, i := range st.cD {
		st.inD[i] = false
	}
	a.learn(idx, sigma)
	got := 0
	for _, c := range sigma {
		if c >= 0 {
			got++
		}
	}
	st.cD = st.cD[:0]
	for _, j := range open {
		st.cD = append(st.cD, idx[j])
		st.inD[idx[j]] = true
	}
	seen := make(map[string]bool, nk)
	st.cand = nil
	for s := range nk {
		c := make([]uint8, len(open))
		for x, j := range open {
			c[x] = label(s, j)
		}
		if !seen[string(c)] {
			seen[string(c)] = true
			st.cand = append(st.cand, c)
		}
	}
	return got
}

// RoundedBlockMax returns the most binary labels one query of any block
// code can decode from a score whose mean over n points is rounded to
// decimals (the reported N·score moves in steps of Δ = n·10^−decimals),
// when one point moves the sum by at most w (ln((1−ε)/ε) for a clip at
// ε): the largest k with
//
//	√((4^k − 1)/12) ≤ √k·w/(2Δ) + 1/2.
//
// A block code decodes its k labels from their one score with every other
// point's term fixed, so the reported value is f(σ) = round((c + s(σ))/Δ)
// for a constant c and the block's sum s(σ), and the 2^k labelings need
// 2^k distinct integers f. Under uniform σ those have variance at least
// (4^k − 1)/12 (2^k distinct integers), while f = (c + s)/Δ − φ with
// |φ| ≤ 1/2, so its deviation is at most sd(s)/Δ + 1/2 ≤ √k·w/(2Δ) + 1/2
// (the Erdős–Moser variance argument [Fre98] with the rounding's offset
// added; the float summation moves s by far less than Δ). Choosing the
// offset c does not help: it is already free in the bound. It returns 0
// for n < 1, decimals < 0 or w ≤ 0.
func RoundedBlockMax(n, decimals int, w float64) int {
	if n < 1 || decimals < 0 || !(w > 0) || math.IsInf(w, 0) {
		return 0
	}
	cell := float64(n) * math.Pow(10, -float64(decimals))
	k := 0
	for k < 62 {
		next := float64(k + 1)
		if math.Sqrt((math.Exp2(2*next)-1)/12) > math.Sqrt(next)*w/(2*cell)+0.5 {
			break
		}
		k++
	}
	return k
}
