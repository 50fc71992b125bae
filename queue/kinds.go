package queue

// This file is the registry of cell kinds: each kind is registered here,
// once.

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelinf/labelinf/audit"
	"github.com/labelinf/labelinf/catalog"
	"github.com/labelinf/labelinf/passive"
	"github.com/labelinf/labelinf/repro"
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

// KindRepro is labelinf repro's items, one cell each: the input is a
// [ReproInput] as JSON, a cell's result the files the item wrote
// (ITEM.md, its tables, CSVs and plots; gob-encoded name → bytes), to be
// copied into the coordinator's directory and assembled with
// repro.Assemble. An item that fails is a result (its section says NOT
// REPRODUCIBLE with the error), as in a local run.
const KindRepro = "repro"

// ReproInput is a repro grid's input.
type ReproInput struct {
	Items  []string `json:"items"`
	Quick  bool     `json:"quick"`
	Commit string   `json:"commit"`
}

func init() {
	register(&Kind{Name: KindRepro, Open: func(in []byte) (Grid, error) {
		var ri ReproInput
		if err := json.Unmarshal(in, &ri); err != nil {
			return nil, fmt.Errorf("repro input: %w", err)
		}
		for _, n := range ri.Items {
			if _, err := repro.Lookup(n); err != nil {
				return nil, err
			}
		}
		return reproGrid(ri), nil
	}})
}

type reproGrid ReproInput

func (g reproGrid) Cells() int { return len(g.Items) }

func (g reproGrid) Run(ctx context.Context, i int) ([]byte, error) {
	tmp, err := os.MkdirTemp("", "labelinf-queue-repro-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	_, err = repro.Run(ctx, &repro.Config{Out: tmp, Quick: g.Quick, Commit: g.Commit}, []string{g.Items[i]})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	_ = err // the item's failure is in its section
	files := map[string][]byte{}
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || e.Name() == "REPRO.md" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(tmp, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = b
	}
	var buf bytes.Buffer
	err = gob.NewEncoder(&buf).Encode(files)
	return buf.Bytes(), err
}

// WriteRepro copies the files of a finished repro grid's items into dir
// and assembles dir/REPRO.md (quick and commit as the input's); it
// returns the items that failed on the queue, with their errors.
func WriteRepro(dir string, in ReproInput, out []Outcome) (failed []string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for i, o := range out {
		if o.Err != "" {
			failed = append(failed, in.Items[i]+": "+o.Err)
			continue
		}
		var files map[string][]byte
		if err := gob.NewDecoder(bytes.NewReader(o.Result)).Decode(&files); err != nil {
			return nil, fmt.Errorf("queue: repro item %s: %w", in.Items[i], err)
		}
		for name, b := range files {
			if name != filepath.Base(name) || name == "." || name == ".." {
				return nil, fmt.Errorf("queue: repro item %s: file name %q", in.Items[i], name)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				return nil, err
			}
		}
	}
	return failed, repro.Assemble(&repro.Config{Out: dir, Quick: in.Quick, Commit: in.Commit})
}

// KindSweep is an attack's sweep over the benchmark labelings, one cell
// per (scorer, labeling): the input is a catalog.Sweep as JSON, a cell's
// result its catalog.SweepRun as JSON.
const KindSweep = "sweep"

func init() {
	register(&Kind{Name: KindSweep, Open: func(in []byte) (Grid, error) {
		var sw catalog.Sweep
		if err := json.Unmarshal(in, &sw); err != nil {
			return nil, fmt.Errorf("sweep input: %w", err)
		}
		if err := sw.Validate(); err != nil {
			return nil, err
		}
		return sweepGrid{&sw}, nil
	}})
}

type sweepGrid struct{ s *catalog.Sweep }

func (g sweepGrid) Cells() int { return len(g.s.Cells()) }

func (g sweepGrid) Run(ctx context.Context, i int) ([]byte, error) {
	r, err := g.s.RunCell(ctx, i)
	if err != nil {
		return nil, err
	}
	return json.Marshal(r)
}

// SweepRuns decodes a finished sweep grid's outcomes (one per cell of
// s, in order): a cell that failed on the queue is a run with the
// worker's error, not verified.
func SweepRuns(s *catalog.Sweep, out []Outcome) ([]catalog.SweepRun, error) {
	cells := s.Cells()
	if len(out) != len(cells) {
		return nil, fmt.Errorf("queue: %d outcomes for a sweep of %d cells", len(out), len(cells))
	}
	runs := make([]catalog.SweepRun, len(cells))
	for i, o := range out {
		if o.Err != "" {
			runs[i] = catalog.SweepRun{SweepCell: cells[i], Error: o.Err}
			continue
		}
		if err := json.Unmarshal(o.Result, &runs[i]); err != nil {
			return nil, fmt.Errorf("queue: sweep cell %d (%s on %s): result: %w", i, cells[i].Scorer, cells[i].Labeling, err)
		}
	}
	return runs, nil
}

// KindBLIA is a BLIA experiment's units, one trained model per (seed,
// ε): the input is a [BLIAInput] (gob), a cell's result its passive.Run
// (gob: NaN and ±Inf exact), assembled with [BLIAReport].
const KindBLIA = "blia"

// BLIAInput is a BLIA grid's input: the configuration's wire form and the
// data set by value (a worker needs no file of the coordinator's).
type BLIAInput struct {
	Config  passive.ConfigWire
	Dataset *passive.Dataset
}

// MarshalBLIA encodes a BLIA grid's input.
func MarshalBLIA(in BLIAInput) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(in)
	return buf.Bytes(), err
}

