package audit

// This file implements the loopback target: a real labelinf serve on
// 127.0.0.1 with the cell's defence configured, attacked over HTTP.

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/scorer"
	"github.com/labelinf/labelinf/serve"
)

// LoopbackOptions configures [Loopback].
type LoopbackOptions struct {
	// Command, if set, is the labelinf executable (and any arguments
	// before "serve"): each target runs
	//	Command… serve -config FILE -listen 127.0.0.1:0 -addr-file FILE
	// as its own process. Empty: serve.Command (the code labelinf serve
	// runs) serves from this process, on a goroutine, over a real TCP
	// listener and its own SQLite file.
	Command []string
	// Env is appended to the server process's environment.
	Env []string
	// Dir is where each target's temporary directory (config, labels,
	// database) goes; "" is os.TempDir().
	Dir string
}

// competitionID is the loopback server's one competition.
const competitionID = "audit"

// startTimeout bounds a server's start (its address file appearing).
const startTimeout = 30 * time.Second

// Loopback returns the loopback target factory: each target is a fresh
// labelinf serve (a new SQLite database, so that Ladder and noise state
// start empty) on 127.0.0.1:0, serving one competition: the cell's
// labels, the config's metric and clip, the cell's defence settings as
// serve's "defence" (without its limits: the audit accounts for limits in
// days, and a served limit would stop the audit itself) and the cell's
// seed as serve's simulation_seed, so that every random stream is the one
// [InProcess] draws. A cell without rounding is served unrounded
// (decimals −1): the client reads back the exact float64 served. Each
// team the audit submits as ("attacker", "honest-0", …) gets its own API
// key, whose name is the team. The target submits as labelinf attack
// does, through serve's client: every row, JSON, one charged submission
// each.
func Loopback(o LoopbackOptions) TargetFactory {
	return func(ctx context.Context, s Spec) (Target, error) {
		return openLoopback(ctx, o, s)
	}
}

// serveConfig is the subset of serve's config file a loopback target
// writes.
type serveConfig struct {
	Listen       string               `json:"listen"`
	Database     serve.DatabaseConfig `json:"database"`
	MaxBodyBytes int64                `json:"max_body_bytes"`
	RejectBurst  int                  `json:"reject_burst"`
	Competitions []competitionConfig  `json:"competitions"`
}

type competitionConfig struct {
	ID             string            `json:"id"`
	Labels         string            `json:"labels"`
	Classes        int               `json:"classes"`
	Metric         string            `json:"metric"`
	Clip           string            `json:"clip,omitempty"`
	Decimals       *int              `json:"decimals,omitempty"`
	Defence        *defence.Settings `json:"defence"`
	SimulationSeed string            `json:"simulation_seed"`
}

type loopback struct {
	dir   string
	rows  int
	k     int // classes
	url   string
	store serve.Store
	hc    *http.Client
	stop  func() error

	mu      sync.Mutex
	clients map[string]*serve.Client
}

