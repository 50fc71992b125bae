package audit

// This file is the audit's one adapter to the project's attacks, the
// catalogue (package catalog): which attacks a cell runs, told which
// defence is in place and how many accounts the attacker holds, and how
// a run becomes an [AttackResult]. A cell is (metric, K, defence,
// rounding, noise, accounts): [cellRun.views] turns it into the
// catalog.Targets the attacker sees, and catalog.Applicable lists the
// attacks for each.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/scorer"
)

// view is how an attack sees a cell: through one account or a fresh
// account per submission, the decimals the released score is rounded to
// (nil: none) and, for a log-loss metric, the scorer model it plans with
// (the metric, rounded so). modelFree marks a release no rounding to
// decimals describes (a per-team Ladder's grid that is not a power of
// ten): only the adaptive attacks, which read one score at a time, run
// there, given the unrounded model for its clipping.
type view struct {
	fresh     bool
	dec       *int
	model     *scorer.Model
	modelFree bool
}

// autoNote marks the attack catalog.Auto picks, the one labelinf attack
// runs against the same model.
const autoNote = "catalog.Auto's pick, the attack labelinf attack runs"

// refused is the outcome of an attack on a cell labelinf serve refuses
// (a defence it does not serve on the metric): the cell is not measured.
const refused = "refused"

// freshSuffix names an attack run with a fresh account per submission.
const freshSuffix = " (fresh accounts)"

// metricAttackable reports whether the audit attacks the competition's
// metric; if not, why not (the cell is then "not measured", never
// "stopped").
func (c *cellRun) metricAttackable() (bool, string) {
	if c.comp.model != nil && c.comp.k == 2 || c.comp.kmodel != nil {
		return true, ""
	}
	if _, ok := c.comp.discreteMetric(); ok {
		for _, v := range c.views() {
			for _, a := range catalog.Applicable(c.target(v)) {
				if a.Run != nil && a.Kind != catalog.SingleQuery {
					return true, ""
				}
			}
		}
	}
	return false, fmt.Sprintf("no attack of this audit applies to %d-class %s yet: not measured", c.comp.k, c.comp.cfg.Metric)
}

// views returns the ways the attacker sees the cell: one account (the
// metric rounded as the cell rounds) and, where the defence keeps a
// state per team (a per-team Ladder), a fresh account per submission,
// whose every submission is its account's first and is released as is,
// rounded to the Ladder's grid (defence/ladder.go: "k accounts buy k
// unprotected scores").
func (c *cellRun) views() []view {
	d := c.cell.Defence
	one := view{dec: d.Decimals, model: c.roundedModel(d.Decimals)}
	if d.Ladder == nil || !d.Ladder.PerTeam {
		return []view{one}
	}
	fresh := view{fresh: true, dec: d.Decimals}
	grid := d.Ladder.Grid
	if grid == "" && d.Ladder.Kind == "fixed" {
		grid = d.Ladder.Eta // [BH15, Algorithm 1]: rounded to the η grid
	}
	dec := d.Decimals
	switch g, ok := decimalsOf(grid); {
	case grid == "":
		fresh.model = c.roundedModel(dec)
	case ok:
		if dec == nil || g < *dec {
			dec = &g
		}
		fresh.dec, fresh.model = dec, c.roundedModel(dec)
	default:
		fresh.model, fresh.modelFree = c.roundedModel(nil), true
	}
	return []view{one, fresh}
}

// decimalsOf returns d when the decimal s is exactly 10^−d (d ≥ 0).
func decimalsOf(s string) (int, bool) {
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() <= 0 {
		return 0, false
	}
	for d := 0; d <= 17; d++ {
		p := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(d)), nil))
		if r.Cmp(p) == 0 {
			return d, true
		}
	}
	return 0, false
}

