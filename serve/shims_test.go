package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/platform"
	"github.com/labelinf/labelinf/serve"
)

// These tests run the real shims (platform/shims) around the real
// labelinf-score binary and check that each releases what labelinf serve
// releases for the same defence, secret and prediction; the stateful
// shims submit to a serve. They are serve's, not package platform's, so
// that platform's test binary links no server, database or net/http,
// as the slim scorer does not.

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// scoreBinary builds cmd/labelinf-score once per test run.
func scoreBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "labelinf-score-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "labelinf-score")
		out, err := exec.Command("go", "build", "-o", binPath, "github.com/labelinf/labelinf/cmd/labelinf-score").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	require.NoError(t, binErr)
	return binPath
}

// python returns Debian's python3; missing is a failure under CI=true.
func python(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("/usr/bin/python3") // Debian's
	if err != nil {
		p, err = exec.LookPath("python3")
	}
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("python3 is missing: the EvalAI and Hugging Face shims cannot be tested (apt-get install python3)")
		}
		t.Skip("python3 not installed")
	}
	return p
}

const testSecret = "a host secret of more than thirty-two bytes, for tests only"

// shimDefence is the shims' defence.json.
func shimDefence(t *testing.T) defence.Settings {
	b, err := os.ReadFile("../platform/shims/codabench/defence.json")
	require.NoError(t, err)
	s, err := defence.ParseSettings(b)
	require.NoError(t, err)
	return s
}

