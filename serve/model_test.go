package serve

import (
	"math/big"
	"math/rand/v2"
	"net/http"
	"testing"

	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/require"
)

// GET /v1/competitions/{id} publishes a log-loss competition's model in
// the composed syntax: the model it names scores every submission exactly
// as the server does (clip overrides and decimals included), and the
// description does not depend on the labels.
func TestCompetitionModel(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	r := rand.New(rand.NewPCG(5, 6))
	dec := func(d int) *int { return &d }
	ccs := []CompetitionConfig{
		{ID: "sk", Classes: 2, Metric: "float64-sklearn", Decimals: dec(-1)},
		{ID: "lb", Classes: 2, Metric: "leaderboard"},
		{ID: "clip", Classes: 2, Metric: "float64-sklearn", Clip: "1e-12", Decimals: dec(7)},
		{ID: "keras", Classes: 2, Metric: "float32-keras", Clip: "1e-6"},
		{ID: "noclip", Classes: 2, Metric: "float64,clip=1e-15,renorm", Clip: "none", Decimals: dec(-1)},
		{ID: "torch", Classes: 2, Metric: "torch-bce", Decimals: dec(6)},
		{ID: "k3", Classes: 3, Metric: "float64-sklearn", Decimals: dec(5)},
		{ID: "acc", Classes: 2, Metric: metric.Accuracy},
	}
	n := 50
	var labels, other [][]int
	for _, cc := range ccs {
		labels = append(labels, randLabels(r, n, cc.Classes))
		other = append(other, randLabels(r, n, cc.Classes))
	}
	e := newEnv(t, labels, ccs...)
	e2 := newEnv(t, other, ccs...)
	tok := e.key("host")
	for i, cc := range ccs {
		a := e.get("/v1/competitions/" + cc.ID)
		require.Equal(t, http.StatusOK, a.Status, a.Raw)
		b := e2.get("/v1/competitions/" + cc.ID)
		require.Equal(t, a.Raw, b.Raw, "the description depends on the labels")
		name, _ := a.Body["model"].(string)
		if cc.Metric == metric.Accuracy {
			require.Empty(t, name)
			continue
		}
		require.NotEmpty(t, name, cc.ID)
		m, err := scorer.ParseModel(name)
		require.NoError(t, err, name)
		for range 5 {
			p := make([]float64, n*cc.Classes)
			if cc.Classes == 2 {
				p = p[:n]
				for j := range p {
					p[j] = r.Float64()
				}
			} else {
				p = p[:n*cc.Classes]
				for j := range n {
					s := 0.0
					for c := range cc.Classes {
						p[j*cc.Classes+c] = r.Float64() + 0.01
						s += p[j*cc.Classes+c]
					}
					for c := range cc.Classes {
						p[j*cc.Classes+c] /= s
					}
				}
			}
			pred := &scorer.Pred{K: cc.Classes, P: p}
			got := e.post("/v1/competitions/"+cc.ID+"/submissions", tok, "application/json", pred.AppendJSON(nil))
			require.Equal(t, http.StatusCreated, got.Status, got.Raw)
			served, ok := new(big.Rat).SetString(jsonNumber(t, got.Raw, "score"))
			require.True(t, ok)
			want, err := m.Eval(labels[i], pred)
			require.NoError(t, err)
			if m.Decimals < 0 {
				// An unrounded score is sent as the shortest decimal that
				// reads back as the float.
				sf, _ := served.Float64()
				wf, _ := want.Float64()
				require.Equal(t, wf, sf, "%s (%s)", cc.ID, name)
			} else {
				require.Zero(t, served.Cmp(want), "%s (%s): served %s, the published model gives %s", cc.ID, name, served.FloatString(20), want.FloatString(20))
			}
		}
		t.Logf("%-6s metric %-26s clip %-5q → model %s", cc.ID, cc.Metric, cc.Clip, name)
	}
}
