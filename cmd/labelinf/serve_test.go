package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/labelinf/labelinf/serve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAttackServed runs labelinf serve in-process on 127.0.0.1 and
// labelinf attack --scorer http://… against it.
func TestAttackServed(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	dir := serveDir(t)
	r := rand.New(rand.NewPCG(13, 13))
	var b strings.Builder
	labels := make([]int, n)
	for i := range labels {
		labels[i] = r.IntN(2)
		fmt.Fprintln(&b, labels[i])
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte(b.String()), 0o644))
	cfg := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"competitions":[{"id":"x","labels":"labels.txt","classes":2,"metric":"float64-sklearn","decimals":-1}]}`), 0o644))
	var key bytes.Buffer
	require.Equal(t, 0, run([]string{"serve", "keys", "add", "-config", cfg, "-name", "attacker"}, &key, io.Discard))
	keyFile := filepath.Join(dir, "key")
	require.NoError(t, os.WriteFile(keyFile, key.Bytes(), 0o600))

	ctx, cancel := context.WithCancel(context.Background())
	addrFile := filepath.Join(dir, "addr")
	done := make(chan error, 1)
	go func() {
		done <- serve.Command(ctx, []string{"-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile}, io.Discard, io.Discard)
	}()
	defer func() { cancel(); <-done }()
	var addr []byte
	for range 500 {
		if addr, _ = os.ReadFile(addrFile); len(addr) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NotEmpty(t, addr)

	out := filepath.Join(dir, "recovered.txt")
	var stdout, stderr bytes.Buffer
	code := run([]string{"attack", "-scorer", "http://" + string(addr) + "/v1/competitions/x", "-assume", "float64-sklearn",
		"-api-key-file", keyFile, "-out", out, "-json"}, &stdout, &stderr)
	require.Equal(t, 0, code, "stdout %s\nstderr %s", stdout.String(), stderr.String())
	var res struct {
		N        int  `json:"n"`
		Queries  int  `json:"queries"`
		Verified bool `json:"verified"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Equal(t, n, res.N)
	assert.True(t, res.Verified)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, b.String(), string(got))

	// Without a key file: a usage error.
	assert.Equal(t, 2, run([]string{"attack", "-scorer", "http://" + string(addr) + "/v1/competitions/x", "-assume", "float64-sklearn"}, io.Discard, io.Discard))
}

