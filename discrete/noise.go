package discrete

import (
	"fmt"
	"math"

	"github.com/labelinf/labelinf/scorer"
)

// NoiseRepeats returns the repeats and the bound τ on the mean's noise
// with which o's attack decodes scores carrying fresh noise z (drawn
// anew for every submission): the mean of m releases is within τ of the
// exact score plus half a unit of the rounding, and τ + ½·10^−d must stay
// below half of what one label changes the score (1/N; the multiclass
// Brier score's 2/N; the AUC's 2/N at least, in the queries of Flip and
// Group).
//
//   - Gaussian σ: the mean's noise is Gaussian of σ/√m, so
//     τ = σ·√(2 ln(2Q/δ)/m) bounds all Q means with probability 1 − δ.
//   - Laplace b: E[e^(λX)] = 1/(1 − b²λ²) ≤ e^(2b²λ²) for |λ| ≤ 1/(√2·b),
//     so a Chernoff bound gives τ = b·√(8 ln(2Q/δ)/m) (while τ ≤ 2√2·b).
//
// Q is o's planned queries without repeats, δ is z.Delta (1e-6 if 0).
// It returns 1 and z's bound for bounded noise (averaging does not shrink
// a worst case), and an error when the rounding alone is coarser than
// half a label's change (no mean helps) or the repeats exceed 10^9.
func NoiseRepeats(o Options, z scorer.Noise) (repeats int, tau float64, err error) {
	switch z.Kind {
	case scorer.NoNoise:
		return 1, 0, nil
	case scorer.Bounded:
		return 1, z.Tau, nil
	case scorer.Gaussian, scorer.Laplace:
	default:
		return 0, 0, fmt.Errorf("discrete: noise %v is not modelled here", z.Kind)
	}
	step := labelStep(o)
	half := 0.0
	if o.Decimals >= 0 {
		half = 0.5 * math.Pow(10, -float64(o.Decimals))
	}
	margin := (step/2 - half) * (1 - 1e-9)
	if !(margin > 0) {
		return 0, 0, fmt.Errorf("discrete: the rounding (%d decimals) is coarser than half a label's change of the score: no mean of releases decodes", o.Decimals)
	}
	p := o
	p.Repeats, p.Tau, p.Check = 1, 0, false
	q, err := Plan(p)
	if err != nil {
		return 0, 0, err
	}
	delta := z.Delta
	if !(delta > 0 && delta < 1) {
		delta = 1e-6
	}
	l := math.Log(2 * float64(q+1) / delta)
	var c float64 // τ = c/√m
	switch z.Kind {
	case scorer.Gaussian:
		c = z.Tau * math.Sqrt(2*l)
	default:
		c = z.Tau * math.Sqrt(8*l)
	}
	m := math.Ceil((c / margin) * (c / margin))
	if m > 1e9 {
		return 0, 0, fmt.Errorf("discrete: noise %g needs %.3g repeats a query", z.Tau, m)
	}
	repeats = max(int(m), 1)
	tau = c / math.Sqrt(float64(repeats))
	if z.Kind == scorer.Laplace && tau > 2*math.Sqrt2*z.Tau {
		tau = math.Inf(1) // outside the bound's range: no decoding
		return 0, 0, fmt.Errorf("discrete: Laplace noise %g: the bound does not hold at one repeat", z.Tau)
	}
	return repeats, tau, nil
}
