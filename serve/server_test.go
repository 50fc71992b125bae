package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testClock is a settable clock.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// env is a server on 127.0.0.1 (an ephemeral port) over a fresh SQLite
// database.
type env struct {
	t      testing.TB
	srv    *Server
	hs     *httptest.Server
	st     Store
	clock  *testClock
	comps  map[string]*Competition
	labels map[string][]int
}

// writeLabels writes labels to a temporary file and returns its path.
func writeLabels(t testing.TB, labels []int) string {
	var b strings.Builder
	for _, y := range labels {
		fmt.Fprintln(&b, y)
	}
	p := filepath.Join(t.TempDir(), "labels.txt")
	require.NoError(t, os.WriteFile(p, []byte(b.String()), 0o644))
	return p
}

func randLabels(r *rand.Rand, n, k int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = r.IntN(k)
	}
	return out
}

// newEnv starts a server with one competition per config; each config's
// Labels field is ignored and labels[i] used instead.
func newEnv(t testing.TB, labels [][]int, ccs ...CompetitionConfig) *env {
	t.Helper()
	return newEnvOpts(t, Options{RejectBurst: 1000, RejectRate: 1000, MaxBodyBytes: 1 << 20}, labels, ccs...)
}

// newEnvOpts is newEnv with the server's options o (Store, Competitions
// and Now are set here).
func newEnvOpts(t testing.TB, o Options, labels [][]int, ccs ...CompetitionConfig) *env {
	t.Helper()
	e, err := newEnvOptsDB(t, o, filepath.Join(t.TempDir(), "serve.db"), labels, ccs...)
	require.NoError(t, err)
	return e
}

// newEnvDB is newEnv on the SQLite database at path; it returns
// NewServer's error.
func newEnvDB(t testing.TB, path string, labels [][]int, ccs ...CompetitionConfig) (*env, error) {
	return newEnvOptsDB(t, Options{RejectBurst: 1000, RejectRate: 1000, MaxBodyBytes: 1 << 20}, path, labels, ccs...)
}

func newEnvOptsDB(t testing.TB, o Options, path string, labels [][]int, ccs ...CompetitionConfig) (*env, error) {
	t.Helper()
	st, err := OpenSQLite(context.Background(), path)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, st: st, clock: &testClock{t: time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)}, comps: map[string]*Competition{}, labels: map[string][]int{}}
	var comps []*Competition
	for i, cc := range ccs {
		cc.Labels = writeLabels(t, labels[i])
		if cc.PublicFraction == 0 {
			cc.PublicFraction = 1
		}
		c, err := NewCompetition(cc, nil)
		require.NoError(t, err)
		comps = append(comps, c)
		e.comps[c.ID] = c
		e.labels[c.ID] = labels[i]
	}
	o.Store, o.Competitions, o.Now = st, comps, e.clock.Now
	e.srv, err = NewServer(o)
	if err != nil {
		return nil, err
	}
	e.hs = httptest.NewServer(e.srv)
	t.Cleanup(e.hs.Close)
	return e, nil
}

func (e *env) key(name string) string {
	k, tok, err := NewKey(name, e.clock.Now())
	require.NoError(e.t, err)
	require.NoError(e.t, e.st.AddKey(context.Background(), k))
	return tok
}

type answer struct {
	Status int
	Body   map[string]any
	Raw    string
	Header http.Header
}

