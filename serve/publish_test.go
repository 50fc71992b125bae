package serve

// What a competition publishes: the metric's model always; the defence's
// parameters only with publish_defence, and then only the allow-list
// (PublishedDefence). Every configuration field that must stay private
// is looked for in every public answer, by name and by value.

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/defence"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonKeys collects every object key in a JSON document.
func jsonKeys(v any, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			out[k] = true
			jsonKeys(x, out)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, out)
		}
	}
}

func TestPublishDefenceAllowList(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	const n, nt = 1000, 200
	hold, train := randLabels(r, n, 2), randLabels(r, nt, 2)
	dir := t.TempDir()
	secretText := "s3cr3t-noise-key-" + strings.Repeat("q", 32)
	secret := filepath.Join(dir, "secret-file-name")
	require.NoError(t, os.WriteFile(secret, []byte(secretText), 0o600))
	splitSeed := "5d1f0c7e3a9b2486f0e1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f7081"
	simSeed := strings.Repeat("c7", 32)
	five := 5
	ccs := []CompetitionConfig{
		{ID: "keyed", Classes: 2, Metric: "leaderboard", PublishDefence: true, DefenceSecretFile: secret,
			DefenceStateFile: filepath.Join(dir, "state-file-name.json"),
			Defence: &defence.Settings{Split: &defence.SplitSettings{Public: 0.6, Seed: splitSeed}, Subset: 500,
				Ladder:   &defence.LadderSettings{Kind: "fixed", Eta: "0.01", PerTeam: true},
				Noise:    &defence.NoiseSettings{Kind: "laplace", Scale: 0.002, Key: "prediction"},
				Decimals: &five, Limits: defence.LimitSettings{PerDay: 3, MinInterval: "1m"}}},
		{ID: "sim", Classes: 2, Metric: "leaderboard", PublishDefence: true, SimulationSeed: simSeed, TrainLabels: writeLabels(t, train),
			Defence: &defence.Settings{Thresholdout: &defence.ThresholdoutSettings{T: 0.05, Sigma: 0.002, Budget: 4, PerTeam: true, Exhausted: "train"}}},
		{ID: "fraction", Classes: 2, Metric: "float64-sklearn", PublishDefence: true, PublicFraction: 0.3, SplitSeed: 987654321,
			Defence: &defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.001}}},
		{ID: "quiet", Classes: 2, Metric: "float64-sklearn", PublicFraction: 0.3, SplitSeed: 987654321,
			Defence: &defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.001}}},
	}
	e := newEnv(t, [][]int{hold, hold, hold, hold}, ccs...)
	tok := e.key("pat")
	// A submission, so that the stored state and the boards are not empty.
	p := make([]float64, n)
	for i := range p {
		p[i] = r.Float64()
	}
	a := e.post("/v1/competitions/keyed/submissions", tok, "application/json", predJSON(p))
	require.Equal(t, 201, a.Status, a.Raw)
	assert.Equal(t, float64(500), a.Body["rows"], "the receipt's rows are those the score covers")

	var answers []string
	for _, path := range []string{"/v1/competitions", "/v1/competitions/keyed", "/v1/competitions/sim", "/v1/competitions/fraction",
		"/v1/competitions/quiet", "/v1/competitions/keyed/leaderboard", "/", "/competitions/keyed"} {
		a := e.get(path)
		require.Equal(t, 200, a.Status, path)
		answers = append(answers, a.Raw)
	}
	private := []string{
		// field names
		"seed", "secret", "state", "simulation", "labels", "public_rows_list",
		// values
		splitSeed, simSeed, secretText, "secret-file-name", "state-file-name", "987654321", dir,
	}
	for i, raw := range answers {
		low := strings.ToLower(raw)
		for _, s := range private {
			assert.NotContains(t, low, strings.ToLower(s), "answer %d publishes %q", i, s)
		}
	}
	// Every key of the published defences is on the allow-list.
	allowed := map[string]bool{"split": true, "public": true, "close": true, "subset": true, "thresholdout": true, "t": true,
		"sigma": true, "budget": true, "gaussian": true, "per_team": true, "exhausted": true, "ladder": true, "kind": true,
		"eta": true, "grid": true, "noise": true, "scale": true, "key": true, "decimals": true, "clip": true, "limits": true,
		"per_day": true, "total": true, "min_interval": true}
	for _, id := range []string{"keyed", "sim", "fraction"} {
		a := e.get("/v1/competitions/" + id)
		d, ok := a.Body["defence"]
		require.True(t, ok, "%s publishes its defence", id)
		keys := map[string]bool{}
		jsonKeys(d, keys)
		for k := range keys {
			assert.True(t, allowed[k], "%s: defence key %q is not on the allow-list", id, k)
		}
	}
	keyed := e.get("/v1/competitions/keyed")
	assert.Equal(t, float64(500), keyed.Body["public_rows"], "a subset score covers 500 rows")
	assert.Equal(t, "binary64,clip=1e-15,dec=5", keyed.Body["model"], "the metric's model is published behind a defence")
	var got struct{ Defence PublishedDefence }
	require.NoError(t, json.Unmarshal([]byte(keyed.Raw), &got))
	assert.Equal(t, 0.6, got.Defence.Split.Public)
	assert.Equal(t, &defence.LadderSettings{Kind: "fixed", Eta: "0.01", PerTeam: true}, got.Defence.Ladder)
	assert.Equal(t, "prediction", got.Defence.Noise.Key)
	assert.Equal(t, 5, *got.Defence.Decimals)
	assert.Equal(t, []string{"a public/private split (0.6 public)", "a random subset of 500 rows per score",
		"a per-team fixed Ladder", "prediction laplace noise of scale 0.002"}, got.Defence.Unmodelled())
	sim := e.get("/v1/competitions/sim")
	assert.Equal(t, float64(nt+n), sim.Body["rows"])
	assert.Equal(t, float64(n), sim.Body["public_rows"])
	assert.Contains(t, sim.Raw, `"thresholdout":{"t":0.05,"sigma":0.002,"budget":4,"per_team":true,"exhausted":"train"}`)
	frac := e.get("/v1/competitions/fraction")
	assert.Equal(t, float64(300), frac.Body["public_rows"])
	// Without publish_defence: the model, nothing of the defence.
	quiet := e.get("/v1/competitions/quiet")
	_, has := quiet.Body["defence"]
	assert.False(t, has, quiet.Raw)
	assert.NotEmpty(t, quiet.Body["model"])
	// Which rows are public: no list of row indices anywhere.
	for _, raw := range answers {
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			continue // the HTML pages
		}
		keys := map[string]bool{}
		jsonKeys(v, keys)
		assert.False(t, slices.ContainsFunc(mapKeys(keys), func(k string) bool {
			return strings.Contains(k, "row") && k != "rows" && k != "public_rows" && k != "train_rows"
		}), "%v", keys)
	}
}

func mapKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestPublishDefenceNeedsDefence: publish_defence without a defence is a
// configuration error, and a subset larger than the public rows is
// refused at start rather than at the first submission.
func TestPublishDefenceNeedsDefence(t *testing.T) {
	l := writeLabels(t, []int{0, 1, 0, 1})
	_, err := NewCompetition(CompetitionConfig{ID: "a", Classes: 2, Metric: "accuracy", Labels: l, PublicFraction: 1, PublishDefence: true}, nil)
	assert.ErrorContains(t, err, "publish_defence need a defence")
	_, err = NewCompetition(CompetitionConfig{ID: "a", Classes: 2, Metric: "accuracy", Labels: l, PublicFraction: 0.5,
		Defence: &defence.Settings{Subset: 3}}, nil)
	assert.ErrorContains(t, err, "subset 3 over the 2 public rows")
}
