// This file implements the KList strategy: for K > 2 against a model that
// names its log, a list-decoded top of binary questions above Cross's
// mixed-radix digits (kties.go).

package decode

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"slices"

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
//     far) leaves open, and up to klMaxFresh fresh points. The
//     carried weights are chosen by Leaderboard's descent to push the
//     list's sums apart (leaderboard.go, carryWeights).
//   - The tail: Cross's mixed-radix digits (planRadixOn) over the next
//     points, their unit one spacing of the score (klRho), their room u
//     the cell the top's candidates are not separated within. Unlike
//     Cross's blocks it has no paired top (two points of one row, whose
//     labelings of equal sums tie): a tie leaves list entries that differ
//     on one or two points only, which no later query's top can push
//     apart by more than W (its fresh points spread the sum with
//     deviation about 1.4·W); every tail labeling has its own sum. The tail takes the
//     pool's points that fit its room (fitTail), not only a prefix, and
//     up to klGroup2 grouped digits of radix 2 last: a point read as
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
// after the query staying at klTarget (Leaderboard's estimate, the cell
// replaced by u).
//
// Decoding: every list entry with every fresh labeling whose top sum
// leaves a residual within the rigorous budget of the tail's range (a meet
// in the middle over the fresh points, Leaderboard's window) is a top
// candidate; for each, every tail labeling whose sum lies within the
// budget of the residual (klTail: float64 sums, the window widened far
// beyond their rounding) is emulated whole, and the candidates whose
// emulated score equals the score survive. A subtree of the tail's last
// klBracket digits (one more when the last has two values) is skipped
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
// Below klMinN points KList is Cross: its last queries, which resolve the
// list, cost what the top gains. Against an assumed noise it is Cross
// too: the noise widens what explains a score far beyond the tail's unit
// of one spacing, and the lists grow with it (N = 2,000, K = 6, τ =
// 10^−15, seed 4: Gaussian 163 queries and 11 s of attacker CPU against
// Cross's 129 and 0.18 s, Laplace 196 and 30 s against 134 and 0.33 s).
//
// Against other models, or for K = 2, KList is [Cross]. catalog.Auto picks it
// for K > 2 against an unrounded model that names its log and sums its
// terms; for the mean it picks [KBin], KList's top over Hybrid's digits.
var KList Strategy = klist{}

type klist struct{}

func init() { register(KList) }

func (klist) String() string     { return "klist" }
func (klist) knownNeutral() bool { return false }

// setup is Cross's; without the K-ary code (K = 2, no exact terms), below
// klMinN points or with noise the attack is Cross's.
func (klist) setup(a *multi) {
	cross{}.setup(a)
	if a.mask == nil || !a.baseExact || a.n < klMinN || a.opt.Noise.Kind != 0 {
		a.st = Cross
		return
	}
	// Every term is the server's own: the points in index order, so
	// that a query's fresh and tail points share the summation's leaves
	// and an emulation recomputes few of them (as Carry's; seed 1 at
	// N = 25,000: the same queries, about 7% less CPU than depth order).
	for i := range a.order {
		a.order[i] = i
	}
}

// errKListDryRun: the strategy's queries follow the scores.
var errKListDryRun = errors.New("decode: the klist strategy adapts every query to the scores before it: it has no dry run")

func (klist) next(*multi, int) (*blockPlan, error) { return nil, errKListDryRun }

// KList's constants: choices, not calibrated optima (BENCHMARKS.md, "K-ary
// list top").
const (
	// klPasses is the carried weights' descent's passes, klOpts the rows
	// it tries for each carried point (Leaderboard's 6: 3 queries fewer
	// on seed 1 for about 0.2 s more of attacker CPU).
	klPasses, klOpts = 1, 3
)

// klRho is the tail's least unit in spacings (radixRho for KList): a
// unit below the spacing makes several tail labelings explain one score,
// each a list entry.
var klRho = 1.0

// klTarget is the expected list after a query (the true labeling
// included), klMaxFresh the most fresh points a query asks (the meet in
// the middle holds 2^(k/2) sums a half), klPalette the number of palette
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
var klTarget, klMaxFresh, klPalette = 20.0, 16, 128

// klRoomGrid is the tail rooms' grid, 2^(i/klRoomGrid): coarse, so that
// the tails' digit rows recur across queries.
const klRoomGrid = 8

// klBracket is the depth of the tail's subtrees bracketed before they
// are listed (two emulations, against about K^klBracket); one more when
// the last digit has two values (a grouped digit or a point of two
// labels), so that a bracket still rules out more than two labelings
// (newTail).
var klBracket = 1

// klEndScan is the number of unknown points below which KList counts the
// labelings left (ending); klEndQueries the queries' worth of bits below
// which it drains.
const klEndScan = 1000

var klEndQueries = 4.0

// klRowsMax bounds the cached top rows (a row is a few hundred bytes).
const klRowsMax = 1 << 14

// klMinN is the least N KList attacks with its list top; below it KList
// is Cross: with few points the list's last queries cost what the top
// gains (float64-sklearn, seeds 1–3, Cross against the list top: N = 100,
// K = 6: 6, 6, 6 against 7, 6, 6 queries; N = 200, K = 3: 7, 7, 7
// against 8, 7, 8; N = 500, K = 6: 28, 28, 28 against 26, 26, 27).
var klMinN = 400

// debugKList, if set (by tests), is given the state of each attack.
var debugKList func(st *klState)

// klState is one KList attack.
type klState struct {
	a  *multi
	lb *lbState // the list, the carried points, the palette (nominal weights), the descent
	// wTop is the largest top weight W'.
	wTop float64
	// vals[l][j] is the labels list entry l allows carried point
	// lb.cD[j]: a half of a binary question or one label of a tail. The
	// values of one point in the list are disjoint. lb.cand holds, for
	// each query, the bits of vals on its split (klQuery.s0).
	vals [][]uint64
	rows map[klKey]klRow
	// spanRatio is the last tail's span over its room.
	spanRatio float64
	// tailCarried counts the tail points carried into the list, digits
	// KBin's digits and radix3 those of radix 3 or more (tests).
	tailCarried, digits, radix3 int
	// bin: the tail is binary digits read from the residual (KBin,
	// kbin.go), not Cross's mixed-radix digits.
	bin bool
	// tailGrouped counts the tail's grouped digits (tests).
	tailGrouped int
	// left is log2 of the labelings left at the last design (−1: not
	// counted), rate the bits the query before it learned.
	left, rate float64
}

