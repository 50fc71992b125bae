package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/labelinf/labelinf/audit"
	"github.com/labelinf/labelinf/datasets"
	"github.com/labelinf/labelinf/mutnet"
	"github.com/labelinf/labelinf/onnx"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateFigures = flag.Bool("update-figures", false, "rewrite the figures marked in README.md and docs/*.md from the code")

// A figure is a number the documentation states, computed here by running
// the command that produces it. In Markdown (and in manual.txt, whose
// readers see the value alone) it is marked
//
//	<!-- fig KEY -->VALUE<!-- /fig -->
//
// (invisible when rendered); TestFigures runs every KEY's command and
// fails when a VALUE differs, and -update-figures rewrites the VALUEs.
// Timings are not figures: a timing in the docs carries its date and
// machine instead.
type figure struct {
	long bool // skipped under -short (seconds of CPU or more)
	make func(t *testing.T) string
}

var figures = map[string]figure{
	// The README's first command: bits of the one score of each case.
	"demo-bits-binary": {make: func(t *testing.T) string { return demoBits(t, 0) }},
	"demo-bits-k6":     {make: func(t *testing.T) string { return demoBits(t, 1) }},
	// The researcher's quick start.
	"attack-sklearn-25000": {long: true, make: func(t *testing.T) string {
		return attackField(t, "queries", "attack", "-n", "25000", "-scorer", "float64-sklearn", "-json")
	}},
	"attack-sklearn-25000-strategy": {long: true, make: func(t *testing.T) string {
		return attackField(t, "strategy", "attack", "-n", "25000", "-scorer", "float64-sklearn", "-json")
	}},
	// The manual's metrics topic (with the final check query).
	"attack-group-accuracy-1000": {make: func(t *testing.T) string {
		return attackField(t, "queries", "attack", "-scorer", "accuracy", "-n", "1000", "-strategy", "group", "-check", "-json")
	}},
	"attack-family-brier-1000": {make: func(t *testing.T) string {
		return attackField(t, "queries", "attack", "-scorer", "brier", "-n", "1000", "-strategy", "family", "-check", "-json")
	}},
	"attack-swap-auc-1000-2": {make: func(t *testing.T) string {
		return attackField(t, "queries", "attack", "-scorer", "roc-auc,dec=2", "-n", "1000", "-check", "-json")
	}},
	"attack-family-brier-1000-exact": {make: func(t *testing.T) string {
		return attackField(t, "queries", "attack", "-scorer", "brier,dec=none", "-n", "1000", "-strategy", "family", "-check", "-json")
	}},
	// The mutnet topic and docs/AUDIT.md: labels one score holds
	// (mutnet.MaxOneQuery, the planner labelinf mutnet refuses beyond).
	"mutnet-one-float64":  {make: func(t *testing.T) string { return mutnetMax(onnx.Double, false) }},
	"mutnet-one-float32":  {make: func(t *testing.T) string { return mutnetMax(onnx.Float, false) }},
	"mutnet-thm9-float64": {make: func(t *testing.T) string { return mutnetMax(onnx.Double, true) }},
	"mutnet-thm9-float32": {make: func(t *testing.T) string { return mutnetMax(onnx.Float, true) }},
	// docs/AUDIT.md's "Reading the tables" and README's prose under the
	// audit tables: figures of the documented audits (docs/audit/NAME.json,
	// which TestAuditDocs ties to the tables and, for small198, to the
	// audit itself), and the attack they are compared with.
	"audit-imdb25k-round5":               auditFig("imdb25k", "round 5", "submissions"),
	"audit-imdb25k-round5-blocks":        auditFig("imdb25k", "round 5", "attack:blocks"),
	"audit-imdb25k-round2-edge-perlabel": auditFig("imdb25k", "round 2", "per-label"),
	"audit-imdb25k-free-team-accounts":   auditFig("imdb25k", "ladder free/team", "accounts"),
	"audit-imdb25k-free-team-all":        auditFig("imdb25k", "ladder free/team", "accounts-all"),
	"audit-imdb25k-fixed-team-accounts":  auditFig("imdb25k", "ladder fixed/team", "accounts"),
	"audit-imdb25k-grid-team-accounts":   auditFig("imdb25k", "ladder free/team grid 0.01", "accounts"),
	"audit-imdb25k-fixed-mean":           auditFig("imdb25k", "ladder fixed", "mean"),
	"audit-imdb25k-fixed-tau":            auditFig("imdb25k", "ladder fixed", "tau"),
	"audit-imdb25k-fixed-team-hidden":    auditFig("imdb25k", "ladder fixed/team", "hidden"),
	"audit-imdb25k-improvements":         auditFig("imdb25k", "ladder fixed/team", "improvements"),
	"audit-imdb25k-fixed-team-mean":      auditFig("imdb25k", "ladder fixed/team", "mean"),
	"audit-imdb25k-round5-mean":          auditFig("imdb25k", "round 5", "mean"),
	"audit-small198-free":                auditFig("small198", "ladder free", "submissions"),
	"audit-adult16k-fixed-team-hidden":   auditFig("adult16k", "ladder fixed/team", "hidden"),
	"audit-adult16k-improvements":        auditFig("adult16k", "ladder fixed/team", "improvements"),
	"audit-adult16k-fixed-team-mean":     auditFig("adult16k", "ladder fixed/team", "mean"),
	"audit-adult16k-fixed-team-max":      auditFig("adult16k", "ladder fixed/team", "max"),
	"audit-adult16k-fixed-team-tau":      auditFig("adult16k", "ladder fixed/team", "tau"),
	"audit-adult16k-teams":               auditSummary("adult16k", "teams"),
	"audit-adult16k-honest":              auditSummary("adult16k", "honest"),
	"attack-leaderboard-dec5-imdb25k": {long: true, make: func(t *testing.T) string {
		f := filepath.Join(t.TempDir(), "imdb.txt")
		var b strings.Builder
		for _, y := range datasets.IMDBLike() {
			fmt.Fprintln(&b, y)
		}
		require.NoError(t, os.WriteFile(f, []byte(b.String()), 0o644))
		return attackField(t, "queries", "attack", "-scorer", "leaderboard,dec=5", "-labels", f, "-json")
	}},
	"fpa-div-binary16-up": {make: func(t *testing.T) string {
		return strings.TrimSpace(runOut(t, "fpa", "-format", "binary16", "-round", "up", "-op", "div", "1", "3"))
	}},
}

