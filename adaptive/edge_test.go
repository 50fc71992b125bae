package adaptive_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/labelinf/labelinf/adaptive"
	"github.com/labelinf/labelinf/defence"
)

func labels(seed uint64, n int, p1 float64) []int {
	r := rand.New(rand.NewPCG(seed, 99))
	y := make([]int, n)
	for i := range y {
		if r.Float64() < p1 {
			y[i] = 1
		}
	}
	return y
}

func board(t *testing.T, m defence.Metric, y []int, stages ...defence.Stage) *defence.Board {
	t.Helper()
	c, err := defence.NewChain(len(y), stages...)
	if err != nil {
		t.Fatal(err)
	}
	b, err := defence.NewBoard(defence.BoardOptions{Metric: m, Labels: y, Chain: c})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEdgeDefeatsRounding: log-loss clipped at 10⁻³ and rounded to 2
// decimals, N = 2,000: one label moves the score by at most
// ln(999)/2000 ≈ 0.0035, a third of the rounding step, so the score
// alone cannot tell a label; the edge attack reads every one, one
// submission per label after ≈ 55 for the bisection, and verifies each
// with a second reading. Under -short N = 1,000 (one label ≤ 0.0069,
// still below the step).
func TestEdgeDefeatsRounding(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 1000
	}
	for _, tc := range []struct {
		name string
		p1   float64
	}{{"balanced", 0.5}, {"skewed", 0.2}, {"mostly-ones", 0.85}} {
		t.Run(tc.name, func(t *testing.T) {
			y := labels(7, n, tc.p1)
			r2, err := defence.NewRound(2)
			if err != nil {
				t.Fatal(err)
			}
			b := board(t, defence.LogLoss{Eps: 1e-3}, y, r2)
			if !(defence.MaxLabelShift(1e-3, n) < 0.01) {
				t.Fatalf("one label is below the rounding step: %v >= %v", defence.MaxLabelShift(1e-3, n), 0.01)
			}
			res, err := adaptive.Edge(context.Background(), b, adaptive.EdgeOptions{N: n, Eps: 1e-3, Verify: true})
			if err != nil {
				t.Fatal(err)
			}
			if res.NumVerified != n {
				t.Errorf("res.NumVerified = %v, want %v", res.NumVerified, n)
			}
			if res.Conflicts != 0 {
				t.Errorf("res.Conflicts = %v, want %v", res.Conflicts, 0)
			}
			for i, v := range y {
				if want := int8(v); res.Labels[i] != want {
					t.Errorf("row %d: got %v, want %v", i, res.Labels[i], want)
				}
			}
			if want := res.Bisection + 2*n; res.Submissions != want {
				t.Errorf("res.Submissions = %v, want %v", res.Submissions, want)
			}
			if !(res.Bisection <= 70) {
				t.Errorf("bisection over float64 q: %v > %v", res.Bisection, 70)
			}
			t.Logf("%s: %d submissions (%d bisection) for %d verified labels", tc.name, res.Submissions, res.Bisection, res.NumVerified)
		})
	}
}

