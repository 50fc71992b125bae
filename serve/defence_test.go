package serve

import (
	"context"
	"math/big"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefenceConfigErrors: every bad defence setting in a config file is
// refused at load or build time with a message naming the problem.
func TestDefenceConfigErrors(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "l.txt"), []byte("0\n1\n1\n0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "short"), []byte("too short"), 0o600))
	const seed = `"simulation_seed": "0000000000000000000000000000000000000000000000000000000000000001"`
	tests := []struct {
		name, comp, want string
	}{
		{"unknown field", `"defence": {"ladder": {"kind": "fixed"}, "ladders": 1}`, `unknown field "ladders"`},
		{"ladder kind", `"defence": {"ladder": {"kind": "steep"}}, "defence_state_file": "st.json"`, `ladder.kind "steep"`},
		{"ladder eta", `"defence": {"ladder": {"kind": "fixed", "eta": "1e99"}}, "defence_state_file": "st.json"`, `ladder.eta "1e99"`},
		{"noise kind", `"defence": {"noise": {"kind": "uniform", "scale": 1}}`, `noise.kind "uniform"`},
		{"noise scale", `"defence": {"noise": {"kind": "gaussian", "scale": -1}}`, `scale`},
		{"keyed noise without a secret", `"defence": {"noise": {"kind": "gaussian", "scale": 0.01, "key": "prediction"}}`, `needs defence_secret_file`},
		{"short secret", `"defence": {"noise": {"kind": "gaussian", "scale": 0.01, "key": "prediction"}}, "defence_secret_file": "short"`, `want at least 32`},
		{"missing secret", `"defence": {"noise": {"kind": "gaussian", "scale": 0.01}}, "defence_secret_file": "nope"`, `defence_secret_file: open`},
		{"decimals twice", `"decimals": 5, "defence": {"decimals": 2}`, `decimals set both`},
		{"decimals range", `"defence": {"decimals": 18}`, `defence.decimals 18 outside [0, 17]`},
		{"split twice", `"public_fraction": 0.5, "defence": {"split": {"public": 0.5, "seed": "00"}}`, `split in one place`},
		{"split seed", `"defence": {"split": {"public": 0.5, "seed": "00"}}`, `split.seed must be 64 hexadecimal digits`},
		{"limits twice", `"daily_limit": 5, "defence": {"limits": {"per_day": 5}}`, `set them in one place`},
		{"bad interval", `"defence": {"limits": {"min_interval": "soon"}}`, `limits.min_interval`},
		{"clip twice", `"clip": "1e-3", "defence": {"clip": 0.001}`, `clip set both`},
		{"thresholdout without training rows", `"defence": {"thresholdout": {"t": 0.01, "sigma": 0.001, "budget": 10}}, "defence_state_file": "st.json"`, `needs train_labels`},
		{"training rows without thresholdout", `"defence": {}, "train_labels": "l.txt"`, `training rows serve only Thresholdout`},
		{"thresholdout budget", `"defence": {"thresholdout": {"t": 0.01, "sigma": 0.001, "budget": 0}}, "train_labels": "l.txt", "defence_state_file": "st.json"`, `B ≥ 1`},
		{"bad training labels", `"defence": {"thresholdout": {"t": 0.01, "sigma": 0.001, "budget": 1}}, "train_labels": "short", "defence_state_file": "st.json"`, `train_labels`},
		{"free ladder on roc-auc", `"metric": "roc-auc", "defence": {"ladder": {"kind": "parameter-free"}}, "defence_state_file": "st.json"`, `per-row loss`},
		{"noise keyed on the losses of roc-auc", `"metric": "roc-auc", "defence": {"noise": {"kind": "gaussian", "scale": 0.01, "key": "losses"}}, "defence_secret_file": "short"`, `per-row loss`},
		{"free ladder after subset", `"defence": {"subset": 2, "ladder": {"kind": "parameter-free"}}, "defence_state_file": "st.json"`, `cannot follow a Subset`},
		{"seed without defence", seed, `need a defence`},
		{"state file without a defence", `"defence_state_file": "st.json"`, `need a defence`},
		{"bad simulation seed", `"defence": {}, "simulation_seed": "xyz"`, `simulation_seed must be 64 hexadecimal digits`},
		{"seed and secret", `"defence": {}, "defence_secret_file": "short", ` + seed, `both set`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			metric := `"metric": "leaderboard", `
			if strings.Contains(tt.comp, `"metric"`) {
				metric = ""
			}
			cfg := `{"competitions": [{"id": "a", "labels": "l.txt", "classes": 2, ` + metric + tt.comp + `}]}`
			p := filepath.Join(dir, "c.json")
			require.NoError(t, os.WriteFile(p, []byte(cfg), 0o644))
			c, err := LoadConfig(p)
			if err == nil {
				_, err = NewCompetition(c.Competitions[0], nil)
			}
			require.Error(t, err, cfg)
			assert.Contains(t, err.Error(), tt.want)
			assert.True(t, strings.HasPrefix(err.Error(), "serve: "), "error %q does not name the package", err)
		})
	}
}

