// This file keeps the evidence an attack gathers (every prediction sent
// and the score answered) and replays it under another scorer model: the
// labels that model reads from the scores, or the first score no labeling
// explains under it. An attacker whose assumed model failed mid-attack
// re-identifies the scorer with it (package fingerprint).

package decode

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sync"

	"github.com/labelinf/labelinf/scorer"
)

// A Transcript records the queries a [Recorder] sent and the scores it
// got back: each prediction as the entries that changed since the one
// before (an attack's predictions differ in a block), so an attack of Q
// queries costs O(N + Q·block), not O(Q·N).
type Transcript struct {
	n, k  int
	steps []step
}

type step struct {
	idx   []int32   // entries of Pred.P changed since the previous query
	val   []float64 // their new values
	score *big.Rat
}

// Len returns the number of queries recorded.
func (t *Transcript) Len() int { return len(t.steps) }

// A Recorder is a [scorer.Server] that records every answered query of
// the server it wraps in a [Transcript]. A query the server fails is not
// recorded: it is no evidence about the model. It is safe for concurrent
// use if the wrapped server is (queries are recorded in answer order).
type Recorder struct {
	scorer.Server
	mu   sync.Mutex
	t    Transcript
	last []float64 // the prediction of the last recorded query
}

// NewRecorder returns a Recorder wrapping s.
func NewRecorder(s scorer.Server) *Recorder {
	return &Recorder{Server: s, t: Transcript{n: s.N(), k: s.K()}}
}

// Score asks the wrapped server and records the query and its answer.
func (r *Recorder) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s, err := r.Server.Score(ctx, p)
	if err != nil || s == nil {
		return s, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.last == nil {
		r.last = slices.Repeat([]float64{math.NaN()}, len(p.P)) // every entry changes on the first query
	}
	if len(p.P) != len(r.last) {
		return s, nil // a malformed prediction the server accepted: not evidence we can replay
	}
	st := step{score: new(big.Rat).Set(s)}
	for i, v := range p.P {
		if math.Float64bits(v) != math.Float64bits(r.last[i]) {
			st.idx = append(st.idx, int32(i))
			st.val = append(st.val, v)
			r.last[i] = v
		}
	}
	r.t.steps = append(r.t.steps, st)
	return s, nil
}

// Transcript returns the queries recorded so far (a snapshot: later
// queries are not added to it).
func (r *Recorder) Transcript() *Transcript {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.t
	t.steps = slices.Clip(t.steps)
	return &t
}

// A Replay is what [ReplayTranscript] reads from a transcript under one
// model.
type Replay struct {
	// Labels are the labels the scores determine under the model (N
	// entries, −1 where undetermined): a label is learned from a score
	// when every labeling that explains the score agrees on it.
	Labels []int
	// Refuted is the index of the first query whose score no labeling
	// explains under the model (−1 if every score has one), and Reason
	// says why.
	Refuted int
	Reason  string
	// Undecided counts the queries with too many labelings to search
	// (they refute nothing and teach nothing).
	Undecided int
}

// replayNodes bounds the search of one query's labelings; replayMaxSol
// the labelings kept (more leave the query undecided).
const (
	replayNodes  = 1 << 20
	replayMaxSol = 64
)

