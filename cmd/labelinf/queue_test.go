package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/internal/pgtest"
)

// netns is one network namespace joined to the host by a veth pair: the
// host end has HostIP, the namespace's end NSIP.
type netns struct {
	name, hostIP, nsIP string
}

// newNetns creates n namespaces with a veth pair each (iproute2), or
// returns why it cannot (not root, no CAP_NET_ADMIN, no ip(8)).
func newNetns(t *testing.T, n int) ([]netns, error) {
	if _, err := exec.LookPath("ip"); err != nil {
		return nil, fmt.Errorf("no ip(8) (iproute2): %w", err)
	}
	pid := os.Getpid() % 100000
	net := 100 + os.Getpid()%100 // 10.NET.i.0/24: one subnet per test process
	var out []netns
	for i := range n {
		ns := netns{name: fmt.Sprintf("labelinf-q%d-%d", pid, i), hostIP: fmt.Sprintf("10.%d.%d.1", net, i+1), nsIP: fmt.Sprintf("10.%d.%d.2", net, i+1)}
		host, peer := fmt.Sprintf("lqh%d%c", pid, 'a'+i), fmt.Sprintf("lqn%d%c", pid, 'a'+i)
		steps := [][]string{
			{"netns", "add", ns.name},
			{"link", "add", host, "type", "veth", "peer", "name", peer},
			{"link", "set", peer, "netns", ns.name},
			{"addr", "add", ns.hostIP + "/24", "dev", host},
			{"link", "set", host, "up"},
			{"-n", ns.name, "addr", "add", ns.nsIP + "/24", "dev", peer},
			{"-n", ns.name, "link", "set", peer, "up"},
			{"-n", ns.name, "link", "set", "lo", "up"},
		}
		name := ns.name
		t.Cleanup(func() { exec.Command("ip", "netns", "del", name).Run() })
		for _, s := range steps {
			if b, err := exec.Command("ip", s...).CombinedOutput(); err != nil {
				return nil, fmt.Errorf("ip %s: %v: %s", strings.Join(s, " "), err, b)
			}
		}
		out = append(out, ns)
	}
	return out, nil
}