func (e *env) post(path, token, ctype string, body []byte, hdr ...string) answer {
	req, err := http.NewRequest("POST", e.hs.URL+path, bytes.NewReader(body))
	require.NoError(e.t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", ctype)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return e.do(req)
}

func (e *env) get(path string) answer {
	req, err := http.NewRequest("GET", e.hs.URL+path, nil)
	require.NoError(e.t, err)
	return e.do(req)
}

func (e *env) do(req *http.Request) answer {
	resp, err := e.hs.Client().Do(req)
	require.NoError(e.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(e.t, err)
	a := answer{Status: resp.StatusCode, Raw: string(raw), Header: resp.Header}
	_ = json.Unmarshal(raw, &a.Body)
	return a
}

func predJSON(p []float64) []byte {
	return (&scorer.Pred{K: 2, P: p}).AppendJSON(nil)
}

func predJSONK(p []float64, k int) []byte {
	return (&scorer.Pred{K: k, P: p}).AppendJSON(nil)
}

func (e *env) count(comp string) int {
	subs, err := e.st.Submissions(context.Background(), comp)
	require.NoError(e.t, err)
	return len(subs)
}

func TestSubmitJSONAndCSV(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	labels := randLabels(r, 200, 2)
	e := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn", PublicFraction: 0.3, SplitSeed: 5})
	tok := e.key("alice")
	c := e.comps["c"]
	p := make([]float64, 200)
	for i := range p {
		p[i] = r.Float64()
	}
	a := e.post("/v1/competitions/c/submissions", tok, "application/json", predJSON(p))
	require.Equal(t, http.StatusCreated, a.Status, a.Raw)

	// The oracle: the model evaluated on the public rows, in file order.
	m, err := scorer.ParseModel("float64-sklearn")
	require.NoError(t, err)
	var pl []int
	var pp []float64
	for _, i := range c.publicRows {
		pl = append(pl, labels[i])
		pp = append(pp, p[i])
	}
	want, err := m.Eval(pl, &scorer.Pred{K: 2, P: pp})
	require.NoError(t, err)
	wf, _ := want.Float64()
	assert.Equal(t, strconv.FormatFloat(wf, 'g', -1, 64), jsonNumber(t, a.Raw, "score"))
	assert.Equal(t, float64(60), a.Body["rows"])

	// The same numbers as CSV, rows shuffled, give the same hash and score.
	e.clock.Add(time.Minute)
	var b strings.Builder
	b.WriteString("id,prediction\n")
	for _, i := range r.Perm(200) {
		fmt.Fprintf(&b, "%d,%s\n", i, strconv.FormatFloat(p[i], 'g', -1, 64))
	}
	a2 := e.post("/v1/competitions/c/submissions", tok, "text/csv", []byte(b.String()))
	require.Equal(t, http.StatusCreated, a2.Status, a2.Raw)
	assert.Equal(t, jsonNumber(t, a.Raw, "score"), jsonNumber(t, a2.Raw, "score"))
	subs, err := e.st.Submissions(context.Background(), "c")
	require.NoError(t, err)
	require.Len(t, subs, 2)
	assert.Equal(t, subs[0].PredHash, subs[1].PredHash)
	assert.Equal(t, predHash(p), subs[0].PredHash)

	// Idempotency-Key: a retry returns the first answer and is free.
	e.clock.Add(time.Minute)
	a3 := e.post("/v1/competitions/c/submissions", tok, "application/json", predJSON(p), "Idempotency-Key", "retry-1")
	require.Equal(t, http.StatusCreated, a3.Status, a3.Raw)
	a4 := e.post("/v1/competitions/c/submissions", tok, "application/json", predJSON(p), "Idempotency-Key", "retry-1")
	// The replay is the first answer, status and body, byte for byte.
	require.Equal(t, http.StatusCreated, a4.Status, a4.Raw)
	assert.Equal(t, a3.Raw, a4.Raw)
	assert.Equal(t, 3, e.count("c"))
	// The same key with another prediction is refused, and not charged.
	q := append([]float64(nil), p...)
	q[0] = 1 - q[0]
	a5 := e.post("/v1/competitions/c/submissions", tok, "application/json", predJSON(q), "Idempotency-Key", "retry-1")
	require.Equal(t, http.StatusUnprocessableEntity, a5.Status, a5.Raw)
	assert.Contains(t, a5.Raw, `"reason":"idempotency_key_reused"`)
	assert.Equal(t, 3, e.count("c"))
	// The same prediction written otherwise (CSV) is the same submission.
	a6 := e.post("/v1/competitions/c/submissions", tok, "text/csv", []byte(b.String()), "Idempotency-Key", "retry-1")
	require.Equal(t, http.StatusCreated, a6.Status, a6.Raw)
	assert.Equal(t, a3.Body["id"], a6.Body["id"])
}

// jsonNumber returns the raw text of a top-level number member.
func jsonNumber(t *testing.T, raw, name string) string {
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(raw), &m))
	return string(m[name])
}

