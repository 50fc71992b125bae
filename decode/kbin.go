// This file implements the KBin strategy: KList's list-decoded top of
// binary questions (klist.go) over Hybrid's digits read from the exact
// residual (hybrid.go), for K > 2.

package decode

import (
	"context"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/labelinf/labelinf/scorer"
)

// KBin is [KList] with [Hybrid]'s tail, for K > 2 against a model that
// names its log and whose score is the float mean of the server's own
// terms (float64-sklearn, torch-bce).
//
//   - The top is KList's: the carried points (their list values in two
//     groups, weights by Leaderboard's descent) and up to klistParams.maxFresh fresh
//     points, each split in halves (six labels 3:3, four 2:2, two 1:1;
//     points of an even number of labels first) with a generic weight.
//   - The tail is Hybrid's digits of unit g_d ≈ 2δ (δ the resolution of
//     the sum): a free point of three labels is a digit of radix 3 (its
//     labels at terms a, a + p, a + 2p, p the digit's place value), any
//     other a binary digit on its set's halves (a and a + p). A binary
//     question on three labels carries 0.918 bits, and every binary tree
//     over six equally likely labels asks 2.667 questions for 2.585 bits
//     (Huffman): with binary digits only, KBin took 2.8% more queries
//     than KList at K = 6 (kbinParams.radix3). The last free points of an attack,
//     when they all fit, are digits of their whole sets.
//   - The design is Hybrid's (digitShape): the most fresh points whose
//     expected list after the query stays at the target without digits,
//     then the largest room 2^l·g_d that keeps it there, l not
//     necessarily an integer (digitExpect); the room is filled with b
//     digits of radix 3 and a binary ones, a + b·log2 3 ≤ l (askDigits).
//   - Decoding is Hybrid's: every top candidate (list entry, fresh
//     halves) whose residual fits the digits' range within the rigorous
//     budget (Leaderboard's meet in the middle) is read from its exact
//     residual, every integer n with n·g_d within the budget plus the
//     digits' deviations (digitTail, n's mixed-radix digits the digits'
//     values), and each reading is emulated whole; the readings whose
//     emulated score is the score survive. Their values on the query's
//     points (a half of a top point or binary digit, a label of a digit of
//     radix 3) are learned where they all agree and carried with the list
//     where they do not (KList's update), so a digit's ambiguity
//     (adjacent readings differ on a run of low digits) is carried
//     jointly with the top's.
//
// The carried points' questions are at full weight ±W' (KList's are
// uniform in [−W', W']), the descent choosing their signs (two passes,
// kbinParams.passes): the list's sums spread the farthest. Seeds 1, 3 and i mod 6
// at N = 25,000, K = 6, one pass: 1,350, 1,351, 1,355 queries against
// 1,357, 1,354, 1,359 with KList's weights; carried weights ±W'·[β, 1]
// for β = 0.25, 0.5, 0.75, 0.9 gave 1,355, 1,354, 1,358; 1,354, 1,353,
// 1,358; 1,351, 1,352, 1,356; 1,352, 1,353, 1,355. The points are taken
// in index order shuffled within windows of 64 (kbinParams.window), so that a
// labeling's pattern along the index is not the order's.
//
// KList's tail is Cross's mixed-radix digits (radix 6 and 3 at K = 6),
// whose rooms are products 6^a·3^b; KBin's are 2^a·3^b, which fill the
// room the target allows more closely. At N = 25,000, K = 6 KBin takes at
// most 1,350 queries over the 23 benchmark labelings (seeds 1–20
// 1,348–1,350, i mod 6 1,350, all 0 and all 5 1,307) where KList takes
// 1,360 (BENCHMARKS.md, "kbin").
//
// The kept labelings (the list's values × the label sets) are exactly the
// readings that explain the score on the query's points and keep every
// earlier constraint, so a label is learned only when every labeling that
// explains every score has it: as strict as KList (TestKBinStrict checks
// it by brute force).
//
// Below klistParams.minN points, against an assumed noise, for K = 2 or without the
// model's exact terms KBin is KList's fallback, [Cross]; against a model
// whose terms are not all the server's own or whose score is rounded or
// summed it is [KList]. catalog.Auto picks it for K > 2 against an unrounded
// model that names its log.
var KBin Strategy = kbin{}

