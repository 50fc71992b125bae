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
	"fpa-div-binary16-up": {make: func(t *testing.T) string {
		return strings.TrimSpace(runOut(t, "fpa", "-format", "binary16", "-round", "up", "-op", "div", "1", "3"))
	}},
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
