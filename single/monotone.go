// This file implements the negative result for monotone losses [EA,
// Theorem 12, Corollary 4]: a loss that can only grow as labels are
// added, and grows by little for some label, cannot separate labelings
// under more noise than half that growth.

package single

import (
	"fmt"
	"math"
)

// MonotoneError reports [EA, Theorem 12]: at this prediction the loss is
// monotone in the set of positive labels, and adding label J to some set
// of them moves it by only 2·Bound, so two labelings' scores are within
// 2·Bound of each other and no decoder tells them apart under noise
// τ > Bound.
type MonotoneError struct {
	N     int
	Tau   float64
	Bound float64
	J     int
}

func (e *MonotoneError) Error() string {
	return fmt.Sprintf("single: not τ-separable (EA Thm 12): the loss is monotone in the set of positive labels and adding label %d moves it by only %.4g, so τ = %g > %.4g (half that) hides which of the two labelings was scored; with one query no decoder recovers all %d labels at this noise",
		e.J, 2*e.Bound, e.Tau, e.Bound, e.N)
}

// AdditiveMonotoneBound returns [EA, Theorem 12]'s bound for a loss f
// over n binary labels at a fixed prediction (if f is monotone, non-
// decreasing as labels turn to 1 or non-increasing, min over B and j ∉ B
// of |f(B ∪ {j}) − f(B)| / 2, above which f is not τ-separable), in
// closed form for a mean loss
// over n rows whose label-dependent part is additive, f(B) = (c +
// Σ_{j∈B} d_j)/n (cross-entropy and every loss of the family at a fixed
// prediction): f is monotone iff the weights d_j share a sign, and then
// every B gives the same increment, so the bound is min_j |d_j| / (2n).
// It returns ok false if the signs differ, and the index of the smallest
// weight.
func AdditiveMonotoneBound(d []float64, n int) (bound float64, j int, ok bool) {
	pos, neg := true, true
	bound = math.Inf(1)
	for i, v := range d {
		pos = pos && v >= 0
		neg = neg && v <= 0
		if a := math.Abs(v) / (2 * float64(n)); a < bound {
			bound, j = a, i
		}
	}
	return bound, j, len(d) > 0 && (pos || neg)
}