func openLoopback(ctx context.Context, o LoopbackOptions, s Spec) (_ *loopback, err error) {
	if err := checkMetricDefence(s); err != nil {
		return nil, err // serve would refuse to start
	}
	dir, err := os.MkdirTemp(o.Dir, "labelinf-audit-")
	if err != nil {
		return nil, fmt.Errorf("audit: loopback: %w", err)
	}
	t := &loopback{dir: dir, rows: len(s.Labels), k: max(s.K, 2), clients: map[string]*serve.Client{},
		hc: &http.Client{Timeout: 10 * time.Minute, Transport: &http.Transport{MaxIdleConnsPerHost: 4}}}
	defer func() {
		if err != nil {
			t.Close()
		}
	}()
	var lb bytes.Buffer
	for _, y := range s.Labels {
		lb.WriteString(strconv.Itoa(y))
		lb.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "labels.txt"), lb.Bytes(), 0o600); err != nil {
		return nil, fmt.Errorf("audit: loopback: %w", err)
	}
	d := s.Cell.Defence
	d.Limits = defence.LimitSettings{}
	cc := competitionConfig{ID: competitionID, Labels: "labels.txt", Classes: max(s.K, 2), Metric: s.Metric, Clip: s.Clip,
		Defence: &d, SimulationSeed: hex.EncodeToString(s.Seed[:])}
	if cc.Metric == "" {
		cc.Metric = DefaultMetric
	}
	if d.Decimals == nil {
		none := -1
		cc.Decimals = &none
	}
	cfg := serveConfig{Listen: "127.0.0.1:0", Database: serve.DatabaseConfig{Driver: "sqlite", DSN: "serve.db"},
		// Every row written with 17 digits and a comma, and room to spare.
		MaxBodyBytes: max(16<<20, 32*int64(len(s.Labels))), RejectBurst: 1 << 20,
		Competitions: []competitionConfig{cc}}
	cb, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("audit: loopback: %w", err)
	}
	cfgPath := filepath.Join(dir, "serve.json")
	if err := os.WriteFile(cfgPath, cb, 0o600); err != nil {
		return nil, fmt.Errorf("audit: loopback: %w", err)
	}
	// The audit's own store handle creates the database and adds a key
	// per team as the teams appear (labelinf serve keys add does the same
	// beside a running server).
	if t.store, err = serve.OpenSQLite(ctx, filepath.Join(dir, "serve.db")); err != nil {
		return nil, fmt.Errorf("audit: loopback: %w", err)
	}
	addrFile := filepath.Join(dir, "addr")
	args := []string{"serve", "-config", cfgPath, "-listen", "127.0.0.1:0", "-addr-file", addrFile}
	var (
		done   = make(chan error, 1)
		stderr = &tailBuffer{max: 4096}
	)
	if len(o.Command) == 0 {
		sctx, cancel := context.WithCancel(context.Background())
		go func() { done <- serve.Command(sctx, args[1:], io.Discard, stderr) }()
		t.stop = func() error {
			cancel()
			return <-done
		}
	} else {
		cmd := exec.Command(o.Command[0], append(append([]string(nil), o.Command[1:]...), args...)...)
		cmd.Env = append(os.Environ(), o.Env...)
		cmd.Stderr = stderr
		setParentDeath(cmd)
		if err := cmd.Start(); err != nil {
			return nil, fmt.Errorf("audit: loopback: start labelinf serve: %w", err)
		}
		go func() { done <- cmd.Wait() }()
		t.stop = func() error {
			// SIGINT drains the server, as SIGTERM does; it exits 0.
			_ = cmd.Process.Signal(os.Interrupt)
			select {
			case err := <-done:
				return err
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				return <-done
			}
		}
	}
	addr, err := waitAddr(ctx, addrFile, done)
	if err != nil {
		// Close (deferred above) stops the server if it still runs.
		return nil, fmt.Errorf("audit: loopback: labelinf serve did not start: %w; its log: %s", err, stderr.String())
	}
	t.url = "http://" + addr + "/v1/competitions/" + competitionID
	return t, nil
}

// waitAddr waits for the server's address file, or its early exit.
func waitAddr(ctx context.Context, path string, done chan error) (string, error) {
	deadline := time.Now().Add(startTimeout)
	for {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			if _, p, err := net.SplitHostPort(string(b)); err == nil && p != "" && p != "0" {
				return string(b), nil
			}
		}
		select {
		case err := <-done:
			if err == nil {
				err = errors.New("exited")
			}
			done <- err // for stop
			return "", err
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("no address after %v", startTimeout)
		}
	}
}

func (t *loopback) Rows() int { return t.rows }

// client returns team's client, adding its key on first use.
func (t *loopback) client(ctx context.Context, team string) (*serve.Client, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c, ok := t.clients[team]; ok {
		return c, nil
	}
	k, token, err := serve.NewKey(team, time.Now())
	if err != nil {
		return nil, fmt.Errorf("audit: loopback: key for %q: %w", team, err)
	}
	if err := t.store.AddKey(ctx, k); err != nil {
		return nil, fmt.Errorf("audit: loopback: %w", err)
	}
	c, err := serve.NewHostClient(ctx, t.url, token, t.hc)
	if err != nil {
		return nil, fmt.Errorf("audit: loopback: %w", err)
	}
	t.clients[team] = c
	return c, nil
}

func (t *loopback) Submit(ctx context.Context, team string, pred []float64) (*big.Rat, error) {
	per := 1
	if t.k > 2 {
		per = t.k
	}
	if len(pred) != t.rows*per {
		return nil, fmt.Errorf("audit: %d predictions for %d rows of %d", len(pred), t.rows, per)
	}
	for _, v := range pred {
		if !(v >= 0 && v <= 1) {
			return nil, errProb
		}
	}
	c, err := t.client(ctx, team)
	if err != nil {
		return nil, err
	}
	return c.Score(ctx, &scorer.Pred{K: t.k, P: pred})
}

// Close stops the server and removes the target's directory.
func (t *loopback) Close() error {
	var err error
	if t.stop != nil {
		if e := t.stop(); e != nil {
			err = fmt.Errorf("audit: loopback: labelinf serve: %w", e)
		}
		t.stop = nil
	}
	if tr, ok := t.hc.Transport.(*http.Transport); ok {
		tr.CloseIdleConnections()
	}
	if t.store != nil {
		if e := t.store.Close(); e != nil && err == nil {
			err = e
		}
		t.store = nil
	}
	if e := os.RemoveAll(t.dir); e != nil && err == nil {
		err = e
	}
	return err
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (w *tailBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b = append(w.b, p...)
	if len(w.b) > w.max {
		w.b = append(w.b[:0], w.b[len(w.b)-w.max:]...)
	}
	return len(p), nil
}

func (w *tailBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return string(bytes.TrimSpace(w.b))
}
