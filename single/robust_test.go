package single

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/labelinf/labelinf/decode"
	"github.com/labelinf/labelinf/internal/testrand"
	"github.com/labelinf/labelinf/oracle"
	"github.com/labelinf/labelinf/scorer"
)

func TestRobustRecovers(t *testing.T) {
	rng := testrand.New(t)
	for _, tt := range []struct {
		n, k   int
		tau    float64
		enc    scorer.Encoding
		w      WeightSet
		margin float64
	}{
		{1, 2, 1, scorer.Logits, PowerWeights, 0},
		{300, 2, 1, scorer.LogProbs, PowerWeights, math.Log(3) - 1}, // EA Thm 14's base 3: W = 2Nτ·ln 3
		{20, 2, 1, scorer.Probs, PowerWeights, math.Log(3) - 1},
		{200, 2, 1, scorer.Logits, PowerWeights, 0},
		{200, 2, 1e-6, scorer.Logits, PowerWeights, 0}, // small W: logsumexp tails matter
		{200, 2, 1, scorer.LogProbs, PowerWeights, 0},
		{150, 3, 0.5, scorer.Logits, PowerWeights, 0},
		{100, 6, 2, scorer.LogProbs, PowerWeights, 0},
		{18, 2, 1, scorer.Probs, PowerWeights, 0},
		{12, 3, 1e-3, scorer.Probs, PowerWeights, 0},
		{30, 2, 1, scorer.Logits, ConwayGuyWeights, 0},
		{20, 2, 0.01, scorer.Probs, ConwayGuyWeights, 0},
	} {
		t.Run(fmt.Sprintf("n=%d/k=%d/tau=%g/%v/w=%d/margin=%.3g", tt.n, tt.k, tt.tau, tt.enc, tt.w, tt.margin), func(t *testing.T) {
			opt := RobustOptions{N: tt.n, K: tt.k, Tau: tt.tau, Encoding: tt.enc, Weights: tt.w, Margin: tt.margin}
			p, err := PlanRobust(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			for trial := range 3 {
				labels := make([]int, tt.n)
				for i := range labels {
					labels[i] = rng.IntN(tt.k)
				}
				if trial == 1 { // all the top class: the smallest loss
					for i := range labels {
						labels[i] = tt.k - 1
					}
				}
				srv, err := oracle.NewBigExact(labels, tt.k, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: tt.tau}, rng.Uint64())
				if err != nil {
					t.Fatal(err)
				}
				res, err := AttackRobust(context.Background(), srv, opt)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(res.Labels, labels) {
					t.Errorf("res.Labels = %v, want %v", res.Labels, labels)
				}
				if srv.Queries() != 1 {
					t.Errorf("srv.Queries() = %v, want %v", srv.Queries(), 1)
				}
				if res.Residual >= res.Budget {
					t.Errorf("res.Residual = %v, want < res.Budget = %v", res.Residual, res.Budget)
				}
			}
		})
	}
}