func TestSubmitMulticlass(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	labels := randLabels(r, 50, 4)
	e := newEnv(t, [][]int{labels, labels},
		CompetitionConfig{ID: "ll", Classes: 4, Metric: "float64-sklearn"},
		CompetitionConfig{ID: "acc", Classes: 4, Metric: "accuracy"})
	tok := e.key("alice")
	p := make([]float64, 200)
	for i := range 50 {
		p[i*4+labels[i]] = 1 // a perfect prediction
	}
	a := e.post("/v1/competitions/acc/submissions", tok, "application/json", predJSONK(p, 4))
	require.Equal(t, http.StatusCreated, a.Status, a.Raw)
	assert.Equal(t, "1.00000", jsonNumber(t, a.Raw, "score"))
	a = e.post("/v1/competitions/ll/submissions", tok, "application/json", predJSONK(p, 4))
	require.Equal(t, http.StatusCreated, a.Status, a.Raw)
	// ε = 2^-52 clipping, renormalised: −ln(1/(1+3ε)) ≈ 6.66e-16.
	f, err := strconv.ParseFloat(jsonNumber(t, a.Raw, "score"), 64)
	require.NoError(t, err)
	assert.InDelta(t, 3*math.Pow(2, -52), f, 1e-30)
}

// TestRejections: every bad request is a 4xx with a JSON error naming the
// problem, and nothing is stored or charged.
func TestRejections(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	labels := []int{0, 1, 1, 0}
	e := newEnv(t, [][]int{labels, {0, 1, 2}, labels},
		CompetitionConfig{ID: "b", Classes: 2, Metric: "torch-bce", TotalLimit: 100},
		CompetitionConfig{ID: "k", Classes: 3, Metric: "float32-keras"},
		CompetitionConfig{ID: "closed", Classes: 2, Metric: "accuracy", Closes: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	tok := e.key("alice")
	revoked := e.key("mallory")
	ks, _ := e.st.Keys(context.Background())
	if ks[0].Name != "alice" {
		ks[0], ks[1] = ks[1], ks[0]
	}
	require.NoError(t, e.st.RevokeKey(context.Background(), ks[1].ID, e.clock.Now()))
	big := bytes.Repeat([]byte(" "), 2<<20)
	good := []byte(`{"predictions":[0.1,0.2,0.3,0.4]}`)
	tests := []struct {
		name, path, token, ctype string
		body                     string
		hdr                      []string
		status                   int
		reason                   string
	}{
		{"no key", "b", "", "application/json", string(good), nil, 401, "bad_key"},
		{"wrong key", "b", tok[:len(tok)-1] + "x", "application/json", string(good), nil, 401, "bad_key"},
		{"malformed key", "b", "lik_zz", "application/json", string(good), nil, 401, "bad_key"},
		{"revoked key", "b", revoked, "application/json", string(good), nil, 401, "revoked_key"},
		{"unknown competition", "nope", tok, "application/json", string(good), nil, 404, "unknown_competition"},
		{"closed", "closed", tok, "application/json", string(good), nil, 403, "closed"},
		{"media type", "b", tok, "text/plain", string(good), nil, 415, "media_type"},
		{"gzip", "b", tok, "application/json", string(good), []string{"Content-Encoding", "gzip"}, 415, "encoding"},
		{"too large", "b", tok, "application/json", string(big), nil, 413, "too_large"},
		{"empty", "b", tok, "application/json", "", nil, 400, "malformed"},
		{"NaN", "b", tok, "application/json", `{"predictions":[0.1,NaN,0.3,0.4]}`, nil, 400, "malformed"},
		{"Infinity", "b", tok, "application/json", `{"predictions":[0.1,Infinity,0.3,0.4]}`, nil, 400, "malformed"},
		{"huge", "b", tok, "application/json", `{"predictions":[0.1,1e400,0.3,0.4]}`, nil, 400, "malformed"},
		{"negative", "b", tok, "application/json", `{"predictions":[0.1,-0.2,0.3,0.4]}`, nil, 422, "invalid_prediction"},
		{"above one", "b", tok, "application/json", `{"predictions":[0.1,1.5,0.3,0.4]}`, nil, 422, "invalid_prediction"},
		{"short", "b", tok, "application/json", `{"predictions":[0.1,0.2,0.3]}`, nil, 400, "malformed"},
		{"long", "b", tok, "application/json", `{"predictions":[0.1,0.2,0.3,0.4,0.5]}`, nil, 400, "malformed"},
		{"string value", "b", tok, "application/json", `{"predictions":[0.1,"0.2",0.3,0.4]}`, nil, 400, "malformed"},
		{"trailing", "b", tok, "application/json", string(good) + "x", nil, 400, "malformed"},
		{"other member", "b", tok, "application/json", `{"preds":[0.1,0.2,0.3,0.4]}`, nil, 400, "malformed"},
		{"plus sign", "b", tok, "application/json", `{"predictions":[+0.1,0.2,0.3,0.4]}`, nil, 400, "malformed"},
		{"leading zero", "b", tok, "application/json", `{"predictions":[00.1,0.2,0.3,0.4]}`, nil, 400, "malformed"},
		{"rows as scalars", "k", tok, "application/json", `{"predictions":[0.1,0.2,0.3]}`, nil, 400, "malformed"},
		{"row too short", "k", tok, "application/json", `{"predictions":[[0.5,0.5],[0.2,0.3,0.5],[1,0,0]]}`, nil, 400, "malformed"},
		{"row sum", "k", tok, "application/json", `{"predictions":[[0.5,0.6,0],[0.2,0.3,0.5],[1,0,0]]}`, nil, 422, "invalid_prediction"},
		{"csv header", "b", tok, "text/csv", "row,p\n0,0.1\n1,0.1\n2,0.1\n3,0.1\n", nil, 400, "malformed"},
		{"csv duplicate", "b", tok, "text/csv", "id,p\n0,0.1\n0,0.1\n2,0.1\n3,0.1\n", nil, 400, "malformed"},
		{"csv missing", "b", tok, "text/csv", "id,p\n0,0.1\n1,0.1\n2,0.1\n", nil, 400, "malformed"},
		{"csv columns", "b", tok, "text/csv", "id,p\n0,0.1,3\n1,0.1\n2,0.1\n3,0.1\n", nil, 400, "malformed"},
		{"csv nan", "b", tok, "text/csv", "id,p\n0,nan\n1,0.1\n2,0.1\n3,0.1\n", nil, 400, "malformed"},
		{"csv id range", "b", tok, "text/csv", "id,p\n0,0.1\n1,0.1\n2,0.1\n4,0.1\n", nil, 400, "malformed"},
		{"idempotency key too long", "b", tok, "application/json", string(good), []string{"Idempotency-Key", strings.Repeat("x", 200)}, 400, "bad_idempotency_key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := e.post("/v1/competitions/"+tt.path+"/submissions", tt.token, tt.ctype, []byte(tt.body), tt.hdr...)
			assert.Equal(t, tt.status, a.Status, a.Raw)
			errObj, _ := a.Body["error"].(map[string]any)
			require.NotNil(t, errObj, "no JSON error: %s", a.Raw)
			assert.Equal(t, tt.reason, errObj["reason"], a.Raw)
			assert.NotEmpty(t, errObj["message"])
		})
	}
	for _, c := range []string{"b", "k", "closed"} {
		assert.Equal(t, 0, e.count(c), "rejected submissions stored in %s", c)
	}
	u, err := e.st.Usage(context.Background(), ks[0].ID, "b", e.clock.Now())
	require.NoError(t, err)
	assert.Equal(t, 0, u.Total, "rejections charged")
	// And a good one goes through.
	a := e.post("/v1/competitions/b/submissions", tok, "application/json", good)
	assert.Equal(t, http.StatusCreated, a.Status, a.Raw)
}

// TestRejectionRateLimit: rejected requests, failed key attempts included,
// take tokens; at zero the client is refused before any work.
func TestRejectionRateLimit(t *testing.T) {
	e := newEnv(t, [][]int{{0, 1}}, CompetitionConfig{ID: "b", Classes: 2, Metric: "float64-sklearn"})
	e.srv.limits = newRejectLimiter(0.001, 3)
	tok := e.key("alice")
	for range 3 {
		a := e.post("/v1/competitions/b/submissions", "lik_guess", "application/json", []byte(`{"predictions":[0.5,0.5]}`))
		require.Equal(t, 401, a.Status)
	}
	a := e.post("/v1/competitions/b/submissions", "lik_guess", "application/json", []byte(`{"predictions":[0.5,0.5]}`))
	assert.Equal(t, 429, a.Status, a.Raw)
	assert.Equal(t, "rate_limited", a.Body["error"].(map[string]any)["reason"])
	assert.NotEmpty(t, a.Header.Get("Retry-After"))
	// A valid key from that address is not limited by it: requests
	// without a valid key are limited per address, those with one per key
	// (limiter_test.go).
	a = e.post("/v1/competitions/b/submissions", tok, "application/json", []byte(`{"predictions":[0.5,0.5]}`))
	assert.Equal(t, 201, a.Status, a.Raw)
	assert.Equal(t, 1, e.count("b"))
}

// TestNoFreeLabelLeak: with clipping off, a prediction of exactly 0 gives
// an infinite loss only where the label is 1. Both cases must answer the
// same status, charged; and once the budget is spent, both must get the
// same refusal without being scored.
func TestNoFreeLabelLeak(t *testing.T) {
	labels := []int{1, 0, 1, 0, 1, 0, 1, 0}
	e := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn", Clip: "none", TotalLimit: 2})
	tok := e.key("alice")
	probe := func(row int) []byte {
		p := []float64{.5, .5, .5, .5, .5, .5, .5, .5}
		p[row] = 0 // label 1 at even rows: log(0) there
		return predJSON(p)
	}
	a1 := e.post("/v1/competitions/c/submissions", tok, "application/json", probe(0))
	a2 := e.post("/v1/competitions/c/submissions", tok, "application/json", probe(1))
	assert.Equal(t, http.StatusCreated, a1.Status, a1.Raw)
	assert.Equal(t, http.StatusCreated, a2.Status, a2.Raw)
	assert.Equal(t, true, a1.Body["infinite"], "label 1 under p = 0")
	assert.Nil(t, a2.Body["infinite"])
	assert.Equal(t, float64(1), a1.Body["used"])
	assert.Equal(t, float64(2), a2.Body["used"])
	// Budget spent: the same refusal for both probes, status and text.
	b1 := e.post("/v1/competitions/c/submissions", tok, "application/json", probe(2))
	b2 := e.post("/v1/competitions/c/submissions", tok, "application/json", probe(3))
	assert.Equal(t, 429, b1.Status)
	assert.Equal(t, b1.Status, b2.Status)
	assert.Equal(t, b1.Raw, b2.Raw)
	assert.Equal(t, 2, e.count("c"))
	// The team's best entry is the finite one.
	lb := e.get("/v1/competitions/c/leaderboard")
	assert.NotContains(t, lb.Raw, `"score":"inf"`)
	assert.Contains(t, lb.Raw, `"submissions":2`)
}

func TestPrivateBoardAfterClose(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	labels := randLabels(r, 100, 2)
	closes := time.Date(2026, 6, 2, 0, 0, 0, 0, time.UTC)
	e := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "c", Classes: 2, Metric: "roc-auc", PublicFraction: 0.4, SplitSeed: 9, Closes: closes})
	alice, bob := e.key("alice"), e.key("bob")
	pa := make([]float64, 100)
	pb := make([]float64, 100)
	for i := range pa {
		pa[i] = float64(labels[i])*0.6 + 0.4*r.Float64()
		pb[i] = r.Float64()
	}
	require.Equal(t, 201, e.post("/v1/competitions/c/submissions", alice, "application/json", predJSON(pa)).Status)
	require.Equal(t, 201, e.post("/v1/competitions/c/submissions", bob, "application/json", predJSON(pb)).Status)
	lb := e.get("/v1/competitions/c/leaderboard")
	require.Equal(t, 200, lb.Status)
	assert.Nil(t, lb.Body["private"])
	pub := lb.Body["public"].([]any)
	require.Len(t, pub, 2)
	assert.Equal(t, "alice", pub[0].(map[string]any)["team"])
	assert.Equal(t, "1.00000", pub[0].(map[string]any)["score"]) // alice separates the classes perfectly

	e.clock.Add(13 * time.Hour)
	a := e.post("/v1/competitions/c/submissions", alice, "application/json", predJSON(pa))
	assert.Equal(t, 403, a.Status)
	lb = e.get("/v1/competitions/c/leaderboard")
	assert.Equal(t, true, lb.Body["closed"])
	priv := lb.Body["private"].([]any)
	require.Len(t, priv, 2)
	assert.Equal(t, "alice", priv[0].(map[string]any)["team"])
	assert.Equal(t, "1.00000", priv[0].(map[string]any)["score"])
	// The private AUC of bob's random prediction is the exact Mann–Whitney
	// statistic on the private rows.
	c := e.comps["c"]
	var pl []int
	var pp []float64
	for _, i := range c.privateRows {
		pl = append(pl, labels[i])
		pp = append(pp, pb[i])
	}
	aucm, err := metric.Parse(metric.AUC, "")
	require.NoError(t, err)
	assert.Equal(t, roundDecimal(aucm.Score(pl, pp, 2).R, 5).FloatString(5), priv[1].(map[string]any)["score"])
}

