// This file implements the Leaderboard strategy: list decoding across
// queries for scores rounded to a few decimals.

package decode

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/big"
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

func (leaderboard) String() string { return "leaderboard" }

// setup orders the points as Blocks does; the strategy decodes by the
// rigorous budget alone.
func (s leaderboard) setup(a *multi) Strategy {
	slices.SortStableFunc(a.order, func(x, y int) int { return a.depth[x] - a.depth[y] })
	return s
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
	// cell is Δ, twice the budget of a query with no block; where the
	// model is emulated (Carry, Hybrid: a.emu set; Leaderboard's setup
	// makes no emulator) the width of sums one score leaves (carry.go,
	// resolution), recomputed before each query, and the state decodes by
	// emulated brackets rather than the rigorous budget.
	cell float64
	tgt  float64 // lbTargetFew or lbTargetMany
	// err is the first error computing a palette row (row).
	err error
	// maxFresh caps the fresh points of a query (lbMaxFresh; at most 32:
	// the fresh labels are a uint32 mask).
	maxFresh int
	// passes and opts are the descent's passes over the carried weights
	// and the rows it tries for each (2 and 6; Leaderboard's attacks of
	// few queries 3 and 10).
	passes, opts int
	// query designs and decodes the queries: the state itself (design
	// and decode), or Hybrid's list top over digits (hybrid.go), KList's.
	query lbQuery
	// countPartial: Result.Partial counts the queries that learned fewer
	// labels than they asked (KList's).
	countPartial bool
	// cwBuf is carryWeights' scratch, reused across queries.
	cwBuf struct {
		pairs   [][2]int32
		pv, dd0 []float64
		rb      []uint64
		aff     [][]int32
		live    []int32
		sg, pl  []float64
	}
}

// lbQuery is a list decoder's query design and decoding: design returns
// the next query's points and rows, decode keeps the candidates that
// explain its score and returns the labels learned.
type lbQuery interface {
	design() ([]int, []rowInfo, error)
	decode(score *big.Rat, idx []int, rs []rowInfo) (int, error)
}

func (leaderboard) attack(ctx context.Context, a *multi, s scorer.Server) (*Result, error) {
	if a.k != 2 {
		return a.failed(&Result{}), fmt.Errorf("decode: the leaderboard strategy needs K = 2, not %d", a.k)
	}
	st := newLbState(a)
	st.tgt = lbTargetMany
	if a.n <= lbFewN {
		st.tgt, st.passes, st.opts = lbTargetFew, 3, 10
	}
	return st.run(ctx, s)
}

// newLbState starts a list decoder: an empty list of one candidate, the
// state's own query design and decoding, the default caps.
func newLbState(a *multi) *lbState {
	st := &lbState{a: a, rng: rand.New(rand.NewPCG(0x6c62, 0x1d)), inD: make([]bool, a.n), cand: [][]uint8{{}}, maxFresh: lbMaxFresh, passes: 2, opts: 6}
	st.query = st
	return st
}

// run is the list decoder's attack: a query of the carried points and
// fresh ones at a time, until every label is learned.
func (st *lbState) run(ctx context.Context, s scorer.Server) (*Result, error) {
	res := &Result{Verified: true}
	if err := st.palette(); err != nil {
		return st.a.failed(res), err
	}
	return st.queries(ctx, s, res)
}

// queries runs the queries of st.query until every label is learned.
func (st *lbState) queries(ctx context.Context, s scorer.Server, res *Result) (*Result, error) {
	a, q := st.a, st.query
	design := func() ([]int, *blockPlan, error) {
		idx, rs, err := q.design()
		if err == nil && len(idx) == 0 {
			err = fmt.Errorf("decode: %v: nothing left to query (internal error)", a.st)
		}
		return idx, &blockPlan{rows: rs}, err
	}
	return a.queryLoop(ctx, s, res, st.countPartial, design, func(score *big.Rat, idx []int, p *blockPlan) (int, error) {
		got, err := q.decode(score, idx, p.rows)
		if err != nil {
			// OnFail's error, if any, stops the attack in place of err.
			return 0, cmp.Or(a.onFail(), err)
		}
		return got, nil
	})
}

