package queue

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/audit"
	"github.com/labelinf/labelinf/internal/pgtest"
	"github.com/labelinf/labelinf/repro"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// smallPlan is the small198 audit with a short measure, and its
// in-process report's JSON.
func smallPlan(t *testing.T) (*audit.Plan, []byte, string) {
	t.Helper()
	ctx := context.Background()
	cfg, err := audit.LoadConfig("../audit/testdata/small198.yaml")
	require.NoError(t, err)
	cfg.Measure = 300
	rep, err := audit.Run(ctx, cfg, audit.Options{Workers: 2})
	require.NoError(t, err)
	var want bytes.Buffer
	require.NoError(t, rep.WriteJSON(&want))
	p, err := audit.NewPlan(ctx, cfg, audit.Options{})
	require.NoError(t, err)
	in, err := p.MarshalBinary()
	require.NoError(t, err)
	return p, in, want.String()
}

func names(p *audit.Plan) []string {
	var out []string
	for _, c := range p.Cells() {
		out = append(out, c.Name)
	}
	return out
}

// startWorkers runs n workers of concurrency 2 until the test ends.
func startWorkers(t *testing.T, dsn string, n int, o WorkerOptions) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i := range n {
		wo := o
		wo.Concurrency = 2
		wo.ID = "w" + string(rune('0'+i))
		wg.Go(func() { assert.NoError(t, Work(ctx, dsn, wo, 5*time.Second)) })
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// TestQueueAuditMatchesInProcess: the small198 audit through the queue,
// two workers of two cells each on one PostgreSQL, gives the in-process
// report byte for byte; submitting it again inserts nothing; a damaged
// input fails every cell of its grid after its attempts, each with its
// error in the report.
func TestQueueAuditMatchesInProcess(t *testing.T) {
	dsn := pgtest.NewDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, in, want := smallPlan(t)
	q, err := Open(ctx, dsn)
	require.NoError(t, err)
	defer q.Close()
	require.NoError(t, q.Setup(ctx))
	require.NoError(t, q.Setup(ctx), "Setup twice")
	id, err := q.Submit(ctx, KindAudit, in, names(p), SubmitOptions{})
	require.NoError(t, err)
	id2, err := q.Submit(ctx, KindAudit, in, names(p), SubmitOptions{})
	require.NoError(t, err)
	assert.Equal(t, id, id2)
	var jobs int
	require.NoError(t, q.pool.QueryRow(ctx, `SELECT count(*) FROM river_job`).Scan(&jobs))
	assert.Equal(t, len(p.Cells()), jobs, "jobs after submitting the grid twice")

	// A second grid, its input damaged before any worker reads it.
	cfg2, err := audit.LoadConfig("../audit/testdata/small198.yaml")
	require.NoError(t, err)
	cfg2.Measure, cfg2.Seed = 300, 2
	cfg2.Grid = []audit.Cell{{Name: "none"}}
	p2, err := audit.NewPlan(ctx, cfg2, audit.Options{})
	require.NoError(t, err)
	in2, err := p2.MarshalBinary()
	require.NoError(t, err)
	bad, err := q.Submit(ctx, KindAudit, in2, names(p2), SubmitOptions{MaxAttempts: 2})
	require.NoError(t, err)
	_, err = q.pool.Exec(ctx, `UPDATE labelinf_blob SET data = 'damaged' WHERE hash = (SELECT input FROM labelinf_grid WHERE id = $1)`, bad)
	require.NoError(t, err)

	startWorkers(t, dsn, 2, WorkerOptions{})
	out, err := q.Wait(ctx, id, 200*time.Millisecond, nil)
	require.NoError(t, err)
	rep, err := AuditReport(p, out)
	require.NoError(t, err)
	var got bytes.Buffer
	require.NoError(t, rep.WriteJSON(&got))
	assert.Equal(t, want, got.String(), "queue report differs from the in-process report")
	var workers int
	require.NoError(t, q.pool.QueryRow(ctx, `SELECT count(DISTINCT worker) FROM labelinf_result`).Scan(&workers))
	t.Logf("%d cells by %d workers", len(out), workers)

	out2, err := q.Wait(ctx, bad, 200*time.Millisecond, nil)
	require.NoError(t, err)
	rep2, err := AuditReport(p2, out2)
	require.NoError(t, err)
	require.Len(t, rep2.Cells, 2) // "as configured" and "none"
	for _, c := range rep2.Cells {
		assert.Contains(t, c.Error, "input damaged", "cell %s", c.Name)
		assert.False(t, c.Stopped || c.Measured, "a failed cell is neither stopped nor measured")
	}
	rows, err := q.pool.Query(ctx, `SELECT attempt FROM river_job WHERE args->>'grid' = $1`, bad)
	require.NoError(t, err)
	attempts, err := pgx.CollectRows(rows, pgx.RowTo[int16])
	require.NoError(t, err)
	assert.Equal(t, []int16{2, 2}, attempts, "attempts of the damaged cells")
}

// TestWorkerRole: the role Grant sets up runs cells but cannot change an
// input, delete a result or create a table.
func TestWorkerRole(t *testing.T) {
	dsn := pgtest.NewDB(t)
	ctx := context.Background()
	q, err := Open(ctx, dsn)
	require.NoError(t, err)
	defer q.Close()
	require.NoError(t, q.Setup(ctx))
	_, err = q.pool.Exec(ctx, `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'labelinf_worker') THEN CREATE ROLE labelinf_worker LOGIN; END IF; END $$`)
	require.NoError(t, err)
	require.NoError(t, q.Grant(ctx, "labelinf_worker"))
	assert.Error(t, q.Grant(ctx, "x; DROP TABLE y"))
	wdsn := dsn + " user=labelinf_worker"
	wp, err := pgxpool.New(ctx, wdsn)
	require.NoError(t, err)
	defer wp.Close()
	_, err = wp.Exec(ctx, `SELECT count(*) FROM labelinf_blob`)
	assert.NoError(t, err, "worker reads inputs")
	for _, s := range []string{
		`UPDATE labelinf_blob SET data = 'x'`,
		`DELETE FROM labelinf_result`,
		`CREATE TABLE evil (x int)`,
		`DELETE FROM labelinf_grid`,
	} {
		_, err := wp.Exec(ctx, s)
		assert.Error(t, err, "the worker role may %s", s)
	}
}

// TestQueueRepro: repro items through the queue (one cell each, two
// workers) write the tables a local run writes, and a REPRO.md that
// lists them.
func TestQueueRepro(t *testing.T) {
	dsn := pgtest.NewDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	items := []string{"ea-fig3", "ea-fig1"}
	local := t.TempDir()
	_, err := repro.Run(ctx, &repro.Config{Out: local, Quick: true, Commit: "test"}, items)
	require.NoError(t, err)
	q, err := Open(ctx, dsn)
	require.NoError(t, err)
	defer q.Close()
	require.NoError(t, q.Setup(ctx))
	ri := ReproInput{Items: items, Quick: true, Commit: "test"}
	in, err := json.Marshal(ri)
	require.NoError(t, err)
	id, err := q.Submit(ctx, KindRepro, in, items, SubmitOptions{})
	require.NoError(t, err)
	startWorkers(t, dsn, 2, WorkerOptions{})
	out, err := q.Wait(ctx, id, 100*time.Millisecond, nil)
	require.NoError(t, err)
	dir := t.TempDir()
	failed, err := WriteRepro(dir, ri, out)
	require.NoError(t, err)
	assert.Empty(t, failed)
	for _, it := range items {
		want, err := os.ReadFile(filepath.Join(local, it+"-table.csv"))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, it+"-table.csv"))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s-table.csv", it)
	}
	md, err := os.ReadFile(filepath.Join(dir, "REPRO.md"))
	require.NoError(t, err)
	for _, it := range items {
		assert.Contains(t, string(md), "[ea-fig"+it[len("ea-fig"):]+"](#"+it+")")
	}
}

// TestProgressETA: the estimate is the cells left at the mean cell time
// over the cells running, unknown (0) before a cell is done.
func TestProgressETA(t *testing.T) {
	for _, tt := range []struct {
		p    Progress
		want time.Duration
	}{
		{Progress{Cells: 10}, 0},
		{Progress{Cells: 10, Done: 2, Running: 2, Waiting: 6, Seconds: 3}, 12 * time.Second},
		{Progress{Cells: 10, Done: 2, Failed: 1, Waiting: 7, Seconds: 3}, 21 * time.Second}, // none running: one at a time
		{Progress{Cells: 4, Done: 3, Failed: 1, Seconds: 3}, 0},
	} {
		assert.Equal(t, tt.want, tt.p.ETA(), "%+v", tt.p)
		assert.Equal(t, tt.p.Done+tt.p.Failed == tt.p.Cells, tt.p.Finished(), "%+v", tt.p)
	}
}
