package audit

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/defence"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

func intp(v int) *int { return &v }

// small runs a small audit of the given grid.
func small(t *testing.T, rows int, grid []Cell) *Report {
	t.Helper()
	cfg := &Config{Rows: rows, LabelSeed: 5, Seed: 9, Measure: 400, Grid: grid, NoConfigured: true}
	rep, err := Run(context.Background(), cfg, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func cellByName(t *testing.T, rep *Report, name string) *CellResult {
	t.Helper()
	for i := range rep.Cells {
		if rep.Cells[i].Name == name {
			return &rep.Cells[i]
		}
	}
	t.Fatalf("no cell %q", name)
	return nil
}

// TestVerdictNone: with no defence the cell is not stopped, and the
// block code's cost is the query count of the same attack run directly
// against oracle.Sim (the same model, no defence chain).
func TestVerdictNone(t *testing.T) {
	rep := small(t, 120, []Cell{{Name: "none"}})
	c := cellByName(t, rep, "none")
	if c.Stopped || c.PublicRecovered != 1 || c.PublicVerified != 1 {
		t.Fatalf("none: stopped %v, recovered %v (verified %v); want not stopped, 1 (1)", c.Stopped, c.PublicRecovered, c.PublicVerified)
	}
	var blocks *AttackResult
	for i := range c.Attacks {
		if c.Attacks[i].Attack == "blocks" {
			blocks = &c.Attacks[i]
		}
	}
	cfg := &Config{Rows: 120, LabelSeed: 5}
	comp, err := cfg.resolve()
	if err != nil {
		t.Fatal(err)
	}
	sim, err := oracle.NewSim(comp.model, comp.labels, 2)
	if err != nil {
		t.Fatal(err)
	}
	res, err := decode.AttackMulti(context.Background(), sim, decode.MultiOptions{Strategy: decode.Blocks, Model: comp.model, Check: true})
	if err != nil || !res.Verified {
		t.Fatalf("direct block code: %v", err)
	}
	if blocks == nil || blocks.Needed != int64(res.Queries) || blocks.Outcome != "recovered" || blocks.Wrong != 0 {
		t.Fatalf("block code in the audit: %+v; direct attack: %d queries", blocks, res.Queries)
	}
	if c.Best == "" || c.Submissions > blocks.Needed {
		t.Errorf("best %q at %d submissions; the block code needs %d", c.Best, c.Submissions, blocks.Needed)
	}
}

// TestVerdictStopped: defences that stop every attack at this size say
// stopped with nothing recovered — noise far above a label's move
// whose averaging would need more submissions than the limit, and the
// fixed-step Ladder.
func TestVerdictStopped(t *testing.T) {
	rep := small(t, 120, []Cell{
		{Name: "loud", Defence: defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 50}}},
		{Name: "ladder", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01"}}},
	})
	for _, name := range []string{"loud", "ladder"} {
		c := cellByName(t, rep, name)
		if !c.Stopped {
			t.Errorf("%s: not stopped: %+v", name, c)
		}
		if c.PublicRecovered >= StopFraction {
			t.Errorf("%s: %v of the labels recovered within the limit", name, c.PublicRecovered)
		}
		for _, a := range c.Attacks {
			if a.Outcome == "recovered" && a.Needed <= c.Limit {
				t.Errorf("%s: %s recovered within the limit: %+v", name, a.Attack, a)
			}
		}
	}
	// A daily limit of 1 over 1 day: the limit is 1 submission, the
	// fraction recovered within it is what the attack had decoded after
	// one query (some, not all), and the days the attack needs are its
	// submissions; 10 accounts give 10 submissions, enough for all.
	cfg := &Config{Rows: 120, LabelSeed: 5, Seed: 9, Measure: 400, Days: 1, NoConfigured: true,
		Grid: []Cell{{Name: "1/day", Defence: defence.Settings{Limits: defence.LimitSettings{PerDay: 1}}}}}
	rep, err := Run(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cells[0]
	if c.Limit != 1 || c.Submissions < 2 || !(c.PublicRecovered > 0 && c.PublicRecovered < 1) ||
		c.PerDay != 1 || c.Days[0] != (AccDays{1, c.Submissions}) || c.Days[1].Days != (c.Submissions+9)/10 {
		t.Errorf("1/day over 1 day: %+v", c)
	}
	if len(c.ByAccounts) != 4 || c.ByAccounts[1].Accounts != 10 || c.ByAccounts[1].Limit != 10 || c.ByAccounts[1].PublicRecovered != 1 {
		t.Errorf("1/day over 1 day with 10 accounts: %+v", c.ByAccounts)
	}
	fewest := int64(0)
	for _, a := range c.Attacks {
		if a.Recovered() && (fewest == 0 || a.Needed < fewest) {
			fewest = a.Needed
		}
	}
	if c.AccountsNeeded == nil || *c.AccountsNeeded != 1 || c.AccountsAll == nil || *c.AccountsAll > fewest || *c.AccountsAll < 2 {
		t.Errorf("1/day over 1 day: accounts needed %v, for all %v; want 1, in [2, %d]", deref(c.AccountsNeeded), deref(c.AccountsAll), fewest)
	}
}

// TestSplitHidesPrivate: behind a split the threshold-crossing attack
// recovers the public labels, verified, and no private one.
func TestSplitHidesPrivate(t *testing.T) {
	rep := small(t, 100, []Cell{{Name: "split", Defence: defence.Settings{Split: &defence.SplitSettings{Public: 0.3}}}})
	c := rep.Cells[0]
	if c.Stopped || c.PublicVerified != 1 || c.PrivateRecovered != 0 || c.PrivateVerified != 0 {
		t.Fatalf("split: stopped %v, public verified %v, private %v/%v; want false, 1, 0/0", c.Stopped, c.PublicVerified, c.PrivateRecovered, c.PrivateVerified)
	}
}

// TestDeterministic: the same config gives the same JSON bytes, whatever
// the workers; another seed gives another report.
func TestDeterministic(t *testing.T) {
	grid := []Cell{
		{Name: "noise", Defence: defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.01}}},
		{Name: "round 2", Defence: defence.Settings{Decimals: intp(2)}},
		{Name: "subset", Defence: defence.Settings{Subset: 40}},
	}
	js := func(seed uint64, workers int) string {
		cfg := &Config{Rows: 80, LabelSeed: 1, Seed: seed, Measure: 300, Grid: grid}
		rep, err := Run(context.Background(), cfg, Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	a, b, c := js(1, 1), js(1, 3), js(2, 1)
	if a != b {
		t.Error("same seed, different workers: different JSON")
	}
	if a == c {
		t.Error("different seeds: same JSON")
	}
}

// TestBadConfig: bad input is a *ConfigError naming the problem.
func TestBadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("bad.labels", "0\n1\n2\n")
	cases := []struct{ file, body, want string }{
		{"unknown.json", `{"rows": 10, "colour": "red"}`, "unknown field"},
		{"two.json", `{"rows": 10, "dataset": "wdbc"}`, "exactly one of labels"},
		{"none.json", `{"id": "x"}`, "exactly one of labels"},
		{"metric.json", `{"rows": 10, "metric": "sklearn"}`, "unknown scorer"},
		{"clip.json", `{"rows": 10, "clip": "0.7"}`, "clip"},
		{"classes.json", `{"rows": 10, "classes": 1}`, "classes = 1"},
		{"accounts.json", `{"rows": 10, "attacker_accounts": [10, 1]}`, "attacker_accounts"},
		{"grid.json", `{"rows": 10, "grid": [{"name": "l", "defence": {"ladder": {"kind": "up"}}}]}`, "ladder.kind"},
		{"dup.json", `{"rows": 10, "grid": [{"name": "a"}, {"name": "a"}]}`, "two cells"},
		{"labels.json", `{"labels": "bad.labels"}`, "not a class index"},
		{"missing.json", `{"labels": "nope.labels"}`, "no such file"},
		{"honest.json", `{"rows": 10, "honest": "nodir"}`, "honest"},
		{"syntax.yaml", "rows: [1, 2", "yaml"},
		{"measure.json", `{"rows": 10, "measure": 5}`, "measure"},
		{"thresholdout.json", `{"rows": 10, "grid": [{"name": "t", "defence": {"thresholdout": {"t": 0.1, "sigma": 0.1, "budget": 5}}}]}`, "training rows"},
	}
	for _, tc := range cases {
		p := write(tc.file, tc.body)
		cfg, err := LoadConfig(p)
		if err == nil {
			_, err = Run(context.Background(), cfg, Options{})
		}
		var ce *ConfigError
		if err == nil || !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want a ConfigError containing %q", tc.file, err, tc.want)
		}
	}
}