// kbin is KBin; p, if set (tests), replaces its tuning.
type kbin struct{ p *kbinParams }

func init() { register(KBin, "klist-bin") }

func (kbin) String() string { return "kbin" }

// setup is setupKList's, the order shuffled in windows; where KList is
// Cross, KBin is Cross; a model whose terms are not all the server's own,
// or whose score is not its float mean, gets KList.
func (s kbin) setup(a *multi) Strategy {
	p := tuned(s.p, defaultKBin)
	if !a.setupKList(p.klist) {
		return Cross
	}
	if !pointTerms(a, nil) || a.m.Decimals >= 0 || a.m.Loss.Total {
		return klist{p: &p.klist} // a test's tuning goes with it
	}
	// KList's index order, shuffled within windows of kbinParams.window points by
	// a fixed seed: a query's points still share the summation's leaves,
	// and a labeling's pattern along the index (i mod K) is not the
	// order's.
	r := rand.New(rand.NewPCG(0x6b62, 0x696e))
	for w := range slices.Chunk(a.order, p.window) {
		r.Shuffle(len(w), func(x, y int) { w[x], w[y] = w[y], w[x] })
	}
	return s
}

func (s kbin) plan(context.Context, *multi) (*MultiPlan, error) { return nil, noDryRun(s) }

func (s kbin) attack(ctx context.Context, a *multi, srv scorer.Server) (*Result, error) {
	return runKList(ctx, a, srv, tuned(s.p, defaultKBin), true)
}

// kbinParams tunes KBin: choices for the CPU target (< 2 s at N = 25,000),
// not calibrated optima. float64-sklearn, K = 6, N = 25,000, seed 1 and
// i mod 6 (queries; attacker CPU under a load of 2–5), before the
// carried weights at full size: target 16: 1,357, 1,359 (1.5–1.8 s); 20
// (before the last points as whole digits): 1,354, 1,358 (2.0–2.1 s);
// prefer3 0: 1,362, 1,364 (integer rooms); 0.005, 0.01: 1,359, 1,363;
// 0.04, 0.08: as 0.02; the descent's passes 2 instead of 1: 1,351, 1,357
// (about 11% more CPU); before the fractional rooms (integer l), target
// 24: 1,358, 1,362 (1.6–1.9 s), 32: 1,355 (2.3 s); the unit at 1, 1.5, 3
// spacings instead of 2, or 12 or 20 fresh points instead of 16: within
// 2 queries.
type kbinParams struct {
	// klist is the list top's tuning (KList's; its radix the tail's).
	klist klistParams
	// passes and opts are the carried weights' descent's passes and
	// the rows it tries for each carried point (KList's klPasses,
	// klOpts: 1, 3). With KBin's full carried weights the rows differ in
	// sign only, so two suffice, and a second pass spreads the list's
	// sums further (seeds 1, 2, 20, i mod 6, points shuffled: 1,351,
	// 1,351, 1,351, 1,351 at 1/3 (git show 965e9cd, shuffle aside);
	// 1,349, 1,349, 1,348, 1,350 at 2/3; 1,349, 1,348, 1,349, 1,350 at
	// 2/2 for about 10% less CPU than 2/3).
	passes, opts int
	// window is the width of the windows the point order is shuffled
	// in (setup). i mod 6 at N = 25,000, K = 6: 1,355 queries in index
	// order, 1,353 shuffled within 16, 1,351 within 64 and 1,024, 1,351
	// shuffled whole (about 15% more attacker CPU); seed 1: 1,350, 1,351,
	// 1,351, 1,352, 1,352. The labelings all 0 and all 5 do not change.
	window int
	// target is the expected list after a query (the true labeling
	// included), as hybTarget and klistParams.target.
	target float64
	// prefer3 (bits) is what a digit of radix 3 is worth beyond its
	// log2 3 in the choice of a tail's digits: points of three labels
	// come from every 3:3 question and must be asked by a digit of
	// radix 3 sometime, so a room is filled with them where that costs
	// little (seed 1: 1,366 queries at 0, 1,362 at 0.02, before the
	// fractional rooms).
	prefer3 float64
	// radix3: points of three labels are digits of radix 3. A binary
	// question on three labels carries 0.918 bits, and every binary tree
	// over six equally likely labels asks 2.667 questions on average for
	// log2 6 = 2.585 bits (Huffman), 3.1% more: with binary digits only
	// (false; tests set it) KBin took 1,397 queries on seed 1 where KList
	// took 1,359 (BENCHMARKS.md, "kbin").
	radix3 bool
	// unit is the digits' unit over the resolution δ (hybUnit; tests
	// lower it so that several readings explain a score), minUnit
	// their least unit (minUnit; tests lower it so that a small instance
	// holds several digits).
	unit, minUnit float64
}