// roundedModel is the metric rounded to dec decimals (nil: unrounded);
// nil for a metric that is not a log-loss model.
func (c *cellRun) roundedModel(dec *int) *scorer.Model {
	base := c.comp.model
	if base == nil {
		base = c.comp.kmodel // K > 2
	}
	if base == nil {
		return nil
	}
	m := *base
	m.Decimals = -1
	if dec != nil {
		m.Decimals = *dec
	}
	return &m
}

// target is the catalogue's target of view v.
func (c *cellRun) target(v view) catalog.Target {
	d := c.cell.Defence
	t := catalog.Target{Model: v.model, N: len(c.comp.labels), K: c.comp.k, Decimals: -1,
		Noise: c.attackerNoise(), Defence: &d}
	if v.model == nil {
		// Another metric (package discrete's): named, rounded as released.
		t.Metric = c.comp.cfg.Metric
		if v.dec != nil {
			t.Decimals = *v.dec
		}
	}
	return t
}

// plannedAttack is one attack of the catalogue, ready to run on a cell.
type plannedAttack struct {
	a    *catalog.Attack
	v    view
	t    catalog.Target
	auto bool
}

// name is the report's name of the attack.
func (p plannedAttack) name() string {
	if p.v.fresh {
		return p.a.Name + freshSuffix
	}
	return p.a.Name
}

// catalogue returns every attack of the catalogue that applies to the
// cell and runs against a served score, in the order they run: for each
// view, catalog.Auto's pick (what labelinf attack runs against the same
// model) first, then the others in the catalogue's order. The
// single-query attacks need a score of thousands of bits, which no
// served cell releases (a float64 at most).
func (c *cellRun) catalogue() []plannedAttack {
	if ok, _ := c.metricAttackable(); !ok {
		return nil
	}
	var out []plannedAttack
	for _, v := range c.views() {
		t := c.target(v)
		auto, _ := catalog.Auto(t)
		runs := func(a *catalog.Attack) bool {
			return a.Run != nil && a.Kind != catalog.SingleQuery && (!v.modelFree || a.Kind == catalog.Adaptive) &&
				// Boosting overfits a ladder; with fresh accounts there is
				// no ladder to overfit.
				!(v.fresh && a.Name == "boost")
		}
		if auto != nil && runs(auto) && !v.modelFree {
			out = append(out, plannedAttack{a: auto, v: v, t: t, auto: true})
		}
		for _, a := range catalog.Applicable(t) {
			if a != auto && runs(a) {
				out = append(out, plannedAttack{a: a, v: v, t: t})
			}
		}
	}
	return out
}

// attacks runs the catalogue's attacks on the cell.
func (c *cellRun) attacks(ctx context.Context, logf func(string, ...any)) ([]AttackResult, error) {
	var out []AttackResult
	c.cut = map[bool]int{}
	for _, p := range c.catalogue() {
		r, err := c.run(ctx, p)
		if err != nil {
			return nil, err
		}
		if isCode(p.a) && r.Recovered() && r.PublicRecovered == 1 && !r.Extrapolated {
			if q, ok := c.cut[p.v.fresh]; !ok || int(r.Needed) < q {
				c.cut[p.v.fresh] = int(r.Needed)
			}
		}
		logf("audit %s: cell %-16s %-30s %-9s %7d submissions, needs %s\n", c.comp.cfg.ID, c.cell.Name, r.Attack, r.Outcome, r.Submissions, needText(r.Needed, r.Extrapolated))
		out = append(out, *r)
	}
	return out, nil
}

// isCode reports whether a is a multi-query code (one that the cheapest
// full recovery of its view bounds: it cannot be the best beyond it).
func isCode(a *catalog.Attack) bool {
	return a.Kind == catalog.MultiQuery || a.Kind == catalog.Reference
}

