package repro

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
		if all != tt.want {
			t.Errorf("alg2Float64(N = %d, τ = %g) recovers every labeling: got %v, want %v", tt.n, tt.tau, all, tt.want)
		}
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
			if !recovers(n, tau) {
				t.Errorf("N = %d at τ = %g", n, tau)
			}
			if recovers(n+1, tau) {
				t.Errorf("N = %d at τ = %g", n+1, tau)
			}
		}
		if recovers(n, hi*1.001) {
			t.Errorf("N = %d just above its range, τ = %g", n, hi*1.001)
		}
	}
	lo12, hi12 := fig1TauRange(12)
	lo8, hi8 := fig1TauRange(8)
	rlo, rhi := fig1TauRatios(12, 8)
	if r := math.Abs(rlo-lo8/hi12) / math.Abs(lo8/hi12); !(r <= 1e-12) {
		t.Errorf("rlo = %v, want %v", rlo, lo8/hi12)
	}
	if r := math.Abs(rhi-hi8/lo12) / math.Abs(hi8/lo12); !(r <= 1e-12) {
		t.Errorf("rhi = %v, want %v", rhi, hi8/lo12)
	}
	if !recovers(9, 0.1) {
		t.Error("τ = 0.1 recovers N = 9")
	}
	if !strings.Contains(fig1TauNote(), "0.1 is outside") {
		t.Errorf("%q lacks %q", fig1TauNote(), "0.1 is outside")
	}
}

// TestKaryFloat64: K = 2 is Theorem 1's query of Fig 1(a) (the same
// accuracy on every labeling), and a small K-ary labeling comes back.
func TestKaryFloat64(t *testing.T) {
	ps, err := primes.FirstN(30)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 2))
	for range 50 {
		y := randomLabels(rng, 20, 2)
		ps := ps[:20]
		a, _ := acc1Primes(y, ps, 1)
		if got := karyFloat64(y, ps, 2); got != a {
			t.Errorf("labels %v: got %v, want %v", y, got, a)
		}
	}
	if got := karyFloat64([]int{2, 0, 1, 2}, ps, 3); got != 1.0 {
		t.Errorf("karyFloat64([]int{2, 0, 1, 2}, ps, 3) = %v, want %v", got, 1.0)
	}
	// Past float64's integers the product is lost: 30 points of class 9.
	y := make([]int, 30)
	for i := range y {
		y[i] = 9
	}
	if !(karyFloat64(y, ps[:30], 10) < 1.0) {
		t.Errorf("karyFloat64(y, ps[:30], 10) = %v, want < %v", karyFloat64(y, ps[:30], 10), 1.0)
	}
}

