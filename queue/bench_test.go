package queue

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/labelinf/labelinf/audit"
	"github.com/labelinf/labelinf/internal/cputime"
	"github.com/labelinf/labelinf/internal/pgtest"
)

// BenchmarkQueueOverhead measures what the queue adds to a cell: each
// iteration audits the small198 grid (measure 300, 16 cells of tens of
// milliseconds) in process, cell after cell, then through the queue with
// one worker of concurrency 1 (on this process's PostgreSQL: submit,
// River's fetch, the input read once, the result written with the job's
// completion, the coordinator's polls every 20 ms), each iteration with
// a seed of its own. It reports the medians over the iterations of the
// in-process and the queue's wall time per cell and their difference,
// overhead-ms/cell, and this process's CPU per cell in both (the queue's
// includes the worker's and the coordinator's, not PostgreSQL's).
//
//	go test ./queue -run '^$' -bench QueueOverhead -benchtime 7x
func BenchmarkQueueOverhead(b *testing.B) {
	dsn := pgtest.NewDB(b)
	ctx := context.Background()
	q, err := Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer q.Close()
	if err := q.Setup(ctx); err != nil {
		b.Fatal(err)
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- Work(wctx, dsn, WorkerOptions{Concurrency: 1}, time.Second) }()
	defer func() { cancel(); <-done }()
	cfg, err := audit.LoadConfig("../audit/testdata/small198.yaml")
	if err != nil {
		b.Fatal(err)
	}
	cfg.Measure = 300
	var inproc, queued, inCPU, qCPU []float64
	cpu := func() float64 { d, _ := cputime.Process(); return d.Seconds() * 1000 }
	seed := uint64(100)
	for b.Loop() {
		seed++
		cfg.Seed = seed
		t0, c0 := time.Now(), cpu()
		p, err := audit.NewPlan(ctx, cfg, audit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		cells := len(p.Cells())
		for i := range cells {
			if _, err := p.RunCell(ctx, i, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
		inproc = append(inproc, time.Since(t0).Seconds()*1000/float64(cells))
		inCPU = append(inCPU, (cpu()-c0)/float64(cells))
		t1, c1 := time.Now(), cpu()
		p, err = audit.NewPlan(ctx, cfg, audit.Options{})
		if err != nil {
			b.Fatal(err)
		}
		in, err := p.MarshalBinary()
		if err != nil {
			b.Fatal(err)
		}
		id, err := q.Submit(ctx, KindAudit, in, names(p), SubmitOptions{})
		if err != nil {
			b.Fatal(err)
		}
		out, err := q.Wait(ctx, id, 20*time.Millisecond, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := AuditReport(p, out); err != nil {
			b.Fatal(err)
		}
		queued = append(queued, time.Since(t1).Seconds()*1000/float64(cells))
		qCPU = append(qCPU, (cpu()-c1)/float64(cells))
	}
	med := func(v []float64) float64 {
		v = slices.Clone(v)
		slices.Sort(v)
		return v[len(v)/2]
	}
	diff := make([]float64, len(inproc))
	for i := range diff {
		diff[i] = queued[i] - inproc[i]
	}
	b.ReportMetric(med(inproc), "inprocess-ms/cell")
	b.ReportMetric(med(queued), "queue-ms/cell")
	b.ReportMetric(med(diff), "overhead-ms/cell")
	b.ReportMetric(med(inCPU), "inprocess-cpu-ms/cell")
	b.ReportMetric(med(qCPU), "queue-cpu-ms/cell")
}
