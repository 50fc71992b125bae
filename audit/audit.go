package audit

// This file runs the audit: every cell of the grid, its attacks and its
// honest-user cost, and the verdict.

import (
	"context"
	"fmt"
	"io"
	"math"
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
	// Honest replaces the default honest teams by one team per
	// submission; Teams (which takes precedence) by teams that iterate.
	Honest []Honest
	Teams  []Team
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
	// Honest is the number of honest submissions, Teams the teams that
	// make them, NearTies how many teams' true bests lie within 0.001 of
	// another's, and Source where the teams come from.
	Honest   int    `json:"honest"`
	Teams    int    `json:"teams"`
	NearTies int    `json:"near_ties"`
	Source   string `json:"honest_source"`
	// AttackerAccounts are the account counts tried, MaxAccounts the
	// largest.
	AttackerAccounts []int `json:"attacker_accounts"`
	MaxAccounts      int   `json:"max_accounts"`
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
	// Measured is false when no attack of the audit applies to the
	// competition (Note says why): such a cell is never stopped.
	Measured bool   `json:"measured"`
	Note     string `json:"note,omitempty"`
	// Refused: labelinf serve refuses this defence on the metric (the
	// parameter-free Ladder or noise keyed on the losses of ROC AUC, which
	// has no per-row loss): the cell is not applicable, never stopped.
	Refused bool `json:"refused,omitempty"`
	// Verdict says it in words: "stopped with 1 account, falls with 578",
	// "NOT stopped", "not measured".
	Verdict string `json:"verdict"`
	// Error is why the cell could not be audited (a distributed run's
	// cell that failed every attempt, [FailedCell]); such a cell is
	// neither measured nor stopped.
	Error string `json:"error,omitempty"`
	// AccountsNeeded is the fewest accounts (up to the largest of
	// attacker_accounts) with which some attack recovers StopFraction of
	// the public labels within the limit; null if none does.
	// AccountsAll is the fewest with which one recovers all it can
	// (every public label for a verifying attack); null if none does.
	AccountsNeeded *int64 `json:"accounts_needed"`
	AccountsAll    *int64 `json:"accounts_all"`
	// ByAccounts is what the attacker recovers with each count of
	// attacker_accounts.
	ByAccounts []AccountsResult `json:"by_accounts,omitempty"`
	// Floor is a lower bound on the submissions of any attack that
	// recovers every public label.
	Floor Floor `json:"floor"`
}