// serveScore submits pred to a labelinf serve competition of labels with
// the defence s and the secret, and returns the released score's text.
func serveScore(t *testing.T, labels []int, pred []float64, s defence.Settings, metric string) string {
	t.Helper()
	dir := t.TempDir()
	var lb strings.Builder
	for _, y := range labels {
		fmt.Fprintln(&lb, y)
	}
	lp, sp := filepath.Join(dir, "labels"), filepath.Join(dir, "secret")
	require.NoError(t, os.WriteFile(lp, []byte(lb.String()), 0o600))
	require.NoError(t, os.WriteFile(sp, []byte(testSecret), 0o600))
	c, err := serve.NewCompetition(serve.CompetitionConfig{ID: "c", Title: "c", Labels: lp, Classes: 2, Metric: metric, PublicFraction: 1,
		Defence: &s, DefenceSecretFile: sp}, nil)
	require.NoError(t, err)
	ctx := context.Background()
	st, err := serve.OpenSQLite(ctx, filepath.Join(dir, "db.sqlite"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	k, token, err := serve.NewKey("alice", time.Now())
	require.NoError(t, err)
	require.NoError(t, st.AddKey(ctx, k))
	srv, err := serve.NewServer(serve.Options{Store: st, Competitions: []*serve.Competition{c}})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	body, _ := json.Marshal(map[string]any{"predictions": pred})
	req, _ := http.NewRequest("POST", hs.URL+"/v1/competitions/c/submissions", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var rc struct {
		Score json.RawMessage `json:"score"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&rc))
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	return string(rc.Score)
}

// predictions returns a prediction for labels: a noisy model.
func predictions(labels []int, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 31))
	p := make([]float64, len(labels))
	for i, y := range labels {
		p[i] = min(0.97, max(0.03, 0.3+0.4*float64(y)+0.25*(r.Float64()-0.5)))
	}
	return p
}

func writeCSV(t *testing.T, path string, ids []string, pred []float64) {
	var b strings.Builder
	b.WriteString("id,pred\n")
	for i, p := range pred {
		id := strconv.Itoa(i)
		if ids != nil {
			id = ids[i]
		}
		fmt.Fprintf(&b, "%s,%s\n", id, strconv.FormatFloat(p, 'g', -1, 64))
	}
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
}

func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
	require.NoError(t, os.WriteFile(dst, b, mode))
}

// TestCodabenchShim runs metadata.yaml's command in a temporary /app laid
// out as Codabench's compute worker lays it out.
func TestCodabenchShim(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	if testing.Short() {
		t.Skip("builds labelinf-score")
	}
	bin := scoreBinary(t)
	b, err := platform.Read("../platform/testdata/codabench", platform.Options{Phase: "Development", Decimals: -1, Metric: "float64-sklearn"})
	require.NoError(t, err)
	root := t.TempDir()
	app := filepath.Join(root, "app")
	copyFile(t, bin, filepath.Join(app, "program", "labelinf-score"), 0o755)
	copyFile(t, "../platform/shims/codabench/metadata.yaml", filepath.Join(app, "program", "metadata.yaml"), 0o644)
	copyFile(t, "../platform/shims/codabench/defence.json", filepath.Join(app, "program", "defence.json"), 0o644)
	copyFile(t, "../platform/testdata/codabench/reference_data/dev/solution.csv", filepath.Join(app, "input", "ref", "solution.csv"), 0o644)
	pred := predictions(b.Labels, 1)
	writeCSV(t, filepath.Join(app, "input", "res", "predictions.csv"), b.IDs, pred)
	require.NoError(t, os.MkdirAll(filepath.Join(app, "output"), 0o755))

	var meta struct {
		Command string `yaml:"command"`
	}
	mb, err := os.ReadFile("../platform/shims/codabench/metadata.yaml")
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(mb, &meta))
	args := strings.Fields(strings.ReplaceAll(meta.Command, "/app/", app+"/"))
	run := func() (string, error) {
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		return string(out), err
	}

	// Without the secret in the reference data: refused, nothing written.
	out, err := run()
	require.Error(t, err, "scored without the host's secret")
	assert.Contains(t, out, "secret-file")
	assert.NoFileExists(t, filepath.Join(app, "output", "scores.json"))

	require.NoError(t, os.WriteFile(filepath.Join(app, "input", "ref", "labelinf.secret"), []byte(testSecret), 0o600))
	out, err = run()
	require.NoError(t, err, out)
	sj, err := os.ReadFile(filepath.Join(app, "output", "scores.json"))
	require.NoError(t, err)
	var scores map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(sj, &scores))
	want := serveScore(t, b.Labels, pred, shimDefence(t), "float64-sklearn")
	assert.Equal(t, want, string(scores[b.Key]), "scores.json %s; serve released %s", sj, want)
	// Resubmitting the same prediction returns the same noise.
	require.NoError(t, os.Remove(filepath.Join(app, "output", "scores.json")))
	_, err = run()
	require.NoError(t, err)
	sj2, _ := os.ReadFile(filepath.Join(app, "output", "scores.json"))
	assert.Equal(t, string(sj), string(sj2))
}

// TestEvalAIShim imports evaluation_script/main.py in python3 and calls
// evaluate() as EvalAI's worker does.
func TestEvalAIShim(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	if testing.Short() {
		t.Skip("builds labelinf-score")
	}
	py := python(t)
	bin := scoreBinary(t)
	b, err := platform.Read("../platform/testdata/evalai", platform.Options{Phase: "dev", Decimals: -1, Metric: "float64-sklearn"})
	require.NoError(t, err)
	root := t.TempDir()
	es := filepath.Join(root, "evaluation_script")
	for _, f := range []string{"main.py", "__init__.py", "defence.json"} {
		copyFile(t, "../platform/shims/evalai/"+f, filepath.Join(es, f), 0o644)
	}
	copyFile(t, bin, filepath.Join(es, "labelinf-score"), 0o755)
	pred := predictions(b.Labels, 2)
	sub := filepath.Join(root, "submission.csv")
	writeCSV(t, sub, b.IDs, pred)
	ann, err := filepath.Abs("../platform/testdata/evalai/annotations/dev_split.csv")
	require.NoError(t, err)
	script := `import json, sys
sys.path.insert(0, sys.argv[1])
from evaluation_script import evaluate
meta = {"submission_metadata": {"participant_team": 5, "participant_team_name": "alice", "id": 123}}
print(json.dumps(evaluate(sys.argv[2], sys.argv[3], "dev", **meta)))`
	run := func() (string, error) {
		cmd := exec.Command(py, "-c", script, root, ann, sub)
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run()
	require.Error(t, err, "scored without the host's secret")
	assert.Contains(t, out, "secret")
	require.NoError(t, os.WriteFile(filepath.Join(es, "labelinf.secret"), []byte(testSecret), 0o600))
	out, err = run()
	require.NoError(t, err, out)
	var res struct {
		Result           []map[string]map[string]json.Number `json:"result"`
		SubmissionResult map[string]map[string]json.Number   `json:"submission_result"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&res), out)
	require.Len(t, res.Result, 1)
	got := res.Result[0]["dev_split"]["logloss"]
	want := serveScore(t, b.Labels, pred, shimDefence(t), "float64-sklearn")
	// Python's json writes the float back: compare as numbers of the
	// released decimals.
	assert.Equal(t, want, formatAs(t, got.String(), want), out)
	assert.Equal(t, res.Result[0], res.SubmissionResult)
}

// formatAs writes the float got with as many decimals as want has.
func formatAs(t *testing.T, got, want string) string {
	f, err := strconv.ParseFloat(got, 64)
	require.NoError(t, err)
	d := 0
	if i := strings.IndexByte(want, '.'); i >= 0 {
		d = len(want) - i - 1
	}
	return strconv.FormatFloat(f, 'f', d, 64)
}

// TestHuggingFaceShim imports metric.py in python3 and calls compute()
// with a stand-in for the competition's params and for huggingface_hub's
// hf_hub_download over a directory laid out as the private competition
// repository.
func TestHuggingFaceShim(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	if testing.Short() {
		t.Skip("builds labelinf-score")
	}
	py := python(t)
	bin := scoreBinary(t)
	b, err := platform.Read("../platform/testdata/huggingface", platform.Options{Decimals: -1})
	require.NoError(t, err)
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	copyFile(t, "../platform/testdata/huggingface/solution.csv", filepath.Join(repo, "solution.csv"), 0o644)
	copyFile(t, "../platform/testdata/huggingface/conf.json", filepath.Join(repo, "conf.json"), 0o644)
	copyFile(t, "../platform/shims/huggingface/metric.py", filepath.Join(repo, "metric.py"), 0o644)
	copyFile(t, "../platform/shims/huggingface/defence.json", filepath.Join(repo, "defence.json"), 0o644)
	copyFile(t, bin, filepath.Join(repo, "labelinf-score"), 0o644) // the hub loses the mode
	pred := predictions(b.Labels, 3)
	writeCSV(t, filepath.Join(repo, "submissions", "team7-sub42.csv"), b.IDs, pred)
	run := hfStandIn(t, py, root, repo)
	out, err := run()
	require.Error(t, err, "scored without the host's secret")
	assert.Contains(t, out, "labelinf.secret is missing")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "labelinf.secret"), []byte(testSecret), 0o600))
	out, err = run()
	require.NoError(t, err, out)
	var res map[string]map[string]json.Number
	dec := json.NewDecoder(strings.NewReader(out))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&res), out)

	// serve releases the public score of the public rows.
	var pl []int
	var pp []float64
	for i, pub := range b.Public {
		if pub {
			pl, pp = append(pl, b.Labels[i]), append(pp, pred[i])
		}
	}
	want := serveScore(t, pl, pp, shimDefence(t), "float64-sklearn")
	assert.Equal(t, want, formatAs(t, res["public_score"]["log_loss"].String(), want), out)
	// The private score is the exact metric on the private rows, rounded.
	r, err := platform.Score(b.Labels, 2, pred, b.Public, platform.ScoreOptions{Metric: "float64-sklearn", Defence: shimDefence(t), Secret: []byte(testSecret)})
	require.NoError(t, err)
	assert.Equal(t, r.Private, formatAs(t, res["private_score"]["log_loss"].String(), r.Private))
	assert.NotEqual(t, res["public_score"]["log_loss"], res["private_score"]["log_loss"])
}

