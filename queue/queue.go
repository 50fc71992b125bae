package queue

// This file is the coordinator's side: the schema, submitting a grid,
// its progress and its outcomes.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

// A Queue is a connection to the queue's database.
type Queue struct {
	pool   *pgxpool.Pool
	client *river.Client[pgx.Tx] // insert-only
}

// Open connects to the queue's database (a PostgreSQL DSN or URL).
func Open(ctx context.Context, dsn string) (*Queue, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("queue: %w", err)
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("queue: %w", err)
	}
	return &Queue{pool: pool, client: client}, nil
}

// Close closes the connections.
func (q *Queue) Close() { q.pool.Close() }

// schema is the queue's own tables beside River's: the inputs by hash,
// the grids and the cells' results.
const schema = `
CREATE TABLE IF NOT EXISTS labelinf_blob (
	hash text PRIMARY KEY,
	data bytea NOT NULL
);
CREATE TABLE IF NOT EXISTS labelinf_grid (
	id text PRIMARY KEY,
	kind text NOT NULL,
	input text NOT NULL REFERENCES labelinf_blob (hash),
	version text NOT NULL,
	cells integer NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS labelinf_result (
	grid text NOT NULL REFERENCES labelinf_grid (id),
	cell integer NOT NULL,
	result bytea NOT NULL,
	job_id bigint NOT NULL,
	worker text NOT NULL,
	seconds double precision NOT NULL,
	finished_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (grid, cell)
);`

// Setup runs River's migrations and creates the queue's tables (as the
// database's owner); it is idempotent.
func (q *Queue) Setup(ctx context.Context) error {
	m, err := rivermigrate.New(riverpgxv5.New(q.pool), nil)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("queue: river migrations: %w", err)
	}
	if _, err := q.pool.Exec(ctx, schema); err != nil {
		return fmt.Errorf("queue: schema: %w", err)
	}
	return nil
}