// ReplayTranscript reads the scores of t's queries from query from on
// (the predictions before it are applied, their scores ignored) under
// model m, in order: a query's rows whose labels are unknown (and whose
// terms differ by class) are its unknowns, and the labelings of them
// whose exact sum (scorer.Model.Terms) lies within the model's rigorous
// error budget ([scorer.Model.Bound], taken at the deepest term of the
// sum) of N times the score are searched depth first, the largest
// increments first, pruning a branch whose remaining increments cannot
// reach the score. Where m can be emulated ([scorer.Model.NewEmulator])
// and the attack did not forbid it, a labeling must also put the score
// within the emulated bracket of the whole query. A labeling that
// survives teaches its labels when all survivors agree; no survivor
// refutes m (the same criterion as the attack's verification of a block,
// so a model the attack refuted is refuted by its transcript too, where
// both use the same budget or brackets).
//
// known, if not nil, are labels known beforehand (N entries, −1
// unknown). It returns ctx's error when ctx is done.
func ReplayTranscript(ctx context.Context, t *Transcript, from int, m *scorer.Model, known []int, noEmulation bool) (*Replay, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	if from < 0 || from > len(t.steps) {
		return nil, fmt.Errorf("decode: replay from query %d of %d", from, len(t.steps))
	}
	n, k, w := t.n, t.k, predWidth(t.k)
	rp := &replayer{n: n, k: k, w: w, m: m, rows: map[string]int32{}, labels: slices.Repeat([]int{-1}, n), id: slices.Repeat([]int32{-1}, n), cur: make([]float64, n*w)}
	if known != nil {
		if err := checkKnown(known, n, k); err != nil {
			return nil, err
		}
		copy(rp.labels, known)
	}
	if e, err := m.NewEmulator(); err == nil && !noEmulation {
		rp.emu = e
	}
	rp.depth = m.Depths(n)
	for _, d := range rp.depth {
		rp.maxD = max(rp.maxD, d)
	}
	out := &Replay{Refuted: -1}
	for q := range t.steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st := &t.steps[q]
		for j, i := range st.idx {
			rp.cur[i] = st.val[j]
		}
		if q < from {
			continue
		}
		rp.refresh(st, q == from)
		score := st.score
		if !m.Exact && m.Loss.Total {
			// The attacker reads a summing server per point (scorer.PerPoint).
			score = new(big.Rat).Quo(score, new(big.Rat).SetInt64(int64(n)))
		}
		sols, undecided, err := rp.solve(score)
		if err != nil {
			out.Refuted, out.Reason = q, err.Error()
			break
		}
		if undecided {
			out.Undecided++
			continue
		}
		if len(sols) == 0 {
			f, _ := st.score.Float64()
			out.Refuted, out.Reason = q, fmt.Sprintf("query %d: no labeling of its %d unknown rows explains the score %v under %s", q+1, len(rp.unk), f, m.Name)
			break
		}
		for j, i := range rp.unk {
			if c := sols[0][j]; !slices.ContainsFunc(sols[1:], func(s []int) bool { return s[j] != c }) {
				rp.labels[i] = c
			}
		}
	}
	out.Labels = rp.labels
	return out, nil
}

// replayer is the state of one replay.
type replayer struct {
	n, k, w int
	m       *scorer.Model
	emu     *scorer.Emulator
	depth   []int
	maxD    int
	cur     []float64 // the current prediction
	rows    map[string]int32
	info    []rowTerms
	id      []int32 // row id of each point (−1: not yet seen)
	labels  []int
	unk     []int // the current query's unknowns, in the search's order (solve)
	// elo, ehi: the current query's term brackets in the server's cached
	// summation tree, every point at its label or base class; fitsEmu
	// sets only the unknowns (nil: not built for this query yet).
	elo, ehi *scorer.Terms
	eset     []int // the unknowns' classes now set in elo and ehi
	// sDown and sUp are the score's float64 bounds (floatBounds), which
	// fitsEmu compares with the float64 reports exactly.
	sDown, sUp float64
}

// rowTerms are the exact terms of one distinct prediction row.
type rowTerms struct {
	t       []*big.Float
	tf      []float64 // rounded up
	max     float64
	neutral bool // every class has the same finite term
	base    int  // the first class whose term is finite (−1: none)
	// inc[c] is t[c] − t[base] (NaN where t[c] is infinite: not a
	// possible label), between incLo and incHi.
	inc          []float64
	incLo, incHi float64
	lo, hi       []float64
	err          error
}

// refresh updates the row ids of the changed points (all on the first
// query).
func (rp *replayer) refresh(st *step, all bool) {
	update := func(i int) {
		row := rp.cur[i*rp.w : (i+1)*rp.w]
		key := make([]byte, 0, 8*len(row))
		for _, v := range row {
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(v))
		}
		id, ok := rp.rows[string(key)]
		if !ok {
			id = int32(len(rp.info))
			rp.rows[string(key)] = id
			rp.info = append(rp.info, rp.terms(row))
		}
		rp.id[i] = id
	}
	if all {
		for i := range rp.n {
			update(i)
		}
		return
	}
	for q, e := range st.idx {
		if i := int(e) / rp.w; q == 0 || i != int(st.idx[q-1])/rp.w {
			update(i) // a point's entries are consecutive in idx
		}
	}
}