// run runs one attack of the catalogue against a fresh target of the
// cell, for at most Measure submissions (or the cut of its view), and
// measures what it recovers; an attack still going at that limit is
// projected to every label at its measured rate, or at its estimate if
// that is fewer (the projection favours the attacker).
func (c *cellRun) run(ctx context.Context, p plannedAttack) (*AttackResult, error) {
	tg, err := c.open(ctx)
	if err != nil {
		if r, ok := refusedCell(p.name(), err); ok {
			r.Outcome = refused
			return r, nil
		}
		return nil, err
	}
	defer tg.Close()
	n := len(c.comp.labels)
	measure := c.comp.cfg.Measure
	cut := false
	if q, ok := c.cut[p.v.fresh]; ok && q < measure && isCode(p.a) {
		measure, cut = q, true
	}
	srv := &server{t: tg, k: c.comp.k, fresh: p.v.fresh}
	var o scorer.Server = srv
	if p.t.Model != nil {
		o = scorer.PerPoint(srv, p.t.Model)
	}
	est, _ := p.a.Estimate(ctx, p.t, catalog.EstimateOptions{Check: true})
	if est != nil && int64(est.Lower) > int64(measure)*int64(n) {
		// Its proven cost exceeds the measured submissions for every
		// label (averaging with more repeats a label than that): not run.
		return &AttackResult{Attack: p.name(), FreshAccounts: p.v.fresh, Outcome: "not run", Needed: int64(est.Best()), Extrapolated: true,
			Note: fmt.Sprintf("needs ≥ %d submissions (%s), more than %d per label: not run", est.Lower, est.Note, measure)}, nil
	}
	var cv curve
	seed := derive32(c.seed, p.name())
	res, aerr := p.a.Run(ctx, o, p.t, catalog.Options{Check: true, MaxQueries: measure, Progress: cv.add,
		Seed: uint64(seed[0]) | uint64(seed[1])<<8 | uint64(seed[2])<<16 | uint64(seed[3])<<24 | uint64(seed[4])<<32 | uint64(seed[5])<<40 | uint64(seed[6])<<48 | uint64(seed[7])<<56})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r := &AttackResult{Attack: p.name(), Submissions: srv.q, FreshAccounts: p.v.fresh}
	if p.auto {
		r.Note = autoNote
	}
	if res == nil {
		r.Outcome, r.Note = "failed", joinNote(r.Note, short(aerr))
		return r, nil
	}
	known := 0
	for _, k := range res.Known {
		if k {
			known++
		}
	}
	guess := p.a.Kind == catalog.Adaptive && known == 0
	claimed, pubClaimed := 0, 0
	claim := func(i int) (int, bool) {
		if res.Known[i] {
			return res.Labels[i], true
		}
		if guess && res.Labels[i] >= 0 {
			return res.Labels[i], true
		}
		return 0, false
	}
	for i := range res.Labels {
		if _, ok := claim(i); ok {
			claimed++
			if c.public[i] {
				pubClaimed++
			}
		}
	}
	c.tally(r, nil, claim, func(i int) bool { return res.Known[i] })
	figure := 0
	if est != nil {
		figure = est.Best()
	}
	switch {
	case aerr == nil && claimed == n:
		r.Needed = int64(srv.q)
		if guess {
			r.Note = joinNote(r.Note, "its labels are guesses, never verified")
		}
	case pubClaimed > 0 && srv.q >= measure:
		// Still going at the measuring limit: project at its rate (the
		// last half of its measured progress where it reports one), or
		// at its estimate if that is fewer. Behind a split the rate is
		// that of public labels (an attack spends submissions on private
		// rows too, and reads only the public ones).
		r.Needed = cv.project(srv.q, pubClaimed, c.nPub)
		if figure > 0 && int64(figure) < r.Needed && int64(figure) > int64(srv.q) {
			r.Needed = int64(figure)
		}
		r.Extrapolated = true
		r.Note = joinNote(r.Note, fmt.Sprintf("%d of %d public labels after %d submissions; projected", pubClaimed, c.nPub, srv.q))
		if cut {
			r.Note += " (stopped at the cost of an attack that recovered every label)"
		}
		scale := float64(c.nPub) / float64(pubClaimed)
		r.PublicRecovered = math.Min(1, r.PublicRecovered*scale)
		r.PublicVerified = math.Min(1, r.PublicVerified*scale)
		r.PrivateRecovered = math.Min(1, r.PrivateRecovered*scale)
		r.PrivateVerified = math.Min(1, r.PrivateVerified*scale)
	case pubClaimed > 0:
		// Ended on its own before the limit with what it could read
		// (behind a split, the public labels).
		r.Needed = int64(srv.q)
		r.Note = joinNote(r.Note, short(aerr))
	case !cut && srv.q >= measure && errors.Is(aerr, discrete.ErrBudget) && est != nil && est.Exact && est.Queries > srv.q && c.plannable():
		// Stopped by the measuring budget before it decoded a label (a
		// block of a coin-weighing design, repeated against fresh noise,
		// can outlast it), with no score contradicting it: its cost is
		// its own plan, exact (its queries do not follow the scores),
		// projected as other cut-short attacks are, so that the cell
		// reports the cheapest attack rather than one that happened to
		// finish a label within the budget.
		r.Needed, r.Extrapolated, r.planned = int64(est.Queries), true, true
		r.PublicRecovered, r.PublicVerified = 1, 1 // no split: every row is public
		r.Note = joinNote(r.Note, fmt.Sprintf("no label decoded within %d measured submissions; projected from its own plan (every query repeated against the noise, the check included)", srv.q))
		// Within a smaller budget it holds what its plan aimed at part of
		// the rows decodes (est.Rows), never a steady share of its labels
		// per submission; without such a plan, none until its end.
		r.progress = planProgress(est.Rows, n)
		if est.Rows == nil {
			r.Note += "; its cost on part of the rows is not modelled: no label counted before its end"
		}
	default:
		r.Note = joinNote(r.Note, short(aerr))
		if cut {
			r.Note = joinNote(r.Note, "stopped at the cost of an attack that recovered every label")
		}
	}
	if r.Needed > 0 && len(cv.q) > 0 && !r.planned {
		// The share of its labels the attack holds after v submissions:
		// its measured progress over what it ends with (all n when
		// projected); the final check adds none.
		end := float64(known)
		if r.Extrapolated {
			end = float64(n)
		}
		need := r.Needed
		r.progress = func(v int64) float64 {
			if end == 0 {
				return 0
			}
			return cv.at(v, n, need) / end
		}
	}
	outcome(r)
	return r, nil
}

