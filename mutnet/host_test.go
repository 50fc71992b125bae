package mutnet

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/labelinf/labelinf/onnx"
)

// pythonOnce checks once per test binary that python3 imports onnx and
// sklearn (a few seconds on a loaded machine).
var (
	pythonOnce sync.Once
	pythonErr  error
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
	dir := os.Getenv("LABELINF_ORT_NODE")
	if dir == "" && os.Getenv("CI") != "true" {
		t.Skip("LABELINF_ORT_NODE not set (the directory holding onnxruntime-node's node_modules)")
	}
	pythonOnce.Do(func() { pythonErr = exec.Command("/usr/bin/python3", "-c", "import onnx, sklearn").Run() })
	if pythonErr != nil {
		miss("python3-onnx or python3-sklearn")
	}
	if _, err := exec.LookPath("node"); err != nil {
		miss("node")
	}
	if dir == "" {
		miss("onnxruntime-node (set LABELINF_ORT_NODE to the directory holding its node_modules)")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "onnxruntime-node")); err != nil {
		miss("onnxruntime-node under LABELINF_ORT_NODE")
	}
	return dir
}

// host is one test set on disk: the benign set's first n rows and labels.
type host struct {
	t           *testing.T
	ort, dir    string
	feats, labs string
	x           [][]float64
	y           []int
	base        map[onnx.DataType]*onnx.Model
}