// klKey identifies a top row: the labels at the larger probability and
// the weight.
type klKey struct {
	hi    uint64
	w     float64
	radix bool // KBin's digit of radix |hi| on the set hi, place value w
}

// klRow is a cached top row and, for each label, the least label of the
// same exact and computed terms.
type klRow struct {
	ri rowInfo
	eq []uint8
}

// klQuery is one query's design.
type klQuery struct {
	idx    []int // carried, fresh, tail points
	rows   []rowInfo
	nd, k  int        // carried and fresh points
	s0     []uint64   // top position j: the labels of bit 0 (the rest of its set: bit 1)
	c0, c1 []int      // top position j: a label of bit 0 and of bit 1
	tail   *blockPlan // nil: no tail
	tIdx   []int      // the tail's points
	// l digits of unit gd after the top (KBin, kbin.go): position
	// nd+k+j has radix rad[j], value v the labels dv[j][v] (dc[j][v] one
	// of them), its increment over value 0 about v·gd·Π_{i<j} rad[i].
	l   int
	gd  float64
	rad []int
	dv  [][]uint64
	dc  [][]int
	// tGrp: tail position j's digit's groups of labels (nil: one a label).
	tGrp [][]uint64
}

// digit returns digit j of the reading n of q's digits.
func (q *klQuery) digit(n uint64, j int) uint64 {
	for _, r := range q.rad[:j] {
		n /= uint64(r)
	}
	return n % uint64(q.rad[j])
}

func (klist) run(ctx context.Context, a *multi, s scorer.Server) (*Result, error) {
	return newKlState(a, false).run(ctx, s)
}

// newKlState starts a KList attack (bin: KBin's binary tail).
func newKlState(a *multi, bin bool) *klState {
	st := &klState{a: a, lb: newLbState(a), vals: [][]uint64{{}}, rows: make(map[klKey]klRow), spanRatio: 1, bin: bin, left: -1}
	st.lb.passes, st.lb.opts = klPasses, klOpts
	return st
}

