package serve

// Every rejection of the API is {"error": {"reason", "message"}} JSON
// with its status, including those net/http or its helpers would answer
// in their own way (cross-origin form posts, huge headers, paths with
// "." or ".." segments); bodies that spreadsheet programs and other
// clients send (a UTF-8 byte-order mark, a UTF-16 charset); an empty
// leaderboard.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requireJSONError checks a rejection's status, JSON body and reason.
func requireJSONError(t *testing.T, status int, reason string, gotStatus int, h http.Header, body []byte) {
	t.Helper()
	require.Equal(t, status, gotStatus, "%s", body)
	assert.True(t, strings.HasPrefix(h.Get("Content-Type"), "application/json"), "Content-Type %q", h.Get("Content-Type"))
	var e struct {
		Error struct{ Reason, Message string }
	}
	require.NoError(t, json.Unmarshal(body, &e), "%s", body)
	assert.Equal(t, reason, e.Error.Reason)
	assert.NotEmpty(t, e.Error.Message)
	assert.Empty(t, h.Get("Location"))
}

// rawRequest sends request line and headers as written and reads the
// answer: Go's client would clean some of these paths itself.
func rawRequest(t *testing.T, addr, text string) (*http.Response, []byte) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer c.Close()
	_, err = io.WriteString(c, text)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, b
}

