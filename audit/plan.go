package audit

// This file splits the audit into a plan and its cells, so that the
// cells can run elsewhere (package queue) and be assembled into the
// report Run writes.

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
)

// A Plan is a resolved audit, ready to run cell by cell: the checked
// config, its labels, the honest teams and their true scores. Run is
// NewPlan, [Plan.RunCell] for every cell and [Plan.Report]; a plan
// marshals to bytes ([Plan.MarshalBinary], [UnmarshalPlan]) that carry
// every input by content (labels and honest submissions, no path), so
// that a cell runs on a machine that shares no file with the planner.
type Plan struct {
	comp  *competition
	ts    []Team
	truth [][]float64
	sum   Summary
}

// NewPlan checks cfg, loads its labels and makes its honest teams (o's
// Honest and Teams; o's other fields are not used).
func NewPlan(ctx context.Context, cfg *Config, o Options) (*Plan, error) {
	comp, err := cfg.resolve()
	if err != nil {
		return nil, &ConfigError{err}
	}
	p := &Plan{comp: comp}
	// The honest cost under the metric's own scorer: the binary log-loss
	// model, else serve's metric (accuracy, ROC AUC, Brier, K classes).
	if p.ts, err = comp.honestTeams(ctx, o); err != nil {
		return nil, err
	}
	given := o.Teams != nil || o.Honest != nil || comp.cfg.Honest != ""
	if p.ts, p.truth, err = comp.scoreTeams(p.ts, given); err != nil {
		return nil, &ConfigError{err}
	}
	nsub := 0
	for _, tm := range p.ts {
		nsub += len(tm.Subs)
	}
	pos := 0
	for _, y := range comp.labels {
		if y != 0 {
			pos++ // rows of a class other than 0
		}
	}
	c := comp.cfg
	metric := c.Metric
	if comp.model != nil {
		metric = comp.model.Name
	}
	p.sum = Summary{ID: c.ID, Title: c.Title, Rows: len(comp.labels), Positives: pos, Metric: metric,
		Seed: c.Seed, Days: c.Days, Accounts: c.Accounts, Limit: c.Limit, Measure: c.Measure,
		Honest: nsub, Teams: len(p.ts), NearTies: nearTies(bests(p.truth)), Source: comp.honestSource,
		MaxAccounts: c.AttackerAccounts[len(c.AttackerAccounts)-1], AttackerAccounts: c.AttackerAccounts}
	return p, nil
}

// Cells returns the plan's grid, in the report's order.
func (p *Plan) Cells() []Cell { return append([]Cell(nil), p.comp.cells...) }

// Summary returns the report's competition summary.
func (p *Plan) Summary() Summary { return p.sum }

// RunCell audits cell i of the plan against the targets f opens (nil:
// [InProcess]); progress, if set, receives a line per attack.
func (p *Plan) RunCell(ctx context.Context, i int, f func(ctx context.Context, s Spec) (Target, error), progress func(format string, args ...any)) (*CellResult, error) {
	if i < 0 || i >= len(p.comp.cells) {
		return nil, fmt.Errorf("audit: cell %d of a grid of %d", i, len(p.comp.cells))
	}
	if f == nil {
		f = InProcess
	}
	if progress == nil {
		progress = func(string, ...any) {}
	}
	return p.runCell(ctx, i, f, progress)
}

func (p *Plan) runCell(ctx context.Context, i int, f TargetFactory, logf func(string, ...any)) (*CellResult, error) {
	return auditCell(ctx, p.comp, p.comp.cells[i], f, p.ts, p.truth, logf)
}

// Report assembles the report from the cells' results, one per cell in
// the order of [Plan.Cells] (a cell that failed is [FailedCell]'s).
func (p *Plan) Report(cells []CellResult) (*Report, error) {
	if len(cells) != len(p.comp.cells) {
		return nil, fmt.Errorf("audit: %d cell results for a grid of %d", len(cells), len(p.comp.cells))
	}
	for i, cr := range cells {
		if cr.Name != p.comp.cells[i].Name {
			return nil, fmt.Errorf("audit: result %d is of cell %q; want %q", i, cr.Name, p.comp.cells[i].Name)
		}
	}
	return &Report{Competition: p.sum, Cells: append([]CellResult(nil), cells...)}, nil
}

// FailedCell is the report's entry for a cell that could not be audited
// (a worker's error after its attempts): never stopped, never measured,
// its error in Error and the verdict.
func FailedCell(c Cell, err string) CellResult {
	return CellResult{Name: c.Name, Settings: c.Defence.String(), Defence: c.Defence,
		Verdict: "FAILED: " + err, Error: err}
}

// planMagic starts a marshalled plan; its version changes with the
// encoding.
const planMagic = "labelinf audit plan v1\n"

// planWire is a plan's encoding: the resolved config as JSON (its grid
// resolved, the "as configured" cell in it), the labels and the honest
// teams by value.
type planWire struct {
	Config []byte
	Labels []int
	Teams  []Team
	Source string
}

// MarshalBinary encodes the plan with its inputs by content.
func (p *Plan) MarshalBinary() ([]byte, error) {
	c := p.comp.cfg
	c.Grid, c.NoConfigured = p.comp.cells, true
	cj, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString(planMagic)
	err = gob.NewEncoder(&b).Encode(planWire{Config: cj, Labels: p.comp.labels, Teams: p.ts, Source: p.comp.honestSource})
	return b.Bytes(), err
}

// UnmarshalPlan decodes a plan [Plan.MarshalBinary] encoded, checking it
// as NewPlan checks a config.
func UnmarshalPlan(b []byte) (*Plan, error) {
	if !bytes.HasPrefix(b, []byte(planMagic)) {
		return nil, errors.New("audit: not an audit plan (or one of another version)")
	}
	var w planWire
	if err := gob.NewDecoder(bytes.NewReader(b[len(planMagic):])).Decode(&w); err != nil {
		return nil, fmt.Errorf("audit: plan: %w", err)
	}
	cfg, err := ParseJSON(w.Config)
	if err != nil {
		return nil, fmt.Errorf("audit: plan: %w", err)
	}
	comp, err := cfg.resolveWith(w.Labels)
	if err != nil {
		return nil, fmt.Errorf("audit: plan: %w", err)
	}
	comp.honestSource = w.Source
	p := &Plan{comp: comp}
	// The planner's teams, already as the cells submit them.
	if p.ts, p.truth, err = comp.scoreTeams(w.Teams, true); err != nil {
		return nil, fmt.Errorf("audit: plan: %w", err)
	}
	comp.honestSource = w.Source
	return p, nil
}
