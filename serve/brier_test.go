package serve

// The served Brier score against Debian's scikit-learn (brier_score_loss,
// binary) and, for K classes, the numpy expression of scikit-learn ≥ 1.7's
// multiclass Brier score, run with the system interpreter /usr/bin/python3:
// bit for bit.

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/labelinf/labelinf/metric"
	"github.com/labelinf/labelinf/scorer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const pyBrier = `
import json, sys
import numpy as np
from sklearn.metrics import brier_score_loss
d = json.load(open(sys.argv[1]))
y = np.array(d["labels"])
k = d["k"]
out = []
for p in d["preds"]:
    p = np.array(p, dtype=np.float64)
    if k == 2:
        out.append(repr(float(brier_score_loss(y, p, pos_label=1))))
    else:
        # scikit-learn >= 1.7, brier_score_loss(..., scale_by_half=False):
        onehot = np.eye(k, dtype=np.int64)[y]
        out.append(repr(float(np.average(np.sum((onehot - p.reshape(-1, k)) ** 2, axis=1)))))
json.dump(out, sys.stdout)
`

func TestBrierMatchesSklearn(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: importing scikit-learn takes 10-40 s here; run without -short")
	}
	havePython(t, "sklearn")
	for _, tc := range []struct {
		name  string
		n, k  int
		count int
	}{
		{"binary/n=300", 300, 2, 400},
		// Past numpy's 8,192-element buffers.
		{"binary/n=20000", 20000, 2, 40},
		{"k=3/n=300", 300, 3, 200},
		// K ≥ 9: the row sum is numpy's pairwise sum, not left to right.
		{"k=12/n=500", 500, 12, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(29, uint64(tc.n*100+tc.k)))
			labels := randLabels(r, tc.n, tc.k)
			decimals := -1
			e := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "c", Classes: tc.k, Metric: metric.Brier, Decimals: &decimals})
			tok := e.key("alice")
			w := tc.k
			if tc.k == 2 {
				w = 1
			}
			var preds [][]float64
			var served []string
			for range tc.count {
				p := make([]float64, tc.n*w)
				for i := range tc.n {
					row := p[i*w : (i+1)*w]
					if w == 1 {
						switch r.IntN(6) {
						case 0:
							row[0] = float64(r.IntN(2))
						case 1:
							row[0] = math.Ldexp(r.Float64(), -r.IntN(1075)) // to the subnormals
						case 2:
							row[0] = 1 - math.Ldexp(r.Float64(), -r.IntN(60))
						default:
							row[0] = r.Float64()
						}
						continue
					}
					// A row that sums to 1 within serve's tolerance.
					var s float64
					for j := range row {
						row[j] = r.Float64() * r.Float64()
						s += row[j]
					}
					for j := range row {
						row[j] /= s
					}
				}
				body := predJSON(p)
				if tc.k > 2 {
					body = predJSONK(p, tc.k)
				}
				a := e.post("/v1/competitions/c/submissions", tok, "application/json", body)
				require.Equal(t, 201, a.Status, a.Raw)
				preds = append(preds, p)
				served = append(served, jsonNumber(t, a.Raw, "score"))
			}
			in, err := json.Marshal(map[string]any{"labels": labels, "preds": preds, "k": tc.k})
			require.NoError(t, err)
			path := filepath.Join(t.TempDir(), "in.json")
			require.NoError(t, os.WriteFile(path, in, 0o644))
			out, err := exec.Command("/usr/bin/python3", "-c", pyBrier, path).Output()
			require.NoError(t, err)
			var want []string
			require.NoError(t, json.Unmarshal(out, &want))
			require.Len(t, want, tc.count)
			exact := 0
			for i := range want {
				wv, err1 := strconv.ParseFloat(want[i], 64)
				g, err2 := strconv.ParseFloat(served[i], 64)
				require.NoError(t, err1)
				require.NoError(t, err2)
				if math.Float64bits(wv) == math.Float64bits(g) {
					exact++
				} else if i-exact < 5 {
					t.Errorf("submission %d: served %s, scikit-learn computes %s", i, served[i], want[i])
				}
			}
			t.Logf("%s: %d submissions, %d bit for bit", tc.name, tc.count, exact)
			assert.Equal(t, tc.count, exact, "scores equal to scikit-learn's bit for bit")
		})
	}
}

// TestBrierBadInput: no rows, wrong lengths, labels and values out of
// range are errors, never a score.
func TestBrierBadInput(t *testing.T) {
	for _, tc := range []struct {
		name   string
		labels []int
		pred   []float64
		k      int
	}{
		{"no rows", nil, nil, 2},
		{"length", []int{0, 1}, []float64{0.5}, 2},
		{"NaN", []int{0, 1}, []float64{0.5, math.NaN()}, 2},
		{"above 1", []int{0, 1}, []float64{0.5, 1.5}, 2},
		{"label", []int{0, 2}, []float64{0.5, 0.5}, 2},
		{"k=3 length", []int{0, 2}, []float64{0.5, 0.5, 0}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := scorer.Brier(tc.labels, tc.pred, tc.k)
			assert.Error(t, err)
		})
	}
	// A prediction of 0, ½ or 1 weighs a label by +1, 0 or −1: the score
	// is exact and linear in the labels.
	s, err := scorer.Brier([]int{1, 0, 1, 1}, []float64{0, 0.5, 1, 0.5}, 2)
	require.NoError(t, err)
	assert.Equal(t, (1+0.25+0+0.25)/4, s)
}
