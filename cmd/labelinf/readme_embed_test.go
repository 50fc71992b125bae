package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func readme(t *testing.T) string {
	b, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	return string(b)
}

// TestREADMEEmbedding compiles and runs the README's embedding program in
// a module of its own that requires this one (a replace directive points
// at this clone, as the README says) and compares its output with the
// README's.
func TestREADMEEmbedding(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds a module with the go command")
	}
	m := regexp.MustCompile("(?s)<!-- embed-example[^>]*-->\n```go\n(.*?)```\n\nprints\n\n```\n(.*?)```").FindStringSubmatch(readme(t))
	require.NotNil(t, m, "README: no embed-example block followed by its output")
	prog, want := m[1], m[2]
	lines := strings.Count(strings.TrimSpace(prog[strings.Index(prog, "func main"):]), "\n") - 1
	assert.LessOrEqual(t, lines, 12, "the embedding program's main grew beyond about ten lines")
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	gomod := "module example.com/embed\n\ngo 1.26\n\nrequire github.com/labelinf/labelinf v0.0.0\n\nreplace github.com/labelinf/labelinf => " + root + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(prog), 0o644))
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "go run: %s", out)
	assert.Equal(t, want, string(out), "the README's embedding program prints something else")
}

// TestREADMEPackageMap checks that the README's package table names every
// package of the module, and no package that does not exist.
func TestREADMEPackageMap(t *testing.T) {
	root := "../.."
	have := map[string]bool{}
	require.NoError(t, filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			if rel != "." && !strings.HasPrefix(rel, "examples") {
				have[filepath.ToSlash(rel)] = true
			}
		}
		return nil
	}))
	text := readme(t)
	_, table, ok := strings.Cut(text, "## Packages\n")
	require.True(t, ok, "README has no Packages section")
	table, _, _ = strings.Cut(table, "\n## ")
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9/_-]+)` \\| (.*) \\|$").FindAllStringSubmatch(table, -1) {
		listed[m[1]] = true
		assert.NotRegexp(t, `\d[\d,.]*\s*(queries|bits|labels|×|%|s\b)`, m[2], "package %s: the map states a figure", m[1])
	}
	for p := range have {
		assert.True(t, listed[p], "README's package map lacks %s", p)
	}
	for p := range listed {
		assert.True(t, have[p], "README's package map names %s, which is not a package", p)
	}
}

// TestBenchmarksReference checks that BENCHMARKS.md stays a reference: at
// most 30 KB, and every area names the date it was measured and a command
// that reproduces it.
func TestBenchmarksReference(t *testing.T) {
	b, err := os.ReadFile("../../BENCHMARKS.md")
	require.NoError(t, err)
	assert.LessOrEqual(t, len(b), 30<<10, "BENCHMARKS.md is a reference of the current figures (history: docs/history)")
	assert.NotRegexp(t, `(?m)^(<<<<<<<|=======|>>>>>>>)( |$)`, string(b), "a merge conflict's markers are left in BENCHMARKS.md")
	sections := strings.Split(string(b), "\n## ")[1:]
	require.NotEmpty(t, sections)
	for _, s := range sections {
		title, _, _ := strings.Cut(s, "\n")
		assert.Regexp(t, `20\d\d-\d\d-\d\d`, s, "section %q names no date", title)
		assert.Regexp(t, "(?m)^    \\S|`(go|labelinf) [^`]+`", s, "section %q gives no command", title)
	}
}

// TestNoConflictMarkers fails when a merge left its conflict markers in
// the documents (git merges text files it cannot parse).
func TestNoConflictMarkers(t *testing.T) {
	files := []string{"../../README.md", "../../BENCHMARKS.md", "manual.txt", "../../.ci/run"}
	docs, err := filepath.Glob("../../docs/*.md")
	require.NoError(t, err)
	for _, f := range append(files, docs...) {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.NotRegexp(t, `(?m)^(<<<<<<<|=======|>>>>>>>)( |$)`, string(b), "%s holds a merge conflict's markers", f)
	}
}
