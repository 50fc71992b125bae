// This file implements ICML Alg 3, the Alg3 strategy [AKXFT21, Alg 3,
// Thm 7].

package decode

// Alg3 is ICML Alg 3: fixed blocks of k points with weights
// 2Nτ(1+δ)·2^(j−1) (base K for K classes), all other points neutral. τ is
// the scorer's whole error budget per point (noise, rounding, decimals).
// The paper searches the 2^k labelings of a block; for superincreasing
// weights the greedy decoder finds the same one in O(k).
//
// Its next block keeps the first block's unit g; only the block shrinks
// when the budget grows.
var Alg3 Strategy = &designer{name: "alg3", init: setNeutralKnown, next: func(a *multi, kmax int) (*blockPlan, error) {
	return a.fixedPlan(kmax, func(kmax int, prev *blockPlan) (*blockPlan, error) {
		g := 0.0
		if prev != nil {
			g = prev.g
		}
		return a.planDigits(kmax, true, g)
	})
}}

func init() { register(Alg3) }