var roleName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// Grant gives role what a worker needs and nothing more: to read the
// inputs and grids, to add results, and River's tables (a worker fetches,
// completes, retries and rescues jobs, and takes part in electing the
// leader). The role must exist (CREATE ROLE … LOGIN PASSWORD …);
// it gets no CREATE, and no UPDATE or DELETE on inputs and results.
func (q *Queue) Grant(ctx context.Context, role string) error {
	if !roleName.MatchString(role) {
		return fmt.Errorf("queue: role %q: want a lower-case SQL identifier", role)
	}
	rows, err := q.pool.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'river\_%' AND tablename <> 'river_migration'`)
	if err != nil {
		return fmt.Errorf("queue: grant: %w", err)
	}
	river, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("queue: grant: %w", err)
	}
	stmts := []string{
		`REVOKE CREATE ON SCHEMA public FROM PUBLIC`,
		`GRANT USAGE ON SCHEMA public TO ` + role,
		`GRANT SELECT ON labelinf_blob, labelinf_grid TO ` + role,
		`GRANT SELECT, INSERT ON labelinf_result TO ` + role,
		`GRANT SELECT ON river_migration TO ` + role,
		`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ` + role,
	}
	for _, t := range river {
		stmts = append(stmts, `GRANT SELECT, INSERT, UPDATE, DELETE ON `+pgx.Identifier{t}.Sanitize()+` TO `+role)
	}
	for _, s := range stmts {
		if _, err := q.pool.Exec(ctx, s); err != nil {
			return fmt.Errorf("queue: grant: %s: %w", s, err)
		}
	}
	return nil
}

// CellArgs are a cell job's arguments: everything a worker needs, by
// content (the input by its hash in labelinf_blob).
type CellArgs struct {
	GridKind string `json:"kind"`
	Grid     string `json:"grid" river:"unique"`
	Cell     int    `json:"cell" river:"unique"`
	Name     string `json:"name"`
	Input    string `json:"input"`
	Version  string `json:"version"`
	// Timeout bounds the cell's run (above the longest cell).
	Timeout time.Duration `json:"timeout"`
}

// Kind is River's job kind of every cell.
func (CellArgs) Kind() string { return "labelinf_cell" }

// SubmitOptions configures [Queue.Submit].
type SubmitOptions struct {
	// Timeout is a cell's timeout (default DefaultTimeout); MaxAttempts
	// its attempts before its error is its result (default 3).
	Timeout     time.Duration
	MaxAttempts int
	// Version is the code's version (default [Version]()).
	Version string
}

// DefaultTimeout is a cell's default timeout: an hour, above the
// longest audit cell measured (docs/SCALE.md).
const DefaultTimeout = time.Hour

// GridID is the ID of the grid of kind with input in code version.
func GridID(kind string, input []byte, version string) string {
	h := sha256.New()
	fmt.Fprintf(h, "labelinf grid\x00%s\x00%s\x00", kind, version)
	in := sha256.Sum256(input)
	h.Write(in[:])
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// Submit stores input once by its hash and inserts one job per cell
// (names[i] is cell i's name, for progress and errors), all in one
// transaction; a grid already submitted is left as it is (its jobs are
// unique). It returns the grid's ID.
func (q *Queue) Submit(ctx context.Context, kind string, input []byte, names []string, o SubmitOptions) (string, error) {
	if _, ok := kinds[kind]; !ok {
		return "", fmt.Errorf("queue: no cell kind %q", kind)
	}
	if len(names) == 0 {
		return "", errors.New("queue: a grid of no cells")
	}
	if o.Timeout == 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxAttempts == 0 {
		o.MaxAttempts = 3
	}
	if o.Timeout < 0 || o.MaxAttempts < 1 || o.MaxAttempts > 100 {
		return "", fmt.Errorf("queue: timeout %v and attempts %d: want > 0 and in [1, 100]", o.Timeout, o.MaxAttempts)
	}
	if o.Version == "" {
		o.Version = Version()
	}
	sum := sha256.Sum256(input)
	hash := hex.EncodeToString(sum[:])
	id := GridID(kind, input, o.Version)
	tx, err := q.pool.Begin(ctx)
	if err != nil {
		return "", fmt.Errorf("queue: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `INSERT INTO labelinf_blob (hash, data) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`, hash, input); err != nil {
		return "", fmt.Errorf("queue: storing the input: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO labelinf_grid (id, kind, input, version, cells) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
		id, kind, hash, o.Version, len(names)); err != nil {
		return "", fmt.Errorf("queue: storing the grid: %w", err)
	}
	params := make([]river.InsertManyParams, len(names))
	for i, name := range names {
		params[i] = river.InsertManyParams{
			Args: CellArgs{GridKind: kind, Grid: id, Cell: i, Name: name, Input: hash, Version: o.Version, Timeout: o.Timeout},
			InsertOpts: &river.InsertOpts{Queue: queueName(o.Version), MaxAttempts: o.MaxAttempts,
				UniqueOpts: river.UniqueOpts{ByArgs: true}},
		}
	}
	if _, err := q.client.InsertManyTx(ctx, tx, params); err != nil {
		return "", fmt.Errorf("queue: inserting the cells: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return "", fmt.Errorf("queue: %w", err)
	}
	return id, nil
}

// ErrNoGrid: the grid was never submitted to this queue.
var ErrNoGrid = errors.New("queue: no such grid (not submitted with this config and this build)")

// Progress is a grid's state.
type Progress struct {
	Cells, Done, Running, Failed, Waiting int
	// Seconds is the mean time of a done cell, Workers the distinct
	// workers that finished one.
	Seconds float64
	Workers int
}

// Finished reports whether every cell is done or failed.
func (p Progress) Finished() bool { return p.Done+p.Failed == p.Cells }

// ETA estimates the time left: the cells not finished, at the mean cell
// time, over the cells running (at least one); 0 if unknown (no cell
// done yet) or nothing is left.
func (p Progress) ETA() time.Duration {
	left := p.Cells - p.Done - p.Failed
	if p.Seconds == 0 || left == 0 {
		return 0
	}
	return time.Duration(float64(left) * p.Seconds / float64(max(1, p.Running)) * float64(time.Second))
}

// Progress returns the state of grid id.
func (q *Queue) Progress(ctx context.Context, id string) (Progress, error) {
	var p Progress
	err := q.pool.QueryRow(ctx, `SELECT cells FROM labelinf_grid WHERE id = $1`, id).Scan(&p.Cells)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, ErrNoGrid
	}
	if err != nil {
		return p, fmt.Errorf("queue: %w", err)
	}
	out, err := q.outcomes(ctx, id, p.Cells)
	if err != nil {
		return p, err
	}
	for _, o := range out {
		switch {
		case o.Result != nil:
			p.Done++
		case o.Err != "":
			p.Failed++
		case o.running:
			p.Running++
		default:
			p.Waiting++
		}
	}
	err = q.pool.QueryRow(ctx, `SELECT coalesce(avg(seconds), 0), count(DISTINCT worker) FROM labelinf_result WHERE grid = $1`, id).Scan(&p.Seconds, &p.Workers)
	if err != nil {
		return p, fmt.Errorf("queue: %w", err)
	}
	return p, nil
}

// An Outcome is a cell's result, or its error after its attempts.
type Outcome struct {
	Result []byte
	Err    string

	running bool
}

// outcomes reads every cell's state: its result, else its last error if
// no job of the cell is left to run (discarded after its attempts, or
// cancelled), else whether it runs.
func (q *Queue) outcomes(ctx context.Context, id string, cells int) ([]Outcome, error) {
	out := make([]Outcome, cells)
	rows, err := q.pool.Query(ctx, `SELECT cell, result FROM labelinf_result WHERE grid = $1`, id)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	for rows.Next() {
		var c int
		var r []byte
		if err := rows.Scan(&c, &r); err != nil {
			return nil, fmt.Errorf("queue: %w", err)
		}
		if c >= 0 && c < cells {
			out[c].Result = r
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	// Every job of the grid, oldest first: a later job of a cell (a
	// resubmission after a failure) decides.
	rows, err = q.pool.Query(ctx, `SELECT (args->>'cell')::int, state::text,
		coalesce(errors[array_length(errors, 1)]->>'error', '')
		FROM river_job WHERE kind = 'labelinf_cell' AND args @> jsonb_build_object('grid', $1::text) ORDER BY id`, id)
	if err != nil {
		return nil, fmt.Errorf("queue: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c int
		var state, last string
		if err := rows.Scan(&c, &state, &last); err != nil {
			return nil, fmt.Errorf("queue: %w", err)
		}
		if c < 0 || c >= cells || out[c].Result != nil {
			continue
		}
		switch state {
		case "discarded", "cancelled":
			if last == "" {
				last = "job " + state
			}
			out[c].Err, out[c].running = last, false
		case "completed":
			// Completed with its result: read above.
		default:
			out[c].Err, out[c].running = "", state == "running"
		}
	}
	return out, rows.Err()
}

// Outcomes returns every cell's outcome of a finished grid, or an error
// saying how many cells are left.
func (q *Queue) Outcomes(ctx context.Context, id string) ([]Outcome, error) {
	p, err := q.Progress(ctx, id)
	if err != nil {
		return nil, err
	}
	if !p.Finished() {
		return nil, fmt.Errorf("queue: grid %s: %d of %d cells not finished", id, p.Cells-p.Done-p.Failed, p.Cells)
	}
	return q.outcomes(ctx, id, p.Cells)
}

// Wait polls grid id every interval until every cell is finished,
// calling progress (if not nil) after each poll; a failed poll (the
// database restarting) is retried until ctx ends.
func (q *Queue) Wait(ctx context.Context, id string, every time.Duration, progress func(Progress, error)) ([]Outcome, error) {
	for {
		p, err := q.Progress(ctx, id)
		if errors.Is(err, ErrNoGrid) {
			return nil, err
		}
		if progress != nil {
			progress(p, err)
		}
		if err == nil && p.Finished() {
			out, err := q.Outcomes(ctx, id)
			if err == nil {
				return out, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(every):
		}
	}
}