// proc is a labelinf process of the test, its stderr kept.
type proc struct {
	cmd  *exec.Cmd
	out  bytes.Buffer
	errb syncBuffer
	done chan struct{} // closed when the process has exited
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start starts exe with args (in namespace ns if not "") as labelinf.
func start(t *testing.T, exe, ns string, env []string, args ...string) *proc {
	t.Helper()
	if ns != "" {
		args = append([]string{"netns", "exec", ns, exe}, args...)
		exe = "ip"
	}
	p := &proc{cmd: exec.Command(exe, args...), done: make(chan struct{})}
	p.cmd.Env = append(append(os.Environ(), "LABELINF_TEST_MAIN=1"), env...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.errb
	require.NoError(t, p.cmd.Start())
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(15 * time.Second):
			p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// wait waits for p's exit (at most d) and returns its status.
func (p *proc) wait(t *testing.T, d time.Duration) int {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(d):
		p.cmd.Process.Kill()
		<-p.done
		t.Fatalf("%v: still running after %v; stderr:\n%s", p.cmd.Args, d, p.errb.String())
	}
	return p.cmd.ProcessState.ExitCode()
}

// TestQueueRealProcesses: labelinf audit -queue with workers as real
// processes, each in a network namespace of its own reaching PostgreSQL
// over TCP as the least-privilege role (loopback TCP where the machine
// allows no namespace, logged): the report equals the in-process one
// byte for byte through a worker killed with kill -9 mid-cell (another
// worker runs the cell again after the rescue), the coordinator killed
// with kill -9 (-collect assembles the report) and PostgreSQL killed and
// restarted mid-grid (the workers reconnect); a grid whose input is
// damaged ends with each cell's error in its report after 3 attempts
// (exit 1); a worker of another build takes no job.
func TestQueueRealProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: starts PostgreSQL and five labelinf processes (about 40 s)")
	}
	t0 := time.Now()
	ctx := context.Background()
	exe, err := os.Executable()
	require.NoError(t, err)
	const cfg = "testdata/queue.yaml"

	// The in-process report, computed meanwhile.
	var want bytes.Buffer
	refDone := make(chan int, 1)
	go func() {
		var errb bytes.Buffer
		refDone <- run([]string{"audit", "-config", cfg, "-inprocess", "-workers", "1", "-json", "-quiet"}, &want, &errb)
	}()

	nss, nsErr := newNetns(t, 3)
	listen := []string{"127.0.0.1"}
	auth := []string{"host all labelinf_worker 127.0.0.1/32 scram-sha-256"}
	if nsErr != nil {
		if os.Getenv("CI") == "true" {
			t.Logf("NO NETWORK NAMESPACES (workers use loopback TCP instead): %v", nsErr)
		} else {
			t.Logf("no network namespaces, workers use loopback TCP: %v", nsErr)
		}
		nss = nil
	} else {
		listen = nil
		for _, ns := range nss {
			listen = append(listen, ns.hostIP)
		}
		auth = []string{fmt.Sprintf("host all labelinf_worker %s/16 scram-sha-256", strings.TrimSuffix(nss[0].hostIP, ".1.1")+".0.0")}
	}
	pg := pgtest.Start(t, pgtest.Options{Listen: listen, HostAuth: auth})
	require.NoError(t, pgtest.CreateDB(pg.DSN, "q"))
	owner := pgtest.ReplaceDB(pg.DSN, "q")
	db, err := pgx.Connect(ctx, pg.DSN)
	require.NoError(t, err)
	_, err = db.Exec(ctx, `CREATE ROLE labelinf_worker LOGIN PASSWORD 'queue-test'`)
	require.NoError(t, err)
	db.Close(ctx)
	var qout, qerr bytes.Buffer
	require.Equal(t, 0, run([]string{"queue", "-queue", owner, "-grant", "labelinf_worker"}, &qout, &qerr), qerr.String())

	// Where worker i connects from, and to.
	workerNS := func(i int) (string, string) {
		if nss == nil {
			return "", fmt.Sprintf("host=127.0.0.1 port=%d user=labelinf_worker dbname=q sslmode=disable", pg.Port)
		}
		ns := nss[i%len(nss)]
		return ns.name, fmt.Sprintf("host=%s port=%d user=labelinf_worker dbname=q sslmode=disable", ns.hostIP, pg.Port)
	}
	worker := func(exe string, i int, id string) *proc {
		ns, dsn := workerNS(i)
		return start(t, exe, ns, []string{"PGPASSWORD=queue-test"}, "worker", "-queue", dsn, "-id", id, "-rescue-after", "12s", "-grace", "2s")
	}
	pool, err := pgxpool.New(ctx, owner)
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	sql := func(q string, args ...any) pgx.Row { return pool.QueryRow(ctx, q, args...) }

	// A grid whose input is damaged before any worker reads it.
	dir := t.TempDir()
	poison := filepath.Join(dir, "poison.yaml")
	b, err := os.ReadFile(cfg)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(poison, bytes.Replace(b, []byte("seed: 4"), []byte("seed: 5"), 1), 0o644))
	pargs := []string{"audit", "-config", poison, "-queue", owner, "-json", "-quiet", "-cell-timeout", "11s"}
	require.Equal(t, 0, start(t, exe, "", nil, append(pargs, "-detach")...).wait(t, time.Minute))
	var damaged int64
	require.NoError(t, sql(`WITH d AS (UPDATE labelinf_blob SET data = 'damaged' WHERE hash <> '' RETURNING 1) SELECT count(*) FROM d`).Scan(&damaged))
	require.EqualValues(t, 1, damaged)
	var poisonGrid string
	require.NoError(t, sql(`SELECT id FROM labelinf_grid`).Scan(&poisonGrid))

	// The coordinator, then a worker of another build, then w1 (the
	// leader: alone at first) and w2.
	args := []string{"audit", "-config", cfg, "-queue", owner, "-json", "-quiet", "-cell-timeout", "11s"}
	coord := start(t, exe, "", nil, args...)
	waitFor(t, time.Minute, "the grid submitted", func() bool {
		var n int
		return sql(`SELECT count(*) FROM labelinf_grid`).Scan(&n) == nil && n == 2
	}, coord)
	w1 := worker(exe, 0, "w1")
	waitFor(t, time.Minute, "w1 leading", func() bool {
		var id string
		return sql(`SELECT leader_id FROM river_leader`).Scan(&id) == nil && id == "w1"
	}, w1)
	other := filepath.Join(dir, "labelinf-other-build")
	copyFile(t, exe, other, []byte("another build"))
	wx := worker(other, 2, "wx")
	w2 := worker(exe, 1, "w2")

	// kill -9 w1 in the middle of a cell; w3 replaces it. w1 is stopped
	// (SIGSTOP) first, so that the cell it runs cannot finish between
	// the look and the kill.
	var killedJob int64
	runningW1 := `SELECT id FROM river_job WHERE state = 'running' AND attempted_by[array_length(attempted_by, 1)] = 'w1'
		AND args->>'grid' <> $1 LIMIT 1`
	waitFor(t, time.Minute, "w1 running a cell", func() bool {
		if sql(runningW1, poisonGrid).Scan(&killedJob) != nil {
			return false
		}
		require.NoError(t, w1.cmd.Process.Signal(syscall.SIGSTOP))
		if sql(runningW1, poisonGrid).Scan(&killedJob) != nil {
			require.NoError(t, w1.cmd.Process.Signal(syscall.SIGCONT)) // it finished just before: again
			return false
		}
		return true
	}, w1)
	require.NoError(t, w1.cmd.Process.Kill())
	<-w1.done
	var state string
	require.NoError(t, sql(`SELECT state FROM river_job WHERE id = $1`, killedJob).Scan(&state))
	require.Equal(t, "running", state, "the killed worker's cell")
	t.Logf("%.1fs: w1 killed in cell job %d", time.Since(t0).Seconds(), killedJob)
	w3 := worker(exe, 0, "w3")

	// kill -9 the coordinator, then PostgreSQL, mid-grid.
	require.NoError(t, coord.cmd.Process.Kill())
	<-coord.done
	// PostgreSQL is killed once two cells are done and the killed cell is
	// older than -rescue-after (or already rescued, w1's lease having
	// expired): a leader elected after the restart rescues it at once
	// (River's rescuer runs when a leader is elected, then every 30 s).
	var done int
	waitFor(t, time.Minute, "two cells done and the killed cell rescuable", func() bool {
		var old bool
		return sql(`SELECT count(*) FROM labelinf_result`).Scan(&done) == nil && done >= 2 &&
			sql(`SELECT now() - attempted_at > interval '12.5 s' OR attempt > 1 FROM river_job WHERE id = $1`, killedJob).Scan(&old) == nil && old
	}, w2, w3)
	pg.Kill(t)
	time.Sleep(time.Second)
	pg.Restart(t)
	t.Logf("%.1fs: coordinator killed, PostgreSQL killed and restarted with %d of 7 cells done", time.Since(t0).Seconds(), done)

	// -collect assembles the report; it equals the in-process one.
	collect := start(t, exe, "", nil, append(args, "-collect")...)
	require.Equal(t, 0, collect.wait(t, 2*time.Minute), collect.errb.String())
	require.Equal(t, 0, <-refDone)
	assert.Equal(t, want.String(), collect.out.String(), "the queue's report differs from the in-process report")
	var attempts int
	var by []string
	require.NoError(t, sql(`SELECT state, attempt, attempted_by FROM river_job WHERE id = $1`, killedJob).Scan(&state, &attempts, &by))
	assert.Equal(t, "completed", state)
	assert.GreaterOrEqual(t, attempts, 2, "the killed cell ran again")
	assert.Contains(t, by, "w1")
	var finisher string
	require.NoError(t, sql(`SELECT worker FROM labelinf_result r JOIN river_job j ON j.id = r.job_id WHERE j.id = $1`, killedJob).Scan(&finisher))
	assert.NotEqual(t, "w1", finisher, "the killed cell's result")
	t.Logf("%.1fs: report collected; the killed cell (attempts %v) finished by %s", time.Since(t0).Seconds(), by, finisher)

	// The damaged grid: every cell's error in the report, exit 1.
	pc := start(t, exe, "", nil, append(pargs, "-collect")...)
	assert.Equal(t, 1, pc.wait(t, 2*time.Minute), pc.errb.String())
	assert.Equal(t, 7, strings.Count(pc.out.String(), `"error": "input damaged`), "failed cells in the damaged grid's report:\n%s", pc.out.String())
	var maxAttempts int
	require.NoError(t, sql(`SELECT min(attempt) FROM river_job WHERE args->>'grid' = $1`, poisonGrid).Scan(&maxAttempts))
	assert.Equal(t, 3, maxAttempts, "attempts of a damaged cell")

	// The other build took nothing.
	var foreign int
	require.NoError(t, sql(`SELECT count(*) FROM river_job WHERE 'wx' = ANY(attempted_by)`).Scan(&foreign))
	assert.Zero(t, foreign, "jobs the other build's worker attempted")
	assert.Contains(t, wx.errb.String(), "worker started")
	for _, w := range []*proc{w2, w3, wx} {
		w.cmd.Process.Signal(syscall.SIGTERM)
		assert.Equal(t, 0, w.wait(t, 30*time.Second), "worker exit after SIGTERM:\n%s", w.errb.String())
	}
	t.Logf("%.1fs in all", time.Since(t0).Seconds())
}

// waitFor polls cond every 50 ms for up to d; on failure it shows the
// stderr of ps.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool, ps ...*proc) {
	t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			for _, p := range ps {
				t.Logf("%v:\n%s", p.cmd.Args, p.errb.String())
			}
			t.Fatalf("%s: not after %v", what, d)
		}
	}
}

// copyFile copies an executable and appends extra to it (another build,
// as far as its hash goes; it still runs).
func copyFile(t *testing.T, from, to string, extra []byte) {
	t.Helper()
	in, err := os.Open(from)
	require.NoError(t, err)
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY, 0o755)
	require.NoError(t, err)
	_, err = io.Copy(out, in)
	require.NoError(t, err)
	_, err = out.Write(extra)
	require.NoError(t, err)
	require.NoError(t, out.Close())
}
