package main

// This file holds labelinf audit -queue (the coordinator), labelinf
// worker and labelinf queue (package queue).

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/labelinf/labelinf/audit"
	"github.com/labelinf/labelinf/queue"
)

// queueFlags are labelinf audit's flags of a distributed run.
type queueFlags struct {
	dsn             *string
	detach, collect *bool
	timeout         *time.Duration
	attempts        *int
}

func (q *queueFlags) add(fs *flag.FlagSet) {
	q.dsn = fs.String("queue", "", "run the grid's cells on the work queue of the PostgreSQL `DSN` (labelinf worker runs them) instead of in this process; the report is the same, byte for byte")
	q.detach = fs.Bool("detach", false, "with -queue: submit the grid and exit (collect its report later with -collect)")
	q.collect = fs.Bool("collect", false, "with -queue: submit nothing, wait for the grid this config and build submitted, and write its report")
	q.timeout = fs.Duration("cell-timeout", queue.DefaultTimeout, "with -queue: a cell's timeout `D` (above the longest cell; workers' -rescue-after must exceed it)")
	q.attempts = fs.Int("attempts", 3, "with -queue: attempts of a failing cell `N` before its error is its result")
}

// check returns a usage error of flags that do not go together.
func (q *queueFlags) check(fs *flag.FlagSet) error {
	set := setFlags(fs)
	if *q.dsn == "" {
		for _, f := range []string{"detach", "collect", "cell-timeout", "attempts"} {
			if set[f] {
				return fmt.Errorf("-%s applies to -queue", f)
			}
		}
		return nil
	}
	for _, f := range []string{"docs", "inprocess", "workers"} {
		if set[f] {
			return fmt.Errorf("-queue takes no -%s: the workers run the cells (in process)", f)
		}
	}
	switch {
	case *q.detach && *q.collect:
		return errors.New("-detach and -collect exclude each other")
	case *q.timeout <= 0:
		return fmt.Errorf("-cell-timeout %v: need > 0", *q.timeout)
	case *q.attempts < 1 || *q.attempts > 100:
		return fmt.Errorf("-attempts %d: need 1 to 100", *q.attempts)
	}
	return nil
}

// auditQueue runs cfg's grid on the queue: submits it (unless -collect),
// then (unless -detach) waits for its cells and assembles the report.
// It returns a nil report with the exit status when there is none.
func auditQueue(e *env, cfg *audit.Config, q *queueFlags, quiet bool) (*audit.Report, int, error) {
	ctx := e.ctx
	p, err := audit.NewPlan(ctx, cfg, audit.Options{})
	if err != nil {
		var ce *audit.ConfigError
		if errors.As(err, &ce) {
			return nil, usageError(e.stderr, "audit", err), nil
		}
		return nil, 0, err
	}
	in, err := p.MarshalBinary()
	if err != nil {
		return nil, 0, err
	}
	cells := p.Cells()
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = c.Name
	}
	out, err := queueRun(e, "audit", queue.KindAudit, in, names, q, quiet)
	if err != nil || out == nil {
		return nil, 0, err
	}
	rep, err := queue.AuditReport(p, out)
	return rep, 0, err
}

// queueRun submits a grid of kind (unless -collect) and, unless
// -detach, waits for it, showing its progress on a terminal; it returns
// nil outcomes when detached.
func queueRun(e *env, cmd, kind string, in []byte, names []string, q *queueFlags, quiet bool) ([]queue.Outcome, error) {
	ctx := e.ctx
	qu, err := queue.Open(ctx, *q.dsn)
	if err != nil {
		return nil, err
	}
	defer qu.Close()
	id := queue.GridID(kind, in, queue.Version())
	if !*q.collect {
		if err := qu.Setup(ctx); err != nil {
			return nil, err
		}
		if id, err = qu.Submit(ctx, kind, in, names, queue.SubmitOptions{Timeout: *q.timeout, MaxAttempts: *q.attempts}); err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stderr, "%s: grid %s: %d cells on the queue (version %s)\n", cmd, id, len(names), queue.Version())
	}
	if *q.detach {
		fmt.Fprintf(e.stderr, "%s: detached; the same command with -collect instead of -detach writes the result when the workers are done\n", cmd)
		return nil, nil
	}
	show := func(queue.Progress, error) {}
	if !quiet && isTerminal(e.stderr) {
		t0 := time.Now()
		show = func(pr queue.Progress, err error) {
			if err != nil {
				fmt.Fprintf(e.stderr, "\r\033[K%s: waiting for the queue's database: %v", cmd, err)
				return
			}
			eta := "ETA unknown"
			switch d := pr.ETA(); {
			case pr.Finished():
				eta = "finished"
			case d >= time.Second:
				eta = "ETA " + d.Round(time.Second).String()
			case d > 0:
				eta = "ETA < 1s"
			}
			fmt.Fprintf(e.stderr, "\r\033[K%s: %d/%d cells done, %d running, %d failed, %d waiting; %s (%s elapsed)",
				cmd, pr.Done, pr.Cells, pr.Running, pr.Failed, pr.Waiting, eta, time.Since(t0).Round(time.Second))
			if pr.Finished() {
				fmt.Fprintln(e.stderr)
			}
		}
	}
	return qu.Wait(ctx, id, time.Second, show)
}

