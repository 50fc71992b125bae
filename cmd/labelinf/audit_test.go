package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/labelinf/labelinf/audit"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuditLoopback: labelinf audit's default mode, whose targets are
// real labelinf serve processes (this test binary as labelinf, see
// TestMain) attacked over loopback HTTP, prints the same JSON as
// -inprocess, byte for byte.
func TestAuditLoopback(t *testing.T) {
	// The servers' databases go to tmpfs where there is one: the test
	// checks the scores, not the disk's fsync.
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "labelinf-cli-test-"); err == nil {
			defer os.RemoveAll(dir)
			t.Setenv("TMPDIR", dir)
		}
	}
	args := []string{"audit", "-config", "testdata/audit_loopback.json", "-json", "-quiet", "-workers", "2"}
	var lo, in, errb bytes.Buffer
	require.Equal(t, 0, run(args, &lo, &errb), errb.String())
	require.Equal(t, 0, run(append(args, "-inprocess"), &in, &errb), errb.String())
	assert.Contains(t, lo.String(), `"ladder free/team"`)
	assert.Equal(t, in.String(), lo.String(), "loopback and in-process JSON differ")
}

// small198Config is the 198-label grid that README and docs/AUDIT.md
// show (documentedAudits).
const small198Config = "../../audit/testdata/small198.yaml"

var small198 struct {
	once      sync.Once
	out, errb bytes.Buffer
	code      int
}

// small198JSON returns what labelinf audit -config small198Config
// -inprocess -json prints, run once for the tests that read it.
func small198JSON(t *testing.T) []byte {
	t.Helper()
	small198.once.Do(func() {
		small198.code = run([]string{"audit", "-config", small198Config, "-inprocess", "-json", "-quiet"}, &small198.out, &small198.errb)
	})
	require.Equal(t, 0, small198.code, small198.errb.String())
	return small198.out.Bytes()
}

// TestAuditBestVsAttack: on the 198-label grid, the best attack of every
// undefended or rounding-only cell needs at most what labelinf attack
// needs against the same model, plus its final check (issue 29); and
// the example serve config audits for every competition in it.
func TestAuditBestVsAttack(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	var rep audit.Report
	require.NoError(t, json.Unmarshal(small198JSON(t), &rep))
	cfg, err := audit.LoadConfig(small198Config)
	require.NoError(t, err)
	labels, err := cfg.LoadLabels()
	require.NoError(t, err)
	var lb bytes.Buffer
	for _, y := range labels {
		fmt.Fprintln(&lb, y)
	}
	file := filepath.Join(t.TempDir(), "labels.txt")
	require.NoError(t, os.WriteFile(file, lb.Bytes(), 0o600))
	dec := map[string]string{"none": "none", "round 5": "5", "round 3": "3", "round 2": "2", "as configured": "5"}
	seen := 0
	for _, cr := range rep.Cells {
		d, ok := dec[cr.Name]
		if !ok {
			continue
		}
		seen++
		var ao, ae bytes.Buffer
		require.Equal(t, 0, run([]string{"attack", "-labels", file, "-scorer", "leaderboard,dec=" + d, "-json"}, &ao, &ae), ae.String())
		var res struct {
			Queries  int  `json:"queries"`
			Verified bool `json:"verified"`
		}
		require.NoError(t, json.Unmarshal(ao.Bytes(), &res))
		require.True(t, res.Verified)
		require.NotEmpty(t, cr.Best, "cell %s: no attack recovers", cr.Name)
		assert.LessOrEqual(t, cr.Submissions, int64(res.Queries+1), "cell %s: best %s needs %d; labelinf attack needs %d (+1 for the check)", cr.Name, cr.Best, cr.Submissions, res.Queries)
		assert.NotNil(t, cr.AccountsNeeded, "cell %s", cr.Name)
		assert.Positive(t, cr.Floor.Submissions, "cell %s", cr.Name)
		assert.LessOrEqual(t, cr.Floor.Submissions, cr.Submissions, "cell %s: the floor exceeds a measured attack", cr.Name)
	}
	assert.Equal(t, len(dec), seen)
}

// TestAuditServeConfig: labelinf audit reads serve's example config as
// it is, every competition in it; no cell of the 3-class accuracy one
// is "stopped" outright (its attacks break the undefended cell; a
// per-team Ladder stops one account and falls with a few; the others
// are not measured).
func TestAuditServeConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("audits four 1,000-row competitions")
	}
	for _, id := range []string{"demo", "open", "demo-3class", "defended"} {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run([]string{"audit", "-config", "../../examples/competition.json", "-competition", id, "-inprocess", "-json", "-quiet"}, &out, &errb), "%s: %s", id, errb.String())
		var rep audit.Report
		require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
		for _, cr := range rep.Cells {
			if id == "demo-3class" {
				// Stopped only as "stopped with 1 account, falls
				// with k": fresh accounts break it.
				if cr.Stopped {
					assert.NotNil(t, cr.AccountsNeeded, "%s %s: stopped, and no number of accounts breaks it", id, cr.Name)
				}
				if cr.Name == "none" {
					assert.Equal(t, 1.0, cr.PublicVerified, "%s %s", id, cr.Name)
				}
			} else {
				assert.True(t, cr.Measured, "%s %s", id, cr.Name)
			}
		}
	}
	var errb bytes.Buffer
	assert.Equal(t, 2, run([]string{"audit", "-config", "../../examples/competition.json", "-inprocess"}, io.Discard, &errb))
	assert.Contains(t, errb.String(), "pick one with -competition")
}

// TestAuditDocs: README's and docs/AUDIT.md's audit tables are the
// audit's: the 198-label grid is re-run here (its JSON must also equal
// docs/audit/small198.json), the 25,000-label grid's tables are
// rendered from docs/audit/imdb25k.json (the report labelinf audit
// -docs wrote; a run takes minutes). Regenerate with
// go run ./cmd/labelinf audit -docs . from the repository's root.
func TestAuditDocs(t *testing.T) {
	t.Parallel() // sets no package state, environment or working directory
	const root = "../.."
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	auditMD, err := os.ReadFile(filepath.Join(root, "docs", "AUDIT.md"))
	require.NoError(t, err)
	for _, d := range documentedAudits {
		var rep *audit.Report
		stored, err := os.ReadFile(filepath.Join(root, "docs", "audit", d.name+".json"))
		require.NoError(t, err)
		if d.name == "small198" {
			require.Equal(t, filepath.Join(root, d.config), small198Config)
			assert.Equal(t, string(stored), string(small198JSON(t)), "docs/audit/%s.json differs from the audit: go run ./cmd/labelinf audit -docs .", d.name)
		}
		rep = new(audit.Report)
		require.NoError(t, json.Unmarshal(stored, rep))
		md, table, err := docSections(rep)
		require.NoError(t, err)
		if d.readme {
			got, err := audit.Section(readme, d.name)
			require.NoError(t, err)
			assert.Equal(t, string(md), string(got), "README.md's table %s differs from the audit: go run ./cmd/labelinf audit -docs .", d.name)
		}
		got, err := audit.Section(auditMD, d.name)
		require.NoError(t, err)
		assert.Equal(t, string(table), string(got), "docs/AUDIT.md's table %s differs from the audit: go run ./cmd/labelinf audit -docs .", d.name)
	}
}
