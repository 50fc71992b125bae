// This file implements the exact minimum gap between distinct subset
// sums, μ(S), by a meet-in-the-middle over signed combinations.

package subsetsum

import (
	"fmt"
	"math"
	"slices"
)

// MaxGapN is the largest set Gap accepts: its two half lists hold 3^15
// (14.3 million) signed sums each, about 230 MB with sorting.
const MaxGapN = 30

// Gap returns μ(S), the minimum difference between two distinct subset
// sums of s, exactly. Two subsets A ≠ B differ by Σ_A − Σ_B = Σ ε_i s_i
// with ε ∈ {−1, 0, 1}ⁿ not all zero, so μ(S) = min |Σ ε_i s_i| over
// nonzero ε; Gap splits ε into halves, lists the 3^(n/2) signed sums of
// each, sorts them and matches each left sum x with the right sums
// nearest −x. μ(S) = 0 means two subsets share a sum. The gap of a loss's
// weights D is what its separation is made of: Λ = μ(D)/N [MATH §2].
//
// It returns an error if len(s) is outside [1, MaxGapN] or Σ|s_i|
// exceeds 2⁶² (the sums must not overflow).
func Gap(s []int64) (int64, error) {
	n := len(s)
	if n < 1 || n > MaxGapN {
		return 0, fmt.Errorf("subsetsum: Gap of %d elements; want 1 to %d", n, MaxGapN)
	}
	var total uint64
	for _, v := range s {
		a := uint64(v)
		if v < 0 {
			a = uint64(-v)
		}
		if v == math.MinInt64 || total+a > 1<<62 {
			return 0, fmt.Errorf("subsetsum: Gap: Σ|s_i| exceeds 2^62")
		}
		total += a
	}
	left := signedSums(s[:n/2])
	right := signedSums(s[n/2:])
	slices.Sort(left)
	slices.Sort(right)
	// Zero appears once in each list from the all-zero half; a second zero
	// is a nonzero signed combination summing to 0.
	if countZeros(left) > 1 || countZeros(right) > 1 {
		return 0, nil
	}
	best := uint64(math.MaxUint64)
	// ε_L = 0: the nearest nonzero right sum to 0.
	for _, r := range right {
		if r != 0 {
			best = min(best, abs64(r))
		}
	}
	// ε_L ≠ 0: for x ascending, −x descends through right.
	j := len(right) - 1
	for _, x := range left {
		if x == 0 {
			continue
		}
		for j > 0 && right[j] > -x {
			j--
		}
		for _, k := range []int{j, j + 1} {
			if k >= 0 && k < len(right) {
				best = min(best, abs64(x+right[k]))
			}
		}
		if best == 0 {
			return 0, nil
		}
	}
	return int64(best), nil
}

// signedSums lists Σ ε_i s_i over ε ∈ {−1, 0, 1}^len(s), unsorted; the
// all-zero ε comes first.
func signedSums(s []int64) []int64 {
	size := 1
	for range s {
		size *= 3
	}
	out := make([]int64, 1, size)
	for _, w := range s {
		m := len(out)
		for i := range m {
			out = append(out, out[i]+w, out[i]-w)
		}
	}
	return out
}

func countZeros(x []int64) int {
	i, _ := slices.BinarySearch(x, 0)
	c := 0
	for ; i < len(x) && x[i] == 0; i++ {
		c++
	}
	return c
}

func abs64(x int64) uint64 {
	if x < 0 {
		return uint64(-x)
	}
	return uint64(x)
}
