// This file implements subset-sum search by meet-in-the-middle: the
// subsets whose sum falls in a window, and the subset whose sum is
// closest to a target; plus the plain 2ⁿ enumeration they replace.

package subsetsum

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// MaxMITM is the largest set the meet-in-the-middle searches accept. A
// half of h elements holds 2^h sums and masks (12 bytes each) plus a
// merge buffer, so n = 52 peaks near 3.2 GiB; n = 50 needs about 1.6 GiB.
const MaxMITM = 52

// MaxBrute is the largest set the brute-force searches accept.
const MaxBrute = 40

// ErrAmbiguous is returned by [Window] when more subsets than the limit
// have sums in the window.
var ErrAmbiguous = errors.New("subsetsum: more subsets in the window than the limit")

// half is every subset sum of a list of weights, sorted, with the bit
// mask of the subset that gives each sum.
type half struct {
	sums  []int64
	masks []uint32
}

// enumerate lists the 2^len(w) subset sums of w in increasing order by
// merging: adding weight j merges the list with itself shifted by w_j,
// both already sorted, so the whole list costs O(2^len(w)) with no sort
// [HS74]. It checks ctx between weights.
func enumerate(ctx context.Context, w []int64) (half, error) {
	size := 1 << len(w)
	h := half{sums: make([]int64, 1, size), masks: make([]uint32, 1, size)}
	bs, bm := make([]int64, size), make([]uint32, size)
	for j, x := range w {
		if err := ctx.Err(); err != nil {
			return half{}, err
		}
		m := len(h.sums)
		bit := uint32(1) << j
		a, b, k := 0, 0, 0
		for a < m || b < m {
			if b >= m || (a < m && h.sums[a] <= h.sums[b]+x) {
				bs[k], bm[k] = h.sums[a], h.masks[a]
				a++
			} else {
				bs[k], bm[k] = h.sums[b]+x, h.masks[b]|bit
				b++
			}
			k++
		}
		h.sums, bs = bs[:k], h.sums[:cap(h.sums)]
		h.masks, bm = bm[:k], h.masks[:cap(h.masks)]
	}
	return h, nil
}

// checkWeights validates a weight list for the searches: at most maxN
// weights whose absolute sum stays below 2⁶² so that no sum overflows.
func checkWeights(w []int64, maxN int) error {
	if len(w) < 1 || len(w) > maxN {
		return fmt.Errorf("subsetsum: %d weights; want 1 to %d", len(w), maxN)
	}
	var total uint64
	for _, v := range w {
		if v == math.MinInt64 {
			return fmt.Errorf("subsetsum: weight %d out of range", v)
		}
		total += abs64(v)
		if total > 1<<62 {
			return fmt.Errorf("subsetsum: Σ|w_i| exceeds 2^62")
		}
	}
	return nil
}

// Window returns the subsets of w, as bit masks (bit i for w[i]), whose
// sums lie in [lo, hi], at most limit of them. It is the decoder of a
// noisy subset-sum code: lo and hi bracket the true sum by the noise
// bound, one subset in the window means the labeling is determined, none
// means the score is inconsistent with the weights, more means the code
// does not separate at this noise.
//
// It meets in the middle [HS74]: both halves' sums are listed sorted by
// merging, then one pass with two pointers finds, for each left sum a,
// the right sums in [lo − a, hi − a]; left sums that cannot reach the
// window whatever the right half adds are skipped by binary search
// (pruning), so the time is O(2^(n/2) + output) instead of the 2ⁿ of
// enumeration, and the memory O(2^(n/2)).
//
// It returns ErrAmbiguous, with the first limit masks found, when more
// subsets qualify; an error if w is empty, longer than [MaxMITM] or its
// absolute sum exceeds 2⁶², if lo > hi or limit < 1; and ctx.Err() if
// ctx is cancelled.
func Window(ctx context.Context, w []int64, lo, hi int64, limit int) ([]uint64, error) {
	if err := checkWeights(w, MaxMITM); err != nil {
		return nil, err
	}
	if lo > hi || limit < 1 {
		return nil, fmt.Errorf("subsetsum: Window [%d, %d] with limit %d", lo, hi, limit)
	}
	m := len(w) / 2
	L, err := enumerate(ctx, w[:m])
	if err != nil {
		return nil, err
	}
	R, err := enumerate(ctx, w[m:])
	if err != nil {
		return nil, err
	}
	rmin, rmax := R.sums[0], R.sums[len(R.sums)-1]
	// Prune: only left sums a with lo − rmax ≤ a ≤ hi − rmin can reach.
	start, _ := slices.BinarySearch(L.sums, lo-rmax)
	var out []uint64
	// For a ascending the window [lo − a, hi − a] slides down; keep its
	// right end j (first index with sum > hi − a) and scan down to lo − a.
	j := len(R.sums)
	for i := start; i < len(L.sums); i++ {
		a := L.sums[i]
		if a > hi-rmin {
			break
		}
		if i&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for j > 0 && R.sums[j-1] > hi-a {
			j--
		}
		for k := j - 1; k >= 0 && R.sums[k] >= lo-a; k-- {
			if len(out) == limit {
				return out, ErrAmbiguous
			}
			out = append(out, uint64(L.masks[i])|uint64(R.masks[k])<<m)
		}
	}
	return out, nil
}

