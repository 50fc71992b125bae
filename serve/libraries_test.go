package serve

// The served scores against the real libraries: Debian's scikit-learn
// (log_loss) and PyTorch (binary_cross_entropy), run with the system
// interpreter /usr/bin/python3, must agree bit for bit.
//
// They do because the metrics' models are the libraries' own arithmetic:
// scikit-learn 1.2.1 takes its logs through scipy.special.xlogy, which
// calls glibc's log (not numpy's SIMD np.log), and PyTorch 1.13.1's CPU
// binary_cross_entropy calls glibc's logf on each float32 and sums with its
// cascade of vector accumulators; the float64-sklearn and torch-bce
// presets name both (log=glibc, sum=torch-cascade; see package libm for
// the CPU variant). On a CPU without FMA, glibc runs other variants of its
// log: the models are then log=glibc-nofma, and this test reports the
// mismatches.

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

const pyScorer = `
import json, sys
import numpy as np
d = json.load(open(sys.argv[1]))
out = []
if d["lib"] == "sklearn":
    from sklearn.metrics import log_loss
    y = np.array(d["labels"])
    for p in d["preds"]:
        out.append(repr(float(log_loss(y, np.array(p, dtype=np.float64), labels=[0, 1]))))
else:
    import torch
    y = torch.tensor(d["labels"], dtype=torch.float32)
    for p in d["preds"]:
        x = torch.tensor(p, dtype=torch.float64).float()
        out.append(repr(float(torch.nn.functional.binary_cross_entropy(x, y).item())))
json.dump(out, sys.stdout)
`

func havePython(t *testing.T, module string) {
	t.Helper()
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		need(t, "/usr/bin/python3", "apt-get install -y python3")
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import "+module).Run(); err != nil {
		pkg := map[string]string{"sklearn": "python3-sklearn", "torch": "python3-torch"}[module]
		need(t, "Python module "+module, "apt-get install -y "+pkg)
	}
}

func TestScoresMatchLibraries(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: importing scikit-learn and PyTorch takes 10-40 s here; run without -short")
	}
	subs := 1000
	for _, lib := range []struct {
		name, metric, module string
		f32                  bool
	}{
		{"sklearn", "float64-sklearn", "sklearn", false},
		{"torch", "torch-bce", "torch", true},
	} {
		t.Run(lib.name, func(t *testing.T) {
			havePython(t, lib.module)
			r := rand.New(rand.NewPCG(21, uint64(len(lib.name))))
			// Two sizes: one inside numpy's first pairwise block structure,
			// one past its 8,192-element buffers.
			for _, n := range []int{300, 20000} {
				count := subs * 9 / 10
				if n > 1000 {
					count = max(subs/10, 2)
				}
				labels := randLabels(r, n, 2)
				decimals := -1
				e := newEnv(t, [][]int{labels}, CompetitionConfig{ID: "c", Classes: 2, Metric: lib.metric, Decimals: &decimals})
				tok := e.key("alice")
				var preds [][]float64
				var served []string
				for range count {
					p := make([]float64, n)
					for i := range p {
						switch r.IntN(10) {
						case 0:
							p[i] = float64(r.IntN(2)) // exact 0 or 1: clipped / clamped
						case 1:
							p[i] = math.Ldexp(r.Float64(), -r.IntN(60))
						case 2: // down to float64's subnormals (0 in float32)
							p[i] = math.Ldexp(r.Float64(), -r.IntN(1075))
						case 3: // near 1: clipping at 1−eps, glibc's near-1 path, 1−p rounding
							p[i] = 1 - math.Ldexp(r.Float64(), -r.IntN(60))
						default:
							p[i] = r.Float64()
						}
					}
					a := e.post("/v1/competitions/c/submissions", tok, "application/json", predJSON(p))
					require.Equal(t, 201, a.Status, a.Raw)
					preds = append(preds, p)
					served = append(served, jsonNumber(t, a.Raw, "score"))
				}
				in, err := json.Marshal(map[string]any{"lib": lib.name, "labels": labels, "preds": preds})
				require.NoError(t, err)
				path := filepath.Join(t.TempDir(), "in.json")
				require.NoError(t, os.WriteFile(path, in, 0o644))
				out, err := exec.Command("/usr/bin/python3", "-c", pyScorer, path).Output()
				require.NoError(t, err)
				var want []string
				require.NoError(t, json.Unmarshal(out, &want))
				require.Len(t, want, count)
				exact, differ := 0, 0
				for i := range want {
					w, err1 := strconv.ParseFloat(want[i], 64)
					g, err2 := strconv.ParseFloat(served[i], 64)
					require.NoError(t, err1)
					require.NoError(t, err2)
					if math.Float64bits(w) == math.Float64bits(g) {
						exact++
						continue
					}
					ulp := math.Nextafter(w, math.Inf(1)) - w
					if lib.f32 {
						ulp = float64(math.Nextafter32(float32(w), float32(math.Inf(1))) - float32(w))
					}
					if differ++; differ <= 5 {
						t.Errorf("n=%d submission %d: served %s, %s computes %s (%.1f ulps apart)", n, i, served[i], lib.name, want[i], math.Abs(g-w)/ulp)
					}
				}
				t.Logf("%s n=%d: %d submissions, %d bit for bit", lib.name, n, count, exact)
				if exact != count {
					t.Errorf("%s n=%d: %d of %d scores differ from the library's", lib.name, n, count-exact, count)
				}
			}
		})
	}
}
