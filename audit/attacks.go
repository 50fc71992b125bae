package audit

// This file runs the attacks of one cell against its target, each told
// which defence is in place, and measures what each recovers.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"

	"github.com/labelinf/labelinf/adaptive"
	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// AttackResult is what one attack achieved against one cell. Fractions
// are of the public rows (every row without a split) and of the private
// rows; a label counts as recovered when the attack claims it and it is
// right, and as verified when the attack also verified it. An
// extrapolated attack ran on a prefix (Submissions of them) and its
// Needed and fractions are projected from it linearly.
type AttackResult struct {
	Attack string `json:"attack"`
	// Outcome is "recovered" (≥ half the public labels, ≥ 99 % of the
	// claimed ones right), "partial" (fewer, as accurately), "guesses"
	// (more than 1 % of the claims wrong), "failed" or "not run".
	Outcome string `json:"outcome"`
	Note    string `json:"note,omitempty"`
	// Submissions actually made.
	Submissions int `json:"submissions"`
	// Needed is the submissions the whole attack takes (Submissions
	// unless Extrapolated); 0 when it failed.
	Needed       int64 `json:"needed"`
	Extrapolated bool  `json:"extrapolated,omitempty"`
	// Claimed, Wrong: labels claimed and claimed wrongly (of the rows
	// attacked).
	Claimed int `json:"claimed"`
	Wrong   int `json:"wrong"`
	// Fractions of the whole attack (extrapolated from the prefix).
	PublicRecovered  float64 `json:"public_recovered"`
	PublicVerified   float64 `json:"public_verified"`
	PrivateRecovered float64 `json:"private_recovered"`
	PrivateVerified  float64 `json:"private_verified"`
	// Boosting only: the released score of the majority vote and its true
	// score on every holdout row (the overfitting the attack achieves is
	// True − Reported).
	Reported *float64 `json:"reported,omitempty"`
	True     *float64 `json:"true,omitempty"`
	// FreshAccounts: the attack submits each query from a new account
	// (against a per-team state, each account's first release), so it
	// needs as many accounts as submissions.
	FreshAccounts bool `json:"fresh_accounts,omitempty"`

	// progress, if set, returns the share of the attack's labels it
	// holds after v submissions (from its measured progress); nil is
	// linear in v up to Needed.
	progress func(v int64) float64
}

// share returns the share of the attack's recovered labels it holds
// after v submissions.
func (a *AttackResult) share(v int64) float64 {
	if v >= a.Needed {
		return 1
	}
	if v <= 0 {
		return 0
	}
	if a.progress != nil {
		return min(1, max(0, a.progress(v)))
	}
	return float64(v) / float64(a.Needed)
}

// curve is a multi-query attack's measured progress: labels known after
// each query.
type curve struct {
	q, known []int
}

func (c *curve) add(known, q int) {
	c.q = append(c.q, q)
	c.known = append(c.known, known)
}

// at returns the labels known after v queries: measured up to the last
// query, then linear from there to all n at needed.
func (c *curve) at(v int64, n int, needed int64) float64 {
	i := sort.Search(len(c.q), func(i int) bool { return int64(c.q[i]) > v }) - 1
	if i < 0 {
		return 0
	}
	k := float64(c.known[i])
	if last := len(c.q) - 1; i == last && v > int64(c.q[last]) && needed > int64(c.q[last]) {
		k += (float64(n) - k) * float64(v-int64(c.q[last])) / float64(needed-int64(c.q[last]))
	}
	return k
}

// Recovered reports whether the attack recovers the labels: at least
// half of the public ones right and at most 1 % of its claims wrong.
func (a *AttackResult) Recovered() bool {
	return a.Needed > 0 && a.PublicRecovered >= 0.5 && a.Accurate()
}

// Accurate reports whether the attack claimed labels and at most 1 % of
// them are wrong: claims less accurate than that are guesses, and the
// audit does not count them as recovered labels.
func (a *AttackResult) Accurate() bool {
	return a.Claimed > 0 && a.Wrong*100 <= a.Claimed
}

// cellRun is one cell's attack context.
type cellRun struct {
	comp    *competition
	cell    Cell
	seed    [32]byte
	factory TargetFactory
	public  []bool // public[i]: row i is on the public leaderboard
	nPub    int
	// cut[fresh] is the fewest submissions with which a multi-query
	// strategy of that view recovered every label: later ones of the view
	// run up to it, no further.
	cut map[bool]int
}