// auditFig is a figure of cell of the documented audit name, as its
// tables print it: "submissions" (the best attack's), "attack:NAME" (that
// attack's), "per-label" (the best attack's submissions per public
// label, one decimal), "accounts" and "accounts-all" (accounts needed),
// the honest "hidden", "improvements", "mean", "max" (|shown − true
// best|) and "tau" (Kendall's τ).
func auditFig(name, cell, what string) figure {
	return figure{make: func(t *testing.T) string {
		rep := storedAudit(t, name)
		for _, c := range rep.Cells {
			if c.Name != cell {
				continue
			}
			h := c.Honest
			switch {
			case what == "submissions":
				return commas(int(c.Submissions))
			case strings.HasPrefix(what, "attack:"):
				for _, a := range c.Attacks {
					if a.Attack == strings.TrimPrefix(what, "attack:") {
						return commas(int(a.Needed))
					}
				}
			case what == "per-label":
				return fmt.Sprintf("%.1f", float64(c.Submissions)/float64(rep.Competition.Rows))
			case what == "accounts" && c.AccountsNeeded != nil:
				return commas(int(*c.AccountsNeeded))
			case what == "accounts-all" && c.AccountsAll != nil:
				return commas(int(*c.AccountsAll))
			case what == "hidden":
				return strconv.Itoa(h.HiddenImprovements)
			case what == "improvements":
				return strconv.Itoa(h.Improvements)
			case what == "mean":
				return fmt.Sprintf("%.2g", h.MeanAbs)
			case what == "max":
				return fmt.Sprintf("%.2g", h.MaxAbs)
			case what == "tau":
				return fmt.Sprintf("%.3f", h.KendallTau)
			}
			t.Fatalf("audit %s cell %q: no figure %q", name, cell, what)
		}
		t.Fatalf("audit %s: no cell %q", name, cell)
		return ""
	}}
}

