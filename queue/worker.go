package queue

// This file is the worker: a River client serving the queue of this
// build's version, running cells of every registered kind.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
)

// WorkerOptions configures [Work].
type WorkerOptions struct {
	// Concurrency is the number of cells run at once (default 1).
	Concurrency int
	// RescueAfter is how long a cell may run before this worker, when it
	// leads, takes it for abandoned (its worker killed) and makes it
	// available again (default DefaultTimeout + 10 minutes). It must
	// exceed the cells' timeout: a cell whose timeout does not fit is
	// refused.
	RescueAfter time.Duration
	// ID names the worker in River (attempted_by) and in results
	// (default River's: host name and time).
	ID string
	// Logger receives River's warnings and a line per cell (default
	// none).
	Logger *slog.Logger
	// Version is the code's version (default [Version]()).
	Version string
}

// Work runs cells of this version's queue on the database of dsn until
// ctx ends, then lets the running cells finish for up to grace before
// cancelling them (their jobs are retried). Losing the database is not
// an error: the worker reconnects.
func Work(ctx context.Context, dsn string, o WorkerOptions, grace time.Duration) error {
	if o.Concurrency == 0 {
		o.Concurrency = 1
	}
	if o.RescueAfter == 0 {
		o.RescueAfter = DefaultTimeout + 10*time.Minute
	}
	if o.Concurrency < 1 || o.Concurrency > 10000 || o.RescueAfter < time.Second {
		return fmt.Errorf("queue: concurrency %d, rescue-after %v: want [1, 10000] and ≥ 1s", o.Concurrency, o.RescueAfter)
	}
	if o.Version == "" {
		o.Version = Version()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	cfg.MaxConns = int32(o.Concurrency + 4)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	defer pool.Close()
	w := &cellWorker{pool: pool, o: o, grids: map[string]*openGrid{}}
	workers := river.NewWorkers()
	river.AddWorker(workers, w)
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		ID:                   o.ID,
		Logger:               o.Logger,
		Queues:               map[string]river.QueueConfig{queueName(o.Version): {MaxWorkers: o.Concurrency}},
		Workers:              workers,
		JobTimeout:           -1, // each cell's own (CellArgs.Timeout)
		RescueStuckJobsAfter: o.RescueAfter,
		RetryPolicy:          backoff{},
		FetchPollInterval:    time.Second,
	})
	if err != nil {
		return fmt.Errorf("queue: %w", err)
	}
	w.id = client.ID()
	o.Logger.Info("worker started", "id", w.id, "version", o.Version, "queue", queueName(o.Version), "concurrency", o.Concurrency)
	// The client retries its own connections; its first start needs the
	// database, so retry it too.
	for {
		err = client.Start(context.WithoutCancel(ctx))
		if err == nil {
			break
		}
		o.Logger.Warn("starting the River client", "error", err)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
	<-ctx.Done()
	stop, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := client.Stop(stop); err != nil {
		hard, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return client.StopAndCancel(hard)
	}
	return nil
}

// backoff retries a cell after 2^(attempt−1) s, at most a minute.
type backoff struct{}

func (backoff) NextRetry(job *rivertype.JobRow) time.Time {
	d := math.Min(math.Exp2(float64(job.Attempt-1)), 60)
	return time.Now().Add(time.Duration(d * float64(time.Second)))
}

// cellWorker runs cells of every kind.
type cellWorker struct {
	river.WorkerDefaults[CellArgs]
	pool *pgxpool.Pool
	o    WorkerOptions
	id   string

	mu    sync.Mutex
	grids map[string]*openGrid // by input hash; the last few used
	order []string
}

type openGrid struct {
	once sync.Once
	g    Grid
	err  error
}

// Timeout is the cell's own.
func (w *cellWorker) Timeout(job *river.Job[CellArgs]) time.Duration { return job.Args.Timeout }

// Work runs one cell and stores its result with the job's completion.
func (w *cellWorker) Work(ctx context.Context, job *river.Job[CellArgs]) error {
	a := job.Args
	if a.Version != w.o.Version {
		return river.JobCancel(fmt.Errorf("refused: the cell needs code version %s; this worker is %s", a.Version, w.o.Version))
	}
	kind, ok := kinds[a.GridKind]
	if !ok {
		return river.JobCancel(fmt.Errorf("refused: no cell kind %q in this build", a.GridKind))
	}
	if a.Timeout >= w.o.RescueAfter {
		return fmt.Errorf("the cell's timeout %v is not below this worker's rescue-after %v", a.Timeout, w.o.RescueAfter)
	}
	g, err := w.open(ctx, kind, a.Input)
	if err != nil {
		return err
	}
	if a.Cell < 0 || a.Cell >= g.Cells() {
		return river.JobCancel(fmt.Errorf("cell %d of a grid of %d", a.Cell, g.Cells()))
	}
	t0 := time.Now()
	res, err := g.Run(ctx, a.Cell)
	if err != nil {
		return fmt.Errorf("cell %d (%s): %w", a.Cell, a.Name, err)
	}
	secs := time.Since(t0).Seconds()
	tx, err := w.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `INSERT INTO labelinf_result (grid, cell, result, job_id, worker, seconds) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (grid, cell) DO NOTHING`, a.Grid, a.Cell, res, job.ID, w.id, secs); err != nil {
		return err
	}
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return err
	}
	w.o.Logger.Info("cell done", "grid", a.Grid, "cell", a.Cell, "name", a.Name, "seconds", secs, "attempt", job.Attempt)
	return nil
}

// open returns the grid of input hash, read and decoded once.
func (w *cellWorker) open(ctx context.Context, kind *Kind, hash string) (Grid, error) {
	w.mu.Lock()
	og, ok := w.grids[kind.Name+"/"+hash]
	if !ok {
		og = &openGrid{}
		w.grids[kind.Name+"/"+hash] = og
		w.order = append(w.order, kind.Name+"/"+hash)
		if len(w.order) > 4 {
			delete(w.grids, w.order[0])
			w.order = w.order[1:]
		}
	}
	w.mu.Unlock()
	og.once.Do(func() { og.g, og.err = w.load(ctx, kind, hash) })
	if og.err != nil {
		// Not cached: the next attempt reads it again.
		w.mu.Lock()
		if w.grids[kind.Name+"/"+hash] == og {
			delete(w.grids, kind.Name+"/"+hash)
		}
		w.mu.Unlock()
	}
	return og.g, og.err
}

// errDamaged is an input whose bytes no longer have its hash.
var errDamaged = errors.New("input damaged")

func (w *cellWorker) load(ctx context.Context, kind *Kind, hash string) (Grid, error) {
	var data []byte
	err := w.pool.QueryRow(ctx, `SELECT data FROM labelinf_blob WHERE hash = $1`, hash).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("input %s missing from the queue's database", hash)
	}
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != hash {
		return nil, fmt.Errorf("%w: input %s has SHA-256 %s", errDamaged, hash, hex.EncodeToString(sum[:]))
	}
	return kind.Open(data)
}
