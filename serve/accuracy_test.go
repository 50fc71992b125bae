package serve

// Accuracy against the real scikit-learn (Debian's /usr/bin/python3):
// accuracy_score(y, model.predict(X)) of a decision tree whose leaves
// include exact 50/50 ones, and of synthetic predictions full of ties
// (binary p = 0.5 and its float64 neighbours, K = 3 rows with equal
// maxima), served and compared exactly. And the rule check that keeps a
// board from mixing the old tie rule with the new one, on a database
// written by the release before it (testdata/legacy-v1).

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/metric"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const pyAccuracy = `
import json, sys
import numpy as np
from sklearn.tree import DecisionTreeClassifier
from sklearn.metrics import accuracy_score
rng = np.random.default_rng(27)
cases = []
# A tree on 16 distinct points of 50 rows each; some groups hold exactly
# 25 ones, so their leaves predict 0.5 and predict() says class 0; the
# competition's labels are held-out ones of the same points.
X = np.repeat(np.arange(16).reshape(-1, 1), 50, axis=0).astype(float)
y = np.zeros(len(X), dtype=int)
ones = [25, 25, 30, 20, 25, 40, 10, 25, 25, 33, 25, 17, 25, 25, 49, 1]
for g, o in enumerate(ones):
    idx = np.arange(g * 50, g * 50 + 50)
    y[rng.permutation(idx)[:o]] = 1