// TestEdgeSplit: behind a public/private split the attack reads the public
// labels and never verifies a private one.
func TestEdgeSplit(t *testing.T) {
	const n = 1000
	y := labels(8, n, 0.5)
	sp, err := defence.NewSplit(n, 0.3, [32]byte{9}, time.Time{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r2, _ := defence.NewRound(2)
	b := board(t, defence.LogLoss{Eps: 1e-3}, y, sp, r2)
	res, err := adaptive.Edge(context.Background(), b, adaptive.EdgeOptions{N: n, Eps: 1e-3, Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range sp.Private() {
		if res.Verified[i] {
			t.Errorf("private row %d verified", i)
		}
		if res.Labels[i] != adaptive.Unknown {
			t.Errorf("res.Labels[i] = %v, want %v", res.Labels[i], adaptive.Unknown)
		}
	}
	for _, i := range sp.Public() {
		if !res.Verified[i] {
			t.Errorf("public row %d", i)
		}
		if want := int8(y[i]); res.Labels[i] != want {
			t.Errorf("public row %d: got %v, want %v", i, res.Labels[i], want)
		}
	}
	if want := len(sp.Private()); res.Conflicts != want {
		t.Errorf("res.Conflicts = %v, want %v", res.Conflicts, want)
	}
}

// TestEdgeNoise: noise larger than one label's move turns every reading
// into a coin; the attack detects the contradictions and verifies nothing.
// Noise far below the move does not stop it.
func TestEdgeNoise(t *testing.T) {
	const n = 500
	y := labels(10, n, 0.5)
	r2, _ := defence.NewRound(2)
	loud, err := defence.NewNoise(defence.NoiseOptions{Kind: defence.Gaussian, Scale: 0.003})
	if err != nil {
		t.Fatal(err)
	}
	b := board(t, defence.LogLoss{Eps: 1e-3}, y, loud, r2)
	res, err := adaptive.Edge(context.Background(), b, adaptive.EdgeOptions{N: n, Eps: 1e-3, Verify: true})
	if err == nil {
		t.Fatalf("no error against noise: %d verified", res.NumVerified)
	}
	if res.NumVerified != 0 {
		t.Errorf("nothing verified under noise (%v): got %v, want %v", err, res.NumVerified, 0)
	}

	// σ = 10⁻⁹ against a move of ≈ 4·10⁻⁴ per label (N = 500, q′ = q + (1−ε−q)/4).
	quiet, err := defence.NewNoise(defence.NoiseOptions{Kind: defence.Gaussian, Scale: 1e-9})
	if err != nil {
		t.Fatal(err)
	}
	b = board(t, defence.LogLoss{Eps: 1e-3}, y, quiet, r2)
	res, err = adaptive.Edge(context.Background(), b, adaptive.EdgeOptions{N: n, Eps: 1e-3, Verify: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.NumVerified != n {
		t.Errorf("res.NumVerified = %v, want %v", res.NumVerified, n)
	}
	for i, v := range y {
		if want := int8(v); res.Labels[i] != want {
			t.Errorf("res.Labels[i] = %v, want %v", res.Labels[i], want)
		}
	}
}

// TestEdgeStops: a daily limit stops the attack with what it read.
func TestEdgeStops(t *testing.T) {
	const n = 300
	y := labels(11, n, 0.5)
	r2, _ := defence.NewRound(2)
	clk := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	bud, err := defence.NewBudget(defence.Limits{PerDay: 100}, func() time.Time { return clk })
	if err != nil {
		t.Fatal(err)
	}
	c, err := defence.NewChain(n, r2)
	if err != nil {
		t.Fatal(err)
	}
	b, err := defence.NewBoard(defence.BoardOptions{Metric: defence.LogLoss{Eps: 1e-3}, Labels: y, Chain: c, Budget: bud})
	if err != nil {
		t.Fatal(err)
	}
	res, err := adaptive.Edge(context.Background(), b, adaptive.EdgeOptions{N: n, Eps: 1e-3})
	var le *defence.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("error %v, want a *defence.LimitError", err)
	}
	if res.Submissions != 100 {
		t.Errorf("res.Submissions = %v, want %v", res.Submissions, 100)
	}
	if want := 100 - res.Bisection; res.Known != want {
		t.Errorf("res.Known = %v, want %v", res.Known, want)
	}
	if res.NumVerified != 0 {
		t.Errorf("without Verify nothing is verified: got %v, want %v", res.NumVerified, 0)
	}
	for i, l := range res.Labels {
		if l != adaptive.Unknown {
			if want := int8(y[i]); l != want {
				t.Errorf("l = %v, want %v", l, want)
			}
		}
	}

	// 0/1 loss is a step in the prediction: no dial reaches an edge with a
	// one-row move, every row conflicts, nothing is verified.
	c01, err := defence.NewChain(n, r2)
	if err != nil {
		t.Fatal(err)
	}
	b01, err := defence.NewBoard(defence.BoardOptions{Metric: defence.ZeroOne{}, Labels: y, Chain: c01})
	if err != nil {
		t.Fatal(err)
	}
	res, err = adaptive.Edge(context.Background(), b01, adaptive.EdgeOptions{N: n, Eps: 1e-3, Verify: true})
	if res == nil {
		t.Fatalf("no result (error %v)", err)
	}
	if res.NumVerified != 0 {
		t.Errorf("0/1 loss (error %v): got %v, want %v", err, res.NumVerified, 0)
	}

	_, err = adaptive.Edge(context.Background(), b, adaptive.EdgeOptions{N: n, Eps: 0})
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = adaptive.Edge(context.Background(), b, adaptive.EdgeOptions{N: n, Eps: 1e-3, Rows: []int{n}})
	if err == nil {
		t.Error("want an error, got nil")
	}
}
