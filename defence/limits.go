package defence

//go:generate go run golang.org/x/tools/cmd/stringer@v0.52.0 -type=Reason -linecomment -output=limits_string.go

import (
	"fmt"
	"sync"
	"time"
)

// Limits is a submission budget per account: at most PerDay accepted
// submissions per UTC calendar day, at most Total over the competition,
// and at least MinInterval between two accepted submissions. A zero
// field means no limit of that kind. Platforms: Codabench 5 per day and
// 100 in total by default, Kaggle about 5 per day, EvalAI 100,000
// (DEFENCES.md §2.5).
//
// Semantics, which a host enforcing them in its database must keep:
//   - only accepted submissions count; a refused one (by these limits or
//     because it was malformed) spends nothing, so refusals must not
//     depend on the private labels (a free answer would leak them);
//   - the day is the UTC calendar day of the submission's time, so the
//     budget resets at 00:00 UTC, not 24 h after the first submission;
//   - MinInterval is measured from the last accepted submission;
//   - the decision and the recording of an accepted submission must be
//     one transaction, or two concurrent requests both see room for one.
//
// Limits per account do not bind an attacker with k accounts: his budget
// is k times larger.
type Limits struct {
	PerDay      int
	Total       int
	MinInterval time.Duration
}

// Validate returns an error if a field is negative.
func (l Limits) Validate() error {
	if l.PerDay < 0 || l.Total < 0 || l.MinInterval < 0 {
		return fmt.Errorf("defence: negative limit in %+v", l)
	}
	return nil
}

// Reason says why a submission is refused.
type Reason int

const (
	// Allowed: within every limit.
	Allowed Reason = iota // allowed
	// DailyLimit: PerDay accepted submissions today (UTC).
	DailyLimit // daily limit
	// TotalLimit: Total accepted submissions in all.
	TotalLimit // total limit
	// TooSoon: less than MinInterval since the last accepted one.
	TooSoon // minimum interval
)

// Usage is what the policy needs to know of an account's accepted
// submissions: how many in all, how many on the UTC day of the request,
// and the time of the last one (zero if none). A database answers it with
// three aggregates.
type Usage struct {
	Total int
	Today int
	Last  time.Time
}

// Decision is the outcome of [Limits.Decide].
type Decision struct {
	Reason Reason
	// RetryAt is the earliest time a refused submission could be
	// accepted (zero if never, i.e. TotalLimit).
	RetryAt time.Time
	// LeftToday and LeftTotal count the submissions left after this one
	// if it is accepted (−1 for no limit).
	LeftToday, LeftTotal int
}

// OK reports whether the submission is allowed.
func (d Decision) OK() bool { return d.Reason == Allowed }

// Decide returns the decision for a submission at time now by an account
// with usage u (Today counted on now's UTC day). The checks run in the
// order total, daily, interval, so the reason given is the one that lasts
// longest.
func (l Limits) Decide(u Usage, now time.Time) Decision {
	d := Decision{LeftToday: -1, LeftTotal: -1}
	if l.Total > 0 && u.Total >= l.Total {
		d.Reason = TotalLimit
		return d
	}
	if l.PerDay > 0 && u.Today >= l.PerDay {
		d.Reason = DailyLimit
		d.RetryAt = nextUTCDay(now)
		return d
	}
	if l.MinInterval > 0 && !u.Last.IsZero() {
		if next := u.Last.Add(l.MinInterval); now.Before(next) {
			d.Reason = TooSoon
			d.RetryAt = next
			return d
		}
	}
	if l.Total > 0 {
		d.LeftTotal = l.Total - u.Total - 1
	}
	if l.PerDay > 0 {
		d.LeftToday = l.PerDay - u.Today - 1
	}
	return d
}

// nextUTCDay returns 00:00 UTC of the day after t's UTC day.
func nextUTCDay(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}

// SameUTCDay reports whether a and b fall on the same UTC calendar day.
func SameUTCDay(a, b time.Time) bool {
	ya, ma, da := a.UTC().Date()
	yb, mb, db := b.UTC().Date()
	return ya == yb && ma == mb && da == db
}

// Budget is an in-memory enforcement of [Limits] per account with an
// injected clock, for simulations and tests; a server keeps the usage in
// its database and calls [Limits.Decide] inside its transaction. Safe for
// concurrent use: Spend decides and records atomically.
type Budget struct {
	limits Limits
	clock  Clock
	mu     sync.Mutex
	usage  map[string]*Usage
}

// NewBudget returns a budget enforcing l with clock (nil: time.Now).
func NewBudget(l Limits, clock Clock) (*Budget, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if clock == nil {
		clock = time.Now
	}
	return &Budget{limits: l, clock: clock, usage: map[string]*Usage{}}, nil
}

// Spend decides on a submission by account at the clock's time and, if
// it is allowed, records it.
func (b *Budget) Spend(account string) Decision {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock()
	u := b.usage[account]
	if u == nil {
		u = &Usage{}
		b.usage[account] = u
	}
	if !u.Last.IsZero() && !SameUTCDay(u.Last, now) {
		u.Today = 0
	}
	d := b.limits.Decide(*u, now)
	if d.OK() {
		u.Total++
		u.Today++
		u.Last = now
	}
	return d
}

// LimitError is returned by a [Board] whose budget refuses a submission.
type LimitError struct {
	Decision Decision
}

func (e *LimitError) Error() string {
	if e.Decision.RetryAt.IsZero() {
		return fmt.Sprintf("defence: submission refused: %v", e.Decision.Reason)
	}
	return fmt.Sprintf("defence: submission refused: %v; retry at %s", e.Decision.Reason, e.Decision.RetryAt.UTC().Format(time.RFC3339))
}
