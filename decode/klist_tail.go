// This file lists the labelings of a KList query's tail whose sums lie in a
// window (klist_decode.go).

package decode

import (
	"cmp"
	"math"
	"slices"
)

// klTail lists the labelings of a query's tail whose float64 sums lie
// in a window: a superset of those whose exact sums do, the window
// widened by margin, far above float64's rounding of the sums.
type klTail struct {
	ord        []int       // tail positions, largest span first
	cls        [][]int     // cls[s]: the labels of position ord[s]
	d          [][]float64 // d[s][x]: the increment of label cls[s][x]
	minR, maxR []float64   // the least and largest sum of ord[s:]
	cMin, cMax []int       // the labels of ord[s] with the least and largest computed term
	margin     float64
	depth      int // the bracketed subtrees' depth (klistParams.bracket, or one more)
}

// newTail prepares the lister of q's tail.
func (st *klState) newTail(q *klQuery) *klTail {
	p := q.tail
	nt := len(q.tIdx)
	tl := &klTail{ord: make([]int, nt), cls: make([][]int, nt), d: make([][]float64, nt), minR: make([]float64, nt+1), maxR: make([]float64, nt+1), cMin: make([]int, nt), cMax: make([]int, nt)}
	// Each position's labels (a grouped digit's: its groups' least) and
	// their increments, in tail order, then the positions by span.
	cls, d := make([][]int, nt), make([][]float64, nt)
	abs := 0.0
	for j := range q.tIdx {
		tl.ord[j] = j
		cls[j] = leastLabels(q.dv[j])
		for _, c := range cls[j] {
			f, _ := p.v[j][c].Float64()
			d[j] = append(d[j], f)
		}
		abs += max(math.Abs(slices.Min(d[j])), math.Abs(slices.Max(d[j])))
	}
	span := func(j int) float64 { return slices.Max(d[j]) - slices.Min(d[j]) }
	slices.SortStableFunc(tl.ord, func(x, y int) int { return cmp.Compare(span(y), span(x)) })
	for s, j := range tl.ord {
		r := &q.rows[q.nd+q.k+j]
		tl.cls[s], tl.d[s] = cls[j], d[j]
		tl.cMin[s] = slices.MinFunc(cls[j], func(x, y int) int { return cmp.Compare(r.lo[x], r.lo[y]) })
		tl.cMax[s] = slices.MaxFunc(cls[j], func(x, y int) int { return cmp.Compare(r.hi[x], r.hi[y]) })
	}
	for s := nt - 1; s >= 0; s-- {
		tl.minR[s] = tl.minR[s+1] + slices.Min(tl.d[s])
		tl.maxR[s] = tl.maxR[s+1] + slices.Max(tl.d[s])
	}
	tl.margin = (abs + 1) * 0x1p-40
	tl.depth = st.kb.klist.bracket
	if nt > tl.depth+1 && len(tl.d[nt-1]) <= 2 {
		tl.depth++
	}
	return tl
}

// list calls set(position, value, its label) for each position of a
// labeling whose sum lies in [lo, hi] (widened by the caller), then leaf,
// depth first with the digits of largest span first, skipping the
// subtrees of the last tl.depth positions that bracket rules out; it
// reports false if it stopped after maxCand labelings (*n counts them).
func (tl *klTail) list(lo, hi float64, set func(j, x, c int), leaf func(), bracket func(s int) bool, n *int) bool {
	var rec func(s int, p float64) bool
	rec = func(s int, p float64) bool {
		// A bracket costs two emulations: a last digit with at most two
		// labels in the window is emulated directly (the bracket only
		// skips labelings that cannot explain the score).
		if s == len(tl.ord)-tl.depth && s > 0 && (tl.depth > 1 || tl.within(s, p, lo, hi) > 2) && !bracket(s) {
			return true
		}
		if s == len(tl.ord) {
			if *n++; *n > maxCand {
				return false
			}
			leaf()
			return true
		}
		for x, dv := range tl.d[s] {
			q := p + dv
			if q+tl.minR[s+1] > hi || q+tl.maxR[s+1] < lo {
				continue
			}
			set(tl.ord[s], x, tl.cls[s][x])
			if !rec(s+1, q) {
				return false
			}
		}
		return true
	}
	return rec(0, 0)
}

// within counts the labels of the last position s whose sum, after the
// sum p of the positions before it, lies in [lo, hi].
func (tl *klTail) within(s int, p, lo, hi float64) int {
	n := 0
	for _, dv := range tl.d[s] {
		if q := p + dv; q >= lo && q <= hi {
			n++
		}
	}
	return n
}
