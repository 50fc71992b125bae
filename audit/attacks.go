package audit

// This file runs the attacks of one cell against its target, each told
// which defence is in place, and measures what each recovers.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"sort"

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
	// FreshAccounts: the attack submits each query from a new account
	// (against a per-team state, each account's first release), so it
	// needs as many accounts as submissions.
	FreshAccounts bool `json:"fresh_accounts,omitempty"`

	// progress, if set, returns the share of the attack's labels it
	// holds after v submissions (from its measured progress); nil is
	// linear in v up to Needed.
	progress func(v int64) float64
	// planned: the measuring budget ended the attack before it decoded a
	// label, and Needed is its own exact plan (catalog.Estimate.Exact),
	// Extrapolated; its fractions are the plan's (every label, checked).
	planned bool
}

// share returns the share of the attack's recovered labels it holds
// after v submissions.
func (a *AttackResult) share(v int64) float64 {
	if v >= a.Needed {
		return 1
	}
	if v <= 0 {
		return 0
	}
	if a.progress != nil {
		return min(1, max(0, a.progress(v)))
	}
	return float64(v) / float64(a.Needed)
}

// curve is a multi-query attack's measured progress: labels known after
// each query.
type curve struct {
	q, known []int
}

func (c *curve) add(known, q int) {
	c.q = append(c.q, q)
	c.known = append(c.known, known)
}

// project returns the submissions an attack that holds claimed of n
// labels after q needs for all n: at the rate of the last half of its
// measured progress where it reports one (a code's first queries may
// cost more), or at its overall rate, whichever is fewer.
func (c *curve) project(q, claimed, n int) int64 {
	lin := int64(math.Ceil(float64(q) * float64(n) / float64(claimed)))
	if len(c.q) < 2 {
		return lin
	}
	last := len(c.q) - 1
	h := sort.Search(len(c.q), func(i int) bool { return c.q[i] >= c.q[last]/2 })
	dq, dk := c.q[last]-c.q[h], c.known[last]-c.known[h]
	if h >= last || dk <= 0 || c.known[last] >= n {
		return lin
	}
	r := int64(q) + int64(math.Ceil(float64(n-c.known[last])*float64(dq)/float64(dk)))
	return min(lin, r)
}

// at returns the labels known after v queries: measured up to the last
// query, then linear from there to all n at needed.
func (c *curve) at(v int64, n int, needed int64) float64 {
	i := sort.Search(len(c.q), func(i int) bool { return int64(c.q[i]) > v }) - 1
	if i < 0 {
		return 0
	}
	k := float64(c.known[i])
	if last := len(c.q) - 1; i == last && v > int64(c.q[last]) && needed > int64(c.q[last]) {
		k += (float64(n) - k) * float64(v-int64(c.q[last])) / float64(needed-int64(c.q[last]))
	}
	return k
}

// Recovered reports whether the attack recovers the labels: at least
// half of the public ones right and at most 1 % of its claims wrong.
func (a *AttackResult) Recovered() bool {
	return a.Needed > 0 && a.PublicRecovered >= 0.5 && a.Accurate()
}

// Accurate reports whether the attack claimed labels and at most 1 % of
// them are wrong: claims less accurate than that are guesses, and the
// audit does not count them as recovered labels. An attack projected
// from its own plan before it claimed any (planned) is accurate when no
// claim of it was wrong.
func (a *AttackResult) Accurate() bool {
	return (a.Claimed > 0 || a.planned) && a.Wrong*100 <= a.Claimed
}

// cellRun is one cell's attack context.
type cellRun struct {
	comp    *competition
	cell    Cell
	seed    [32]byte
	factory TargetFactory
	public  []bool // public[i]: row i is on the public leaderboard
	nPub    int
	// cut[fresh] is the fewest submissions with which a multi-query
	// strategy of that view recovered every label: later ones of the view
	// run up to it, no further.
	cut map[bool]int
}

// open opens a fresh target for one attack.
func (c *cellRun) open(ctx context.Context) (Target, error) {
	return c.factory(ctx, Spec{Labels: c.comp.labels, Model: c.comp.model, Metric: c.comp.cfg.Metric, Clip: c.comp.cfg.Clip, K: c.comp.cfg.Classes, Cell: c.cell, Seed: c.seed})
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

// server adapts a Target to scorer.Server for package decode. With
// fresh set, every submission comes from a new account (a Sybil
// attacker: against a per-team state each account's first submission).
type server struct {
	t     Target
	k, q  int
	fresh bool
}

func (s *server) N() int       { return s.t.Rows() }
func (s *server) K() int       { return s.k }
func (s *server) Queries() int { return s.q }
func (s *server) Score(ctx context.Context, p *scorer.Pred) (*big.Rat, error) {
	s.q++
	return s.t.Submit(ctx, teamName(s.fresh, s.q), p.P)
}

// teamName is the attacker's account for its q-th submission (from 1):
// one account, or a fresh one per submission.
func teamName(fresh bool, q int) string {
	if fresh {
		return fmt.Sprintf("sybil-%d", q)
	}
	return "attacker"
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
