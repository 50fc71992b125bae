package queue

// This file is the registry of cell kinds: each kind is registered here,
// once.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/labelinf/labelinf/audit"
)

// A Kind is a kind of grid: how a worker opens a grid's input and runs
// one of its cells. A cell's result is bytes the kind's coordinator
// decodes (the audit's: a CellResult as JSON).
type Kind struct {
	Name string
	// Open decodes a grid's input (done once per grid and worker).
	Open func(input []byte) (Grid, error)
}

// A Grid is an opened input.
type Grid interface {
	// Cells is the number of cells.
	Cells() int
	// Run runs cell i; the result must depend only on the input and i.
	Run(ctx context.Context, i int) ([]byte, error)
}

// kinds are the registered kinds, by name.
var kinds = map[string]*Kind{}

func register(k *Kind) {
	if _, dup := kinds[k.Name]; dup {
		panic("queue: kind " + k.Name + " registered twice")
	}
	kinds[k.Name] = k
}

// KindAudit is the audit's cells: the input is an audit.Plan
// (MarshalBinary), a cell's result its audit.CellResult as JSON, run
// against audit.InProcess (the report is the same as over loopback HTTP).
const KindAudit = "audit"

func init() {
	register(&Kind{Name: KindAudit, Open: func(in []byte) (Grid, error) {
		p, err := audit.UnmarshalPlan(in)
		if err != nil {
			return nil, err
		}
		return auditGrid{p}, nil
	}})
}

type auditGrid struct{ p *audit.Plan }

func (g auditGrid) Cells() int { return len(g.p.Cells()) }

func (g auditGrid) Run(ctx context.Context, i int) ([]byte, error) {
	cr, err := g.p.RunCell(ctx, i, audit.InProcess, nil)
	if err != nil {
		return nil, err
	}
	return json.Marshal(cr)
}

// AuditReport assembles an audit's report from a finished grid's
// outcomes (one per cell of p, in order): a failed cell is
// audit.FailedCell's entry with the worker's error.
func AuditReport(p *audit.Plan, out []Outcome) (*audit.Report, error) {
	cells := p.Cells()
	if len(out) != len(cells) {
		return nil, fmt.Errorf("queue: %d outcomes for a grid of %d cells", len(out), len(cells))
	}
	crs := make([]audit.CellResult, len(cells))
	for i, o := range out {
		if o.Err != "" {
			crs[i] = audit.FailedCell(cells[i], o.Err)
			continue
		}
		if err := json.Unmarshal(o.Result, &crs[i]); err != nil {
			return nil, fmt.Errorf("queue: cell %d (%s): result: %w", i, cells[i].Name, err)
		}
	}
	return p.Report(crs)
}
