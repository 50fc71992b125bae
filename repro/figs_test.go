package repro

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/labelinf/labelinf/datasets"
	"github.com/labelinf/labelinf/primes"
)

// TestAlg2Float64 pins ICML Fig 1(e)'s ends: at τ = 1 one float64 query
// recovers every labeling of N = 6 and not of N = 7 (e^(W·2^6) overflows,
// θ = 0 and a label 1 there scores +Inf).
func TestAlg2Float64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tt := range []struct {
		n    int
		tau  float64
		want bool
	}{{6, 1, true}, {7, 1, false}, {12, 0.01, true}, {13, 0.01, false}} {
		a := newAlg2Float64(tt.n, tt.tau)
		all := true
		for range 200 {
			all = all && a.trial(randomLabels(rng, tt.n, 2), rng) == 1
		}
		assert.Equal(t, tt.want, all, "alg2Float64(N = %d, τ = %g) recovers every labeling", tt.n, tt.tau)
	}
}

// TestFig1TauRange checks fig1TauRange against alg2Float64 itself: just
// inside each paper N's range every labeling of N points comes back and the
// all-ones labeling of N+1 does not (its top weight overflows e^x); just
// above the range N fails too. It also checks that fig1TauRatios is the
// ratio of those ranges' ends (c and the limit cancel), and that τ = 0.1
// lies outside N = 8's range (it recovers 9).
func TestFig1TauRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	allOnes := func(n int) []int {
		y := make([]int, n)
		for i := range y {
			y[i] = 1
		}
		return y
	}
	recovers := func(n int, tau float64) bool {
		a := newAlg2Float64(n, tau)
		ok := a.trial(allOnes(n), rng) == 1
		for range 50 {
			ok = ok && a.trial(randomLabels(rng, n, 2), rng) == 1
		}
		return ok
	}
	for _, n := range fig1PaperN {
		lo, hi := fig1TauRange(n)
		for _, tau := range []float64{lo * 1.001, hi * 0.999} {
			assert.True(t, recovers(n, tau), "N = %d at τ = %g", n, tau)
			assert.False(t, recovers(n+1, tau), "N = %d at τ = %g", n+1, tau)
		}
		assert.False(t, recovers(n, hi*1.001), "N = %d just above its range, τ = %g", n, hi*1.001)
	}
	lo12, hi12 := fig1TauRange(12)
	lo8, hi8 := fig1TauRange(8)
	rlo, rhi := fig1TauRatios(12, 8)
	assert.InEpsilon(t, lo8/hi12, rlo, 1e-12)
	assert.InEpsilon(t, hi8/lo12, rhi, 1e-12)
	assert.True(t, recovers(9, 0.1), "τ = 0.1 recovers N = 9")
	assert.Contains(t, fig1TauNote(), "0.1 is outside")
}

// TestKaryFloat64: K = 2 is Theorem 1's query of Fig 1(a) (the same
// accuracy on every labeling), and a small K-ary labeling comes back.
func TestKaryFloat64(t *testing.T) {
	ps, err := primes.FirstN(30)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(2, 2))
	for range 50 {
		y := randomLabels(rng, 20, 2)
		ps := ps[:20]
		a, _ := acc1Primes(y, ps, 1)
		assert.Equal(t, a, karyFloat64(y, ps, 2), "labels %v", y)
	}
	assert.Equal(t, 1.0, karyFloat64([]int{2, 0, 1, 2}, ps, 3))
	// Past float64's integers the product is lost: 30 points of class 9.
	y := make([]int, 30)
	for i := range y {
		y[i] = 9
	}
	assert.Less(t, karyFloat64(y, ps[:30], 10), 1.0)
}

// TestAppJRun pins the float64 block limits of EA App J on Titanic: with
// Thm 14 and the server scoring the block alone, blocks of 3 points decode
// at τ = 1 and blocks of 4 do not (3^(16·4) rounds θ to 1); at τ = 1e−4 the
// limit is 14.
func TestAppJRun(t *testing.T) {
	y, err := datasets.Labels("titanic")
	require.NoError(t, err)
	co := appjConstructions[0]
	assert.Equal(t, 1.0, appjRun(y, 3, co, 1, false, 1, 1))
	assert.Less(t, appjRun(y, 4, co, 1, false, 1, 1), 1.0)
	assert.Equal(t, 1.0, appjRun(y, 14, co, 1e-4, false, 1, 1))
	assert.Less(t, appjRun(y, 15, co, 1e-4, false, 1, 1), 1.0)
	// Scoring all 2,201 points puts Nτ in the exponent: at τ = 1e−4
	// blocks of 7 still decode, 8 do not.
	assert.Equal(t, 1.0, appjRun(y, 7, co, 1e-4, true, 1, 1))
	assert.Less(t, appjRun(y, 8, co, 1e-4, true, 1, 1), 1.0)
}

