package audit

// This file runs package discrete's attacks on a cell: accuracy (binary
// and K-class), ROC AUC and the Brier score, the metrics of labelinf
// serve that are not log-loss models.

import (
	"context"
	"fmt"
	"math"
	"math/big"

	"github.com/labelinf/labelinf/discrete"
	"github.com/labelinf/labelinf/scorer"
)

// discreteMetric returns the competition's metric as package discrete
// names it, if it is one.
func (c *competition) discreteMetric() (discrete.Metric, bool) {
	m, err := discrete.ParseMetric(c.cfg.Metric)
	return m, err == nil
}

// Attack names of package discrete's strategies in the report.
var discreteNames = map[discrete.Strategy]string{
	discrete.Flip:   "flip rows",
	discrete.Group:  "coin weighing",
	discrete.Family: "squared loss (EA Thm 5)",
	discrete.Edge:   "threshold crossing (rows)",
}

// discreteStrategies returns the strategies of package discrete that
// apply to the competition, Auto's pick first.
func (c *cellRun) discreteStrategies() []discrete.Strategy {
	m, ok := c.comp.discreteMetric()
	if !ok {
		return nil
	}
	k := max(c.comp.cfg.Classes, 2)
	all := discrete.Strategies(m, k)
	if len(all) == 0 {
		return nil
	}
	auto := discrete.Choose(c.discreteOptions(m, discrete.Auto, 0))
	out := []discrete.Strategy{auto}
	for _, s := range all {
		if s != auto {
			out = append(out, s)
		}
	}
	return out
}

// discreteOptions are the attack's options on the cell: the metric, K,
// the cell's rounding, its noise as a bound that holds over the planned
// queries with probability 1 − 10⁻⁶ (scorer.Noise.HalfWidth), the final
// check on.
func (c *cellRun) discreteOptions(m discrete.Metric, st discrete.Strategy, queries int) discrete.Options {
	d := c.cell.Defence
	dec := -1
	if d.Decimals != nil {
		dec = *d.Decimals
	}
	o := discrete.Options{Metric: m, N: len(c.comp.labels), K: max(c.comp.cfg.Classes, 2), Decimals: dec, Strategy: st, Check: true}
	if z := c.attackerNoise(); z.Kind != scorer.NoNoise {
		o.Tau = z.HalfWidth(1, max(queries, 1))
	}
	return o
}

// discreteServer adapts a Target to scorer.Server with K classes.
type discreteServer struct {
	t    Target
	k, q int
}

func (s *discreteServer) N() int       { return s.t.Rows() }
func (s *discreteServer) K() int       { return s.k }
func (s *discreteServer) Queries() int { return s.q }
func (s *discreteServer) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s.q++
	return s.t.Submit(ctx, "attacker", p.P)
}

// discreteAttack runs strategy st of package discrete against a fresh
// target of the cell, with the final check: a label counts as verified
// only if the whole labeling passed it. An attack whose plan needs more
// submissions than Config.Measure is not run (its planned count is
// reported, not a measurement).
func (c *cellRun) discreteAttack(ctx context.Context, st discrete.Strategy) (*AttackResult, error) {
	m, _ := c.comp.discreteMetric()
	name := discreteNames[st]
	r := &AttackResult{Attack: name}
	o := c.discreteOptions(m, st, 0)
	planned, err := discrete.Plan(o)
	if err != nil {
		r.Outcome, r.Note = "failed", short(err)
		return r, nil
	}
	if planned > c.comp.cfg.Measure {
		r.Outcome = "not run"
		r.Note = fmt.Sprintf("plans %d submissions, over the measuring limit %d: not measured", planned, c.comp.cfg.Measure)
		return r, nil
	}
	o = c.discreteOptions(m, st, planned)
	t, err := c.open(ctx)
	if err != nil {
		if r, ok := refusedCell(name, err); ok {
			return r, nil
		}
		return nil, err
	}
	defer t.Close()
	srv := &discreteServer{t: t, k: o.K}
	res, aerr := discrete.Attack(ctx, srv, o)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r.Submissions = srv.q
	if res == nil {
		r.Outcome, r.Note = "failed", short(aerr)
		return r, nil
	}
	c.tally(r, nil, func(i int) (int, bool) { return res.Labels[i], res.Known[i] }, func(i int) bool { return res.Verified && res.Known[i] })
	if aerr == nil && res.Verified {
		r.Needed = int64(srv.q)
		if st == discrete.Auto || len(c.discreteStrategies()) > 0 && c.discreteStrategies()[0] == st {
			r.Note = "discrete.Choose's pick, the strategy labelinf attack runs"
		}
	} else {
		r.Note = short(aerr)
	}
	outcome(r)
	return r, nil
}

// refusedCell reports an attack on a cell whose target cannot exist:
// labelinf serve refuses the defence on this metric.
func refusedCell(name string, err error) (*AttackResult, bool) {
	var me *MetricDefenceError
	if !asMetricDefence(err, &me) {
		return nil, false
	}
	return &AttackResult{Attack: name, Outcome: "not run", Note: me.Error()}, true
}

// discreteFloor is the information bound of the cell for a metric of
// package discrete: the labels' bits given their class counts
// (discrete.LabelBits) over the bits of one
// released score at the cell's rounding (discrete.Floor, Values); noise
// is not counted, which keeps it a lower bound.
func (c *cellRun) discreteFloor() (int, error) {
	m, ok := c.comp.discreteMetric()
	if !ok {
		return 0, fmt.Errorf("audit: metric %s has no discrete floor", c.comp.cfg.Metric)
	}
	k := max(c.comp.cfg.Classes, 2)
	dec := -1
	if d := c.cell.Defence.Decimals; d != nil {
		dec = *d
	}
	v := discrete.Values(m, len(c.comp.labels), k, dec)
	if math.IsInf(v, 0) {
		return 0, nil
	}
	return discrete.Floor(discrete.LabelBits(c.comp.labels, k), v)
}