// TestEvalAIShimServe runs main.py's stateful mode against a labelinf
// serve with a host token: the team is submission_metadata's
// participant_team, EvalAI's submission id the Idempotency-Key; EvalAI
// re-running the same submission is scored once; the released score is
// what serve releases to a team's own key for the same defence and
// prediction.
func TestEvalAIShimServe(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	py := python(t)
	b, err := platform.Read("../platform/testdata/evalai", platform.Options{Phase: "dev", Decimals: -1, Metric: "float64-sklearn"})
	require.NoError(t, err)
	dir := t.TempDir()
	var lb strings.Builder
	for _, y := range b.Labels {
		fmt.Fprintln(&lb, y)
	}
	lp, tp := filepath.Join(dir, "labels"), filepath.Join(dir, "host.token")
	require.NoError(t, os.WriteFile(lp, []byte(lb.String()), 0o600))
	require.NoError(t, os.WriteFile(tp, []byte(testSecret), 0o600))
	four := 4
	def := defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", PerTeam: true}, Decimals: &four}
	var comps []*serve.Competition
	for _, id := range []string{"host", "own"} {
		cc := serve.CompetitionConfig{ID: id, Title: id, Labels: lp, Classes: 2, Metric: "float64-sklearn", PublicFraction: 1, Defence: &def}
		if id == "host" {
			cc.HostTokenFile = tp
		}
		c, err := serve.NewCompetition(cc, nil)
		require.NoError(t, err)
		comps = append(comps, c)
	}
	ctx := context.Background()
	st, err := serve.OpenSQLite(ctx, filepath.Join(dir, "db.sqlite"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	srv, err := serve.NewServer(serve.Options{Store: st, Competitions: comps})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)

	root := t.TempDir()
	es := filepath.Join(root, "evaluation_script")
	for _, f := range []string{"main.py", "__init__.py", "defence.json"} {
		copyFile(t, "../platform/shims/evalai/"+f, filepath.Join(es, f), 0o644)
	}
	pred := predictions(b.Labels, 4)
	sub := filepath.Join(root, "submission.csv")
	// The submission's rows in another order than the reference's.
	order := rand.New(rand.NewPCG(4, 4)).Perm(len(pred))
	var sb strings.Builder
	sb.WriteString("id,pred\n")
	for _, i := range order {
		fmt.Fprintf(&sb, "%s,%s\n", b.IDs[i], strconv.FormatFloat(pred[i], 'g', -1, 64))
	}
	require.NoError(t, os.WriteFile(sub, []byte(sb.String()), 0o644))
	ann, err := filepath.Abs("../platform/testdata/evalai/annotations/dev_split.csv")
	require.NoError(t, err)
	script := `import json, sys
sys.path.insert(0, sys.argv[1])
from evaluation_script import evaluate
meta = {"submission_metadata": {"participant_team": 5, "participant_team_name": "alice", "id": 123}}
print(json.dumps(evaluate(sys.argv[2], sys.argv[3], "dev", **meta)))`
	run := func(tokenFile string) (string, error) {
		cmd := exec.Command(py, "-c", script, root, ann, sub)
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "LABELINF_SERVE_URL="+hs.URL+"/v1/competitions/host",
			"LABELINF_HOST_TOKEN_FILE="+tokenFile)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run(filepath.Join(dir, "missing.token"))
	require.Error(t, err, "submitted without the host token")
	assert.Contains(t, out, "host token")
	first, err := run(tp)
	require.NoError(t, err, first)
	again, err := run(tp) // EvalAI re-runs submission 123
	require.NoError(t, err, again)
	assert.Equal(t, first, again)
	subs, err := st.Submissions(ctx, "host")
	require.NoError(t, err)
	assert.Len(t, subs, 1, "a re-run submission is charged once")

	// The same prediction from the team's own key on the twin competition.
	k, token, err := serve.NewKey("5", time.Now())
	require.NoError(t, err)
	require.NoError(t, st.AddKey(ctx, k))
	body, _ := json.Marshal(map[string]any{"predictions": pred})
	req, _ := http.NewRequest("POST", hs.URL+"/v1/competitions/own/submissions", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var rc struct {
		Score json.RawMessage `json:"score"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&rc))
	var res struct {
		Result []map[string]map[string]json.Number `json:"result"`
	}
	dec := json.NewDecoder(strings.NewReader(first))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&res), first)
	want := string(rc.Score)
	assert.Equal(t, want, formatAs(t, res.Result[0]["dev_split"]["logloss"].String(), want), first)
}

// hostServe starts a labelinf serve over labels with the defence def
// and two twin competitions: "host" (host_token_file: the token file
// returned) and "own"; own submits a prediction with a team's own key
// and returns the released score.
func hostServe(t *testing.T, labels []int, def defence.Settings) (url, tokenFile string, st serve.Store, own func(team string, pred []float64) string) {
	dir := t.TempDir()
	var lb strings.Builder
	for _, y := range labels {
		fmt.Fprintln(&lb, y)
	}
	lp := filepath.Join(dir, "labels")
	tokenFile = filepath.Join(dir, "host.token")
	require.NoError(t, os.WriteFile(lp, []byte(lb.String()), 0o600))
	require.NoError(t, os.WriteFile(tokenFile, []byte(testSecret), 0o600))
	var comps []*serve.Competition
	for _, id := range []string{"host", "own"} {
		d := def
		cc := serve.CompetitionConfig{ID: id, Title: id, Labels: lp, Classes: 2, Metric: "float64-sklearn", PublicFraction: 1, Defence: &d}
		if id == "host" {
			cc.HostTokenFile = tokenFile
		}
		c, err := serve.NewCompetition(cc, nil)
		require.NoError(t, err)
		comps = append(comps, c)
	}
	ctx := context.Background()
	st, err := serve.OpenSQLite(ctx, filepath.Join(dir, "db.sqlite"))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	srv, err := serve.NewServer(serve.Options{Store: st, Competitions: comps})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	own = func(team string, pred []float64) string {
		k, token, err := serve.NewKey(team, time.Now())
		require.NoError(t, err)
		require.NoError(t, st.AddKey(ctx, k))
		body, _ := json.Marshal(map[string]any{"predictions": pred})
		req, _ := http.NewRequest("POST", hs.URL+"/v1/competitions/own/submissions", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var rc struct {
			Score json.RawMessage `json:"score"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&rc))
		return string(rc.Score)
	}
	return hs.URL + "/v1/competitions/host", tokenFile, st, own
}

