// This file learns what a KList score's survivors agree on and carries the
// rest as the next list (klist.go).

package decode

import (
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
			return q.dv[j][s.m>>(j-nd)&1]
		case q.rad != nil:
			// A digit's labels (KBin): digit j − nTop of the reading n.
			n := s.n
			for _, r := range q.rad[:j-nTop] {
				n /= uint64(r)
			}
			return q.dv[j][n%uint64(q.rad[j-nTop])]
		case short:
			return a.mask[i]
		}
		return q.dv[j][s.tail[j-nTop]]
	}
	// Each survivor's values, read once. A top point's bit-1 value reads
	// its set, but not as narrowed below: the list's values are the same
	// either way.
	vm := slices.Grow(st.vm[:0], len(surv)*len(q.idx))
	defer func() { st.vm = vm }()
	for _, s := range surv {
		for j := range q.idx {
			vm = append(vm, val(s, j))
		}
	}
	union, open, vals := listUpdate(len(q.idx), len(surv), vm)
	// Each point keeps the labels the survivors give it (disjoint values:
	// one label left only where they agree).
	sigma := slices.Repeat([]int{-1}, len(q.idx))
	for j, i := range q.idx {
		a.mask[i] &= union[j]
		if bits.OnesCount64(a.mask[i]) == 1 {
			sigma[j] = bits.TrailingZeros64(a.mask[i])
		}
	}
	lb.setCarried(q.idx, open)
	tail, _ := slices.BinarySearch(open, nTop) // open ascends
	st.tailCarried += len(open) - tail
	st.vals = vals
	return a.learn(q.idx, sigma)
}
