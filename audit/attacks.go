package audit

// This file runs the attacks of one cell against its target, each told
// which defence is in place, and measures what each recovers.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"

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

// attacks runs every attack that applies to the cell.
func (c *cellRun) attacks(ctx context.Context) ([]AttackResult, error) {
	var out []AttackResult
	d := c.cell.Defence
	for _, st := range []struct {
		name string
		s    decode.Strategy
	}{{AttackBlocks, decode.Blocks}, {AttackPrimes, decode.Primes}, {AttackAlg3, decode.Alg3}} {
		r, err := c.multi(ctx, st.name, st.s)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	r, err := c.edge(ctx)
	if err != nil {
		return nil, err
	}
	out = append(out, *r)
	if d.Noise != nil && (d.Noise.Key == "" || d.Noise.Key == "fresh") {
		r, err := c.average(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	if d.Ladder != nil {
		r, err := c.boost(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, *r)
	}
	return out, nil
}

// open opens a fresh target for one attack.
func (c *cellRun) open(ctx context.Context) (Target, error) {
	return c.factory(ctx, Spec{Labels: c.comp.labels, Model: c.comp.model, Metric: c.comp.cfg.Metric, Clip: c.comp.cfg.Clip, K: c.comp.cfg.Classes, Cell: c.cell, Seed: c.seed})
}

// attackerModel is the scorer model of the cell as the attacker plans
// with it: the metric, rounded as the cell rounds.
func (c *cellRun) attackerModel() *scorer.Model {
	m := *c.comp.model
	m.Decimals = -1
	if d := c.cell.Defence.Decimals; d != nil {
		m.Decimals = *d
	}
	return &m
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

// server adapts a Target to scorer.Server for package decode.
type server struct {
	t Target
	q int
}

func (s *server) N() int       { return s.t.Rows() }
func (s *server) K() int       { return 2 }
func (s *server) Queries() int { return s.q }
func (s *server) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s.q++
	return s.t.Submit(ctx, "attacker", p.P)
}

// board adapts a Target to adaptive.Leaderboard.
type board struct {
	t Target
}

func (b board) Submit(ctx context.Context, pred []float64) (*big.Rat, error) {
	return b.t.Submit(ctx, "attacker", pred)
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
func (c *cellRun) multi(ctx context.Context, name string, st decode.Strategy) (*AttackResult, error) {
	t, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	n := len(c.comp.labels)
	measure := c.comp.cfg.Measure
	srv := &server{t: t}
	res, aerr := decode.AttackMulti(ctx, srv, decode.MultiOptions{
		Strategy: st, Model: c.attackerModel(), Noise: c.attackerNoise(), MaxQueries: measure,
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := &AttackResult{Attack: name, Submissions: srv.q}
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
	switch {
	case aerr == nil && res.Verified:
		r.Needed = int64(srv.q)
	case known > 0 && srv.q >= measure:
		// Still decoding at the measuring limit: project at the same rate.
		r.Needed = int64(math.Ceil(float64(srv.q) * float64(n) / float64(known)))
		r.Extrapolated = true
		r.Note = fmt.Sprintf("%d of %d labels known after %d queries; cost projected at that rate", known, n, srv.q)
		scale := float64(n) / float64(known)
		r.PublicRecovered = math.Min(1, r.PublicRecovered*scale)
		r.PublicVerified = math.Min(1, r.PublicVerified*scale)
		r.PrivateRecovered = math.Min(1, r.PrivateRecovered*scale)
		r.PrivateVerified = math.Min(1, r.PrivateVerified*scale)
	default:
		r.Note = short(aerr)
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
func (c *cellRun) edge(ctx context.Context) (*AttackResult, error) {
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
	res, aerr := adaptive.Edge(ctx, board{t}, adaptive.EdgeOptions{N: n, Eps: eps, Rows: rows, Verify: true, MaxSubmissions: measure})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := &AttackResult{Attack: AttackEdge}
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
	res, aerr := adaptive.AverageLabels(ctx, board{t}, adaptive.AverageOptions{N: n, Eps: eps, Rows: rows, Repeats: m})
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
	res, aerr := adaptive.Boost(ctx, board{t}, adaptive.BoostOptions{N: n, K: min(boostK, c.comp.cfg.Measure), Mode: adaptive.KeepLowered, Rand: rng, SubmitFinal: true})
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
