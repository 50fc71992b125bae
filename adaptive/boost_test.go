package adaptive_test

import (
	"context"
	"flag"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/labelinf/labelinf/adaptive"
	"github.com/labelinf/labelinf/defence"
)

var long = flag.Bool("long", false, "run the full reproductions (≥ 20 seeds)")

// boostRun is one run of the Ladder paper's boosting experiment: n uniform
// labels, k random 0/1 vectors against a leaderboard, and the holdout 0/1
// loss of the boosted vector (the "reported loss" of [BH15]'s plot, the
// unrounded score the leaderboard would show for it), with its loss on n
// fresh labels (the true loss, ≈ 1/2).
func boostRun(t testing.TB, seed uint64, n, k int, ladder bool) (holdout, fresh float64) {
	r := rand.New(rand.NewPCG(seed, 0x1add3))
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(2)
	}
	var (
		stage defence.Stage
		err   error
		mode  = adaptive.KeepBelowHalf
	)
	if ladder {
		stage, err = defence.NewLadder(defence.LadderOptions{Kind: defence.ParameterFree})
		mode = adaptive.KeepLowered
	} else {
		stage, err = defence.NewRound(5) // Kaggle: round(loss, 5)
	}
	if err != nil {
		t.Fatal(err)
	}
	c, err := defence.NewChain(n, stage)
	if err != nil {
		t.Fatal(err)
	}
	b, err := defence.NewBoard(defence.BoardOptions{Metric: defence.ZeroOne{}, Labels: y, Chain: c})
	if err != nil {
		t.Fatal(err)
	}
	res, err := adaptive.Boost(context.Background(), b, adaptive.BoostOptions{N: n, K: k, Mode: mode, Rand: r})
	if err != nil {
		t.Fatal(err)
	}
	if res.Submissions != k {
		t.Fatalf("res.Submissions = %v, want %v", res.Submissions, k)
	}
	e, f := 0, 0
	for i, v := range res.Boosted {
		if int(v) != y[i] {
			e++
		}
		if int(v) != r.IntN(2) {
			f++
		}
	}
	return float64(e) / float64(n), float64(f) / float64(n)
}

func meanSD(x []float64) (m, sd float64) {
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for _, v := range x {
		sd += (v - m) * (v - m)
	}
	return m, math.Sqrt(sd / float64(len(x)-1))
}

// TestBoostLadderHeadline reproduces the headline of [BH15] (mrtzh/Ladder.jl
// csvs/kaggleboosting-4000-400-5-highacc.csv, the mean of 5 runs): with
// n = 4,000 labels and k = 400 queries of 0/1 loss the boosting attack
// drives the reported loss to 0.42745 on a 5-decimal Kaggle leaderboard
// and to 0.48425 under the parameter-free Ladder, against a true 1/2.
//
// With -long: the mean over 20 seeds must be within ±0.01 of each. Under
// -short (and by default): 4 seeds, tolerance ±0.02. Justification: the
// per-seed standard deviation measured over 20 seeds is ≈ 0.007 (Kaggle)
// and ≈ 0.008 (Ladder) (BENCHMARKS.md), so the mean of 4 seeds has sd ≈
// 0.004, and the paper's own figure, a mean of 5 runs, carries ≈ 0.004;
// ±0.02 is more than 3 sd of their difference.
func TestBoostLadderHeadline(t *testing.T) {
	seeds, tol := 4, 0.02
	if *long {
		seeds, tol = 20, 0.01
	}
	for _, tc := range []struct {
		name   string
		ladder bool
		want   float64
	}{
		{"kaggle-5-decimals", false, 0.42745},
		{"ladder-parameter-free", true, 0.48425},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := make([]float64, seeds)
			f := make([]float64, seeds)
			for s := range x {
				x[s], f[s] = boostRun(t, uint64(s+1), 4000, 400, tc.ladder)
			}
			m, sd := meanSD(x)
			fm, fsd := meanSD(f)
			t.Logf("%s: holdout %.5f ± %.5f, fresh %.5f ± %.5f over %d seeds (paper %.5f)", tc.name, m, sd, fm, fsd, seeds, tc.want)
			if d := math.Abs(tc.want - m); !(d <= tol) {
				t.Errorf("boosted holdout loss, mean of %d seeds: got %v, want %v within %v", seeds, m, tc.want, tol)
			}
			// Fresh labels: a coin, sd 1/(2√4000) ≈ 0.008 per seed.
			if d := math.Abs(0.5 - fm); !(d <= 4*0.008/math.Sqrt(float64(seeds))) {
				t.Errorf("boosted loss on fresh labels: got %v, want %v within %v", fm, 0.5, 4*0.008/math.Sqrt(float64(seeds)))
			}
		})
	}
}