// run is the attack: a query designed and decoded at a time.
func (st *klState) run(ctx context.Context, s scorer.Server) (*Result, error) {
	a := st.a
	if debugKList != nil {
		debugKList(st)
	}
	res := &Result{Verified: true}
	st.wTop = (a.tTop - a.tBot - math.Log(float64(a.k))) * radixRoom
	if !(st.wTop > 0) {
		return a.failed(res), &BudgetError{Model: a.m.Name, Budget: 0, Room: a.wmax}
	}
	for j := range klPalette {
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
	for a.nUnk > 0 {
		if err := ctx.Err(); err != nil {
			return a.partial(res), err
		}
		if a.queries >= a.maxQ {
			return a.partial(res), fmt.Errorf("decode: query limit %d reached with %d labels unknown", a.maxQ, a.nUnk)
		}
		q, err := st.design()
		if err != nil {
			return a.failed(res), err
		}
		score, err := s.Score(ctx, a.prediction(q.idx, &blockPlan{rows: q.rows}))
		a.queries++
		for _, i := range q.idx {
			a.putRow(i)
		}
		if err != nil {
			if ctx.Err() != nil {
				return a.partial(res), err
			}
			return a.failed(res), err
		}
		var got int
		if st.bin {
			got, err = st.decodeBin(score, q)
		} else {
			got, err = st.decode(score, q)
		}
		if err != nil {
			if ferr := a.onFail(); ferr != nil {
				return a.failed(res), ferr
			}
			return a.failed(res), err
		}
		res.Blocks = append(res.Blocks, got)
		if got < len(q.idx) {
			res.Partial++
		}
		if a.opt.Progress != nil {
			a.opt.Progress(a.n-a.nUnk, a.queries)
		}
	}
	return a.finish(ctx, s, res)
}

// pool returns up to n free points (unknown, not followers, not carried)
// in the block order.
func (st *klState) pool(n int) []int {
	a := st.a
	var out []int
	for p := a.pos; p < a.n && len(out) < n; p++ {
		p = a.findPos(p)
		if p >= a.n {
			break
		}
		if i := a.order[p]; a.labels[i] < 0 && a.leader[i] < 0 && !st.lb.inD[i] {
			out = append(out, i)
		}
	}
	return out
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

// topRow returns the row of a binary question: the labels of hi at
// probability q, the others at q·e^(−w), w ≥ 0. Rows are cached.
func (st *klState) topRow(hi uint64, w float64) (rowInfo, []uint8, error) {
	return st.cachedRow(klKey{hi: hi, w: w}, func(row []float64) {
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
}

// cachedRow returns the row of key, made by fill (given K zeros) on
// first use, and for each label the least label of the same exact and
// computed terms.
func (st *klState) cachedRow(key klKey, fill func(row []float64)) (rowInfo, []uint8, error) {
	if r, ok := st.rows[key]; ok {
		return r.ri, r.eq, nil
	}
	row := make([]float64, st.a.k)
	fill(row)
	r, err := st.a.rowInfo(row)
	if err != nil {
		return rowInfo{}, nil, err
	}
	eq := make([]uint8, st.a.k)
	for d := range eq {
		eq[d] = uint8(d)
		for c := range d {
			if r.t[d].Cmp(r.t[c]) == 0 && r.lo[d] == r.lo[c] && r.hi[d] == r.hi[c] {
				eq[d] = uint8(c)
				break
			}
		}
	}
	if len(st.rows) >= klRowsMax {
		clear(st.rows)
	}
	st.rows[key] = klRow{r, eq}
	return r, eq, nil
}

// question returns the row of point i asked its binary question (bit 0:
// the labels of half, bit 1: the rest of its set) with nominal increment
// w (bit 1's term minus bit 0's), and a label of each half.
func (st *klState) question(i int, half uint64, w float64) (rowInfo, int, int, error) {
	a := st.a
	b := a.mask[i] &^ half
	if half == 0 || b == 0 || half&^a.mask[i] != 0 {
		return rowInfo{}, 0, 0, fmt.Errorf("decode: klist: point %d's halves %b, %b of %b (internal error)", i, half, b, a.mask[i])
	}
	hi := half
	if w < 0 {
		hi = maskAll(a.k) &^ half
	}
	r, eq, err := st.topRow(hi, math.Abs(w))
	if err != nil {
		return rowInfo{}, 0, 0, err
	}
	c0, c1 := bits.TrailingZeros64(half), bits.TrailingZeros64(b)
	// Every label of a half has the same probability, so the same exact
	// and computed term: checked, since decoding takes one for all.
	for _, hm := range []uint64{half, b} {
		c := bits.TrailingZeros64(hm)
		for m := hm; m != 0; m &= m - 1 {
			if eq[bits.TrailingZeros64(m)] != eq[c] {
				return rowInfo{}, 0, 0, fmt.Errorf("decode: klist: the labels of one half get different terms under %s", a.m.Name)
			}
		}
	}
	return r, c0, c1, nil
}

// design returns the next query.
func (st *klState) design() (*klQuery, error) {
	a, lb := st.a, st.lb
	L, nd := len(st.vals), len(lb.cD)
	// Each carried point's split: its list values in two groups (a
	// binary question's two halves stay the two), and the entries' bits
	// on it.
	s0 := st.splits()
	lb.cand = make([][]uint8, L)
	for l, e := range st.vals {
		lb.cand[l] = make([]uint8, nd)
		for j, v := range e {
			if v&s0[j] == 0 {
				lb.cand[l][j] = 1
			}
		}
	}
	pool := st.pool(klMaxFresh + radixBlockMax)
	// Points of an even number of labels first: they take the fresh
	// binary questions, whose answers are then fair coins (one bit each),
	// and points of an odd number go to the tail, whose mixed-radix digits
	// read log2 |M_i| bits whatever |M_i| (a question on three labels
	// carries H(1/3) = 0.918 bits). Seeds 1, 8, 13 and i mod 6 at
	// N = 25,000, K = 6: 1,385, 1,385, 1,384, 1,389 queries against
	// 1,393, 1,397, 1,393, 1,395 in order (list target 12 against 16:
	// the tail's rows vary more, for about 0.1 s more of attacker CPU).
	slices.SortStableFunc(pool, func(x, y int) int {
		return bits.OnesCount64(a.mask[x])&1 - bits.OnesCount64(a.mask[y])&1
	})
	fw, used, vf := lb.freshRows(min(len(pool), klMaxFresh), L, func(r int) float64 { return lb.pal[r].vf })
	kmax := len(fw)
	if !st.bin && st.ending() {
		// The drain: only points of two labels take fresh questions
		// (their halves are single labels), the others go to the tail.
		slices.SortStableFunc(pool, func(x, y int) int {
			return cmp.Compare(min(1, bits.OnesCount64(a.mask[x])^2), min(1, bits.OnesCount64(a.mask[y])^2))
		})
		n2 := 0
		for n2 < len(pool) && bits.OnesCount64(a.mask[pool[n2]]) == 2 {
			n2++
		}
		kmax = min(kmax, n2)
	}
	ulpN, unit := a.radixSpacing(klRho)
	// The cell below which two top candidates are not told apart without
	// a tail: a few spacings (the summation's rounding).
	cell0 := 2 * ulpN
	sep := 0.0
	if kmax == 0 {
		sep = 2 * cell0
	}
	cw := lb.carryWeights(math.Sqrt(vf[kmax]), used, sep)
	sl := lb.carriedSums(cw)
	if st.bin {
		return st.designBin(s0, pool, fw, vf, cw, sl)
	}
	// The cell u and the fresh count k: the most bits asked, k + log2 u,
	// with the expected list at most klTarget. A tail needs room for a
	// few digits at the unit.
	maxRoom := float64(a.k-1) * a.wmax * radixRoom
	minRoom := float64(a.k) * unit
	tgt := klTarget
	bestK, bestU, bestF := 0, 0.0, math.Inf(-1)
	// The bits the tail's points can carry after k fresh ones, at most
	// (their digits' log2 |M_i|): near the end of the attack the tail
	// runs out of points before it fills a room.
	capBits := make([]float64, len(pool)+1)
	for x := len(pool) - 1; x >= 0; x-- {
		capBits[x] = capBits[x+1] + math.Log2(float64(bits.OnesCount64(a.mask[pool[x]])))
	}
	// k + log2 u grows with k but where the cap on the room binds: the
	// ends and the middle are tried, every k near the end.
	ks := []int{0, kmax / 2, kmax}
	if len(pool) < klMaxFresh+radixBlockMax/4 {
		ks = ks[:0]
		for k := range kmax + 1 {
			ks = append(ks, k)
		}
	}
	for _, k := range slices.Compact(ks) {
		m := float64(L) * math.Exp2(float64(k))
		var u float64
		if k == 0 {
			// The exact expectation of a uniform offset: not linear in
			// the cell; bisect on a log scale.
			lo, hi := 0.0, math.Log2(maxRoom/cell0)
			if lbExpected(sl, m, 0, cell0) > tgt && L > 1 {
				u = 0
			} else {
				for range 24 {
					mid := (lo + hi) / 2
					if lbExpected(sl, m, 0, cell0*math.Exp2(mid)) <= tgt {
						lo = mid
					} else {
						hi = mid
					}
				}
				u = cell0 * math.Exp2(lo)
			}
		} else {
			e1 := lbExpected(sl, m, math.Sqrt(vf[k]), 1) - 1
			u = maxRoom
			if e1 > 0 {
				u = min(maxRoom, (tgt-1)/e1)
			}
		}
		if u < minRoom {
			// No tail: the candidates must be told apart at the cell.
			if k > 0 && lbExpected(sl, m, math.Sqrt(vf[k]), cell0) > tgt {
				continue
			}
			u = cell0
		}
		f := float64(k)
		if u >= minRoom {
			f += min(math.Log2(u/unit), capBits[k]-capBits[min(k+radixBlockMax, len(pool))])
		}
		if f > bestF {
			bestK, bestU, bestF = k, u, f
		}
	}
	k := bestK
	q := &klQuery{nd: nd, k: k}
	q.rows = make([]rowInfo, 0, len(pool)+nd)
	if err := st.askTop(q, s0, pool[:k], fw, cw); err != nil {
		return nil, err
	}
	rest := pool[k:]
	if a.opt.MaxBlock > 0 {
		rest = rest[:min(len(rest), max(0, a.opt.MaxBlock-k))]
	}
	if bestU >= minRoom && len(rest) > 0 {
		// The tail's digits span about u: its top digit's room, scaled
		// once by the realized span.
		// The tail's room on a coarse grid (its rows recur across
		// queries), scaled by the previous tail's span over its room.
		room := math.Exp2(math.Floor(math.Log2(bestU/st.spanRatio)*klRoomGrid) / klRoomGrid)
		rest = st.fitTail(rest, room)
		p, err := a.planRadixOn(rest, room, klRho, false)
		if err != nil {
			a.digitGroups = nil
			return nil, err
		}
		q.tail, q.tIdx = p, rest[:len(p.rows)]
		q.tGrp = make([][]uint64, len(q.tIdx))
		for j, i := range q.tIdx {
			if q.tGrp[j] = a.digitGroups[i]; q.tGrp[j] != nil {
				st.tailGrouped++
			}
		}
		a.digitGroups = nil
		_, span := st.tailRange(p, q.tIdx)
		if sf, _ := span.Float64(); sf > 0 {
			st.spanRatio = sf / room
		}
		q.idx = append(q.idx, q.tIdx...)
		q.rows = append(q.rows, q.tail.rows...)
	}
	if len(q.idx) == 0 {
		return nil, errors.New("decode: klist: nothing left to query (internal error)")
	}
	return q, nil
}

// askTop appends to q the top's questions: the carried points (splits
// s0, palette rows cw) and the fresh points fresh (their sets' halves,
// palette rows fw).
func (st *klState) askTop(q *klQuery, s0 []uint64, fresh, fw, cw []int) error {
	a, lb := st.a, st.lb
	for j, i := range lb.cD {
		if err := st.ask(q, i, s0[j], lb.pal[cw[j]].vf); err != nil {
			return err
		}
	}
	for j, i := range fresh {
		half, w := split(a.mask[i]), lb.pal[fw[j]].vf
		if !st.bin {
			// Neither which half takes bit 0 nor which labels of an odd
			// set share the larger half follows the labels' order: a
			// hash of the point and the query picks them, so that a
			// labeling's bits and its sum's place among the candidates'
			// are those of a random labeling whatever the labeling. With
			// the lower half at bit 0 and positive weights, a constant
			// labeling's fresh sum was the least or the largest of all
			// (few candidates near it: 1,306 queries at N = 25,000,
			// K = 6) and i mod 6's (bits 000111 repeated) near the
			// middle (1,365, the most of the 23 benchmark labelings).
			// (KBin shuffles its point order instead, kbin.go.)
			key := uint64(i) | uint64(a.queries)<<32
			if bits.OnesCount64(a.mask[i])&1 == 1 {
				// The larger half keeps the smaller term (w > 0): the
				// more likely answer adds less to the sum, whose
				// magnitude sets the score's spacing (torch-bce,
				// K = 3, N = 25,000, seeds 1–3: 2,041, 2,041, 2,039
				// queries with random signs here too against 2,031,
				// 2,034, 2,027 before the hash).
				half = splitAt(a.mask[i], key)
			} else if mix64(key^0x5bd1e995)&1 == 1 {
				w = -w
			}
		}
		if err := st.ask(q, i, half, w); err != nil {
			return err
		}
	}
	return nil
}

// ask appends to q point i asked its binary question (bit 0: the labels
// of half) with nominal increment w.
func (st *klState) ask(q *klQuery, i int, half uint64, w float64) error {
	r, c0, c1, err := st.question(i, half, w)
	if err != nil {
		return err
	}
	q.idx, q.s0, q.rows = append(q.idx, i), append(q.s0, half), append(q.rows, r)
	q.c0, q.c1 = append(q.c0, c0), append(q.c1, c1)
	return nil
}

// leftBits returns log2 of the number of labelings left: the list's
// (the sum over its entries of the product of their values' sizes) times
// those of the other unknown points (Π |M_i|).
func (st *klState) leftBits() float64 {
	a := st.a
	free := 0.0
	for i, c := range a.labels {
		if c < 0 && !st.lb.inD[i] {
			free += math.Log2(float64(bits.OnesCount64(a.mask[i])))
		}
	}
	n := 0.0
	for _, e := range st.vals {
		p := 1.0
		for _, v := range e {
			p *= float64(bits.OnesCount64(v))
		}
		n += p
	}
	return free + math.Log2(n)
}

// ending reports whether the attack drains: the labelings left are fewer
// than klEndQueries queries learn (at the last query's rate). A fresh
// question on a point of three or more labels leaves a set as its list
// value, asked again only once the list agrees on it: two queries at the
// end that learn little (seeds 1–4, i mod 6 at N = 25,000, K = 6: the
// last two queries learned about 25–40 and 6–22 bits against 50 for
// those before). Draining leaves the last queries tail digits and points
// of two labels, each settled by one query.
func (st *klState) ending() bool {
	if st.a.nUnk > klEndScan {
		return false
	}
	b := st.leftBits()
	if st.left >= 0 {
		st.rate = st.left - b
	}
	st.left = b
	return st.rate > 0 && b <= klEndQueries*st.rate
}

// klSplitMaxList is the largest list whose carried points' splits are
// chosen to tell its entries apart (splits); above it they are random.
const klSplitMaxList = 256

// splits returns each carried point's split: the labels of bit 0, a
// union of some of its list values (the others are bit 1). A point with
// two values has one split. For a point with more, the values are
// grouped so as to tell apart the pairs of entries that the points before
// it (fewest values first) leave closest: the pair (x, y), told apart by
// h of them so far, weighs 4^−h, and the grouping of the most weight
// between its groups is taken. Two entries with the same bits on every
// carried point get the same carried sum and cannot be told apart by the
// query's top; random groups left about 9 such pairs a query and 30 told
// apart by one point (seed 1 at N = 25,000, K = 6, list of 29 on
// average). Any grouping keeps the decoding exact: it only sets the
// carried points' questions.
func (st *klState) splits() []uint64 {
	lb := st.lb
	L, nd := len(st.vals), len(lb.cD)
	s0 := make([]uint64, nd)
	vals := make([][]uint64, nd)
	for j := range nd {
		for _, e := range st.vals {
			if !slices.Contains(vals[j], e[j]) {
				vals[j] = append(vals[j], e[j])
			}
		}
	}
	random := func(j int) {
		vs := vals[j]
		lb.rng.Shuffle(len(vs), func(x, y int) { vs[x], vs[y] = vs[y], vs[x] })
		for _, v := range vs[:(len(vs)+1)/2] {
			s0[j] |= v
		}
	}
	if L > klSplitMaxList {
		for j := range nd {
			random(j)
		}
		return s0
	}
	ord := make([]int, nd)
	for j := range ord {
		ord[j] = j
	}
	slices.SortStableFunc(ord, func(x, y int) int { return cmp.Compare(len(vals[x]), len(vals[y])) })
	// The points so far that tell entries x and y apart, h(x, y), are
	// the bits in which their group vectors differ (entry x's group on
	// the t-th point so far in bit t of grp[x·words:]), at most 255.
	words := (nd + 63) / 64
	grp := make([]uint64, L*words)
	h := func(x, y int) int {
		if words == 1 {
			return bits.OnesCount64(grp[x] ^ grp[y]) // at most 64
		}
		c := 0
		for w := range words {
			c += bits.OnesCount64(grp[x*words+w] ^ grp[y*words+w])
		}
		return min(c, 255)
	}
	vid := make([]int, L)
	var m []float64
	for t, j := range ord {
		vs := vals[j]
		nv := len(vs)
		for l, e := range st.vals {
			vid[l] = slices.Index(vs, e[j])
		}
		part := uint32(1) // the values in bit 0's group
		if nv > 12 {
			random(j)
			part = 0
			for x, v := range vs {
				if v&s0[j] != 0 {
					part |= 1 << x
				}
			}
		} else if nv > 2 {
			m = slices.Grow(m[:0], nv*nv)[:nv*nv]
			clear(m)
			for x := range L {
				for y := range x {
					if vx, vy := vid[x], vid[y]; vx != vy {
						m[vx*nv+vy] += klPow4[h(x, y)]
					}
				}
			}
			best := -1.0
			for p := uint32(1); p < 1<<(nv-1); p += 2 {
				// p holds value 0: each grouping once.
				f := 0.0
				for a := range nv {
					for b := range nv {
						if p>>a&1 == 1 && p>>b&1 == 0 {
							f += m[a*nv+b] + m[b*nv+a]
						}
					}
				}
				if f > best {
					best, part = f, p
				}
			}
		}
		if nv <= 12 {
			for x, v := range vs {
				if part>>x&1 == 1 {
					s0[j] |= v
				}
			}
		}
		for x := range L {
			grp[x*words+t/64] |= uint64(part>>vid[x]&1) << (t % 64)
		}
	}
	return s0
}

// klPow4[h] is 4^−h (splits' weight of a pair told apart h times).
var klPow4 = func() (p [256]float64) {
	for h := range p {
		p[h] = math.Ldexp(1, -2*h)
	}
	return p
}()

// fitTail returns the points cand with those a mixed-radix tail of room
// takes first (planRadixOn takes a prefix), then the others, each group
// in cand's order: the points of the most labelings P whose unit
// room·r_0/((r_0 − 1)·P) (r_0 the least radix) stays at or above the
// target, found by trying every count of points of each radix (the
// first ones of that radix in cand). Taking cand's prefix instead stops
// at the first point that does not fit, leaving the unit up to a radix
// (six at K = 6) above the target, so that the tail holds fewer
// labelings than its room could: at K = 6 the pool holds points of six
// and of three labels, and products 2^a·3^b fill a room much closer than
// a prefix of sixes. Seeds 1, 2 at N = 25,000, K = 6: every point that
// fits, in cand's order, took 1,375 queries each against the prefix's
// 1,378 (list target 12, 12 fresh points); this search 1,359 and 1,360
// against that order's 1,365 each (target 16, 16 fresh points).
//
// Up to klGroup2 grouped digits of radix 2 follow, the least significant
// (never the top: r_0 is the least radix of the plain digits), so that
// the product fills the room at steps of one bit: points of an even
// number of labels read as which half (one bit; the point keeps the
// half), then points of three read as one label against two. The
// lister carries a grouped digit's value as its group (update), so that
// entries differing only on which label of a group a point has do not
// arise. fitTail sets a.digitGroups for planRadixOn; design clears it.
func (st *klState) fitTail(cand []int, room float64) []int {
	a := st.a
	_, target := a.radixSpacing(klRho)
	byR := make([][]int, a.k+1) // the points of each radix, in cand's order
	for _, i := range cand {
		if r := bits.OnesCount64(a.mask[i]); r >= 2 && r <= a.k {
			byR[r] = append(byR[r], i)
		}
	}
	var rs []int // the radices present, largest first
	for r := a.k; r >= 2; r-- {
		if len(byR[r]) > 0 {
			rs = append(rs, r)
		}
	}
	if len(rs) == 0 || !(room > 0) || !(target > 0) {
		return cand
	}
	// lim(r0): log2 of the largest P for least radix r0.
	lim := func(r0 int) float64 { return math.Log2(room * float64(r0) / (float64(r0-1) * target)) }
	loose := lim(rs[len(rs)-1]) // no later radix relaxes it further
	cnt, best := make([]int, len(rs)), make([]int, len(rs))
	bestLP := math.Inf(-1)
	bestG2 := 0
	var rec func(x int, lp float64, r0 int)
	rec = func(x int, lp float64, r0 int) {
		if x == len(rs) {
			if r0 > a.k {
				return
			}
			// The points left that a grouped digit of radix 2 may take:
			// of an even number of labels above two, or of three.
			n2 := 0
			for y, r := range rs {
				if r%2 == 0 && r > 2 || r == 3 {
					n2 += len(byR[r]) - cnt[y]
				}
			}
			for g2 := 0; g2 <= min(klGroup2, n2); g2++ {
				if l := lp + float64(g2); l <= lim(r0) && l > bestLP+1e-9 {
					bestLP = l
					copy(best, cnt)
					bestG2 = g2
				}
			}
			return
		}
		r := rs[x]
		lr := math.Log2(float64(r))
		for c := 0; c <= len(byR[r]); c++ {
			l := lp + float64(c)*lr
			if c > 0 && l > loose+1e-9 {
				break
			}
			nr := r0
			if c > 0 {
				nr = min(r0, r)
			}
			cnt[x] = c
			rec(x+1, l, nr)
		}
		cnt[x] = 0
	}
	rec(0, 0, a.k+1)
	if math.IsInf(bestLP, -1) {
		return cand // not even one point fits: planRadixOn takes the first
	}
	take := make(map[int]bool)
	for x, r := range rs {
		for _, i := range byR[r][:best[x]] {
			take[i] = true
		}
	}
	out := make([]int, 0, len(cand))
	for _, i := range cand {
		if take[i] {
			out = append(out, i)
		}
	}
	// The grouped digits, last (the least significant): points of an
	// even number of labels first (halves: one bit), then of three (one
	// label against two: H(1/3) = 0.918 bits).
	a.digitGroups = nil
	group := func(want int, ok func(n int) bool) int {
		for _, i := range cand {
			if want == 0 {
				break
			}
			n := bits.OnesCount64(a.mask[i])
			if take[i] || !ok(n) {
				continue
			}
			take[i] = true
			want--
			if a.digitGroups == nil {
				a.digitGroups = make(map[int][]uint64)
			}
			var g [2]uint64
			for m, c := range maskClasses(a.mask[i]) {
				g[m*2/n] |= 1 << c
			}
			a.digitGroups[i] = g[:]
			out = append(out, i)
		}
		return want
	}
	left := group(bestG2, func(n int) bool { return n%2 == 0 && n > 2 })
	group(left, func(n int) bool { return n == 3 })
	for _, i := range cand {
		if !take[i] {
			out = append(out, i)
		}
	}
	return out
}

// klGroup2 bounds the tail's grouped digits of radix 2 (fitTail): a
// point read as which of two groups of its labels, so that the tail's
// product of radices fills its room at steps of one bit, not only of the
// points' own radices (six and three at K = 6).
var klGroup2 = 2

// tailRange returns the least exact sum of the tail p's increments over
// its points' label sets (its base) and the span above it.
func (st *klState) tailRange(p *blockPlan, idx []int) (base, span *big.Float) {
	base = new(big.Float).SetPrec(sumPrec)
	span = new(big.Float).SetPrec(sumPrec)
	for j, i := range idx {
		var lo, hi *big.Float
		for m := st.a.mask[i]; m != 0; m &= m - 1 {
			v := p.v[j][bits.TrailingZeros64(m)]
			if lo == nil || v.Cmp(lo) < 0 {
				lo = v
			}
			if hi == nil || v.Cmp(hi) > 0 {
				hi = v
			}
		}
		base.Add(base, lo)
		span.Add(span, new(big.Float).SetPrec(sumPrec).Sub(hi, lo))
	}
	return base, span
}

// klSurv is a candidate that explains the score: list entry l, fresh bits
// m, and its tail labeling (nil if the tail's lister stopped short: every
// tail label is kept open).
type klSurv struct {
	l    int
	m    uint32
	tail []int
	n    uint64 // KBin: the binary digits' reading
}

// decode finds every candidate that explains the score, learns what they
// agree on and carries the rest; it returns the labels learned.
func (st *klState) decode(score *big.Rat, q *klQuery) (int, error) {
	a, lb := st.a, st.lb
	a.fillBase()
	defer st.neutralize(q.idx)
	nd, nTop := q.nd, q.nd+q.k
	budget := a.budgetFor(q.idx, q.rows, false)
	t := new(big.Float).SetPrec(sumPrec).Sub(a.nTimes(score), a.constC(&blockPlan{rows: q.rows}))
	t0, v := q.offsets(nTop)
	// The residual the tail must explain: t − T0 − top bits' sum, within
	// [base − b, base + span + b].
	r0 := new(big.Float).SetPrec(sumPrec).Sub(t, t0)
	base, span := new(big.Float), new(big.Float)
	if q.tail != nil {
		base, span = st.tailRange(q.tail, q.tIdx)
	}
	half := new(big.Float).SetPrec(sumPrec).Quo(span, big.NewFloat(2))
	center := new(big.Float).SetPrec(sumPrec).Sub(r0, base)
	center.Sub(center, half)
	hf, _ := half.Float64()
	// The score's float64 bounds, rounded outward (the noise widens them).
	sLo, sHi := a.scoreRange(score)
	fLo, fHi := ratDown(sLo), ratUp(sHi)
	exact := pointTerms(a, q.rows)
	var tl *klTail
	match := func() bool {
		if r, ok, err := a.emu.ReportFloat(a.lo); ok && exact {
			return err != nil || (r >= fLo && r <= fHi)
		}
		rlo, err := a.emu.Report(a.lo)
		if err == nil && sHi.Cmp(rlo) < 0 {
			return false
		}
		rhi, err := a.emu.Report(a.hi)
		return err != nil || sLo.Cmp(rhi) <= 0
	}
	// bracket reports whether a tail labeling with its positions before
	// s as set may explain the score: the summation is monotone in
	// every term (rounded additions), so every labeling of the positions
	// from s on reports between the reports with each of them at its
	// least and at its largest computed term.
	above := func(hi bool) bool {
		if r, ok, err := a.emu.ReportFloat(a.lo); ok {
			return err == nil && (hi && r < fLo || !hi && r > fHi)
		}
		r, err := a.emu.Report(a.lo)
		return err == nil && (hi && r.Cmp(sLo) < 0 || !hi && r.Cmp(sHi) > 0)
	}
	bracket := func(s int) bool {
		for _, hi := range []bool{false, true} {
			for x := s; x < len(tl.ord); x++ {
				j := nTop + tl.ord[x]
				if hi {
					a.lo.Set(q.idx[j], q.rows[j].hi[tl.cMax[x]])
				} else {
					a.lo.Set(q.idx[j], q.rows[j].lo[tl.cMin[x]])
				}
			}
			if above(hi) {
				return false
			}
		}
		return true
	}
	set := func(j, c int) {
		i, r := q.idx[j], &q.rows[j]
		a.lo.Set(i, r.lo[c])
		a.hi.Set(i, r.hi[c])
	}
	bf := budget
	var surv []klSurv
	var sig []int
	if q.tail != nil {
		tl = st.newTail(q)
		sig = make([]int, len(q.tIdx))
	}
	bit := func(l int, m uint32, j int) int {
		if j < nd {
			return int(lb.cand[l][j])
		}
		return int(m >> (j - nd) & 1)
	}
	// The residual r0 − Σ (top bits' increments) in double-double
	// arithmetic (ddSum): the carried bits' part once per list entry,
	// the fresh bits' per candidate, with err bounding its distance from
	// the exact residual (far below the margin the windows keep).
	dh, dl := make([]float64, nTop), make([]float64, nTop)
	mag := 0.0
	r0h, r0l := ddSplit(r0)
	for j := range nTop {
		dh[j], dl[j] = ddSplit(v[j][1])
		mag += math.Abs(dh[j])
	}
	mag += math.Abs(r0h)
	ddErr := float64((nTop+2)*(nTop+2)) * 0x1p-100 * mag
	// topCur[j] is the label top position j's terms are set to (−1:
	// none yet): a candidate sets only the positions it changes.
	topCur := make([]int, nTop)
	for j := range topCur {
		topCur[j] = -1
	}
	carried := make([]ddSum, len(lb.cand))
	carriedOK := make([]bool, len(lb.cand))
	explains := func(l int, m uint32, _ bool) bool {
		if !carriedOK[l] {
			s := ddSum{h: r0h, l: r0l}
			for j, b := range lb.cand[l] {
				if b == 1 {
					s.sub(dh[j], dl[j])
				}
			}
			carried[l], carriedOK[l] = s, true
		}
		res := carried[l]
		for j := range nTop {
			c := q.c0[j]
			if bit(l, m, j) == 1 {
				if j >= nd {
					res.sub(dh[j], dl[j])
				}
				c = q.c1[j]
			}
			if topCur[j] != c {
				set(j, c)
				topCur[j] = c
			}
		}
		rf := res.h + res.l
		// |rf − the exact residual| ≤ extra.
		extra := ddErr + math.Abs(rf)*0x1p-52
		if q.tail == nil {
			if math.Abs(rf)-extra > bf || !match() {
				return false
			}
			surv = append(surv, klSurv{l: l, m: m, tail: []int{}})
			return true
		}
		bf := bf + extra
		found := false
		n := 0
		complete := tl.list(rf-bf-tl.margin, rf+bf+tl.margin, func(j, c int) {
			sig[j] = c
			set(nTop+j, c)
		}, func() {
			if match() {
				surv = append(surv, klSurv{l: l, m: m, tail: slices.Clone(sig)})
				found = true
			}
		}, bracket, &n)
		if !complete {
			surv = append(surv, klSurv{l: l, m: m})
			return true
		}
		return found
	}
	lb.window(center, hf+budget, v, q.k, explains)
	if len(surv) == 0 {
		return 0, fmt.Errorf("%w: no labeling of the %d carried, %d fresh and %d tail points explains the score under %s", ErrInconsistent, nd, q.k, len(q.tIdx), a.m.Name)
	}
	st.neutralize(q.idx)
	return st.update(q, surv), nil
}

// offsets returns the bit-0 sum T0 of the query's first n positions
// (binary questions; the terms over each row's label 0, which constC
// counts) and each bit's increment over it, v[j] = {0, t(c1) − t(c0)}.
func (q *klQuery) offsets(n int) (*big.Float, [][]*big.Float) {
	t0 := new(big.Float).SetPrec(sumPrec)
	v := make([][]*big.Float, n)
	zero := new(big.Float)
	for j := range n {
		r := &q.rows[j]
		o0 := new(big.Float).SetPrec(incPrec).Sub(r.t[q.c0[j]], r.t[0])
		t0.Add(t0, o0)
		d := new(big.Float).SetPrec(incPrec).Sub(r.t[q.c1[j]], r.t[q.c0[j]])
		v[j] = []*big.Float{zero, d}
	}
	return t0, v
}

// ddSum is a double-double sum h + l [Dek71]: each addition's rounding
// error (TwoSum, [Knu97] 4.2.2 Theorem B) is kept in l, so that n
// additions stay within about n²·2^−106 of the exact sum's magnitudes.
type ddSum struct{ h, l float64 }

// sub subtracts xh + xl.
func (s *ddSum) sub(xh, xl float64) {
	x := -xh
	h := s.h + x
	bb := h - s.h
	e := (s.h - (h - bb)) + (x - bb)
	s.h, s.l = h, s.l+e-xl
}

// ddSplit returns x as h + l, h and l float64 (h the nearest to x): off
// by at most 2^−106·|x| where x has more than 106 bits.
func ddSplit(x *big.Float) (h, l float64) {
	h, _ = x.Float64()
	if math.IsInf(h, 0) {
		return h, 0
	}
	r := new(big.Float).SetPrec(x.Prec()+64).Sub(x, new(big.Float).SetFloat64(h))
	l, _ = r.Float64()
	return h, l
}

// klTail lists the labelings of a query's tail whose float64 sums lie
// in a window: a superset of those whose exact sums do, the window
// widened by margin, far above float64's rounding of the sums.
type klTail struct {
	ord        []int       // tail positions, largest span first
	cls        [][]int     // cls[s]: the labels of position ord[s]
	d          [][]float64 // d[s][x]: the increment of label cls[s][x]
	minR, maxR []float64   // the least and largest sum of ord[s:]
	cMin, cMax []int       // the labels of ord[s] with the least and largest computed term
	margin     float64
	depth      int // the bracketed subtrees' depth (klBracket, or one more)
}

// newTail prepares the lister of q's tail.
func (st *klState) newTail(q *klQuery) *klTail {
	p := q.tail
	nt := len(q.tIdx)
	tl := &klTail{ord: make([]int, nt), cls: make([][]int, nt), d: make([][]float64, nt), minR: make([]float64, nt+1), maxR: make([]float64, nt+1)}
	span := make([]float64, nt)
	abs := 0.0
	for j, i := range q.tIdx {
		tl.ord[j] = j
		lo, hi := math.Inf(1), math.Inf(-1)
		for m := st.a.mask[i]; m != 0; m &= m - 1 {
			f, _ := p.v[j][bits.TrailingZeros64(m)].Float64()
			lo, hi = min(lo, f), max(hi, f)
		}
		span[j] = hi - lo
		abs += max(math.Abs(lo), math.Abs(hi))
	}
	slices.SortStableFunc(tl.ord, func(x, y int) int { return cmp.Compare(span[y], span[x]) })
	tl.cMin, tl.cMax = make([]int, nt), make([]int, nt)
	for s, j := range tl.ord {
		tl.cls[s] = maskClasses(st.a.mask[q.tIdx[j]])
		if g := q.tGrp[j]; g != nil {
			tl.cls[s] = tl.cls[s][:0]
			for _, x := range g {
				tl.cls[s] = append(tl.cls[s], bits.TrailingZeros64(x))
			}
		}
		r := &q.rows[q.nd+q.k+j]
		tl.cMin[s], tl.cMax[s] = tl.cls[s][0], tl.cls[s][0]
		for _, c := range tl.cls[s] {
			if r.lo[c] < r.lo[tl.cMin[s]] {
				tl.cMin[s] = c
			}
			if r.hi[c] > r.hi[tl.cMax[s]] {
				tl.cMax[s] = c
			}
		}
		for _, c := range tl.cls[s] {
			f, _ := p.v[j][c].Float64()
			tl.d[s] = append(tl.d[s], f)
		}
	}
	for s := nt - 1; s >= 0; s-- {
		tl.minR[s] = tl.minR[s+1] + slices.Min(tl.d[s])
		tl.maxR[s] = tl.maxR[s+1] + slices.Max(tl.d[s])
	}
	tl.margin = (abs + 1) * 0x1p-40
	tl.depth = klBracket
	if nt > tl.depth+1 && len(tl.d[nt-1]) <= 2 {
		tl.depth++
	}
	return tl
}

// list calls set(position, label) for each position of a labeling whose
// sum lies in [lo, hi] (widened by the caller), then leaf, depth first
// with the digits of largest span first, skipping the subtrees of the
// last tl.depth positions that bracket rules out; it reports false if it
// stopped after maxCand labelings (*n counts them).
func (tl *klTail) list(lo, hi float64, set func(j, c int), leaf func(), bracket func(s int) bool, n *int) bool {
	var rec func(s int, p float64) bool
	rec = func(s int, p float64) bool {
		// A bracket costs two emulations: a last digit with at most two
		// labels in the window is emulated directly (the bracket only
		// skips labelings that cannot explain the score).
		if s == len(tl.ord)-tl.depth && s > 0 && (tl.depth > 1 || tl.within(s, p, lo, hi) > 2) && !bracket(s) {
			return true
		}
		if s == len(tl.ord) {
			if *n++; *n > maxCand {
				return false
			}
			leaf()
			return true
		}
		for x, dv := range tl.d[s] {
			q := p + dv
			if q+tl.minR[s+1] > hi || q+tl.maxR[s+1] < lo {
				continue
			}
			set(tl.ord[s], tl.cls[s][x])
			if !rec(s+1, q) {
				return false
			}
		}
		return true
	}
	return rec(0, 0)
}

// within counts the labels of the last position s whose sum, after the
// sum p of the positions before it, lies in [lo, hi].
func (tl *klTail) within(s int, p, lo, hi float64) int {
	n := 0
	for _, dv := range tl.d[s] {
		if q := p + dv; q >= lo && q <= hi {
			n++
		}
	}
	return n
}

// neutralize puts the query's points back at the neutral terms.
func (st *klState) neutralize(idx []int) {
	a := st.a
	for _, i := range idx {
		a.lo.Set(i, a.neutral.lo[0])
		a.hi.Set(i, a.neutral.hi[0])
	}
}

// update learns what the survivors agree on: the labels a point may
// have (a top point's half, a tail point's label; one label left is
// learned), and carries the points they disagree on with the list of
// their distinct values. It returns the labels learned.
func (st *klState) update(q *klQuery, surv []klSurv) int {
	a, lb := st.a, st.lb
	nd, nTop := q.nd, q.nd+q.k
	// A tail lister that stopped short leaves every tail label open.
	short := q.tail != nil && slices.ContainsFunc(surv, func(s klSurv) bool { return s.tail == nil })
	val := func(s klSurv, j int) uint64 {
		i := q.idx[j]
		switch {
		case j < nd:
			return st.vals[s.l][j]
		case j < nTop:
			if s.m>>(j-nd)&1 == 0 {
				return q.s0[j]
			}
			return a.mask[i] &^ q.s0[j]
		case q.l > 0:
			// A digit's labels (KBin).
			return q.dv[j-nTop][q.digit(s.n, j-nTop)]
		case short:
			return a.mask[i]
		}
		c := s.tail[j-nTop]
		for _, g := range q.tGrp[j-nTop] {
			if g>>c&1 == 1 {
				return g
			}
		}
		return 1 << c
	}
	sigma := make([]int, len(q.idx))
	var open []int // positions still undecided
	for j, i := range q.idx {
		sigma[j] = -1
		v0 := val(surv[0], j)
		union, agree := v0, true
		for _, s := range surv[1:] {
			v := val(s, j)
			union |= v
			agree = agree && v == v0
		}
		a.mask[i] &= union
		if !agree {
			open = append(open, j)
		} else if bits.OnesCount64(a.mask[i]) == 1 {
			sigma[j] = bits.TrailingZeros64(a.mask[i])
		}
	}
	for _, i := range lb.cD {
		lb.inD[i] = false
	}
	lb.cD = lb.cD[:0]
	for _, j := range open {
		lb.cD = append(lb.cD, q.idx[j])
		lb.inD[q.idx[j]] = true
		if j >= nTop {
			st.tailCarried++
		}
	}
	seen := make(map[string]bool, len(surv))
	var vals [][]uint64
	key := make([]byte, 0, 8*len(open))
	for _, s := range surv {
		e := make([]uint64, len(open))
		key = key[:0]
		for x, j := range open {
			e[x] = val(s, j)
			key = binary.LittleEndian.AppendUint64(key, e[x])
		}
		if !seen[string(key)] {
			seen[string(key)] = true
			vals = append(vals, e)
		}
	}
	st.vals = vals
	a.learn(q.idx, sigma)
	got := 0
	for _, c := range sigma {
		if c >= 0 {
			got++
		}
	}
	return got
}
