// This file implements the KList strategy: for K > 2 against a model that
// names its log, a list-decoded top of binary questions above Cross's
// mixed-radix digits (kties.go).

package decode

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"github.com/labelinf/labelinf/scorer"
)

// KList is Cross's K-ary code (kties.go) with a list-decoded top, for
// K > 2 against a model that names its log (float64-sklearn, torch-bce:
// every term is the server's own, so a labeling explains a score when its
// emulated score equals it). A query has two parts:
//
//   - The top: points asked a binary question. A point's label set M_i is
//     split in two halves (A_i: ⌈|M_i|/2⌉ of its labels, its lower ones
//     for an even set, chosen by a hash of the point and the query for
//     an odd one; B_i the rest) and its row gives the labels of one half
//     the term a and those of the other a + w, |w| up to W − ln K,
//     generic (a palette of random weights; a fresh point's sign by the
//     same hash, so that every labeling's bits look random). The top's points are the carried ones, whose values a list
//     of candidates (every labeling of them that explains every score so
//     far) leaves open, and up to klistParams.maxFresh fresh points. The
//     carried weights are chosen by Leaderboard's descent to push the
//     list's sums apart (leaderboard.go, carryWeights).
//   - The tail: Cross's mixed-radix digits (planRadixOn) over the next
//     points, their unit one spacing of the score (klistParams.rho), their room u
//     the cell the top's candidates are not separated within. Unlike
//     Cross's blocks it has no paired top (two points of one row, whose
//     labelings of equal sums tie): a tie leaves list entries that differ
//     on one or two points only, which no later query's top can push
//     apart by more than W (its fresh points spread the sum with
//     deviation about 1.4·W); every tail labeling has its own sum. The tail takes the
//     pool's points that fit its room (fitTail), not only a prefix, and
//     up to klistParams.group2 grouped digits of radix 2 last: a point read as
//     which of two groups of its labels (halves of six, or one label
//     against two), carried as that group, like a top point's half.
//
// A binary question on a point spreads the sum with variance w²/4 for one
// bit; six evenly spaced terms (a digit) spread it with 0.117·W² for
// 2.585 bits. A score whose sum spreads with deviation σ carries at most
// log2(√(2πe)·σ/δ) bits (δ the spacing), so the top's generic weights are
// where the range comes from, and the digits below fill the top's cell at
// the resolution so that no candidate's residual is wasted. The cell u
// and the number of fresh points k are chosen per query to maximize
// k + log2(u/unit) (the second term at most the bits the tail's points
// can carry), the bits the query asks for, subject to the expected list
// after the query staying at klistParams.target (Leaderboard's estimate, the cell
// replaced by u).
//
// Decoding: every list entry with every fresh labeling whose top sum
// leaves a residual within the rigorous budget of the tail's range (a meet
// in the middle over the fresh points, Leaderboard's window) is a top
// candidate; for each, every tail labeling whose sum lies within the
// budget of the residual (klTail: float64 sums, the window widened far
// beyond their rounding) is emulated whole, and the candidates whose
// emulated score equals the score survive. A subtree of the tail's last
// klistParams.bracket digits (one more when the last has two values) is skipped
// when the reports with each of its points at its least and at its
// largest computed term both miss the score: the summation is monotone
// in every term; a last digit with at most two values in the window is
// emulated directly. A candidate's residual is a double-double sum
// [Dek71] whose distance from the exact one is bounded and added to the
// window, and a candidate sets only the top terms it changes. Every point of the query on which
// the survivors agree keeps the labels they give it (a half of a top
// point, the label of a tail point; a point left with one label is
// learned); the points they disagree on are carried with the list of the
// survivors' distinct values on them, so that the tail's ambiguity is
// carried jointly with the top's. In the next query a carried point's
// values are split in two groups at random, its binary question. The
// labelings kept (the list's values × the label sets) are exactly the
// survivors on the query's points and hold every labeling that explained
// the scores before, so they hold every labeling that explains every
// score: a label is learned only when all of them have it, as strict as
// Cross (TestKListStrict checks it by brute force).
//
// The end drains (ending): once the labelings left are fewer than about
// four queries learn, fresh questions go only to points of two labels, so
// that no list value of several labels is left for a query after the
// list's last.
//
// Below klistParams.minN points KList is Cross: its last queries, which resolve the
// list, cost what the top gains. Against an assumed noise it is Cross
// too: the noise widens what explains a score far beyond the tail's unit
// of one spacing, and the lists grow with it (N = 2,000, K = 6, τ =
// 10^−15, seed 4: Gaussian 163 queries and 11 s of attacker CPU against
// Cross's 129 and 0.18 s, Laplace 196 and 30 s against 134 and 0.33 s).
//
// Against other models, or for K = 2, KList is [Cross]. catalog.Auto picks it
// for K > 2 against an unrounded model that names its log and sums its
// terms, the only targets the catalogue runs it on (where KBin falls back
// to it); for the mean it picks [KBin], KList's top over Hybrid's digits,
// which takes fewer queries there.
var KList Strategy = klist{}