// TestQuickTable: a full run of an expensive item also writes its -quick
// case's table, from the -quick configuration, without touching the full
// run's plots.
func TestQuickTable(t *testing.T) {
	dir := t.TempDir()
	it := &Item{Name: "x", run: func(_ context.Context, c *Config, r *Result) error {
		r.Rows = append(r.Rows, Row{What: "quick", Ours: map[bool]string{true: "small", false: "large"}[c.Quick]})
		return os.WriteFile(filepath.Join(c.Out, "plot.csv"), []byte(r.Rows[0].Ours), 0o644)
	}}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plot.csv"), []byte("large"), 0o644))
	require.NoError(t, runQuickTable(context.Background(), &Config{Out: dir}, it))
	b, err := os.ReadFile(filepath.Join(dir, "x-quick-table.csv"))
	require.NoError(t, err)
	assert.Contains(t, string(b), "quick,,small,")
	b, err = os.ReadFile(filepath.Join(dir, "plot.csv"))
	require.NoError(t, err)
	assert.Equal(t, "large", string(b), "the quick case wrote over the full run's files")
}

// TestTicks: short log axes label 1, 2, 5 per decade; linear axes of
// whole numbers get whole-number labels.
func TestTicks(t *testing.T) {
	var labels []string
	for _, tk := range (logTicks{}).Ticks(2, 500) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, "2 5 10 20 50 100 200 500", strings.Join(labels, " "))
	labels = nil
	for _, tk := range (intTicks{}).Ticks(1, 40) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	assert.Equal(t, "5 10 15 20 25 30 35 40", strings.Join(labels, " "))
}

// TestThm5CostBound runs ea-thm5 on the first 40 Titanic labels: with the
// bound one candidate below the N = 40 a powers-of-two attack examines,
// every M of every loss is reported over the cost bound; at 40 every one
// runs, and two runs write byte-identical tables and data (no clock in
// them).
func TestThm5CostBound(t *testing.T) {
	y, err := datasets.Labels("titanic")
	require.NoError(t, err)
	y = y[:40]
	ms := []int{4, 8}
	if testing.Short() {
		ms = []int{4} // planning dominates; one M still covers the bound and the comparison
	}
	it, err := Lookup("ea-thm5")
	require.NoError(t, err)
	run := func(maxCand int64) (*Result, string) {
		dir := t.TempDir()
		r := &Result{Item: it}
		require.NoError(t, thm5(context.Background(), &Config{Out: dir}, r, y, ms, maxCand))
		require.NoError(t, writeTable(dir, r, "-table.csv"))
		return r, dir
	}
	r, _ := run(39)
	require.Len(t, r.Rows, 5)
	assert.Contains(t, r.Why, fmt.Sprintf("%d over the cost bound", 5*len(ms)))
	for _, row := range r.Rows {
		assert.Equal(t, "0", row.Ours, row.What)
		for _, m := range ms {
			assert.Contains(t, row.Note, fmt.Sprintf("M = %d: over the cost bound (40 candidates > 39)", m), row.What)
		}
	}
	r1, d1 := run(40)
	_, d2 := run(40)
	assert.Contains(t, r1.Why, "none is over the cost bound")
	for _, row := range r1.Rows {
		assert.Equal(t, fmt.Sprint(ms[len(ms)-1]), row.Ours, "%s: %s", row.What, row.Note)
		assert.NotContains(t, row.Note, "cost bound")
	}
	for _, f := range []string{"ea-thm5-table.csv", "ea-thm5.csv", "ea-thm5.svg"} {
		a, err := os.ReadFile(filepath.Join(d1, f))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(d2, f))
		require.NoError(t, err)
		assert.Equal(t, string(a), string(b), "%s differs between two runs", f)
	}
}