// BenchmarkBoostHeadline runs the same experiment over 20 seeds per
// iteration and reports the means and standard deviations.
func BenchmarkBoostHeadline(b *testing.B) {
	for _, ladder := range []bool{false, true} {
		name := "board=kaggle5"
		if ladder {
			name = "board=ladder-free"
		}
		b.Run(name, func(b *testing.B) {
			var m, sd, fm float64
			for b.Loop() {
				x := make([]float64, 20)
				f := make([]float64, 20)
				for s := range x {
					x[s], f[s] = boostRun(b, uint64(s+1), 4000, 400, ladder)
				}
				m, sd = meanSD(x)
				fm, _ = meanSD(f)
			}
			b.ReportMetric(m, "loss")
			b.ReportMetric(sd, "sd")
			b.ReportMetric(fm, "fresh-loss")
			b.ReportMetric(400, "queries/op")
		})
	}
}

// TestBoostSelection checks the selection rules on a scripted leaderboard.
func TestBoostSelection(t *testing.T) {
	scores := []float64{0.49, 0.51, 0.48, 0.48, 0.47}
	for _, tc := range []struct {
		mode adaptive.BoostMode
		kept int
	}{
		{adaptive.KeepBelowHalf, 4}, // all but 0.51
		{adaptive.KeepLowered, 3},   // 0.49 (< 1/2), 0.48 (< 0.51), 0.47
	} {
		lb := &script{scores: scores}
		res, err := adaptive.Boost(context.Background(), lb, adaptive.BoostOptions{N: 10, K: 5, Mode: tc.mode, Rand: rand.New(rand.NewPCG(1, 2)), SubmitFinal: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Kept != tc.kept {
			t.Errorf("%v: got %v, want %v", tc.mode, res.Kept, tc.kept)
		}
		if res.Submissions != 6 {
			t.Errorf("res.Submissions = %v, want %v", res.Submissions, 6)
		}
		if res.Final != 0.5 {
			t.Errorf("final answer read: got %v, want %v", res.Final, 0.5)
		}
	}
	_, err := adaptive.Boost(context.Background(), &script{}, adaptive.BoostOptions{N: 10, K: 5, Mode: 0, Rand: rand.New(rand.NewPCG(1, 2))})
	if err == nil {
		t.Error("want an error, got nil")
	}
	_, err = adaptive.Boost(context.Background(), &script{}, adaptive.BoostOptions{N: 10, K: 5, Mode: adaptive.KeepLowered})
	if err == nil {
		t.Error("want an error, got nil")
	}
	res, err := adaptive.Boost(context.Background(), &script{scores: scores[:2]}, adaptive.BoostOptions{N: 10, K: 5, Mode: adaptive.KeepLowered, Rand: rand.New(rand.NewPCG(1, 2))})
	if err == nil {
		t.Errorf("a refused submission stops the attack: no error")
	}
	if res.Submissions != 2 {
		t.Errorf("res.Submissions = %v, want %v", res.Submissions, 2)
	}
}

// script answers its scores in order, then 0.5 once, then refuses.
type script struct {
	scores []float64
	i      int
}

func (s *script) Submit(ctx context.Context, pred []float64) (*big.Rat, error) {
	s.i++
	switch {
	case s.i <= len(s.scores):
		return new(big.Rat).SetFloat64(s.scores[s.i-1]), nil
	case s.i == len(s.scores)+1 && len(s.scores) == 5:
		return big.NewRat(1, 2), nil
	}
	return nil, context.DeadlineExceeded
}

// defenceCase is one leaderboard the boosting attack is run against.
type defenceCase struct {
	name  string
	mode  adaptive.BoostMode
	train int // training rows with public labels (Thresholdout)
	stage func(n int) (defence.Stage, error)
}

var boostDefences = []defenceCase{
	// η = 1/100 on its own grid [BH15, Algorithm 1]; the code's grid 10^−round(log₁₀ n).
	{"ladder-fixed-0.01", adaptive.KeepLowered, 0, func(int) (defence.Stage, error) {
		return defence.NewLadder(defence.LadderOptions{Kind: defence.FixedStep, Eta: big.NewRat(1, 100)})
	}},
	{"ladder-fixed-0.01-code-grid", adaptive.KeepLowered, 0, func(n int) (defence.Stage, error) {
		return defence.NewLadder(defence.LadderOptions{Kind: defence.FixedStep, Eta: big.NewRat(1, 100), Grid: defence.CodeGrid(n)})
	}},
	// The Science supplement's settings for n rows (threshold 4/√n,
	// Gaussian 1/√n), budget 400, 4,000 training rows; the attack keeps
	// answers ≤ 1/2 as against Kaggle.
	{"thresholdout-science", adaptive.KeepBelowHalf, 4000, func(n int) (defence.Stage, error) {
		o, err := defence.ThresholdoutScienceCode(n, 1, 400)
		if err != nil {
			return nil, err
		}
		return defence.NewThresholdout(o)
	}},
}

// boostDefence runs the boosting attack (n holdout rows, k vectors)
// against one defence and returns the holdout 0/1 loss of the vote.
func boostDefence(t testing.TB, seed uint64, n, k int, dc defenceCase) float64 {
	r := rand.New(rand.NewPCG(seed, 0x1add3))
	y := make([]int, n)
	for i := range y {
		y[i] = r.IntN(2)
	}
	tr := make([]int, dc.train)
	for i := range tr {
		tr[i] = r.IntN(2)
	}
	st, err := dc.stage(n)
	if err != nil {
		t.Fatal(err)
	}
	c, err := defence.NewChain(n, st)
	if err != nil {
		t.Fatal(err)
	}
	b, err := defence.NewBoard(defence.BoardOptions{Metric: defence.ZeroOne{}, Labels: y, Train: tr, Chain: c})
	if err != nil {
		t.Fatal(err)
	}
	res, err := adaptive.Boost(context.Background(), b, adaptive.BoostOptions{N: b.Rows(), K: k, Mode: dc.mode, Rand: r})
	if err != nil {
		t.Fatal(err)
	}
	e := 0
	for i, v := range res.Boosted[dc.train:] {
		if int(v) != y[i] {
			e++
		}
	}
	return float64(e) / float64(n)
}

// TestBoostAgainstDefences: n = 4,000, k = 400, the defences beyond the
// headline's two. Where showing every score (Kaggle) lets the vote
// overfit the holdout by ≈ 0.07, the fixed-step Ladders and Thresholdout
// keep the overfitting within 0.03 (the bound asserted; the measured
// means are in BENCHMARKS.md). 2 seeds (fixed, so the test is
// deterministic), 20 with -long.
func TestBoostAgainstDefences(t *testing.T) {
	seeds := 2
	if *long {
		seeds = 20
	}
	for _, dc := range boostDefences {
		t.Run(dc.name, func(t *testing.T) {
			x := make([]float64, seeds)
			for s := range x {
				x[s] = boostDefence(t, uint64(s+1), 4000, 400, dc)
			}
			m, sd := meanSD(x)
			t.Logf("%s: holdout loss of the vote %.5f ± %.5f over %d seeds", dc.name, m, sd, seeds)
			if !(m > 0.47) {
				t.Errorf("overfitting within 0.03: %v <= %v", m, 0.47)
			}
		})
	}
}
