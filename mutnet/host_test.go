package mutnet

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/onnx"
	"github.com/stretchr/testify/require"
)

// hostEnv returns the directory holding onnxruntime-node's node_modules
// (LABELINF_ORT_NODE), after checking that python3-onnx, scikit-learn and
// node are present. Missing tools skip the test, except under CI=true,
// where .ci/run installs them and their absence is a failure.
func hostEnv(t *testing.T) string {
	t.Helper()
	miss := func(what string) {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s missing under CI=true (.ci/run installs it)", what)
		}
		t.Skipf("%s not installed", what)
	}
	if err := exec.Command("/usr/bin/python3", "-c", "import onnx, sklearn").Run(); err != nil {
		miss("python3-onnx or python3-sklearn")
	}
	if _, err := exec.LookPath("node"); err != nil {
		miss("node")
	}
	dir := os.Getenv("LABELINF_ORT_NODE")
	if dir == "" {
		miss("onnxruntime-node (set LABELINF_ORT_NODE to the directory holding its node_modules)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "onnxruntime-node")); err != nil {
		miss("onnxruntime-node under LABELINF_ORT_NODE")
	}
	return dir
}

// writeCSV writes rows as the host reads them.
func writeCSV(t *testing.T, path string, rows [][]float64) {
	var sb strings.Builder
	for _, r := range rows {
		for j, v := range r {
			if j > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "%v", v)
		}
		sb.WriteByte('\n')
	}
	require.NoError(t, os.WriteFile(path, []byte(sb.String()), 0o644))
}

func writeLabels(t *testing.T, path string, y []int) {
	var sb strings.Builder
	for _, v := range y {
		fmt.Fprintln(&sb, v)
	}
	require.NoError(t, os.WriteFile(path, []byte(sb.String()), 0o644))
}

// hostScore runs testdata/host/host.py on a model and returns the score it
// prints.
func hostScore(t *testing.T, ort, model, feats, labels, mode, dtype string) (string, error) {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", "testdata/host/host.py", model, feats, labels, "--mode", mode, "--dtype", dtype, "--ort", ort)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("host: %v: %s", err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// testData draws n distinct rows of d Gaussian features (rounded to 1/64,
// as real features often are, and exact in float32) and n labels.
func testData(rng *rand.Rand, n, d int) ([][]float64, []int) {
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = float64(int(rng.NormFloat64()*256)) / 64
		}
		y[i] = rng.IntN(2)
	}
	return x, y
}

func saveModel(t *testing.T, m *onnx.Model, path string) {
	b, err := m.Marshal()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// TestRealHost writes every form, checks it with onnx.checker, runs it in
// onnxruntime on the test features as the host would (scikit-learn's
// log_loss on the runtime's output) and recovers every label from the one
// score, in float32 and float64.
func TestRealHost(t *testing.T) {
	ort := hostEnv(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, dt := range []onnx.DataType{onnx.Double, onnx.Float} {
		n := MaxBlock(40, dt, 0, 0)
		x, y := testData(rng, n, 5)
		feats, labs := filepath.Join(dir, "x.csv"), filepath.Join(dir, "y.csv")
		writeCSV(t, feats, x)
		writeLabels(t, labs, y)
		p, err := NewPlan(Options{N: n, DType: dt})
		require.NoError(t, err)
		for _, f := range Forms {
			t.Run(fmt.Sprintf("%v/%s", dt, f), func(t *testing.T) {
				m, err := Build(p, 0, ModelOptions{Form: f, Features: x, Seed: 3})
				require.NoError(t, err)
				path := filepath.Join(dir, fmt.Sprintf("%s-%v.onnx", f, dt))
				saveModel(t, m, path)
				mode := "batch"
				if f == Theorem9 {
					mode = "one"
				}
				s, err := hostScore(t, ort, path, feats, labs, mode, dt.String())
				require.NoError(t, err)
				res, err := p.Decode(context.Background(), []string{s})
				require.NoError(t, err, "score %s", s)
				require.Equal(t, y, res.Labels)
				j, _ := json.Marshal(res.Slack)
				t.Logf("N = %d score %s slack %s", n, s, j)
			})
		}
	}
}
