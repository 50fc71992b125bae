package serve

// This file is the labelinf serve command: the server and its key
// management, behind a thin main.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"text/tabwriter"
	"time"
)

// UsageError is a command-line mistake (exit status 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// CommandUsage is the command's synopsis.
const CommandUsage = `usage: labelinf serve -config FILE [-listen ADDR] [-addr-file FILE] [-lock-wait D]
       labelinf serve keys add -config FILE -name TEAM
       labelinf serve keys list -config FILE
       labelinf serve keys revoke -config FILE ID`

// Command runs labelinf serve with args (after "serve"). The server runs
// until ctx is cancelled (the caller cancels it on SIGINT or SIGTERM),
// then stops accepting connections and drains those in flight for up to
// the configured shutdown_timeout.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "keys" {
		return keysCommand(ctx, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "configuration `file` (JSON)")
	listen := fs.String("listen", "", "listen on `ADDR`, overriding the config (127.0.0.1:0 picks a free port)")
	addrFile := fs.String("addr-file", "", "write the address listened on to `FILE`")
	lockWait := fs.Duration("lock-wait", 5*time.Second, "wait up to `DURATION` for the server this one replaces to release the SQLite database")
	if err := fs.Parse(args); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if *cfgPath == "" || fs.NArg() > 0 {
		return &UsageError{Msg: "serve: want -config FILE and no arguments\n" + CommandUsage}
	}
	cfg, err := LoadConfig(*cfgPath)
	if err != nil {
		return err
	}
	if *listen != "" {
		cfg.Listen = *listen
	}
	log := slog.New(slog.NewJSONHandler(stderr, nil))
	var lock *serveLock
	if cfg.Database.Driver == "sqlite" {
		// One serving process per SQLite file (servelock.go).
		if lock, err = acquireServeLock(ctx, cfg.Database.DSN, *lockWait); err != nil {
			return err
		}
		defer lock.release()
	}
	st, err := OpenStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	comps := make([]*Competition, 0, len(cfg.Competitions))
	for _, cc := range cfg.Competitions {
		c, err := NewCompetition(cc, nil)
		if err != nil {
			return err
		}
		if cc.SimulationSeed != "" {
			log.Warn(simulationWarning, "competition", cc.ID)
		}
		comps = append(comps, c)
	}
	if err := CheckRules(ctx, st, comps); err != nil {
		return err
	}
	srv, err := NewServer(Options{Store: st, Competitions: comps, Logger: log, MaxBodyBytes: cfg.MaxBodyBytes,
		ClientIPHeader: cfg.ClientIPHeader, RejectRate: cfg.RejectRate, RejectBurst: cfg.RejectBurst})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Listen)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: cfg.ReadHeaderTimeout.or(5 * time.Second),
		ReadTimeout:       cfg.ReadTimeout.or(30 * time.Second),
		WriteTimeout:      cfg.WriteTimeout.or(30 * time.Second),
		IdleTimeout:       cfg.IdleTimeout.or(60 * time.Second),
		// Far above the server's own limit (Options.MaxHeaderBytes, 64
		// KiB), so that it, not net/http's plain-text 431, answers.
		MaxHeaderBytes: httpMaxHeaderBytes,
		ErrorLog:       slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	// Shutdown closes the listener, then runs this: the replacement may
	// start while the requests in flight finish (servelock.go).
	// Shutdown runs it in a goroutine of its own and does not wait for
	// it: released is closed when it is done.
	released := make(chan struct{})
	if lock != nil {
		hs.RegisterOnShutdown(func() {
			defer close(released)
			lock.release()
			log.Info("released the database lock; draining")
		})
	} else {
		close(released)
	}
	addr := ln.Addr().String()
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(addr), 0o644); err != nil {
			ln.Close()
			return fmt.Errorf("serve: %w", err)
		}
	}
	log.Info("listening", "addr", addr, "database", cfg.Database.Driver, "competitions", len(comps))
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("draining", "timeout", cfg.ShutdownTimeout.or(20*time.Second).String())

	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout.or(20*time.Second))
	defer cancel()
	err = hs.Shutdown(sctx)
	<-released // else the process may exit before the hook has logged
	if err != nil {
		return fmt.Errorf("serve: shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	log.Info("stopped")
	return nil
}

// httpMaxHeaderBytes is the http.Server's header limit: headers between
// Options.MaxHeaderBytes and it get the server's JSON 431, larger ones
// net/http's plain-text one.
const httpMaxHeaderBytes = 1 << 20

// OpenStore opens the configured database.
func OpenStore(ctx context.Context, d DatabaseConfig) (Store, error) {
	switch d.Driver {
	case "", "sqlite":
		return OpenSQLite(ctx, d.DSN)
	case "postgres":
		return OpenPostgres(ctx, d.DSN)
	}
	return nil, fmt.Errorf("serve: database driver %q, want sqlite or postgres", d.Driver)
}

func keysCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return &UsageError{Msg: "serve keys: want add, list or revoke\n" + CommandUsage}
	}
	verb := args[0]
	fs := flag.NewFlagSet("serve keys "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "configuration `file` (JSON)")
	name := fs.String("name", "", "team or user `name` the key belongs to (add)")
	if err := fs.Parse(args[1:]); err != nil {
		return &UsageError{Msg: err.Error()}
	}
	if *cfgPath == "" {
		return &UsageError{Msg: "serve keys: want -config FILE\n" + CommandUsage}
	}
	cfg, err := LoadConfig(*cfgPath)
	if err != nil {
		return err
	}
	st, err := OpenStore(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	switch verb {
	case "add":
		if fs.NArg() > 0 {
			return &UsageError{Msg: "serve keys add: unexpected argument " + fs.Arg(0)}
		}
		k, token, err := NewKey(*name, time.Now())
		if err != nil {
			return &UsageError{Msg: err.Error()}
		}
		if err := st.AddKey(ctx, k); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "key %s for %q created; the token below is shown once, store it now\n", k.ID, k.Name)
		fmt.Fprintln(stdout, token)
		return nil
	case "list":
		keys, err := st.Keys(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tNAME\tCREATED\tREVOKED")
		for _, k := range keys {
			rev := "-"
			if !k.Revoked.IsZero() {
				rev = k.Revoked.Format(time.RFC3339)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", k.ID, k.Name, k.Created.Format(time.RFC3339), rev)
		}
		return tw.Flush()
	case "revoke":
		if fs.NArg() != 1 {
			return &UsageError{Msg: "serve keys revoke: want one key ID"}
		}
		if err := st.RevokeKey(ctx, fs.Arg(0), time.Now()); err != nil {
			if errors.Is(err, ErrNotFound) {
				return fmt.Errorf("serve keys revoke: no key %s", fs.Arg(0))
			}
			return err
		}
		fmt.Fprintf(stderr, "key %s revoked\n", fs.Arg(0))
		return nil
	}
	return &UsageError{Msg: fmt.Sprintf("serve keys: unknown verb %q\n%s", verb, CommandUsage)}
}