// Closest returns the subset of w, as a bit mask, whose sum is closest to
// t, and that sum (the smaller sum on a tie), by meet-in-the-middle with
// two pointers over the sorted halves [HS74]: O(2^(n/2)) time and memory.
// It returns an error as [Window] does.
func Closest(ctx context.Context, w []int64, t int64) (uint64, int64, error) {
	if err := checkWeights(w, MaxMITM); err != nil {
		return 0, 0, err
	}
	m := len(w) / 2
	L, err := enumerate(ctx, w[:m])
	if err != nil {
		return 0, 0, err
	}
	R, err := enumerate(ctx, w[m:])
	if err != nil {
		return 0, 0, err
	}
	var bestMask uint64
	var bestSum int64
	bestDist := uint64(math.MaxUint64)
	consider := func(i, k int) {
		s := L.sums[i] + R.sums[k]
		d := abs64(s - t)
		if d < bestDist || (d == bestDist && s < bestSum) {
			bestDist, bestSum = d, s
			bestMask = uint64(L.masks[i]) | uint64(R.masks[k])<<m
		}
	}
	// For a ascending, the largest right sum ≤ t − a moves down.
	j := len(R.sums) - 1
	for i, a := range L.sums {
		if i&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		for j > 0 && R.sums[j] > t-a {
			j--
		}
		consider(i, j)
		if j+1 < len(R.sums) {
			consider(i, j+1)
		}
		if bestDist == 0 {
			break
		}
	}
	return bestMask, bestSum, nil
}

// BruteClosest is the papers' decoder, LABELINF [AKXFT-EA, LABELINF]: it
// tries all 2ⁿ subsets (in Gray-code order, one addition each) and returns
// the one whose sum is closest to t, as [Closest] does. It is the baseline
// the meet-in-the-middle search is measured against, and its test oracle.
// It returns an error if w is empty or longer than [MaxBrute], or its
// absolute sum exceeds 2⁶²; ctx.Err() if ctx is cancelled.
func BruteClosest(ctx context.Context, w []int64, t int64) (uint64, int64, error) {
	if err := checkWeights(w, MaxBrute); err != nil {
		return 0, 0, err
	}
	var mask uint64
	var s int64
	bestMask, bestSum, bestDist := uint64(0), int64(0), abs64(t)
	for g := uint64(1); g < 1<<len(w); g++ {
		if g&0xfffff == 0 {
			if err := ctx.Err(); err != nil {
				return 0, 0, err
			}
		}
		i := bits.TrailingZeros64(g) // Gray code: flip bit i
		mask ^= 1 << i
		if mask>>i&1 == 1 {
			s += w[i]
		} else {
			s -= w[i]
		}
		d := abs64(s - t)
		if d < bestDist || (d == bestDist && s < bestSum) {
			bestMask, bestSum, bestDist = mask, s, d
		}
	}
	return bestMask, bestSum, nil
}
