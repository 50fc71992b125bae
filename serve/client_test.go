package serve

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAttackOverHTTP: the multi-query attack against a served
// float64-sklearn competition recovers every label with exactly the
// queries it spends against the simulated scorer (same labels, same
// model), and a budget stops it with the labels recovered so far.
func TestAttackOverHTTP(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	n := 25000
	if testing.Short() {
		n = 600
	}
	labels := randLabels(rand.New(rand.NewPCG(8, 8)), n, 2)
	dec := -1
	e := newEnv(t, [][]int{labels, labels},
		CompetitionConfig{ID: "open", Classes: 2, Metric: "float64-sklearn", Decimals: &dec},
		CompetitionConfig{ID: "limited", Classes: 2, Metric: "float64-sklearn", Decimals: &dec, TotalLimit: 3})
	tok := e.key("attacker")
	ctx := context.Background()
	cl, err := NewClient(ctx, e.hs.URL+"/v1/competitions/open", tok, nil)
	require.NoError(t, err)
	assert.Equal(t, n, cl.N())
	assert.Equal(t, 2, cl.K())
	m, err := scorer.ParseModel("float64-sklearn")
	require.NoError(t, err)
	m.Decimals = cl.Decimals()

	res, err := decode.AttackMulti(context.Background(), cl, decode.MultiOptions{Model: m, Check: true})
	require.NoError(t, err)
	assert.True(t, res.Verified)
	assert.Equal(t, labels, res.Labels)

	sim, err := oracle.NewSim(m, labels, 2)
	require.NoError(t, err)
	want, err := decode.AttackMulti(context.Background(), sim, decode.MultiOptions{Model: m, Check: true})
	require.NoError(t, err)
	assert.Equal(t, want.Queries, res.Queries, "queries over HTTP and against the simulated scorer")
	assert.Equal(t, res.Queries, cl.Queries())
	assert.Equal(t, res.Queries, e.count("open"))
	t.Logf("N=%d: %d queries over HTTP, %d against the simulated scorer", n, res.Queries, want.Queries)

	// Three submissions allowed: the attack stops at the fourth with a
	// LimitError and keeps the blocks it decoded.
	cl2, err := NewClient(ctx, e.hs.URL+"/v1/competitions/limited", tok, nil)
	require.NoError(t, err)
	part, err := decode.AttackMulti(context.Background(), cl2, decode.MultiOptions{Model: m, Check: true})
	var le *LimitError
	require.True(t, errors.As(err, &le), "err = %v", err)
	assert.Equal(t, "budget_total", le.Reason)
	require.NotNil(t, part)
	known := 0
	for i, y := range part.Labels {
		if y >= 0 {
			known++
			assert.Equal(t, labels[i], y)
		}
	}
	assert.Positive(t, known)
	assert.False(t, part.Verified)
	assert.Equal(t, 3, e.count("limited"))

	// A private split keeps rows secret: no attack client.
	e2 := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "split", Classes: 2, Metric: "float64-sklearn", PublicFraction: 0.5})
	_, err = NewClient(ctx, e2.hs.URL+"/v1/competitions/split", tok, nil)
	assert.ErrorContains(t, err, "public rows")
}

// TestClientRetriesWithIdempotencyKey: when a submission's answer is a
// 503 outcome_unknown (here the server stored it and the answer was
// replaced on the way back), the client sends it again with the same
// Idempotency-Key and gets the stored submission: one charge, one score.
func TestClientRetriesWithIdempotencyKey(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	labels := randLabels(rand.New(rand.NewPCG(9, 9)), 50, 2)
	dec := 5
	e := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn", Decimals: &dec})
	tok := e.key("alice")
	var mu sync.Mutex
	var keys []string
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "POST" {
			e.srv.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		first := len(keys) == 1
		mu.Unlock()
		if first {
			rec := httptest.NewRecorder()
			e.srv.ServeHTTP(rec, r)
			require.Equal(t, http.StatusCreated, rec.Code)
			writeError(w, &apiError{Status: http.StatusServiceUnavailable, Reason: "outcome_unknown", Message: "lost"})
			return
		}
		e.srv.ServeHTTP(w, r)
	}))
	defer front.Close()
	cl, err := NewClient(context.Background(), front.URL+"/v1/competitions/c", tok, nil)
	require.NoError(t, err)
	p := make([]float64, 50)
	for i := range p {
		p[i] = 0.5
	}
	s, err := cl.Score(context.Background(), &scorer.Pred{K: 2, P: p})
	require.NoError(t, err)
	require.Len(t, keys, 2)
	assert.NotEmpty(t, keys[0])
	assert.Equal(t, keys[0], keys[1], "the retry carries the same Idempotency-Key")
	assert.Equal(t, 1, e.count("c"), "one charge")
	assert.Equal(t, "0.69315", s.FloatString(5))
	// A new submission gets a new key.
	_, err = cl.Score(context.Background(), &scorer.Pred{K: 2, P: p})
	require.NoError(t, err)
	assert.NotEqual(t, keys[0], keys[2])
	assert.Equal(t, 2, e.count("c"))
}
