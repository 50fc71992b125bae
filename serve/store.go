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
	// returns; score reads and updates the competition's defence state
	// through st, inside the same transaction. Over budget it returns a
	// *BudgetError and stores nothing. A request whose Idempotency matches
	// an earlier accepted one of the same key and competition returns that
	// submission with replay true and charges nothing, or an
	// *IdempotencyError if its PredHash differs. When the commit's outcome
	// cannot be learnt (the database went away during COMMIT and did not
	// come back in time) it returns ErrOutcomeUnknown; any other error
	// means nothing was stored.
	Submit(ctx context.Context, req SubmitRequest, score func(seq int64, st StateTx) (Scores, error)) (s Submission, replay bool, err error)
	// DefenceState runs fn in one transaction over competition's defence
	// state (used to import a defence_state_file and by tests).
	DefenceState(ctx context.Context, competition string, fn func(st StateTx) error) error
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

// ErrOutcomeUnknown is a submission whose commit may or may not have
// happened: the connection to the database was lost during COMMIT and the
// outcome could not be looked up before the deadline. The client must
// retry with the same Idempotency-Key, which returns the submission if it
// was stored and submits it otherwise.
var ErrOutcomeUnknown = errors.New("serve: the commit's outcome is unknown")

// An IdempotencyError is a request whose Idempotency-Key was already used
// by the same key in the same competition for another prediction.
type IdempotencyError struct{ ID string }

func (e *IdempotencyError) Error() string {
	return "Idempotency-Key already used for another prediction (submission " + e.ID + "); use a new key for a new prediction"
}

// A StateTx reads and writes a competition's defence state inside one
// transaction: what the Ladder, Thresholdout and a simulation's random
// streams remember, one opaque value per scope (see defstate.go). Scopes
// must be locked in one order (defstate.go's) so that transactions cannot
// deadlock.
type StateTx interface {
	// Lock returns the value stored under scope (empty if none) and locks
	// it until the transaction ends: on PostgreSQL a row lock (SELECT …
	// FOR UPDATE), on SQLite the database's one writer.
	Lock(scope string) ([]byte, error)
	// Put replaces the value under a scope locked by Lock.
	Put(scope string, data []byte) error
	// Scopes lists the scopes holding a value.
	Scopes() ([]string, error)
}

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