func init() {
	register(&Kind{Name: KindBLIA, Open: func(b []byte) (Grid, error) {
		var in BLIAInput
		if err := gob.NewDecoder(bytes.NewReader(b)).Decode(&in); err != nil {
			return nil, fmt.Errorf("blia input: %w", err)
		}
		if in.Dataset == nil || in.Dataset.Train == nil {
			return nil, fmt.Errorf("blia input: no data set")
		}
		cfg := in.Config.Config()
		n, err := passive.Units(cfg)
		if err != nil {
			return nil, err
		}
		return bliaGrid{in.Dataset, cfg, n}, nil
	}})
}

type bliaGrid struct {
	d   *passive.Dataset
	cfg passive.Config
	n   int
}

func (g bliaGrid) Cells() int { return g.n }

func (g bliaGrid) Run(ctx context.Context, i int) ([]byte, error) {
	r, err := passive.RunUnit(ctx, g.d, g.cfg, i)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	err = gob.NewEncoder(&buf).Encode(r)
	return buf.Bytes(), err
}

// BLIAReport assembles a finished BLIA grid's report (seconds: its
// time); a unit that failed on the queue fails the report, naming it,
// as a failed run fails passive.RunExperiment.
func BLIAReport(in BLIAInput, out []Outcome, seconds float64) (*passive.Report, error) {
	cfg := in.Config.Config()
	if len(cfg.Epsilons) == 0 {
		return nil, fmt.Errorf("queue: blia input without ε (not a wire form of passive.Config.Wire)")
	}
	runs := make([]passive.Run, len(out))
	var failed []string
	for i, o := range out {
		if o.Err != "" {
			failed = append(failed, fmt.Sprintf("unit %d (seed %d, ε %v): %s", i, cfg.FirstSeed+uint64(i/len(cfg.Epsilons)), cfg.Epsilons[i%len(cfg.Epsilons)], o.Err))
			continue
		}
		if err := gob.NewDecoder(bytes.NewReader(o.Result)).Decode(&runs[i]); err != nil {
			return nil, fmt.Errorf("queue: blia unit %d: result: %w", i, err)
		}
	}
	if len(failed) > 0 {
		return nil, fmt.Errorf("queue: %d BLIA units failed after their attempts: %s", len(failed), strings.Join(failed, "; "))
	}
	return passive.Assemble(in.Dataset, cfg, runs, seconds)
}
