package serve

import (
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/defence"
)

const testHostToken = "a host token of more than thirty-two bytes, for tests"

// TestHostSubmit: a platform's scoring step submits for its teams with
// the host token; a retry with the same submission id is answered, not
// charged, again; each team has its own budget and per-team Ladder state.
func TestHostSubmit(t *testing.T) {
	dir := t.TempDir()
	tok := filepath.Join(dir, "host.token")
	require.NoError(t, os.WriteFile(tok, []byte(testHostToken+"\n"), 0o600))
	r := rand.New(rand.NewPCG(31, 1))
	labels := randLabels(r, 200, 2)
	e := newEnv(t, [][]int{labels, labels},
		CompetitionConfig{ID: "c", Title: "c", Classes: 2, Metric: "float64-sklearn", HostTokenFile: tok, DailyLimit: 2,
			Defence: &defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", PerTeam: true}}},
		CompetitionConfig{ID: "plain", Title: "p", Classes: 2, Metric: "float64-sklearn"})
	pred := make([]float64, len(labels))
	for i, y := range labels {
		pred[i] = 0.3 + 0.4*float64(y)
	}
	post := func(token, team, idem string, p []float64) answer {
		return e.post("/v1/competitions/c/host/submissions", token, "application/json", predJSON(p), HostTeamHeader, team, "Idempotency-Key", idem)
	}
	a := post(testHostToken, "team-7", "evalai-123", pred)
	require.Equal(t, http.StatusCreated, a.Status, a.Raw)
	assert.Equal(t, 1.0, a.Body["used"])
	// The platform retries: the same receipt, nothing charged.
	b := post(testHostToken, "team-7", "evalai-123", pred)
	require.Equal(t, http.StatusCreated, b.Status, b.Raw)
	assert.Equal(t, "true", b.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, a.Body["id"], b.Body["id"])
	assert.Equal(t, a.Body["score"], b.Body["score"])
	assert.Equal(t, 1, e.count("c"))
	// The same id for another prediction is a client error.
	worse := append([]float64(nil), pred...)
	worse[0] = 0.5
	assert.Equal(t, http.StatusUnprocessableEntity, post(testHostToken, "team-7", "evalai-123", worse).Status)
	// The team's daily limit holds across the platform's submissions.
	require.Equal(t, http.StatusCreated, post(testHostToken, "team-7", "evalai-124", worse).Status)
	assert.Equal(t, http.StatusTooManyRequests, post(testHostToken, "team-7", "evalai-125", worse).Status)
	// Another team: its own budget and its own Ladder (its first
	// submission is released, the worse one of team-7 was not).
	c := post(testHostToken, "team-8", "evalai-200", worse)
	require.Equal(t, http.StatusCreated, c.Status, c.Raw)
	assert.Equal(t, 1.0, c.Body["used"])
	assert.NotEqual(t, a.Body["score"], c.Body["score"])
	subs, err := e.st.Submissions(t.Context(), "c")
	require.NoError(t, err)
	teams := map[string]bool{}
	for _, s := range subs {
		k, err := e.st.Key(t.Context(), s.KeyID)
		require.NoError(t, err)
		teams[k.Name] = true
	}
	assert.Equal(t, map[string]bool{"team-7": true, "team-8": true}, teams)

	for _, c := range []struct {
		name, path, token, team, idem string
		status                        int
		reason                        string
	}{
		{"bad token", "/v1/competitions/c/host/submissions", strings.Repeat("x", 40), "t", "1", 401, "bad_host_token"},
		{"no token", "/v1/competitions/c/host/submissions", "", "t", "1", 401, "bad_host_token"},
		{"a team key is no host token", "/v1/competitions/c/host/submissions", e.key("alice"), "t", "1", 401, "bad_host_token"},
		{"no team", "/v1/competitions/c/host/submissions", testHostToken, "", "1", 400, "bad_team"},
		{"no submission id", "/v1/competitions/c/host/submissions", testHostToken, "t", "", 400, "missing_idempotency_key"},
		{"no host token configured", "/v1/competitions/plain/host/submissions", testHostToken, "t", "1", 404, "not_found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := e.post(c.path, c.token, "application/json", predJSON(pred), HostTeamHeader, c.team, "Idempotency-Key", c.idem)
			assert.Equal(t, c.status, a.Status, a.Raw)
			errBody, _ := a.Body["error"].(map[string]any)
			assert.Equal(t, c.reason, errBody["reason"], a.Raw)
		})
	}
	// A short token file is refused at start.
	short := filepath.Join(dir, "short")
	require.NoError(t, os.WriteFile(short, []byte("short"), 0o600))
	_, err = NewCompetition(CompetitionConfig{ID: "s", Title: "s", Classes: 2, Metric: "float64-sklearn", PublicFraction: 1,
		Labels: writeLabels(t, labels), HostTokenFile: short}, nil)
	assert.ErrorContains(t, err, "want at least 32")
}
