// This file learns what a KList score's survivors agree on and carries the
// rest as the next list (klist.go).

package decode

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// update learns what the survivors agree on: the labels a point may
// have (a top point's half, a tail point's label; one label left is
// learned), and carries the points they disagree on with the list of
// their distinct values. It returns the labels learned.
func (st *klState) update(q *klQuery, surv []lbSurv) int {
	a, lb := st.a, st.lb
	nd, nTop := q.nd, q.nd+q.k
	// A tail lister that stopped short leaves every tail label open.
	short := q.tail != nil && slices.ContainsFunc(surv, func(s lbSurv) bool { return s.tail == nil })
	val := func(s lbSurv, j int) uint64 {
		i := q.idx[j]
		switch {
		case j < nd:
			return st.vals[s.l][j]
		case j < nTop:
			if s.m>>(j-nd)&1 == 0 {
				return q.s0[j]
			}
			return a.mask[i] &^ q.s0[j]
		case q.rad != nil:
			// A digit's labels (KBin).
			return q.dv[j-nTop][q.digit(s.n, j-nTop)]
		case short:
			return a.mask[i]
		}
		return q.dv[j-nTop][s.tail[j-nTop]]
	}
	sigma := slices.Repeat([]int{-1}, len(q.idx))
	var open []int // positions still undecided
	for j, i := range q.idx {
		v0 := val(surv[0], j)
		union, agree := v0, true
		for _, s := range surv[1:] {
			v := val(s, j)
			union |= v
			agree = agree && v == v0
		}
		a.mask[i] &= union
		if !agree {
			open = append(open, j)
		} else if bits.OnesCount64(a.mask[i]) == 1 {
			sigma[j] = bits.TrailingZeros64(a.mask[i])
		}
	}
	for _, i := range lb.cD {
		lb.inD[i] = false
	}
	lb.cD = lb.cD[:0]
	for _, j := range open {
		lb.cD = append(lb.cD, q.idx[j])
		lb.inD[q.idx[j]] = true
		if j >= nTop {
			st.tailCarried++
		}
	}
	seen := make(map[string]bool, len(surv))
	var vals [][]uint64
	key := make([]byte, 0, 8*len(open))
	for _, s := range surv {
		e := make([]uint64, len(open))
		key = key[:0]
		for x, j := range open {
			e[x] = val(s, j)
			key = binary.LittleEndian.AppendUint64(key, e[x])
		}
		if !seen[string(key)] {
			seen[string(key)] = true
			vals = append(vals, e)
		}
	}
	st.vals = vals
	return a.learn(q.idx, sigma)
}
