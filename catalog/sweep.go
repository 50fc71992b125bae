package catalog

// This file is the sweep over the benchmark labelings: the experiment
// behind BENCHMARKS.md's query tables (labelinf sweep), one cell per
// (scorer, labeling), each cell independent, so that package queue can
// run them on other machines and assemble the same report.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/cputime"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

// LabelsStream is the PCG stream of the seeded labelings (labelinf
// attack -seed S draws its private labels as rand.NewPCG(S, LabelsStream)).
const LabelsStream = 0x6c6162656c73

// SeededLabels returns n labels of k classes drawn as labelinf attack
// -seed seed draws them.
func SeededLabels(seed uint64, n, k int) []int {
	r := rand.New(rand.NewPCG(seed, LabelsStream))
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(k)
	}
	return y
}

// BenchLabelingNames returns the names of the benchmark labelings with
// seeds 1 to seeds: "seed1" … , then "all0", "allK-1", "imodK". With
// seeds = 20 they are the 23 labelings of the query tables.
func BenchLabelingNames(seeds int) []string {
	names := make([]string, 0, seeds+3)
	for s := 1; s <= seeds; s++ {
		names = append(names, fmt.Sprintf("seed%d", s))
	}
	return append(names, "all0", "allK-1", "imodK")
}

// BenchLabeling returns the benchmark labeling of that name (see
// [BenchLabelingNames]) of n points of k classes.
func BenchLabeling(name string, n, k int) ([]int, error) {
	y := make([]int, n)
	switch name {
	case "all0":
	case "allK-1":
		for i := range y {
			y[i] = k - 1
		}
	case "imodK":
		for i := range y {
			y[i] = i % k
		}
	default:
		var s uint64
		if _, err := fmt.Sscanf(name, "seed%d", &s); err != nil || fmt.Sprintf("seed%d", s) != name || s == 0 {
			return nil, fmt.Errorf("catalog: no benchmark labeling %q (seedS with S ≥ 1, all0, allK-1, imodK)", name)
		}
		return SeededLabels(s, n, k), nil
	}
	return y, nil
}

// Sweep is a sweep's configuration: every scorer model against every
// benchmark labeling, N labels of K classes, one attack (AutoName: auto's
// pick, run as labelinf attack runs it).
type Sweep struct {
	// Scorers are the simulated scorers' model names (scorer.ParseModel).
	Scorers []string `json:"scorers"`
	N       int      `json:"n"`
	K       int      `json:"k"`
	// Strategy is the attack's name or AutoName.
	Strategy string `json:"strategy"`
	// Seeds is the number of seeded labelings (1 to Seeds), beside all
	// 0, all K−1 and i mod K; 20 in the benchmarks.
	Seeds int `json:"seeds"`
	// Check spends one more query verifying every label at once.
	Check bool `json:"check,omitempty"`
}

// MaxSweepN is the largest N of a sweep (labelinf attack's limit on a
// simulated scorer).
const MaxSweepN = 1_000_000

// SweepCell is one cell: a scorer against a labeling.
type SweepCell struct {
	Scorer   string `json:"scorer"`
	Labeling string `json:"labeling"`
}

// Validate reports a configuration that cannot run.
func (s *Sweep) Validate() error {
	switch {
	case len(s.Scorers) == 0:
		return errors.New("catalog: sweep: no scorer")
	case s.N < 1 || s.N > MaxSweepN:
		return fmt.Errorf("catalog: sweep: N = %d outside [1, %d]", s.N, MaxSweepN)
	case s.K < 2 || s.K > 256:
		return fmt.Errorf("catalog: sweep: K = %d outside [2, 256]", s.K)
	case s.Seeds < 0 || s.Seeds > 10000:
		return fmt.Errorf("catalog: sweep: %d seeds outside [0, 10000]", s.Seeds)
	}
	for _, name := range s.Scorers {
		if _, err := s.target(name); err != nil {
			return err
		}
	}
	return nil
}

