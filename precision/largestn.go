package precision

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/labelinf/labelinf/fpa"
	"github.com/labelinf/labelinf/loss"
)

// This file implements the largest N one noisy score recovers in a finite
// float format (ICML Fig 1(e), the robust attack's N against τ).

// RobustTrials is the number of random labelings a size must recover at
// 100% to count in [LargestRobustN], as in ICML Fig 1 (which uses more;
// 20 keeps it fast).
const RobustTrials = 20

// RobustSucceeds runs the single-query robust attack (ICML Alg 2) against a
// server computing in format f: prediction i has weight W·2^i, W =
// 2Nτ(1+1/16), given as a probability (cross-entropy) or as a logit
// (sigmoid cross-entropy) rounded to f; the server computes every term in
// f, sums them recursively in f, divides by N in f and adds noise uniform
// in [−τ, τ]. The attacker knows each term exactly (it can evaluate the
// server's formula in f) and bounds the server's rounding by
// γ_N·Σ|terms| + u·N·ℓ; it decodes greedily from the largest weight and
// verifies. It reports whether all [RobustTrials] trials, labelings drawn
// from rng, recovered every label.
func RobustSucceeds(f fpa.Format, logit bool, tau float64, n int, rng *rand.Rand) bool {
	kind := loss.CE
	if logit {
		kind = loss.SigmoidCE
	}
	l, err := loss.NewBinary(kind, 0, [4]float64{})
	if err != nil {
		return false
	}
	w := 2 * float64(n) * tau * (1 + 1.0/16)
	t := [2][]float64{make([]float64, n), make([]float64, n)}
	x := make([]float64, n)
	var mag float64
	for i := range n {
		xb, err := l.Invert(new(big.Float).SetFloat64(math.Ldexp(w, i)), 128)
		if err != nil {
			return false
		}
		xv, _ := xb.Float64()
		xf := fpa.New(f).SetFloat64(xv) // the prediction as the format holds it
		x[i], _ = xf.Float64()
		if !logit && (x[i] <= 0 || x[i] >= 1) {
			return false // the probability underflows the format
		}
		for y := range 2 {
			tf, err := l.TermFPA(f, y, x[i])
			if err != nil {
				return false
			}
			v, _ := tf.Float64()
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return false
			}
			t[y][i] = v
		}
		mag += math.Max(math.Abs(t[0][i]), math.Abs(t[1][i]))
	}
	u := math.Ldexp(1, -int(f.Prec()))
	bound := float64(n)*tau + float64(n)*u/(1-float64(n)*u)*mag*1.01 + 2*u*mag
	// The weights must be superincreasing with gaps above 2·bound.
	var sum float64
	for i := range n {
		d := t[1][i] - t[0][i] // exact enough: both terms are ≥ 0 and far apart or tiny
		if d-sum <= 2*bound {
			return false
		}
		sum += d
	}
	labels := make([]int, n)
	for range RobustTrials {
		s := fpa.New(f)
		for i := range labels {
			labels[i] = rng.IntN(2)
			term, _ := l.TermFPA(f, labels[i], x[i])
			s.Add(s, term)
		}
		s.Quo(s, fpa.New(f).SetFloat64(float64(n)))
		mean, _ := s.Float64()
		obs := mean + tau*(2*rng.Float64()-1)
		// Greedy decode on S = N·ℓ̂ − Σ t0, in big.Float to stay exact.
		r := new(big.Float).SetPrec(256).SetFloat64(obs)
		r.Mul(r, big.NewFloat(float64(n)))
		for i := range n {
			r.Sub(r, big.NewFloat(t[0][i]))
		}
		prefix := 0.0
		for i := range n - 1 {
			prefix += t[1][i] - t[0][i]
		}
		for i := n - 1; i >= 0; i-- {
			d := t[1][i] - t[0][i]
			mid := new(big.Float).SetPrec(256).SetFloat64(d)
			mid.Add(mid, big.NewFloat(prefix))
			two := new(big.Float).SetPrec(256).Mul(r, big.NewFloat(2))
			got := 0
			if two.Cmp(mid) >= 0 {
				got = 1
				r.Sub(r, big.NewFloat(d))
			}
			if got != labels[i] {
				return false
			}
			if i > 0 {
				prefix -= t[1][i-1] - t[0][i-1]
			}
		}
		if rf, _ := r.Float64(); math.Abs(rf) > bound {
			return false
		}
	}
	return true
}

// LargestRobustN returns the largest N ≤ maxN such that
// [RobustSucceeds] holds for every size from 1 to N, the labelings drawn
// from one PCG seeded by seed (BenchmarkLargestN uses seed 7), or ctx's
// error.
func LargestRobustN(ctx context.Context, f fpa.Format, logit bool, tau float64, maxN int, seed uint64) (int, error) {
	rng := rand.New(rand.NewPCG(seed, seed))
	best := 0
	for n := 1; n <= maxN; n++ {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if !RobustSucceeds(f, logit, tau, n, rng) {
			break
		}
		best = n
	}
	return best, nil
}
