package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuditBundle: labelinf audit -bundle prints, before the grid, each
// setting read from a Codabench, an EvalAI and a Hugging Face bundle and
// from the Kaggle preset, with the field it came from; the "as
// configured" cell is audited with them. Under -short the Hugging Face
// bundle (whose metric comes from the bundle) and the Kaggle preset (a
// solution file and flags) only: package platform's TestRead* read the
// other two under -short too.
func TestAuditBundle(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	td := filepath.Join("..", "..", "platform", "testdata")
	for _, c := range []struct {
		name  string
		args  []string
		want  []string
		short bool
	}{
		{"codabench", []string{"-bundle", filepath.Join(td, "codabench"), "-phase", "Development", "-metric", "float64-sklearn"},
			[]string{"decimals         10                     (Codabench stores scores.json's value to 10 decimals (SubmissionScore) and shows 4 (leaderboards[0].columns[0].precision)",
				"daily_limit      10                     (phases[0].max_submissions_per_day)"}, false},
		{"evalai", []string{"-bundle", filepath.Join(td, "evalai", "challenge_config.yaml"), "-phase", "dev", "-metric", "float64-sklearn"},
			[]string{"decimals         3                      (challenge_phase_splits[0].leaderboard_decimal_precision)",
				"total_limit      500                    (challenge_phases[0].max_submissions)"}, false},
		{"huggingface", []string{"-bundle", filepath.Join(td, "huggingface")},
			[]string{"daily_limit      5                      (SUBMISSION_LIMIT (per day))",
				`metric           float64-sklearn        (EVAL_METRIC "log_loss")`}, true},
		{"kaggle", []string{"-platform", "kaggle", "-bundle", filepath.Join(td, "kaggle", "solution.csv"), "-daily-limit", "5", "-metric", "leaderboard"},
			[]string{"decimals         5                      (Kaggle's leaderboard",
				`public_fraction  0.4                    (solution.csv column "Usage": 20 of 50 rows public)`}, true},
	} {
		if testing.Short() && !c.short {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"audit", "-inprocess", "-quiet"}, c.args...)
			require.Equal(t, 0, run(args, &out, &errb), errb.String())
			for _, w := range c.want {
				assert.Contains(t, out.String(), w)
			}
			assert.Contains(t, out.String(), "as configured")
		})
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"two phases", []string{"-bundle", filepath.Join(td, "evalai")}, "2 phases (dev, test): pick one with -phase NAME"},
		{"no metric", []string{"-bundle", filepath.Join(td, "codabench"), "-phase", "Final"}, "tasks[1].scoring_program"},
		{"kaggle without limit", []string{"-platform", "kaggle", "-bundle", filepath.Join(td, "kaggle", "solution.csv"), "-metric", "leaderboard"}, "-daily-limit"},
		{"both", []string{"-config", "x.json", "-bundle", filepath.Join(td, "huggingface")}, "exclude each other"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			assert.Equal(t, 2, run(append([]string{"audit", "-inprocess", "-quiet"}, c.args...), &out, &errb))
			assert.Contains(t, errb.String(), c.want)
		})
	}
}

// TestScoreUsage: labelinf score refuses a stateful defence and noise
// without the host's secret before reading anything.
func TestScoreUsage(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o600))
		return p
	}
	noise := write("noise.json", `{"noise": {"kind": "gaussian", "scale": 0.01, "key": "prediction"}, "decimals": 4}`)
	ladder := write("ladder.json", `{"ladder": {"kind": "parameter-free"}}`)
	ref, res := write("ref.csv", "id,y\na,0\nb,1\n"), write("res.csv", "id,p\nb,0.8\na,0.3\n")
	short := write("short.secret", "short")
	base := []string{"score", "-platform", "huggingface", "-metric", "float64-sklearn", "-key", "log_loss", "-ref", ref, "-res", res}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-defence", noise}, 2, "-secret-file is required"},
		{[]string{"-defence", noise, "-secret-file", short}, 2, "want at least 32"},
		{[]string{"-defence", ladder}, 2, "run it in labelinf serve"},
		{nil, 0, `"public_score":{"log_loss":0.2899`},
	} {
		var out, errb bytes.Buffer
		code := run(append(append([]string(nil), base...), c.args...), &out, &errb)
		assert.Equal(t, c.code, code, errb.String())
		assert.Contains(t, out.String()+errb.String(), c.want)
	}
	// Ids are matched: the rows of res.csv are in another order.
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(append(base[:len(base):len(base)], "-column", "y"), &out, &errb), errb.String())
	assert.True(t, strings.HasPrefix(out.String(), `{"private_score":{"log_loss":0.2899`), out.String())
}
