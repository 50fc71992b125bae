package audit

// This file runs the audit: every cell of the grid, its attacks and its
// honest-user cost, and the verdict.

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sync"
	"time"

	"github.com/labelinf/labelinf/defence"
)

// Options configures [Run].
type Options struct {
	// Target opens the targets; nil is [InProcess] (labelinf audit uses
	// [Loopback] unless -inprocess).
	Target TargetFactory
	// Progress, if set, receives one line per attack and per cell (with
	// wall times; the report itself has none).
	Progress io.Writer
	// Workers is the number of cells audited at once (default 1). The
	// report does not depend on it.
	Workers int
	// Honest replaces the default honest submissions.
	Honest []Honest
}

// Report is the audit of one competition.
type Report struct {
	Competition Summary      `json:"competition"`
	Cells       []CellResult `json:"cells"`
}

// Summary describes the audited competition.
type Summary struct {
	ID        string `json:"id"`
	Title     string `json:"title,omitempty"`
	Rows      int    `json:"rows"`
	Positives int    `json:"positives"`
	Metric    string `json:"metric"`
	Seed      uint64 `json:"seed"`
	Days      int    `json:"days"`
	Accounts  int    `json:"accounts"`
	Limit     int    `json:"limit"`
	Measure   int    `json:"measure"`
	// Honest is the number of honest submissions and NearTies how many of
	// them have a true score within 0.001 of another's.
	Honest   int `json:"honest"`
	NearTies int `json:"near_ties"`
}

// CellResult is the audit of one defence setting.
type CellResult struct {
	Name     string           `json:"name"`
	Settings string           `json:"settings"`
	Defence  defence.Settings `json:"defence"`
	Attacks  []AttackResult   `json:"attacks"`
	// Best is the attack that recovers the most public labels within the
	// limit (the cheaper of two that recover as many), counting only
	// attacks whose claims are at least 99 % right; "" if none recovers
	// any.
	Best string `json:"best,omitempty"`
	// Submissions the best attack needs to finish (whatever the limit; 0
	// if there is none), and whether that number is extrapolated.
	Submissions  int64 `json:"submissions"`
	Extrapolated bool  `json:"extrapolated,omitempty"`
	// Limit is the submissions the attacker has: per day × days ×
	// accounts (capped by the total limit × accounts) when the cell has
	// a daily limit, else the config's limit.
	Limit int64 `json:"limit"`
	// Stopped: no attack recovers StopFraction of the public labels
	// within Limit.
	Stopped bool `json:"stopped"`
	// Fractions of labels recovered within the limit (the best over the
	// attacks; verified: by an attack that verifies its labels).
	PublicRecovered  float64 `json:"public_recovered"`
	PublicVerified   float64 `json:"public_verified"`
	PrivateRecovered float64 `json:"private_recovered"`
	PrivateVerified  float64 `json:"private_verified"`
	// PerDay is the daily limit the days are counted at (the cell's, else
	// the competition's, else Kaggle's 5), and Days the days the best
	// attack needs with 1, 10 and 100 accounts.
	PerDay int        `json:"per_day"`
	Days   []AccDays  `json:"days,omitempty"`
	Honest HonestCost `json:"honest"`
}

// StopFraction is the share of the public labels an attack must
// recover within the limit (with at most 1 % of its claims wrong) for a
// cell not to count as stopped: 1 %.
const StopFraction = 0.01

// AccDays is the competition length an attack needs with Accounts
// accounts.
type AccDays struct {
	Accounts int   `json:"accounts"`
	Days     int64 `json:"days"`
}

// Run audits the competition of cfg: for every cell of its grid, every
// attack that applies and the honest-user cost. The report depends only
// on cfg (its seed included) and the target's behaviour.
func Run(ctx context.Context, cfg *Config, o Options) (*Report, error) {
	comp, err := cfg.resolve()
	if err != nil {
		return nil, &ConfigError{err}
	}
	if o.Target == nil {
		o.Target = InProcess
	}
	hs := o.Honest
	if hs == nil && comp.cfg.Honest != "" {
		dir := comp.cfg.Honest
		if cfg.dir != "" && !filepath.IsAbs(dir) {
			dir = filepath.Join(cfg.dir, dir)
		}
		if hs, err = LoadHonest(dir, len(comp.labels)); err != nil {
			return nil, &ConfigError{err}
		}
	}
	if hs == nil {
		hs = HonestSet(comp.labels, comp.cfg.Seed)
	}
	for _, h := range hs {
		if len(h.Pred) != len(comp.labels) {
			return nil, &ConfigError{fmt.Errorf("audit: honest submission %s has %d predictions; want %d", h.Name, len(h.Pred), len(comp.labels))}
		}
	}
	truth, err := trueScores(comp.model, comp.labels, hs)
	if err != nil {
		return nil, &ConfigError{err}
	}
	pos := 0
	for _, y := range comp.labels {
		pos += y
	}
	c := comp.cfg
	rep := &Report{
		Competition: Summary{ID: c.ID, Title: c.Title, Rows: len(comp.labels), Positives: pos, Metric: comp.model.Name,
			Seed: c.Seed, Days: c.Days, Accounts: c.Accounts, Limit: c.Limit, Measure: c.Measure,
			Honest: len(hs), NearTies: nearTies(truth)},
		Cells: make([]CellResult, len(comp.cells)),
	}
	workers := max(1, o.Workers)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  int
	)
	logf := func(format string, args ...any) {
		if o.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(o.Progress, format, args...)
	}
	for range workers {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				stop := first != nil || i >= len(comp.cells)
				mu.Unlock()
				if stop {
					return
				}
				t0 := time.Now()
				cr, err := auditCell(ctx, comp, comp.cells[i], o.Target, hs, truth, logf)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
				rep.Cells[i] = *cr
				verdict := "NOT stopped"
				if cr.Stopped {
					verdict = "stopped"
				}
				logf("audit %s: cell %-16s %s (%.1fs)\n", c.ID, cr.Name, verdict, time.Since(t0).Seconds())
			}
		})
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return rep, nil
}