// planProgress is the share of n labels a planned attack holds after v
// submissions: m/n for the most rows m its plan aimed at m rows (rows,
// discrete.PlanRows) decodes within v, 0 where rows is nil (its labels
// are counted at its end only). Either is what a run achieves, so the
// share is never more than the attack delivers.
func planProgress(rows func(m int) (int, error), n int) func(v int64) float64 {
	memo := map[int]int64{}
	cost := func(m int) int64 {
		if q, ok := memo[m]; ok {
			return q
		}
		q, err := rows(m)
		c := int64(q)
		if err != nil {
			c = math.MaxInt64
		}
		memo[m] = c
		return c
	}
	return func(v int64) float64 {
		if rows == nil || n == 0 {
			return 0
		}
		m := sort.Search(n, func(i int) bool { return cost(i+1) > v })
		for m > 0 && cost(m) > v {
			m-- // a plan whose cost does not grow with m: keep one that fits
		}
		return float64(m) / float64(n)
	}
}

// plannable reports whether an attack's own plan can stand for its cost
// on the cell: its defence is rounding, noise and limits only (no split,
// subset, Ladder or Thresholdout, which the plans of package discrete do
// not model), so every row is public and each release is the plan's.
func (c *cellRun) plannable() bool {
	d := c.cell.Defence
	return d.Split == nil && d.Subset == 0 && d.Ladder == nil && d.Thresholdout == nil && c.nPub == len(c.comp.labels)
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

func joinNote(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + "; " + b
}