// terms computes the exact terms of a row of the prediction ([p] for
// binary, K values otherwise); an error is kept: the model predicts a
// server error for the row, and a query holding it refutes the model.
func (rp *replayer) terms(row []float64) rowTerms {
	t, err := rp.m.Terms(row)
	if err != nil {
		return rowTerms{err: err}
	}
	// A class whose term is infinite (the log of 0, unclipped) cannot be
	// a point's label when the score is finite: it is left out.
	ri := rowTerms{t: t, tf: make([]float64, len(t)), neutral: true, base: -1,
		inc: make([]float64, len(t)), incLo: math.Inf(1), incHi: math.Inf(-1)}
	if rp.emu != nil {
		ri.lo, ri.hi = make([]float64, len(t)), make([]float64, len(t))
	}
	for c, v := range t {
		if v.IsInf() {
			ri.tf[c], ri.neutral, ri.inc[c] = math.Inf(1), false, math.NaN()
			continue
		}
		if rp.emu != nil {
			ri.lo[c], ri.hi[c] = rp.emu.TermRange(v)
		}
		if ri.base < 0 {
			ri.base = c
		}
		f, _ := v.Float64()
		ri.tf[c] = math.Nextafter(f, math.Inf(1))
		ri.max = max(ri.max, ri.tf[c])
		ri.inc[c], _ = new(big.Float).SetPrec(incPrec).Sub(v, t[ri.base]).Float64()
		ri.incLo, ri.incHi = min(ri.incLo, ri.inc[c]), max(ri.incHi, ri.inc[c])
		if v.Cmp(t[ri.base]) != 0 {
			ri.neutral = false
		}
	}
	if ri.base < 0 {
		ri.err = fmt.Errorf("every class of the row %v has an infinite term", row)
	}
	return ri
}

// solve returns the labelings of the current query's unknowns that
// explain score (each a class per unknown, in rp.unk's order), or
// undecided if there are too many to search. An error means the model
// cannot produce a score for this query at all.
func (rp *replayer) solve(score *big.Rat) (sols [][]int, undecided bool, err error) {
	rp.sDown, rp.sUp = floatBounds(score)
	rp.unk = rp.unk[:0]
	rp.elo, rp.ehi = nil, nil
	// The constant part: known points at their label's term, neutral and
	// unknown points at their base class's, counted by row and class.
	counts := make([]int64, len(rp.info)*rp.k)
	b := scorer.Budget{N: rp.n, MaxD: rp.maxD}
	for i := range rp.n {
		ri := &rp.info[rp.id[i]]
		if ri.err != nil {
			return nil, false, fmt.Errorf("point %d: %v", i, ri.err)
		}
		c, tm := rp.labels[i], ri.max // an unknown point's largest term
		if c < 0 {
			if !ri.neutral {
				rp.unk = append(rp.unk, i)
			}
			c = ri.base
		} else if ri.t[c].IsInf() {
			return nil, false, fmt.Errorf("point %d: its label %d has an infinite term (the log of 0), but the score is finite", i, c)
		} else {
			tm = ri.tf[c]
		}
		counts[int(rp.id[i])*rp.k+c]++
		b.SumT += tm
		b.SumDT += float64(rp.depth[i]) * tm
		b.Max = max(b.Max, tm)
	}
	// Round the float64 sums up: recursive summation of N ≤ 2^17 terms is
	// low by at most γ(N) < 2^−35 relative.
	b.SumT *= 1 + 0x1p-30
	b.SumDT *= 1 + 0x1p-30
	budget := rp.m.Bound(b)
	if math.IsInf(budget, 0) || math.IsNaN(budget) {
		return nil, true, nil
	}
	cst := new(big.Float).SetPrec(sumPrec)
	// In a fixed order (each addition rounds to sumPrec bits).
	for g, cnt := range counts {
		if cnt > 0 {
			cst.Add(cst, timesN(rp.info[g/rp.k].t[g%rp.k], cnt))
		}
	}
	target, _ := new(big.Float).SetPrec(sumPrec).Sub(nTimes(score, rp.n), cst).Float64()
	// The unknowns by the spread of their increments, largest first;
	// suffix ranges for pruning.
	slices.SortStableFunc(rp.unk, func(a, b int) int {
		ra, rb := &rp.info[rp.id[a]], &rp.info[rp.id[b]]
		return cmp.Compare(rb.incHi-rb.incLo, ra.incHi-ra.incLo)
	})
	u := len(rp.unk)
	rows := make([]*rowTerms, u)
	sufLo, sufHi := make([]float64, u+1), make([]float64, u+1)
	for x := u - 1; x >= 0; x-- {
		rows[x] = &rp.info[rp.id[rp.unk[x]]]
		sufLo[x], sufHi[x] = sufLo[x+1]+rows[x].incLo, sufHi[x+1]+rows[x].incHi
	}
	// The float64 sums of increments are off by at most u·2^−50·Σ|inc|:
	// widen the budget by that (and the target's rounding).
	slack := budget + 1e-12*(math.Abs(target)+sufHi[0]-sufLo[0]) + 1e-300
	sigma := make([]int, u)
	nodes := 0
	var dfs func(x int, rem float64) bool
	dfs = func(x int, rem float64) bool {
		nodes++
		if nodes > replayNodes || len(sols) > replayMaxSol {
			return false
		}
		if rem < sufLo[x]-slack || rem > sufHi[x]+slack {
			return true
		}
		if x == u {
			if rp.emu == nil || rp.fitsEmu(score, sigma) {
				sols = append(sols, slices.Clone(sigma))
			}
			return true
		}
		for c, d := range rows[x].inc {
			if math.IsNaN(d) {
				continue // an infinite term: not this point's label
			}
			sigma[x] = c
			if !dfs(x+1, rem-d) {
				return false
			}
		}
		return true
	}
	if !dfs(0, target) {
		return nil, true, nil
	}
	return sols, false, nil
}