// Attack names, in the order they run.
const (
	AttackBlocks  = "block code"
	AttackPrimes  = "ICML Alg 1"
	AttackAlg3    = "ICML Alg 3"
	AttackEdge    = "threshold crossing"
	AttackAverage = "averaging"
	AttackBoost   = "boosting"
)

// open opens a fresh target for one attack.
func (c *cellRun) open(ctx context.Context) (Target, error) {
	return c.factory(ctx, Spec{Labels: c.comp.labels, Model: c.comp.model, Metric: c.comp.cfg.Metric, Clip: c.comp.cfg.Clip, K: c.comp.cfg.Classes, Cell: c.cell, Seed: c.seed})
}

// attackerNoise is the cell's noise as the attacker models it.
func (c *cellRun) attackerNoise() scorer.Noise {
	z := c.cell.Defence.Noise
	if z == nil {
		return scorer.Noise{}
	}
	switch z.Kind {
	case "laplace":
		return scorer.Noise{Kind: scorer.Laplace, Tau: z.Scale, Delta: 1e-6}
	}
	return scorer.Noise{Kind: scorer.Gaussian, Tau: z.Scale, Delta: 1e-6}
}

// server adapts a Target to scorer.Server for package decode. With
// fresh set, every submission comes from a new account (a Sybil
// attacker: against a per-team state each account's first submission).
type server struct {
	t     Target
	q     int
	fresh bool
}

func (s *server) N() int       { return s.t.Rows() }
func (s *server) K() int       { return 2 }
func (s *server) Queries() int { return s.q }
func (s *server) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s.q++
	return s.t.Submit(ctx, teamName(s.fresh, s.q), p.P)
}

// teamName is the attacker's account for its q-th submission (from 1):
// one account, or a fresh one per submission.
func teamName(fresh bool, q int) string {
	if fresh {
		return fmt.Sprintf("sybil-%d", q)
	}
	return "attacker"
}

// board adapts a Target to adaptive.Leaderboard, as server does.
type board struct {
	t     Target
	q     int
	fresh bool
}

func (b *board) Submit(ctx context.Context, pred []float64) (float64, error) {
	b.q++
	r, err := b.t.Submit(ctx, teamName(b.fresh, b.q), pred)
	if err != nil {
		return 0, err
	}
	f, _ := r.Float64()
	return f, nil
}

// tally fills the counts and fractions of r from the labels claimed on
// rows (nil: all), verified where ver says so (nil: none), scaling the
// fractions to the rows attacked.
func (c *cellRun) tally(r *AttackResult, rows []int, labels func(i int) (int, bool), ver func(i int) bool) {
	var pubRows, privRows, pubRec, pubVer, privRec, privVer int
	visit := func(i int) {
		y, ok := labels(i)
		if c.public[i] {
			pubRows++
		} else {
			privRows++
		}
		if !ok {
			return
		}
		r.Claimed++
		if y != c.comp.labels[i] {
			r.Wrong++
			return
		}
		v := ver != nil && ver(i)
		if c.public[i] {
			pubRec++
			if v {
				pubVer++
			}
		} else {
			privRec++
			if v {
				privVer++
			}
		}
	}
	if rows == nil {
		for i := range c.comp.labels {
			visit(i)
		}
	} else {
		for _, i := range rows {
			visit(i)
		}
	}
	frac := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	r.PublicRecovered, r.PublicVerified = frac(pubRec, pubRows), frac(pubVer, pubRows)
	r.PrivateRecovered, r.PrivateVerified = frac(privRec, privRows), frac(privVer, privRows)
}

// outcome sets r.Outcome from its counts.
func outcome(r *AttackResult) {
	switch {
	case r.Outcome != "":
	case r.Recovered():
		r.Outcome = "recovered"
	case r.Needed > 0 && r.Accurate():
		r.Outcome = "partial"
	case r.Claimed > 0 && !r.Accurate():
		r.Outcome = "guesses"
	default:
		r.Outcome = "failed"
	}
}

