package audit

// This file is the audit's one adapter to the project's attacks: which
// attacks a cell runs, told which defence is in place and how many
// accounts the attacker holds. A cell is (metric, K, defence, rounding,
// noise, accounts); [cellRun.catalogue] lists the attacks that apply to
// it. When the project's attack registry lands, this file is the one to
// switch to it.

import (
	"context"
	"fmt"
	"math/big"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/scorer"
)

// view is how an attack sees a cell: through one account or a fresh
// account per submission, and the scorer model it plans with (the
// metric, rounded as the released score is; nil when no model describes
// the release, so that only model-free attacks apply).
type view struct {
	fresh bool
	model *scorer.Model
}

// plannedAttack is one attack of the catalogue, ready to run on a cell.
type plannedAttack struct {
	name string
	run  func(ctx context.Context) (*AttackResult, error)
	// multi marks a multi-query strategy of view fresh: once one of them
	// has recovered every label, the others of the view run only up to
	// its cost (they cannot be the best beyond it; [cellRun.cut]).
	multi, fresh bool
}

// Attack names of the multi-query strategies the audit names itself (the
// others are named by their decode strategy) and the suffix of an attack
// that submits from a fresh account each time.
const (
	freshSuffix = " (fresh accounts)"
	autoNote    = "decode.Auto's pick, the strategy labelinf attack runs"
)

// strategyName is the report's name of a decode strategy.
func strategyName(st decode.Strategy) string {
	switch st {
	case decode.Blocks:
		return AttackBlocks
	case decode.Primes:
		return AttackPrimes
	case decode.Alg3:
		return AttackAlg3
	}
	return st.String()
}

// metricAttackable reports whether the project has attacks for the
// competition's metric; if not, why not (the cell is then "not
// measured", never "stopped").
func (c *cellRun) metricAttackable() (bool, string) {
	if c.comp.k != 2 {
		return false, fmt.Sprintf("no attack of this audit applies to %d-class %s yet: not measured", c.comp.k, c.comp.cfg.Metric)
	}
	if c.comp.model == nil {
		return false, fmt.Sprintf("no attack of this audit applies to the metric %s yet: not measured", c.comp.cfg.Metric)
	}
	return true, ""
}

// views returns the ways the attacker sees the cell: one account (the
// metric rounded as the cell rounds) and, where the defence keeps a
// state per team (a per-team Ladder), a fresh account per submission,
// whose every submission is its account's first and is released as is,
// rounded to the Ladder's grid (defence/ladder.go: "k accounts buy k
// unprotected scores").
func (c *cellRun) views() []view {
	d := c.cell.Defence
	one := view{model: c.roundedModel(d.Decimals)}
	if d.Ladder == nil || !d.Ladder.PerTeam {
		return []view{one}
	}
	fresh := view{fresh: true}
	grid := d.Ladder.Grid
	if grid == "" && d.Ladder.Kind == "fixed" {
		grid = d.Ladder.Eta // [BH15, Algorithm 1]: rounded to the η grid
	}
	dec := d.Decimals
	if grid != "" {
		g, ok := decimalsOf(grid)
		if ok && (dec == nil || g < *dec) {
			dec = &g
		}
		if ok {
			fresh.model = c.roundedModel(dec)
		}
		// A grid that is not a power of ten: no scorer model rounds to
		// it; the model-free threshold crossing still applies.
	} else {
		fresh.model = c.roundedModel(dec)
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

// roundedModel is the metric rounded to dec decimals (nil: unrounded).
func (c *cellRun) roundedModel(dec *int) *scorer.Model {
	m := *c.comp.model
	m.Decimals = -1
	if dec != nil {
		m.Decimals = *dec
	}
	return &m
}

// catalogue returns every attack of the project that applies to the
// cell, in the order they run: for each view, decode.Auto's pick (what
// labelinf attack runs against the same model), every other multi-query
// strategy of package decode, the threshold-crossing attack; averaging
// against fresh noise and boosting against a Ladder with one account.
// Strategies that do not fit the cell fail on their own (a K-ary
// strategy on binary labels, a rounded-score strategy on an unrounded
// score) and are reported as failed.
func (c *cellRun) catalogue() []plannedAttack {
	if ok, _ := c.metricAttackable(); !ok {
		return nil
	}
	var out []plannedAttack
	d := c.cell.Defence
	for _, v := range c.views() {
		suffix := ""
		if v.fresh {
			suffix = freshSuffix
		}
		if v.model != nil {
			auto := decode.Auto(v.model, 2, false)
			sts := []decode.Strategy{auto}
			for _, st := range decode.Strategies() {
				if st != auto && st.String() != "" && strategyApplies(st) {
					sts = append(sts, st)
				}
			}
			for _, st := range sts {
				name := strategyName(st) + suffix
				isAuto := st == auto
				out = append(out, plannedAttack{name: name, multi: true, fresh: v.fresh, run: func(ctx context.Context) (*AttackResult, error) {
					r, err := c.multi(ctx, name, st, v)
					if r != nil && isAuto {
						r.Note = joinNote(autoNote, r.Note)
					}
					return r, err
				}})
			}
		}
		out = append(out, plannedAttack{name: AttackEdge + suffix, run: func(ctx context.Context) (*AttackResult, error) {
			r, err := c.edge(ctx, v)
			if r != nil {
				r.Attack = AttackEdge + suffix
			}
			return r, err
		}})
	}
	if d.Noise != nil && (d.Noise.Key == "" || d.Noise.Key == "fresh") {
		out = append(out, plannedAttack{name: AttackAverage, run: c.average})
	}
	if d.Ladder != nil {
		out = append(out, plannedAttack{name: AttackBoost, run: c.boost})
	}
	return out
}

// strategyApplies leaves out the strategies that never apply to binary
// labels (the K-ary list decoders).
func strategyApplies(st decode.Strategy) bool {
	return st != decode.KBin && st != decode.KList
}

// attacks runs the catalogue's attacks on the cell.
func (c *cellRun) attacks(ctx context.Context, logf func(string, ...any)) ([]AttackResult, error) {
	var out []AttackResult
	c.cut = map[bool]int{}
	for _, a := range c.catalogue() {
		r, err := a.run(ctx)
		if err != nil {
			return nil, err
		}
		if a.multi && r.Recovered() && r.PublicRecovered == 1 && !r.Extrapolated {
			if q, ok := c.cut[a.fresh]; !ok || int(r.Needed) < q {
				c.cut[a.fresh] = int(r.Needed)
			}
		}
		logf("audit %s: cell %-16s %-30s %-9s %7d submissions, needs %s\n", c.comp.cfg.ID, c.cell.Name, r.Attack, r.Outcome, r.Submissions, needText(r.Needed, r.Extrapolated))
		out = append(out, *r)
	}
	return out, nil
}

func joinNote(a, b string) string {
	if b == "" {
		return a
	}
	return a + "; " + b
}