// klist is KList; p, if set (tests), replaces its tuning.
type klist struct{ p *klistParams }

func init() { register(KList) }

func (klist) String() string { return "klist" }

// setup is setupKList's; without the K-ary code (K = 2, no exact terms),
// below klistParams.minN points or with noise the attack is Cross's.
func (s klist) setup(a *multi) Strategy {
	if !a.setupKList(tuned(s.p, defaultKList)) {
		return Cross
	}
	return s
}

// tuned returns the tuning in effect: the defaults def, or a test's p.
func tuned[T any](p *T, def func() T) T {
	if p != nil {
		return *p
	}
	return def()
}

// setupKList prepares KList's state (the base of KBin's) tuned by p:
// Cross's, the points in index order. It reports false, Cross's state
// left, where the list top does not apply.
func (a *multi) setupKList(p klistParams) bool {
	a.radix = p.radix
	a.setupCross()
	if a.mask == nil || !a.baseExact || a.n < p.minN || a.opt.Noise.Kind != 0 {
		return false
	}
	// Every term is the server's own: the points in index order, so
	// that a query's fresh and tail points share the summation's leaves
	// and an emulation recomputes few of them (as Carry's; seed 1 at
	// N = 25,000: the same queries, about 7% less CPU than depth order).
	for i := range a.order {
		a.order[i] = i
	}
	return true
}

// KList's constants: choices, not calibrated optima (BENCHMARKS.md, "K-ary
// list top").
const (
	// klPasses is the carried weights' descent's passes, klOpts the rows
	// it tries for each carried point (Leaderboard's 6: 3 queries fewer
	// on seed 1 for about 0.2 s more of attacker CPU).
	klPasses, klOpts = 1, 3
)

// klistParams tunes KList (and KBin's list top, kbinParams.klist):
// choices, not calibrated optima (BENCHMARKS.md, "K-ary list top"). Tests
// pass their own in a strategy value (klist{p: …}).
type klistParams struct {
	// radix is the tail's K-ary code's (Cross's) tuning.
	radix radixParams
	// rho is the tail's least unit in spacings (radixParams.rho for KList): a
	// unit below the spacing makes several tail labelings explain one score,
	// each a list entry.
	rho float64
	// target is the expected list after a query (the true labeling
	// included), maxFresh the most fresh points a query asks (the meet in
	// the middle holds 2^(k/2) sums a half), palette the number of palette
	// weights (half in [W'/2, W'] for fresh points, half in [−W', W'] for
	// carried ones, W' = W − ln K; k fresh points need 2k of them). Without
	// the tail's paired top the list is about a third of what it was, and
	// these are larger than before (12, 12, 64): seed 2 at N = 25,000,
	// K = 6: 1,365 queries against 1,375 (target/fresh/palette 12/12/64),
	// 1,368 (12/16/128), 1,363 (20/16/128, about 0.3 s more attacker CPU),
	// 1,364 (16/20/128; 16/16/256), 1,368 (20/16/64). The target is 20
	// since the faster decoder (BENCHMARKS.md, "KList speed"): with the
	// grouped tail digits, the 23 benchmark labelings at N = 25,000 took at
	// most 1,360 queries (mean 1,351.7) against 1,362 (1,354.3) at 16, for
	// about 15–20% more attacker CPU (per labeling a median 0.86 of the
	// version before the speed-ups at 16, alternated); 24 and 28 gave one or
	// two queries fewer on seed 1 and i mod 6 (1,356 and 1,359) for about
	// 15% and 35% more CPU than 20. With the hashed halves and the drained
	// end as well: at most 1,359 (mean 1,356.7) against main's 1,360
	// (1,358.4) at 16 without the grouped digits; 16 with them: seeds 1, 4,
	// 5 and all 0 1,360, 1,358, 1,359, 1,359 against 20's 1,356, 1,357,
	// 1,358, 1,359.
	target            float64
	maxFresh, palette int
	// bracket is the depth of the tail's subtrees bracketed before they
	// are listed (two emulations, against about K^bracket); one more when
	// the last digit has two values (a grouped digit or a point of two
	// labels), so that a bracket still rules out more than two labelings
	// (newTail).
	bracket int
	// endQueries is the queries' worth of bits below which KList drains
	// (ending).
	endQueries float64
	// minN is the least N KList attacks with its list top; below it KList
	// is Cross: with few points the list's last queries cost what the top
	// gains (float64-sklearn, seeds 1–3, Cross against the list top: N = 100,
	// K = 6: 6, 6, 6 against 7, 6, 6 queries; N = 200, K = 3: 7, 7, 7
	// against 8, 7, 8; N = 500, K = 6: 28, 28, 28 against 26, 26, 27).
	minN int
	// group2 bounds the tail's grouped digits of radix 2 (fitTail): a
	// point read as which of two groups of its labels, so that the tail's
	// product of radices fills its room at steps of one bit, not only of the
	// points' own radices (six and three at K = 6).
	group2 int
}

