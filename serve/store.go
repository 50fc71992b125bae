package serve

// This file defines the Store: keys, budgets and accepted submissions.

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A Store keeps API keys, budgets and accepted submissions durably. Its
// two implementations, [OpenSQLite] and [OpenPostgres], pass one
// conformance suite (storetest_test.go). All methods are safe for
// concurrent use.
type Store interface {
	// AddKey stores a new key (its hash only).
	AddKey(ctx context.Context, k Key) error
	// Key returns the key with this id, or ErrNotFound.
	Key(ctx context.Context, id string) (Key, error)
	// Keys lists every key, oldest first.
	Keys(ctx context.Context) ([]Key, error)
	// RevokeKey marks a key revoked at t (ErrNotFound if there is none).
	RevokeKey(ctx context.Context, id string, t time.Time) error
	// Submit charges req.KeyID's budget for req.Competition and stores the
	// submission, in ONE transaction: it checks the budget against
	// req.Limits at req.At, and only if the check passes calls score with
	// the number of submissions the key made before (so nothing about the
	// labels is computed for a rejected request) and stores what it
	// returns. Over budget it returns a *BudgetError and stores nothing. A
	// request whose Idempotency matches an earlier accepted one of the same
	// key and competition returns that submission with replay true and
	// charges nothing.
	Submit(ctx context.Context, req SubmitRequest, score func(seq int64) (Scores, error)) (s Submission, replay bool, err error)
	// Submissions returns a competition's accepted submissions, oldest first.
	Submissions(ctx context.Context, competition string) ([]Submission, error)
	// Usage returns a key's budget use in a competition as of t.
	Usage(ctx context.Context, keyID, competition string, t time.Time) (Usage, error)
	// MetricRule returns the scoring rule recorded for a competition (""
	// if none; see [CheckRules]) and the number of its stored
	// submissions.
	MetricRule(ctx context.Context, competition string) (rule string, scored int64, err error)
	// SetMetricRule records a competition's scoring rule.
	SetMetricRule(ctx context.Context, competition, rule string) error
	// Durability reports the durability settings in force (SQLite:
	// journal_mode, synchronous; PostgreSQL: synchronous_commit, fsync).
	Durability(ctx context.Context) (map[string]string, error)
	// Ping checks the database is reachable.
	Ping(ctx context.Context) error
	Close() error
}

// ErrNotFound is returned for a key that does not exist.
var ErrNotFound = errors.New("serve: not found")

// A Key is an API key as stored: its id, its owner's name and the SHA-256
// of its secret; never the secret.
type Key struct {
	ID      string
	Name    string
	Hash    string // hex SHA-256 of the secret
	Created time.Time
	Revoked time.Time // zero while valid
}

// Limits are a competition's per-key budget: accepted submissions per UTC
// day and in total, and the least time between two. Zero means no limit.
type Limits struct {
	Daily, Total int
	MinInterval  time.Duration
}

// A SubmitRequest is a scored submission about to be charged.
type SubmitRequest struct {
	ID          string // random, unique
	Competition string
	KeyID       string
	At          time.Time
	PredHash    string // hex SHA-256 of the predictions' float64 bits
	Idempotency string // optional client token
	Limits      Limits
}

// Scores are the released scores of one submission, as text (see
// formatValue).
type Scores struct {
	Public, Private string
}

// A Submission is an accepted submission.
type Submission struct {
	ID          string
	Competition string
	KeyID       string
	At          time.Time
	Public      string
	Private     string
	PredHash    string
	Seq         int64 // the key's submissions to this competition before it
}

// Usage is a key's budget use in a competition.
type Usage struct {
	Total, Today int
	Last         time.Time // zero if none
}

// A BudgetError is a submission refused by its key's budget.
type BudgetError struct {
	Reason     string // "daily", "total" or "interval"
	Limit      int
	RetryAfter time.Duration // 0 when waiting does not help
}

func (e *BudgetError) Error() string {
	switch e.Reason {
	case "daily":
		return fmt.Sprintf("daily limit of %d submissions reached; the budget resets at 00:00 UTC", e.Limit)
	case "total":
		return fmt.Sprintf("total limit of %d submissions reached", e.Limit)
	}
	return fmt.Sprintf("submissions must be at least the minimum interval apart; retry in %v", e.RetryAfter.Round(time.Millisecond))
}

// utcDay returns the number of the UTC day holding t.
func utcDay(t time.Time) int64 {
	s := t.Unix()
	d := s / 86400
	if s < 0 && s%86400 != 0 {
		d--
	}
	return d
}

// checkBudget applies l to a key's use u (with its day) at t.
func checkBudget(l Limits, total, day, dayUsed, lastAt int64, t time.Time) error {
	today := utcDay(t)
	if day != today {
		dayUsed = 0
	}
	if l.Total > 0 && total >= int64(l.Total) {
		return &BudgetError{Reason: "total", Limit: l.Total}
	}
	if l.Daily > 0 && dayUsed >= int64(l.Daily) {
		next := time.Unix((today+1)*86400, 0)
		return &BudgetError{Reason: "daily", Limit: l.Daily, RetryAfter: next.Sub(t)}
	}
	if l.MinInterval > 0 && total > 0 {
		if wait := time.Unix(0, lastAt).Add(l.MinInterval).Sub(t); wait > 0 {
			return &BudgetError{Reason: "interval", RetryAfter: wait}
		}
	}
	return nil
}