// auditSummary is a figure of the documented audit name's summary: its
// honest "teams" or "honest" submissions.
func auditSummary(name, what string) figure {
	return figure{make: func(t *testing.T) string {
		c := storedAudit(t, name).Competition
		switch what {
		case "teams":
			return strconv.Itoa(c.Teams)
		case "honest":
			return strconv.Itoa(c.Honest)
		}
		t.Fatalf("audit %s: no summary figure %q", name, what)
		return ""
	}}
}

// storedAudit reads docs/audit/NAME.json.
func storedAudit(t *testing.T, name string) *audit.Report {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "audit", name+".json"))
	require.NoError(t, err)
	rep := new(audit.Report)
	require.NoError(t, json.Unmarshal(b, rep))
	return rep
}

func mutnetMax(dt onnx.DataType, sig bool) string {
	return strconv.Itoa(mutnet.MaxOneQuery(mutnet.Options{DType: dt, Sigmoid: sig}))
}

var demoOnce struct {
	sync.Mutex
	rows []demoRow
}

// demoBits returns the bits of row i of the default demo.
func demoBits(t *testing.T, i int) string {
	demoOnce.Lock()
	defer demoOnce.Unlock()
	if demoOnce.rows == nil {
		require.NoError(t, json.Unmarshal([]byte(runOut(t, "demo", "-json")), &demoOnce.rows))
	}
	return commas(int(demoOnce.rows[i].Bits))
}

func attackField(t *testing.T, field string, args ...string) string {
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(runOut(t, args...)), &v))
	switch x := v[field].(type) {
	case float64:
		return commas(int(x))
	case string:
		return x
	}
	t.Fatalf("%q: no field %s", args, field)
	return ""
}

func runOut(t *testing.T, args ...string) string {
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(args, &out, &errb), "labelinf %q: %s", args, errb.String())
	return out.String()
}

var figMark = regexp.MustCompile(`<!-- fig ([a-z0-9-]+) -->(.*?)<!-- /fig -->`)

// figureFiles are the documents whose figures are checked.
func figureFiles(t *testing.T) []string {
	files := []string{"../../README.md", "manual.txt"}
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	return append(files, docs...)
}

// computeFigures runs the command of every figure (under -short the
// quick ones) as parallel subtests and returns their values.
func computeFigures(t *testing.T) map[string]string {
	var mu sync.Mutex
	got := map[string]string{}
	t.Run("compute", func(t *testing.T) {
		for key, fig := range figures {
			if fig.long && testing.Short() {
				continue
			}
			t.Run(key, func(t *testing.T) {
				t.Parallel()
				v := fig.make(t)
				mu.Lock()
				got[key] = v
				mu.Unlock()
			})
		}
	})
	return got
}

func TestFigures(t *testing.T) {
	if !*updateFigures {
		t.Parallel() // reads the docs only; -update-figures rewrites them while others read
	}
	got := computeFigures(t)
	used := map[string]bool{}
	for _, file := range figureFiles(t) {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		text := string(b)
		changed := false
		text = figMark.ReplaceAllStringFunc(text, func(m string) string {
			sm := figMark.FindStringSubmatch(m)
			key, stated := sm[1], sm[2]
			used[key] = true
			fig, ok := figures[key]
			if !ok {
				t.Errorf("%s: figure %q is not one figures_test.go computes", file, key)
				return m
			}
			if fig.long && testing.Short() {
				return m
			}
			v, ok := got[key]
			if !ok {
				return m // its subtest of computeFigures failed
			}
			if v == stated {
				return m
			}
			if *updateFigures {
				changed = true
				return fmt.Sprintf("<!-- fig %s -->%s<!-- /fig -->", key, v)
			}
			t.Errorf("%s: figure %s states %q, the code gives %q (go test ./cmd/labelinf -run TestFigures -update-figures rewrites it)", file, key, stated, v)
			return m
		})
		if changed {
			require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
		}
	}
	for key := range figures {
		assert.True(t, used[key], "figure %s is stated nowhere: remove it from figures", key)
	}
}
