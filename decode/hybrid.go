// This file implements the Hybrid strategy: Carry's list decoding across
// queries for the top of a query, over binary digits read from the
// residual, against scorers whose every term is the server's own.

package decode

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/labelinf/labelinf/internal/bigint"
	"github.com/labelinf/labelinf/scorer"
)

// Hybrid is [Carry] with a digit tail, for binary scorers whose model
// names its log (float64-sklearn, torch-bce: every term is the server's
// own, so a labeling explains a score iff its emulated score equals it).
//
// A float64 score resolves the sum to δ ≈ ulp(S), S ≈ nUnk·ln 2 the
// neutral terms: W/δ ≈ 2^43 at N = 25,000. A block code ([Cross]) fills
// that room with digits and carries about log2(W/δ) + 0.6 labels a query
// (the paired top and ties); Carry lists generic sums, whose spread
// √(2πe)·σ over δ gives log2(W/δ) + g labels, g ≈ 1.05 + ½·log2(m) for m
// open points at full weight, but its meet in the middle lists at most
// carryMaxFresh fresh points a query, far fewer than 45.
//
// Hybrid puts both in one query: the carried points and k fresh points
// with Carry's generic weights (the top), and l fresh points with binary
// digits g_d·2^j below them (g_d ≈ 2δ, u = 2^l·g_d). For each candidate
// of the top (list entry, fresh labeling) whose sum T leaves a residual
// t − T in [−b − D, u + b + D] (b the rigorous budget; found by the meet
// in the middle of Carry, [HS74]), the digits are read from the exact residual:
// every integer n with n·g_d within b + D of it (D = Σ|e_j|, e_j the
// realized digits' deviations from g_d·2^j) is a candidate, and it
// explains the score iff its emulated score is the score. Every labeling
// whose exact sum lies within b of t is read so, so the list stays
// exhaustive, and a label is learned only when every labeling that
// explains every score agrees on it: as strict as Carry.
//
// A wrong top survives when some reading of its residual rounds to the
// score, with probability about δ/g_d·[t − T ∈ [0, u)]: the expected list
// after a query is that of Carry with L·2^k candidates and a cell of
// 2^l·δ, so k + l fresh points fit where Carry fits k, for the same list
// target, and the design takes k ≤ hybFresh (the top's spread) and as
// many digits as the target allows. A query then carries about
// log2(W/δ) + g labels with g from the top's spread (doc.go, "How far
// from the floor"): g ≈ 4.4, 512 queries on float64-sklearn at
// N = 25,000 where Cross takes 548 (BENCHMARKS.md, "List top over
// digits").
//
// Hybrid applies where every term is the server's own and the score is
// the float mean (catalog's Applies): against other models (brackets,
// decimals, a summed score), without emulation or for K > 2 its attack
// and plan return an error (hybridApplies), it runs no other strategy.
var Hybrid Strategy = hybrid{}

// hybrid is Hybrid; p, if set (tests), replaces its tuning.
type hybrid struct{ p *hybridParams }

func init() { register(Hybrid, "list-digits") }

func (hybrid) String() string { return "hybrid" }

// setup is Carry's.
func (s hybrid) setup(a *multi) Strategy {
	a.setupCarry()
	return s
}

// hybridApplies returns why Hybrid cannot run on a's state, or nil: it
// needs Carry's state with every term the server's own (pointTerms) and
// the score the float mean of the terms.
func hybridApplies(a *multi) error {
	if err := a.carryApplies(Hybrid); err != nil {
		return err
	}
	if !pointTerms(a, nil) || a.m.Loss.Total {
		return fmt.Errorf("decode: hybrid needs a model that names its log and means its terms, not %s", a.m.Name)
	}
	return nil
}

