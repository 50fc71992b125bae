package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replicaCompetitions are the competitions of the replica test: each
// defence that remembers something between submissions, and the budgets.
// %[1]s is the holdout labels file, %[2]s the training labels file.
const replicaCompetitions = `[
 {"id": "gl", "labels": %[1]q, "classes": 2, "metric": "float64-sklearn",
  "defence": {"ladder": {"kind": "fixed", "eta": "0.01"}, "decimals": 5}},
 {"id": "tf", "labels": %[1]q, "classes": 2, "metric": "float64-sklearn",
  "defence": {"ladder": {"kind": "fixed", "eta": "0.001", "per_team": true}, "decimals": 5}},
 {"id": "tp", "labels": %[1]q, "classes": 2, "metric": "float64-sklearn",
  "defence": {"ladder": {"kind": "parameter-free", "per_team": true}, "decimals": 5}},
 {"id": "gn", "labels": %[1]q, "classes": 2, "metric": "float64-sklearn",
  "defence": {"subset": 300, "ladder": {"kind": "fixed", "eta": "0.002"}, "noise": {"kind": "gaussian", "scale": 0.003}, "decimals": 5},
  "simulation_seed": "00000000000000000000000000000000000000000000000000000000000000a1"},
 {"id": "th", "labels": %[1]q, "classes": 2, "metric": "float64-sklearn", "train_labels": %[2]q,
  "defence": {"thresholdout": {"t": 0.02, "sigma": 0.005, "budget": 3}, "decimals": 5},
  "simulation_seed": "00000000000000000000000000000000000000000000000000000000000000b2"},
 {"id": "tt", "labels": %[1]q, "classes": 2, "metric": "float64-sklearn", "train_labels": %[2]q,
  "defence": {"thresholdout": {"t": 0.02, "sigma": 0.005, "budget": 2, "per_team": true}, "decimals": 5},
  "simulation_seed": "00000000000000000000000000000000000000000000000000000000000000c3"},
 {"id": "ga", "labels": %[1]q, "classes": 2, "metric": "accuracy",
  "defence": {"ladder": {"kind": "fixed", "eta": "0.01"}, "decimals": 5}},
 {"id": "ap", "labels": %[1]q, "classes": 2, "metric": "accuracy",
  "defence": {"ladder": {"kind": "parameter-free", "per_team": true}, "decimals": 5}},
 {"id": "bp", "labels": %[1]q, "classes": 2, "metric": "brier",
  "defence": {"ladder": {"kind": "parameter-free"}, "decimals": 5}},
 {"id": "day", "labels": %[1]q, "classes": 2, "metric": "float64-sklearn", "decimals": 5, "daily_limit": 2},
 {"id": "iv", "labels": %[1]q, "classes": 2, "metric": "float64-sklearn", "decimals": 5, "min_interval": "1h"}
]`

// replicaSetup writes a config for the competitions above on PostgreSQL
// database dsn, adds the keys names, and returns the config's path and
// each name's token.
func replicaSetup(t *testing.T, dsn string, hold, train []int, names []string) (string, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	comps := fmt.Sprintf(replicaCompetitions, writeLabels(t, hold), writeLabels(t, train))
	cfg := fmt.Sprintf(`{"database": {"driver": "postgres", "dsn": %q}, "reject_rate": 1e9, "reject_burst": 1000000000, "competitions": %s}`, dsn, comps)
	path := filepath.Join(dir, "serve.json")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o644))
	st, err := OpenPostgres(context.Background(), dsn)
	require.NoError(t, err)
	defer st.Close()
	toks := map[string]string{}
	for _, name := range names {
		k, tok, err := NewKey(name, time.Now())
		require.NoError(t, err)
		require.NoError(t, st.AddKey(context.Background(), k))
		toks[name] = tok
	}
	return path, toks
}

// A replicaStep is one submission of the test's sequence.
type replicaStep struct {
	comp, team string
	pred       []float64
}

// replicaSequence builds the sequence: honest and adversarial
// submissions to every competition, by three teams.
func replicaSequence(r *rand.Rand, hold, train []int) []replicaStep {
	n := len(hold)
	quality := func(s float64, seed uint64) []float64 {
		rr := rand.New(rand.NewPCG(seed, 1))
		p := make([]float64, n)
		for i, y := range hold {
			p[i] = min(max(0.5+(2*float64(y)-1)*s*rr.Float64()+0.2*(rr.Float64()-0.5), 0.01), 0.99)
		}
		return p
	}
	flip := func(p []float64, i int) []float64 {
		q := append([]float64(nil), p...)
		q[i] = 1 - q[i]
		return q
	}
	withTrain := func(p []float64, overfit bool) []float64 {
		out := make([]float64, 0, len(train)+n)
		for _, y := range train {
			out = append(out, 0.3+0.4*float64(y))
		}
		if overfit {
			// Far better on the holdout than on the training rows: the
			// holdout answers, and spends the budget.
			for _, y := range hold {
				out = append(out, 0.05+0.9*float64(y))
			}
			return out
		}
		// As good on both: the training score answers.
		for _, y := range hold {
			out = append(out, 0.3+0.4*float64(y))
		}
		return out
	}
	teams := []string{"alice", "bob", "eve"}
	var seq []replicaStep
	// Ladders: the §1 attacks, then a mix of better and worse.
	base := quality(0.3, 1)
	for _, comp := range []string{"gl", "tf", "tp", "gn", "ga", "ap", "bp"} {
		seq = append(seq,
			replicaStep{comp, "alice", quality(0.6, 2)}, // the honest best
			replicaStep{comp, "eve", base},              // worse than the best
			replicaStep{comp, "eve", flip(base, 7)},     // one row changed
			replicaStep{comp, "eve", flip(base, 8)},
		)
		for i := range 8 {
			seq = append(seq, replicaStep{comp, teams[r.IntN(3)], quality(0.2+0.6*r.Float64(), uint64(10+i))})
		}
	}
	// Thresholdout: honest submissions and overfitting ones past B = 3.
	for i := range 8 {
		seq = append(seq, replicaStep{"th", teams[i%3], withTrain(nil, i%2 == 1)})
	}
	// Thresholdout per team (B = 2 each): each team overfits past its
	// own budget, honest submissions between.
	for i := range 12 {
		seq = append(seq, replicaStep{"tt", teams[i%3], withTrain(nil, i%4 != 3)})
	}
	// Budgets: 2 a day; one an hour.
	for i := range 4 {
		seq = append(seq, replicaStep{"day", "bob", quality(0.5, uint64(30+i))}, replicaStep{"iv", "eve", quality(0.5, uint64(40+i))})
	}
	return seq
}

