package serve

// One conformance suite for every Store implementation, in the manner of
// testing/fstest.TestFS: keys, budgets (daily, total, interval),
// idempotency, concurrent charging, durability settings, and what survives
// closing and reopening the database.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// storeOpener opens the same database again each time it is called.
type storeOpener func(t *testing.T) Store

func sqliteOpener(t *testing.T) storeOpener {
	path := filepath.Join(t.TempDir(), "test.db")
	return func(t *testing.T) Store {
		st, err := OpenSQLite(context.Background(), path)
		require.NoError(t, err)
		return st
	}
}

func postgresOpener(t *testing.T) storeOpener {
	dsn := newPostgresDB(t)
	return func(t *testing.T) Store {
		st, err := OpenPostgres(context.Background(), dsn)
		require.NoError(t, err)
		return st
	}
}

func TestStoreSQLite(t *testing.T) {
	testStore(t, sqliteOpener(t), map[string]string{"journal_mode": "wal", "synchronous": "2"})
}
func TestStorePostgres(t *testing.T) {
	testStore(t, postgresOpener(t), map[string]string{"synchronous_commit": "on", "fsync": "on"})
}

// testStore is the conformance suite; durability is the settings the
// store must report (SQLite's synchronous 2 is FULL).
func testStore(t *testing.T, open storeOpener, durability map[string]string) {
	ctx := context.Background()
	st := open(t)
	defer func() { st.Close() }()
	t0 := time.Date(2026, 3, 1, 23, 59, 0, 0, time.UTC)

	t.Run("durability", func(t *testing.T) {
		got, err := st.Durability(ctx)
		require.NoError(t, err)
		assert.Equal(t, durability, got)
	})

	alice, _, err := NewKey("alice", t0)
	require.NoError(t, err)
	bob, _, err := NewKey("bob", t0.Add(time.Second))
	require.NoError(t, err)
	t.Run("keys", func(t *testing.T) {
		require.NoError(t, st.AddKey(ctx, alice))
		require.NoError(t, st.AddKey(ctx, bob))
		assert.Error(t, st.AddKey(ctx, alice), "AddKey twice")
		k, err := st.Key(ctx, alice.ID)
		require.NoError(t, err)
		assert.Equal(t, alice, k)
		_, err = st.Key(ctx, "0000000000000000")
		assert.ErrorIs(t, err, ErrNotFound)
		assert.ErrorIs(t, st.RevokeKey(ctx, "0000000000000000", t0), ErrNotFound)
		keys, err := st.Keys(ctx)
		require.NoError(t, err)
		require.Len(t, keys, 2)
		assert.Equal(t, []string{alice.ID, bob.ID}, []string{keys[0].ID, keys[1].ID})
	})

	lim := Limits{Daily: 2, Total: 3, MinInterval: 10 * time.Second}
	calls := 0
	score := func(seq int64, _ StateTx) (Scores, error) {
		calls++
		return Scores{Public: fmt.Sprint(seq), Private: "0.5"}, nil
	}
	submit := func(key Key, at time.Time, idem string) (Submission, bool, error) {
		id := fmt.Sprintf("sub_%d_%s", at.UnixNano(), key.ID)
		return st.Submit(ctx, SubmitRequest{ID: id, Competition: "c1", KeyID: key.ID, At: at, PredHash: "h", Idempotency: idem, Limits: lim}, score)
	}
	t.Run("budget", func(t *testing.T) {
		s, replay, err := submit(alice, t0, "a")
		require.NoError(t, err)
		assert.False(t, replay)
		assert.Equal(t, int64(0), s.Seq)
		assert.Equal(t, "0", s.Public)

		// Too soon: refused, nothing scored, nothing charged.
		before := calls
		_, _, err = submit(alice, t0.Add(5*time.Second), "")
		var be *BudgetError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, "interval", be.Reason)
		assert.Equal(t, 5*time.Second, be.RetryAfter)
		assert.Equal(t, before, calls, "score called for a refused submission")

		// The same idempotency key replays the first answer, free.
		s2, replay, err := submit(alice, t0.Add(20*time.Second), "a")
		require.NoError(t, err)
		assert.True(t, replay)
		assert.Equal(t, s.ID, s2.ID)
		assert.Equal(t, before, calls)

		// Second of the day (the day ends at 00:00 UTC, one minute after t0).
		_, _, err = submit(alice, t0.Add(20*time.Second), "b")
		require.NoError(t, err)
		_, _, err = submit(alice, t0.Add(40*time.Second), "c")
		require.ErrorAs(t, err, &be)
		assert.Equal(t, "daily", be.Reason)
		assert.Equal(t, 20*time.Second, be.RetryAfter)

		// Next UTC day: the third and last in total.
		s3, _, err := submit(alice, t0.Add(61*time.Second), "c")
		require.NoError(t, err)
		assert.Equal(t, int64(2), s3.Seq)
		_, _, err = submit(alice, t0.Add(time.Hour), "d")
		require.ErrorAs(t, err, &be)
		assert.Equal(t, "total", be.Reason)

		u, err := st.Usage(ctx, alice.ID, "c1", t0.Add(time.Hour))
		require.NoError(t, err)
		assert.Equal(t, Usage{Total: 3, Today: 1, Last: t0.Add(61 * time.Second)}, u)
		// Budgets are per competition.
		u, err = st.Usage(ctx, alice.ID, "c2", t0)
		require.NoError(t, err)
		assert.Equal(t, Usage{}, u)
	})

	t.Run("score error rolls back", func(t *testing.T) {
		boom := errors.New("boom")
		_, _, err := st.Submit(ctx, SubmitRequest{ID: "sub_err", Competition: "c3", KeyID: bob.ID, At: t0, PredHash: "h", Limits: lim},
			func(int64, StateTx) (Scores, error) { return Scores{}, boom })
		assert.ErrorIs(t, err, boom)
		u, err := st.Usage(ctx, bob.ID, "c3", t0)
		require.NoError(t, err)
		assert.Equal(t, 0, u.Total, "a failed submission was charged")
	})

	t.Run("concurrent charges never overspend", func(t *testing.T) {
		const clients, each = 16, 5
		lim := Limits{Total: 23}
		var ok atomic.Int64
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					_, _, err := st.Submit(ctx, SubmitRequest{ID: fmt.Sprintf("sub_conc_%d_%d", c, i), Competition: "conc", KeyID: bob.ID,
						At: t0, PredHash: "h", Limits: lim}, func(int64, StateTx) (Scores, error) { return Scores{Public: "1", Private: "1"}, nil })
					var be *BudgetError
					switch {
					case err == nil:
						ok.Add(1)
					case errors.As(err, &be):
					default:
						t.Errorf("Submit: %v", err)
					}
				}
			}()
		}
		wg.Wait()
		assert.Equal(t, int64(23), ok.Load())
		subs, err := st.Submissions(ctx, "conc")
		require.NoError(t, err)
		assert.Len(t, subs, 23)
		seen := map[int64]bool{}
		for _, s := range subs {
			assert.False(t, seen[s.Seq], "seq %d twice", s.Seq)
			seen[s.Seq] = true
		}
	})

	t.Run("revoke", func(t *testing.T) {
		require.NoError(t, st.RevokeKey(ctx, bob.ID, t0.Add(time.Minute)))
		k, err := st.Key(ctx, bob.ID)
		require.NoError(t, err)
		assert.Equal(t, t0.Add(time.Minute), k.Revoked)
	})

	t.Run("metric rules", func(t *testing.T) {
		rule, n, err := st.MetricRule(ctx, "c1")
		require.NoError(t, err)
		assert.Equal(t, "", rule)
		assert.EqualValues(t, 3, n, "c1's stored submissions")
		require.NoError(t, st.SetMetricRule(ctx, "c1", "r1"))
		require.NoError(t, st.SetMetricRule(ctx, "c1", "r2"))
		require.NoError(t, st.SetMetricRule(ctx, "none", "r3"))
		rule, _, err = st.MetricRule(ctx, "c1")
		require.NoError(t, err)
		assert.Equal(t, "r2", rule)
		rule, n, err = st.MetricRule(ctx, "none")
		require.NoError(t, err)
		assert.Equal(t, "r3", rule)
		assert.Zero(t, n)
	})

	t.Run("reopen keeps everything", func(t *testing.T) {
		before, err := st.Submissions(ctx, "c1")
		require.NoError(t, err)
		require.NoError(t, st.Close())
		st = open(t)
		after, err := st.Submissions(ctx, "c1")
		require.NoError(t, err)
		assert.Equal(t, before, after)
		u, err := st.Usage(ctx, alice.ID, "c1", t0.Add(time.Hour))
		require.NoError(t, err)
		assert.Equal(t, 3, u.Total)
		var v int
		require.NoError(t, st.(*sqlStore).db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v))
		assert.Equal(t, SchemaVersion, v)
		rule, _, err := st.MetricRule(ctx, "c1")
		require.NoError(t, err)
		assert.Equal(t, "r2", rule)
	})
}
