package repro

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAcc1 pins ICML Table 2's Acc1 where it matches: Theorem 1's single
// query in float64 overflows, and the decoder gives every point class 1,
// so Acc1 is the class-1 fraction, 610/1372 (Banknote) and 81/306
// (Haberman), the paper's 0.4446 and 0.2647.
func TestAcc1(t *testing.T) {
	for _, tt := range []struct {
		name string
		want float64
	}{{"banknote", 0.4446}, {"haberman", 0.2647}} {
		for _, d := range icmlTable2 {
			if d.name != tt.name {
				continue
			}
			y, err := paperLabels(d)
			require.NoError(t, err)
			acc, prime, err := acc1Float64(y, 0)
			require.NoError(t, err)
			assert.InDelta(t, tt.want, acc, 0.5e-4, "Acc1(%s)", tt.name)
			assert.Equal(t, 0, prime, "points given the primes' class")
		}
	}
	// A few points: X fits in float64 and is exact, so every label is
	// recovered (the construction works before it overflows).
	y := []int{0, 1, 1, 0, 1, 0, 0, 1}
	acc, _, err := acc1Float64(y, 0)
	require.NoError(t, err)
	assert.Equal(t, 1.0, acc)
}

func TestAccuracy(t *testing.T) {
	assert.Equal(t, 0.75, accuracy([]int{1, -1, 0, 1}, []int{1, 0, 0, 0}))
}

// TestLookupAndRunErrors: unknown items and a missing directory are
// errors, before anything runs.
func TestLookupAndRunErrors(t *testing.T) {
	_, err := Lookup("nosuch")
	assert.ErrorContains(t, err, "icml-table2")
	for _, it := range Items() {
		got, err := Lookup(it.Name)
		require.NoError(t, err)
		assert.Equal(t, it, got)
	}
	_, err = Run(context.Background(), &Config{Out: t.TempDir()}, []string{"nosuch"})
	assert.Error(t, err)
	_, err = Run(context.Background(), &Config{}, nil)
	assert.Error(t, err)
}

// TestFigureAndMarkdown writes a figure (CSV, PNG, SVG) and REPRO.md from
// a result, and checks what they hold.
func TestFigureAndMarkdown(t *testing.T) {
	dir := t.TempDir()
	it := &Item{Name: "x", Title: "Paper Fig X", Command: "labelinf repro x"}
	r := &Result{Item: it, Rows: []Row{{What: "a|b", Paper: "1", Ours: "2", Status: Differs, Note: "off by one"}}}
	f := Figure{Name: "x-fig", Title: "t", XLabel: "N", YLabel: "bits", LogY: true,
		Series: []Series{{Name: "s", XShift: 1.1, X: []float64{1, 2, 3}, Y: []float64{1, 10, 100}, Lo: []float64{0.5, 5, 50}, Hi: []float64{2, 20, 200}}}}
	require.NoError(t, f.save(dir, r))
	for _, ext := range []string{".csv", ".png", ".svg"} {
		st, err := os.Stat(filepath.Join(dir, "x-fig"+ext))
		require.NoError(t, err)
		assert.Greater(t, st.Size(), int64(50), ext)
	}
	b, err := os.ReadFile(filepath.Join(dir, "x-fig.csv"))
	require.NoError(t, err)
	assert.Equal(t, "series,N,bits,lo,hi\ns,1,1,0.5,2\ns,2,10,5,20\ns,3,100,50,200\n", string(b))
	r.summarize("exact")
	assert.Equal(t, Differs, r.Status)
	require.NoError(t, writeTable(dir, r, "-table.csv"))
	require.NoError(t, writeMarkdown(&Config{Out: dir, Commit: "abc123"}, []*Result{r}))
	md, err := os.ReadFile(filepath.Join(dir, "REPRO.md"))
	require.NoError(t, err)
	s := string(md)
	for _, want := range []string{"`abc123`", "Paper Fig X", `a\|b`, "![x-fig](x-fig.png)", "## Claims", "TestMahalanobisTheorem8IsFalse", "Not yet regenerated"} {
		assert.Contains(t, s, want)
	}
	tab, err := os.ReadFile(filepath.Join(dir, "x-table.csv"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(tab), "quantity,paper,ours,status,note\n"))
}

// TestProp3 runs the cheap EA Prop 3 item (its smallest points under
// -short) and checks that Prop 3's φ falls short at τ = 0.01, N = 8.
func TestProp3(t *testing.T) {
	if testing.Short() {
		t.Skip("runs precision.Bits at N ≤ 10 for three τ (a few seconds); TestFigureAndMarkdown covers the plumbing under -short")
	}
	dir := t.TempDir()
	res, err := Run(context.Background(), &Config{Out: dir, Commit: "test"}, []string{"ea-prop3"})
	require.NoError(t, err)
	require.Len(t, res, 1)
	assert.Equal(t, Differs, res[0].Status)
	found := false
	for _, row := range res[0].Rows {
		if strings.HasPrefix(row.What, "τ = 0.01, N = 8:") {
			found = true
			assert.Equal(t, "13", row.Paper)
			assert.Equal(t, Differs, row.Status)
		}
	}
	assert.True(t, found)
}

// TestMarkdownKeepsSections: a run of one item keeps the sections an
// earlier run wrote for the others (REPRO.md is assembled from ITEM.md
// files in the items' order), and a damaged ITEM.md is an error.
func TestMarkdownKeepsSections(t *testing.T) {
	dir := t.TempDir()
	a := &Result{Item: items[1], Status: Match, Why: "first run", Rows: []Row{{What: "row of A", Status: Match}}}
	b := &Result{Item: items[0], Status: Differs, Why: "second run", Rows: []Row{{What: "row of B", Status: Differs}}}
	require.NoError(t, writeMarkdown(&Config{Out: dir, Commit: "c1"}, []*Result{a}))
	require.NoError(t, writeMarkdown(&Config{Out: dir, Commit: "c2"}, []*Result{b}))
	md, err := os.ReadFile(filepath.Join(dir, "REPRO.md"))
	require.NoError(t, err)
	s := string(md)
	for _, want := range []string{"row of A", "row of B", "first run", "second run", "commit `c1`", "commit `c2`"} {
		assert.Contains(t, s, want)
	}
	// items[0] comes first in the summary and in the sections.
	assert.Less(t, strings.Index(s, "row of B"), strings.Index(s, "row of A"))
	assert.Less(t, strings.Index(s, "| ["+items[0].Name+"]"), strings.Index(s, "| ["+items[1].Name+"]"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, items[1].Name+".md"), []byte("## no summary row\n"), 0o644))
	assert.ErrorContains(t, writeMarkdown(&Config{Out: dir, Commit: "c3"}, []*Result{b}), "summary row")
}