// Hybrid's constants. float64-sklearn, N = 25,000, seed 1 and the
// alternating labels (queries, attacker CPU), target/top/unit:
// 16/16/1: 512, 515 (0.5 s); 8/16/1: 517, 519 (0.4 s); 32/16/1: 510,
// 512 (1.1 s); 64/16/1: 510, 513 (2.0 s); 16/12/1: 514, 516; 16/20/1:
// 512, 513 (0.6 s); 16/24/1: 511, 513 (1.1 s); 16/16/0.75: 516, 517;
// 16/16/1.5 and 16/16/2: 512, 513–514. torch-bce, same labelings:
// 16/16/1: 1,200, 1,212 (0.9–1.1 s); 16/16/0.75: 1,212, 1,227;
// 16/16/2: 1,196, 1,207 (1.1 s); 16/16/3: 1,196, 1,207 (1.2 s); 16/20/1:
// 1,193, 1,206 (2.6–3.8 s). Choices for the CPU target (< 2 s), not
// calibrated optima.
const (
	// hybTarget is the expected list after a query (the true labeling
	// included), as carryTarget.
	hybTarget = 16.0
	// hybFresh caps the top's fresh points: the meet in the middle lists
	// 2^(k/2) sums a half for each list entry.
	hybFresh = 16
	// hybUnit is the digit unit g_d over the resolution δ: readings a
	// unit apart rarely round to one score.
	hybUnit = 2.0
	// hybReadings bounds the readings of one top candidate: g_d is at
	// least twice the budget over it (as Cross's unit, maxCand).
	hybReadings = 64.0
	// hybMaxDigits caps the digits (their integer is a uint64).
	hybMaxDigits = 62
)

func (s hybrid) attack(ctx context.Context, a *multi, srv scorer.Server) (*Result, error) {
	if err := hybridApplies(a); err != nil {
		return nil, err
	}
	st := newLbState(a)
	st.tgt, st.passes, st.maxFresh = hybTarget, carryPasses, hybFresh
	if s.p != nil && s.p.fresh > 0 {
		st.maxFresh = s.p.fresh
	}
	st.query = &hybQuery{st: st}
	return st.run(ctx, srv)
}

// hybridParams tunes Hybrid; tests pass their own in a strategy value
// (hybrid{p: …}).
type hybridParams struct {
	// fresh, if > 0, replaces hybFresh (tests, which need digits in a
	// query of few points).
	fresh int
}

// hybQuery is Hybrid's query design and decoding over a list decoder's
// state (its maxFresh the cap on the top's fresh points, hybFresh): the
// current query has k top fresh points and l digits of unit gd after the
// carried ones.
type hybQuery struct {
	st   *lbState
	k, l int
	gd   float64
}

// sumDelta returns the resolution of a query's sum (sum units) for a
// list decoder's state (Hybrid's and KBin's): Carry's resolution (N
// times the spacing of the score, and the noise), or the spacing of the
// sum S itself where it is coarser (a float64 S ≈ nUnk·ln 2 is rounded to
// ulp(S) before the division by N), S taken at the state's neutral sum
// plus half the room of the query's top.
func (st *lbState) sumDelta(top float64) float64 {
	a := st.a
	res := st.resolution() // fills the base terms
	mean, ok, err := a.emu.ReportFloat(a.lo)
	if !ok || err != nil {
		return res
	}
	s := mean*float64(a.n) + top/2
	if d := a.emu.Spacing(s); d > res && !math.IsInf(d, 0) {
		return d
	}
	return res
}

// digitUnit returns the digits' unit g_d for a resolution delta: unit
// spacings (hybUnit for Hybrid), at least twice the budget b0 of an empty
// query over hybReadings and least, on the row cache's grid; an error if
// it does not fit under the largest weight w.
func (a *multi) digitUnit(delta, unit, least, w float64) (float64, error) {
	b0 := a.budgetFor(nil, nil, false)
	gd := max(unit*delta, 2*b0/hybReadings, least)
	if a.onGrid {
		gd = gridUp(gd)
	}
	if !(gd > 0) || gd > w || math.IsInf(gd, 0) {
		return 0, &BudgetError{Model: a.m.Name, Budget: 2 * b0, Room: w}
	}
	return gd, nil
}