// target returns the target of one scorer, and its attack (nil: auto).
func (s *Sweep) target(name string) (Target, error) {
	m, err := scorer.ParseModel(name)
	if err != nil {
		return Target{}, fmt.Errorf("catalog: sweep: scorer %q: %w", name, err)
	}
	if m.Exact {
		return Target{}, fmt.Errorf("catalog: sweep: scorer %q is exact: the single-query attacks, not a multi-query sweep", name)
	}
	t := Target{Model: m, N: s.N, K: s.K}
	if s.Strategy != AutoName {
		a, err := Parse(s.Strategy, t)
		if err != nil {
			return t, err
		}
		if err := a.Applies(t); err != nil {
			return t, fmt.Errorf("catalog: sweep: %s does not apply to %s: %w", a.Name, name, err)
		}
		if a.Run == nil {
			return t, fmt.Errorf("catalog: sweep: %s is not run against a scorer", a.Name)
		}
	}
	return t, nil
}

// Cells returns the sweep's cells: each scorer in order, against each
// labeling in order.
func (s *Sweep) Cells() []SweepCell {
	var cs []SweepCell
	for _, sc := range s.Scorers {
		for _, l := range BenchLabelingNames(s.Seeds) {
			cs = append(cs, SweepCell{Scorer: sc, Labeling: l})
		}
	}
	return cs
}

// SweepRun is one cell's result.
type SweepRun struct {
	SweepCell
	// Attack is the attack that ran (auto's pick).
	Attack string `json:"attack,omitempty"`
	// Queries are the scores it asked for.
	Queries int `json:"queries"`
	// Verified: every label recovered, verified by the attack, and equal
	// to the labeling (checked against it).
	Verified bool `json:"verified"`
	// CPUSeconds is the attacker's CPU time on the thread that ran the
	// attack (the simulated scorer's excluded, and the garbage
	// collector's work on other threads: cells run at once in one
	// process do not count each other's); nil where the thread clock
	// cannot be read.
	CPUSeconds *float64 `json:"cpu_seconds,omitempty"`
	// Error is why the cell has no result (an attack's error, or the
	// queue's after its attempts).
	Error string `json:"error,omitempty"`
}

// threadTimed measures the scorer's thread CPU time.
type threadTimed struct {
	scorer.Server
	cpu time.Duration
	bad bool
}

func (t *threadTimed) Score(ctx context.Context, p *scorer.Pred) (r *big.Rat, err error) {
	d, ok := cputime.Call(func() { r, err = t.Server.Score(ctx, p) })
	t.cpu += d
	t.bad = t.bad || !ok
	return r, err
}

// RunCell runs cell i. An attack that fails or does not verify is a
// result (Verified false, its error); an error return is a cell that
// could not start (a bad configuration, a cancelled context).
func (s *Sweep) RunCell(ctx context.Context, i int) (SweepRun, error) {
	cs := s.Cells()
	if i < 0 || i >= len(cs) {
		return SweepRun{}, fmt.Errorf("catalog: sweep: cell %d of %d", i, len(cs))
	}
	c := cs[i]
	out := SweepRun{SweepCell: c}
	t, err := s.target(c.Scorer)
	if err != nil {
		return out, err
	}
	y, err := BenchLabeling(c.Labeling, s.N, s.K)
	if err != nil {
		return out, err
	}
	sim, err := oracle.NewSim(t.Model, y, s.K)
	if err != nil {
		return out, err
	}
	ts := &threadTimed{Server: sim}
	o := scorer.PerPoint(ts, t.Model)
	opt := Options{Check: s.Check, Seed: 1}
	var res *decode.Result
	var aerr error
	var ran *Attack
	cpu, cok := cputime.Call(func() {
		if s.Strategy == AutoName {
			ran, res, aerr = RunAuto(ctx, o, t, opt)
			return
		}
		if ran, aerr = Parse(s.Strategy, t); aerr == nil {
			res, aerr = ran.Run(ctx, o, t, opt)
		}
	})
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	if ran != nil {
		out.Attack = ran.Name
	}
	if cok && !ts.bad {
		v := max(cpu-ts.cpu, 0).Seconds()
		out.CPUSeconds = &v
	}
	if res != nil {
		out.Queries = res.Queries
		out.Verified = res.Verified && slices.Equal(res.Labels, y)
	}
	if aerr != nil {
		out.Error = aerr.Error()
	} else if res != nil && res.Verified && !out.Verified {
		out.Error = "the verified labels differ from the labeling"
	}
	return out, nil
}

