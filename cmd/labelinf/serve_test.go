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

// TestAttackServed runs labelinf serve in-process on 127.0.0.1 and
// labelinf attack --scorer http://… against it.
func TestAttackServed(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	dir := t.TempDir()
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