// defaultKList returns KList's tuning.
func defaultKList() klistParams {
	return klistParams{radix: defaultRadix(), rho: 1, target: 20, maxFresh: 16, palette: 128, bracket: 1, endQueries: 4, minN: 400, group2: 2}
}

// klRoomGrid is the tail rooms' grid, 2^(i/klRoomGrid): coarse, so that
// the tails' digit rows recur across queries.
const klRoomGrid = 8

// klEndScan is the number of unknown points below which KList counts the
// labelings left (ending).
const klEndScan = 1000

// klRowsMax bounds the cached top rows (a row is a few hundred bytes).
const klRowsMax = 1 << 14

// klState is one KList attack.
type klState struct {
	a  *multi
	lb *lbState   // the list, the carried points, the palette (nominal weights), the descent
	kb kbinParams // the tuning: KList's (its list top's, kb.klist) or KBin's
	// wTop is the largest top weight W'.
	wTop float64
	// vals[l][j] is the labels list entry l allows carried point
	// lb.cD[j]: a half of a binary question or one label of a tail. The
	// values of one point in the list are disjoint. lb.cand holds, for
	// each query, the bits of vals on its split (klQuery.dv).
	vals [][]uint64
	vm   []uint64 // update's buffer of the survivors' values
	rows map[klKey]rowInfo
	// spanRatio is the last tail's span over its room (its decoding
	// measures it).
	spanRatio float64
	// tailCarried counts the tail points carried into the list,
	// tailGrouped the tail's grouped digits, digits KBin's digits and
	// radix3 those of radix 3 or more (tests).
	tailCarried, tailGrouped, digits, radix3 int
	// bin: the tail is binary digits read from the residual (KBin,
	// kbin.go), not Cross's mixed-radix digits.
	bin bool
	// left is log2 of the labelings left at the last design (−1: not
	// counted), rate the bits the query before it learned.
	left, rate float64
	// q is the query being run.
	q *klQuery
}

// klKey identifies a top row: the labels at the larger probability and
// the weight.
type klKey struct {
	hi    uint64
	w     float64
	radix bool // KBin's digit of radix |hi| on the set hi, place value w
}

// klQuery is one query's design.
type klQuery struct {
	idx   []int // carried, fresh, tail points
	rows  []rowInfo
	nd, k int        // carried and fresh points
	tail  *blockPlan // nil: no tail
	tIdx  []int      // the tail's points
	room  float64    // the tail's room (design)
	// dv[j][v] is the labels of position j's value v (a label of them
	// its least): a top position's bits 0 and 1 (the two halves of its
	// set: its split), then a tail digit's (KList; its groups, or a label
	// each) or, for x = j − nd − k, one of len(rad) digits of unit gd
	// (KBin, kbin.go) of radix rad[x], its increment over value 0 about
	// v·gd·Π_{i<x} rad[i].
	dv  [][]uint64
	gd  float64
	rad []int
}

func (s klist) plan(context.Context, *multi) (*MultiPlan, error) { return nil, noDryRun(s) }

// noDryRun is what PlanMulti returns for s, a strategy whose queries
// follow the scores and which has no estimate from its construction
// (KList, KBin); BoundMulti returns the floor of any code.
func noDryRun(s Strategy) error {
	return fmt.Errorf("decode: the %s strategy adapts every query to the scores before it: it has no dry run", s)
}

func (s klist) attack(ctx context.Context, a *multi, srv scorer.Server) (*Result, error) {
	return runKList(ctx, a, srv, kbinParams{klist: tuned(s.p, defaultKList), passes: klPasses, opts: klOpts}, false)
}