func TestRoundDecimal(t *testing.T) {
	tests := []struct {
		in, want string
		d        int
	}{
		{"0.125", "0.12", 2}, {"0.135", "0.14", 2}, {"0.1251", "0.13", 2},
		{"-0.125", "-0.12", 2}, {"-0.135", "-0.14", 2}, {"2.5", "2", 0}, {"3.5", "4", 0},
		{"0.69314718055994530942", "0.69315", 5},
	}
	for _, tt := range tests {
		x, _ := new(big.Rat).SetString(tt.in)
		assert.Equal(t, tt.want, roundDecimal(x, tt.d).FloatString(tt.d), "roundDecimal(%s, %d)", tt.in, tt.d)
	}
}

func TestHealthzAndMetrics(t *testing.T) {
	e := newEnv(t, [][]int{{0, 1}}, CompetitionConfig{ID: "b", Classes: 2, Metric: "float64-sklearn"})
	a := e.get("/healthz")
	assert.Equal(t, 200, a.Status)
	assert.Equal(t, "ok", a.Body["status"])
	e.post("/v1/competitions/b/submissions", "bad", "application/json", []byte("{}"))
	a = e.get("/metrics")
	assert.Equal(t, 200, a.Status)
	assert.Contains(t, a.Raw, `labelinf_rejections_total{reason="bad_key"} 1`)
	assert.Contains(t, a.Raw, `labelinf_http_requests_total{code="401",route="POST /v1/competitions/{id}/submissions"} 1`)
	assert.Contains(t, a.Raw, `labelinf_http_request_duration_seconds_bucket{route="GET /healthz"`)
	a = e.get("/no/such/route")
	assert.Equal(t, 404, a.Status)
	a = e.get("/v1/competitions/b/submissions")
	assert.Equal(t, 405, a.Status, a.Raw)
	assert.Equal(t, "POST", a.Header.Get("Allow"))
	assert.Equal(t, "method", a.Body["error"].(map[string]any)["reason"])
	a = e.get("/v1/competitions")
	assert.Equal(t, 200, a.Status)
	assert.Contains(t, a.Raw, `"metric":"float64-sklearn"`)
}