// TestAppJRun pins the float64 block limits of EA App J on Titanic: with
// Thm 14 and the server scoring the block alone, blocks of 3 points decode
// at τ = 1 and blocks of 4 do not (3^(16·4) rounds θ to 1); at τ = 1e−4 the
// limit is 14.
func TestAppJRun(t *testing.T) {
	y, err := datasets.Labels("titanic")
	if err != nil {
		t.Fatal(err)
	}
	co := appjConstructions[0]
	if got := appjRun(y, 3, co, 1, false, 1, 1); got != 1.0 {
		t.Errorf("appjRun(y, 3, co, 1, false, 1, 1) = %v, want %v", got, 1.0)
	}
	if !(appjRun(y, 4, co, 1, false, 1, 1) < 1.0) {
		t.Errorf("appjRun(y, 4, co, 1, false, 1, 1) = %v, want < %v", appjRun(y, 4, co, 1, false, 1, 1), 1.0)
	}
	if got := appjRun(y, 14, co, 1e-4, false, 1, 1); got != 1.0 {
		t.Errorf("appjRun(y, 14, co, 1e-4, false, 1, 1) = %v, want %v", got, 1.0)
	}
	if !(appjRun(y, 15, co, 1e-4, false, 1, 1) < 1.0) {
		t.Errorf("appjRun(y, 15, co, 1e-4, false, 1, 1) = %v, want < %v", appjRun(y, 15, co, 1e-4, false, 1, 1), 1.0)
	}
	// Scoring all 2,201 points puts Nτ in the exponent: at τ = 1e−4
	// blocks of 7 still decode, 8 do not.
	if got := appjRun(y, 7, co, 1e-4, true, 1, 1); got != 1.0 {
		t.Errorf("appjRun(y, 7, co, 1e-4, true, 1, 1) = %v, want %v", got, 1.0)
	}
	if !(appjRun(y, 8, co, 1e-4, true, 1, 1) < 1.0) {
		t.Errorf("appjRun(y, 8, co, 1e-4, true, 1, 1) = %v, want < %v", appjRun(y, 8, co, 1e-4, true, 1, 1), 1.0)
	}
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
	if err := os.WriteFile(filepath.Join(dir, "plot.csv"), []byte("large"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := runQuickTable(context.Background(), &Config{Out: dir}, it); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "x-quick-table.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "quick,,small,") {
		t.Errorf("%q lacks %q", string(b), "quick,,small,")
	}
	b, err = os.ReadFile(filepath.Join(dir, "plot.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != "large" {
		t.Errorf("the quick case wrote over the full run's files: got %v, want %v", got, "large")
	}
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
	if got := strings.Join(labels, " "); got != "2 5 10 20 50 100 200 500" {
		t.Errorf("strings.Join(labels, \" \") = %v, want %v", got, "2 5 10 20 50 100 200 500")
	}
	labels = nil
	for _, tk := range (intTicks{}).Ticks(1, 40) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if got := strings.Join(labels, " "); got != "5 10 15 20 25 30 35 40" {
		t.Errorf("strings.Join(labels, \" \") = %v, want %v", got, "5 10 15 20 25 30 35 40")
	}
}

// TestThm5CostBound runs ea-thm5 on the first 40 Titanic labels: with the
// bound one candidate below the N = 40 a powers-of-two attack examines,
// every M of every loss is reported over the cost bound; at 40 every one
// runs, and two runs write byte-identical tables and data (no clock in
// them).
func TestThm5CostBound(t *testing.T) {
	y, err := datasets.Labels("titanic")
	if err != nil {
		t.Fatal(err)
	}
	y = y[:40]
	ms := []int{4, 8}
	if testing.Short() {
		ms = []int{4} // planning dominates; one M still covers the bound and the comparison
	}
	it, err := Lookup("ea-thm5")
	if err != nil {
		t.Fatal(err)
	}
	run := func(maxCand int64) (*Result, string) {
		dir := t.TempDir()
		r := &Result{Item: it}
		if err := thm5(context.Background(), &Config{Out: dir}, r, y, ms, maxCand); err != nil {
			t.Fatal(err)
		}
		if err := writeTable(dir, r, "-table.csv"); err != nil {
			t.Fatal(err)
		}
		return r, dir
	}
	r, _ := run(39)
	if len(r.Rows) != 5 {
		t.Fatalf("len %d, want %d", len(r.Rows), 5)
	}
	if !strings.Contains(r.Why, fmt.Sprintf("%d over the cost bound", 5*len(ms))) {
		t.Errorf("%q lacks %q", r.Why, fmt.Sprintf("%d over the cost bound", 5*len(ms)))
	}
	for _, row := range r.Rows {
		if row.Ours != "0" {
			t.Errorf("%v: got %v, want %v", row.What, row.Ours, "0")
		}
		for _, m := range ms {
			if !strings.Contains(row.Note, fmt.Sprintf("M = %d: over the cost bound (40 candidates > 39)", m)) {
				t.Errorf("%v: %q lacks %q", row.What, row.Note, fmt.Sprintf("M = %d: over the cost bound (40 candidates > 39)", m))
			}
		}
	}
	r1, d1 := run(40)
	_, d2 := run(40)
	if !strings.Contains(r1.Why, "none is over the cost bound") {
		t.Errorf("%q lacks %q", r1.Why, "none is over the cost bound")
	}
	for _, row := range r1.Rows {
		if want := fmt.Sprint(ms[len(ms)-1]); row.Ours != want {
			t.Errorf("%s: %s: got %v, want %v", row.What, row.Note, row.Ours, want)
		}
		if strings.Contains(row.Note, "cost bound") {
			t.Errorf("%q contains %q", row.Note, "cost bound")
		}
	}
	for _, f := range []string{"ea-thm5-table.csv", "ea-thm5.csv", "ea-thm5.svg"} {
		a, err := os.ReadFile(filepath.Join(d1, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(d2, f))
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(b), string(a); got != want {
			t.Errorf("%s differs between two runs: got %v, want %v", f, got, want)
		}
	}
}
