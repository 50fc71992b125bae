package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAttackRefusesPublishedDefence: against a competition that
// publishes a defence the attacks do not model (a Ladder, noise), attack
// and plan refuse with a message naming it before any submission; the
// leaderboard stays empty.
func TestAttackRefusesPublishedDefence(t *testing.T) {
	dir := serveDir(t)
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintln(&b, i*7%3%2)
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "labels.txt"), []byte(b.String()), 0o644))
	addr := startServe(t, dir, `{"competitions":[
		{"id":"ladder","labels":"labels.txt","classes":2,"metric":"leaderboard","publish_defence":true,
		 "defence":{"ladder":{"kind":"parameter-free","per_team":true},"decimals":5}},
		{"id":"noise","labels":"labels.txt","classes":2,"metric":"leaderboard","publish_defence":true,
		 "defence":{"noise":{"kind":"gaussian","scale":0.001},"decimals":5}}]}`)
	var key bytes.Buffer
	require.Equal(t, 0, run([]string{"serve", "keys", "add", "-config", filepath.Join(dir, "c.json"), "-name", "attacker"}, &key, io.Discard))
	keyFile := filepath.Join(dir, "key")
	require.NoError(t, os.WriteFile(keyFile, key.Bytes(), 0o600))
	for id, name := range map[string]string{"ladder": "per-team parameter-free Ladder", "noise": "fresh gaussian noise of scale 0.001"} {
		url := "http://" + addr + "/v1/competitions/" + id
		for _, extra := range [][]string{nil, {"-assume", "leaderboard"}, {"-assume", "auto"}} {
			var errb bytes.Buffer
			code := run(append([]string{"attack", "-scorer", url, "-api-key-file", keyFile}, extra...), io.Discard, &errb)
			assert.NotEqual(t, 0, code, "%s %v", id, extra)
			assert.Contains(t, errb.String(), name, "%s %v", id, extra)
			assert.Contains(t, errb.String(), "nothing was submitted")
		}
		var errb bytes.Buffer
		assert.NotEqual(t, 0, run([]string{"plan", "-scorer", url}, io.Discard, &errb))
		assert.Contains(t, errb.String(), name)
		resp, err := http.Get(url + "/leaderboard")
		require.NoError(t, err)
		var lb struct{ Public []any }
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&lb))
		resp.Body.Close()
		assert.Empty(t, lb.Public, "%s: no submission spent", id)
	}
}