func TestRobustFailures(t *testing.T) {
	rng := testrand.New(t)
	opt := RobustOptions{N: 50, K: 2, Tau: 1}
	p, err := PlanRobust(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, 50)
	// Noise beyond the bound the plan assumed: a returned labeling is
	// still verified (its score is within the budget of the observed one,
	// which is all a score can certify), or the score is refused.
	wrong := 0
	for range 20 {
		for i := range labels {
			labels[i] = rng.IntN(2)
		}
		srv, err := oracle.NewBigExact(labels, 2, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: 40}, rng.Uint64())
		if err != nil {
			t.Fatal(err)
		}
		res, err := AttackRobust(context.Background(), srv, opt)
		if err != nil {
			if !errors.Is(err, decode.ErrInconsistent) {
				t.Errorf("err = %v, want %v", err, decode.ErrInconsistent)
			}
			continue
		}
		if res.Residual > res.Budget {
			t.Errorf("res.Residual = %v, want <= res.Budget = %v", res.Residual, res.Budget)
		}
		if fmt.Sprint(res.Labels) != fmt.Sprint(labels) {
			wrong++
		}
	}
	if wrong <= 0 {
		t.Errorf("noise 40× the bound must mislead some decodings: wrong = %v, want > 0", wrong)
	}
	// A score halfway between two labelings' scores is explained by none.
	exact, err := oracle.NewBigExact(labels, 2, p.Prec()+64, scorer.Noise{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	score, err := exact.Score(context.Background(), p.Pred())
	if err != nil {
		t.Fatal(err)
	}
	shift := new(big.Float).SetPrec(p.Prec()+64).Quo(p.W, big.NewFloat(100)) // W/(2N), N = 50
	score.Add(score, shift)
	_, err = p.Decode(score, p.Prec()+64)
	if !errors.Is(err, decode.ErrInconsistent) {
		t.Errorf("err = %v, want %v", err, decode.ErrInconsistent)
	}
	// Too few bits.
	srv, err := oracle.NewBigExact(labels, 2, p.Prec()-1, scorer.Noise{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, err = AttackRobust(context.Background(), srv, opt)
	var pe *PrecisionError
	if !errors.As(err, &pe) {
		t.Fatal("errors.As(err, &pe) is false")
	}
	if pe.Need != p.Prec() {
		t.Errorf("pe.Need = %v, want %v", pe.Need, p.Prec())
	}
	// Bad options.
	for _, bad := range []RobustOptions{
		{N: 0, K: 2, Tau: 1}, {N: 10, K: 1, Tau: 1}, {N: 10, K: 2}, {N: 10, K: 2, Tau: -1},
		{N: 10, K: 3, Tau: 1, Weights: ConwayGuyWeights}, {N: 51, K: 2, Tau: 1, Weights: ConwayGuyWeights},
		{N: 10, K: 2, Tau: 1, Margin: -1}, {N: 1000, K: 2, Tau: 1, Encoding: scorer.Probs}, {N: 10, K: 2, Tau: 1e-300},
	} {
		_, err := PlanRobust(context.Background(), bad)
		if err == nil {
			t.Errorf("%+v: err is nil, want an error", bad)
		}
	}
}

// TestMaxProbRows checks the limit of probability predictions: the attack
// works at MaxProbRows and the plan refuses one more row, because the
// smallest probability leaves big.Float's exponent range.
func TestMaxProbRows(t *testing.T) {
	for _, tt := range []struct {
		tau  float64
		want int
	}{{1e-9, 54}, {1e-6, 44}, {1e-3, 35}, {1, 25}, {1000, 16}} {
		if MaxProbRows(tt.tau) != tt.want {
			t.Errorf("τ=%g: MaxProbRows(tt.tau) = %v, want %v", tt.tau, MaxProbRows(tt.tau), tt.want)
		}
	}
	rng := testrand.New(t)
	const tau = 1.0
	limit := MaxProbRows(tau)
	n := limit
	if testing.Short() {
		// 8 rows below the limit: probabilities down to e^(−2^22) rather
		// than e^(−2^30), whose exponentials dominate the test's time.
		// The refusal one row beyond the limit is checked all the same.
		n = limit - 8
	}
	opt := RobustOptions{N: n, K: 2, Tau: tau, Encoding: scorer.Probs}
	labels := make([]int, n)
	for i := range labels {
		labels[i] = rng.IntN(2)
	}
	p, err := PlanRobust(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := oracle.NewBigExact(labels, 2, p.Prec(), scorer.Noise{Kind: scorer.Bounded, Tau: tau}, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Attack(context.Background(), srv)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Labels, labels) {
		t.Errorf("res.Labels = %v, want %v", res.Labels, labels)
	}
	opt.N = limit + 1
	_, err = PlanRobust(context.Background(), opt)
	if err == nil || !strings.Contains(err.Error(), "exponent range") {
		t.Errorf("err = %v, want one containing %q", err, "exponent range")
	}
}

// TestRobustFailureRate runs the one-query attack against unbounded noise
// whose half-width τ holds with probability 1 − δ, at δ = 0.05 so that
// failures are observable: Gaussian, τ = σ·√(2 ln(2/δ)) [AKXFT21, App.
// B.5]; Laplace (ε-DP's noise, sub-exponential), τ = b·ln(1/δ), its exact
// tail. The empirical failure rate must stay at or below δ (3σ of
// sampling allowed); with τ halved it would be about 4 times δ.
func TestRobustFailureRate(t *testing.T) {
	const delta, trials, n = 0.05, 1000, 40
	for _, nz := range []scorer.Noise{
		{Kind: scorer.Gaussian, Tau: 1, Delta: delta},
		{Kind: scorer.Laplace, Tau: 0.5, Delta: delta},
	} {
		t.Run(nz.Kind.String(), func(t *testing.T) {
			rng := testrand.New(t)
			tau := nz.HalfWidth(0, 1)
			if nz.Kind == scorer.Laplace {
				if !(math.Abs(tau-nz.Tau*math.Log(1/delta)) <= 1e-9) {
					t.Errorf("tau = %v, want %v within 1e-9", tau, nz.Tau*math.Log(1/delta))
				}
				if tau >= scorer.SubExpHalfWidth(2*nz.Tau, 2*nz.Tau, delta) {
					t.Errorf("the exact tail beats the generic sub-exponential bound: tau = %v, want < scorer.SubExpHalfWidth(2*nz.Tau, 2*nz.Tau, delta) = %v", tau, scorer.SubExpHalfWidth(2*nz.Tau, 2*nz.Tau, delta))
				}
			}
			p, err := PlanRobust(context.Background(), RobustOptions{N: n, K: 2, Tau: tau})
			if err != nil {
				t.Fatal(err)
			}
			fail := 0
			labels := make([]int, n)
			for range trials {
				for i := range labels {
					labels[i] = rng.IntN(2)
				}
				srv, err := oracle.NewBigExact(labels, 2, p.Prec(), nz, rng.Uint64())
				if err != nil {
					t.Fatal(err)
				}
				res, err := p.Attack(context.Background(), srv)
				if err != nil || fmt.Sprint(res.Labels) != fmt.Sprint(labels) {
					fail++
				}
			}
			t.Logf("%d failures in %d trials (τ = %.4g)", fail, trials, tau)
			if float64(fail) > delta*trials+3*math.Sqrt(delta*(1-delta)*trials) {
				t.Errorf("%d failures in %d trials: float64(fail) = %v, want <= delta*trials+3*math.Sqrt(delta*(1-delta)*trials) = %v", fail, trials, float64(fail), delta*trials+3*math.Sqrt(delta*(1-delta)*trials))
			}
		})
	}
}