// AccountsResult is the cell's outcome for an attacker with Accounts
// accounts: the submissions within reach of one account's attack
// (Limit) and the public labels the best attack recovers within them.
type AccountsResult struct {
	Accounts        int     `json:"accounts"`
	Limit           int64   `json:"limit"`
	PublicRecovered float64 `json:"public_recovered"`
	Stopped         bool    `json:"stopped"`
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
// on cfg (its seed included) and the target's behaviour. Run is
// [NewPlan], [Plan.RunCell] for every cell (o.Workers at once) and
// [Plan.Report]; a work queue (package queue) runs the same cells on
// other machines.
func Run(ctx context.Context, cfg *Config, o Options) (*Report, error) {
	p, err := NewPlan(ctx, cfg, o)
	if err != nil {
		return nil, err
	}
	if o.Target == nil {
		o.Target = InProcess
	}
	cells := make([]CellResult, len(p.comp.cells))
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
				stop := first != nil || i >= len(cells)
				mu.Unlock()
				if stop {
					return
				}
				t0 := time.Now()
				cr, err := p.runCell(ctx, i, o.Target, logf)
				if err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
				cells[i] = *cr
				logf("audit %s: cell %-16s %s (%.1fs)\n", p.comp.cfg.ID, cr.Name, cr.Verdict, time.Since(t0).Seconds())
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
	return p.Report(cells)
}

// auditCell runs one cell.
func auditCell(ctx context.Context, comp *competition, cell Cell, f TargetFactory, ts []Team, truth [][]float64,
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
	atks, err := run.attacks(ctx, logf)
	if err != nil {
		return nil, fmt.Errorf("audit: cell %q: %w", cell.Name, err)
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
	bud := budget{perDay: int64(lim.PerDay), total: int64(lim.Total), days: int64(comp.cfg.Days), reach: int64(comp.cfg.Limit)}
	cr.Limit = bud.limitOf(int64(comp.cfg.Accounts))
	var bestWithin float64
	for i := range atks {
		a := &atks[i]
		if a.Needed == 0 || !a.Accurate() {
			continue // failed, or guessing
		}
		// What the attack recovers within the limit: its fractions, scaled
		// down if it needs more submissions than it gets (linear progress,
		// as every attack here decodes at a steady rate).
		scale := bud.scale(a, int64(comp.cfg.Accounts))
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
	ok, why := run.metricAttackable()
	for _, a := range atks {
		if a.Outcome == refused {
			// labelinf serve refuses this defence on this metric: the
			// cell cannot exist, and says nothing of safety.
			ok, why, cr.Refused = false, "labelinf serve refuses this defence on this metric: "+a.Note, true
			break
		}
	}
	maxK := int64(comp.cfg.AttackerAccounts[len(comp.cfg.AttackerAccounts)-1])
	if most, _ := bud.recovered(atks, maxK); ok && comp.model == nil && most < StopFraction {
		// The attacks on metrics other than log-loss (package discrete)
		// do not yet read every defence (splits, subsets, noise beyond
		// their bound): a cell none of them breaks, even with the most
		// accounts, is not shown safe.
		ok, why = false, notMeasuredNote(comp.cfg.Metric, cr, bestWithin)
	}
	cr.Measured = ok
	cr.Stopped = ok && bestWithin < StopFraction
	if !ok {
		cr.Note = why
	}
	if cr.Best != "" {
		for _, k := range []int64{1, 10, 100} {
			per := int64(cr.PerDay) * k
			cr.Days = append(cr.Days, AccDays{Accounts: int(k), Days: (cr.Submissions + per - 1) / per})
		}
	}
	if ok {
		cr.AccountsNeeded, cr.AccountsAll = bud.accountsNeeded(atks, int64(comp.cfg.AttackerAccounts[len(comp.cfg.AttackerAccounts)-1]))
		for _, k := range comp.cfg.AttackerAccounts {
			ar := AccountsResult{Accounts: k, Limit: bud.limitOf(int64(k))}
			for i := range atks {
				if a := &atks[i]; a.Needed > 0 && a.Accurate() {
					ar.PublicRecovered = math.Max(ar.PublicRecovered, a.PublicRecovered*bud.scale(a, int64(k)))
				}
			}
			ar.Stopped = ar.PublicRecovered < StopFraction
			cr.ByAccounts = append(cr.ByAccounts, ar)
		}
		cr.Floor, err = run.floor(ctx)
		if err != nil {
			return nil, fmt.Errorf("audit: cell %q: %w", cell.Name, err)
		}
		if cr.Best != "" && cr.Floor.Submissions > 0 {
			cr.Floor.Ratio = float64(cr.Submissions) / float64(cr.Floor.Submissions)
		}
	}
	cr.Verdict = cr.verdictText(comp.cfg.Accounts, comp.cfg.AttackerAccounts[len(comp.cfg.AttackerAccounts)-1])
	if ts != nil && !cr.Refused { // a cell serve refuses has no honest cost either
		hc, err := run.honestCost(ctx, ts, truth)
		if err != nil {
			return nil, err
		}
		cr.Honest = hc
	}
	return cr, nil
}

// notMeasuredNote says why a cell of a metric other than log-loss that
// no attack breaks is not measured, naming the best attack, if any, and
// what it recovers within the limit, so that the row reads as one
// statement: that attack is not enough, and its failure is no evidence
// of safety.
func notMeasuredNote(metric string, cr *CellResult, within float64) string {
	s := "no attack of the catalogue recovers 1% of the public labels of " + metric + " under this defence within the limit"
	if cr.Best != "" {
		n := comma(cr.Submissions)
		if cr.Extrapolated {
			n = "~" + n
		}
		s += fmt.Sprintf(" (the best, %s: %s submissions, recovers %s of them within it)", cr.Best, n, pct(within))
	}
	return s + "; that is no evidence of safety: not measured"
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
