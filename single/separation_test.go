package single

// The separation Λ of a loss at a fixed prediction [EA, Definition 1,
// Proposition 1], measured for the tests: by exhaustion for any loss,
// in closed form for the family's and the prime-log plans; and the
// bound of [EA, Theorem 12] by exhaustion, against which
// AdditiveMonotoneBound's closed form is checked.

import (
	"fmt"
	"math"
	"math/big"
	"slices"
)

// maxSeparationN bounds the exhaustive enumerations.
const maxSeparationN = 24

// separation returns Λ_θ(f) = min over labelings σ₁ ≠ σ₂ of
// |f(σ₁) − f(σ₂)| for an arbitrary binary loss f at a fixed prediction
// [EA, Definition 1], by evaluating all 2ⁿ labelings and sorting: labels
// can be recovered from a τ-noisy score iff Λ ≥ 2τ [EA, Proposition 1].
// Deciding separability is co-NP-hard in general [EA, Theorem 10], so for
// a loss with no structure to exploit exhaustion is the honest tool; the
// decomposable losses get Λ in closed form from familySeparation.
// It returns an error if n is outside [1, maxSeparationN] or f returns NaN.
func separation(n int, f func(sigma []int) float64) (float64, error) {
	if n < 1 || n > maxSeparationN {
		return 0, fmt.Errorf("single: separation over %d labels; want 1 to %d", n, maxSeparationN)
	}
	vals := make([]float64, 1<<n)
	sigma := make([]int, n)
	for m := range vals {
		for i := range sigma {
			sigma[i] = m >> i & 1
		}
		v := f(sigma)
		if math.IsNaN(v) {
			return 0, fmt.Errorf("single: loss is NaN at labeling %v", sigma)
		}
		vals[m] = v
	}
	slices.Sort(vals)
	best := math.Inf(1)
	for i := 1; i < len(vals); i++ {
		best = min(best, vals[i]-vals[i-1])
	}
	return best, nil
}

// familySeparation returns Λ_θ(f) = μ(D)/N for the submitted θ, the least gap
// between two labelings' losses [EA, Proposition 1]; it exceeds 2τ. For
// superincreasing weights μ is exactly min_i (d_i − Σ_{j<i} d_j): two
// subsets differ first at their largest differing index i, by at least
// that, and {i} against {0, …, i−1} attains it. For Conway–Guy weights it
// is W·μ(u) = W less the root finder's error, a lower bound.
func familySeparation(p *FamilyPlan) float64 {
	if p.ConwayGuy {
		m := p.W
		for i, di := range p.d {
			f, _ := di.Float64()
			m -= 2 * math.Abs(f-p.W*float64(p.cg[i]))
		}
		return m / float64(p.N)
	}
	sum := new(big.Float).SetPrec(p.prec + 64)
	gap := new(big.Float).SetPrec(p.prec + 64)
	best := math.Inf(1)
	for _, di := range p.d {
		g, _ := gap.Sub(di, sum).Float64()
		best = min(best, g)
		sum.Add(sum, di)
	}
	return best / float64(p.N)
}

// primeLogSeparation returns a lower bound on Λ, the least gap between two
// labelings' losses: ln(1 + 1/Π p_i)/N², as a float64 (0 if it
// underflows, from N ≈ 130 on).
func primeLogSeparation(p *PrimeLogPlan) float64 {
	return math.Log1p(math.Ldexp(1, -p.bits)) / float64(p.N) / float64(p.N)
}

// monotoneBound returns [EA, Theorem 12]'s bound for a loss f over n
// binary labels at a fixed prediction, by evaluating all 2ⁿ labelings: if
// f is monotone (non-decreasing as labels turn to 1, or non-increasing,
// the mirror image) it returns min over B and j ∉ B of |f(B ∪ {j}) −
// f(B)| / 2 with the B and j attaining it, and ok; f is then not
// τ-separable for any τ above the bound. If f is not monotone, ok is
// false (the theorem says nothing). It returns an error if n is outside
// [1, maxSeparationN] or f returns NaN.
func monotoneBound(n int, f func(sigma []int) float64) (bound float64, set []int, j int, ok bool, err error) {
	if n < 1 || n > maxSeparationN {
		return 0, nil, 0, false, fmt.Errorf("single: monotoneBound over %d labels; want 1 to %d", n, maxSeparationN)
	}
	vals := make([]float64, 1<<n)
	sigma := make([]int, n)
	for m := range vals {
		for i := range sigma {
			sigma[i] = m >> i & 1
		}
		if vals[m] = f(sigma); math.IsNaN(vals[m]) {
			return 0, nil, 0, false, fmt.Errorf("single: loss is NaN at labeling %v", sigma)
		}
	}
	up, down := true, true
	bound = math.Inf(1)
	bestM := 0
	for m := range vals {
		for i := range n {
			if m>>i&1 == 1 {
				continue
			}
			d := vals[m|1<<i] - vals[m]
			up = up && d >= 0
			down = down && d <= 0
			if a := math.Abs(d) / 2; a < bound {
				bound, bestM, j = a, m, i
			}
		}
	}
	if !up && !down {
		return 0, nil, 0, false, nil
	}
	for i := range n {
		if bestM>>i&1 == 1 {
			set = append(set, i)
		}
	}
	return bound, set, j, true, nil
}
