package main

import (
	"bytes"
	"context"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/internal/pgtest"
	"github.com/labelinf/labelinf/queue"
)

// TestSweepQueueMatchesInProcess: labelinf sweep -queue with two workers
// (in this process, two cells each) prints the in-process table and JSON
// byte for byte (-cpu=false: the CPU seconds are the one part that
// differs between runs), and -detach then -collect gives it again.
func TestSweepQueueMatchesInProcess(t *testing.T) {
	dsn := pgtest.NewDB(t)
	sweep := []string{"sweep", "-n", "200", "-seeds", "3", "-scorer", "float64-sklearn", "-scorer", "torch-bce", "-cpu=false"}
	local := func(extra ...string) string {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run(append(append([]string{}, sweep...), extra...), &out, &errb), errb.String())
		return out.String()
	}
	wantTable, wantJSON := local(), local("-json")
	require.Contains(t, wantTable, "| float64-sklearn | hybrid | 6/6 |")

	startQueueWorkers(t, dsn)

	onQueue := func(extra ...string) string {
		var out, errb bytes.Buffer
		args := append(append([]string{}, sweep...), append([]string{"-queue", dsn}, extra...)...)
		require.Equal(t, 0, run(args, &out, &errb), errb.String())
		return out.String()
	}
	assert.Equal(t, wantTable, onQueue(), "the queue's table differs from the in-process one")
	assert.Equal(t, wantJSON, onQueue("-json"), "the queue's JSON differs from the in-process one")
	assert.Empty(t, onQueue("-detach", "-n", "150"), "detached: no report")
	var want150 bytes.Buffer
	var errb bytes.Buffer
	require.Equal(t, 0, run(append(append([]string{}, sweep...), "-n", "150"), &want150, &errb), errb.String())
	assert.Equal(t, want150.String(), onQueue("-collect", "-n", "150"), "-collect differs from the in-process report")
}

// startQueueWorkers runs two workers of two cells each in this process
// until the test ends.
func startQueueWorkers(t *testing.T, dsn string) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, id := range []string{"w0", "w1"} {
		wg.Go(func() {
			assert.NoError(t, queue.Work(ctx, dsn, queue.WorkerOptions{Concurrency: 2, ID: id}, 5*time.Second))
		})
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// TestBLIAQueueMatchesInProcess: labelinf blia -queue, one cell per
// (seed, ε) on two workers, prints the in-process table and JSON byte
// for byte but for the seconds (the experiment's and each run's time).
func TestBLIAQueueMatchesInProcess(t *testing.T) {
	dsn := pgtest.NewDB(t)
	blia := []string{"blia", "-data", "wdbc", "-model", "mlp", "-epochs", "2", "-seeds", "2", "-seed", "3", "-epsilon", "inf,1,0.5", "-all"}
	secs := regexp.MustCompile(`("seconds": )[-+.e0-9]+|[0-9.]+ s\b`)
	runBLIA := func(extra ...string) string {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run(append(append([]string{}, blia...), extra...), &out, &errb), errb.String())
		return secs.ReplaceAllString(out.String(), "${1}S")
	}
	wantTable, wantJSON := runBLIA(), runBLIA("-json")
	require.Contains(t, wantJSON, `"seconds": S`)
	startQueueWorkers(t, dsn)
	assert.Equal(t, wantTable, runBLIA("-queue", dsn), "the queue's table differs from the in-process one")
	assert.Equal(t, wantJSON, runBLIA("-json", "-queue", dsn), "the queue's JSON differs from the in-process one")
}