// digitShape returns a list top's fresh points k ≤ len(vf) − 1 and its
// binary digits l ≤ lcap − k of unit gd, the top one at most w (Hybrid's
// design): the most fresh points whose expected list after the query is
// at most tgt without digits, then the most digits that keep it there.
// The expectation is Leaderboard's (lbExpected over the carried sums sl,
// L list entries) with L·2^k candidates of the top, a cell of 2^l·δ (a
// wrong top survives when one of its readings rounds to the score) and
// the digits' spread u²/12 added to the top's (vf[k], the variance of the
// first k fresh sums); digit readings closer than δ add δ/g_d. A list of
// one (nothing carried) gets one digit at least where lcap allows one.
func digitShape(sl, vf []float64, L int, delta, gd, w, tgt float64, lcap int) (k, l int) {
	expect := digitExpect(sl, vf, L, delta, gd)
	k = len(vf) - 1
	for k > 0 && expect(k, 0) > tgt {
		k--
	}
	// The digits: the most that fit the room, the cap and the target.
	l = lastFit(0, maxDigits(gd, w, lcap-k), func(l int) bool { return expect(k, float64(l)) <= tgt })
	if k+l == 0 && L == 1 && lcap > 0 {
		l = 1 // a list of one (nothing carried): one digit at least
	}
	return k, l
}

// maxDigits returns the most binary digits of unit gd, at most
// hybMaxDigits and lcap, whose top one g_d·2^(l−1) is at most w.
func maxDigits(gd, w float64, lcap int) int {
	l := 0
	for l < min(hybMaxDigits, lcap) && math.Ldexp(gd, l) <= w {
		l++
	}
	return l
}

// digitExpect returns digitShape's expected list after a query of k
// fresh points and a digit room of 2^l units (l need not be an integer:
// KBin's rooms are products of 2 and 3).
func digitExpect(sl, vf []float64, L int, delta, gd float64) func(k int, l float64) float64 {
	return func(k int, l float64) float64 {
		u := gd * math.Exp2(l)
		e := lbExpected(sl, float64(L)*math.Exp2(float64(k)), math.Sqrt(vf[k]+u*u/12), delta*math.Exp2(l))
		return e * max(1, delta/gd)
	}
}

// design returns the next query's points (carried, top fresh, digits)
// and rows.
func (h *hybQuery) design() ([]int, []rowInfo, error) {
	st := h.st
	a := st.a
	nFresh := a.nUnk - len(st.cD)
	fw, used, vf := st.freshRows(min(nFresh, st.maxFresh))
	room := 0.0
	for _, r := range fw {
		room += st.row(r).vf
	}
	delta := st.sumDelta(room + float64(len(st.cD))*a.wmax)
	st.cell = delta
	gd, err := a.digitUnit(delta, hybUnit, minUnit, a.wmax)
	if err != nil {
		return nil, nil, err
	}
	cw := st.carryWeights(math.Sqrt(vf[len(fw)]), used, 0)
	sl := st.carriedSums(cw)
	k, l := digitShape(sl, vf, len(st.cand), delta, gd, a.wmax, st.tgt, a.opt.blockCap(nFresh))
	idx := append(slices.Clone(st.cD), st.fresh(k+l)...)
	if len(idx) != len(st.cD)+k+l {
		return nil, nil, errors.New("decode: hybrid: fewer fresh points than designed (internal error)")
	}
	rs := st.palRows(l, cw, fw[:k])
	for j := range l {
		r, err := a.weightRows([]float64{math.Ldexp(gd, j)})
		if err != nil {
			return nil, nil, err
		}
		rs = append(rs, r...)
	}
	h.k, h.l, h.gd = k, l, gd
	return idx, rs, st.err
}

// decode keeps the candidates (list entry, top fresh labels, digits)
// whose emulated score is the score, learns the points they agree on and
// carries the others; it returns the labels learned.
func (h *hybQuery) decode(score *big.Rat, idx []int, rs []rowInfo) (int, error) {
	inc := increments(rs)
	for j := range inc {
		inc[j] = inc[j][1:] // bit 1's increment
	}
	keep, err := h.st.readDigits(score, idx, rs, h.k, new(big.Float), inc, slices.Repeat([]int{2}, h.l), h.gd, false,
		func(_ int, v uint64) int { return int(v) })
	if err != nil {
		return 0, err
	}
	return h.st.update(idx, keep, h.k), nil
}