// TestYAMLEqualsJSON: the two forms read the same config.
func TestYAMLEqualsJSON(t *testing.T) {
	j, err := ParseJSON([]byte(`{"id": "c", "rows": 50, "decimals": 3, "grid": [{"name": "n", "defence": {"noise": {"kind": "laplace", "scale": 0.5}, "limits": {"per_day": 5}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	y, err := ParseYAML([]byte("id: c\nrows: 50\ndecimals: 3\ngrid:\n  - name: n\n    defence:\n      noise: {kind: laplace, scale: 0.5}\n      limits: {per_day: 5}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if *j.Decimals != *y.Decimals || j.ID != y.ID || j.Rows != y.Rows || len(y.Grid) != 1 ||
		y.Grid[0].Defence.Noise.Scale != 0.5 || y.Grid[0].Defence.Limits.PerDay != 5 {
		t.Fatalf("json %+v\nyaml %+v", j, y)
	}
}

// TestHonestTeams: the default synthetic teams iterate (each of the
// improving ones improves its true score at least 3 times) and at least
// 4 teams end within 0.001 of another's best, at both sizes the audit is
// documented for.
func TestHonestTeams(t *testing.T) {
	for _, n := range []int{198, 25000} {
		if testing.Short() && n > 198 {
			n = 5000
		}
		cfg := &Config{Rows: n, LabelSeed: 2}
		comp, err := cfg.resolve()
		if err != nil {
			t.Fatal(err)
		}
		ts := HonestTeams(comp.labels, 1)
		truth, err := trueScores(comp.model, comp.labels, ts)
		if err != nil {
			t.Fatal(err)
		}
		if k := nearTies(bests(truth)); k < 4 {
			t.Errorf("N = %d: %d near-ties; want ≥ 4 (bests %v)", n, k, bests(truth))
		}
		for i, tm := range ts {
			if strings.HasPrefix(tm.Name, "near-tie") {
				continue
			}
			imp := 0
			for j := 1; j < len(truth[i]); j++ {
				if truth[i][j] < slices.Min(truth[i][:j]) {
					imp++
				}
			}
			if imp < 3 {
				t.Errorf("N = %d: team %s improves %d times; want ≥ 3 (%v)", n, tm.Name, imp, truth[i])
			}
		}
	}
}

func TestKendallTau(t *testing.T) {
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{10, 20, 30}, 1},
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{[]float64{1, 2, 3}, []float64{5, 5, 5}, 0},
		{[]float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}, 4.0 / 6},
		// τ-b with a tie in y: (4 − 0)/√(6·5).
		{[]float64{1, 2, 3, 4}, []float64{1, 2, 2, 4}, 5 / 5.477225575051661},
	} {
		if got := KendallTau(tc.x, tc.y); abs(got-tc.want) > 1e-12 {
			t.Errorf("τ(%v, %v) = %v; want %v", tc.x, tc.y, got, tc.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestTargetMatchesModel: with no defence the in-process target releases
// exactly the model's score.
func TestTargetMatchesModel(t *testing.T) {
	cfg := &Config{Rows: 50, LabelSeed: 4}
	comp, err := cfg.resolve()
	if err != nil {
		t.Fatal(err)
	}
	tg, err := InProcess(context.Background(), Spec{Labels: comp.labels, Model: comp.model, Cell: Cell{Name: "none"}})
	if err != nil {
		t.Fatal(err)
	}
	p := make([]float64, 50)
	for i := range p {
		p[i] = float64(i+1) / 52
	}
	got, err := tg.Submit(context.Background(), "a", p)
	if err != nil {
		t.Fatal(err)
	}
	want, err := comp.model.Eval(comp.labels, &scorer.Pred{K: 2, P: p})
	if err != nil {
		t.Fatal(err)
	}
	if got.Cmp(want) != 0 {
		t.Fatalf("released %v; model %v", got, want)
	}
	if _, err := tg.Submit(context.Background(), "a", append(p[:49:49], 1.5)); err == nil {
		t.Fatal("a probability of 1.5 was accepted")
	}
}

// TestPlot writes the plot in both formats.
func TestPlot(t *testing.T) {
	rep := small(t, 60, []Cell{{Name: "none"}, {Name: "ladder", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "parameter-free"}}}})
	dir := t.TempDir()
	for _, f := range []string{"p.png", "p.svg"} {
		if err := rep.SavePlot(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() < 1000 {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestFreshAccounts: a per-team Ladder falls to an attacker with many
// accounts (each account's first release is unprotected), and the cell
// says with how many; the global Ladder with the same step does not,
// whatever the accounts (accounts_needed null), and is stopped.
func TestFreshAccounts(t *testing.T) {
	rep := small(t, 120, []Cell{
		{Name: "team", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01", PerTeam: true}}},
		{Name: "global", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01"}}},
	})
	team, global := cellByName(t, rep, "team"), cellByName(t, rep, "global")
	fresh := false
	for _, a := range team.Attacks {
		if a.FreshAccounts && a.Recovered() {
			fresh = true
			if a.Wrong != 0 {
				t.Errorf("%s: %d wrong labels", a.Attack, a.Wrong)
			}
		}
	}
	if !fresh || team.AccountsNeeded == nil || team.AccountsAll == nil || *team.AccountsAll > 1000 {
		t.Errorf("per-team Ladder: fresh-account attack recovered %v, accounts needed %v (all %v); want a recovery and a count", fresh, deref(team.AccountsNeeded), deref(team.AccountsAll))
	}
	if !strings.Contains(team.Verdict, "falls with") && !strings.HasPrefix(team.Verdict, "NOT stopped") {
		t.Errorf("per-team Ladder verdict %q", team.Verdict)
	}
	if !global.Stopped || global.AccountsNeeded != nil || global.Verdict != "stopped with 1 account and with 1,000" {
		t.Errorf("global Ladder: stopped %v, accounts needed %v, verdict %q", global.Stopped, deref(global.AccountsNeeded), global.Verdict)
	}
	for _, a := range global.Attacks {
		if a.FreshAccounts {
			t.Errorf("global Ladder: fresh-account attack %s (fresh accounts see the global state)", a.Attack)
		}
	}
}

// TestHonestHidden: teams that iterate under a fixed-step per-team
// Ladder see some of their real improvements hidden and their shown
// bests off; without a defence none is hidden and nothing is off.
func TestHonestHidden(t *testing.T) {
	rep := small(t, 300, []Cell{
		{Name: "none"},
		{Name: "team", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01", PerTeam: true}}},
	})
	none, team := cellByName(t, rep, "none"), cellByName(t, rep, "team")
	if none.Honest.Improvements == 0 || none.Honest.HiddenImprovements != 0 || none.Honest.MaxAbs != 0 || none.Honest.KendallTau != 1 {
		t.Errorf("none: %+v", none.Honest)
	}
	if team.Honest.Improvements != none.Honest.Improvements || team.Honest.HiddenImprovements == 0 || team.Honest.MeanAbs <= 0 {
		t.Errorf("per-team Ladder: %+v (none: %+v)", team.Honest, none.Honest)
	}
	if rep.Competition.Teams != 12 || rep.Competition.Honest != 8*6+4*3 {
		t.Errorf("teams %d, submissions %d", rep.Competition.Teams, rep.Competition.Honest)
	}
}

// TestLoadHonest: a directory of team directories gives teams whose
// submissions are their files in name order; a flat directory one team
// per file; both at once is refused.
func TestLoadHonest(t *testing.T) {
	dir := t.TempDir()
	put := func(path string, p float64) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(strings.Repeat(strconv.FormatFloat(p, 'g', -1, 64)+"\n", 3)), 0o644))
	}
	put(filepath.Join(dir, "teams", "b", "2.txt"), 0.2)
	put(filepath.Join(dir, "teams", "b", "1.txt"), 0.1)
	put(filepath.Join(dir, "teams", "a", "x.txt"), 0.3)
	ts, err := LoadHonest(filepath.Join(dir, "teams"), 3)
	require.NoError(t, err)
	require.Len(t, ts, 2)
	assert.Equal(t, "a", ts[0].Name)
	assert.Equal(t, "b", ts[1].Name)
	require.Len(t, ts[1].Subs, 2)
	assert.Equal(t, 0.1, ts[1].Subs[0].Pred[0], "files in name order")
	put(filepath.Join(dir, "flat", "1.txt"), 0.1)
	put(filepath.Join(dir, "flat", "2.txt"), 0.2)
	ts, err = LoadHonest(filepath.Join(dir, "flat"), 3)
	require.NoError(t, err)
	assert.Len(t, ts, 2)
	assert.Len(t, ts[0].Subs, 1)
	put(filepath.Join(dir, "teams", "loose.txt"), 0.5)
	_, err = LoadHonest(filepath.Join(dir, "teams"), 3)
	assert.ErrorContains(t, err, "both files and directories")
	_, err = LoadHonest(filepath.Join(dir, "flat"), 4)
	assert.ErrorContains(t, err, "3 predictions")
}

// TestFloor: the floor is a lower bound of every measured recovery (no
// attack beats it) and positive; rounding lowers the bits a release
// carries, so it raises the floor; noise lowers them further.
func TestFloor(t *testing.T) {
	rep := small(t, 200, []Cell{
		{Name: "none"},
		{Name: "round 2", Defence: defence.Settings{Decimals: intp(2)}},
		{Name: "noise", Defence: defence.Settings{Decimals: intp(2), Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.05}}},
	})
	var prev int64
	for _, name := range []string{"none", "round 2", "noise"} {
		c := cellByName(t, rep, name)
		if c.Floor.Submissions <= prev {
			t.Errorf("%s: floor %d; want more than %d", name, c.Floor.Submissions, prev)
		}
		prev = c.Floor.Submissions
		for _, a := range c.Attacks {
			if a.Recovered() && !a.Extrapolated && a.Needed < c.Floor.Submissions {
				t.Errorf("%s: %s recovered with %d submissions, below the floor %d", name, a.Attack, a.Needed, c.Floor.Submissions)
			}
		}
	}
}

// TestNotMeasured: a competition without attacks here (a 3-class
// roc-auc, which no attack reads) is "not measured" in every cell, never stopped, and
// opens no target; an accuracy cell no attack breaks is not measured
// either (the metric's attacks do not read every defence yet).
func TestNotMeasured(t *testing.T) {
	cfg := &Config{Rows: 60, Classes: 3, Metric: "roc-auc", Grid: []Cell{{Name: "none"}}}
	rep, err := Run(context.Background(), cfg, Options{Target: func(context.Context, Spec) (Target, error) {
		return nil, errors.New("opened a target")
	}})
	require.NoError(t, err)
	for _, c := range rep.Cells {
		assert.False(t, c.Stopped)
		assert.False(t, c.Measured)
		assert.Equal(t, "not measured", c.Verdict)
		assert.Contains(t, c.Note, "3-class")
	}
	cfg = &Config{Rows: 200, Metric: "accuracy", NoConfigured: true, Grid: []Cell{{Name: "none"},
		{Name: "noise", Defence: defence.Settings{Noise: &defence.NoiseSettings{Kind: "gaussian", Scale: 0.5}}}}}
	rep, err = Run(context.Background(), cfg, Options{})
	require.NoError(t, err)
	none, noise := cellByName(t, rep, "none"), cellByName(t, rep, "noise")
	assert.True(t, none.Measured)
	assert.False(t, none.Stopped)
	assert.Equal(t, 1.0, none.PublicVerified)
	assert.False(t, noise.Stopped)
	assert.Equal(t, "not measured", noise.Verdict)
}

// TestAdultTeams: on the Adult competition (the embedded adult_test
// labels), the default honest teams are trained for real on Adult's
// features, improve over their submissions, and a fixed-step per-team
// Ladder (η = 0.01) hides some of their real improvements and shows
// bests off by a non-negligible amount (issue 29's done-when), where no
// defence hides none.
func TestAdultTeams(t *testing.T) {
	if testing.Short() {
		t.Skip("trains 27 models on Adult's 16,281 rows")
	}
	cfg := &Config{Dataset: "adult_test", Metric: "float64-sklearn", Seed: 1, Measure: 100, NoConfigured: true,
		AttackerAccounts: []int{1},
		Grid:             []Cell{{Name: "none"}, {Name: "team", Defence: defence.Settings{Ladder: &defence.LadderSettings{Kind: "fixed", Eta: "0.01", PerTeam: true}}}}}
	rep, err := Run(context.Background(), cfg, Options{Workers: 2})
	require.NoError(t, err)
	assert.Contains(t, rep.Competition.Source, "trained on adult_test")
	assert.Equal(t, 5, rep.Competition.Teams)
	none, team := cellByName(t, rep, "none"), cellByName(t, rep, "team")
	assert.Positive(t, none.Honest.Improvements)
	assert.Zero(t, none.Honest.HiddenImprovements)
	assert.Positive(t, team.Honest.HiddenImprovements)
	assert.Greater(t, team.Honest.MeanAbs, 1e-3, "the per-team Ladder's honest cost")
}

// TestPlotNeverStoppedWhenAccountsBreak checks that a cell stopped with
// the config's accounts that more accounts break is drawn and labelled
// as falling, never as stopped, and a cell not measured as neither
// stopped nor broken.
func TestPlotNeverStoppedWhenAccountsBreak(t *testing.T) {
	k := int64(6)
	r := &Report{Cells: []CellResult{
		{Name: "ladder free/team", Measured: true, Stopped: true, AccountsNeeded: &k, Best: "hybrid", Submissions: 558},
		{Name: "ladder", Measured: true, Stopped: true},
		{Name: "none", Measured: true, Best: "hybrid", Submissions: 513},
		{Name: "gauss 0.05", Best: "group", Submissions: 9165082}, // not measured: never drawn stopped or broken
	}}
	want := []plotClass{plotFallsWithAccounts, plotStopped, plotBroken, plotUnmeasured}
	pts := r.Points()
	if len(pts) != len(want) {
		t.Fatalf("%d points, want %d", len(pts), len(want))
	}
	for i, p := range pts {
		if p.Class != want[i] {
			t.Errorf("%s: class %d, want %d", p.Name, p.Class, want[i])
		}
	}
	if !strings.Contains(pts[0].Name, "falls with 6 accounts") {
		t.Errorf("label %q does not say the accounts that break it", pts[0].Name)
	}
}
