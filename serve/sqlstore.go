package serve

// This file implements Store over database/sql for both databases; the
// differences (placeholders, row locks, durability settings, connection
// handling) are the dialect's.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dialect is what differs between SQLite and PostgreSQL.
type dialect struct {
	name string
	// forUpdate locks the budget row in PostgreSQL (READ COMMITTED plus a
	// row lock serialises one key's submissions across replicas); SQLite
	// transactions are serialised whole (BEGIN IMMEDIATE and writeMu).
	forUpdate string
	// lockMigrations takes a lock that serialises migrations of replicas
	// starting together ("" if the database serialises them itself).
	lockMigrations string
	durability     []string // SQL statements each returning one setting
	durabilityKeys []string
	// serialise makes writes go one at a time through a Go mutex (SQLite:
	// one writer; without it, writers would spin on SQLITE_BUSY).
	serialise bool
}

type sqlStore struct {
	db       *sql.DB
	d        dialect
	writeMu  sync.Mutex // SQLite: one writer at a time
	jobsOnce sync.Once
	jobs     chan *groupJob // SQLite: submissions for the committer
	closeMu  sync.RWMutex   // held for reading while sending on jobs
	closed   bool
}

var _ Store = (*sqlStore)(nil)

// q rewrites ? placeholders as $1, $2, … for PostgreSQL.
func (s *sqlStore) q(query string) string {
	if s.d.name != "postgres" {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (s *sqlStore) lock() func() {
	if !s.d.serialise {
		return func() {}
	}
	s.writeMu.Lock()
	return s.writeMu.Unlock
}

// Close stops the committer (jobs already queued fail) and closes the
// database.
func (s *sqlStore) Close() error {
	s.closeMu.Lock()
	if !s.closed {
		s.closed = true
		if s.jobs != nil {
			close(s.jobs)
		}
	}
	s.closeMu.Unlock()
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return s.db.Close()
}

func (s *sqlStore) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

func (s *sqlStore) Durability(ctx context.Context) (map[string]string, error) {
	out := map[string]string{}
	for i, stmt := range s.d.durability {
		var v string
		if err := s.db.QueryRowContext(ctx, stmt).Scan(&v); err != nil {
			return nil, fmt.Errorf("serve: %s: %w", stmt, err)
		}
		out[s.d.durabilityKeys[i]] = v
	}
	return out, nil
}

func (s *sqlStore) AddKey(ctx context.Context, k Key) error {
	defer s.lock()()
	_, err := s.db.ExecContext(ctx, s.q(`INSERT INTO keys (id, name, hash, created_at) VALUES (?, ?, ?, ?)`),
		k.ID, k.Name, k.Hash, k.Created.UnixNano())
	if err != nil {
		return fmt.Errorf("serve: add key: %w", err)
	}
	return nil
}

func (s *sqlStore) Key(ctx context.Context, id string) (Key, error) {
	row := s.db.QueryRowContext(ctx, s.q(`SELECT id, name, hash, created_at, revoked_at FROM keys WHERE id = ?`), id)
	k, err := scanKey(row)
	if errors.Is(err, sql.ErrNoRows) {
		return Key{}, ErrNotFound
	}
	return k, err
}

func scanKey(row interface{ Scan(...any) error }) (Key, error) {
	var k Key
	var created int64
	var revoked sql.NullInt64
	if err := row.Scan(&k.ID, &k.Name, &k.Hash, &created, &revoked); err != nil {
		return Key{}, err
	}
	k.Created = time.Unix(0, created).UTC()
	if revoked.Valid {
		k.Revoked = time.Unix(0, revoked.Int64).UTC()
	}
	return k, nil
}

func (s *sqlStore) Keys(ctx context.Context) ([]Key, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, hash, created_at, revoked_at FROM keys ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("serve: keys: %w", err)
	}
	defer rows.Close()
	var out []Key
	for rows.Next() {
		k, err := scanKey(rows)
		if err != nil {
			return nil, fmt.Errorf("serve: keys: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

func (s *sqlStore) RevokeKey(ctx context.Context, id string, t time.Time) error {
	defer s.lock()()
	res, err := s.db.ExecContext(ctx, s.q(`UPDATE keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`), t.UnixNano(), id)
	if err != nil {
		return fmt.Errorf("serve: revoke key: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if _, err := s.Key(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

func (s *sqlStore) Submit(ctx context.Context, req SubmitRequest, score func(seq int64, st StateTx) (Scores, error)) (Submission, bool, error) {
	if s.d.serialise {
		return s.groupSubmit(ctx, req, score)
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return Submission{}, false, fmt.Errorf("serve: begin: %w", err)
	}
	defer tx.Rollback()
	sub, replay, err := s.submitTx(ctx, tx, req, score)
	if err != nil || replay {
		return sub, replay, err
	}
	if err := tx.Commit(); err != nil {
		return s.afterCommitError(ctx, req, sub, err)
	}
	return sub, false, nil
}

// commitLookup bounds how long a server looks for a submission whose
// COMMIT failed before answering ErrOutcomeUnknown.
var commitLookup = 10 * time.Second

// afterCommitError learns the outcome of a COMMIT that returned err: the
// connection may have been lost after the database committed, so the
// submission's id, written in the same transaction, is looked up on a new
// connection. The lookup first locks the key's budget row, so that a
// transaction still committing on the old connection has finished (it
// holds that lock until it ends). Found: the submission stands and is
// answered. Not found: nothing was stored. No answer before commitLookup
// (or ctx) ends: ErrOutcomeUnknown.
func (s *sqlStore) afterCommitError(ctx context.Context, req SubmitRequest, sub Submission, cerr error) (Submission, bool, error) {
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitLookup)
	defer cancel()
	wait := 50 * time.Millisecond
	for {
		found, err := s.lookupCommitted(lctx, req)
		if err == nil {
			if found {
				return sub, false, nil
			}
			return Submission{}, false, fmt.Errorf("serve: commit (not stored): %w", cerr)
		}
		select {
		case <-lctx.Done():
			return Submission{}, false, fmt.Errorf("%w: commit: %v; lookup: %v", ErrOutcomeUnknown, cerr, err)
		case <-ctx.Done():
			return Submission{}, false, fmt.Errorf("%w: commit: %v; lookup: %v", ErrOutcomeUnknown, cerr, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// lookupCommitted reports whether submission req.ID is stored, once no
// transaction holds req's budget row.
func (s *sqlStore) lookupCommitted(ctx context.Context, req SubmitRequest) (bool, error) {
	defer s.lock()()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var one int
	err = tx.QueryRowContext(ctx, s.q(`SELECT 1 FROM budgets WHERE key_id = ? AND competition = ?`+s.d.forUpdate), req.KeyID, req.Competition).Scan(&one)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, err
	}
	err = tx.QueryRowContext(ctx, s.q(`SELECT 1 FROM submissions WHERE id = ?`), req.ID).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// submitTx is Submit's work inside transaction tx: lock and check the
// budget, score, charge, insert.
func (s *sqlStore) submitTx(ctx context.Context, tx *sql.Tx, req SubmitRequest, score func(seq int64, st StateTx) (Scores, error)) (Submission, bool, error) {
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO budgets (key_id, competition, total_used, day, day_used, last_at)
		VALUES (?, ?, 0, 0, 0, 0) ON CONFLICT DO NOTHING`), req.KeyID, req.Competition); err != nil {
		return Submission{}, false, fmt.Errorf("serve: budget row: %w", err)
	}
	var total, day, dayUsed, lastAt int64
	if err := tx.QueryRowContext(ctx, s.q(`SELECT total_used, day, day_used, last_at FROM budgets
		WHERE key_id = ? AND competition = ?`+s.d.forUpdate), req.KeyID, req.Competition).Scan(&total, &day, &dayUsed, &lastAt); err != nil {
		return Submission{}, false, fmt.Errorf("serve: budget: %w", err)
	}
	if req.Idempotency != "" {
		prev, err := scanSubmission(tx.QueryRowContext(ctx, s.q(selectSubmission+` WHERE key_id = ? AND competition = ? AND idem = ?`),
			req.KeyID, req.Competition, req.Idempotency))
		if err == nil {
			if prev.PredHash != req.PredHash {
				return Submission{}, false, &IdempotencyError{ID: prev.ID}
			}
			return prev, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return Submission{}, false, fmt.Errorf("serve: idempotency: %w", err)
		}
	}
	if err := checkBudget(req.Limits, total, day, dayUsed, lastAt, req.At); err != nil {
		return Submission{}, false, err
	}
	sc, err := score(total, &txState{ctx: ctx, tx: tx, s: s, competition: req.Competition})
	if err != nil {
		return Submission{}, false, err
	}
	today := utcDay(req.At)
	if day != today {
		dayUsed = 0
	}
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE budgets SET total_used = ?, day = ?, day_used = ?, last_at = ?
		WHERE key_id = ? AND competition = ?`), total+1, today, dayUsed+1, req.At.UnixNano(), req.KeyID, req.Competition); err != nil {
		return Submission{}, false, fmt.Errorf("serve: charge budget: %w", err)
	}
	var idem any
	if req.Idempotency != "" {
		idem = req.Idempotency
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO submissions (id, competition, key_id, created_at, public_score, private_score, pred_hash, idem, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`), req.ID, req.Competition, req.KeyID, req.At.UnixNano(), sc.Public, sc.Private, req.PredHash, idem, total); err != nil {
		return Submission{}, false, fmt.Errorf("serve: store submission: %w", err)
	}
	return Submission{ID: req.ID, Competition: req.Competition, KeyID: req.KeyID, At: req.At.UTC(),
		Public: sc.Public, Private: sc.Private, PredHash: req.PredHash, Seq: total}, false, nil
}

// A groupJob is one submission waiting for the SQLite committer.
type groupJob struct {
	ctx   context.Context
	req   SubmitRequest
	score func(seq int64, st StateTx) (Scores, error)
	done  chan groupResult
}

type groupResult struct {
	sub    Submission
	replay bool
	err    error
}

// maxGroup bounds the submissions committed together (group commit).
const maxGroup = 64

// groupSubmit hands the submission to the committer, which runs the
// submissions waiting at that moment in one transaction, each inside its
// own savepoint, and commits them with one WAL fsync (group commit):
// SQLite has one writer, so without grouping every submission would wait
// for every earlier one's fsync. Nothing is acknowledged before the commit
// that holds it has returned.
func (s *sqlStore) groupSubmit(ctx context.Context, req SubmitRequest, score func(seq int64, st StateTx) (Scores, error)) (Submission, bool, error) {
	j := &groupJob{ctx: ctx, req: req, score: score, done: make(chan groupResult, 1)}
	s.closeMu.RLock()
	if s.closed {
		s.closeMu.RUnlock()
		return Submission{}, false, errors.New("serve: store closed")
	}
	s.jobsOnce.Do(func() {
		s.jobs = make(chan *groupJob, 1024)
		go s.committer()
	})
	select {
	case s.jobs <- j:
	case <-ctx.Done():
		s.closeMu.RUnlock()
		return Submission{}, false, ctx.Err()
	}
	s.closeMu.RUnlock()
	r := <-j.done
	return r.sub, r.replay, r.err
}

func (s *sqlStore) committer() {
	for j := range s.jobs {
		batch := []*groupJob{j}
	fill:
		for len(batch) < maxGroup {
			select {
			case j, ok := <-s.jobs:
				if !ok {
					break fill
				}
				batch = append(batch, j)
			default:
				break fill
			}
		}
		s.commitGroup(batch)
	}
}

func (s *sqlStore) commitGroup(batch []*groupJob) {
	results := make([]groupResult, len(batch))
	fail := func(err error) {
		for _, j := range batch {
			j.done <- groupResult{err: err}
		}
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		fail(fmt.Errorf("serve: begin: %w", err))
		return
	}
	defer tx.Rollback()
	for i, j := range batch {
		if err := j.ctx.Err(); err != nil {
			results[i].err = err
			continue
		}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT sub"); err != nil {
			fail(fmt.Errorf("serve: savepoint: %w", err))
			return
		}
		sub, replay, err := s.submitTx(ctx, tx, j.req, j.score)
		results[i] = groupResult{sub: sub, replay: replay, err: err}
		end := "RELEASE sub"
		if err != nil {
			end = "ROLLBACK TO sub; RELEASE sub"
		}
		for _, stmt := range strings.Split(end, "; ") {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				fail(fmt.Errorf("serve: savepoint: %w", err))
				return
			}
		}
	}
	if err := tx.Commit(); err != nil {
		// Release the writer for the lookups; each learns its own outcome.
		tx.Rollback()
		s.writeMu.Unlock()
		defer s.writeMu.Lock()
		for i, j := range batch {
			// A replay or a refusal stored nothing in this transaction:
			// its answer stands. A new submission's outcome is looked up.
			r := results[i]
			if r.err == nil && !r.replay {
				sub, _, err := s.afterCommitError(j.ctx, j.req, r.sub, err)
				r = groupResult{sub: sub, err: err}
			}
			j.done <- r
		}
		return
	}
	for i, j := range batch {
		j.done <- results[i]
	}
}

const selectSubmission = `SELECT id, competition, key_id, created_at, public_score, private_score, pred_hash, seq FROM submissions`

func scanSubmission(row interface{ Scan(...any) error }) (Submission, error) {
	var s Submission
	var at int64
	if err := row.Scan(&s.ID, &s.Competition, &s.KeyID, &at, &s.Public, &s.Private, &s.PredHash, &s.Seq); err != nil {
		return Submission{}, err
	}
	s.At = time.Unix(0, at).UTC()
	return s, nil
}

func (s *sqlStore) Submissions(ctx context.Context, competition string) ([]Submission, error) {
	rows, err := s.db.QueryContext(ctx, s.q(selectSubmission+` WHERE competition = ? ORDER BY created_at, id`), competition)
	if err != nil {
		return nil, fmt.Errorf("serve: submissions: %w", err)
	}
	defer rows.Close()
	var out []Submission
	for rows.Next() {
		sub, err := scanSubmission(rows)
		if err != nil {
			return nil, fmt.Errorf("serve: submissions: %w", err)
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}

func (s *sqlStore) Usage(ctx context.Context, keyID, competition string, t time.Time) (Usage, error) {
	var total, day, dayUsed, lastAt int64
	err := s.db.QueryRowContext(ctx, s.q(`SELECT total_used, day, day_used, last_at FROM budgets WHERE key_id = ? AND competition = ?`),
		keyID, competition).Scan(&total, &day, &dayUsed, &lastAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Usage{}, nil
	}
	if err != nil {
		return Usage{}, fmt.Errorf("serve: usage: %w", err)
	}
	u := Usage{Total: int(total)}
	if day == utcDay(t) {
		u.Today = int(dayUsed)
	}
	if total > 0 {
		u.Last = time.Unix(0, lastAt).UTC()
	}
	return u, nil
}

// txState is a StateTx inside a submission's (or DefenceState's)
// transaction.
type txState struct {
	ctx         context.Context
	tx          *sql.Tx
	s           *sqlStore
	competition string
}

func (t *txState) Lock(scope string) ([]byte, error) {
	if _, err := t.tx.ExecContext(t.ctx, t.s.q(`INSERT INTO defence_state (competition, scope, data) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`),
		t.competition, scope, []byte{}); err != nil {
		return nil, fmt.Errorf("serve: defence state %s: %w", scope, err)
	}
	var b []byte
	if err := t.tx.QueryRowContext(t.ctx, t.s.q(`SELECT data FROM defence_state WHERE competition = ? AND scope = ?`+t.s.d.forUpdate),
		t.competition, scope).Scan(&b); err != nil {
		return nil, fmt.Errorf("serve: defence state %s: %w", scope, err)
	}
	return b, nil
}

func (t *txState) Put(scope string, data []byte) error {
	if data == nil {
		data = []byte{}
	}
	if _, err := t.tx.ExecContext(t.ctx, t.s.q(`UPDATE defence_state SET data = ? WHERE competition = ? AND scope = ?`),
		data, t.competition, scope); err != nil {
		return fmt.Errorf("serve: defence state %s: %w", scope, err)
	}
	return nil
}

func (t *txState) Scopes() ([]string, error) {
	rows, err := t.tx.QueryContext(t.ctx, t.s.q(`SELECT scope FROM defence_state WHERE competition = ? AND LENGTH(data) > 0 ORDER BY scope`), t.competition)
	if err != nil {
		return nil, fmt.Errorf("serve: defence state: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var sc string
		if err := rows.Scan(&sc); err != nil {
			return nil, fmt.Errorf("serve: defence state: %w", err)
		}
		out = append(out, sc)
	}
	return out, rows.Err()
}

func (s *sqlStore) DefenceState(ctx context.Context, competition string, fn func(st StateTx) error) error {
	defer s.lock()()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("serve: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(&txState{ctx: ctx, tx: tx, s: s, competition: competition}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("serve: commit: %w", err)
	}
	return nil
}

// migrations are the schema versions, applied in order, each once, in its
// own transaction; version i+1 is migrations[i]. Never edit one that has
// shipped: append a new one.
var migrations = []string{
	`CREATE TABLE keys (
		id TEXT PRIMARY KEY,
		name TEXT NOT NULL,
		hash TEXT NOT NULL,
		created_at BIGINT NOT NULL,
		revoked_at BIGINT
	);
	CREATE TABLE budgets (
		key_id TEXT NOT NULL REFERENCES keys (id),
		competition TEXT NOT NULL,
		total_used BIGINT NOT NULL,
		day BIGINT NOT NULL,
		day_used BIGINT NOT NULL,
		last_at BIGINT NOT NULL,
		PRIMARY KEY (key_id, competition)
	);
	CREATE TABLE submissions (
		id TEXT PRIMARY KEY,
		competition TEXT NOT NULL,
		key_id TEXT NOT NULL REFERENCES keys (id),
		created_at BIGINT NOT NULL,
		public_score TEXT NOT NULL,
		private_score TEXT NOT NULL,
		pred_hash TEXT NOT NULL,
		idem TEXT,
		seq BIGINT NOT NULL,
		UNIQUE (key_id, competition, idem)
	);
	CREATE INDEX submissions_competition ON submissions (competition, created_at)`,
	// 2: the scoring rule each competition's stored scores follow
	// (CheckRules).
	`CREATE TABLE metric_rules (
		competition TEXT PRIMARY KEY,
		rule TEXT NOT NULL,
		recorded_at BIGINT NOT NULL
	)`,
	// 3: the defence state every replica reads and writes in the
	// submission's transaction (defstate.go); empty data means none yet.
	`CREATE TABLE defence_state (
		competition TEXT NOT NULL,
		scope TEXT NOT NULL,
		data BYTEA NOT NULL,
		PRIMARY KEY (competition, scope)
	)`,
}

// SchemaVersion is the schema version this build writes.
var SchemaVersion = len(migrations)

// migrate brings the schema up to SchemaVersion; it refuses a database
// newer than this build.
func (s *sqlStore) migrate(ctx context.Context) error {
	defer s.lock()()
	for v := 1; v <= len(migrations); v++ {
		if err := s.migrateOne(ctx, v); err != nil {
			return err
		}
	}
	var top sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&top); err != nil {
		return fmt.Errorf("serve: migrate: %w", err)
	}
	if top.Int64 > int64(len(migrations)) {
		return fmt.Errorf("serve: database schema version %d is newer than this build's %d", top.Int64, len(migrations))
	}
	return nil
}

func (s *sqlStore) migrateOne(ctx context.Context, v int) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("serve: migrate: %w", err)
	}
	defer tx.Rollback()
	if s.d.lockMigrations != "" {
		if _, err := tx.ExecContext(ctx, s.d.lockMigrations); err != nil {
			return fmt.Errorf("serve: migrate lock: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
		return fmt.Errorf("serve: migrate: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), v).Scan(&n); err != nil {
		return fmt.Errorf("serve: migrate: %w", err)
	}
	if n > 0 {
		return nil
	}
	for _, stmt := range strings.Split(migrations[v-1], ";") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("serve: migration %d: %w", v, err)
		}
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), v, time.Now().UnixNano()); err != nil {
		return fmt.Errorf("serve: migration %d: %w", v, err)
	}
	return tx.Commit()
}