// TestWebForm: the page renders; a POST without the CSRF token (or from
// another origin) is refused and stores nothing; the form's own token
// goes through and the new row appears.
func TestWebForm(t *testing.T) {
	e := newEnv(t, [][]int{{0, 1, 1}}, CompetitionConfig{ID: "c", Title: "Web <test>", Classes: 2, Metric: "leaderboard"})
	tok := e.key("team <b>web</b>")
	jar, _ := cookiejar.New(nil)
	cl := e.hs.Client()
	cl.Jar = jar
	resp, err := cl.Get(e.hs.URL + "/competitions/c")
	require.NoError(t, err)
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, string(page), "Web &lt;test&gt;")
	csrf := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(string(page))
	require.Len(t, csrf, 2)

	idemRE := regexp.MustCompile(`name="idempotency_key" value="(web-[0-9a-f]+)"`)
	idem := idemRE.FindStringSubmatch(string(page))
	require.Len(t, idem, 2, "the form carries an Idempotency-Key")
	form := func(token string) (*bytes.Buffer, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("csrf", token)
		mw.WriteField("idempotency_key", idem[1])
		mw.WriteField("key", tok)
		fw, _ := mw.CreateFormFile("file", "sub.csv")
		fw.Write([]byte("id,prediction\n0,0.2\n1,0.9\n2,0.7\n"))
		mw.Close()
		return &b, mw.FormDataContentType()
	}
	body, ct := form("0000")
	resp, err = cl.Post(e.hs.URL+"/competitions/c/submit", ct, body)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 403, resp.StatusCode)
	body, ct = form(csrf[1])
	req, _ := http.NewRequest("POST", e.hs.URL+"/competitions/c/submit", body)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err = cl.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, 403, resp.StatusCode, "cross-site POST")
	assert.Equal(t, 0, e.count("c"))

	body, ct = form(csrf[1])
	resp, err = cl.Post(e.hs.URL+"/competitions/c/submit", ct, body)
	require.NoError(t, err)
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, string(page)) // after the 303
	assert.Contains(t, string(page), `id="message"`)
	assert.Contains(t, string(page), "team &lt;b&gt;web&lt;/b&gt;")
	assert.Equal(t, 1, e.count("c"))
	first := regexp.MustCompile(`Submission (\S+) scored`).FindStringSubmatch(string(page))
	require.Len(t, first, 2)
	next := idemRE.FindStringSubmatch(string(page))
	require.Len(t, next, 2)
	assert.NotEqual(t, idem[1], next[1], "each page draws a new key")

	// The same form sent again (a double click, a resend after a lost
	// answer) returns the first submission and is not charged again.
	body, ct = form(csrf[1])
	resp, err = cl.Post(e.hs.URL+"/competitions/c/submit", ct, body)
	require.NoError(t, err)
	page, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, 200, resp.StatusCode, string(page))
	assert.Contains(t, string(page), "Submission "+first[1]+" scored")
	assert.Equal(t, 1, e.count("c"), "a resent form is stored once")
}