func TestErrorsAreJSON(t *testing.T) {
	e := newEnv(t, [][]int{{0, 1, 1}}, CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn"})
	addr := strings.TrimPrefix(e.hs.URL, "http://")

	t.Run("paths with dot segments", func(t *testing.T) {
		for _, p := range []string{
			"/v1/competitions/../healthz", "/v1/competitions/c/../c", "/v1/./competitions",
			"/v1//competitions", "/v1/competitions/%2e%2e/competitions", "//", "/v1/competitions/c/..",
		} {
			resp, b := rawRequest(t, addr, "GET "+p+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			requireJSONError(t, 404, "not_found", resp.StatusCode, resp.Header, b)
		}
		// Canonical paths are served as before.
		resp, b := rawRequest(t, addr, "GET /v1/competitions/c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		assert.Equal(t, 200, resp.StatusCode, "%s", b)
		resp, b = rawRequest(t, addr, "GET /v1/competitions/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		requireJSONError(t, 404, "not_found", resp.StatusCode, resp.Header, b)
	})

	t.Run("431 for huge headers", func(t *testing.T) {
		big := strings.Repeat("a", 100<<10)
		resp, b := rawRequest(t, addr, "GET /v1/competitions HTTP/1.1\r\nHost: x\r\nX-Big: "+big+"\r\nConnection: close\r\n\r\n")
		requireJSONError(t, 431, "header_too_large", resp.StatusCode, resp.Header, b)
		// Just under the limit is served.
		resp, b = rawRequest(t, addr, "GET /v1/competitions HTTP/1.1\r\nHost: x\r\nX-Big: "+big[:60<<10]+"\r\nConnection: close\r\n\r\n")
		assert.Equal(t, 200, resp.StatusCode, "%.200s", b)
	})

	t.Run("cross-origin form post", func(t *testing.T) {
		req, err := http.NewRequest("POST", e.hs.URL+"/competitions/c/submit", strings.NewReader(url.Values{"key": {"x"}}.Encode()))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		a := e.do(req)
		requireJSONError(t, 403, "cross_origin", a.Status, a.Header, []byte(a.Raw))
	})

	t.Run("method and route", func(t *testing.T) {
		a := e.do(must(http.NewRequest("DELETE", e.hs.URL+"/v1/competitions/c", nil)))
		requireJSONError(t, 405, "method", a.Status, a.Header, []byte(a.Raw))
		a = e.get("/nowhere")
		requireJSONError(t, 404, "not_found", a.Status, a.Header, []byte(a.Raw))
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestBodyEncodings(t *testing.T) {
	e := newEnv(t, [][]int{{0, 1, 1}}, CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn"})
	tok := e.key("alice")
	const path = "/v1/competitions/c/submissions"
	csv := "id,prediction\n0,0.2\n1,0.9\n2,0.7\n"

	// A CSV with a UTF-8 byte-order mark ("CSV UTF-8") is accepted, and
	// scores as the same file without it.
	a := e.post(path, tok, "text/csv", []byte("\xef\xbb\xbf"+csv))
	require.Equal(t, 201, a.Status, a.Raw)
	b := e.post(path, tok, "text/csv; charset=utf-8", []byte(csv))
	require.Equal(t, 201, b.Status, b.Raw)
	assert.Equal(t, jsonNumber(t, a.Raw, "score"), jsonNumber(t, b.Raw, "score"))

	// A non-UTF-8 charset is refused (415), whatever the body, and so is
	// a UTF-16 body's BOM as garbage.
	for _, ct := range []string{"text/csv; charset=utf-16", "application/json; charset=UTF-16LE", "text/csv; charset=iso-8859-1"} {
		a := e.post(path, tok, ct, []byte(csv))
		requireJSONError(t, 415, "charset", a.Status, a.Header, []byte(a.Raw))
		assert.Contains(t, a.Raw, "UTF-8")
	}
	a = e.post(path, tok, "application/json; charset=us-ascii", predJSON([]float64{.5, .5, .5}))
	assert.Equal(t, 201, a.Status, a.Raw)
	assert.Equal(t, 3, e.count("c"))
}

func TestEmptyLeaderboard(t *testing.T) {
	e := newEnv(t, [][]int{{0, 1, 1}}, CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn"})
	a := e.get("/v1/competitions/c/leaderboard")
	require.Equal(t, 200, a.Status)
	assert.Contains(t, a.Raw, `"public":[]`)
	assert.NotContains(t, a.Raw, "null")
}

// TestCommandHeaderLimits: labelinf serve's http.Server lets headers up
// to 1 MiB through, so that the server answers its own JSON 431 above
// 64 KiB; beyond 1 MiB net/http refuses them itself (plain text, as
// documented).
func TestCommandHeaderLimits(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "l.txt"), []byte("0\n1\n"), 0o644))
	cfg := filepath.Join(dir, "c.json")
	require.NoError(t, os.WriteFile(cfg, []byte(`{"competitions":[{"id":"x","labels":"l.txt","classes":2,"metric":"accuracy"}]}`), 0o644))
	ctx, cancel := context.WithCancel(context.Background())
	addrFile := filepath.Join(dir, "addr")
	done := make(chan error, 1)
	go func() {
		done <- Command(ctx, []string{"-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile}, io.Discard, io.Discard)
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
	get := func(header int) (*http.Response, []byte) {
		return rawRequest(t, string(addr), "GET /v1/competitions HTTP/1.1\r\nHost: x\r\nX-Big: "+strings.Repeat("a", header)+"\r\nConnection: close\r\n\r\n")
	}
	resp, b := get(900 << 10)
	requireJSONError(t, 431, "header_too_large", resp.StatusCode, resp.Header, b)
	resp, _ = get(2 << 20)
	assert.Equal(t, 431, resp.StatusCode)
	resp, b = get(1 << 10)
	assert.Equal(t, 200, resp.StatusCode, "%s", b)
}

// TestHealthzErrorShape: a failing health check answers 503 with the
// error shape of the API beside its status.
func TestHealthzErrorShape(t *testing.T) {
	e := newEnv(t, [][]int{{0, 1}}, CompetitionConfig{ID: "b", Classes: 2, Metric: "accuracy"})
	require.NoError(t, e.st.Close())
	a := e.get("/healthz")
	requireJSONError(t, 503, "unavailable", a.Status, a.Header, []byte(a.Raw))
	assert.Equal(t, "database unavailable", a.Body["status"])
}