// multi runs a multi-query strategy (decode.AttackMulti) told the
// cell's rounding and noise, for at most Measure queries; if it is still
// going then, its cost is extrapolated from its rate of known labels.
func (c *cellRun) multi(ctx context.Context, name string, st decode.Strategy, v view) (*AttackResult, error) {
	t, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	n := len(c.comp.labels)
	measure := c.comp.cfg.Measure
	cut := false
	if q, ok := c.cut[v.fresh]; ok && q < measure {
		measure, cut = q, true
	}
	srv := &server{t: t, fresh: v.fresh}
	var cv curve
	res, aerr := decode.AttackMulti(ctx, scorer.PerPoint(srv, v.model), decode.MultiOptions{
		Strategy: st, Model: v.model, Noise: c.attackerNoise(), MaxQueries: measure, Check: true,
		Progress: cv.add,
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := &AttackResult{Attack: name, Submissions: srv.q, FreshAccounts: v.fresh}
	if res == nil {
		r.Outcome, r.Note = "failed", short(aerr)
		return r, nil
	}
	known := 0
	for _, k := range res.Known {
		if k {
			known++
		}
	}
	c.tally(r, nil, func(i int) (int, bool) { return res.Labels[i], res.Known[i] }, func(i int) bool { return res.Known[i] })
	// The share of its labels the attack holds after v submissions: its
	// measured known labels over those it ends with (all n when
	// projected); the final check adds none.
	r.progress = func(v int64) float64 {
		end := float64(known)
		if r.Extrapolated {
			end = float64(n)
		}
		if end == 0 {
			return 0
		}
		return cv.at(v, n, r.Needed) / end
	}
	switch {
	case aerr == nil && res.Verified && res.Checked:
		r.Needed = int64(srv.q)
	case known > 0 && srv.q >= measure:
		// Still decoding at the measuring limit: project at the same rate.
		r.Needed = int64(math.Ceil(float64(srv.q) * float64(n) / float64(known)))
		r.Extrapolated = true
		r.Note = fmt.Sprintf("%d of %d labels known after %d queries; cost projected at that rate", known, n, srv.q)
		if cut {
			r.Note += " (stopped at the cost of a strategy that recovered every label)"
		}
		scale := float64(n) / float64(known)
		r.PublicRecovered = math.Min(1, r.PublicRecovered*scale)
		r.PublicVerified = math.Min(1, r.PublicVerified*scale)
		r.PrivateRecovered = math.Min(1, r.PrivateRecovered*scale)
		r.PrivateVerified = math.Min(1, r.PrivateVerified*scale)
	default:
		r.Note = short(aerr)
		if cut {
			r.Note = joinNote("stopped at the cost of a strategy that recovered every label", r.Note)
		}
	}
	outcome(r)
	return r, nil
}

// short shortens an error for the report.
func short(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if len(s) > 160 {
		s = s[:157] + "..."
	}
	return s
}

// edge runs the threshold-crossing attack (adaptive.Edge, with
// verification) on a prefix of rows that fits in Measure submissions and
// projects it to every row.
func (c *cellRun) edge(ctx context.Context, v view) (*AttackResult, error) {
	t, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	n := len(c.comp.labels)
	measure := c.comp.cfg.Measure
	nrows := min(n, (measure-edgeBisection)/2)
	rows := make([]int, nrows)
	for i := range rows {
		rows[i] = i
	}
	eps := max(c.comp.eps, 1e-15)
	res, aerr := adaptive.Edge(ctx, &board{t: t, fresh: v.fresh}, adaptive.EdgeOptions{N: n, Eps: eps, Rows: rows, Verify: true, MaxSubmissions: measure})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := &AttackResult{Attack: AttackEdge, FreshAccounts: v.fresh}
	if res == nil {
		r.Outcome, r.Note = "failed", short(aerr)
		return r, nil
	}
	r.Submissions = res.Submissions
	c.tally(r, rows, func(i int) (int, bool) { return int(res.Labels[i]), res.Labels[i] != adaptive.Unknown },
		func(i int) bool { return res.Verified[i] })
	switch {
	case aerr != nil:
		r.Note = short(aerr)
	case res.Known == 0:
		r.Note = "no label read"
	default:
		perRow := float64(res.Submissions-res.Bisection) / float64(nrows)
		r.Needed = int64(res.Bisection) + int64(math.Ceil(perRow*float64(n)))
		// Nothing is read before the bisection ends; then a steady cost
		// per row.
		b, need := float64(res.Bisection), float64(r.Needed)
		r.progress = func(v int64) float64 { return (float64(v) - b) / (need - b) }
		if nrows < n {
			r.Extrapolated = true
			r.Note = fmt.Sprintf("measured on the first %d rows (%d bisection + %.0f per row)", nrows, res.Bisection, perRow)
		}
		if res.Contradictions > 0 {
			r.Note = fmt.Sprintf("%d contradictions", res.Contradictions)
		}
	}
	outcome(r)
	return r, nil
}

// edgeBisection is a generous allowance for Edge's bisection (≈ 55).
const edgeBisection = 80

// averageDelta is the per-label error probability averaging aims for.
const averageDelta = 1e-3

// average runs the averaging attack against fresh noise, with the
// repeats [adaptive.RepeatsFor] gives for the cell's noise scale, on as
// many rows as Measure submissions allow (at least one label) and
// projects its cost (repeats × rows) to every row; with more repeats per
// label than Measure it does not run, the cost being repeats × N.
func (c *cellRun) average(ctx context.Context) (*AttackResult, error) {
	n := len(c.comp.labels)
	z := c.cell.Defence.Noise
	sigma := z.Scale
	if z.Kind == "laplace" {
		sigma *= math.Sqrt2
	}
	eps := max(c.comp.eps, 1e-15)
	gap := math.Log((1-eps)/eps) / float64(n)
	m, err := adaptive.RepeatsFor(sigma, gap, averageDelta)
	r := &AttackResult{Attack: AttackAverage}
	if err != nil {
		r.Outcome, r.Note = "not run", short(err)
		return r, nil
	}
	measure := c.comp.cfg.Measure
	if m > measure {
		r.Outcome = "not run"
		r.Needed = int64(m) * int64(n)
		r.Extrapolated = true
		r.Note = fmt.Sprintf("%d repeats per label (more than the %d measured submissions): %d submissions in all", m, measure, r.Needed)
		return r, nil
	}
	nrows := min(n, measure/m)
	rows := make([]int, nrows)
	for i := range rows {
		rows[i] = i
	}
	t, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	res, aerr := adaptive.AverageLabels(ctx, &board{t: t}, adaptive.AverageOptions{N: n, Eps: eps, Rows: rows, Repeats: m})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if res == nil {
		r.Outcome, r.Note = "failed", short(aerr)
		return r, nil
	}
	r.Submissions = res.Submissions
	c.tally(r, rows, func(i int) (int, bool) { return int(res.Labels[i]), res.Labels[i] != adaptive.Unknown }, nil)
	if aerr != nil {
		r.Note = short(aerr)
	} else {
		r.Needed = int64(m) * int64(n)
		r.Extrapolated = nrows < n
		r.Note = fmt.Sprintf("%d repeats per label, measured on %d rows", m, nrows)
	}
	outcome(r)
	return r, nil
}

// boostK is the boosting attack's number of random vectors ([BH15]'s
// k = 400).
const boostK = 400

// boost runs the boosting attack of [BH15] in its Ladder form (keep the
// vectors that lowered the released score) and reports how far the
// released score of its majority vote falls below the vote's true score.
// Its labels are guesses, never verified.
func (c *cellRun) boost(ctx context.Context) (*AttackResult, error) {
	t, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	n := len(c.comp.labels)
	s := c.seed
	rng := rand.New(rand.NewChaCha8(derive32(s, "boost")))
	res, aerr := adaptive.Boost(ctx, &board{t: t}, adaptive.BoostOptions{N: n, K: min(boostK, c.comp.cfg.Measure), Mode: adaptive.KeepLowered, Rand: rng, SubmitFinal: true})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := &AttackResult{Attack: AttackBoost}
	if res == nil || aerr != nil {
		r.Outcome, r.Note = "failed", short(aerr)
		if res != nil {
			r.Submissions = res.Submissions
		}
		return r, nil
	}
	r.Submissions = res.Submissions
	c.tally(r, nil, func(i int) (int, bool) { return int(res.Boosted[i]), true }, nil)
	rep := res.Final
	tr, err := c.comp.model.Eval(c.comp.labels, &scorer.Pred{K: 2, P: res.Boosted})
	if err == nil {
		f, _ := tr.Float64()
		r.True = &f
	}
	r.Reported = &rep
	r.Note = fmt.Sprintf("%d of %d vectors kept; the vote's labels are guesses", res.Kept, res.Submissions-1)
	outcome(r)
	return r, nil
}

// derive32 returns a 32-byte key for one stream of a cell.
func derive32(seed [32]byte, label string) [32]byte {
	var out [32]byte
	h := hash64(label)
	for i := range out {
		out[i] = seed[i] ^ byte(h>>(8*(i%8))) ^ byte(i)
	}
	return out
}