// failedCells counts the cells of rep that failed on the queue.
func failedCells(rep *audit.Report) int {
	n := 0
	for _, c := range rep.Cells {
		if c.Error != "" {
			n++
		}
	}
	return n
}

// runWorker is labelinf worker: runs cells of the queue until SIGINT or
// SIGTERM (package queue).
func runWorker(e *env, args []string) int {
	fs := newFlagSet("worker", e.stderr)
	dsn := fs.String("queue", "", "the work queue's PostgreSQL `DSN` (required; a password belongs in PGPASSWORD or ~/.pgpass, not in the DSN)")
	conc := fs.Int("concurrency", 1, "cells run at once `K` (one per core is the rule)")
	rescue := fs.Duration("rescue-after", queue.DefaultTimeout+10*time.Minute, "a cell running longer `D` is taken for abandoned (its worker killed) and run again; must exceed the cells' -cell-timeout")
	id := fs.String("id", "", "the worker's `NAME` in the queue (default: host name and start time)")
	grace := fs.Duration("grace", time.Minute, "on SIGTERM, time `D` the running cells have to finish before they are cancelled (and retried elsewhere)")
	quiet := fs.Bool("quiet", false, "no log lines on stderr")
	if !parseFlags(fs, args, e.stderr) {
		return 2
	}
	switch {
	case *dsn == "":
		return usageError(e.stderr, "worker", errors.New("-queue is required"))
	case *conc < 1 || *conc > 10000:
		return usageError(e.stderr, "worker", fmt.Errorf("-concurrency %d: need 1 to 10000", *conc))
	case *rescue < time.Second:
		return usageError(e.stderr, "worker", fmt.Errorf("-rescue-after %v: need ≥ 1s", *rescue))
	case *grace < 0:
		return usageError(e.stderr, "worker", fmt.Errorf("-grace %v: need ≥ 0", *grace))
	}
	var w io.Writer = e.stderr
	if *quiet {
		w = io.Discard
	}
	log := slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
	err := queue.Work(e.ctx, *dsn, queue.WorkerOptions{Concurrency: *conc, RescueAfter: *rescue, ID: *id, Logger: log}, *grace)
	if err != nil {
		return failure(e.stderr, "worker", err)
	}
	return 0
}

// runQueue is labelinf queue: sets up a queue's database and its
// workers' role.
func runQueue(e *env, args []string) int {
	fs := newFlagSet("queue", e.stderr)
	dsn := fs.String("queue", "", "the work queue's PostgreSQL `DSN`, as the database's owner (required)")
	grant := fs.String("grant", "", "grant the existing `ROLE` what a worker needs and nothing more")
	if !parseFlags(fs, args, e.stderr) {
		return 2
	}
	if *dsn == "" {
		return usageError(e.stderr, "queue", errors.New("-queue is required"))
	}
	ctx, cancel := context.WithTimeout(e.ctx, 5*time.Minute)
	defer cancel()
	q, err := queue.Open(ctx, *dsn)
	if err != nil {
		return failure(e.stderr, "queue", err)
	}
	defer q.Close()
	if err := q.Setup(ctx); err != nil {
		return failure(e.stderr, "queue", err)
	}
	if *grant != "" {
		if err := q.Grant(ctx, *grant); err != nil {
			return failure(e.stderr, "queue", err)
		}
	}
	fmt.Fprintf(e.stdout, "queue: ready (version %s)\n", queue.Version())
	return 0
}