// submitTo posts pred to comp at base with token and returns "STATUS
// score-or-reason".
func submitTo(t *testing.T, base, comp, token string, pred []float64) string {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/v1/competitions/"+comp+"/submissions", strings.NewReader(string(predJSON(pred))))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var body struct {
		Score json.RawMessage `json:"score"`
		Error struct {
			Reason string `json:"reason"`
		} `json:"error"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&body))
	if resp.StatusCode == http.StatusCreated {
		return fmt.Sprintf("%d %s", resp.StatusCode, body.Score)
	}
	return fmt.Sprintf("%d %s", resp.StatusCode, body.Error.Reason)
}

// TestReplicasBehaveAsOne: real labelinf serve processes on PostgreSQL.
// The same sequence of submissions (global Ladder, per-team Ladder fixed
// and parameter-free, a simulation with subsets and fresh noise,
// Thresholdout global and per team, daily and interval budgets) sent to one replica, and
// alternated over two, gets the same answers, status and score; and
// concurrent overfitting submissions over two replicas get exactly
// Thresholdout's budget of holdout answers (per team: each team's).
func TestReplicasBehaveAsOne(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	hold, train := randLabels(r, 600, 2), randLabels(r, 300, 2)
	names := []string{"alice", "bob", "eve"}
	seq := replicaSequence(r, hold, train)

	run := func(replicas int) []string {
		cfg, toks := replicaSetup(t, newPostgresDB(t), hold, train, names)
		var bases []string
		for range replicas {
			p := startServerProcess(t, cfg)
			bases = append(bases, "http://"+p.addr)
		}
		out := make([]string, len(seq))
		for i, s := range seq {
			out[i] = s.comp + " " + s.team + ": " + submitTo(t, bases[i%replicas], s.comp, toks[s.team], s.pred)
		}
		return out
	}
	one, two := run(1), run(2)
	assert.Equal(t, one, two, "one replica and two alternated answer differently")
	// The sequence exercises what it claims: ladders repeat bests, the
	// budgets refuse, Thresholdout runs out.
	joined := strings.Join(one, "\n")
	for _, want := range []string{"403 holdout_exhausted", "429 budget_daily", "429 budget_interval"} {
		assert.Contains(t, joined, want)
	}
	// The global Ladders (log-loss, accuracy, which is better higher, and
	// the Brier score's parameter-free one) repeat their best: a later
	// answer equals an earlier one of the same competition.
	for _, comp := range []string{"gl", "ga", "bp"} {
		repeats, seen := 0, map[string]bool{}
		for i := range one {
			if seq[i].comp != comp {
				continue
			}
			ans := strings.SplitN(one[i], ": ", 2)[1]
			if seen[ans] {
				repeats++
			}
			seen[ans] = true
		}
		assert.NotZero(t, repeats, "the global Ladder of %s never repeated its best:\n%s", comp, joined)
	}

	// Concurrent: 12 overfitting submissions at once over two replicas
	// get exactly B = 3 holdout answers.
	cfg, toks := replicaSetup(t, newPostgresDB(t), hold, train, names)
	bases := []string{"http://" + startServerProcess(t, cfg).addr, "http://" + startServerProcess(t, cfg).addr}
	var seqTh []replicaStep
	for _, s := range seq {
		if s.comp == "th" {
			seqTh = append(seqTh, s)
		}
	}
	over := seqTh[1].pred
	var mu sync.Mutex
	count := map[string]int{}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := submitTo(t, bases[i%2], "th", toks[names[i%3]], over)
			mu.Lock()
			count[strings.Fields(a)[0]]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, map[string]int{"201": 3, "403": 9}, count)

	// Per team: the same 12 (4 per team) under B = 2 each get exactly 2
	// holdout answers per team, whichever replica each goes to.
	perTeam := map[string]int{}
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := submitTo(t, bases[i%2], "tt", toks[names[i%3]], over)
			mu.Lock()
			perTeam[names[i%3]+" "+strings.Fields(a)[0]]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	assert.Equal(t, map[string]int{"alice 201": 2, "alice 403": 2, "bob 201": 2, "bob 403": 2, "eve 201": 2, "eve 403": 2}, perTeam)
	for i, a := range one {
		t.Logf("%2d %s", i, a)
	}
}
