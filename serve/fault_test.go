package serve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serverProcess is labelinf serve running as a child process (this test
// binary in helper mode, see TestMain).
type serverProcess struct {
	cmd    *exec.Cmd
	addr   string
	log    *syncWriter
	exited chan struct{} // startServerArgs: closed when the process has exited
}

func startServerProcess(t *testing.T, cfg string) *serverProcess {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LABELINF_SERVE_HELPER=1",
		"LABELINF_SERVE_ARGS="+strings.Join([]string{"-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile}, "\n"))
	log := &syncWriter{b: new(strings.Builder)}
	cmd.Stderr = log
	require.NoError(t, cmd.Start())
	p := &serverProcess{cmd: cmd, log: log}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			p.addr = string(b)
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("server did not start: %s", log.String())
	return nil
}

// TestFaultKill: SIGKILL the server during load, restart it on the same
// SQLite database, load it again: every acknowledged submission is
// stored and no key's budget is overspent across the crash.
func TestFaultKill(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	n, clients, perClient := 25000, 50, 20
	if testing.Short() {
		n, clients, perClient = 1000, 8, 6
	}
	keys := clients / 2
	limit := perClient // two clients per key: half their requests fit
	dir := t.TempDir()
	labels := randLabels(rand.New(rand.NewPCG(4, 4)), n, 2)
	lp := writeLabels(t, labels)
	cfg := filepath.Join(dir, "serve.json")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`{"database":{"dsn":"serve.db"},"reject_rate":1e9,"reject_burst":1000000000,
		"competitions":[{"id":"f","labels":%q,"classes":2,"metric":"float64-sklearn","total_limit":%d}]}`, lp, limit)), 0o644))
	st, err := OpenSQLite(context.Background(), filepath.Join(dir, "serve.db"))
	require.NoError(t, err)
	tokens := make([]string, keys)
	keyIDs := map[string]string{}
	for i := range tokens {
		k, tok, err := NewKey(fmt.Sprintf("team%d", i), time.Now())
		require.NoError(t, err)
		require.NoError(t, st.AddKey(context.Background(), k))
		tokens[i], keyIDs[tok] = tok, k.ID
	}
	require.NoError(t, st.Close())
	bs := bodies(3, 8, n)

	p1 := startServerProcess(t, cfg)
	stop := make(chan struct{})
	done := make(chan *loadResult)
	go func() {
		done <- runLoad([]string{"http://" + p1.addr + "/v1/competitions/f/submissions"}, tokens, clients, perClient, bs, time.Minute, stop)
	}()
	// Kill once a third of the budget has been acknowledged, at most 20 s in.
	killAt := time.Now().Add(20 * time.Second)
	st, err = OpenSQLite(context.Background(), filepath.Join(dir, "serve.db"))
	require.NoError(t, err)
	for time.Now().Before(killAt) {
		subs, err := st.Submissions(context.Background(), "f")
		require.NoError(t, err)
		if len(subs) >= keys*limit/3 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.NoError(t, p1.cmd.Process.Signal(syscall.SIGKILL))
	p1.cmd.Wait()
	close(stop)
	r1 := <-done
	t.Logf("before the kill: %d acknowledged, %d refused by budget, %d cut off", len(r1.acked), r1.budget429.Load(), r1.errors)
	assert.NotZero(t, len(r1.acked))

	p2 := startServerProcess(t, cfg)
	r2 := runLoad([]string{"http://" + p2.addr + "/v1/competitions/f/submissions"}, tokens, clients, perClient, bs, time.Minute, nil)
	assert.Empty(t, r2.other)
	assert.Zero(t, r2.errors)
	require.NoError(t, p2.cmd.Process.Signal(syscall.SIGTERM))
	require.NoError(t, p2.cmd.Wait(), "graceful stop: %s", p2.log.String())
	assert.Contains(t, p2.log.String(), `"msg":"stopped"`)

	all := &loadResult{acked: map[string]string{}, ackedKey: map[string]int{}}
	for _, r := range []*loadResult{r1, r2} {
		for id, tok := range r.acked {
			all.acked[id] = tok
			all.ackedKey[tok]++
		}
	}
	checkStored(t, st, "f", all, keyIDs, limit, false)
	// After the restart every key could spend what was left: the budget
	// is exactly used up, neither lost nor overspent.
	subs, err := st.Submissions(context.Background(), "f")
	require.NoError(t, err)
	assert.Equal(t, keys*limit, len(subs))
	st.Close()
}

