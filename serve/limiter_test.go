package serve

// The rejection limiter limits per key first: users behind one address
// (a NAT, a proxy without client_ip_header) must not lock each other out.

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// limiterEnv is a server with the default burst (20 rejections at once;
// then 1 per 100 s instead of the default 1 per second, so that a slow
// machine refills no token during a test) and a competition of 4 rows
// allowing one submission per key; every request comes from 127.0.0.1.
func limiterEnv(t *testing.T) *env {
	return newEnvOpts(t, Options{MaxBodyBytes: 1 << 20, RejectRate: 0.01}, [][]int{{0, 1, 1, 0}},
		CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn", TotalLimit: 1})
}

const limPath = "/v1/competitions/c/submissions"

var limPred = predJSON([]float64{0.5, 0.5, 0.5, 0.5})

// TestLimiterOverBudgetKeyLocksOutNoOne: one key's over-budget retries
// must not make another key's first valid submission from the same
// address get 429 (the report, reproduced with the defaults).
func TestLimiterOverBudgetKeyLocksOutNoOne(t *testing.T) {
	e := limiterEnv(t)
	a, b := e.key("a"), e.key("b")
	require.Equal(t, http.StatusCreated, e.post(limPath, a, "application/json", limPred).Status)
	limited := 0
	for range 40 {
		got := e.post(limPath, a, "application/json", limPred)
		require.Equal(t, http.StatusTooManyRequests, got.Status, got.Raw)
		if strings.Contains(got.Raw, "rate_limited") {
			limited++
		}
	}
	assert.Equal(t, 20, limited, "a's own bucket: 20 over-budget answers, then rate_limited")
	got := e.post(limPath, b, "application/json", limPred)
	assert.Equal(t, http.StatusCreated, got.Status, "b behind the same address: %s", got.Raw)
}

// TestLimiterMalformedCountsAgainstTheKey: a key's malformed bodies
// count against that key alone.
func TestLimiterMalformedCountsAgainstTheKey(t *testing.T) {
	e := limiterEnv(t)
	a, b := e.key("a"), e.key("b")
	for range 20 {
		require.Equal(t, http.StatusBadRequest, e.post(limPath, a, "application/json", []byte("{")).Status)
	}
	got := e.post(limPath, a, "application/json", limPred)
	assert.Equal(t, http.StatusTooManyRequests, got.Status, "a's bucket is empty: %s", got.Raw)
	assert.Contains(t, got.Raw, "rate_limited")
	got = e.post(limPath, b, "application/json", limPred)
	assert.Equal(t, http.StatusCreated, got.Status, "b: %s", got.Raw)
}

// TestLimiterBadKeysLimitTheAddress: requests without a valid key are
// limited per address; a valid key from that address still gets in.
func TestLimiterBadKeysLimitTheAddress(t *testing.T) {
	e := limiterEnv(t)
	b := e.key("b")
	bad := "lik_0000000000000000_" + strings.Repeat("A", 43)
	for range 20 {
		require.Equal(t, http.StatusUnauthorized, e.post(limPath, bad, "application/json", limPred).Status)
	}
	for _, tok := range []string{bad, "", "nonsense"} {
		got := e.post(limPath, tok, "application/json", limPred)
		assert.Equal(t, http.StatusTooManyRequests, got.Status, "%q: %s", tok, got.Raw)
		assert.Contains(t, got.Raw, "rate_limited")
	}
	got := e.post(limPath, b, "application/json", limPred)
	assert.Equal(t, http.StatusCreated, got.Status, "b: %s", got.Raw)
}