// servedDefence starts a server with one competition "d" of labels under
// the defence settings d (simulation seed 1), unrounded unless d rounds.
func servedDefence(t *testing.T, labels []int, d defence.Settings) *env {
	t.Helper()
	cc := CompetitionConfig{ID: "d", Classes: 2, Metric: "leaderboard", Defence: &d,
		SimulationSeed: "0100000000000000000000000000000000000000000000000000000000000000"}
	if d.Decimals == nil {
		none := -1
		cc.Decimals = &none
	}
	return newEnv(t, [][]int{labels}, cc)
}

func submitScore(t *testing.T, e *env, tok string, p []float64) string {
	t.Helper()
	a := e.post("/v1/competitions/d/submissions", tok, "application/json", predJSON(p))
	require.Equal(t, http.StatusCreated, a.Status, a.Raw)
	return jsonNumber(t, a.Raw, "score")
}

// TestDefenceServed: a served competition releases what its
// defence.Chain releases: the same scores as the simulation chain built
// from the same settings and seed, fed the same submissions (team = key
// name, per-row losses, the metric's exact score on the rows in scope);
// the Ladder repeats its best to a worse submission, per team when set.
func TestDefenceServed(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	r := rand.New(rand.NewPCG(3, 4))
	const n = 300
	labels := randLabels(r, n, 2)
	five := 5
	cases := []struct {
		name string
		d    defence.Settings
	}{
		{"ladder fixed per team", defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01", PerTeam: true}, Decimals: &five}},
		{"ladder free", defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free"}}},
		{"noise fresh", defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.01}}},
		{"noise keyed on losses", defence.Settings{Noise: &defence.NoiseSettings{Kind: "laplace", Scale: 0.01, Key: "losses"}, Decimals: &five}},
		{"split and subset", defence.Settings{Split: &defence.SplitSettings{Public: 0.4, Seed: strings.Repeat("ab", 32)}, Subset: 50}},
	}
	m, err := scorer.ParseModel("leaderboard")
	require.NoError(t, err)
	m = &scorer.Model{Name: m.Name, Loss: m.Loss, Decimals: -1}
	require.NoError(t, m.Validate())
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := servedDefence(t, labels, tc.d)
			ch, err := tc.d.SimulationChain(n, [32]byte{1}, nil)
			require.NoError(t, err)
			toks := map[string]string{"alice": e.key("alice"), "bob": e.key("bob")}
			good := make([]float64, n) // a good prediction
			for i, y := range labels {
				good[i] = 0.2 + 0.6*float64(y)
			}
			subs := [][]float64{good}
			for range 5 {
				p := make([]float64, n)
				for i := range p {
					p[i] = r.Float64()
				}
				subs = append(subs, p)
			}
			for j, p := range subs {
				team := []string{"alice", "bob"}[j%2]
				got := submitScore(t, e, toks[team], p)
				l := make([]float64, n)
				require.NoError(t, defence.LogLoss{Eps: 1e-15}.PerRow(l, p, labels))
				rel, err := ch.Release(defence.Submission{Team: team, Pred: defence.CanonicalPred(p), Losses: l,
					Mean: func(rows []int) (*big.Rat, error) {
						var ys []int
						var ps []float64
						for _, i := range rows {
							ys, ps = append(ys, labels[i]), append(ps, p[i])
						}
						return m.Eval(ys, &scorer.Pred{K: 2, P: ps})
					}})
				require.NoError(t, err)
				assert.Equal(t, rel.Text(), got, "submission %d by %s", j, team)
			}
		})
	}

	// The Ladder's semantics as served: a worse submission gets the
	// best score again; per team, a new team starts its own ladder.
	e := servedDefence(t, labels, defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01", PerTeam: true}, Decimals: &five})
	alice, bob := e.key("alice"), e.key("bob")
	good, bad := make([]float64, n), make([]float64, n)
	for i, y := range labels {
		good[i], bad[i] = 0.3+0.4*float64(y), 0.45+0.1*float64(y)
	}
	best := submitScore(t, e, alice, good)
	assert.Equal(t, best, submitScore(t, e, alice, bad), "the Ladder repeats the best to a worse submission")
	assert.NotEqual(t, best, submitScore(t, e, bob, bad), "per team: bob's ladder starts at his own score")

	// A defence split: the API says how many rows are public, a client
	// refuses it, the host's client accepts it.
	e = servedDefence(t, labels, defence.Settings{Split: &defence.SplitSettings{Public: 0.4, Seed: strings.Repeat("ab", 32)}})
	assert.Equal(t, 120, e.comps["d"].PublicRows())
	tok := e.key("carol")
	_, err = NewClient(context.Background(), e.hs.URL+"/v1/competitions/d", tok, nil)
	assert.ErrorContains(t, err, "public rows")
	cl, err := NewHostClient(context.Background(), e.hs.URL+"/v1/competitions/d", tok, nil)
	require.NoError(t, err)
	_, err = cl.Score(context.Background(), &scorer.Pred{K: 2, P: good})
	require.NoError(t, err)
}