// auditCell runs one cell.
func auditCell(ctx context.Context, comp *competition, cell Cell, f TargetFactory, hs []Honest, truth []float64,
	logf func(string, ...any)) (*CellResult, error) {
	n := len(comp.labels)
	cr := &CellResult{Name: cell.Name, Settings: cell.Defence.String(), Defence: cell.Defence}
	run := &cellRun{comp: comp, cell: cell, seed: cellSeed(comp.cfg.Seed, cell.Name), factory: f, public: make([]bool, n)}
	// Which rows are public: the split's, computed from the same chain.
	ch, err := cell.Defence.SimulationChain(n, run.seed, nil)
	if err != nil {
		return nil, fmt.Errorf("audit: cell %q: %w", cell.Name, err)
	}
	if sp := ch.Split(); sp != nil {
		for _, i := range sp.Public() {
			run.public[i] = true
		}
	} else {
		for i := range run.public {
			run.public[i] = true
		}
	}
	for _, p := range run.public {
		if p {
			run.nPub++
		}
	}
	atks, err := run.attacks(ctx)
	if err != nil {
		return nil, fmt.Errorf("audit: cell %q: %w", cell.Name, err)
	}
	for _, a := range atks {
		logf("audit %s: cell %-16s %-18s %-9s %7d submissions, needs %s\n", comp.cfg.ID, cell.Name, a.Attack, a.Outcome, a.Submissions, needText(a.Needed, a.Extrapolated))
	}
	cr.Attacks = atks
	lim := defence.LimitSettings(cell.Defence.Limits)
	cr.PerDay = lim.PerDay
	if cr.PerDay == 0 {
		cr.PerDay = comp.cfg.DailyLimit
	}
	if cr.PerDay == 0 {
		cr.PerDay = 5
	}
	acc := int64(comp.cfg.Accounts)
	cr.Limit = int64(comp.cfg.Limit)
	if lim.PerDay > 0 {
		cr.Limit = int64(lim.PerDay) * int64(comp.cfg.Days) * acc
	}
	if lim.Total > 0 {
		cr.Limit = min(cr.Limit, int64(lim.Total)*acc)
	}
	bestWithin := 0.0
	for i := range atks {
		a := &atks[i]
		if a.Needed == 0 || !a.Accurate() {
			continue // failed, or guessing
		}
		// What the attack recovers within the limit: its fractions, scaled
		// down if it needs more submissions than the limit (linear
		// progress, as every attack here decodes at a steady rate).
		scale := 1.0
		if a.Needed > cr.Limit {
			scale = float64(cr.Limit) / float64(a.Needed)
		}
		w := a.PublicRecovered * scale
		if cr.Best == "" || w > bestWithin || (w == bestWithin && a.Needed < cr.Submissions) {
			bestWithin = w
			cr.Best, cr.Submissions, cr.Extrapolated = a.Attack, a.Needed, a.Extrapolated
		}
		cr.PublicRecovered = math.Max(cr.PublicRecovered, w)
		cr.PublicVerified = math.Max(cr.PublicVerified, a.PublicVerified*scale)
		cr.PrivateRecovered = math.Max(cr.PrivateRecovered, a.PrivateRecovered*scale)
		cr.PrivateVerified = math.Max(cr.PrivateVerified, a.PrivateVerified*scale)
	}
	cr.Stopped = bestWithin < StopFraction
	if cr.Best != "" {
		for _, k := range []int64{1, 10, 100} {
			per := int64(cr.PerDay) * k
			cr.Days = append(cr.Days, AccDays{Accounts: int(k), Days: (cr.Submissions + per - 1) / per})
		}
	}
	hc, err := run.honestCost(ctx, hs, truth)
	if err != nil {
		return nil, err
	}
	cr.Honest = hc
	return cr, nil
}

// needText formats an attack's cost.
func needText(n int64, extrapolated bool) string {
	if n == 0 {
		return "—"
	}
	if extrapolated {
		return fmt.Sprintf("~%d (extrapolated)", n)
	}
	return fmt.Sprint(n)
}