tree = DecisionTreeClassifier(random_state=0).fit(X, y)
p = tree.predict_proba(X)[:, 1]
assert (p == 0.5).sum() == 8 * 50
# Scored on held-out labels of the same points, 70% ones.
yt = (rng.random(len(X)) < 0.7).astype(int)
cases.append({"name": "tree", "k": 2, "labels": yt.tolist(), "pred": p.tolist(), "want": repr(float(accuracy_score(yt, tree.predict(X))))})
# Synthetic binary: 0.5, its neighbours, random.
n = 1000
y = rng.integers(0, 2, n)
p = rng.random(n)
c = rng.integers(0, 4, n)
p[c == 0] = 0.5
p[c == 1] = np.nextafter(0.5, 1)
p[c == 2] = np.nextafter(0.5, 0)
pred = np.argmax(np.column_stack([1 - p, p]), axis=1)
cases.append({"name": "binary", "k": 2, "labels": y.tolist(), "pred": p.tolist(), "want": repr(float(accuracy_score(y, pred)))})
# K = 3 rows with tied maxima in every position.
rows = [[0.4, 0.4, 0.2], [0.2, 0.4, 0.4], [0.4, 0.2, 0.4], [1/3, 1/3, 1/3], [0.5, 0.5, 0.0], [0.0, 0.5, 0.5]]
P = np.array([rows[i % 6] if i % 3 else rng.dirichlet([1, 1, 1]) for i in range(600)])
y = rng.integers(0, 3, 600)
cases.append({"name": "k3", "k": 3, "labels": y.tolist(), "pred": P.ravel().tolist(), "want": repr(float(accuracy_score(y, np.argmax(P, axis=1))))})
json.dump(cases, sys.stdout)
`

func TestAccuracyMatchesSklearn(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: importing scikit-learn takes 10-40 s here; run without -short")
	}
	havePython(t, "sklearn")
	out, err := exec.Command("/usr/bin/python3", "-c", pyAccuracy).Output()
	require.NoError(t, err)
	var cases []struct {
		Name   string
		K      int
		Labels []int
		Pred   []float64
		Want   string
	}
	require.NoError(t, json.Unmarshal(out, &cases))
	require.Len(t, cases, 3)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			decimals := -1
			e := newEnv(t, [][]int{c.Labels}, CompetitionConfig{ID: "c", Classes: c.K, Metric: "accuracy", Decimals: &decimals})
			a := e.post("/v1/competitions/c/submissions", e.key("alice"), "application/json", predJSONK(c.Pred, c.K))
			require.Equal(t, 201, a.Status, a.Raw)
			got, err := strconv.ParseFloat(jsonNumber(t, a.Raw, "score"), 64)
			require.NoError(t, err)
			want, err := strconv.ParseFloat(c.Want, 64)
			require.NoError(t, err)
			assert.Equal(t, math.Float64bits(want), math.Float64bits(got), "served %v, scikit-learn %v", got, want)
			// The old rule (p = 0.5 is class 1) differs on the binary cases.
			v1, err := metric.Parse(metric.AccuracyV1, "")
			require.NoError(t, err)
			old := v1.Score(c.Labels, c.Pred, c.K)
			f, _ := old.R.Float64()
			if c.K == 2 {
				assert.NotEqual(t, want, f, "the old rule agrees with scikit-learn here: the case tests nothing")
			} else {
				assert.Equal(t, want, f)
			}
		})
	}
}

// copyDir copies the files of src into a new temporary directory.
func copyDir(t *testing.T, src string) string {
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	require.NoError(t, err)
	for _, e := range ents {
		in, err := os.Open(filepath.Join(src, e.Name()))
		require.NoError(t, err)
		out, err := os.Create(filepath.Join(dst, e.Name()))
		require.NoError(t, err)
		_, err = io.Copy(out, in)
		require.NoError(t, err)
		in.Close()
		require.NoError(t, out.Close())
	}
	return dst
}

// loadComps loads the config at path with acc2's metric replaced.
func loadComps(t *testing.T, path, acc2 string) (*Config, []*Competition) {
	cfg, err := LoadConfig(path)
	require.NoError(t, err)
	var comps []*Competition
	for _, cc := range cfg.Competitions {
		if cc.ID == "acc2" {
			cc.Metric = acc2
		}
		c, err := NewCompetition(cc, nil)
		require.NoError(t, err)
		comps = append(comps, c)
	}
	return cfg, comps
}

// TestRulesLegacyDatabase opens testdata/legacy-v1/legacy.db, written by
// labelinf serve before accuracy followed scikit-learn's tie rule: its
// binary accuracy competition acc2 holds a submission of all 0.5 scored
// 0.75 (6 of 8 labels are 1), acc3 (3 classes, accuracy) and ll
// (float64-sklearn) one each.
func TestRulesLegacyDatabase(t *testing.T) {
	ctx := context.Background()
	dir := copyDir(t, "testdata/legacy-v1")
	cfgPath := filepath.Join(dir, "cfg.json")

	// The new rule on acc2 is refused, at start, before listening.
	cfg, comps := loadComps(t, cfgPath, "accuracy")
	st, err := OpenStore(ctx, cfg.Database)
	require.NoError(t, err)
	err = CheckRules(ctx, st, comps)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `competition "acc2"`)
	assert.Contains(t, err.Error(), `"metric": "accuracy-v1"`)
	require.NoError(t, st.Close())
	addr := filepath.Join(dir, "addr")
	err = Command(ctx, []string{"-config", cfgPath, "-listen", "127.0.0.1:0", "-addr-file", addr}, io.Discard, io.Discard)
	require.ErrorContains(t, err, "must not mix two rules")
	_, statErr := os.Stat(addr)
	assert.True(t, os.IsNotExist(statErr), "the server listened before refusing")

	// Under accuracy-v1 it finishes with the old rule: the same prediction
	// scores 0.75 again, and the board has one rule.
	cfg, comps = loadComps(t, cfgPath, metric.AccuracyV1)
	st, err = OpenStore(ctx, cfg.Database)
	require.NoError(t, err)
	defer st.Close()
	require.NoError(t, CheckRules(ctx, st, comps))
	for _, id := range []string{"acc2", "acc3", "ll"} {
		rule, n, err := st.MetricRule(ctx, id)
		require.NoError(t, err)
		assert.EqualValues(t, 1, n)
		assert.NotEmpty(t, rule)
	}
	rule, _, _ := st.MetricRule(ctx, "acc2")
	assert.Equal(t, "accuracy binary p>=0.5", rule)
	srv, err := NewServer(Options{Store: st, Competitions: comps})
	require.NoError(t, err)
	e := &env{t: t, srv: srv, st: st}
	e.hs = httptest.NewServer(srv)
	defer e.hs.Close()
	tok, err := os.ReadFile(filepath.Join(dir, "key"))
	require.NoError(t, err)
	a := e.post("/v1/competitions/acc2/submissions", string(tok[:len(tok)-1]), "application/json", predJSON([]float64{.5, .5, .5, .5, .5, .5, .5, .5}))
	require.Equal(t, 201, a.Status, a.Raw)
	assert.Equal(t, "0.75000", jsonNumber(t, a.Raw, "score"))

	// Once recorded, going back to the new rule is refused as well.
	_, comps = loadComps(t, cfgPath, "accuracy")
	require.ErrorContains(t, CheckRules(ctx, st, comps), "must not mix two rules")
}

// TestRulesFresh: a competition without submissions takes its metric's
// rule, whatever was recorded; one with submissions keeps its rule.
func TestRulesFresh(t *testing.T) {
	ctx := context.Background()
	labels := []int{1, 1, 0, 1}
	e := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "c", Classes: 2, Metric: "accuracy"})
	c := e.comps["c"]
	require.NoError(t, CheckRules(ctx, e.st, []*Competition{c}))
	rule, n, err := e.st.MetricRule(ctx, "c")
	require.NoError(t, err)
	assert.Equal(t, "accuracy binary p>0.5", rule)
	assert.Zero(t, n)
	cc := CompetitionConfig{ID: "c", Classes: 2, Metric: metric.AccuracyV1, Labels: writeLabels(t, labels), PublicFraction: 1}
	v1, err := NewCompetition(cc, nil)
	require.NoError(t, err)
	require.NoError(t, CheckRules(ctx, e.st, []*Competition{v1}), "no score yet: the rule may change")
	require.NoError(t, CheckRules(ctx, e.st, []*Competition{c}))
	a := e.post("/v1/competitions/c/submissions", e.key("a"), "application/json", predJSON([]float64{.5, .5, .5, .5}))
	require.Equal(t, 201, a.Status, a.Raw)
	assert.Equal(t, "0.25000", jsonNumber(t, a.Raw, "score"))
	require.ErrorContains(t, CheckRules(ctx, e.st, []*Competition{v1}), "must not mix two rules")
	cc.Metric, cc.ID = "float64-sklearn", "c"
	ll, err := NewCompetition(cc, nil)
	require.NoError(t, err)
	require.ErrorContains(t, CheckRules(ctx, e.st, []*Competition{ll}), "must not mix two rules")
}

// TestRulesStateLayout: once a competition holds scores, switching its
// Thresholdout (or Ladder) between a global and a per-team state is
// refused at start: the stored state is kept by layout, and a spent
// global budget would come back as fresh per-team ones.
func TestRulesStateLayout(t *testing.T) {
	ctx := context.Background()
	hold, train := []int{0, 1, 1, 0}, []int{1, 0}
	none := -1
	trainFile := writeLabels(t, train)
	th := func(perTeam bool) CompetitionConfig {
		return CompetitionConfig{ID: "d", Classes: 2, Metric: "leaderboard", Decimals: &none, TrainLabels: trainFile,
			Defence: &defence.Settings{Thresholdout: &defence.ThresholdoutSettings{T: 0.05, Sigma: 0.002, Budget: 1, PerTeam: perTeam}}}
	}
	db := filepath.Join(t.TempDir(), "serve.db")
	e, err := newEnvDB(t, db, [][]int{hold}, th(false))
	require.NoError(t, err)
	require.NoError(t, CheckRules(ctx, e.st, []*Competition{e.comps["d"]}))
	rule, _, err := e.st.MetricRule(ctx, "d")
	require.NoError(t, err)
	assert.Equal(t, "log-loss leaderboard clip=1e-15; thresholdout global", rule)
	a := e.post("/v1/competitions/d/submissions", e.key("a"), "application/json", predJSON([]float64{.5, .5, .1, .9, .9, .1}))
	require.Equal(t, 201, a.Status, a.Raw)
	for _, perTeam := range []bool{true, false} {
		cc := th(perTeam)
		cc.Labels, cc.PublicFraction = writeLabels(t, hold), 1
		c, err := NewCompetition(cc, nil)
		require.NoError(t, err)
		err = CheckRules(ctx, e.st, []*Competition{c})
		if perTeam {
			assert.ErrorContains(t, err, "thresholdout global")
		} else {
			assert.NoError(t, err)
		}
	}
}
