package serve

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labelinf/labelinf/internal/pgtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var dbKillSoak = flag.Int("dbkill-soak", 0, "TestPostgresKilledUnderLoad: kill PostgreSQL this many times (default 3) with 4× the load")

// A killAnswer is one request of the load and what it was answered.
type killAnswer struct {
	comp, key, idem string
	status          int
	reason, id      string
	score           string
	transport       bool // no answer at all
	seed            uint64
	retried         bool // outcome unknown, sent again with its key
}

// TestPostgresKilledUnderLoad: two labelinf serve processes on one
// PostgreSQL, bounded load from 24 clients (each request with its own
// Idempotency-Key, never retried), and PostgreSQL killed with SIGKILL
// three times and restarted. Afterwards the database is the judge: every
// 201 is stored with its id and score (0 lost), no 4xx or 503
// "unavailable" request is stored (0 answers that contradict it), no key
// has more than its budget stored and Thresholdout answered from the
// holdout at most its budget (0 overspent). A 503 "outcome_unknown" may
// go either way; retried with its key after the storm it is answered
// from the database, stored exactly once.
func TestPostgresKilledUnderLoad(t *testing.T) {
	pg := pgtest.Start(t, pgtest.Options{})
	kills, clients, perClient := 3, 24, 40
	if *dbKillSoak > 0 {
		kills, perClient = *dbKillSoak, 160
	}
	ctx := context.Background()
	db, err := sql.Open("pgx", pg.DSN)
	require.NoError(t, err)
	defer db.Close()
	_, err = db.ExecContext(ctx, "CREATE DATABASE k")
	require.NoError(t, err)
	dsn := pgtest.ReplaceDB(pg.DSN, "k")

	r := rand.New(rand.NewPCG(27, 2))
	hold, train := randLabels(r, 1000, 2), randLabels(r, 300, 2)
	const limit, budget = 30, 4
	names := make([]string, 8)
	for i := range names {
		names[i] = fmt.Sprintf("team%d", i)
	}
	dir := t.TempDir()
	cfg := fmt.Sprintf(`{"database": {"driver": "postgres", "dsn": %q}, "reject_rate": 1e9, "reject_burst": 1000000000, "competitions": [
	 {"id": "p", "labels": %q, "classes": 2, "metric": "float64-sklearn", "decimals": 5, "total_limit": %d},
	 {"id": "l", "labels": %q, "classes": 2, "metric": "float64-sklearn", "total_limit": %d,
	  "defence": {"ladder": {"kind": "parameter-free"}, "decimals": 5}},
	 {"id": "th", "labels": %q, "classes": 2, "metric": "float64-sklearn", "train_labels": %q,
	  "defence": {"thresholdout": {"t": 0.02, "sigma": 0.002, "budget": %d}, "decimals": 5}}]}`,
		dsn, writeLabels(t, hold), limit, writeLabels(t, hold), limit, writeLabels(t, hold), writeLabels(t, train), budget)
	cfgPath := filepath.Join(dir, "serve.json")
	require.NoError(t, os.WriteFile(cfgPath, []byte(cfg), 0o644))
	st, err := OpenPostgres(ctx, dsn)
	require.NoError(t, err)
	toks, keyIDs := map[string]string{}, map[string]string{}
	for _, name := range names {
		k, tok, err := NewKey(name, time.Now())
		require.NoError(t, err)
		require.NoError(t, st.AddKey(ctx, k))
		toks[name], keyIDs[name] = tok, k.ID
	}
	st.Close()
	bases := []string{"http://" + startServerProcess(t, cfgPath).addr, "http://" + startServerProcess(t, cfgPath).addr}

	pred := func(seed uint64, overfitTrain bool) []byte {
		rr := rand.New(rand.NewPCG(seed, 3))
		var p []float64
		if overfitTrain {
			for _, y := range train {
				p = append(p, 0.3+0.4*float64(y))
			}
			for _, y := range hold {
				p = append(p, 0.05+0.9*float64(y))
			}
		} else {
			for _, y := range hold {
				p = append(p, min(max(0.5+(2*float64(y)-1)*0.4*rr.Float64(), 0.01), 0.99))
			}
		}
		return predJSON(p)
	}
	hc := &http.Client{Timeout: 60 * time.Second}
	send := func(a *killAnswer, base string) {
		req, _ := http.NewRequest("POST", base+"/v1/competitions/"+a.comp+"/submissions", bytes.NewReader(pred(a.seed, a.comp == "th")))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+toks[a.key])
		req.Header.Set("Idempotency-Key", a.idem)
		*a = killAnswer{comp: a.comp, key: a.key, idem: a.idem, seed: a.seed, retried: a.retried}
		resp, err := hc.Do(req)
		if err != nil {
			a.transport = true
			return
		}
		a.status = resp.StatusCode
		var body struct {
			ID    string          `json:"id"`
			Score json.RawMessage `json:"score"`
			Error struct{ Reason string }
		}
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		a.id, a.score, a.reason = body.ID, string(body.Score), body.Error.Reason
	}
	var mu sync.Mutex
	var answers []killAnswer
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := names[c%len(names)]
			comp := []string{"p", "l", "th"}[c%3]
			for i := range perClient {
				select {
				case <-stop:
					return
				default:
				}
				a := killAnswer{comp: comp, key: name, idem: fmt.Sprintf("c%d-%d", c, i), seed: uint64(c*1000 + i)}
				send(&a, bases[(c+i)%2])
				mu.Lock()
				answers = append(answers, a)
				mu.Unlock()
				if a.status == http.StatusServiceUnavailable || a.transport {
					time.Sleep(500 * time.Millisecond) // a client's back-off (Retry-After: 1)
				}
				time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
			}
		}()
	}
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(answers) }
	total := clients * perClient
	for k := range kills {
		// Kill when the load is well under way, a share further each time.
		for count() < total*(k+1)/(kills+2) {
			time.Sleep(20 * time.Millisecond)
		}
		pg.Kill(t)
		time.Sleep(time.Duration(300+rand.IntN(700)) * time.Millisecond)
		pg.Restart(t)
	}
	wg.Wait()
	close(stop)

	// Outcome-unknown answers (and lost ones), retried now with their
	// keys, are answered from the database: the stored submission, or a
	// new one stored once.
	statuses := map[string]int{}
	retried := 0
	for i := range answers {
		a := &answers[i]
		statuses[fmt.Sprintf("%d %s", a.status, a.reason)]++
		if a.reason == "outcome_unknown" || a.transport {
			a.retried = true
			send(a, bases[i%2])
			retried++
			require.False(t, a.transport, "a retry after the storm got no answer")
			assert.NotEqual(t, http.StatusServiceUnavailable, a.status, "a retry after the storm: %s", a.reason)
		}
	}
	t.Logf("%d requests, %d kills: %v; %d retried with their key", len(answers), kills, statuses, retried)

	kdb, err := sql.Open("pgx", dsn)
	require.NoError(t, err)
	defer kdb.Close()
	type stored struct{ id, score, key, comp string }
	byIdem := map[string]stored{}
	perKey := map[string]int{}
	q, err := kdb.QueryContext(ctx, "SELECT idem, id, public_score, key_id, competition FROM submissions")
	require.NoError(t, err)
	for q.Next() {
		var s stored
		var idem sql.NullString
		require.NoError(t, q.Scan(&idem, &s.id, &s.score, &s.key, &s.comp))
		require.True(t, idem.Valid, "every request carried a key")
		byIdem[s.comp+"/"+idem.String] = s
		perKey[s.comp+"/"+s.key]++
	}
	require.NoError(t, q.Err())
	lost, contradicted := 0, 0
	for _, a := range answers {
		s, ok := byIdem[a.comp+"/"+a.idem]
		switch {
		case a.status == http.StatusCreated:
			if !ok || s.id != a.id || s.score != a.score {
				lost++
				t.Errorf("acknowledged %s %s (%s) not stored as answered: %+v", a.comp, a.id, a.score, s)
			}
		case ok:
			contradicted++
			t.Errorf("answered %d %s, yet stored as %s", a.status, a.reason, s.id)
		}
	}
	for k, n := range perKey {
		comp := strings.SplitN(k, "/", 2)[0]
		if comp != "th" {
			assert.LessOrEqual(t, n, limit, "overspent: %s", k)
		}
	}
	thStored := 0
	for k, n := range perKey {
		if strings.HasPrefix(k, "th/") {
			thStored += n
		}
	}
	assert.LessOrEqual(t, thStored, budget, "Thresholdout answered from the holdout more than its budget")
	t.Logf("0 expected: lost %d, contradicted %d; Thresholdout holdout answers stored %d ≤ %d", lost, contradicted, thStored, budget)
	assert.Zero(t, lost)
	assert.Zero(t, contradicted)
	assert.Positive(t, statuses["201 "], "nothing was accepted")
	assert.Positive(t, statuses["503 unavailable"]+statuses["503 outcome_unknown"]+statuses["0 "], "the kills were not felt")
}
