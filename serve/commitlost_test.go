package serve

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commitCutter is a TCP proxy to PostgreSQL's Unix socket that, when
// armed, cuts the connection that sends a COMMIT: before forwarding it
// (the server rolls back) or just after (the server commits, the answer
// is lost). While blocked it refuses new connections, as a database that
// is down does.
type commitCutter struct {
	ln      net.Listener
	sock    string
	mode    atomic.Value // "", "before", "after", "after-block" (then blocked)
	blocked atomic.Bool
	cut     atomic.Int32
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   map[net.Conn]bool // every live connection, both sides
}

func (c *commitCutter) track(cs ...net.Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range cs {
		c.conns[x] = true
	}
}

// closeAll cuts every live connection, as a database going down does.
func (c *commitCutter) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for x := range c.conns {
		x.Close()
		delete(c.conns, x)
	}
}

func newCommitCutter(t *testing.T, dsn string) (*commitCutter, string) {
	var dir string
	var rest []string
	for _, f := range strings.Fields(dsn) {
		if h, ok := strings.CutPrefix(f, "host="); ok {
			dir = h
			continue
		}
		rest = append(rest, f)
	}
	if dir == "" || !strings.HasPrefix(dir, "/") {
		t.Skip("the commit cutter needs PostgreSQL on a Unix socket (the test's own server)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	c := &commitCutter{ln: ln, sock: filepath.Join(dir, ".s.PGSQL.5432"), conns: map[net.Conn]bool{}}
	c.mode.Store("")
	go c.serve()
	t.Cleanup(func() { ln.Close(); c.wg.Wait() })
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	return c, strings.Join(append(rest, "host="+host, "port="+port), " ")
}

func (c *commitCutter) serve() {
	for {
		cl, err := c.ln.Accept()
		if err != nil {
			return
		}
		if c.blocked.Load() {
			cl.Close()
			continue
		}
		srv, err := net.Dial("unix", c.sock)
		if err != nil {
			cl.Close()
			continue
		}
		c.track(cl, srv)
		var mute atomic.Bool // the server's answers are lost from the cut on
		c.wg.Add(2)
		go func() {
			defer c.wg.Done()
			defer cl.Close()
			buf := make([]byte, 64<<10)
			for {
				n, err := srv.Read(buf)
				if n > 0 && !mute.Load() {
					if _, err := cl.Write(buf[:n]); err != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
		go func() {
			defer c.wg.Done()
			defer srv.Close()
			defer cl.Close()
			buf := make([]byte, 64<<10)
			for {
				n, err := cl.Read(buf)
				if n > 0 {
					mode := c.mode.Load().(string)
					if mode != "" && bytes.Contains(bytes.ToLower(buf[:n]), []byte("commit")) {
						c.mode.Store("")
						c.cut.Add(1)
						if mode == "after-block" {
							c.blocked.Store(true)
						}
						mute.Store(true)
						if mode != "before" {
							srv.Write(buf[:n])
							time.Sleep(300 * time.Millisecond) // the server commits
						}
						if mode == "after-block" {
							c.closeAll()
						}
						return
					}
					if _, err := srv.Write(buf[:n]); err != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
}

// TestCommitAnswerLost: the connection to PostgreSQL is cut during a
// submission's COMMIT. Cut after the server committed, the server looks
// the submission up and answers 201 with it; cut before, the server
// rolled back and the answer is 503 unavailable with nothing stored; cut
// after the commit with the database unreachable until the lookup gives
// up, the answer is 503 outcome_unknown, and the retry with the same
// Idempotency-Key answers the stored submission. No answer contradicts
// the database.
func TestCommitAnswerLost(t *testing.T) {
	direct := newPostgresDB(t)
	cut, dsn := newCommitCutter(t, direct)
	judge, err := OpenPostgres(context.Background(), direct) // the database, not through the proxy
	require.NoError(t, err)
	t.Cleanup(func() { judge.Close() })
	old := commitLookup
	commitLookup = 1500 * time.Millisecond
	t.Cleanup(func() { commitLookup = old })
	st, err := OpenPostgres(context.Background(), dsn)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	labels := randLabels(rand.New(rand.NewPCG(3, 27)), 200, 2)
	c, err := NewCompetition(CompetitionConfig{ID: "c", Classes: 2, Metric: "float64-sklearn", PublicFraction: 1, Labels: writeLabels(t, labels)}, nil)
	require.NoError(t, err)
	srv, err := NewServer(Options{Store: st, Competitions: []*Competition{c}})
	require.NoError(t, err)
	k, tok, err := NewKey("ann", time.Now())
	require.NoError(t, err)
	require.NoError(t, st.AddKey(context.Background(), k))
	p := make([]float64, 200)
	for i := range p {
		p[i] = 0.5
	}
	post := func(idem string) (int, string) {
		req, _ := http.NewRequest("POST", "/v1/competitions/c/submissions", bytes.NewReader(predJSON(p)))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", idem)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	stored := func() int {
		subs, err := judge.Submissions(context.Background(), "c")
		require.NoError(t, err)
		return len(subs)
	}

	cut.mode.Store("after")
	code, body := post("k1")
	require.Equal(t, int32(1), cut.cut.Load(), "the COMMIT was not cut")
	assert.Equal(t, http.StatusCreated, code, body)
	assert.Equal(t, 1, stored(), "committed before the cut: stored and answered 201")

	flush := func() {
		// A connection the cut left behind fails the next request that
		// draws it (answered 503, nothing stored): flush it out first.
		for range 4 {
			st.Ping(context.Background())
		}
	}
	flush()
	cut.mode.Store("before")
	code, body = post("k2")
	require.Equal(t, int32(2), cut.cut.Load(), "%d %s", code, body)
	assert.Equal(t, http.StatusServiceUnavailable, code, body)
	assert.Contains(t, body, `"unavailable"`)
	assert.Equal(t, 1, stored(), "cut before the COMMIT: nothing stored, and the answer says so")

	flush()
	cut.mode.Store("after-block")
	go func() {
		for cut.cut.Load() < 3 {
			time.Sleep(10 * time.Millisecond)
		}
		// Refuse new connections until the lookup has given up.
		time.Sleep(2 * commitLookup)
		cut.blocked.Store(false)
	}()
	code, body = post("k3")
	require.Equal(t, int32(3), cut.cut.Load(), "%d %s", code, body)
	assert.Equal(t, http.StatusServiceUnavailable, code, body)
	assert.Contains(t, body, `"outcome_unknown"`)
	for cut.blocked.Load() {
		time.Sleep(50 * time.Millisecond)
	}
	assert.Equal(t, 2, stored(), "the commit went through")
	flush()
	code, body = post("k3")
	assert.Equal(t, http.StatusCreated, code, body)
	assert.Equal(t, 2, stored(), "the retry with its key answers the stored submission")
}