// SweepRow is one scorer's row of a sweep's report.
type SweepRow struct {
	Scorer string `json:"scorer"`
	// Attacks are the attacks that ran, in order of first use.
	Attacks []string `json:"attacks"`
	// Runs, Verified: cells and those verified.
	Runs     int `json:"runs"`
	Verified int `json:"verified"`
	// MaxQueries, MeanQueries, MinQueries are over the verified runs.
	MaxQueries  int     `json:"max_queries"`
	MeanQueries float64 `json:"mean_queries"`
	MinQueries  int     `json:"min_queries"`
	// CPUMedian, CPUMax: the attacker's CPU seconds over the runs that
	// measured it (absent when none did, or when the report leaves CPU out).
	CPUMedian *float64 `json:"cpu_median_seconds,omitempty"`
	CPUMax    *float64 `json:"cpu_max_seconds,omitempty"`
}

// SweepReport is a sweep's report: its configuration, a row per scorer
// and every run.
type SweepReport struct {
	Sweep
	Rows []SweepRow `json:"rows"`
	Runs []SweepRun `json:"runs"`
}

// Report assembles the report from the runs of every cell, in cell
// order. Without cpu the CPU times are left out (they are the one part
// of a report that differs between two runs of the same sweep).
func (s *Sweep) Report(runs []SweepRun, cpu bool) (*SweepReport, error) {
	cs := s.Cells()
	if len(runs) != len(cs) {
		return nil, fmt.Errorf("catalog: sweep: %d runs for %d cells", len(runs), len(cs))
	}
	rep := &SweepReport{Sweep: *s, Runs: make([]SweepRun, len(runs))}
	copy(rep.Runs, runs)
	per := len(BenchLabelingNames(s.Seeds))
	for j, name := range s.Scorers {
		row := SweepRow{Scorer: name, Attacks: []string{}}
		var sum int
		var cpus []float64
		for i := j * per; i < (j+1)*per; i++ {
			r := &rep.Runs[i]
			if r.SweepCell != cs[i] {
				return nil, fmt.Errorf("catalog: sweep: run %d is %v, cell %v", i, r.SweepCell, cs[i])
			}
			if !cpu {
				r.CPUSeconds = nil
			}
			row.Runs++
			if r.Attack != "" && !slices.Contains(row.Attacks, r.Attack) {
				row.Attacks = append(row.Attacks, r.Attack)
			}
			if r.CPUSeconds != nil {
				cpus = append(cpus, *r.CPUSeconds)
			}
			if !r.Verified {
				continue
			}
			if row.Verified == 0 || r.Queries > row.MaxQueries {
				row.MaxQueries = r.Queries
			}
			if row.Verified == 0 || r.Queries < row.MinQueries {
				row.MinQueries = r.Queries
			}
			row.Verified++
			sum += r.Queries
		}
		if row.Verified > 0 {
			row.MeanQueries = math.Round(float64(sum)/float64(row.Verified)*10) / 10
		}
		if len(cpus) > 0 {
			sort.Float64s(cpus)
			med := cpus[len(cpus)/2]
			if len(cpus)%2 == 0 {
				med = (cpus[len(cpus)/2-1] + med) / 2
			}
			mx := cpus[len(cpus)-1]
			row.CPUMedian, row.CPUMax = &med, &mx
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}