// TestPostgresReplicas: two servers on one PostgreSQL database, clients
// of each key spread over both, enforce one budget per key.
func TestPostgresReplicas(t *testing.T) {
	dsn := newPostgresDB(t)
	n, clients, perClient := 5000, 40, 10
	keys := clients / 4
	limit := perClient * 2 // four clients per key (two per replica): half fit
	labels := randLabels(rand.New(rand.NewPCG(6, 6)), n, 2)
	cc := CompetitionConfig{ID: "r", Classes: 2, Metric: "float64-sklearn", PublicFraction: 1, TotalLimit: limit, Labels: writeLabels(t, labels)}
	var urls []string
	var stores []Store
	for range 2 {
		st, err := OpenPostgres(context.Background(), dsn)
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		stores = append(stores, st)
		c, err := NewCompetition(cc, nil)
		require.NoError(t, err)
		srv, err := NewServer(Options{Store: st, Competitions: []*Competition{c}, RejectRate: 1e9, RejectBurst: 1e9})
		require.NoError(t, err)
		hs := httptest.NewServer(srv)
		t.Cleanup(hs.Close)
		urls = append(urls, hs.URL+"/v1/competitions/r/submissions")
	}
	tokens := make([]string, keys)
	keyIDs := map[string]string{}
	for i := range tokens {
		k, tok, err := NewKey(fmt.Sprintf("team%d", i), time.Now())
		require.NoError(t, err)
		require.NoError(t, stores[0].AddKey(context.Background(), k))
		tokens[i], keyIDs[tok] = tok, k.ID
	}
	// Clients 2j and 2j+1 share a key, one on each replica.
	toks := make([]string, clients)
	us := make([]string, clients)
	for c := range clients {
		toks[c] = tokens[(c/2)%keys]
		us[c] = urls[c%2]
	}
	res := runLoadPairs(us, toks, perClient, bodies(5, 8, n))
	assert.Empty(t, res.other)
	assert.Zero(t, res.errors)
	assert.Equal(t, keys*limit, len(res.acked))
	checkStored(t, stores[1], "r", res, keyIDs, limit, true)
	t.Logf("two replicas: %d requests, %d accepted, %d refused by budget in %v", res.requests, len(res.acked), res.budget429.Load(), res.elapsed.Round(time.Millisecond))
}

// runLoadPairs is runLoad with client c using toks[c] and urls[c].
func runLoadPairs(urls, toks []string, perClient int, bs [][]byte) *loadResult {
	return runLoadFunc(len(toks), perClient, bs, time.Minute, nil, func(c int) (string, string) { return urls[c], toks[c] })
}

// startServerArgs is startServerProcess with extra serve arguments; it
// returns the process whether or not it came up (addr "" if it exited).
func startServerArgs(t *testing.T, cfg string, extra ...string) *serverProcess {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	args := append([]string{"-config", cfg, "-listen", "127.0.0.1:0", "-addr-file", addrFile}, extra...)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LABELINF_SERVE_HELPER=1", "LABELINF_SERVE_ARGS="+strings.Join(args, "\n"))
	log := &syncWriter{b: new(strings.Builder)}
	cmd.Stderr = log
	require.NoError(t, cmd.Start())
	p := &serverProcess{cmd: cmd, log: log}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			p.cmd.Process.Kill()
			<-exited
		}
	})
	p.exited = exited
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			p.addr = string(b)
			return p
		}
		select {
		case <-exited:
			return p
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("server neither started nor exited: %s", log.String())
	return nil
}

// TestSQLiteServeLock: a second server on the same SQLite file is
// refused at start with a message naming the holder; serve keys add
// works beside the live server; on SIGTERM the old server lets go of the
// file when it starts draining, and a replacement waiting with -lock-wait
// starts while the old one may still be finishing.
func TestSQLiteServeLock(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	dir := t.TempDir()
	lp := writeLabels(t, randLabels(rand.New(rand.NewPCG(5, 5)), 100, 2))
	cfg := filepath.Join(dir, "serve.json")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`{"database":{"dsn":"serve.db"},"shutdown_timeout":"5s",
		"competitions":[{"id":"f","labels":%q,"classes":2,"metric":"float64-sklearn"}]}`, lp)), 0o644))
	a := startServerArgs(t, cfg)
	require.NotEmpty(t, a.addr, a.log.String())

	b := startServerArgs(t, cfg, "-lock-wait", "300ms")
	<-b.exited
	assert.Empty(t, b.addr)
	assert.NotEqual(t, 0, b.cmd.ProcessState.ExitCode())
	assert.Contains(t, b.log.String(), "is served by process "+strconv.Itoa(a.cmd.Process.Pid))
	assert.Contains(t, b.log.String(), "one server per SQLite file")

	// Key management beside the live server.
	var out, errb strings.Builder
	require.NoError(t, Command(context.Background(), []string{"keys", "add", "-config", cfg, "-name", "ann"}, &out, &errb), errb.String())
	assert.True(t, strings.HasPrefix(out.String(), "lik_"))

	// A restart: SIGTERM the old one, start the new one with a wait.
	require.NoError(t, a.cmd.Process.Signal(syscall.SIGTERM))
	c := startServerArgs(t, cfg, "-lock-wait", "10s")
	require.NotEmpty(t, c.addr, c.log.String())
	<-a.exited
	assert.Contains(t, a.log.String(), "released the database lock")
}