func newHost(t *testing.T, n int) *host {
	h := &host{t: t, ort: hostEnv(t), dir: t.TempDir(), base: map[onnx.DataType]*onnx.Model{}}
	x := readCSV(t, "testdata/benign/features.csv")
	if !(len(x) >= n) {
		t.Fatalf("len(x) = %v, want >= %v", len(x), n)
	}
	h.x = x[:n]
	for _, l := range strings.Fields(string(must(os.ReadFile("testdata/benign/labels.csv"))))[:n] {
		h.y = append(h.y, int(must(strconv.Atoi(l))))
	}
	h.feats, h.labs = filepath.Join(h.dir, "x.csv"), filepath.Join(h.dir, "y.csv")
	var xs, ys strings.Builder
	for i, r := range h.x {
		for j, v := range r {
			if j > 0 {
				xs.WriteByte(',')
			}
			xs.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		xs.WriteByte('\n')
		fmt.Fprintln(&ys, h.y[i])
	}
	if err := os.WriteFile(h.feats, []byte(xs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.labs, []byte(ys.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dt := range []onnx.DataType{onnx.Double, onnx.Float} {
		h.base[dt] = readModel(t, fmt.Sprintf("testdata/benign/mlp2-%v.onnx", dt))
	}
	return h
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// save writes m under name and returns its path.
func (h *host) save(m *onnx.Model, name string) string {
	b, err := m.Marshal()
	if err != nil {
		h.t.Fatal(err)
	}
	p := filepath.Join(h.dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// scores runs testdata/host/host.py (onnx.checker, onnxruntime, sklearn's
// log_loss) on models, in one Python process, and returns the scores it
// prints.
func (h *host) scores(models []string, mode string, dt onnx.DataType) ([]string, error) {
	args := append([]string{"testdata/host/host.py", h.feats, h.labs}, models...)
	args = append(args, "--mode", mode, "--dtype", dt.String(), "--ort", h.ort)
	out, err := exec.Command("/usr/bin/python3", args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("host: %v: %s", err, out)
	}
	s := strings.Fields(string(out))
	if len(s) != len(models) {
		return nil, fmt.Errorf("host: %d scores for %d models: %s", len(s), len(models), out)
	}
	return s, nil
}

// score is scores for one model.
func (h *host) score(model, mode string, dt onnx.DataType) (string, error) {
	s, err := h.scores([]string{model}, mode, dt)
	if err != nil {
		return "", err
	}
	return s[0], nil
}

// TestRealHostOneScore: for each type, the largest N one score holds
// (MaxOneQuery: 41 in float64, 14 in float32 at τ = 0); every form is
// written, accepted by onnx.checker(full_check), run in onnxruntime on the
// test features (real breast-cancer rows) as the host would, carrying a
// trained MLP as base, and every label comes back from sklearn's log_loss
// of the runtime's output, verified. One more label does not plan.
func TestRealHostOneScore(t *testing.T) {
	hostEnv(t) // skip before planning when the host's tools are missing
	for _, dt := range []onnx.DataType{onnx.Double, onnx.Float} {
		for _, sig := range []bool{true, false} {
			forms := []Form{Rows, Split, Hash, Position}
			mode := "batch"
			if sig {
				forms, mode = []Form{Theorem9}, "one"
			}
			n := MaxOneQuery(Options{DType: dt, Sigmoid: sig})
			h := newHost(t, n)
			p, err := NewPlan(Options{N: n, DType: dt, Sigmoid: sig})
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewPlan(Options{N: n + 1, DType: dt, Sigmoid: sig})
			var ce *CapacityError
			if !errors.As(err, &ce) {
				t.Fatalf("%v", err)
			}
			var models []string
			for _, f := range forms {
				opt := ModelOptions{Form: f, Features: h.x, Seed: 3}
				if !sig {
					opt.Base = h.base[dt]
				}
				m, err := Build(p, 0, opt)
				if err != nil {
					t.Fatal(err)
				}
				models = append(models, h.save(m, fmt.Sprintf("%s-%v.onnx", f, dt)))
			}
			scores, err := h.scores(models, mode, dt)
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range scores {
				res, err := p.Decode(context.Background(), []string{s})
				if err != nil {
					t.Fatalf("%v %s: score %s: %v", dt, forms[i], s, err)
				}
				if !slices.Equal(res.Labels, h.y) {
					t.Errorf("%v %s: got %v, want %v", dt, forms[i], res.Labels, h.y)
				}
				if !res.Verified {
					t.Error("res.Verified is false")
				}
				t.Logf("%v %-8s N = %d: score %s, |N·score − Σt| = %.2g of the bound", dt, forms[i], n, s, res.Slack[0])
			}
		}
	}
}

// TestRealHostMultiQuery: beyond one score, one model per query: every
// label of 200 rows (float64) and 60 rows (float32) from ⌈N/block⌉ scores.
func TestRealHostMultiQuery(t *testing.T) {
	for _, c := range []struct {
		dt onnx.DataType
		n  int
	}{{onnx.Double, 200}, {onnx.Float, 60}} {
		h := newHost(t, c.n)
		block := MaxBlock(c.n, Options{DType: c.dt})
		p, err := NewPlan(Options{N: c.n, DType: c.dt, Block: block})
		if err != nil {
			t.Fatal(err)
		}
		var models []string
		for q := range p.Queries {
			m, err := Build(p, q, ModelOptions{Form: Hash, Features: h.x, Base: h.base[c.dt], Seed: 4})
			if err != nil {
				t.Fatal(err)
			}
			models = append(models, h.save(m, fmt.Sprintf("q%d.onnx", q)))
		}
		scores, err := h.scores(models, "batch", c.dt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Decode(context.Background(), scores)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.Labels, h.y) {
			t.Errorf("res.Labels = %v, want %v", res.Labels, h.y)
		}
		t.Logf("%v N = %d: block %d, %d models, every label verified", c.dt, c.n, block, len(p.Queries))
	}
}

// TestRealHostOrder: what the host's evaluation order does to each form.
// Rows and hash recognise their row by content: shuffled batches and
// batches of one give every label. Position reads the batch position: a
// shuffled batch decodes to the labels in the host's hidden order (a
// labeling that explains the score, but not the rows'), and batches of
// one give a score no labeling explains (the base model answered).
func TestRealHostOrder(t *testing.T) {
	const n = 30
	h := newHost(t, n)
	dt := onnx.Double
	p, err := NewPlan(Options{N: n, DType: dt})
	if err != nil {
		t.Fatal(err)
	}
	forms := []Form{Rows, Hash, Position}
	var models []string
	for _, f := range forms {
		m, err := Build(p, 0, ModelOptions{Form: f, Features: h.x, Base: h.base[dt], Seed: 6})
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, h.save(m, string(f)+".onnx"))
	}
	for _, mode := range []string{"shuffle", "rows"} {
		scores, err := h.scores(models, mode, dt)
		if err != nil {
			t.Fatal(err)
		}
		for i, f := range forms {
			res, err := p.Decode(context.Background(), []string{scores[i]})
			switch {
			case f != Position:
				if err != nil {
					t.Fatalf("%s %s: %v", f, mode, err)
				}
				if !slices.Equal(res.Labels, h.y) {
					t.Errorf("%s %s: got %v, want %v", f, mode, res.Labels, h.y)
				}
			case mode == "shuffle":
				if err != nil {
					t.Fatalf("%s %s: %v", f, mode, err)
				}
				if slices.Equal(h.y, res.Labels) {
					t.Errorf("%s %s: the shuffled order's labels should not be the rows': both %v", f, mode, h.y)
				}
				if got, want := count(res.Labels), count(h.y); got != want {
					t.Errorf("only the number of positives survives a shuffle: got %v, want %v", got, want)
				}
			default:
				var se *ScoreError
				if !errors.As(err, &se) {
					t.Errorf("%s %s: %v", f, mode, err)
				}
			}
		}
	}
}

func count(y []int) int {
	c := 0
	for _, v := range y {
		c += v
	}
	return c
}

// TestRealHostBase: on inputs it does not know the attack model answers
// exactly what its base model (a trained MLP) answers, in onnxruntime:
// the test rows moved by one part in 10^6 for the exact-match forms, by
// one part in 100 for the hash form (which matches within its
// projections' rounding: in float32 a row moved by 10^−6 still reads as
// its own).
func TestRealHostBase(t *testing.T) {
	const n = 30
	h := newHost(t, n)
	orig := readCSV(t, "testdata/benign/features.csv")[:n]
	for _, dt := range []onnx.DataType{onnx.Double, onnx.Float} {
		p, err := NewPlan(Options{N: n, DType: dt, Block: min(n, MaxBlock(n, Options{DType: dt}))})
		if err != nil {
			t.Fatal(err)
		}
		for _, move := range []float64{1e-6, 1e-2} {
			forms := []Form{Rows, Split}
			if move == 1e-2 {
				forms = []Form{Hash}
			}
			for i := range h.x {
				for j := range h.x[i] {
					h.x[i][j] = orig[i][j] * (1 + move)
				}
			}
			models := []string{h.save(h.base[dt], "base.onnx")}
			for _, f := range forms {
				m, err := Build(p, 0, ModelOptions{Form: f, Features: orig, Base: h.base[dt], Seed: 7})
				if err != nil {
					t.Fatal(err)
				}
				models = append(models, h.save(m, string(f)+".onnx"))
			}
			got := h.predictions(models, dt)
			for k, f := range forms {
				if !slices.Equal(got[k+1], got[0]) {
					t.Errorf("%v %s: not the base model's output off the test rows: got %v, want %v", dt, f, got[k+1], got[0])
				}
			}
		}
	}
}

// predictions runs the host on h.x and returns, per model, the
// positive-class column the runtime output.
func (h *host) predictions(models []string, dt onnx.DataType) [][]string {
	var xs strings.Builder
	for _, r := range h.x {
		for j, v := range r {
			if j > 0 {
				xs.WriteByte(',')
			}
			xs.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		xs.WriteByte('\n')
	}
	feats := filepath.Join(h.dir, "moved.csv")
	if err := os.WriteFile(feats, []byte(xs.String()), 0o644); err != nil {
		h.t.Fatal(err)
	}
	pred := filepath.Join(h.dir, "pred")
	args := append([]string{"testdata/host/host.py", feats, h.labs}, models...)
	args = append(args, "--dtype", dt.String(), "--ort", h.ort, "--predictions", pred)
	out, err := exec.Command("/usr/bin/python3", args...).CombinedOutput()
	if err != nil {
		h.t.Fatalf("%s: %v", out, err)
	}
	var all [][]string
	for k := range models {
		all = append(all, strings.Fields(string(must(os.ReadFile(fmt.Sprintf("%s.%d", pred, k))))))
	}
	return all
}

// TestRuntimeSigmoidError measures onnxruntime's sigmoid on the logits a
// plan uses (Theorem 9's output is σ(x′) exactly on v ≥ 0) against σ
// computed in 128 bits: the absolute error must stay within
// DefaultSigmoidULPs units of 2^−p.
func TestRuntimeSigmoidError(t *testing.T) {
	h := newHost(t, 30)
	for _, dt := range []onnx.DataType{onnx.Double, onnx.Float} {
		n := MaxOneQuery(Options{DType: dt, Sigmoid: true})
		p, err := NewPlan(Options{N: n, DType: dt, Sigmoid: true})
		if err != nil {
			t.Fatal(err)
		}
		m, err := Build(p, 0, ModelOptions{Form: Theorem9, Dim: 30, Seed: 8})
		if err != nil {
			t.Fatal(err)
		}
		path := h.save(m, "t9.onnx")
		pred := filepath.Join(h.dir, "pred")
		var labs strings.Builder
		for i := range n {
			fmt.Fprintln(&labs, i%2)
		}
		labPath := filepath.Join(h.dir, "labs.txt")
		if err := os.WriteFile(labPath, []byte(labs.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("/usr/bin/python3", "testdata/host/host.py", h.feats, labPath, path, "--mode", "one", "--dtype", dt.String(), "--ort", h.ort, "--predictions", pred).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		x, err := p.RowLogits(0)
		if err != nil {
			t.Fatal(err)
		}
		u, _, _ := unit(dt)
		worst := 0.0
		for i, s := range strings.Fields(string(must(os.ReadFile(pred + ".0")))) {
			got := must(strconv.ParseFloat(s, 64))
			want := sigmoid128(x[i])
			worst = max(worst, math.Abs(got-want)/u)
		}
		t.Logf("%v: onnxruntime's sigmoid within %.3g units of 2^−p (absolute) on %d logits down to %g", dt, worst, n, x[n-1])
		if !(worst <= float64(DefaultSigmoidULPs)) {
			t.Errorf("worst = %v, want <= %v", worst, float64(DefaultSigmoidULPs))
		}
	}
}

// sigmoid128 returns σ(x) computed in 128 bits, rounded to float64.
func sigmoid128(x float64) float64 {
	e := new(big.Float).SetPrec(128)
	v := expBig(new(big.Float).SetPrec(128).SetFloat64(-x))
	e.Add(v, big.NewFloat(1))
	r, _ := new(big.Float).SetPrec(128).Quo(big.NewFloat(1), e).Float64()
	return r
}