// TestThresholdoutServed: with training rows (public labels) and
// defence.thresholdout, a submission carries the training rows first; the
// server answers the exact training score while the holdout agrees with
// it, answers the noisy holdout score (spending the budget) when it does
// not, and refuses without charging once the budget is spent [DFHPRR15].
func TestThresholdoutServed(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n, nt = 400, 300
	hold, train := randLabels(r, n, 2), randLabels(r, nt, 2)
	none := -1
	cc := CompetitionConfig{ID: "d", Classes: 2, Metric: "leaderboard", Decimals: &none, TrainLabels: writeLabels(t, train),
		Defence:        &defence.Settings{Thresholdout: &defence.ThresholdoutSettings{T: 0.05, Sigma: 0.002, Budget: 2}},
		SimulationSeed: strings.Repeat("07", 32)}
	e := newEnv(t, [][]int{hold}, cc)
	tok := e.key("dana")
	info := e.get("/v1/competitions/d")
	require.Equal(t, http.StatusOK, info.Status, info.Raw)
	assert.Equal(t, float64(nt+n), info.Body["rows"])
	assert.Equal(t, float64(nt), info.Body["train_rows"])

	m, err := scorer.ParseModel("leaderboard")
	require.NoError(t, err)
	m = &scorer.Model{Name: m.Name, Loss: m.Loss, Decimals: -1}
	require.NoError(t, m.Validate())
	exact := func(labels []int, p []float64) float64 {
		v, err := m.Eval(labels, &scorer.Pred{K: 2, P: p})
		require.NoError(t, err)
		f, _ := v.Float64()
		return f
	}
	// An honest submission (the same model on both sets): the training
	// score is answered, exactly.
	p := make([]float64, nt+n)
	for i := range p {
		p[i] = 0.3 + 0.4*r.Float64()
	}
	got, err := strconv.ParseFloat(submitScore(t, e, tok, p), 64)
	require.NoError(t, err)
	assert.Equal(t, exact(train, p[:nt]), got, "below the threshold the training score is answered")

	// Overfitting the holdout (its labels read into the prediction):
	// the noisy holdout score is answered, twice, then nothing.
	for i, y := range hold {
		p[nt+i] = 0.1 + 0.8*float64(y)
	}
	for range 2 {
		got, err := strconv.ParseFloat(submitScore(t, e, tok, p), 64)
		require.NoError(t, err)
		h := exact(hold, p[nt:])
		assert.NotEqual(t, exact(train, p[:nt]), got)
		assert.InDelta(t, h, got, 20*0.002, "the holdout answer is the holdout score plus Lap(σ)")
	}
	before := e.count("d")
	a := e.post("/v1/competitions/d/submissions", tok, "application/json", predJSON(p))
	assert.Equal(t, http.StatusForbidden, a.Status, a.Raw)
	assert.Contains(t, a.Raw, "holdout_exhausted")
	assert.Equal(t, before, e.count("d"), "a refused submission is not charged")
}