// digitTail is the digits of a query, read from the exact residual
// (Hybrid's decoding, and KBin's): digits of radices rad
// above the unit gd, digit j of place value p_j = g_d·Π_{i<j} rad_i, its
// value v realized as the increment v·p_j + e_{j,v}, D = Σ_j max_v
// |e_{j,v}|. A top candidate whose exact residual is r is read as every
// integer n ∈ [0, Π rad) with n·g_d within b + D of r (b the rigorous
// budget), its digits n's mixed-radix digits: every labeling of the
// digits whose exact sum lies within b of r is one of them, since its
// sum is n·g_d plus at most D.
type digitTail struct {
	rad    []int // len(rad) digits
	gd     float64
	nmax   uint64
	dev    *big.Float // D
	devf   float64    // D, rounded up
	slack  *big.Float // b + D, widened for the 192-bit arithmetic
	gdb, q *big.Float
}

// readDigits returns the readings of the query idx, rows rs, whose top
// is the list's carried points and k fresh points and whose digits of
// radices rad and unit gd (Hybrid's, KBin's) follow: t0 is the sum of the
// positions' terms at value 0 over those at label 0, inc[j][v − 1]
// position j's increment of value v over value 0, and label(j, v) the
// label whose terms stand for value v. For each list entry l and fresh
// bits m whose top sum leaves a residual within the rigorous budget b of
// the digits' range (windowRange) and each reading n of the digits
// (digitTail), the report is emulated with every position at its value,
// and (l, m, n) kept where it lies within the score's float64 bounds
// (widened by the assumed noise), where the emulation fails (the list may
// only grow by it) or, with inexact, where the report is not exact. It
// returns an error if the query does not match its design or no reading
// is kept.
func (st *lbState) readDigits(score *big.Rat, idx []int, rs []rowInfo, k int, t0 *big.Float, inc [][]*big.Float, rad []int, gd float64, inexact bool,
	label func(j int, v uint64) int) ([]lbSurv, error) {
	a := st.a
	nd := len(st.cD)
	nTop := nd + k
	if len(rs) != len(idx) || len(inc) != len(idx) || len(rad) != len(idx)-nTop {
		return nil, errors.New("decode: a list top's query does not match its design (internal error)")
	}
	budget := a.budgetFor(idx, rs, false)
	// The residual after every position's value 0: the top's bits and
	// the digits' reading explain it.
	r0 := new(big.Float).SetPrec(sumPrec).Sub(a.residual(score, &blockPlan{rows: rs}), t0)
	a.fillBase()
	defer a.neutralize(idx)
	// Each position's computed term at each of its values, read once per
	// query: set runs for every digit of every reading.
	at := make([][]float64, len(idx))
	for j := range at {
		at[j] = make([]float64, len(inc[j])+1)
		for v := range at[j] {
			at[j][v] = rs[j].lo[label(j, uint64(v))]
		}
	}
	set := func(j int, v uint64) { a.lo.Set(idx[j], at[j][v]) }
	vf := make([]float64, nTop)
	for j := range vf {
		vf[j], _ = inc[j][0].Float64()
	}
	dt := newDigitTail(inc[nTop:], rad, gd)
	tf, _ := r0.Float64()
	lo, hi := dt.window(tf, budget, vf)
	sLo, sHi := a.scoreRange(score)
	fLo, fHi := ratDown(sLo), ratUp(sHi)
	rx := new(big.Float).SetPrec(sumPrec)
	var keep []lbSurv
	st.windowRange(lo, hi, tf, vf, k, func(l int, m uint32, _ bool) {
		// The top at the candidate's bits, the residual they leave.
		rx.Set(r0)
		for j := range nTop {
			b := st.bit(l, m, j)
			set(j, uint64(b))
			if b == 1 {
				rx.Sub(rx, inc[j][0])
			}
		}
		// Each reading n: the digits at n's mixed-radix digits.
		n0, n1, ok := dt.read(rx)
		if !ok {
			return
		}
		for n := n0; n <= n1; n++ {
			x := n
			for j, rd := range rad {
				set(nTop+j, x%uint64(rd))
				x /= uint64(rd)
			}
			r, exact, err := a.emu.ReportFloat(a.lo)
			if err != nil || inexact && !exact || (r >= fLo && r <= fHi) {
				keep = append(keep, lbSurv{l: l, m: m, n: n})
			}
			if n == n1 {
				break // n1 may be 2^64 − 1
			}
		}
	})
	if len(keep) == 0 {
		return nil, fmt.Errorf("%w: no labeling of the %d carried, %d fresh and %d digit points explains the score under %s", ErrInconsistent, nd, k, len(rad), a.m.Name)
	}
	return keep, nil
}