// fitsEmu reports whether score lies in the emulated bracket of the
// current query with the unknowns at sigma.
func (rp *replayer) fitsEmu(score *big.Rat, sigma []int) bool {
	if rp.elo == nil {
		rp.elo, rp.ehi = rp.emu.NewCachedTerms(rp.n), rp.emu.NewCachedTerms(rp.n)
		for i := range rp.n {
			ri := &rp.info[rp.id[i]]
			c := rp.labels[i]
			if c < 0 {
				c = ri.base
			}
			rp.elo.Set(i, ri.lo[c])
			rp.ehi.Set(i, ri.hi[c])
		}
		rp.eset = slices.Repeat([]int{-1}, len(rp.unk)) // not set yet
	}
	// The search moves sigma's suffix between calls: only the points
	// whose class changed are set again.
	for j, i := range rp.unk {
		if rp.eset[j] == sigma[j] {
			continue
		}
		ri := &rp.info[rp.id[i]]
		rp.elo.Set(i, ri.lo[sigma[j]])
		rp.ehi.Set(i, ri.hi[sigma[j]])
		rp.eset[j] = sigma[j]
	}
	if fa, ok, errA := rp.emu.ReportFloat(rp.elo); ok || errA != nil {
		fb, _, errB := rp.emu.ReportFloat(rp.ehi)
		if errA != nil || errB != nil {
			return true // no bracket: the budget alone decides
		}
		return rp.sDown >= fa && rp.sUp <= fb // score ≥ fa and score ≤ fb
	}
	a, errA := rp.emu.Report(rp.elo)
	b, errB := rp.emu.Report(rp.ehi)
	if errA != nil || errB != nil {
		return true // no bracket: the budget alone decides
	}
	return score.Cmp(a) >= 0 && score.Cmp(b) <= 0
}

// floatBounds returns the largest float64 at most r and the least at
// least r (−Inf or +Inf past the float64 range), so that for every
// float64 f, r ≥ f exactly when down ≥ f, and r ≤ f when up ≤ f: one
// exact comparison a score instead of one a candidate. (Float64's exact
// flag is not used: it reads true for a score that underflows to 0, Go
// 1.26.)
func floatBounds(r *big.Rat) (down, up float64) {
	f, _ := r.Float64() // the nearest
	switch {
	case math.IsInf(f, 1):
		return math.MaxFloat64, f
	case math.IsInf(f, -1):
		return f, -math.MaxFloat64
	}
	switch new(big.Rat).SetFloat64(f).Cmp(r) {
	case 1:
		return math.Nextafter(f, math.Inf(-1)), f
	case -1:
		return f, math.Nextafter(f, math.Inf(1))
	}
	return f, f
}