func TestCommandKeysAndServe(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "l.txt"), []byte("0\n1\n1\n0\n"), 0o644))
	cfg := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"competitions":[{"id":"x","labels":"l.txt","classes":2,"metric":"float64-sklearn","decimals":4}]}`), 0o644))
	ctx := context.Background()
	var out, errb bytes.Buffer
	require.NoError(t, Command(ctx, []string{"keys", "add", "-config", cfg, "-name", "alice"}, &out, &errb))
	token := strings.TrimSpace(out.String())
	assert.Regexp(t, `^lik_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$`, token)
	out.Reset()
	require.NoError(t, Command(ctx, []string{"keys", "list", "-config", cfg}, &out, &errb))
	assert.Contains(t, out.String(), "alice")
	assert.NotContains(t, out.String(), token[21:], "list shows the secret")
	var ue *UsageError
	assert.ErrorAs(t, Command(ctx, []string{"keys", "frob", "-config", cfg}, &out, &errb), &ue)
	assert.ErrorAs(t, Command(ctx, []string{"-listen"}, &out, &errb), &ue)

	sctx, cancel := context.WithCancel(ctx)
	addrFile := filepath.Join(dir, "addr")
	done := make(chan error, 1)
	go func() {
		done <- Command(sctx, []string{"-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile}, io.Discard, io.Discard)
	}()
	var addr []byte
	for range 200 {
		if addr, _ = os.ReadFile(addrFile); len(addr) > 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NotEmpty(t, addr)
	req, _ := http.NewRequest("POST", "http://"+string(addr)+"/v1/competitions/x/submissions", strings.NewReader(`{"predictions":[0.5,0.5,0.5,0.5]}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, 201, resp.StatusCode, string(b))
	assert.Contains(t, string(b), `"score":0.6931`)

	id := strings.Split(token, "_")[1]
	cancel()
	require.NoError(t, <-done)
	require.NoError(t, Command(ctx, []string{"keys", "revoke", "-config", cfg, id}, &out, &errb))
	out.Reset()
	require.NoError(t, Command(ctx, []string{"keys", "list", "-config", cfg}, &out, &errb))
	assert.NotContains(t, out.String(), "\t-\n")
}