// TestHuggingFaceShimServe runs metric.py's stateful mode: the public
// score is serve's (team params.team_id, Idempotency-Key hf-<submission
// id>), a re-evaluation is charged once, and it equals the release to the
// team's own key; without the host token it refuses.
func TestHuggingFaceShimServe(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	if testing.Short() {
		t.Skip("builds labelinf-score")
	}
	py := python(t)
	bin := scoreBinary(t)
	b, err := platform.Read("../platform/testdata/huggingface", platform.Options{Decimals: -1})
	require.NoError(t, err)
	var pl []int
	for i, pub := range b.Public {
		if pub {
			pl = append(pl, b.Labels[i])
		}
	}
	four := 4
	url, tokenFile, st, own := hostServe(t, pl, defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free", PerTeam: true}, Decimals: &four})
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	for _, f := range []string{"solution.csv", "conf.json"} {
		copyFile(t, "../platform/testdata/huggingface/"+f, filepath.Join(repo, f), 0o644)
	}
	for _, f := range []string{"metric.py", "defence.json"} {
		copyFile(t, "../platform/shims/huggingface/"+f, filepath.Join(repo, f), 0o644)
	}
	copyFile(t, bin, filepath.Join(repo, "labelinf-score"), 0o644)
	require.NoError(t, os.WriteFile(filepath.Join(repo, "labelinf.secret"), []byte(testSecret), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "labelinf.serve"), []byte(url+"\n"), 0o600))
	pred := predictions(b.Labels, 5)
	writeCSV(t, filepath.Join(repo, "submissions", "team7-sub42.csv"), b.IDs, pred)
	run := hfStandIn(t, py, root, repo)
	out, err := run()
	require.Error(t, err, "submitted without the host token")
	assert.Contains(t, out, "labelinf.token is missing")
	copyFile(t, tokenFile, filepath.Join(repo, "labelinf.token"), 0o600)
	first, err := run()
	require.NoError(t, err, first)
	again, err := run()
	require.NoError(t, err, again)
	assert.Equal(t, first, again)
	subs, err := st.Submissions(t.Context(), "host")
	require.NoError(t, err)
	assert.Len(t, subs, 1, "a re-evaluated submission is charged once")
	var res map[string]map[string]json.Number
	dec := json.NewDecoder(strings.NewReader(first))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&res), first)
	var pp []float64
	for i, pub := range b.Public {
		if pub {
			pp = append(pp, pred[i])
		}
	}
	want := own("team7", pp)
	assert.Equal(t, want, formatAs(t, res["public_score"]["log_loss"].String(), want), first)
}

