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
	"testing"
	"time"

	"github.com/labelinf/labelinf/serve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAttackMetricsServed runs labelinf serve in-process on 127.0.0.1 with
// 1,000-row accuracy (binary and K = 3), ROC AUC, Brier and K = 3 log-loss
// competitions, and labelinf attack against each over HTTP: every label
// recovered, verified and checked. Under -short with 300 rows (the same
// strategies, the query counts of 300 rows: a 385-row design of 127
// weighings for group).
func TestAttackMetricsServed(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	n, short := 1000, testing.Short()
	if short {
		n = 300
	}
	dir := serveDir(t)
	r := rand.New(rand.NewPCG(29, 4))
	labelFile := func(name string, k int) string {
		var b strings.Builder
		for range n {
			fmt.Fprintln(&b, r.IntN(k))
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644))
		return b.String()
	}
	comps := []struct {
		id, metric   string
		k            int
		maxQ, shortQ int    // at most maxQ queries at 1,000 rows, shortQ at 300
		decimals     string // the config's, "" for the metric's default
		strategy     string
	}{
		{"acc", "accuracy", 2, 314, 128, "", ""},
		{"acc3", "accuracy", 3, 1002, 302, "", ""},
		{"auc", "roc-auc", 2, 313, 128, "", ""},
		// EvalAI's default rounding: group cannot read a count there.
		{"auc2", "roc-auc", 2, 1030, 327, "2", "swap"},
		// Unrounded: rank reads blocks of labels a query.
		{"aucx", "roc-auc", 2, 130, 50, "-1", "rank"},
		{"brier", "brier", 2, 126, 35, "", ""},
		{"brier3", "brier", 3, 1002, 302, "", ""},
		{"ll3", "float64-sklearn", 3, 200, 60, "", ""},
	}
	var cc []string
	want := map[string]string{}
	for _, c := range comps {
		want[c.id] = labelFile(c.id+".txt", c.k)
		dec := ""
		if c.decimals != "" {
			dec = `,"decimals":` + c.decimals
		}
		cc = append(cc, fmt.Sprintf(`{"id":%q,"labels":%q,"classes":%d,"metric":%q%s}`, c.id, c.id+".txt", c.k, c.metric, dec))
	}
	cfg := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"competitions":[`+strings.Join(cc, ",")+`]}`), 0o644))
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
	for _, c := range comps {
		t.Run(c.id, func(t *testing.T) {
			out := filepath.Join(dir, c.id+".out")
			var stdout, stderr bytes.Buffer
			code := run([]string{"attack", "-scorer", "http://" + string(addr) + "/v1/competitions/" + c.id,
				"-api-key-file", keyFile, "-out", out, "-json"}, &stdout, &stderr)
			require.Equal(t, 0, code, "stdout %s\nstderr %s", stdout.String(), stderr.String())
			var res struct {
				N, K     int
				Queries  int
				Verified bool
				Checked  bool
				Strategy string
			}
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
			assert.Equal(t, n, res.N)
			assert.Equal(t, c.k, res.K)
			assert.True(t, res.Verified)
			assert.True(t, res.Checked)
			maxQ := c.maxQ
			if short {
				maxQ = c.shortQ
			}
			assert.LessOrEqual(t, res.Queries, maxQ)
			if c.strategy != "" {
				assert.Equal(t, c.strategy, res.Strategy)
			}
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, want[c.id], string(got), "recovered labels")
			t.Logf("%s (%s, K = %d): %s, %d queries over HTTP", c.id, c.metric, c.k, res.Strategy, res.Queries)
		})
	}
	// The wrong metric assumed: a usage error, no query.
	assert.Equal(t, 2, run([]string{"attack", "-scorer", "http://" + string(addr) + "/v1/competitions/acc", "-assume", "brier", "-api-key-file", keyFile}, io.Discard, io.Discard))
}

// TestAttackMetricsSimulated: the simulated metrics, their flags and bad
// input.
func TestAttackMetricsSimulated(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"-scorer", "accuracy", "-n", "1000", "-strategy", "flip", "-check"}, 0},
		{[]string{"-scorer", "roc-auc", "-n", "1000", "-strategy", "group"}, 0},
		{[]string{"-scorer", "brier,dec=none", "-n", "1000"}, 0},
		{[]string{"-scorer", "accuracy", "-k", "3", "-n", "1000"}, 0},
		{[]string{"-scorer", "accuracy", "-n", "0"}, 2},
		{[]string{"-scorer", "accuracy,dec=x", "-n", "10"}, 2},
		{[]string{"-scorer", "roc-auc", "-k", "3", "-n", "10"}, 2},
		{[]string{"-scorer", "accuracy", "-n", "10", "-strategy", "family"}, 2},
		{[]string{"-scorer", "accuracy", "-n", "10", "-strategy", "blocks"}, 2},
		// Fresh Gaussian noise: means of repeated submissions.
		{[]string{"-scorer", "accuracy", "-n", "100", "-noise", "gaussian", "-tau", "0.002", "-check"}, 0},
		{[]string{"-scorer", "accuracy", "-n", "10", "-noise", "multiplicative", "-tau", "0.1"}, 2},
		{[]string{"-scorer", "accuracy", "-n", "10", "-delta", "0.1"}, 2},
		{[]string{"-scorer", "accuracy", "-n", "10", "-margin", "0.1"}, 2},
		// 2 decimals cannot tell one label of 1,000: auto is the
		// threshold crossing, which recovers every label.
		{[]string{"-scorer", "accuracy,dec=2", "-n", "1000", "-check"}, 0},
		// 1 decimal: its walk never reaches an edge; the attack stops.
		{[]string{"-scorer", "accuracy,dec=1", "-n", "1000"}, 1},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"attack"}, tc.args...), &stdout, &stderr)
			assert.Equal(t, tc.code, code, "stdout %s\nstderr %s", stdout.String(), stderr.String())
		})
	}
}
