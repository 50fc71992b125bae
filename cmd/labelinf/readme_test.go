package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeAttack runs the README's attack on the example's open
// competition (examples/competition.json served as it is, on a free
// port) and checks the README's figures: the submissions the command
// reports and the leaderboard counts, and how many of them recover the
// labels (the rest being the final check).
func TestReadmeAttack(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	m := regexp.MustCompile(`recovers and verifies all 1,000 labels in (\d+) submissions: (\d+) queries\s+that recover them`).FindSubmatch(readme)
	require.NotNil(t, m, "README's figure not found")
	total, _ := strconv.Atoi(string(m[1]))
	recover, _ := strconv.Atoi(string(m[2]))
	cmdLine := regexp.MustCompile(`(?m)^\./labelinf attack -scorer http://127\.0\.0\.1:8080/v1/competitions/open (.*)$`).FindSubmatch(readme)
	require.NotNil(t, cmdLine, "README's attack command not found")

	dir := serveDir(t)
	for _, f := range []string{"binary-labels.txt", "binary-train-labels.txt", "iris3-labels.txt"} {
		b, err := os.ReadFile(filepath.Join("../../examples", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	cfg, err := os.ReadFile("../../examples/competition.json")
	require.NoError(t, err)
	addr := startServe(t, dir, string(cfg))
	var key bytes.Buffer
	require.Equal(t, 0, run([]string{"serve", "keys", "add", "-config", filepath.Join(dir, "c.json"), "-name", "alice"}, &key, io.Discard))
	keyFile := filepath.Join(dir, "key")
	require.NoError(t, os.WriteFile(keyFile, key.Bytes(), 0o600))

	args := []string{"attack", "-scorer", "http://" + addr + "/v1/competitions/open"}
	for _, a := range strings.Fields(string(cmdLine[1])) {
		a = strings.ReplaceAll(a, `"$tmp/key"`, keyFile)
		a = strings.ReplaceAll(a, `"$tmp/labels.txt"`, filepath.Join(dir, "labels.txt"))
		args = append(args, a)
	}
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(append(args, "-json"), &stdout, &stderr), "%v: %s", args, stderr.String())
	var res struct {
		Queries           int
		Verified, Checked bool
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.True(t, res.Verified)
	assert.True(t, res.Checked)
	assert.Equal(t, total, res.Queries, "the README's submission count")
	assert.Equal(t, total-1, recover, "the README's queries that recover the labels: all but the check")
	got, err := os.ReadFile(filepath.Join(dir, "labels.txt"))
	require.NoError(t, err)
	want, err := os.ReadFile("../../examples/binary-labels.txt")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))

	resp, err := http.Get("http://" + addr + "/v1/competitions/open/leaderboard")
	require.NoError(t, err)
	defer resp.Body.Close()
	var lb struct{ Public []struct{ Submissions int } }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&lb))
	require.Len(t, lb.Public, 1)
	assert.Equal(t, total, lb.Public[0].Submissions, "the leaderboard counts every submission, the check included")
}