// hfStandIn returns a run of the Hugging Face shim's metric.compute, as
// the competitions runner calls it, against repo standing in for the
// hub's dataset repository (a huggingface_hub stub under root serves its
// files): run's output and error.
func hfStandIn(t *testing.T, py, root, repo string) func() (string, error) {
	t.Helper()
	stub := filepath.Join(root, "stub", "huggingface_hub")
	require.NoError(t, os.MkdirAll(stub, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(stub, "__init__.py"), []byte(`import os
def hf_hub_download(repo_id, filename, token=None, repo_type=None):
    p = os.path.join(os.environ["HF_STANDIN_REPO"], filename)
    if not os.path.isfile(p):
        raise FileNotFoundError("404 " + filename)
    return p
`), 0o644))
	script := `import json, sys, types
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import metric
params = types.SimpleNamespace(competition_id="org/comp", competition_type="generic", metric="custom",
    token="hf_x", team_id="team7", submission_id="sub42", submission_id_col="id",
    submission_cols=["id", "pred"], submission_rows=60, output_path="/tmp", submission_repo="",
    time_limit=10, dataset="", submission_filenames=["submission.csv"])
print(json.dumps(metric.compute(params)))`
	run := func() (string, error) {
		cmd := exec.Command(py, "-c", script, filepath.Dir(stub), repo)
		cmd.Env = append(os.Environ(), "HF_STANDIN_REPO="+repo, "PYTHONDONTWRITEBYTECODE=1")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	return run
}