// palette draws the weights of the rows the queries draw from: lbPalette
// random weights in [−W, W] (negative ones scaled into [−wneg, 0], what
// the model represents), half of them in [lbBeta·W, W]. A row's exact
// terms are computed when a query first uses it (row): a short attack
// uses few of them.
func (st *lbState) palette() error {
	a := st.a
	var err error
	if st.cell, _, err = a.firstCell(); err != nil {
		return err
	}
	for j := range lbPalette {
		var w float64
		if j%2 == 0 {
			w = a.wmax * (lbBeta + (1-lbBeta)*st.rng.Float64())
		} else {
			w = a.wmax * (2*st.rng.Float64() - 1)
			if w < 0 && a.wneg < a.wmax {
				// Within what the model can represent (setWmax):
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
	p1 := a.binP(p.w)
	ri, err := a.rowInfo([]float64{1 - p1, p1})
	if err != nil {
		st.err = cmp.Or(st.err, err)
		return p
	}
	vf, _ := new(big.Float).SetPrec(incPrec).Sub(ri.t[1], ri.t[0]).Float64()
	if math.IsInf(vf, 0) || math.IsNaN(vf) {
		st.err = cmp.Or(st.err, fmt.Errorf("decode: %s: a row of weight %.3g has an infinite term", a.m.Name, p.w))
		return p
	}
	p.ri, p.vf = ri, vf
	return p
}

// palRows returns the rows of palette rows rows[0], then rows[1], …,
// with room for spare more (one allocation: a row is 160 bytes).
func (st *lbState) palRows(spare int, rows ...[]int) []rowInfo {
	for _, r := range rows {
		spare += len(r)
	}
	rs := make([]rowInfo, 0, spare)
	for _, r := range rows {
		for _, p := range r {
			rs = append(rs, st.row(p).ri)
		}
	}
	return rs
}

// fresh returns up to n fresh points (unknown, not followers, not
// carried) in the block order: the engine's next free points, the
// carried ones left out.
func (st *lbState) fresh(n int) []int {
	out := slices.DeleteFunc(st.a.nextIdx(n+len(st.cD)), func(i int) bool { return st.inD[i] })
	return out[:min(n, len(out))]
}

// freshRows picks the rows of a query's fresh points: at most kmax (and
// a.opt.MaxBlock, and half the palette's large rows), none while the
// list of L entries exceeds lbMaxList, and fewer while the meet in the
// middle's L·2^⌈k/2⌉ exceeds lbMaxWork; distinct rows of large weight
// in random order. used marks them, and vf[k] is the variance of the
// first k fresh points' sum under uniform labels.
func (st *lbState) freshRows(kmax int) (fw []int, used map[int]bool, vf []float64) {
	L := len(st.cand)
	kmax = min(st.a.opt.blockCap(kmax), len(st.pos)/2)
	if L > lbMaxList {
		kmax = 0
	}
	for kmax > 0 && L<<((kmax+1)/2) > lbMaxWork {
		kmax--
	}
	perm := st.rng.Perm(len(st.pos))
	used = make(map[int]bool)
	fw, vf = make([]int, kmax), make([]float64, kmax+1)
	for j := range fw {
		fw[j] = st.pos[perm[j]]
		used[fw[j]] = true
		v := st.row(fw[j]).vf
		vf[j+1] = vf[j] + v*v/4
	}
	return fw, used, vf
}

// design returns the next query's points (carried, then fresh) and rows.
func (st *lbState) design() ([]int, []rowInfo, error) {
	a := st.a
	L := len(st.cand)
	nFresh := a.nUnk - len(st.cD)
	if a.emu != nil {
		// The final query's separation is the rigorous budget's, far
		// wider than an emulated bracket: Carry keeps listing.
		st.cell = st.resolution()
	} else if idx, rs, ok := st.final(nFresh); ok || st.err != nil {
		return idx, rs, st.err
	}
	fw, used, vf := st.freshRows(min(nFresh, st.maxFresh))
	kmax := len(fw)
	cw := st.carryWeights(math.Sqrt(vf[kmax]), used, 0)
	sl := st.carriedSums(cw)
	// The largest k whose expected list is at most st.tgt (the
	// expectation grows with k).
	k := lastFit(0, kmax, func(k int) bool {
		return lbExpected(sl, float64(L)*math.Exp2(float64(k)), math.Sqrt(vf[k]), st.cell) <= st.tgt
	})
	idx := append(slices.Clone(st.cD), st.fresh(k)...)
	return idx, st.palRows(0, cw, fw[:k]), st.err
}

// lastFit returns the largest x in [lo, hi] for which fits holds, by
// binary search (fits holds up to some x and not above it), lo if none
// above lo does; fits(lo) is not called.
func lastFit(lo, hi int, fits func(x int) bool) int {
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
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
	// included), over every pair or a fixed stride of them (⌈L²/step⌉).
	var sum float64
	step := max(1, L*L/lbPairs)
	for q := 0; q < L*L; q += step {
		d := sl[q/L] - sl[q%L]
		sum += math.Exp(-d * d / (4 * sf * sf))
	}
	sum /= float64((L*L + step - 1) / step)
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