// TestDefenceNoiseRestart: with the host's secret file, noise keyed on
// the prediction gives the same prediction the same score, also after a
// restart (averaging learns nothing), while fresh noise differs between
// two submissions of one prediction and never replays after a restart
// (a new per-process nonce).
func TestDefenceNoiseRestart(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	r := rand.New(rand.NewPCG(8, 9))
	const n = 200
	labels := randLabels(r, n, 2)
	secret := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(secret, []byte(strings.Repeat("s3cr3t-", 8)), 0o600))
	p := make([]float64, n)
	for i := range p {
		p[i] = r.Float64()
	}
	scores := func(key string) []string {
		none := -1
		cc := CompetitionConfig{ID: "d", Classes: 2, Metric: "leaderboard", Decimals: &none, DefenceSecretFile: secret,
			Defence: &defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.01, Key: key}}}
		e := newEnv(t, [][]int{labels}, cc) // a fresh server: a restart
		tok := e.key("eve")
		return []string{submitScore(t, e, tok, p), submitScore(t, e, tok, p)}
	}
	k1, k2 := scores("prediction"), scores("prediction")
	assert.Equal(t, k1[0], k1[1], "keyed: the same prediction, the same score")
	assert.Equal(t, k1, k2, "keyed: the same score after a restart")
	f1, f2 := scores("fresh"), scores("fresh")
	assert.NotEqual(t, f1[0], f1[1], "fresh: new noise for a resubmission")
	assert.NotEqual(t, f1[0], f2[0], "fresh: a restart does not replay the noise")
}

