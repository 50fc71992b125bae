package serve

// Thresholdout served: the global budget (the default) is spent for
// every team by one team's overfitting; per_team keeps one per team; the
// host chooses what a spent budget answers (refuse, or the training
// score alone); per-team budgets survive a restart in the state file.

import (
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestThresholdoutBudgets(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	r := rand.New(rand.NewPCG(27, 7))
	const n, nt = 400, 300
	hold, train := randLabels(r, n, 2), randLabels(r, nt, 2)
	trainFile := writeLabels(t, train)
	none := -1
	comp := func(perTeam bool, exhausted string) CompetitionConfig {
		return CompetitionConfig{ID: "d", Classes: 2, Metric: "leaderboard", Decimals: &none, TrainLabels: trainFile,
			Defence: &defence.Settings{Thresholdout: &defence.ThresholdoutSettings{T: 0.05, Sigma: 0.002, Budget: 2, PerTeam: perTeam, Exhausted: exhausted}}}
	}
	m, err := scorer.ParseModel("leaderboard")
	require.NoError(t, err)
	m = &scorer.Model{Name: m.Name, Loss: m.Loss, Decimals: -1}
	require.NoError(t, m.Validate())
	trainScore := func(p []float64) string {
		v, err := m.Eval(train, &scorer.Pred{K: 2, P: p[:nt]})
		require.NoError(t, err)
		f, _ := v.Float64()
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	// honest: the same model on both sets; overfit: the holdout's labels
	// read into the prediction (the holdout answers, spending budget).
	honest, overfit := make([]float64, nt+n), make([]float64, nt+n)
	for i := range honest {
		honest[i] = 0.3 + 0.4*r.Float64()
		overfit[i] = honest[i]
	}
	for i, y := range hold {
		overfit[nt+i] = 0.1 + 0.8*float64(y)
	}
	spend := func(e *env, tok string) {
		t.Helper()
		for range 2 {
			got := submitScore(t, e, tok, overfit)
			assert.NotEqual(t, trainScore(overfit), got, "the holdout answers")
		}
	}
	refused := func(e *env, tok string, p []float64, msg string) {
		t.Helper()
		before := e.count("d")
		a := e.post("/v1/competitions/d/submissions", tok, "application/json", predJSON(p))
		assert.Equal(t, http.StatusForbidden, a.Status, a.Raw)
		assert.Contains(t, a.Raw, "holdout_exhausted")
		assert.Contains(t, a.Raw, msg)
		assert.Equal(t, before, e.count("d"), "refused, not charged")
	}

	t.Run("global: one team spends it for all", func(t *testing.T) {
		e := newEnv(t, [][]int{hold}, comp(false, ""))
		spend(e, e.key("mallory"))
		refused(e, e.key("honest"), honest, "shared by every team")
	})
	t.Run("per team", func(t *testing.T) {
		e := newEnv(t, [][]int{hold}, comp(true, ""))
		mal, hon := e.key("mallory"), e.key("honest")
		spend(e, mal)
		refused(e, mal, honest, "your team's")
		assert.Equal(t, trainScore(honest), submitScore(t, e, hon, honest), "another team is answered as before")
		spend(e, hon)
		refused(e, hon, honest, "your team's")
	})
	t.Run("exhausted train", func(t *testing.T) {
		e := newEnv(t, [][]int{hold}, comp(false, "train"))
		spend(e, e.key("mallory"))
		hon := e.key("honest")
		before := e.count("d")
		assert.Equal(t, trainScore(overfit), submitScore(t, e, hon, overfit), "spent: the training score, not the holdout's")
		assert.Equal(t, trainScore(honest), submitScore(t, e, hon, honest))
		assert.Equal(t, before+2, e.count("d"), "answered and charged")
	})
	t.Run("per-team state survives a restart", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "serve.db")
		e, err := newEnvDB(t, db, [][]int{hold}, comp(true, ""))
		require.NoError(t, err)
		mal, hon := e.key("mallory"), e.key("honest")
		spend(e, mal)
		require.NoError(t, e.st.Close())
		e, err = newEnvDB(t, db, [][]int{hold}, comp(true, "")) // a restart
		require.NoError(t, err)
		refused(e, mal, honest, "your team's")
		assert.Equal(t, trainScore(honest), submitScore(t, e, hon, honest))
	})
}