// defaultKBin returns KBin's tuning.
func defaultKBin() kbinParams {
	return kbinParams{klist: defaultKList(), passes: 2, opts: 2, window: 64, target: 16, prefer3: 0.02, radix3: true, unit: hybUnit, minUnit: minUnit}
}

// designBin completes KList's design of a query (the carried points'
// splits s0 and palette rows cw, the free points pool, the fresh points'
// palette rows fw, vf[k] the variance of the first k fresh sums, sl the
// carried sums over the list) with Hybrid's digits: Hybrid's shape
// (digitShape) at the resolution of the sum.
func (st *klState) designBin(s0 []uint64, pool, fw []int, vf []float64, cw []int, sl []float64) (*klQuery, error) {
	a, lb := st.a, st.lb
	L, nd := len(st.vals), len(lb.cD)
	room := float64(nd) * st.wTop
	for _, r := range fw {
		room += lb.pal[r].vf
	}
	delta := lb.sumDelta(room)
	gd, err := a.digitUnit(delta, st.kb.unit, st.kb.minUnit, st.wTop)
	if err != nil {
		return nil, err
	}
	lcap := a.opt.blockCap(len(pool))
	tgt := st.kb.target
	expect := digitExpect(sl, vf, L, delta, gd)
	// The last free points (the pool holds them all): if every one fits
	// the room as one digit of its whole set with no fresh top point,
	// they are asked so, a point of six labels read in one query rather
	// than a half and then a third (N = 500, 1,000, K = 6, seeds 1–3: 26,
	// 26, 25 and 51, 52, 52 queries against 28, 27, 27 and 53, 53, 52
	// without).
	if len(pool) > 0 && len(pool) < st.kb.klist.maxFresh+radixBlockMax && len(pool) == lcap {
		all := 0.0
		for _, i := range pool {
			all += math.Log2(float64(bits.OnesCount64(a.mask[i])))
		}
		if all <= math.Log2(st.wTop/gd) && expect(0, all) <= tgt {
			q := &klQuery{nd: nd, gd: gd}
			if err := st.askTop(q, s0, nil, nil, cw); err != nil {
				return nil, err
			}
			return q, st.askDigits(q, pool, all, true)
		}
	}
	k, l := digitShape(sl, vf, L, delta, gd, st.wTop, tgt, lcap)
	q := &klQuery{nd: nd, k: k, gd: gd}
	if err := st.askTop(q, s0, pool[:k], fw, cw); err != nil {
		return nil, err
	}
	// The room in bits: beyond the integer l, up to the next bit as far
	// as the target allows (rooms of 2^a·3^b units fill it), the top
	// digit's increment at most W.
	bitsU := float64(l)
	if l > 0 {
		bitsU = bisect(bitsU, min(float64(l+1), math.Log2(2*st.wTop/gd)), 12, func(x float64) bool { return expect(k, x) <= tgt })
	}
	return q, st.askDigits(q, pool[k:], bitsU, false)
}

