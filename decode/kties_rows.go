// This file makes the rows of Cross's K-ary digits (kties.go): a point's
// radix and classes, and the cached rows of its digit over its label set or
// its groups.

package decode

import (
	"fmt"
	"math"
	"math/bits"
)

// labelSets returns the set of each label of m, in increasing order.
func labelSets(m uint64) []uint64 {
	var g []uint64
	for ; m != 0; m &= m - 1 {
		g = append(g, m&-m)
	}
	return g
}

// leastLabels returns the least label of each set of g.
func leastLabels(g []uint64) []int {
	c := make([]int, len(g))
	for m, x := range g {
		c[m] = bits.TrailingZeros64(x)
	}
	return c
}

// radixRowOf returns point i's digit row at step u: every label of the
// digit's m-th value (its m-th label, or group: digitGroups, at most
// three) at probability ∝ e^(−m·u), the labels outside its set at the
// last value's, so that a group's labels share one term, the digit reads
// which group, and no term exceeds the set's largest. Rows are cached by
// (set, groups, step).
func (a *multi) radixRowOf(i int, u float64) (rowInfo, error) {
	key := radixKey{mask: a.mask[i], u: u}
	g := a.digitGroups[i]
	if g != nil {
		if len(g) < 2 || len(g) > 3 {
			return rowInfo{}, fmt.Errorf("decode: a grouped digit of %d groups (want 2 or 3)", len(g))
		}
		key.g0, key.g1 = g[0], g[1]
	}
	return cachedRow(a, &a.radixRows, radixRowsMax, key, func(row []float64) {
		if g == nil {
			g = labelSets(key.mask)
		}
		q := make([]float64, len(g))
		var z float64
		for m := len(g) - 1; m >= 0; m-- {
			q[m] = math.Exp(-float64(m) * u)
			z += float64(bits.OnesCount64(g[m])) * q[m]
		}
		last := q[len(q)-1]
		z += float64(a.k-bits.OnesCount64(key.mask)) * last
		for c := range row {
			row[c] = last / z
		}
		for m, x := range g {
			for _, c := range maskClasses(x) {
				row[c] = q[m] / z
			}
		}
	})
}

// cachedRow returns the row of key in cache, made on first use by fill
// (given K zeros) and a.rowInfo; a full cache (max rows) is cleared first.
func cachedRow[K comparable](a *multi, cache *map[K]rowInfo, max int, key K, fill func(row []float64)) (rowInfo, error) {
	if r, ok := (*cache)[key]; ok {
		return r, nil
	}
	row := make([]float64, a.k)
	fill(row)
	r, err := a.rowInfo(row)
	if err != nil {
		return rowInfo{}, err
	}
	if *cache == nil {
		*cache = make(map[K]rowInfo)
	}
	if len(*cache) >= max {
		clear(*cache)
	}
	(*cache)[key] = r
	return r, nil
}

// radixRowsMax bounds the cached digit rows: more than the digit rows of
// the unit grid (rowCacheMax), since KList's tails hold points of every
// label set (a row is about a kilobyte).
const radixRowsMax = 1 << 14
