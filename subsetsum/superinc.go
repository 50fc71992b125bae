// This file implements the linear-time decoder for superincreasing
// weights.

package subsetsum

import (
	"errors"
	"fmt"
	"math/big"
)

// ErrNoSubset is returned when no subset's sum is within the tolerance of
// the target.
var ErrNoSubset = errors.New("subsetsum: no subset sum within the tolerance of the target")

// DecodeSuperincreasing returns the unique subset of w, as a bit per
// weight, whose sum is within r of t, for superincreasing weights with a
// margin: every w_i exceeds the sum of the smaller ones by more than 2r,
// gap_i = w_i − Σ_{j<i} w_j > 2r (powers of two with r < ½; the weights
// of [AKXFT21, Algorithm 2] scaled by 2Nτ). It walks from the largest
// weight down, taking w_i iff the residual is at least the midpoint
// between w_i and Σ_{j<i} w_j, which the margin makes the only
// consistent choice: O(n) big-integer operations instead of the 2ⁿ
// candidates of [AKXFT21, Algorithm 2, step 5].
//
// w must be sorted increasing and positive. It returns an error if it is
// not, if a gap is not above 2r, or if r < 0; ErrNoSubset if the final
// residual exceeds r (t is not a subset sum up to r).
func DecodeSuperincreasing(w []*big.Int, t, r *big.Int) ([]bool, error) {
	if r.Sign() < 0 {
		return nil, fmt.Errorf("subsetsum: negative tolerance %v", r)
	}
	n := len(w)
	// One ascending pass checks the margins and sums the weights; the
	// descending pass then keeps below = Σ_{j<i} w_j by subtraction, so
	// memory stays O(n) words beyond the weights, not n prefix sums.
	below := new(big.Int)
	twoR := new(big.Int).Lsh(r, 1)
	gap := new(big.Int)
	for i, v := range w {
		if v.Sign() <= 0 {
			return nil, fmt.Errorf("subsetsum: weight %d is not positive", i)
		}
		if gap.Sub(v, below).Cmp(twoR) <= 0 {
			return nil, fmt.Errorf("subsetsum: weight %d exceeds the smaller ones by %v, not more than 2r = %v: not superincreasing with margin", i, gap, twoR)
		}
		below.Add(below, v)
	}
	res := new(big.Int).Set(t)
	two := new(big.Int)
	mid := new(big.Int)
	out := make([]bool, n)
	for i := n - 1; i >= 0; i-- {
		below.Sub(below, w[i]) // now Σ_{j<i} w_j
		// take w_i iff 2·res ≥ w_i + Σ_{j<i} w_j.
		two.Lsh(res, 1)
		mid.Add(w[i], below)
		if two.Cmp(mid) >= 0 {
			out[i] = true
			res.Sub(res, w[i])
		}
	}
	if res.CmpAbs(r) > 0 {
		return nil, ErrNoSubset
	}
	return out, nil
}