// TestDefenceStateRestart: the defence state is in the database, so a
// restarted server on the same database remembers each team's Ladder best
// (a worse submission still gets the best) and Thresholdout's spent
// budget, with no state file.
func TestDefenceStateRestart(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	r := rand.New(rand.NewPCG(10, 11))
	const n, nt = 300, 200
	hold, train := randLabels(r, n, 2), randLabels(r, nt, 2)
	db := filepath.Join(t.TempDir(), "serve.db")
	five := 5
	ladder := CompetitionConfig{ID: "d", Classes: 2, Metric: "leaderboard",
		Defence: &defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", PerTeam: true}, Decimals: &five}}
	good, bad := make([]float64, n), make([]float64, n)
	for i, y := range hold {
		good[i], bad[i] = 0.3+0.4*float64(y), 0.45+0.1*float64(y)
	}
	e, err := newEnvDB(t, db, [][]int{hold}, ladder)
	require.NoError(t, err)
	fay := e.key("fay")
	best := submitScore(t, e, fay, good)
	e.st.Close()
	e, err = newEnvDB(t, db, [][]int{hold}, ladder) // a restart
	require.NoError(t, err)
	assert.Equal(t, best, submitScore(t, e, fay, bad), "after a restart fay's ladder still holds her best")
	assert.NotEqual(t, best, submitScore(t, e, e.key("gus"), bad))

	// Thresholdout: a budget of 1, spent before the restart, stays spent.
	none := -1
	th := CompetitionConfig{ID: "t", Classes: 2, Metric: "leaderboard", Decimals: &none, TrainLabels: writeLabels(t, train),
		Defence: &defence.Settings{Thresholdout: &defence.ThresholdoutSettings{T: 0.05, Sigma: 0.002, Budget: 1}}}
	p := make([]float64, nt+n)
	for i := range nt {
		p[i] = 0.5
	}
	for i, y := range hold {
		p[nt+i] = 0.1 + 0.8*float64(y)
	}
	db = filepath.Join(t.TempDir(), "serve.db")
	e, err = newEnvDB(t, db, [][]int{hold}, th)
	require.NoError(t, err)
	hal := e.key("hal")
	e.post("/v1/competitions/t/submissions", hal, "application/json", predJSON(p))
	e.st.Close()
	e, err = newEnvDB(t, db, [][]int{hold}, th)
	require.NoError(t, err)
	a := e.post("/v1/competitions/t/submissions", hal, "application/json", predJSON(p))
	assert.Equal(t, http.StatusForbidden, a.Status, a.Raw)
	assert.Contains(t, a.Raw, "holdout_exhausted")
}

// TestDefenceStateImport: an upgraded server imports the
// defence_state_file an older one wrote into the database once and
// renames it; the Ladder carries on from the file's bests. A file that
// disagrees with the database (or does not fit the competition) stops
// the server from starting.
func TestDefenceStateImport(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	r := rand.New(rand.NewPCG(12, 13))
	const n = 300
	hold := randLabels(r, n, 2)
	dir := t.TempDir()
	db, state := filepath.Join(dir, "serve.db"), filepath.Join(dir, "state.json")
	five := 5
	ladder := CompetitionConfig{ID: "d", Classes: 2, Metric: "leaderboard", DefenceStateFile: state,
		Defence: &defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01", PerTeam: true}, Decimals: &five}}
	// What an older server wrote after fay's best of 0.2 (a better score
	// than anything below, so that only the file can explain it).
	legacy := `{"version":1,"ladder":{"fay":{"best":"1/5"}}}`
	require.NoError(t, os.WriteFile(state, []byte(legacy), 0o600))
	p := make([]float64, n)
	for i, y := range hold {
		p[i] = 0.3 + 0.4*float64(y)
	}
	e, err := newEnvDB(t, db, [][]int{hold}, ladder)
	require.NoError(t, err)
	_, err = os.Stat(state)
	assert.ErrorIs(t, err, os.ErrNotExist, "the imported file is retired")
	retired, _ := filepath.Glob(state + ".imported-*")
	assert.Len(t, retired, 1)
	fay := e.key("fay")
	assert.Equal(t, "0.20000", submitScore(t, e, fay, p), "the imported best holds")
	assert.NotEqual(t, "0.20000", submitScore(t, e, e.key("gus"), p))
	e.st.Close()

	// The old file put back: the database has moved on (gus's ladder), so
	// one of them is wrong and the server refuses to start.
	require.NoError(t, os.WriteFile(state, []byte(legacy), 0o600))
	_, err = newEnvDB(t, db, [][]int{hold}, ladder)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "disagree")
	assert.Contains(t, err.Error(), "ladder/gus only in the database")

	// A file that agrees with the database (imported, restored before any
	// submission) is retired again.
	db2 := filepath.Join(dir, "serve2.db")
	e, err = newEnvDB(t, db2, [][]int{hold}, ladder)
	require.NoError(t, err)
	e.st.Close()
	require.NoError(t, os.WriteFile(state, []byte(legacy), 0o600))
	e, err = newEnvDB(t, db2, [][]int{hold}, ladder)
	require.NoError(t, err)
	_, err = os.Stat(state)
	assert.ErrorIs(t, err, os.ErrNotExist)

	// A file that does not fit the competition is refused.
	require.NoError(t, os.WriteFile(state, []byte(legacy), 0o600))
	cc := ladder
	cc.Defence = &defence.Settings{Decimals: &five}
	_, err = newEnvDB(t, filepath.Join(dir, "serve3.db"), [][]int{hold}, cc)
	assert.ErrorContains(t, err, "has no Ladder")
	require.NoError(t, os.WriteFile(state, []byte("not json"), 0o600))
	_, err = newEnvDB(t, filepath.Join(dir, "serve4.db"), [][]int{hold}, ladder)
	assert.ErrorContains(t, err, "defence_state_file")
}

// TestReplicaNoiseNotShared: two servers on one database with fresh
// noise (no simulation_seed) draw their own noise: the same prediction
// gets different scores through each, the database holds no stream
// position, and each process's nonce is its own. Under simulation_seed
// the positions are stored (replicas continue one stream).
func TestReplicaNoiseNotShared(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 15))
	const n = 200
	labels := randLabels(r, n, 2)
	st, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "serve.db"))
	require.NoError(t, err)
	defer st.Close()
	none := -1
	cc := CompetitionConfig{ID: "d", Classes: 2, Metric: "leaderboard", Decimals: &none, PublicFraction: 1, Labels: writeLabels(t, labels),
		Defence: &defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.01}}}
	k, tok, err := NewKey("eve", time.Now())
	require.NoError(t, err)
	require.NoError(t, st.AddKey(context.Background(), k))
	p := make([]float64, n)
	for i := range p {
		p[i] = r.Float64()
	}
	score := func(srv *Server) string {
		req, _ := http.NewRequest("POST", "/v1/competitions/d/submissions", strings.NewReader(string(predJSON(p))))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		require.Equal(t, http.StatusCreated, w.Code, w.Body.String())
		return jsonNumber(t, w.Body.String(), "score")
	}
	replicas := func(cc CompetitionConfig) []*Server {
		var out []*Server
		for range 2 {
			c, err := NewCompetition(cc, nil)
			require.NoError(t, err)
			srv, err := NewServer(Options{Store: st, Competitions: []*Competition{c}})
			require.NoError(t, err)
			out = append(out, srv)
		}
		return out
	}
	scopes := func(comp string) []string {
		var out []string
		require.NoError(t, st.DefenceState(context.Background(), comp, func(tx StateTx) error {
			var err error
			out, err = tx.Scopes()
			return err
		}))
		return out
	}
	two := replicas(cc)
	// Each replica's first draw: with a shared stream (a fixed nonce, or
	// a stored counter) they would be equal.
	a, b := score(two[0]), score(two[1])
	assert.NotEqual(t, a, b, "two replicas drew the same fresh noise")
	assert.Empty(t, scopes("d"), "a real competition stores no stream position")

	cc.ID = "s"
	cc.SimulationSeed = "00000000000000000000000000000000000000000000000000000000000000d4"
	sim := replicas(cc)
	score2 := func(srv *Server) string {
		req, _ := http.NewRequest("POST", "/v1/competitions/s/submissions", strings.NewReader(string(predJSON(p))))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		require.Equal(t, http.StatusCreated, w.Code, w.Body.String())
		return jsonNumber(t, w.Body.String(), "score")
	}
	s1, s2 := score2(sim[0]), score2(sim[1])
	assert.NotEqual(t, s1, s2, "the second replica continues the stream: the next draw")
	assert.Equal(t, []string{scopeStreams}, scopes("s"))
}