// runKList runs a KList attack (bin: KBin's binary tail) tuned by kb
// (KList's: its list top's, kb.klist, and its descent's) on s: a query
// designed and decoded at a time.
func runKList(ctx context.Context, a *multi, s scorer.Server, kb kbinParams, bin bool) (*Result, error) {
	st := &klState{a: a, lb: newLbState(a), kb: kb, vals: [][]uint64{{}}, spanRatio: 1, bin: bin, left: -1}
	st.lb.passes, st.lb.opts = kb.passes, kb.opts
	if a.opt.debugKList != nil {
		a.opt.debugKList(st)
	}
	res := &Result{Verified: true}
	st.wTop = (a.tTop - a.tBot - math.Log(float64(a.k))) * a.radix.room
	if !(st.wTop > 0) {
		return a.failed(res), &BudgetError{Model: a.m.Name, Budget: 0, Room: a.wmax}
	}
	for j := range st.kb.klist.palette {
		var w float64
		if j%2 == 0 {
			w = st.wTop * (lbBeta + (1-lbBeta)*st.lb.rng.Float64())
			st.lb.pos = append(st.lb.pos, j)
		} else if st.bin {
			// KBin: the carried points' questions at full weight, the
			// descent choosing their signs (kbin.go, "carried weights").
			w = st.wTop
			if st.lb.rng.IntN(2) == 0 {
				w = -w
			}
		} else {
			w = st.wTop * (2*st.lb.rng.Float64() - 1)
		}
		// The descent reads the nominal weight (row is never computed).
		st.lb.pal = append(st.lb.pal, lbRow{w: w, done: true, vf: w})
	}
	st.lb.query, st.lb.countPartial = st, true
	return st.lb.queries(ctx, s, res)
}

// design designs the next query (st.q) for the list engine's loop.
func (st *klState) design() ([]int, []rowInfo, error) {
	q, err := st.designQuery()
	if err != nil {
		return nil, nil, err
	}
	st.q = q
	return q.idx, q.rows, nil
}

// decode decodes the score of st.q for the list engine's loop.
func (st *klState) decode(score *big.Rat, _ []int, _ []rowInfo) (int, error) {
	if st.bin {
		return st.decodeBin(score, st.q)
	}
	return st.decodeList(score, st.q)
}

// bisect returns the largest x in [lo, hi] that ok accepts, found in n
// halvings (ok(lo) assumed; lo if ok accepts no midpoint).
func bisect(lo, hi float64, n int, ok func(x float64) bool) float64 {
	for range n {
		if mid := (lo + hi) / 2; ok(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// split returns the lower ⌈r/2⌉ labels of the set m (r labels).
func split(m uint64) uint64 {
	h := (bits.OnesCount64(m) + 1) / 2
	var a uint64
	for range h {
		a |= m & -m
		m &= m - 1
	}
	return a
}

// mix64 is splitmix64's finalizer: a hash of x.
func mix64(x uint64) uint64 {
	x = x*0x9e3779b97f4a7c15 + 0x6a09e667f3bcc909
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// splitAt returns ⌈r/2⌉ labels of the set m (r ≥ 1 labels) chosen by a
// hash of key.
func splitAt(m uint64, key uint64) uint64 {
	cls := maskClasses(m)
	var out uint64
	x := key
	for t := range (len(cls) + 1) / 2 {
		x = mix64(x)
		u := t + int(x%uint64(len(cls)-t))
		cls[t], cls[u] = cls[u], cls[t]
		out |= 1 << cls[t]
	}
	return out
}

// question returns the row of point i asked its binary question (bit 0:
// the labels of half, bit 1: the rest of its set) with nominal increment
// w (bit 1's term minus bit 0's).
func (st *klState) question(i int, half uint64, w float64) (rowInfo, error) {
	a := st.a
	b := a.mask[i] &^ half
	if half == 0 || b == 0 || half&^a.mask[i] != 0 {
		return rowInfo{}, fmt.Errorf("decode: klist: point %d's halves %b, %b of %b (internal error)", i, half, b, a.mask[i])
	}
	hi := half
	if w < 0 {
		hi, w = maskAll(a.k)&^half, -w
	}
	// The labels of hi at probability q, the others at q·e^(−w) (cached).
	r, err := cachedRow(a, &st.rows, klRowsMax, klKey{hi: hi, w: w}, func(row []float64) {
		h := bits.OnesCount64(hi)
		e := math.Exp(-w)
		q := 1 / (float64(h) + float64(len(row)-h)*e)
		for c := range row {
			row[c] = q * e
			if hi>>c&1 == 1 {
				row[c] = q
			}
		}
	})
	if err != nil {
		return rowInfo{}, err
	}
	// Every label of a half has the same probability, so the same exact
	// and computed term: checked, since decoding takes one for all.
	for _, hm := range []uint64{half, b} {
		c := bits.TrailingZeros64(hm)
		for m := hm; m != 0; m &= m - 1 {
			if x := bits.TrailingZeros64(m); r.t[x].Cmp(r.t[c]) != 0 || r.lo[x] != r.lo[c] || r.hi[x] != r.hi[c] {
				return rowInfo{}, fmt.Errorf("decode: klist: the labels of one half get different terms under %s", a.m.Name)
			}
		}
	}
	return r, nil
}