// askDigits appends to q the digits of a room of 2^l units over the
// points cand: points of three labels as digits of radix 3 (each label
// its value: log2 3 bits, where a binary question on three labels carries
// 0.918), the others as binary digits on their sets' halves. It takes the
// b digits of radix 3 and a binary ones (the first of each in cand's
// order) of the most bits a + b·log2 3 ≤ l, radix 3 at the low places.
// With whole, every point of cand is one digit of its whole set (radix
// |M_i|, the largest at the low places). Top digits whose largest
// increment exceeds the top's weight are dropped.
func (st *klState) askDigits(q *klQuery, cand []int, l float64, whole bool) error {
	a := st.a
	size := func(i int) int { return bits.OnesCount64(a.mask[i]) }
	is3 := func(i int) bool { return st.kb.radix3 && size(i) == 3 }
	digits := slices.Clone(cand)
	if whole {
		slices.SortStableFunc(digits, func(x, y int) int { return size(y) - size(x) })
	} else {
		three := slices.DeleteFunc(slices.Clone(cand), func(i int) bool { return !is3(i) })
		two := slices.DeleteFunc(digits, is3)
		nb, na, best := 0, 0, -1.0
		for b := min(len(three), int(l/math.Log2(3))); b >= 0; b-- {
			x := min(len(two), int(math.Floor(l-float64(b)*math.Log2(3)+1e-9)))
			if f := float64(x) + float64(b)*math.Log2(3) + st.kb.prefer3*float64(b); f > best+1e-9 {
				nb, na, best = b, x, f
			}
		}
		digits = append(slices.Clone(three[:nb]), two[:na]...)
	}
	place := q.gd
	for _, i := range digits {
		m := a.mask[i]
		r := 2
		if whole || is3(i) {
			r = size(i)
		}
		if float64(r-1)*place > st.wTop {
			break
		}
		// A binary digit is a question on its set's halves, one of radix
		// r a label a value (the digit's values: dv).
		var row rowInfo
		var err error
		var dv []uint64
		if r == 2 {
			half := split(m)
			row, err = st.question(i, half, place)
			dv = []uint64{half, m &^ half}
		} else {
			row, err = st.radixRow(m, place)
			dv = labelSets(m)
			st.radix3++
		}
		if err != nil {
			return err
		}
		q.idx, q.rows = append(q.idx, i), append(q.rows, row)
		q.dv, q.rad = append(q.dv, dv), append(q.rad, r)
		st.digits++
		place *= float64(r)
	}
	return nil
}

// radixRow returns the row of a digit of radix r = |m| on the set m at
// place value p: its labels' terms a, a + p, …, a + (r − 1)·p (the
// probabilities q, q·e^(−p), …), the labels outside m at the last. Rows
// are cached. It is Cross's multi.radixRow up to the rounding of the
// normalization (summed in label order here): the same digit through
// multi.radixRow moved KBin's counts by a query either way (23
// labelings at N = 25,000, K = 6: i mod 6 1,351 against 1,350, seed 9
// 1,348 against 1,350), so KBin keeps its own.
func (st *klState) radixRow(m uint64, p float64) (rowInfo, error) {
	return cachedRow(st.a, &st.rows, klRowsMax, klKey{hi: m, w: p, radix: true}, func(row []float64) {
		ls := maskClasses(m)
		tot := 0.0
		for c := range row {
			v := slices.Index(ls, c)
			if v < 0 {
				v = len(ls) - 1
			}
			row[c] = math.Exp(-float64(v) * p)
			tot += row[c]
		}
		for c := range row {
			row[c] /= tot
		}
	})
}

// decodeBin keeps the readings (list entry, fresh halves, digits) whose
// emulated score is the score (lbState.readDigits), learns what they agree
// on and carries the rest (update); it returns the labels learned.
func (st *klState) decodeBin(score *big.Rat, q *klQuery) (int, error) {
	t0, inc := q.offsets()
	surv, err := st.lb.readDigits(score, q.idx, q.rows, q.k, t0, inc, q.rad, q.gd, true, func(j int, v uint64) int {
		return bits.TrailingZeros64(q.dv[j][v])
	})
	if err != nil {
		return 0, err
	}
	return st.update(q, surv), nil
}