// TestServeSIGTERMExitsZero runs labelinf serve as a real process and
// sends it SIGTERM: the server drains and exits 0 (a signal is how a
// server is stopped, not a failure), while the other commands exit 1 on a
// signal (TestSignalKillsScorerGroup).
func TestServeSIGTERMExitsZero(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte("0\n1\n1\n0\n"), 0o644))
	cfg := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"competitions":[{"id":"x","labels":"labels.txt","classes":2,"metric":"float64-sklearn"}]}`), 0o644))
	addrFile := filepath.Join(dir, "addr")
	cmd := labelinfProcess(t, "serve", "-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(addrFile); len(b) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := cmd.Wait()
	assert.NoError(t, err, "labelinf serve after SIGTERM: %s", stderr.String())
	assert.Contains(t, stderr.String(), `"msg":"stopped"`)
}

// serveDir returns a new temporary directory for a test server's config,
// labels and database (labelinf.db beside the config), on tmpfs
// (/dev/shm) where there is one, removed when t ends. These tests check
// what the server answers, not the disk's fsync: serve commits every
// submission with synchronous=FULL, and on a disk the commits were most
// of TestAttackMetricsServed's wall time. The serve package's own tests
// (kill -9, lost commits) keep a real disk.
func serveDir(t *testing.T) string {
	t.Helper()
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "labelinf-cli-test-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// startServe runs labelinf serve in-process on 127.0.0.1 with the
// competitions of cfgJSON (labels files written into dir beforehand) and
// returns its address.
func startServe(t *testing.T, dir, cfgJSON string) string {
	t.Helper()
	cfg := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(cfgJSON), 0o644))
	ctx, cancel := context.WithCancel(context.Background())
	addrFile := filepath.Join(dir, "addr")
	done := make(chan error, 1)
	go func() {
		done <- serve.Command(ctx, []string{"-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile}, io.Discard, io.Discard)
	}()
	t.Cleanup(func() { cancel(); <-done })
	var addr []byte
	for range 500 {
		if addr, _ = os.ReadFile(addrFile); len(addr) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NotEmpty(t, addr)
	return string(addr)
}

// TestPlanServed: labelinf plan -scorer http://… reads N, K, the model,
// its clip and decimals from a served competition (no key needed) and
// plans exactly as for that model named on the command line.
func TestPlanServed(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	dir := serveDir(t)
	var b strings.Builder
	for i := range 198 {
		fmt.Fprintln(&b, i*7%3%2)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte(b.String()), 0o644))
	var b3 strings.Builder
	for i := range 198 {
		fmt.Fprintln(&b3, i*5%7%3)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels3.txt"), []byte(b3.String()), 0o644))
	addr := startServe(t, dir, `{"competitions":[
		{"id":"lb","labels":"labels.txt","classes":2,"metric":"float64-sklearn","clip":"1e-12","decimals":5},
		{"id":"k3","labels":"labels3.txt","classes":3,"metric":"float64,clip=eps","decimals":-1},
		{"id":"sk","labels":"labels.txt","classes":2,"metric":"float64-sklearn","decimals":5},
		{"id":"acc","labels":"labels.txt","classes":2,"metric":"accuracy"}]}`)
	url := "http://" + addr + "/v1/competitions/"
	planJSON := func(args ...string) planOut {
		var out, errb bytes.Buffer
		code := run(append([]string{"plan", "-json"}, args...), &out, &errb)
		require.Equal(t, 0, code, "plan %v: %s", args, errb.String())
		var o planOut
		require.NoError(t, json.Unmarshal(out.Bytes(), &o))
		return o
	}
	served := planJSON("-scorer", url+"lb")
	assert.Equal(t, 198, served.N)
	assert.Equal(t, 2, served.K)
	assert.Equal(t, "binary64,clip=1e-12,renorm,log=glibc,dec=5", served.ServedModel)
	assert.Equal(t, served.ServedModel, served.Scorer)
	named := planJSON("-scorer", "binary64,clip=1e-12,renorm,log=glibc,dec=5", "-n", "198")
	assert.Equal(t, named.Strategies, served.Strategies)
	require.NotEmpty(t, served.Strategies)
	for _, r := range served.Strategies {
		t.Logf("%s: %d queries (at least %d)", r.Strategy, r.Queries, r.LowerBound)
	}
	// -assume names another model: the server's N, K and decimals stay.
	assumed := planJSON("-scorer", url+"lb", "-assume", "leaderboard")
	assert.Equal(t, 198, assumed.N)
	lb := planJSON("-scorer", "leaderboard", "-n", "198")
	assert.Equal(t, lb.Strategies, assumed.Strategies)
	// The text form says where the model came from.
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"plan", "-scorer", url + "lb"}, &out, io.Discard))
	assert.Contains(t, out.String(), "published model binary64,clip=1e-12,renorm,log=glibc,dec=5")
	// Usage errors: -n against the server's, a metric with no model.
	var errb bytes.Buffer
	assert.Equal(t, 2, run([]string{"plan", "-scorer", url + "lb", "-n", "100"}, io.Discard, &errb))
	assert.Contains(t, errb.String(), "N = 198")
	errb.Reset()
	assert.Equal(t, 2, run([]string{"plan", "-scorer", url + "acc"}, io.Discard, &errb))
	assert.Contains(t, errb.String(), "publishes no scoring model")
	// An unknown competition: a failure, not a usage error.
	assert.Equal(t, 1, run([]string{"plan", "-scorer", url + "nope"}, io.Discard, io.Discard))

	// attack without -assume plans for the published model; -assume auto
	// identifies it by probes. Both recover every label, verified.
	var key bytes.Buffer
	require.Equal(t, 0, run([]string{"serve", "keys", "add", "-config", filepath.Join(dir, "c.json"), "-name", "attacker"}, &key, io.Discard))
	keyFile := filepath.Join(dir, "key")
	require.NoError(t, os.WriteFile(keyFile, key.Bytes(), 0o600))
	for _, extra := range [][]string{nil, {"-assume", "auto"}} {
		rec := filepath.Join(dir, "rec.txt")
		var out, errb bytes.Buffer
		comp := "lb"
		if extra != nil {
			comp = "sk" // clipping at 1e-12 fits no candidate model
		}
		args := append([]string{"attack", "-scorer", url + comp, "-api-key-file", keyFile, "-out", rec, "-json"}, extra...)
		require.Equal(t, 0, run(args, &out, &errb), "%v: %s %s", extra, out.String(), errb.String())
		var o attackOut
		require.NoError(t, json.Unmarshal(out.Bytes(), &o))
		assert.True(t, o.Verified)
		got, err := os.ReadFile(rec)
		require.NoError(t, err)
		assert.Equal(t, b.String(), string(got))
		t.Logf("attack %s %v: model %s, %d queries (%d probes)", comp, extra, o.Assume, o.Queries, o.Probes)
		if extra == nil {
			assert.Equal(t, "binary64,clip=1e-12,renorm,log=glibc,dec=5", o.Assume)
		}
	}
	// K = 3 without renormalisation (the server checks that rows sum to
	// 1): plan reads K, and -assume auto identifies and attacks it.
	k3 := planJSON("-scorer", url+"k3")
	assert.Equal(t, 3, k3.K)
	assert.Equal(t, "binary64,clip=eps", k3.ServedModel)
	{
		rec := filepath.Join(dir, "rec3.txt")
		var out, errb bytes.Buffer
		require.Equal(t, 0, run([]string{"attack", "-scorer", url + "k3", "-api-key-file", keyFile, "-assume", "auto", "-out", rec, "-json"}, &out, &errb), "%s %s", out.String(), errb.String())
		var o attackOut
		require.NoError(t, json.Unmarshal(out.Bytes(), &o))
		assert.True(t, o.Verified)
		got, err := os.ReadFile(rec)
		require.NoError(t, err)
		assert.Equal(t, b3.String(), string(got))
		t.Logf("attack k3 -assume auto: model %s, %d queries (%d probes)", o.Assume, o.Queries, o.Probes)
	}
	// -assume auto against the 1e-12 clip: no model fits, nothing written.
	rec := filepath.Join(dir, "none.txt")
	out.Reset()
	assert.Equal(t, 1, run([]string{"attack", "-scorer", url + "lb", "-api-key-file", keyFile, "-assume", "auto", "-out", rec}, &out, io.Discard))
	assert.Contains(t, out.String(), "no model fits")
	assert.NoFileExists(t, rec)
}