// newDigitTail returns the reader of the digits of radices rad and
// realized increments inc (inc[j][v − 1] the increment of digit j's value
// v over its value 0, nominally v·p_j). It panics if a digit's increments
// do not match its radix or Π rad exceeds 2^63.
func newDigitTail(inc [][]*big.Float, rad []int, gd float64) *digitTail {
	d := &digitTail{rad: rad, gd: gd, nmax: 1, dev: new(big.Float).SetPrec(sumPrec)}
	e := new(big.Float).SetPrec(sumPrec)
	mx := new(big.Float).SetPrec(sumPrec)
	place := gd
	for j, vs := range inc {
		r := d.rad[j]
		if len(vs) != r-1 || d.nmax > 1<<63/uint64(r) {
			panic("decode: digitTail: increments do not match the radices")
		}
		mx.SetInt64(0)
		for v, x := range vs {
			e.SetFloat64(float64(v+1) * place)
			e.Sub(x, e)
			if e.Abs(e).Cmp(mx) > 0 {
				mx.Set(e)
			}
		}
		d.dev.Add(d.dev, mx)
		d.nmax *= uint64(r)
		place *= float64(r)
	}
	d.nmax--
	var acc big.Accuracy
	if d.devf, acc = d.dev.Float64(); acc == big.Below {
		d.devf = math.Nextafter(d.devf, math.Inf(1)) // rounded up
	}
	d.gdb = new(big.Float).SetPrec(sumPrec).SetFloat64(gd)
	d.q = new(big.Float).SetPrec(sumPrec)
	return d
}

// window returns the float64 range [lo, hi] of a query's top sums (float64
// increments vf, the residual before the top tf, budget b) that keeps a
// superset of the tops whose exact sums leave a residual in
// [−b − D, u_max + b + D], u_max = (Π rad − 1)·g_d, and sets the
// readings' slack.
func (d *digitTail) window(tf, budget float64, vf []float64) (lo, hi float64) {
	umax := float64(d.nmax) * d.gd
	abs := math.Abs(tf) + umax + budget + d.devf + 1
	for _, x := range vf {
		abs += math.Abs(x)
	}
	// Its sums and conversions, at most len(vf) + 8 roundings of relative
	// 2^−53 on magnitudes at most abs, are off by less than margin.
	margin := float64(len(vf)+8) * 0x1p-52 * abs
	// The readings: n·g_d within b + D of the exact residual (widened by
	// 2^−100 of the magnitudes for the 192-bit arithmetic).
	d.slack = new(big.Float).SetPrec(sumPrec).SetFloat64(budget)
	d.slack.Add(d.slack, d.dev)
	d.slack.Add(d.slack, new(big.Float).SetFloat64(math.Ldexp(abs, -100)))
	return tf - budget - d.devf - umax - margin, tf + budget + d.devf + margin
}

// read returns the readings [n0, n1] of the exact residual rx, the
// integers n ∈ [0, Π rad − 1] with n·g_d within the slack b + D of rx;
// ok false if there are none.
func (d *digitTail) read(rx *big.Float) (n0, n1 uint64, ok bool) {
	d.q.Sub(rx, d.slack).Quo(d.q, d.gdb)
	nlo := bigint.Ceil(d.q)
	d.q.Add(rx, d.slack).Quo(d.q, d.gdb)
	nhi := bigint.Floor(d.q)
	if nhi.Sign() < 0 || (nlo.IsUint64() && nlo.Uint64() > d.nmax) || (!nlo.IsUint64() && nlo.Sign() > 0) {
		return 0, 0, false
	}
	n0, n1 = 0, d.nmax
	if nlo.Sign() > 0 {
		n0 = nlo.Uint64()
	}
	if nhi.IsUint64() {
		n1 = min(n1, nhi.Uint64())
	}
	return n0, n1, true
}
